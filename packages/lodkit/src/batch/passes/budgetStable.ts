/**
 * Stable ranges of the budget policy's upgrade chains: for each profile `p` and previous level
 * `L`, the projected diameters `w` (px, after bias and the viewport clamp) for which an adjustable
 * object's chain ({@link buildObjectChain}, this frame's tolerance, band and price) is *stable*:
 *
 * - the steps from its start `s0` up to `L` all have a key ≥ the frame's stable floor
 *   ({@link setStableFloor}: `(1 − band) λ`, the protected tier of collectScreenSpaceItems, bought
 *   before every other item, or raised above it) and reach `L` exactly, and
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
 * rounding at any `w` is far below the margin. Pieces that fail are bisected ({@link BISECT_DEPTH}
 * levels deep: only the halves holding a change are split again, so each comparison that changes
 * sign inside a piece costs one evaluation a level, at the midpoint); `w = 0` and `w = viewport
 * height` (clamped sizes) are checked as single points with the builder itself. A half unstable at
 * both ends with the same steps is dropped only when one of its tier tests fails at both ends
 * (an affine test false at both ends is false in between); failing different tests, it may be
 * stable inside — a step's key that rises through the floor while the next step's key rises
 * through `(1 + band) λ` leaves a window between them (found with random seeds: a row's window
 * ≈ 401–700 px of a 1080 px viewport had no range).
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
import type { FrameState } from '../core/frameState.js';
import type { ScreenSpaceScratch } from './screenSpacePasses.js';
import { upgradeCeilKey } from './chainItems.js';

/** Largest level count of a profile that gets stable ranges. */
export const STABLE_MAX_LEVELS = 8;
/** Ranges kept per (profile, previous level). */
export const STABLE_MAX_RANGES = 24;

/**
 * The least key of a stable object's steps: the protected tier's floor `(1 − band) λ`, or, raised
 * for {@link RAISED_FRAMES} frames after the budget cut the tier, just above the highest of those
 * cuts: `κ + (band / 8) λ`, κ the largest of their keys (IncrementalState.raiseFloor), within
 * `[(1 − band) λ, (1 − band / 4) λ]`. A frame whose reduced solve failed (its capacity below the
 * stable objects' cost) is redone — budget: first with the floor at its highest — and its key is
 * where the redone solve cut the tier, or the frame's λ where it cut none (IncrementalState.noteRedoneCut).
 * A frame whose budget tightens (objects entering close to the camera) cuts the protected tier;
 * when the cut item's key is below this floor every stable step still comes before it and the
 * reduced solve stands (budgetIncremental.ts `reducedSolve`); at `(1 − band) λ`, where the tier
 * starts, no cut can be. Raised, fewer objects are stable in other frames: with random spatial
 * order a binding frame cost 1.36–1.42 → 1.67–1.72 × a thresholds frame at 100k at `(1 − band / 4) λ`,
 * so the floor is raised only after cuts, and only as far as they reached: walking the 100k tree
 * field backward the cuts lie at 0.61–0.73 λ (band 0.4), so ≈ 2,000 more objects a frame are
 * stable at ≈ 0.78 λ than at 0.9 λ, with no more frames redone.
 * κ is a key, not a ratio to its own frame's λ: walking back the band's price alternates between two
 * values ≈ 2.3 × apart (a cut frame's best ratio left out is a newcomer's, passed over for the kept
 * levels, and λ rises by the band's cap after it), and a floor at the cuts' ratio to the next, higher
 * λ lay ≈ 2.3 × above any cut: 15–17k stable objects in those frames instead of 24–29k (100k
 * trees, band 0.4; the frame costs: bench/RESULTS.md, "Budget regimes").
 */
export function setStableFloor(sc: ScreenSpaceScratch, sr: StableRanges): void {
  // (read from and written into objects: a double argument or result would be a fresh heap number
  // per frame; the factor comes from IncrementalState.raiseFloor, whose loop V8 optimises early)
  const band = sc.band, lambda = sc.lambda;
  sc.stableFloor = band > 0 && lambda > 0 ? sr.floorFactor * lambda : 0;
}

