/**
 * LOD profiles for the batch engine: a metric, its thresholds, and the per-level costs and errors
 * the budget policies trade against each other. Validated once in {@link validateLodProfile}, then
 * flattened by {@link ProfileTable} into typed arrays that the per-object kernels index by profile id.
 *
 * Contributor notes:
 * - Costs must not increase toward coarser levels and errors must not decrease toward coarser levels
 *   (level 0 is the finest). With that order the cheapest level is the coarsest, which is what
 *   "minimum cost" and the quality floor mean, and the budget hull never sees a dominated level
 *   that is cheaper than a coarser one.
 * - Default costs are `4^(levels − 1 − l)` (each level a quarter of the triangles of the next finer
 *   one, coarsest = 1) — the classic halving of edge length per level.
 * - Errors are fractions of the bounding diameter, so `pixel diameter × error` is the level's
 *   screen-space error in pixels (the quality model of the budget policies). Default errors come
 *   from the thresholds of a screen metric (level l + 1 shows 1 px of error at size thresholds[l]),
 *   else from triangle counts (`π / (√3 · n)`): `defaultLevelErrors` in policies/screenSpaceError.ts.
 * - The flat arrays have room for `capacity` profiles, doubled when full, and are laid out again
 *   only then or when a profile with more levels than any before widens `stride` (at most 254
 *   times): `add()` is amortised O(levels). Rebuilding them on every add made adding n profiles
 *   O(n²) (10k of 20k profiles took 15 s). Entries past `count` are zero and never read.
 *
 * @module
 */
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import { validateThresholds } from '../../heuristics/thresholds.js';
import { defaultLevelErrors } from '../../policies/screenSpaceError.js';

/** Options for {@link LodSet.addProfile}. @category Batch */
export interface LodProfileOptions {
  /** `'distance'` (ascending thresholds) or a screen metric (`'pixels'`, `'screenHeight'`, `'screenArea'`; descending). */
  metric: SphereMetric;
  /** Ascending for `'distance'`, descending otherwise; `levelCount = thresholds.length + 1`. */
  thresholds: ArrayLike<number>;
  /** OpenUSD blend thresholds, one per threshold at most. */
  blendThresholds?: ArrayLike<number>;
  /** Per-level cost (e.g. triangles), `levelCount` values, non-increasing toward coarser levels, ≥ 0. Default `4^(levelCount−1−l)`. */
  costs?: ArrayLike<number>;
  /**
   * Per-level geometric error as a fraction of the bounding diameter, `levelCount` values,
   * non-decreasing toward coarser levels, ≥ 0. Default: {@link defaultLevelErrors} (from the
   * thresholds of a screen metric, else from the costs as triangle counts).
   */
  errors?: ArrayLike<number>;
  /** Hybrid policy: never coarsen past this level to meet the budget. Default: the coarsest level. */
  qualityFloor?: number;
  /**
   * The profile's own relative hysteresis bands in [0, 1): one number for every boundary, or one per
   * threshold (boundary `k` lies between levels `k` and `k + 1`). Given, they replace the update's
   * `hysteresis` for this profile's objects wherever that option applies (the thresholds rule, and
   * the preferred levels of `budget` / `hybrid`): leaving level `old` across boundary `k` needs the
   * value to pass the threshold by the factor `1 ± bands[k]`, as `ScreenSizeLOD`'s per-level bands.
   * Default: none (the update's band).
   */
  hysteresis?: number | ArrayLike<number>;
}

/** A validated profile. @category Batch */
export interface LodProfile {
  readonly metric: SphereMetric;
  readonly metricCode: number;
  readonly descending: boolean;
  readonly thresholds: Float32Array;
  readonly blendThresholds: Float32Array;
  readonly levelCount: number;
  readonly costs: Float64Array;
  readonly errors: Float64Array;
  /** Coarsest level the hybrid policy may coarsen to (levelCount − 1 when not set). */
  readonly qualityFloor: number;
  /** The profile's own hysteresis band per boundary (`thresholds.length` values), or null: the update's. */
  readonly bands: Float64Array | null;
}

/** Numeric codes of the metrics, as stored in `ProfileTable.metricCode` (internal). @category Batch */
export const MetricCode = { distance: 0, pixels: 1, screenHeight: 2, screenArea: 3 } as const;

/** Largest number of levels a profile may have (levels are stored in a `Uint8Array`, 255 is the hidden sentinel). */
export const MAX_LEVELS = 255;

const OWNER = 'LodSet.addProfile';

