/**
 * Stable ranges of the budget policy's upgrade chains: for each profile `p` and previous level
 * `L`, the projected diameters `w` (px, after bias and the viewport clamp) for which an adjustable
 * object's chain ({@link buildObjectChain}, this frame's tolerance, band and price) is *stable*:
 *
 * - the steps from its start `s0` up to `L` all have a key ≥ `(1 − band) λ` (the protected tier of
 *   collectScreenSpaceItems: bought before every other item) and reach `L` exactly, and
 * - the first step finer than `L` (if any) has a key < `(1 + band) λ`, so it is not offered.
 *
 * Such an object offers only protected steps toward `L`; when every protected item of the frame is
 * bought (the budget's boundary lies in the regular tier, checked after the solve), its level is
 * `L` again, its base cost `cost(s0)` and its items cost `cost(L) − cost(s0)` — known without
 * building its chain (budgetIncremental.ts).
 *
 * How the ranges are found: between consecutive kinks of the benefit functions (`w = τ / e_l`,
 * where a level's loss leaves 0; `w = (1 − band) τ / e_{L+1}`, where the keep bonus switches; 0 and
 * the viewport height) every benefit is affine in `w`, so every comparison the chain builder makes
 * (benefit vs benefit, slope vs 0, slope vs slope, key vs the two price thresholds) compares two
 * affine functions. {@link stableEval} replays the builder at one `w` and records whether each
 * comparison held by a relative margin of 1e-9 (or compared two values that do not depend on `w`
 * and are computed by the same operations everywhere). A range `[u, v]` inside one such piece whose
 * two ends give the same start and steps, are stable and pass every margin is stable throughout:
 * an affine difference positive (negative) at both ends is so in between, and the builder's double
 * rounding at any `w` is far below the margin. Pieces that fail are bisected (depth 3); `w = 0` and
 * `w = viewport height` (clamped sizes) are checked as single points with the builder itself.
 *
 * Contributor notes:
 * - Only profiles of at most {@link STABLE_MAX_LEVELS} levels get ranges; others (and frames
 *   without a protected tier: band 0 or price 0) run every chain.
 * - {@link stableEval} must stay a replay of `buildObjectChain` (src/policies/screenSpaceError.ts)
 *   and of the tiering in `collectScreenSpaceItems` (screenSpacePasses.ts): change them together;
 *   test/batch/budgetIncremental.test.ts compares the clustered frames with the per-object path.
 *
 * @module
 */
import type { FrameState } from './frameState.js';
import type { ScreenSpaceScratch } from './screenSpacePasses.js';

/** Largest level count of a profile that gets stable ranges. */
export const STABLE_MAX_LEVELS = 8;
/** Ranges kept per (profile, previous level). */
export const STABLE_MAX_RANGES = 24;

/** Per-frame stable ranges, `[lo, hi]` with start level `start`, `count` of them per (profile, level). */
export class StableRanges {
  lo: Float64Array = new Float64Array(0);
  hi: Float64Array = new Float64Array(0);
  start: Uint8Array = new Uint8Array(0);
  count: Uint8Array = new Uint8Array(0);
  /** Levels per profile row (the profile table's stride). */
  stride = 1;
  /** False when this frame has no protected tier (no object can be stable). */
  any = false;

  /** Sizes the table for `rows` rows (budget: profile × level; hybrid: profile × preferred × level). */
  ensure(rows: number, stride: number): void {
    this.stride = stride;
    if (this.count.length < rows) {
      this.count = new Uint8Array(rows);
      this.lo = new Float64Array(rows * STABLE_MAX_RANGES);
      this.hi = new Float64Array(rows * STABLE_MAX_RANGES);
      this.start = new Uint8Array(rows * STABLE_MAX_RANGES);
    }
  }
}

// Scratch of one evaluation: benefits, whether each is independent of w, the steps.
const ben = new Float64Array(256);
const constant = new Uint8Array(256);
const kinks = new Float64Array(2 * STABLE_MAX_LEVELS + 8);
/** Result of the last {@link stableEval}: [0] start level, [1] step signature, [2] margins held (1/0). */
export const evalOut = new Float64Array(3);

/**
 * Records a comparison of `a` with `b`: it holds by the margin unless both are w-independent
 * (`bothConstant`: the same operations give the same doubles at every w) or they differ by more
 * than 1e-9 × `scale`, the sum of the magnitudes of the terms they were computed from (so the
 * rounding of a difference of two large benefits cannot hide behind a small result).
 */
function margin(a: number, b: number, scale: number, bothConstant: boolean): number {
  if (bothConstant) return 1;
  const d = a - b;
  return (d < 0 ? -d : d) > 1e-9 * scale + 1e-300 ? 1 : 0;
}

const mag = new Float64Array(256);

/**
 * Replays `buildObjectChain(costs, errors, p · stride, coarsest, finest, L, keepFlat, [w, τ, band, λ])`
 * and the tiering: returns 1 when the chain is stable (module comment), writing its start level,
 * a signature of its steps and whether every comparison held by the margin into {@link evalOut}.
 */
