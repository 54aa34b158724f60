/**
 * Hybrid's stable ranges keyed by (profile, displayed level) instead of (profile, preferred level,
 * displayed level): for each profile `p` and displayed level `L`, the projected diameters `w` (px)
 * at which an object displayed at `L` — shown, valid, not forced, with a single view — is known to
 * end the frame at `L` whenever the budget binds and every stable step is bought:
 *
 * - its preferred level `P` (the thresholds rule with hysteresis around `L`,
 *   scripts/templates/decide.template.ts) is free — not held by the band — with no blend (outside
 *   every blend window), or inside a blend window whose fractional index rounds to `L` (then
 *   `P = L` with the rule's blend: {@link LEVEL_ROW_WINDOW}), and
 * - either `P` is at or past the quality floor and equals `L` (no chain, no change), or `P` is finer
 *   than the floor and `w` lies in a stable range of hybrid's row (p, P, L) (budgetStable.ts
 *   computeHybridStableRanges: only protected steps up to `L`);
 *
 * or the band holds it at `L` (fixed there whatever the budget, its blend from its previous size:
 * {@link LEVEL_ROW_HELD}).
 *
 * Each range's `start` holds `P` (not a chain start): the chain of a stable object starts at a level
 * that costs what the floor costs, so its base cost is `cost(P)` at or past the floor and
 * `cost(floor)` finer, and its preferred cost is `cost(P)` — what the frame needs to know whether
 * the preferred selection fits, without a pass over the objects.
 *
 * Why the ranges are sound. The rule's outcome at a size `v` (the metric × bias) depends on `v`
 * only through comparisons of `v` and of the band's probes `v (1 ± h)` with the profile's
 * thresholds and blend thresholds (in float32, as OpenUSD) and with the middles of the blend windows
 * (where the rounded fractional index changes level). So between consecutive values of
 * `{q, q / (1 + h), q / (1 − h)}` over those points `q` and every band `h` the profile can use, the
 * outcome is constant; each piece is shrunk by a relative 1e-6 at both ends (float32 rounding moves a
 * comparison by less than 6e-8) and classified at its middle. A size maps to the diameter as
 * `w = v · scale` up to rounding of the order of 1e-16 (1 for pixels, the view's viewport height
 * for screenHeight), far inside that margin. Ranges stop below `vmax`: a diameter clamped to the
 * viewport no longer tells the size. Frames with `minFramesBetweenChanges` (holds that depend on
 * when a level last changed) and profiles of other metrics get no ranges.
 *
 * @module
 */
import type { FrameState } from '../core/frameState.js';
import type { ProfileTable } from '../core/profiles.js';
import { writeLodDescending } from '../../heuristics/lodIndex.js';
import { STABLE_MAX_LEVELS, STABLE_MAX_RANGES, type StableRanges } from './budgetStable.js';

/** Relative margin by which each piece between two breakpoints is shrunk. */
export const LEVEL_ROW_MARGIN = 1e-6;

/**
 * A range's `start` is `P + LEVEL_ROW_WINDOW · (bi + 1)` when its objects lie inside blend window
 * `bi` with `P = L` (they keep `L` with the rule's blend at their size), else `P` (blend 0).
 */
export const LEVEL_ROW_WINDOW = 16;

/** A range's `start` is `L + LEVEL_ROW_HELD` when the band holds its objects at `L` (mark fixed). */
export const LEVEL_ROW_HELD = 128;

const points = new Float64Array(1024);
const lodOut = new Float64Array(1);

/**
 * The pieces of every row, classified (the part of the rows that does not depend on the frame's
 * price): kept per set and rebuilt only when what they depend on changes — the profiles'
 * thresholds, blend thresholds, bands, level range and floor, the frame's band, the view's pixel
 * scale and the largest diameter ({@link computeHybridLevelRows} compares a signature of them).
 */
export class LevelPieces {
  /** The signature the pieces were built for (length `sigLength`). */
  sig = new Float64Array(64);
  sigLength = -1;
  /** Per row (`p · stride + L`): its first piece and how many. */
  first = new Int32Array(0);
  count = new Int32Array(0);
  /** Per piece: diameters `[lo, hi]`, range start, preferred level, 1 when the piece is a range as it is (else cut by hybrid's (P, L) row). */
  lo = new Float64Array(0);
  hi = new Float64Array(0);
  start = new Uint8Array(0);
  pref = new Uint8Array(0);
  whole = new Uint8Array(0);
  n = 0;
}

