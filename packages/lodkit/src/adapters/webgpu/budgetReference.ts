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
 * and buys every bucket above the cut whole, then splits the first bucket not bought whole into 256
 * sub-buckets (a second pass over the objects) and buys those above a second cut — so it leaves at
 * most one sub-bucket's cost (keys within 0.017 %, or for loss-free steps 1/256 of the ids)
 * unspent, never more than the budget. Of `LodSet`'s stability band the GPU has the keep bonus of the previous
 * level, not the price terms (no λ from the last frame: no price on level changes, no protected
 * tier, no ceiling on upgrades past the previous level), and it rounds costs up to integer units.
 *
 * @module
 */
import { BUDGET_BUCKETS, ProfileWord } from './layout.js';
import { NEAR_EPSILON, type ProfileView } from './referenceTolerance.js';

const fr = Math.fround;
const MAXF32 = fr(3.4028234663852886e38);
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

/**
 * Key code of an upgrade step (kernel `keyCode`): `bucket · 256 + sub-bucket`. Key > 0: float32
 * bits `>> 11` rebased so bucket 1 starts at 2^-64, clamped to buckets `[1, BUDGET_BUCKETS − 1]`;
 * key ≤ 0: bucket 0, sub-bucket `255 − ⌊i / ⌈count / 256⌉⌋` (lower ids bought first).
 * @category WebGPU
 */
export function keyCodeOf(key: number, i: number, count: number): number {
  if (!(key > 0)) {
    const per = Math.max(1, Math.floor((count + 255) / 256));
    return 255 - Math.min(255, Math.floor(i / per));
  }
  f32[0] = key;
  const c = (u32[0] >>> 11) - 1008 * 256;
  return c < 256 ? 256 : c > BUDGET_BUCKETS * 256 - 1 ? BUDGET_BUCKETS * 256 - 1 : c;
}

/** True when `key` lies within 32 ulps of a sub-bucket edge (`mask` 0x7ff) or a bucket edge (0x7ffff). */
function nearEdge(key: number, mask: number): boolean {
  if (!(key > 0)) return false;
  f32[0] = key;
  const m = u32[0] & mask;
  return m < 32 || m > mask - 32;
}

/** Result of {@link chainFloat32}. */
export interface ChainResult { start: number; level: number; near: boolean }
const result: ChainResult = { start: 0, level: 0, near: false };
const ben = new Float64Array(16);

/**
 * Object `i`'s chain (kernel `chain`) from floor `fl` up to `pref` at weight `w` px. op 0: adds each
 * step's Δcost (units) to `hist[bucket]`; op 1: adds the steps of bucket `thr` to `hist[sub]`; op
 * 2: walks the steps whose code is ≥ `thr` and reports the level reached. `near`: a benefit within
 * `NEAR_EPSILON` of the tolerance kink, two candidate slopes within `NEAR_EPSILON` of each other,
 * or (op 2) a step that could land on the other side of the cut: its key within 32 ulps of a
 * sub-bucket edge and its code within 1 of `thr`, or of a bucket edge and its bucket within 1 of
 * the cut's. Returns a shared object (overwritten by the next call).
 */
export function chainFloat32(pv: ProfileView, i: number, count: number, pref: number, fl: number, w: number, tol: number,
  op: 0 | 1 | 2, hist: Float64Array | null, thr: number, prev = 255, band = 0): ChainResult {
  const { pu, pt, o } = pv;
  const cost = (l: number) => pu[o + ProfileWord.costs + l];
  const err = (l: number) => pt[o + ProfileWord.errors + l];
  let near = false;
  for (let l = pref; l <= fl; l++) {
    const ew = fr(err(l) * w), e = fr(ew - tol);
    if (Math.abs(e) <= NEAR_EPSILON * Math.max(tol, 1e-30)) near = true;
    ben[l] = e > 0 ? -e : 0;
  }
  // The stability band's keep bonus (kernel `chain`; buildObjectChain without its price terms).
  if (band > 0 && prev >= pref && prev <= fl) {
    const sse = fr(err(prev) * w), coarser = prev < fl ? fr(err(prev + 1) * w) : MAXF32, edge = fr(fr(1 - band) * tol);
    if (Math.abs(coarser - edge) <= NEAR_EPSILON * Math.max(edge, 1e-30)) near = true;
    if (coarser > edge) ben[prev] = fr(ben[prev] + fr(band * Math.max(sse, tol)));
  }
  const c0 = cost(fl);
  let cur = fl;
  for (let l = fl - 1; l >= pref && cost(l) === c0; l--) if (ben[l] >= ben[cur]) cur = l;
  const start = cur;
  let level = start, cap = BUDGET_BUCKETS * 256 - 1;
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
    const code = Math.min(keyCodeOf(bestSlope, i, count), cap);
    if (op === 2 && ((nearEdge(bestSlope, 0x7ff) && Math.abs(code - thr) <= 1) || (nearEdge(bestSlope, 0x7ffff) && Math.abs((code >>> 8) - (thr >>> 8)) <= 1))) near = true;
    cap = code;
    const dcost = cost(best) - cc;
    if (op === 0) hist![code >>> 8] += dcost;
    else if (op === 1) { if (code >>> 8 === thr) hist![code & 255] += dcost; if (code >>> 8 < thr) break; }
    else { if (code < thr) break; level = best; }
    cur = best;
  }
  result.start = start; result.level = op !== 2 ? start : level; result.near = near;
  return result;
}

/**
 * The bucket cut (budgetWgsl.ts phase 0) from the budget, preferred and minimum cost (all in cost
 * units) and the histogram: mode 0 (fits), 2 (over even at the floor: threshold past every code),
 * or 1 with the smallest bucket `cut` whose suffix sum fits in `budget − minimum` (`BUDGET_BUCKETS`
 * when none); `partial = cut − 1` is the bucket to refine and `left` the budget left for it.
 * @category WebGPU
 */
export function cutFloat32(budget: number, preferred: number, minimum: number, hist: Float64Array):
  { mode: number; cut: number; bought: number; partial: number; left: number } {
  if (preferred <= budget) return { mode: 0, cut: 0, bought: 0, partial: BUDGET_BUCKETS, left: 0 };
  if (minimum > budget) return { mode: 2, cut: BUDGET_BUCKETS, bought: 0, partial: BUDGET_BUCKETS, left: 0 };
  const remaining = budget - minimum;
  const { cut, bought } = suffixCut(hist, BUDGET_BUCKETS, remaining);
  return { mode: 1, cut, bought, partial: cut > 0 ? cut - 1 : BUDGET_BUCKETS, left: remaining - bought };
}

/** The smallest index `c` of `hist[0 … n)` whose suffix sum fits in `room` (`n` when none), and that sum. */
export function suffixCut(hist: Float64Array, n: number, room: number): { cut: number; bought: number } {
  let run = 0, cut = n, bought = 0;
  for (let b = n - 1; b >= 0; b--) {
    run += hist[b];
    if (run <= room) { cut = b; bought = run; } else break;
  }
  return { cut, bought };
}
