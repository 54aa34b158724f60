/**
 * Buffer layouts shared by the WGSL kernels ({@link SELECT_WGSL}, {@link BUDGET_CUT_WGSL}) and the
 * float32 CPU reference (reference.ts, budgetReference.ts). Both sides read the very same packed
 * bytes, so the reference sees exactly the float32 inputs the GPU sees (window height/area are
 * computed once here, in float64, then rounded).
 *
 * Frame block (`FRAME_BYTES`), 20 header words: u32 `count`, u32 `viewCount`, f32 `bias`, f32
 * `hysteresis`, u32 `stride` (elements per level in the instance lists), u32 `levelCount`, u32
 * `frame` (frame counter), u32 `minFrames`, u32 `minLevel`, u32 `maxLevel`, u32 `flags` (bit 0:
 * budget set, bit 1: cluster culling, bit 2: per-(profile, level) lists, bit 3: culling off), f32 `tolerance` (px), u32 `budgetLo`, u32 `budgetHi` (the budget in cost units, see
 * {@link costScaleOf}), f32 `viewportMax` (largest viewport height), u32 `capacity`, f32
 * `stabilityBand`, 3 pad; then `MAX_GPU_VIEWS` views
 * of 32 floats: planes `[0, 24)` (a, b, c, d; inside where `a·x+b·y+c·z+d ≥ −r`), eye `[24, 27)`,
 * perspective flag `[27]`, window height `[28]`, window area `[29]`, viewport height `[30]`, pad.
 *
 * Profile record (`PROFILE_BYTES`, 72 words): u32 metric code, u32 threshold count, u32 level
 * count, u32 blend-threshold count; 16 f32 thresholds; 16 f32 blend thresholds; 16 u32 level costs
 * in cost units; 16 f32 level errors; u32 quality floor; u32 first list, u32 first id-list element,
 * u32 elements per list (per-(profile, level) lists, lists.ts; written by `setObjects`).
 *
 * Object record (`OBJECT_WORDS` u32 per object, the selector's `state` buffer): `state` (level in
 * bits 0–7, {@link NO_REFERENCE} bit 8, frames since the last level change in bits 16–31,
 * saturating), `size` (f32 bits: the value the decision used, kept while a hold lasts), `work`
 * (this frame's preferred level in bits 0–7, mark in bits 8–9: 0 adjustable, 1 fixed, 2 not drawn;
 * bit 10 invalid; bit 11 no reference next frame), `weight` (f32 bits: projected diameter in px ×
 * bias, clamped to the viewport; budget only).
 *
 * Clusters (when on): the profile-id buffer holds `capacity` profile ids then the slot order
 * (`order[slot]` = id, Morton order of the spheres as `LodSet`'s `mortonOrder`); the sphere buffer
 * holds `capacity` object spheres then one conservative bounding sphere per cluster of
 * `CLUSTER_SIZE` consecutive slots (radius −1: a member is invalid, never decided as a whole).
 *
 * Scratch buffer (u32 words): header `[0, SCRATCH_HEADER)` (see `Scratch`), the budget histogram
 * (`BUDGET_BUCKETS` pairs lo/hi of summed step costs), the refinement histogram of the partial
 * bucket (`BUDGET_SUB_BUCKETS` pairs), then the changed-id list (capacity ids).
 *
 * @module
 */
import type { EngineView } from '../../batch/core/updateOptions.js';
import type { LodProfile } from '../../batch/core/profiles.js';