let sigScratch = new Float64Array(64);
const range = new Float64Array(2);

/**
 * Fills `out` (rows `p · stride + L`) from this frame's hybrid ranges `hybrid` (rows
 * `(p · stride + P) · stride + L`, computeHybridStableRanges), with the classified pieces kept in
 * `pieces`. `pixelScale`: the single view's pixels per screen height (the screenHeight metric's
 * factor to a diameter); `vmax`: the largest diameter (ScreenSpaceScratch `viewportMax`).
 */
export function computeHybridLevelRows(st: FrameState, table: ProfileTable, hybrid: StableRanges, out: StableRanges, pixelScale: number,
  vmax: number, pieces: LevelPieces): void {
  const stride = st.stride, profiles = table.count;
  out.ensure(profiles * stride, stride);
  out.count.fill(0, 0, profiles * stride);
  out.any = true;
  if (st.minFrames > 0) return;
  if (!sameSignature(st, table, pixelScale, vmax, pieces)) buildPieces(st, table, pixelScale, vmax, pieces);
  const first = pieces.first, count = pieces.count, lo = pieces.lo, hi = pieces.hi, start = pieces.start, pref = pieces.pref, whole = pieces.whole;
  for (let p = 0; p < profiles; p++) {
    for (let L = 0; L < stride; L++) {
      const row = p * stride + L;
      for (let k = first[row], end = k + count[row]; k < end; k++) {
        if (whole[k] === 1) { range[0] = lo[k]; range[1] = hi[k]; pushRange(out, row, start[k]); continue; }
        if (!hybrid.any) continue;
        const from = (p * stride + pref[k]) * stride + L, r0 = from * STABLE_MAX_RANGES;
        for (let r = r0, rEnd = r0 + hybrid.count[from]; r < rEnd; r++) {
          const a = hybrid.lo[r] > lo[k] ? hybrid.lo[r] : lo[k], b = hybrid.hi[r] < hi[k] ? hybrid.hi[r] : hi[k];
          if (a <= b) { range[0] = a; range[1] = b; pushRange(out, row, start[k]); }
        }
      }
    }
  }
}

/** Whether `pieces` were built for this frame's profiles, band, pixel scale and largest diameter (the signature kept for the next frame). */
function sameSignature(st: FrameState, table: ProfileTable, pixelScale: number, vmax: number, pieces: LevelPieces): boolean {
  const stride = st.stride;
  let a = sigScratch, n = 0;
  const need = 6 + table.count * (6 + 3 * stride);
  if (a.length < need) a = sigScratch = new Float64Array(need * 2);
  a[n++] = table.count; a[n++] = stride; a[n++] = st.hysteresis; a[n++] = st.anyBands ? 1 : 0; a[n++] = pixelScale; a[n++] = vmax;
  for (let p = 0; p < table.count; p++) {
    const pr = table.profiles[p];
    a[n++] = table.metricCode[p]; a[n++] = st.levelCount[p]; a[n++] = st.lo[p]; a[n++] = st.hi[p]; a[n++] = st.floor[p]; a[n++] = st.banded[p];
    for (let j = 0; j < stride; j++) {
      a[n++] = j < pr.thresholds.length ? pr.thresholds[j] : -1;
      a[n++] = j < pr.blendThresholds.length ? pr.blendThresholds[j] : -1;
      a[n++] = st.banded[p] !== 0 ? st.bands[p * stride + j] : 0;
    }
  }
  let same = n === pieces.sigLength;
  for (let i = 0; same && i < n; i++) same = Object.is(a[i], pieces.sig[i]);
  if (!same) {
    if (pieces.sig.length < n) pieces.sig = new Float64Array(n * 2);
    pieces.sig.set(a.subarray(0, n)); pieces.sigLength = n;
  }
  return same;
}