/** Frames after a cut of the protected tier during which the stable floor stays raised. */
export const RAISED_FRAMES = 32;

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
  /**
   * Input: this frame's stable floor ÷ λ ({@link setStableFloor}): `1 − band`, or after cuts
   * `κ / λ + band / 8` within `[1 − band, 1 − band / 4]`, κ the largest cut key of the last
   * {@link RAISED_FRAMES} frames (IncrementalState.raiseFloor).
   */
  floorFactor = 1.5; // (a double field for V8; set every frame: above the protected tier, safe before that)

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

/**
 * What the incremental budget and hybrid paths (budgetIncremental.ts, hybridIncremental.ts) both
 * keep: the stable ranges, a kind per slot (3 = stable), the frame's accumulators (doubles in a
 * typed array: arguments would be boxed; each path's class names its slots) and the item counters.
 */
export class IncrementalState {
  ranges = new StableRanges();
  kindS: Uint8Array = new Uint8Array(0);
  acc: Float64Array = new Float64Array(5);
  items = 0;
  stableObjects = 0;
  /**
   * Frames solved with stable objects / redone by the full path / redone over the clusters without
   * stable ranges (budget: kept levels that do not fit); objects whose chain was not built, summed (tests and the bench).
   */
  frames = 0;
  fallbacks = 0;
  reruns = 0;
  /** budget: frames whose reduced solve failed, passed again with the floor at its highest, `(1 − band / 4) λ` (clusterDrivers.ts). */
  raised = 0;
  stableTotal = 0;
  /** Frames solved with stable objects although the budget cut the protected tier (below their steps). */
  cuts = 0;
  /** Per frame slot (frame mod (RAISED_FRAMES + 1)): the last frame noted there, and its largest cut key. */
  private readonly cutFrames = new Float64Array(RAISED_FRAMES + 1).fill(-1);
  private readonly cutKeys = new Float64Array(RAISED_FRAMES + 1);

  /**
   * Notes that the budget cut the protected tier in frame `frame`, at key `sc.cutAt` (as the reduced
   * solve leaves it: budgetIncremental.ts `reducedSolve`; a redone frame: {@link noteRedoneCut}).
   */
  noteCut(frame: number, sc: ScreenSpaceScratch): void {
    const k = frame % (RAISED_FRAMES + 1), cf = this.cutFrames, ck = this.cutKeys, key = sc.cutAt;
    if (cf[k] !== frame) { cf[k] = frame; ck[k] = key; } else if (key > ck[k]) ck[k] = key;
  }

  /**
   * Notes the cut of frame `frame` after it was redone (its reduced solve failed; then passed with
   * the floor at its highest, or with every chain built): the key at which the redone solve cut the
   * protected tier (`sc.cutKey`, protectedCut in screenSpacePasses.ts), or, where it cut none, the
   * frame's λ that the failed solve left in `sc.cutAt`. Either redone solve leaves out the items the
   * full item list leaves out, so its cut is that list's: walking back through trees, startup
   * frames redone this way had held the floor at 0.9 λ for 32 frames with their λ as the key
   * (3,300–6,800 items instead of 180–480 in a third of the binding frames; bench/RESULTS.md, "Budget regimes").
   */
  noteRedoneCut(frame: number, sc: ScreenSpaceScratch): void {
    if (sc.cutKey >= 0) sc.cutAt = sc.cutKey;
    this.noteCut(frame, sc);
  }

  /**
   * A redone budget frame's second pass (clusterDrivers.ts): raises this frame's floor factor to its
   * highest, `1 − band / 4`, and counts it in {@link raised}; false (nothing changed) when it is there already.
   */
  raiseFloorToTop(sc: ScreenSpaceScratch): boolean {
    const top = 1 - sc.band * 0.25, sr = this.ranges;
    if (!(sr.floorFactor < top)) return false;
    sr.floorFactor = top;
    this.raised++;
    return true;
  }

