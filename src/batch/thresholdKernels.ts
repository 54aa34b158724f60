/**
 * The threshold decision kernels: metric value → bias → OpenUSD fractional LOD → min/max clamp →
 * hysteresis → integer level + blend, with the changed-id list and the frame stats, for a range of
 * objects. One variant for descending (screen) metrics and one for ascending (distance) metrics.
 *
 * Contributor notes:
 * - `levels[i]` is USD's non-blending choice `round(index)` (half up); `blend[i]` is the fractional
 *   part `index − floor(index)`. A blending renderer draws `lower = blend ≥ 0.5 ? level − 1 : level`
 *   and `lower + 1` with weight `blend` (see `blendLowerLevel`).
 * - Hysteresis is a relative band `h` around the threshold structure, tested in level space: when
 *   the level would change from the previous one `Lp`, the kernel also evaluates the sizes
 *   `v·(1+h)` and `v·(1−h)`; if `Lp` lies between their two levels the object keeps `Lp` and its
 *   previous size. So a size oscillating inside `(t/(1+h), t/(1−h))` around a threshold `t` never
 *   flips the level. The extra evaluations happen only when the level would change (rare per frame).
 * - `minFramesBetweenChanges` holds the previous level the same way while
 *   `frame − lastChange < minFrames`. Neither rule applies after a hidden or invalid frame.
 * - The OpenUSD index rule is re-implemented here with offsets into the flat profile arrays
 *   (`computeLodDescending` takes whole arrays; sub-arrays would allocate per call). Tests check the
 *   two agree object by object.
 *
 * @module
 */
import { ADJUSTABLE, FIXED, FLAG_HIDDEN, FLAG_REMOVED, HIDDEN_LEVEL, NOT_DRAWN, NO_FORCED_LEVEL, type FrameState } from './frameState.js';
import { CULLED_SIZE } from './metricKernels.js';

/** OpenUSD's descending rule on `t[off … off+n)`, `b[off … off+nb)`. */
export function lodDescendingAt(t: Float32Array, b: Float32Array, off: number, n: number, nb: number, size: number): number {
  const sizeF = Math.fround(size);
  let lod = 0;
  while (lod < n && !(sizeF > t[off + lod])) lod++;
  if (nb === 0) return lod;
  let blend = 0;
  while (blend < nb && !(sizeF > b[off + blend])) blend++;
  if (blend > lod) blend = lod;
  if (blend < lod - 1) blend = lod - 1;
  if (blend === lod || blend >= nb) return lod;
  const a = t[off + blend];
  let hiEdge = b[off + blend];
  if (lod < n && t[off + lod] > hiEdge) hiEdge = t[off + lod];
  if (a >= size && size > hiEdge) return Math.fround(blend + Math.fround((size - a) / Math.fround(hiEdge - a)));
  return lod;
}

/** OpenUSD's ascending (distance) rule on `t[off … off+n)`, `b[off … off+nb)`. */
export function lodAscendingAt(t: Float32Array, b: Float32Array, off: number, n: number, nb: number, distance: number): number {
  let lod = 0;
  while (lod < n && !(distance < t[off + lod])) lod++;
  if (nb === 0) return lod;
  let blend = 0;
  while (blend < nb && !(distance < b[off + blend])) blend++;
  if (blend > lod) blend = lod;
  if (blend < lod - 1) blend = lod - 1;
  if (blend === lod || blend >= nb) return lod;
  const a = t[off + blend];
  let hiEdge = b[off + blend];
  if (lod < n && t[off + lod] < hiEdge) hiEdge = t[off + lod];
  if (a <= distance && distance < hiEdge) return Math.fround(blend + Math.fround((distance - a) / Math.fround(hiEdge - a)));
  return lod;
}

function clampRound(f: number, lo: number, hi: number): number {
  if (f < lo) f = lo;
  else if (f > hi) f = hi;
  return Math.floor(f + 0.5);
}