/** Classifies every row's pieces into `pieces` (see the module comment). */
function buildPieces(st: FrameState, table: ProfileTable, pixelScale: number, vmax: number, pieces: LevelPieces): void {
  const stride = st.stride, profiles = table.count, rows = profiles * stride;
  if (pieces.first.length < rows) { pieces.first = new Int32Array(rows); pieces.count = new Int32Array(rows); }
  pieces.count.fill(0, 0, rows);
  pieces.n = 0;
  for (let p = 0; p < profiles; p++) {
    const code = table.metricCode[p];
    if ((code !== 1 && code !== 2) || st.levelCount[p] > STABLE_MAX_LEVELS || st.lo[p] > st.hi[p]) continue;
    const scale = code === 1 ? 1 : pixelScale;
    if (!(scale > 0)) continue;
    const n = breakpoints(st, table, p);
    const floor = st.floor[p], wCap = vmax * (1 - 1e-9);
    for (let L = st.lo[p]; L <= st.hi[p]; L++) {
      const row = p * stride + L;
      pieces.first[row] = pieces.n;
      for (let i = 0; i <= n; i++) {
        const a = i === 0 ? 0 : points[i - 1], b = i === n ? Number.POSITIVE_INFINITY : points[i];
        const vLo = a * (1 + LEVEL_ROW_MARGIN) + 1e-300, vHi = b * (1 - LEVEL_ROW_MARGIN);
        if (!(vLo < vHi)) continue;
        const wLo = vLo * scale, wHi = vHi * scale < wCap ? vHi * scale : wCap;
        if (!(wLo <= wHi)) continue;
        const vMid = vHi === Number.POSITIVE_INFINITY ? 2 * vLo + 1 : (vLo + vHi) * 0.5;
        let P = freeLevelAt(st, table, p, vMid, L), start = P;
        if (P < 0) {
          // held by the band at L: fixed there whatever the budget (its blend from its previous size)
          if (heldAt(st, table, p, vMid, L)) { addPiece(pieces, wLo, wHi, L + LEVEL_ROW_HELD, L, 1); continue; }
          // inside a blend window that rounds to L: P = L (no hold acts), the blend the rule's fraction
          const bi = windowAt(st, table, p, vMid, L);
          if (bi < 0) continue;
          P = L; start = L + LEVEL_ROW_WINDOW * (bi + 1);
        }
        if (P >= floor) {
          if (P === L) addPiece(pieces, wLo, wHi, start, P, 1);
          continue;
        }
        if (L >= P && L <= floor) addPiece(pieces, wLo, wHi, start, P, 0); // (cut by hybrid's (P, L) row every frame)
      }
      pieces.count[row] = pieces.n - pieces.first[row];
    }
  }
}

function addPiece(pc: LevelPieces, lo: number, hi: number, start: number, P: number, whole: number): void {
  const k = pc.n++;
  if (pc.lo.length <= k) {
    const grow = (x: Float64Array) => { const y = new Float64Array(2 * k + 16); y.set(x); return y; };
    const growU8 = (x: Uint8Array) => { const y = new Uint8Array(2 * k + 16); y.set(x); return y; };
    pc.lo = grow(pc.lo); pc.hi = grow(pc.hi); pc.start = growU8(pc.start); pc.pref = growU8(pc.pref); pc.whole = growU8(pc.whole);
  }
  pc.lo[k] = lo; pc.hi[k] = hi; pc.start[k] = start; pc.pref[k] = P; pc.whole[k] = whole;
}

/** Profile `p`'s breakpoints in size, ascending, into `points`; returns how many. */
function breakpoints(st: FrameState, table: ProfileTable, p: number): number {
  const pr = table.profiles[p], t = pr.thresholds, bt = pr.blendThresholds, nt = t.length, nb = bt.length;
  const banded = st.banded[p] !== 0, off = p * st.stride;
  let n = 0;
  // The points q: thresholds, blend thresholds, middles of the blend windows (thresholds[i] down to
  // the larger of blendThresholds[i] and thresholds[i + 1]: lodIndex.ts writeLodDescending).
  for (let j = 0; j < nt; j++) n = addPoint(n, t[j], st, banded, off, nt);
  for (let j = 0; j < nb; j++) n = addPoint(n, bt[j], st, banded, off, nt);
  for (let j = 0; j < nb && j < nt; j++) {
    const a = t[j], e = j + 1 < nt && t[j + 1] > bt[j] ? t[j + 1] : bt[j];
    if (a > e) n = addPoint(n, (a + e) * 0.5, st, banded, off, nt);
  }
  for (let i = 1; i < n; i++) { // (insertion sort: at most a few hundred points)
    const x = points[i];
    let j = i - 1;
    while (j >= 0 && points[j] > x) { points[j + 1] = points[j]; j--; }
    points[j + 1] = x;
  }
  return n;
}