  /**
   * Sets frame `frame`'s floor factor (`StableRanges.floorFactor`) with the band `sc.band` and the
   * frame's λ `sc.lambda`, from the largest cut key noted in the {@link RAISED_FRAMES} frames before it.
   */
  raiseFloor(frame: number, sc: ScreenSpaceScratch): void {
    const cf = this.cutFrames, ck = this.cutKeys, band = sc.band, lambda = sc.lambda;
    let r = -1;
    for (let k = 0; k <= RAISED_FRAMES; k++) {
      const d = frame - cf[k];
      if (cf[k] >= 0 && d >= 0 && d <= RAISED_FRAMES && ck[k] > r) r = ck[k];
    }
    let f = 1 - band;
    if (r >= 0 && lambda > 0) {
      f = r / lambda + band * 0.125;
      if (f > 1 - band * 0.25) f = 1 - band * 0.25;
      if (f < 1 - band) f = 1 - band;
    }
    this.ranges.floorFactor = f;
  }
}

// Scratch of one evaluation: benefits, whether each is independent of w, the steps.
const ben = new Float64Array(256);
const constant = new Uint8Array(256);
const kinks = new Float64Array(2 * STABLE_MAX_LEVELS + 8);
/** Input of {@link stableEval}: [0] the diameter w. */
export const evalIn = new Float64Array(1);
/**
 * Result of the last {@link stableEval}: [0] start level, [1] step signature, [2] margins held
 * (1/0), [3] the tests it failed (bit 0: no floor above 0 or `L` not reached; bit 1 + j: step j's
 * tier test), 0 when stable.
 */
export const evalOut = new Float64Array(4);
/**
 * Bisection depth of fillRow per piece: a change inside a piece leaves out at most 1/4096 of the
 * piece (≈ 0.26 px of a 1080 px viewport). At depth 3 it left out up to an eighth: walking forward
 * at 100k, ≈ 1,900 objects a frame at their floor, offering no step, got a chain built (w 23–27 px
 * past a range ending at 22.3 px).
 */
export const BISECT_DEPTH = 12;
// Bisection stack of fillRow: [u, v] pairs, depths, and both ends' evaluations (each point is
// evaluated once: a half inherits its parent's end and shares the midpoint with its sibling).
const STACK = BISECT_DEPTH + 2;
const stackW = new Float64Array(2 * STACK);
const stackD = new Uint8Array(STACK);
const stackE = new Float64Array(10 * STACK);
/** Writes the last {@link stableEval} (its return value `stable`) as end `end` (0 u, 1 v) of stack entry `top`. */
function keepEnd(top: number, end: number, stable: number): void {
  const o = 10 * top + 5 * end;
  stackE[o] = stable; stackE[o + 1] = evalOut[0]; stackE[o + 2] = evalOut[1]; stackE[o + 3] = evalOut[2]; stackE[o + 4] = evalOut[3];
}
/** Copies end `from` of entry `a` into end `to` of entry `b`. */
function copyEnd(a: number, from: number, b: number, to: number): void {
  const x = 10 * a + 5 * from, y = 10 * b + 5 * to;
  stackE[y] = stackE[x]; stackE[y + 1] = stackE[x + 1]; stackE[y + 2] = stackE[x + 2]; stackE[y + 3] = stackE[x + 3]; stackE[y + 4] = stackE[x + 4];
}

// Margin test of one comparison of `a` with `b` (written out at each use: a helper taking doubles
// would box them when not inlined): it holds unless both sides are w-independent (the same
// operations give the same doubles at every w) or they differ by more than 1e-9 × the sum of the
// magnitudes of the terms they were computed from, so the rounding of a difference of two large
// benefits cannot hide behind a small result.

const mag = new Float64Array(256);

/**
 * Replays `buildObjectChain(costs, errors, p · stride, coarsest, finest, L, keepFlat, [w, τ, band, λ])`
 * with `w = evalIn[0]` (doubles travel in typed arrays: arguments would be boxed) and the tiering: returns 1 when the chain is stable (module comment), writing its start level,
 * a signature of its steps and whether every comparison held by the margin into {@link evalOut}.
 */