/**
 * Decides objects `[start, end)` whose values are in `st.work` (screen metrics, larger = finer).
 * Writes `out` (the set's `levels`, or `next` for hybrid), `blend`, `sizes`; when `track` is true it
 * appends changed ids and stamps `lastChange`, otherwise it fills `st.fixed` for the budget pass.
 */
export function decideDescending(st: FrameState, start: number, end: number, out: Uint8Array, track: boolean): void {
  const work = st.work, flags = st.flags, profileIds = st.profileIds, forced = st.forced;
  const levels = st.levels, blend = st.blend, sizes = st.sizes, lastChange = st.lastChange;
  const changed = st.changed, fixed = st.fixed, levelCounts = st.levelCounts;
  const t = st.thresholds, b = st.blendThresholds, tc = st.thresholdCount, bc = st.blendCount;
  const lc = st.levelCount, metricCode = st.metricCode, costs = st.costs, loA = st.lo, hiA = st.hi;
  const stride = st.stride, bias = st.bias, h = st.hysteresis, minFrames = st.minFrames, frame = st.frame;
  const code = st.code, filter = st.filter, useHold = h > 0 || minFrames > 0;
  const up = 1 + h, down = 1 - h;
  let changedCount = st.changedCount, totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0;

  for (let i = start; i < end; i++) {
    const fl = flags[i];
    if (fl & FLAG_REMOVED) continue;
    const p = profileIds[i];
    if (filter && metricCode[p] !== code) continue;
    const old = levels[i];
    const s = work[i];
    let level: number, frac = 0, used: number, mark = ADJUSTABLE;
    if (fl & FLAG_HIDDEN || s === CULLED_SIZE) {
      level = HIDDEN_LEVEL; used = NaN; hidden++; mark = NOT_DRAWN;
    } else if (s !== s) {
      level = hiA[p]; used = NaN; invalid++; mark = FIXED;
    } else {
      const v = s * bias;
      used = v;
      const fo = forced[i];
      if (fo !== NO_FORCED_LEVEL) {
        level = fo < lc[p] ? fo : lc[p] - 1; mark = FIXED;
      } else {
        const off = p * stride, n = tc[p], nb = bc[p], lo = loA[p], hi = hiA[p];
        let f = lodDescendingAt(t, b, off, n, nb, v);
        if (f < lo) f = lo; else if (f > hi) f = hi;
        level = Math.floor(f + 0.5);
        frac = f - Math.floor(f);
        if (useHold && level !== old && old >= lo && old <= hi) {
          const prev = sizes[i];
          if (prev === prev) {
            let hold = minFrames > 0 && frame - lastChange[i] < minFrames;
            if (!hold && h > 0) {
              const la = clampRound(lodDescendingAt(t, b, off, n, nb, v * up), lo, hi);
              const lb = clampRound(lodDescendingAt(t, b, off, n, nb, v * down), lo, hi);
              hold = la <= lb ? la <= old && old <= lb : lb <= old && old <= la;
            }
            if (hold) {
              let fp = lodDescendingAt(t, b, off, n, nb, prev);
              if (fp < lo) fp = lo; else if (fp > hi) fp = hi;
              frac = Math.floor(fp + 0.5) === old ? fp - Math.floor(fp) : 0;
              level = old; used = prev; mark = FIXED;
            }
          }
        }
      }
    }
    out[i] = level;
    blend[i] = frac;
    sizes[i] = used;
    if (level !== HIDDEN_LEVEL) {
      levelCounts[level]++;
      totalCost += costs[p * stride + level];
      minimumCost += costs[p * stride + (mark === ADJUSTABLE ? hiA[p] : level)];
    }
    if (track) {
      if (level !== old) { changed[changedCount++] = i; lastChange[i] = frame; }
    } else {
      fixed[i] = mark;
    }
  }
  st.changedCount = changedCount;
  st.totalCost += totalCost;
  st.minimumCost += minimumCost;
  st.invalid += invalid;
  st.hidden += hidden;
}