function readLevelValues(values: ArrayLike<number>, levelCount: number, field: string): Float64Array {
  if (typeof values !== 'object' || values === null || typeof values.length !== 'number') {
    throw new TypeError(`${OWNER}: ${field} must be an array of numbers`);
  }
  if (values.length !== levelCount) {
    throw new RangeError(`${OWNER}: ${field} must have ${levelCount} values (thresholds.length + 1), got ${values.length}`);
  }
  const out = new Float64Array(levelCount);
  for (let i = 0; i < levelCount; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new RangeError(`${OWNER}: ${field}[${i}] must be a finite number ≥ 0, got ${String(v)}`);
    }
    out[i] = v;
  }
  return out;
}

function readBands(h: number | ArrayLike<number> | undefined, boundaries: number): Float64Array | null {
  if (h == null) return null;
  const one = typeof h === 'number';
  if (!one && (typeof h !== 'object' || typeof h.length !== 'number')) {
    throw new TypeError(`${OWNER}: hysteresis must be a number or an array of ${boundaries} numbers (one per threshold), got ${String(h)}`);
  }
  if (!one && h.length !== boundaries) {
    throw new RangeError(`${OWNER}: hysteresis must have ${boundaries} values (one per threshold), got ${h.length}`);
  }
  const out = new Float64Array(boundaries);
  for (let k = 0; k < boundaries; k++) {
    const v = one ? h : h[k];
    if (typeof v !== 'number' || !(v >= 0 && v < 1)) {
      throw new RangeError(`${OWNER}: hysteresis${one ? '' : `[${k}]`} must be a number in [0, 1), got ${String(v)}`);
    }
    out[k] = v;
  }
  return out;
}

/**
 * Validates profile options and returns the normalised profile. Throws `RangeError`/`TypeError`
 * naming the field.
 * @example
 * ```ts
 * const cessna = validateLodProfile({ metric: 'screenHeight', thresholds: [1.1, 0.75, 0.5, 0.3] });
 * cessna.costs; // Float64Array [256, 64, 16, 4, 1]
 * ```
 * @category Batch
 */
export function validateLodProfile(options: LodProfileOptions): LodProfile {
  if (options == null || typeof options !== 'object') throw new TypeError(`${OWNER}: options must be an object`);
  const metric = options.metric;
  if (!Object.prototype.hasOwnProperty.call(MetricCode, metric)) {
    throw new RangeError(`${OWNER}: metric must be one of 'distance', 'pixels', 'screenHeight', 'screenArea', got ${String(metric)}`);
  }
  if (options.thresholds == null) throw new RangeError(`${OWNER}: thresholds is required`);
  const descending = metric !== 'distance';
  const t = validateThresholds(options.thresholds, options.blendThresholds, descending ? 'descending' : 'ascending', OWNER);
  const levelCount = t.thresholds.length + 1;
  if (levelCount > MAX_LEVELS) throw new RangeError(`${OWNER}: at most ${MAX_LEVELS - 1} thresholds are supported, got ${t.thresholds.length}`);
  if (descending) {
    for (let i = 0; i < t.thresholds.length; i++) {
      if (!(t.thresholds[i] >= 0)) throw new RangeError(`${OWNER}: thresholds[${i}] must be ≥ 0 for the '${metric}' metric, got ${t.thresholds[i]}`);
    }
  }

  let costs: Float64Array;
  if (options.costs == null) {
    costs = new Float64Array(levelCount);
    for (let l = 0; l < levelCount; l++) costs[l] = 4 ** (levelCount - 1 - l);
  } else {
    costs = readLevelValues(options.costs, levelCount, 'costs');
    for (let l = 1; l < levelCount; l++) {
      if (costs[l] > costs[l - 1]) {
        throw new RangeError(`${OWNER}: costs must not increase toward coarser levels; costs[${l}] = ${costs[l]} > costs[${l - 1}] = ${costs[l - 1]}`);
      }
    }
  }

  let errors: Float64Array;
  if (options.errors == null) {
    // issue 14: screen-space error default (thresholds, else triangle counts); see policies/screenSpaceError.ts.
    errors = defaultLevelErrors(metric, t.thresholds, costs);
  } else {
    errors = readLevelValues(options.errors, levelCount, 'errors');
    for (let l = 1; l < levelCount; l++) {
      if (errors[l] < errors[l - 1]) {
        throw new RangeError(`${OWNER}: errors must not decrease toward coarser levels; errors[${l}] = ${errors[l]} < errors[${l - 1}] = ${errors[l - 1]}`);
      }
    }
  }

  let qualityFloor = levelCount - 1;
  if (options.qualityFloor != null) {
    const q = options.qualityFloor;
    if (typeof q !== 'number' || !Number.isInteger(q) || q < 0 || q >= levelCount) {
      throw new RangeError(`${OWNER}: qualityFloor must be an integer level in [0, ${levelCount - 1}], got ${String(q)}`);
    }
    qualityFloor = q;
  }

  return {
    metric, metricCode: MetricCode[metric], descending,
    thresholds: t.thresholds, blendThresholds: t.blendThresholds, levelCount, costs, errors, qualityFloor,
    bands: readBands(options.hysteresis, t.thresholds.length),
  };
}