/** Adds `q` and the sizes whose band probes `v (1 ± h)` reach `q`, for every band the profile uses. */
function addPoint(n: number, q: number, st: FrameState, banded: boolean, off: number, nt: number): number {
  if (!(q >= 0) || q === Number.POSITIVE_INFINITY) return n;
  points[n++] = q;
  const bands = banded ? nt : 1;
  for (let k = 0; k < bands && n + 2 <= points.length; k++) {
    const h = banded ? st.bands[off + k] : st.hysteresis;
    if (!(h > 0)) continue;
    points[n++] = q / (1 + h);
    if (h < 1) points[n++] = q / (1 - h);
  }
  return n;
}

/** The profile's level at size `x`: the fractional index clamped into [lo, hi] (NaN-free sizes). */
function clampedIndex(st: FrameState, table: ProfileTable, p: number, x: number): number {
  const pr = table.profiles[p];
  writeLodDescending(pr.thresholds, pr.blendThresholds, x, lodOut, 0);
  const f = lodOut[0], lo = st.lo[p], hi = st.hi[p];
  return f < lo ? lo : f > hi ? hi : f;
}

/**
 * The thresholds rule at size `v` for an object displayed at `L` (in [lo, hi]): its preferred level
 * when decided freely with blend 0, or −1 when the band holds it at `L` or it lies in a blend window.
 * The rule itself is decide.template.ts's; this is its outcome, read at one size.
 */
export function freeLevelAt(st: FrameState, table: ProfileTable, p: number, v: number, L: number): number {
  const f = clampedIndex(st, table, p, v);
  if (f !== Math.floor(f)) return -1; // a blend
  if (f === L || !(st.hysteresis > 0 || st.anyBands)) return f;
  const h = st.banded[p] === 0 ? st.hysteresis : st.bands[p * st.stride + (f > L ? L : L - 1)];
  if (!(h > 0)) return f;
  const la = Math.floor(clampedIndex(st, table, p, v * (1 + h)) + 0.5), lb = Math.floor(clampedIndex(st, table, p, v * (1 - h)) + 0.5);
  const held = la <= lb ? la <= L && L <= lb : lb <= L && L <= la;
  return held ? -1 : f;
}

/**
 * The window index `bi` when an object displayed at `L` at size `v` lies inside blend window `bi`
 * and the rule's fractional index there rounds to `L` (its preferred level is `L`, not held: the
 * band only acts on a change), else −1.
 */
export function windowAt(st: FrameState, table: ProfileTable, p: number, v: number, L: number): number {
  const f = clampedIndex(st, table, p, v), bi = Math.floor(f);
  return f !== bi && Math.floor(f + 0.5) === L ? bi : -1;
}

/**
 * Whether the band holds an object displayed at `L` (in [lo, hi]) at size `v`: the rule's rounded
 * level differs from `L` and its two probes round to levels on both sides of `L` (the previous size
 * then only gives the blend).
 */
export function heldAt(st: FrameState, table: ProfileTable, p: number, v: number, L: number): boolean {
  const level = Math.floor(clampedIndex(st, table, p, v) + 0.5);
  if (level === L || !(st.hysteresis > 0 || st.anyBands)) return false;
  const h = st.banded[p] === 0 ? st.hysteresis : st.bands[p * st.stride + (level > L ? L : L - 1)];
  if (!(h > 0)) return false;
  const la = Math.floor(clampedIndex(st, table, p, v * (1 + h)) + 0.5), lb = Math.floor(clampedIndex(st, table, p, v * (1 - h)) + 0.5);
  return la <= lb ? la <= L && L <= lb : lb <= L && L <= la;
}

/** Appends `range` (`[lo, hi]`) with `start` to row `row`, merging with the last range when they touch and share the start. */
function pushRange(sr: StableRanges, row: number, start: number): void {
  const k = sr.count[row], base = row * STABLE_MAX_RANGES, lo = range[0], hi = range[1];
  if (k > 0 && sr.start[base + k - 1] === start && sr.hi[base + k - 1] >= lo) { if (hi > sr.hi[base + k - 1]) sr.hi[base + k - 1] = hi; return; }
  if (k >= STABLE_MAX_RANGES) return;
  sr.lo[base + k] = lo; sr.hi[base + k] = hi; sr.start[base + k] = start;
  sr.count[row] = k + 1;
}
