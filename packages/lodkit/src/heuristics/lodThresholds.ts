/**
 * A reusable threshold profile: which metric, which thresholds, which blend thresholds. A model's
 * rules (MSFS's 747 vs Cessna) are defined once, validated once, and shared by many objects.
 *
 * @module
 */
import { computeLodAscending, computeLodDescending } from './lodIndex.js';
import { validateThresholds } from './thresholds.js';

/**
 * The sphere metrics a profile can use:
 * - `'distance'` — world units from the eye to the sphere (ascending thresholds; MotoGP's naive version),
 * - `'pixels'` — projected diameter in pixels (descending; MotoGP's 80 / 20 px),
 * - `'screenHeight'` — diameter ÷ window height (descending; MSFS's 1.10 / 0.75 / 0.50 / 0.30),
 * - `'screenArea'` — projected disc area ÷ window area (descending; OpenUSD projectedSphere).
 * @category Heuristics
 */
export type SphereMetric = 'distance' | 'pixels' | 'screenHeight' | 'screenArea';

/** Options for {@link LodThresholds}. @category Heuristics */
export interface LodThresholdsOptions {
  metric: SphereMetric;
  /** Ascending for `'distance'`, descending for the screen metrics. */
  thresholds: ArrayLike<number>;
  blendThresholds?: ArrayLike<number>;
}

const METRICS: readonly SphereMetric[] = ['distance', 'pixels', 'screenHeight', 'screenArea'];

function checkStored(stored: Float32Array, given: ArrayLike<number>, field: string, metric: SphereMetric): void {
  for (let i = 0; i < stored.length; i++) {
    if (!(stored[i] >= 0)) {
      throw new RangeError(`LodThresholds: ${field}[${i}] = ${given[i]} must be ≥ 0 (a ${metric} value is never negative)`);
    }
    if (stored[i] === Infinity) {
      throw new RangeError(`LodThresholds: ${field}[${i}] = ${given[i]} is beyond float32's range (thresholds are stored as float32, like OpenUSD's)`);
    }
  }
}

/**
 * An immutable, validated threshold profile: thresholds non-negative, finite as float32, ascending
 * for `'distance'` and descending for the screen metrics (ties allowed); throws `RangeError` naming
 * the field and index otherwise.
 *
 * @example
 * ```ts
 * import { LodThresholds } from 'lodkit';
 * const cessna = new LodThresholds({ metric: 'screenHeight', thresholds: [1.10, 0.75, 0.50, 0.30] });
 * cessna.computeLod(0.6); // 2 (MSFS LOD x2: between 75 % and 50 %)
 * const motogp = new LodThresholds({ metric: 'pixels', thresholds: [80, 20] });
 * ```
 * @category Heuristics
 */
export class LodThresholds {
  readonly metric: SphereMetric;
  readonly thresholds: Float32Array;
  readonly blendThresholds: Float32Array;
  /** True for the screen metrics (descending thresholds), false for `'distance'`. */
  readonly descending: boolean;
  /** Number of levels, `thresholds.length + 1`. */
  readonly levelCount: number;

  constructor(options: LodThresholdsOptions) {
    const owner = 'LodThresholds';
    if (options == null || typeof options !== 'object') throw new RangeError(`${owner}: options must be an object`);
    if (!METRICS.includes(options.metric)) {
      throw new RangeError(`${owner}: metric must be one of ${METRICS.map((m) => `'${m}'`).join(', ')}, got ${String(options.metric)}`);
    }
    if (options.thresholds == null) throw new RangeError(`${owner}: thresholds is required`);
    this.metric = options.metric;
    this.descending = options.metric !== 'distance';
    const t = validateThresholds(options.thresholds, options.blendThresholds, this.descending ? 'descending' : 'ascending', owner);
    // Every sphere metric is ≥ 0 (a distance, a pixel count, a fraction of the screen), so a negative
    // threshold is a mistake (`[-5, -10]` px would draw level 2 at every size), and a value past
    // float32's range became Infinity when stored.
    checkStored(t.thresholds, options.thresholds, 'thresholds', options.metric);
    checkStored(t.blendThresholds, options.blendThresholds ?? [], 'blendThresholds', options.metric);
    this.thresholds = t.thresholds;
    this.blendThresholds = t.blendThresholds;
    this.levelCount = t.thresholds.length + 1;
    Object.freeze(this);
  }

  /** Fractional LOD index for a metric value, by OpenUSD's rules; in `[0, thresholds.length]`. */
  computeLod(value: number): number {
    return this.descending
      ? computeLodDescending(this.thresholds, this.blendThresholds, value)
      : computeLodAscending(this.thresholds, this.blendThresholds, value);
  }

  /** A plain JSON form that `new LodThresholds(json)` accepts. */
  toJSON(): { metric: SphereMetric; thresholds: number[]; blendThresholds: number[] } {
    return { metric: this.metric, thresholds: Array.from(this.thresholds), blendThresholds: Array.from(this.blendThresholds) };
  }
}