export function stableEval(st: FrameState, sc: ScreenSpaceScratch, p: number, finest: number, coarsest: number, L: number,
  keepFlat: boolean, w: number): number {
  const costs = st.costs, errors = st.errors, off = p * st.stride;
  const tolerance = sc.tolerance, band = sc.band, lambda = sc.lambda;
  const floorKey = band > 0 && lambda > 0 ? (1 - band) * lambda : 0;
  const ceilKey = band > 0 ? (1 + band) * lambda : 0;
  let ok = 1;
  // ben[l]: the builder's benefit; mag[l]: the sum of the magnitudes of its terms (rounding scale).
  for (let l = finest; l <= coarsest; l++) {
    const sse = errors[off + l] * w, e = sse - tolerance;
    ok &= margin(sse, tolerance, sse + tolerance, false);
    ben[l] = e > 0 ? -e : 0;
    mag[l] = e > 0 ? sse + tolerance : 0;
    constant[l] = e > 0 ? 0 : 1;
  }
  if (L >= finest && L <= coarsest && band > 0) {
    const prevCost = costs[off + L];
    const price = band * lambda;
    const sse = errors[off + L] * w;
    const coarserSse = L < coarsest ? errors[off + L + 1] * w : Number.POSITIVE_INFINITY;
    if (L < coarsest) ok &= margin(coarserSse, (1 - band) * tolerance, coarserSse + tolerance, false);
    if (coarserSse > (1 - band) * tolerance) {
      const keep = band * (sse > tolerance ? sse : tolerance);
      ok &= margin(sse, tolerance, sse + tolerance, false);
      ben[L] += keep; mag[L] += keep;
      if (sse > tolerance) constant[L] = 0;
    }
    if (price > 0) {
      for (let l = finest; l <= coarsest; l++) {
        if (l === L) continue;
        const d = costs[off + l] - prevCost, t = price * (d > 0 ? d : -d);
        ben[l] -= t; mag[l] += t;
      }
    }
  }
  const c0 = costs[off + coarsest];
  let current = coarsest;
  for (let l = coarsest - 1; l >= finest && costs[off + l] === c0; l--) {
    ok &= margin(ben[l], ben[current], mag[l] + mag[current], constant[l] === 1 && constant[current] === 1);
    if (ben[l] >= ben[current]) current = l;
  }
  const start = current;
  let signature = 0, stable = floorKey > 0 ? 1 : 0, reached = start === L ? 1 : 0;
  while (current > finest) {
    const cc = costs[off + current], cb = ben[current], cConst = constant[current], cMag = mag[current];
    let best = -1, bestSlope = 0, bestConst = 0, bestScale = 0;
    for (let l = current - 1; l >= finest; l--) {
      const dc = costs[off + l] - cc;
      if (!(dc > 0)) continue;
      const slope = (ben[l] - cb) / dc, sConst = cConst === 1 && constant[l] === 1, sScale = (mag[l] + cMag) / dc;
      ok &= margin(slope, 0, sScale, sConst);
      if (slope > 0 || (keepFlat && slope === 0)) {
        if (best >= 0) ok &= margin(slope, bestSlope, sScale + bestScale, sConst && bestConst === 1);
        if (best < 0 || slope >= bestSlope) { bestSlope = slope; best = l; bestConst = sConst ? 1 : 0; bestScale = sScale; }
      }
    }
    if (best < 0) break;
    signature = signature * 16 + best + 1;
    // The tiering of collectScreenSpaceItems for this step (prev = L).
    if (best < L) {
      ok &= margin(bestSlope, ceilKey, bestScale + ceilKey, bestConst === 1);
      if (!(bestSlope < ceilKey)) stable = 0;
      signature = signature * 16 + 15;
      break; // a finer step below the price is not offered: the rest of the chain does not matter
    }
    ok &= margin(bestSlope, floorKey, bestScale + floorKey, bestConst === 1);
    if (!(bestSlope >= floorKey)) stable = 0;
    if (best === L) reached = 1;
    current = best;
  }
  evalOut[0] = start; evalOut[1] = signature; evalOut[2] = ok;
  return stable === 1 && reached === 1 ? 1 : 0;
}

/**
 * Fills `sr` for this frame's budget policy (rows `p · stride + L`, profiles `[0, profiles)`,
 * levels within each profile's allowed range). Runs after the frame's options are in `st`/`sc`.
 */
export function computeStableRanges(st: FrameState, sc: ScreenSpaceScratch, sr: StableRanges, profiles: number): void {
  const stride = st.stride;
  sr.ensure(profiles * stride, stride);
  sr.count.fill(0, 0, profiles * stride);
  sr.any = sc.band > 0 && sc.lambda > 0;
  if (!sr.any) return;
  for (let p = 0; p < profiles; p++) {
    const finest = st.lo[p], coarsest = st.hi[p];
    if (st.levelCount[p] > STABLE_MAX_LEVELS || finest > coarsest) continue;
    for (let L = finest; L <= coarsest; L++) fillRow(st, sc, sr, p, finest, coarsest, L, false, p * stride + L);
  }
}