/** Views a frame may combine (max of screen sizes, min of distances). @category WebGPU */
export const MAX_GPU_VIEWS = 4;
/** Levels a GPU profile (and the level table) may have. @category WebGPU */
export const MAX_GPU_LEVELS = 16;
/** Words of the frame header. */
export const FRAME_HEADER_WORDS = 20;
/** Bytes of the frame uniform block. @category WebGPU */
export const FRAME_BYTES = FRAME_HEADER_WORDS * 4 + MAX_GPU_VIEWS * 128;
/** Bytes of one profile record. @category WebGPU */
export const PROFILE_BYTES = 72 * 4;
/** Word offsets inside a profile record. */
export const ProfileWord = { metric: 0, count: 1, levels: 2, blendCount: 3, thresholds: 4, blend: 20, costs: 36, errors: 52, floor: 68 } as const;
/** u32 words per object in the state buffer. @category WebGPU */
export const OBJECT_WORDS = 4;
/** Float offset of view `v` in the frame block. */
export const viewOffset = (v: number): number => FRAME_HEADER_WORDS + v * 32;
/** Bit set in a state word when the next frame has no hysteresis reference (hidden / invalid). @category WebGPU */
export const NO_REFERENCE = 0x100;
/** A fresh object's state word: hidden, no reference, "long ago" since the last change. @category WebGPU */
export const FRESH_STATE = (255 | NO_REFERENCE | (0xffff << 16)) >>> 0;
/** Largest `minFramesBetweenChanges` (the frame counter in the state word saturates at 65535). @category WebGPU */
export const MAX_GPU_MIN_FRAMES = 0xffff;
/** Budget histogram buckets: 16 per octave of the step key, keys `2^-64 … 2^64` (bucket 0: key 0). @category WebGPU */
export const BUDGET_BUCKETS = 2048;
/** Sub-buckets of the refinement pass: 256 per bucket (next 8 mantissa bits of the key; for key 0, id ranges). @category WebGPU */
export const BUDGET_SUB_BUCKETS = 256;
/** Words of the scratch header. */
export const SCRATCH_HEADER = 64;
/** Word offset of the refinement histogram in the scratch buffer. */
export const SCRATCH_SUB = SCRATCH_HEADER + 2 * BUDGET_BUCKETS;
/** Word offset of the changed-id list in the scratch buffer. */
export const SCRATCH_CHANGED = SCRATCH_SUB + 2 * BUDGET_SUB_BUCKETS;
/** Word offsets of the scratch header (64-bit sums are lo/hi pairs). @category WebGPU */
export const Scratch = {
  /** Cut code: steps whose key code (bucket · 256 + sub-bucket) is ≥ it are bought. */
  cut: 0,
  /** 0 no coarsening (no budget, or the preferred levels fit), 1 coarsened at the cut, 2 over (floor everywhere and still over). */
  mode: 1,
  preferredCost: 2, minimumCost: 4, totalCost: 6,
  hidden: 8, invalid: 9, changed: 10, held: 11,
  /** Cost bought above the floor (the histograms' suffix sums at the cut). */
  bought: 12,
  /** The bucket below the whole buckets bought (refined by the sub-buckets), `BUDGET_BUCKETS` when none. */
  partial: 14,
  /** Budget left for the partial bucket (lo/hi). */
  remaining: 16,
  /** Cluster culling: (cluster, view) pairs wholly outside a plane, and wholly inside every plane. */
  clustersOutside: 18, clustersInside: 19,
} as const;
/** Flag bits of the frame header's `flags` word. */
export const FrameFlag = { budget: 1, clusters: 2, perProfile: 4, noCull: 8 } as const;
/** Largest cost of one level in cost units (so 64 objects' sum fits in a u32). */
export const MAX_UNIT_COST = 2 ** 24;

/** Extra per-frame values of {@link packFrame} (all optional). @category WebGPU */
export interface FrameExtras {
  frame?: number;
  minFrames?: number;
  minLevel?: number;
  maxLevel?: number;
  /** Budget in cost units (already scaled and floored), or `null` for none. */
  budgetUnits?: number | null;
  tolerance?: number;
  /** Cluster culling on (objects run in cluster order; `capacity` locates the order and the cluster spheres). */
  clusters?: boolean;
  /** The selector's capacity (offset of the slot order in the profile-id buffer and of the cluster spheres). */
  capacity?: number;
  /** Per-(profile, level) lists (lists.ts). */
  perProfile?: boolean;
  /** `cull: false` (objects outside every view are still drawn). Default true. */
  cull?: boolean;
  /** Budget: the keep bonus of the previous level (`LodSet`'s `stabilityBand`, without its price terms). Default 0. */
  stabilityBand?: number;
}

// Typed views of the last packed frame block (a selector packs into the same block every frame).
let viewsOf: ArrayBuffer | null = null;
let frameF = new Float32Array(0), frameU = new Uint32Array(0);

/**
 * Packs views and options into `out` (`FRAME_BYTES` bytes). No allocation when `out` is the block
 * of the previous call.
 * @category WebGPU
 */
