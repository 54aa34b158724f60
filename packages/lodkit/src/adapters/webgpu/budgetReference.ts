/**
 * The float32 CPU reference of the GPU budget (the hybrid policy's coarsening, wgsl.ts `chain` and
 * budgetWgsl.ts): each adjustable object's upgrade chain from its quality floor to its preferred
 * level, the key histogram, and the cut. Also {@link bucketOfKey}, the histogram's bucket rule.
 *
 * The GPU algorithm, and how it differs from `LodSet`'s hybrid policy (docs/webgpu.md measures the
 * gap): both start every adjustable object at its quality floor and buy upgrade steps (loss removed
 * per unit of cost, `buildObjectChain` with `keepFlat`) in order of their key. The CPU buys the
 * exact longest prefix of the total order that fits (quickselect); the GPU sums step costs into
 * `BUDGET_BUCKETS` log-spaced buckets (16 per octave of the key: keys within 4.4 % share a bucket)
 * and buys every bucket above the cut whole — so it leaves at most the cut bucket's cost unspent,
 * never more than the budget. The GPU has no stability band (`stabilityBand: 0`; the thresholds
 * hysteresis still applies to the preferred levels) and rounds costs up to integer cost units.
 *
 * @module
 */
import { BUDGET_BUCKETS, ProfileWord } from './layout.js';
import { NEAR_EPSILON, type ProfileView } from './reference.js';

const fr = Math.fround;
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);

/**
 * Histogram bucket of a step key (kernel `bucketOf`): 0 for a key ≤ 0, else the float32 bits
 * `>> 19` (exponent and top 4 mantissa bits) minus `(127 − 64) · 16`, clamped to
 * `[1, BUDGET_BUCKETS − 1]`. Monotone in the key.
 * @example
 * ```ts
 * bucketOfKey(1); // 1024: 2^0 is 64 octaves above 2^-64
 * ```
 * @category WebGPU
 */
export function bucketOfKey(key: number): number {
  if (!(key > 0)) return 0;
  f32[0] = key;
  const b = (u32[0] >>> 19) - 1008;
  return b < 1 ? 1 : b > BUDGET_BUCKETS - 1 ? BUDGET_BUCKETS - 1 : b;
}

function nearBucketEdge(key: number): boolean {
  if (!(key > 0)) return false;
  f32[0] = key;
  const m = u32[0] & 0x7ffff;
  return m < 32 || m > 0x7ffff - 32;
}

/** Result of {@link chainFloat32}. */
export interface ChainResult { start: number; level: number; near: boolean }
const result: ChainResult = { start: 0, level: 0, near: false };
const ben = new Float64Array(16);

/**
 * One object's chain (kernel `chain`) from floor `fl` up to `pref` at weight `w` px. With `hist`,
 * adds each step's Δcost (units) to its bucket; else walks the steps whose bucket is ≥ `cut` and
 * reports the level reached. `near`: a benefit within `NEAR_EPSILON` of the tolerance kink, two
 * candidate slopes within `NEAR_EPSILON` of each other, or a key near a bucket edge. Returns a
 * shared object (overwritten by the next call).
 */
export function chainFloat32(pv: ProfileView, pref: number, fl: number, w: number, tol: number, hist: Float64Array | null, cut: number): ChainResult {
  const { pu, pt, o } = pv;
  const cost = (l: number) => pu[o + ProfileWord.costs + l];
  let near = false;
  for (let l = pref; l <= fl; l++) {
    const ew = fr(pt[o + ProfileWord.errors + l] * w), e = fr(ew - tol);
    if (Math.abs(e) <= NEAR_EPSILON * Math.max(tol, 1e-30)) near = true;
    ben[l] = e > 0 ? -e : 0;
  }
  const c0 = cost(fl);
  let cur = fl;
  for (let l = fl - 1; l >= pref && cost(l) === c0; l--) if (ben[l] >= ben[cur]) cur = l;
  const start = cur;
  let level = start, cap = BUDGET_BUCKETS - 1;
  while (cur > pref) {
    const cc = cost(cur), cb = ben[cur];
    let best = -1, bestSlope = 0;
    for (let k = cur - 1; k >= pref; k--) {
      const dc = fr(cost(k) - cc);
      if (!(dc > 0)) continue;
      const slope = fr(fr(ben[k] - cb) / dc);
      if (best >= 0 && Math.abs(slope - bestSlope) <= NEAR_EPSILON * Math.max(Math.abs(slope), 1e-30)) near = true;
      if (slope >= 0 && (best < 0 || slope >= bestSlope)) { best = k; bestSlope = slope; }
    }
    if (best < 0) break;
    if (nearBucketEdge(bestSlope)) near = true;
    const bucket = Math.min(bucketOfKey(bestSlope), cap);
    cap = bucket;
    if (hist !== null) hist[bucket] += cost(best) - cc;
    else { if (bucket < cut) break; level = best; }
    cur = best;
  }
  result.start = start; result.level = hist !== null ? start : level; result.near = near;
  return result;
}

/**
 * The cut (budgetWgsl.ts) from the budget, preferred and minimum cost (all in cost units) and the
 * histogram: mode 0 (fits), 2 (over even at the floor: cut = `BUDGET_BUCKETS`), or 1 and the
 * smallest bucket whose suffix sum fits in `budget − minimum` (`BUDGET_BUCKETS` when none).
 * @category WebGPU
 */
export function cutFloat32(budget: number, preferred: number, minimum: number, hist: Float64Array): { mode: number; cut: number; bought: number } {
  if (preferred <= budget) return { mode: 0, cut: 0, bought: 0 };
  if (minimum > budget) return { mode: 2, cut: BUDGET_BUCKETS, bought: 0 };
  const remaining = budget - minimum;
  let run = 0, cut = BUDGET_BUCKETS, bought = 0;
  for (let b = BUDGET_BUCKETS - 1; b >= 0; b--) {
    run += hist[b];
    if (run <= remaining) { cut = b; bought = run; } else break;
  }
  return { mode: 1, cut, bought };
}