/**
 * Fills `sr` for this frame's hybrid policy: rows `(p · stride + pref) · stride + L` for the chains
 * from the quality floor (coarsest) to the preferred level `pref` (finest), flat steps kept.
 */
export function computeHybridStableRanges(st: FrameState, sc: ScreenSpaceScratch, sr: StableRanges, profiles: number): void {
  const stride = st.stride;
  sr.ensure(profiles * stride * stride, stride);
  sr.count.fill(0, 0, profiles * stride * stride);
  sr.any = sc.band > 0 && sc.lambda > 0;
  if (!sr.any) return;
  for (let p = 0; p < profiles; p++) {
    const floor = st.floor[p];
    if (st.levelCount[p] > STABLE_MAX_LEVELS) continue;
    for (let pref = st.lo[p]; pref < floor; pref++) {
      for (let L = pref; L <= floor; L++) fillRow(st, sc, sr, p, pref, floor, L, true, (p * stride + pref) * stride + L);
    }
  }
}

/** The stable ranges of one (profile, chain range, previous level) row. */
function fillRow(st: FrameState, sc: ScreenSpaceScratch, sr: StableRanges, p: number, finest: number, coarsest: number, L: number,
  keepFlat: boolean, row: number): void {
  const vmax = sc.viewportMax, tolerance = sc.tolerance, band = sc.band, errors = st.errors, off = p * st.stride;
  // The kinks in (0, vmax), sorted.
  let n = 0;
  kinks[n++] = 0;
  for (let l = finest; l <= coarsest; l++) { const e = errors[off + l]; if (e > 0) kinks[n++] = tolerance / e; }
  if (L < coarsest && errors[off + L + 1] > 0) kinks[n++] = ((1 - band) * tolerance) / errors[off + L + 1];
  kinks[n++] = vmax;
  for (let i = 1; i < n; i++) {
    const x = kinks[i];
    let j = i - 1;
    while (j >= 0 && kinks[j] > x) { kinks[j + 1] = kinks[j]; j--; }
    kinks[j + 1] = x;
  }
  rowFinest = finest; rowCoarsest = coarsest; rowFlat = keepFlat;
  addPoint(st, sc, sr, p, L, row, 0);
  for (let i = 0; i + 1 < n; i++) {
    const a = kinks[i], b = kinks[i + 1];
    if (!(a < vmax) || !(b > a)) continue;
    const hiEnd = b < vmax ? b : vmax;
    const u = a + 1e-7 * (a > 0 ? a : -a) + 1e-12, v = hiEnd - 1e-7 * (hiEnd > 0 ? hiEnd : -hiEnd) - 1e-12;
    if (u < v) addRange(st, sc, sr, p, L, row, u, v, 3);
  }
  addPoint(st, sc, sr, p, L, row, vmax);
}

// The chain range of the row being filled (set by fillRow for addPoint/addRange).
let rowFinest = 0, rowCoarsest = 0, rowFlat = false;

/** `w` itself is stable: a one-point range (evaluated exactly as the per-object builder does). */
function addPoint(st: FrameState, sc: ScreenSpaceScratch, sr: StableRanges, p: number, L: number, row: number, w: number): void {
  if (stableEval(st, sc, p, rowFinest, rowCoarsest, L, rowFlat, w) === 1) push(sr, row, w, w, evalOut[0]);
}

/** Adds `[u, v]` when stable throughout (module comment), else its halves down to `depth` 0. */
function addRange(st: FrameState, sc: ScreenSpaceScratch, sr: StableRanges, p: number, L: number, row: number, u: number, v: number, depth: number): void {
  const su = stableEval(st, sc, p, rowFinest, rowCoarsest, L, rowFlat, u), startU = evalOut[0], sigU = evalOut[1], okU = evalOut[2];
  const sv = stableEval(st, sc, p, rowFinest, rowCoarsest, L, rowFlat, v), startV = evalOut[0], sigV = evalOut[1], okV = evalOut[2];
  if (su === 1 && sv === 1 && okU === 1 && okV === 1 && startU === startV && sigU === sigV) {
    push(sr, row, u, v, startU);
    return;
  }
  if (depth === 0 || (su === 0 && sv === 0 && okU === 1 && okV === 1 && startU === startV && sigU === sigV)) return; // unstable throughout
  const mid = (u + v) * 0.5;
  if (!(mid > u && mid < v)) return;
  addRange(st, sc, sr, p, L, row, u, mid, depth - 1);
  addRange(st, sc, sr, p, L, row, mid, v, depth - 1);
}

/** Appends a range to row `row`, merging with the last one when they touch and share the start level. */
function push(sr: StableRanges, row: number, lo: number, hi: number, start: number): void {
  const k = sr.count[row], base = row * STABLE_MAX_RANGES;
  if (k > 0 && sr.hi[base + k - 1] === lo && sr.start[base + k - 1] === start) { sr.hi[base + k - 1] = hi; return; }
  if (k >= STABLE_MAX_RANGES) return;
  sr.lo[base + k] = lo; sr.hi[base + k] = hi; sr.start[base + k] = start;
  sr.count[row] = k + 1;
}