export function packFrame(out: ArrayBuffer, views: readonly EngineView[], count: number, stride: number, levelCount: number, bias: number,
  hysteresis: number, extras?: FrameExtras): void {
  if (out !== viewsOf) { viewsOf = out; frameF = new Float32Array(out, 0, FRAME_BYTES / 4); frameU = new Uint32Array(out, 0, FRAME_BYTES / 4); }
  const f = frameF, u = frameU;
  u[0] = count; u[1] = views.length; f[2] = bias; f[3] = hysteresis; u[4] = stride; u[5] = levelCount;
  u[6] = extras?.frame ?? 1; u[7] = extras?.minFrames ?? 0; u[8] = extras?.minLevel ?? 0; u[9] = extras?.maxLevel ?? 255;
  const budget = extras?.budgetUnits;
  u[10] = (budget != null ? FrameFlag.budget : 0) | (extras?.clusters ? FrameFlag.clusters : 0) | (extras?.perProfile ? FrameFlag.perProfile : 0) | (extras?.cull === false ? FrameFlag.noCull : 0);
  f[11] = extras?.tolerance ?? 1;
  const b = budget != null ? budget : 0;
  const hi = Math.floor(b / 2 ** 32);
  u[12] = b - hi * 2 ** 32; u[13] = hi;
  let vmax = 0;
  for (let v = 0; v < views.length; v++) {
    const view = views[v], fr = view.frustum, o = viewOffset(v);
    for (let k = 0; k < 24; k++) f[o + k] = fr.planes[k];
    f[o + 24] = fr.position[0]; f[o + 25] = fr.position[1]; f[o + 26] = fr.position[2];
    f[o + 27] = fr.isPerspective ? 1 : 0;
    const wh = fr.windowMax[1] - fr.windowMin[1];
    f[o + 28] = wh;
    f[o + 29] = (fr.windowMax[0] - fr.windowMin[0]) * wh;
    const vp = view.viewportHeight ?? 1080;
    f[o + 30] = vp;
    f[o + 31] = 0;
    if (vp > vmax) vmax = vp;
  }
  f[14] = vmax; u[15] = extras?.capacity ?? 0;
  f[16] = extras?.stabilityBand ?? 0; u[17] = 0; u[18] = 0; u[19] = 0;
}

/**
 * The power-of-two factor that turns profile costs into integer cost units on the GPU: the largest
 * `2^k` with `max cost × 2^k ≤ 2^24`. Integer costs up to 2^24 stay exact (factor ≥ 1); costs are
 * rounded **up** and the budget **down** in units, so a frame within the budget in units is within
 * it in real cost.
 * @category WebGPU
 */
export function costScaleOf(profiles: readonly LodProfile[]): number {
  let max = 0;
  for (const p of profiles) for (let l = 0; l < p.levelCount; l++) if (p.costs[l] > max) max = p.costs[l];
  if (!(max > 0)) return 1;
  return 2 ** Math.floor(Math.log2(MAX_UNIT_COST / max));
}

/** A cost in cost units (rounded up, at most `MAX_UNIT_COST`). */
export function costUnits(cost: number, scale: number): number {
  return Math.min(MAX_UNIT_COST, Math.ceil(cost * scale));
}

/**
 * Packs validated profiles into profile records (costs in units of `costScale`). Throws
 * `RangeError` for a profile the GPU path does not support (more than `MAX_GPU_LEVELS` levels).
 * @category WebGPU
 */
export function packProfiles(profiles: readonly LodProfile[], owner: string, costScale = costScaleOf(profiles)): ArrayBuffer {
  const out = new ArrayBuffer(Math.max(1, profiles.length) * PROFILE_BYTES);
  const u = new Uint32Array(out), f = new Float32Array(out), w = PROFILE_BYTES / 4;
  profiles.forEach((p, i) => {
    if (p.levelCount > MAX_GPU_LEVELS) throw new RangeError(`${owner}: profiles[${i}] has ${p.levelCount} levels, the GPU path supports at most ${MAX_GPU_LEVELS}`);
    const o = i * w;
    u[o + ProfileWord.metric] = p.metricCode; u[o + ProfileWord.count] = p.thresholds.length;
    u[o + ProfileWord.levels] = p.levelCount; u[o + ProfileWord.blendCount] = p.blendThresholds.length;
    f.set(p.thresholds, o + ProfileWord.thresholds);
    f.set(p.blendThresholds, o + ProfileWord.blend);
    for (let l = 0; l < p.levelCount; l++) {
      u[o + ProfileWord.costs + l] = costUnits(p.costs[l], costScale);
      f[o + ProfileWord.errors + l] = p.errors[l];
    }
    u[o + ProfileWord.floor] = p.qualityFloor;
  });
  return out;
}