export function stableEval(st: FrameState, sc: ScreenSpaceScratch, p: number, finest: number, coarsest: number, L: number,
  keepFlat: boolean): number {
  const costs = st.costs, errors = st.errors, off = p * st.stride, w = evalIn[0];
  const tolerance = sc.tolerance, band = sc.band, lambda = sc.lambda;
  const floorKey = sc.stableFloor; // (stable steps: at least this; the protected tier starts there or lower)
  const ceilKey = upgradeCeilKey(band, lambda); // (the collections' rule: chainItems.ts)
  let ok = 1;
  // ben[l]: the builder's benefit; mag[l]: the sum of the magnitudes of its terms (rounding scale).
  for (let l = finest; l <= coarsest; l++) {
    const sse = errors[off + l] * w, e = sse - tolerance;
    { const d = sse - tolerance; if (!((d < 0 ? -d : d) > 1e-9 * (sse + tolerance) + 1e-300)) ok = 0; }
    ben[l] = e > 0 ? -e : 0;
    mag[l] = e > 0 ? sse + tolerance : 0;
    constant[l] = e > 0 ? 0 : 1;
  }
  if (L >= finest && L <= coarsest && band > 0) {
    const prevCost = costs[off + L];
    const price = band * lambda;
    const sse = errors[off + L] * w;
    const coarserSse = L < coarsest ? errors[off + L + 1] * w : 1e308; // 1e308 for +∞ (see metricKernels.ts)
    if (L < coarsest) { const d = coarserSse - (1 - band) * tolerance; if (!((d < 0 ? -d : d) > 1e-9 * (coarserSse + tolerance) + 1e-300)) ok = 0; }
    if (coarserSse > (1 - band) * tolerance) {
      const keep = band * (sse > tolerance ? sse : tolerance);
      { const d = sse - tolerance; if (!((d < 0 ? -d : d) > 1e-9 * (sse + tolerance) + 1e-300)) ok = 0; }
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
    { const d = ben[l] - ben[current]; if (!(constant[l] === 1 && constant[current] === 1) && !((d < 0 ? -d : d) > 1e-9 * (mag[l] + mag[current]) + 1e-300)) ok = 0; }
    if (ben[l] >= ben[current]) current = l;
  }
  const start = current;
  let signature = 0, stable = floorKey > 0 ? 1 : 0, reached = start === L ? 1 : 0, failed = floorKey > 0 ? 0 : 1, step = 2;
  while (current > finest) {
    const cc = costs[off + current], cb = ben[current], cConst = constant[current], cMag = mag[current];
    let best = -1, bestSlope = 0, bestConst = 0, bestScale = 0;
    for (let l = current - 1; l >= finest; l--) {
      const dc = costs[off + l] - cc;
      if (!(dc > 0)) continue;
      const slope = (ben[l] - cb) / dc, sConst = cConst === 1 && constant[l] === 1, sScale = (mag[l] + cMag) / dc;
      { const d = slope; if (!(sConst) && !((d < 0 ? -d : d) > 1e-9 * (sScale) + 1e-300)) ok = 0; }
      if (slope > 0 || (keepFlat && slope === 0)) {
        if (best >= 0) { const d = slope - bestSlope; if (!(sConst && bestConst === 1) && !((d < 0 ? -d : d) > 1e-9 * (sScale + bestScale) + 1e-300)) ok = 0; }
        if (best < 0 || slope >= bestSlope) { bestSlope = slope; best = l; bestConst = sConst ? 1 : 0; bestScale = sScale; }
      }
    }
    if (best < 0) break;
    signature = signature * 16 + best + 1;
    // The tiering of collectScreenSpaceItems for this step (prev = L).
    if (best < L) {
      { const d = bestSlope - ceilKey; if (!(bestConst === 1) && !((d < 0 ? -d : d) > 1e-9 * (bestScale + ceilKey) + 1e-300)) ok = 0; }
      if (!(bestSlope < ceilKey)) { stable = 0; failed |= step; }
      signature = signature * 16 + 15;
      break; // a finer step below the price is not offered: the rest of the chain does not matter
    }
    { const d = bestSlope - floorKey; if (!(bestConst === 1) && !((d < 0 ? -d : d) > 1e-9 * (bestScale + floorKey) + 1e-300)) ok = 0; }
    if (!(bestSlope >= floorKey)) { stable = 0; failed |= step; }
    if (best === L) reached = 1;
    current = best; step *= 2;
  }
  if (reached === 0) failed |= 1;
  evalOut[0] = start; evalOut[1] = signature; evalOut[2] = ok; evalOut[3] = failed;
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
  setStableFloor(sc, sr);
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
  setStableFloor(sc, sr);
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
  point(st, sc, sr, p, finest, coarsest, L, keepFlat, row, 0);
  for (let i = 0; i + 1 < n; i++) {
    const a = kinks[i], b = kinks[i + 1];
    if (!(a < vmax) || !(b > a)) continue;
    const hiEnd = b < vmax ? b : vmax;
    const u0 = a + 1e-7 * (a > 0 ? a : -a) + 1e-12, v0 = hiEnd - 1e-7 * (hiEnd > 0 ? hiEnd : -hiEnd) - 1e-12;
    if (!(u0 < v0)) continue;
    // Depth-first bisection, left half first so that ranges arrive in order.
    stackW[0] = u0; stackW[1] = v0; stackD[0] = BISECT_DEPTH;
    evalIn[0] = u0; keepEnd(0, 0, stableEval(st, sc, p, finest, coarsest, L, keepFlat));
    evalIn[0] = v0; keepEnd(0, 1, stableEval(st, sc, p, finest, coarsest, L, keepFlat));
    let top = 1;
    while (top > 0) {
      top--;
      const u = stackW[2 * top], v = stackW[2 * top + 1], depth = stackD[top], e = 10 * top;
      const su = stackE[e], startU = stackE[e + 1], sigU = stackE[e + 2], okU = stackE[e + 3], failU = stackE[e + 4];
      const sv = stackE[e + 5], startV = stackE[e + 6], sigV = stackE[e + 7], okV = stackE[e + 8], failV = stackE[e + 9];
      const same = okU === 1 && okV === 1 && startU === startV && sigU === sigV;
      if (same && su === 1 && sv === 1) {
        rangeIn[0] = u; rangeIn[1] = v;
        push(sr, row, startU);
        continue;
      }
      // (unstable throughout: one test fails at both ends; else no deeper)
      if (depth === 0 || (same && (failU & failV) !== 0)) continue;
      const mid = (u + v) * 0.5;
      if (!(mid > u && mid < v)) continue;
      // The right half replaces this entry, the left one goes above it (popped first).
      evalIn[0] = mid;
      const sm = stableEval(st, sc, p, finest, coarsest, L, keepFlat);
      stackW[2 * top + 2] = u; stackW[2 * top + 3] = mid; stackD[top + 1] = depth - 1;
      copyEnd(top, 0, top + 1, 0); keepEnd(top + 1, 1, sm);
      stackW[2 * top] = mid; stackD[top] = depth - 1; // (v stays)
      keepEnd(top, 0, sm);
      top += 2;
    }
  }
  point(st, sc, sr, p, finest, coarsest, L, keepFlat, row, 1);
}

/** `w = 0` (`which` 0) or the viewport height (1) is stable: a one-point range, evaluated exactly as the builder does. */
function point(st: FrameState, sc: ScreenSpaceScratch, sr: StableRanges, p: number, finest: number, coarsest: number, L: number,
  keepFlat: boolean, row: number, which: number): void {
  evalIn[0] = which === 0 ? 0 : sc.viewportMax;
  if (stableEval(st, sc, p, finest, coarsest, L, keepFlat) === 1) {
    rangeIn[0] = evalIn[0]; rangeIn[1] = evalIn[0];
    push(sr, row, evalOut[0]);
  }
}

const rangeIn = new Float64Array(2);

/** Appends `[rangeIn[0], rangeIn[1]]` to row `row`, merging with the last range when they touch and share the start level. */
function push(sr: StableRanges, row: number, start: number): void {
  const k = sr.count[row], base = row * STABLE_MAX_RANGES, lo = rangeIn[0], hi = rangeIn[1];
  if (k > 0 && sr.hi[base + k - 1] === lo && sr.start[base + k - 1] === start) { sr.hi[base + k - 1] = hi; return; }
  if (k >= STABLE_MAX_RANGES) return;
  sr.lo[base + k] = lo; sr.hi[base + k] = hi; sr.start[base + k] = start;
  sr.count[row] = k + 1;
}