/** As {@link decideDescending} for distance values (smaller = finer; culled = `+∞`; bias divides). */
export function decideAscending(st: FrameState, start: number, end: number, out: Uint8Array, track: boolean): void {
  const work = st.work, flags = st.flags, profileIds = st.profileIds, forced = st.forced;
  const levels = st.levels, blend = st.blend, sizes = st.sizes, lastChange = st.lastChange;
  const changed = st.changed, fixed = st.fixed, levelCounts = st.levelCounts;
  const t = st.thresholds, b = st.blendThresholds, tc = st.thresholdCount, bc = st.blendCount;
  const lc = st.levelCount, metricCode = st.metricCode, costs = st.costs, loA = st.lo, hiA = st.hi;
  const stride = st.stride, bias = st.bias, h = st.hysteresis, minFrames = st.minFrames, frame = st.frame;
  const code = st.code, filter = st.filter, useHold = h > 0 || minFrames > 0;
  const up = 1 + h, down = 1 - h;
  let changedCount = st.changedCount, totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0;

  for (let i = start; i < end; i++) {
    const fl = flags[i];
    if (fl & FLAG_REMOVED) continue;
    const p = profileIds[i];
    if (filter && metricCode[p] !== code) continue;
    const old = levels[i];
    const s = work[i];
    let level: number, frac = 0, used: number, mark = ADJUSTABLE;
    if (fl & FLAG_HIDDEN || s === Infinity) {
      level = HIDDEN_LEVEL; used = NaN; hidden++; mark = NOT_DRAWN;
    } else if (s !== s) {
      level = hiA[p]; used = NaN; invalid++; mark = FIXED;
    } else {
      const v = s / bias;
      used = v;
      const fo = forced[i];
      if (fo !== NO_FORCED_LEVEL) {
        level = fo < lc[p] ? fo : lc[p] - 1; mark = FIXED;
      } else {
        const off = p * stride, n = tc[p], nb = bc[p], lo = loA[p], hi = hiA[p];
        let f = lodAscendingAt(t, b, off, n, nb, v);
        if (f < lo) f = lo; else if (f > hi) f = hi;
        level = Math.floor(f + 0.5);
        frac = f - Math.floor(f);
        if (useHold && level !== old && old >= lo && old <= hi) {
          const prev = sizes[i];
          if (prev === prev) {
            let hold = minFrames > 0 && frame - lastChange[i] < minFrames;
            if (!hold && h > 0) {
              const la = clampRound(lodAscendingAt(t, b, off, n, nb, v * up), lo, hi);
              const lb = clampRound(lodAscendingAt(t, b, off, n, nb, v * down), lo, hi);
              hold = la <= lb ? la <= old && old <= lb : lb <= old && old <= la;
            }
            if (hold) {
              let fp = lodAscendingAt(t, b, off, n, nb, prev);
              if (fp < lo) fp = lo; else if (fp > hi) fp = hi;
              frac = Math.floor(fp + 0.5) === old ? fp - Math.floor(fp) : 0;
              level = old; used = prev; mark = FIXED;
            }
          }
        }
      }
    }
    out[i] = level;
    blend[i] = frac;
    sizes[i] = used;
    if (level !== HIDDEN_LEVEL) {
      levelCounts[level]++;
      totalCost += costs[p * stride + level];
      minimumCost += costs[p * stride + (mark === ADJUSTABLE ? hiA[p] : level)];
    }
    if (track) {
      if (level !== old) { changed[changedCount++] = i; lastChange[i] = frame; }
    } else {
      fixed[i] = mark;
    }
  }
  st.changedCount = changedCount;
  st.totalCost += totalCost;
  st.minimumCost += minimumCost;
  st.invalid += invalid;
  st.hidden += hidden;
}