/**
 * All profiles of a set, flattened for the kernels: profile `p`'s thresholds are
 * `thresholds[p * stride … p * stride + thresholdCount[p])`, its costs `costs[p * stride + level]`.
 * `stride` is the largest level count so far; the arrays hold `capacity` ≥ `count` profiles.
 * @category Batch
 */
export class ProfileTable {
  readonly profiles: LodProfile[] = [];
  stride = 1;
  /** Profiles the flat arrays have room for (entries past {@link count} are unused). */
  capacity = 0;
  /** Increased whenever the flat arrays are replaced (capacity or stride grew). */
  layout = 0;
  /** Values written by {@link add} since construction (profile entries copied or set). @internal Test seam: amortised O(levels) per add. */
  work = 0;
  metricCode = new Uint8Array(0);
  thresholdCount = new Uint8Array(0);
  blendCount = new Uint8Array(0);
  levelCount = new Uint8Array(0);
  qualityFloor = new Uint8Array(0);
  thresholds = new Float32Array(0);
  blendThresholds = new Float32Array(0);
  costs = new Float64Array(0);
  errors = new Float64Array(0);
  /** Own hysteresis band of boundary `k` of profile `p` at `p * stride + k` (profiles with {@link banded} set). */
  bands = new Float64Array(0);
  /** 1 for a profile with its own hysteresis bands (the update's band does not apply to it). */
  banded = new Uint8Array(0);
  /** Largest own band per profile (0 without own bands): widens hybrid's whole-cluster interval. */
  bandMax = new Float64Array(0);
  /** Profiles with their own hysteresis bands. */
  bandedCount = 0;
  /** Bit mask of the metric codes in use (bit `1 << code`). */
  metricMask = 0;

  get count(): number {
    return this.profiles.length;
  }

  /** Adds a validated profile (growing or widening the flat arrays when needed); returns its id. */
  add(profile: LodProfile): number {
    if (this.profiles.length >= 65535) throw new RangeError(`${OWNER}: at most 65535 profiles are supported`);
    this.profiles.push(profile);
    const n = this.profiles.length;
    const stride = profile.levelCount > this.stride ? profile.levelCount : this.stride;
    if (n > this.capacity || stride !== this.stride) {
      this.relayout(n > this.capacity ? Math.max(4, 2 * this.capacity, n) : this.capacity, stride);
    } else {
      this.write(n - 1);
    }
    return n - 1;
  }

  /** New arrays for `capacity` profiles of `stride` levels, every profile written again. */
  private relayout(capacity: number, stride: number): void {
    this.capacity = capacity;
    this.stride = stride;
    this.layout++;
    this.metricCode = new Uint8Array(capacity);
    this.thresholdCount = new Uint8Array(capacity);
    this.blendCount = new Uint8Array(capacity);
    this.levelCount = new Uint8Array(capacity);
    this.qualityFloor = new Uint8Array(capacity);
    this.thresholds = new Float32Array(capacity * stride);
    this.blendThresholds = new Float32Array(capacity * stride);
    this.costs = new Float64Array(capacity * stride);
    this.errors = new Float64Array(capacity * stride);
    this.bands = new Float64Array(capacity * stride);
    this.banded = new Uint8Array(capacity);
    this.bandMax = new Float64Array(capacity);
    this.bandedCount = 0;
    this.metricMask = 0;
    for (let p = 0; p < this.profiles.length; p++) this.write(p);
  }

  private write(p: number): void {
    const pr = this.profiles[p], stride = this.stride;
    this.metricCode[p] = pr.metricCode;
    this.metricMask |= 1 << pr.metricCode;
    this.thresholdCount[p] = pr.thresholds.length;
    this.blendCount[p] = pr.blendThresholds.length;
    this.levelCount[p] = pr.levelCount;
    this.qualityFloor[p] = pr.qualityFloor;
    this.thresholds.set(pr.thresholds, p * stride);
    this.blendThresholds.set(pr.blendThresholds, p * stride);
    this.costs.set(pr.costs, p * stride);
    this.errors.set(pr.errors, p * stride);
    if (pr.bands !== null) {
      this.bands.set(pr.bands, p * stride);
      this.banded[p] = 1;
      this.bandedCount++;
      let m = 0;
      for (let k = 0; k < pr.bands.length; k++) if (pr.bands[k] > m) m = pr.bands[k];
      this.bandMax[p] = m;
    }
    this.work += 6 + 4 * pr.levelCount;
  }
}
