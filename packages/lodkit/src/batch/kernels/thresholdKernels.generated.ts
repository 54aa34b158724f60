// Generated from scripts/templates/decide.template.ts by scripts/generate.mjs: do not edit.
// Variants: decideDescending (family plain, desc true); decideAscending (family plain, desc false).
import type { FrameState } from '../core/frameState.js';

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
  const code = st.code, filter = st.filter, useHold = h > 0 || minFrames > 0 || st.anyBands;
  const bands = st.bands, banded = st.banded;
  let changedCount = st.changedCount, totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0;

  for (let i = start; i < end; i++) {
    const fl = flags[i];
    if (fl & 2) continue;
    const p = profileIds[i];
    if (filter && metricCode[p] !== code) continue;
    const old = levels[i];
    const s = work[i];
    if (fl & 1 || s === -1) { // hidden or culled: written here, so no NaN meets the doubles below
      out[i] = 255; blend[i] = 0; sizes[i] = Number.NaN; hidden++;
      if (track) {
        if (old !== 255) { changed[changedCount++] = i; lastChange[i] = frame; }
      } else {
        fixed[i] = 2;
      }
      continue;
    }
    if (s !== s) { // invalid sphere: coarsest allowed level
      const safe = hiA[p];
      out[i] = safe; blend[i] = 0; sizes[i] = Number.NaN; invalid++;
      levelCounts[safe]++;
      totalCost += costs[p * stride + safe];
      minimumCost += costs[p * stride + safe];
      if (track) {
        if (safe !== old) { changed[changedCount++] = i; lastChange[i] = frame; }
      } else {
        fixed[i] = 1;
      }
      continue;
    }
    let level: number, frac = 0, used: number, mark = 0;
    {
      const v = s * bias;
      used = v;
      const fo = forced[i];
      if (fo !== 255) {
        level = fo < lc[p] ? fo : lc[p] - 1; mark = 1;
      } else {
        const off = p * stride, n = tc[p], nb = bc[p], lo = loA[p], hi = hiA[p];
        // OpenUSD's rule, inlined (reference: computeLodDescending in heuristics/lodIndex.ts).
        const sizeF = Math.fround(v);
        // Branch-free scans: thresholds (and blend thresholds) are sorted, so "first index that is
        // finer than t[j]" is the number of j it is not finer than; counting avoids a mispredicted loop exit.
        let lod = 0;
        for (let j = 0; j < n; j++) lod += +!(sizeF > t[off + j]);
        let f = lod;
        if (nb !== 0) {
          let bi = 0;
          for (let j = 0; j < nb; j++) bi += +!(sizeF > b[off + j]);
          if (bi > lod) bi = lod;
          if (bi < lod - 1) bi = lod - 1;
          if (bi !== lod && bi < nb) {
            const a = t[off + bi];
            let e = b[off + bi];
            if (lod < n && t[off + lod] > e) e = t[off + lod];
            if (a >= v && v > e) f = Math.fround(bi + Math.fround((v - a) / Math.fround(e - a)));
          }
        }
        if (f < lo) f = lo; else if (f > hi) f = hi;
        level = Math.floor(f + 0.5);
        frac = f - Math.floor(f);
        if (useHold && level !== old && old >= lo && old <= hi) {
          const prev = sizes[i];
          if (prev === prev) {
            let hold = minFrames > 0 && frame - lastChange[i] < minFrames;
            // The band: the frame's, or the profile's own for the boundary `old` would leave across
            // (`old` toward coarser, `old − 1` toward finer; profiles.ts `hysteresis`).
            const hb = banded[p] === 0 ? h : bands[off + (level > old ? old : old - 1)];
            // The rule at up to three values, inlined (a call would box the doubles): k = 0 → v·(1+hb),
            // k = 1 → v·(1−hb) (hold when the previous level lies between the two), k = 2 → prev.
            let la = 0, fp = 0;
            for (let k = hold ? 2 : hb > 0 ? 0 : 3; k < 3; k++) {
              const x = k === 0 ? v * (1 + hb) : k === 1 ? v * (1 - hb) : prev;
              const xF = Math.fround(x);
              let q = 0;
              while (q < n && !(xF > t[off + q])) q++;
              let g = q;
              if (nb !== 0) {
                let bj = 0;
                while (bj < nb && !(xF > b[off + bj])) bj++;
                if (bj > q) bj = q;
                if (bj < q - 1) bj = q - 1;
                if (bj !== q && bj < nb) {
                  const a2 = t[off + bj];
                  let e2 = b[off + bj];
                  if (q < n && t[off + q] > e2) e2 = t[off + q];
                  if (a2 >= x && x > e2) g = Math.fround(bj + Math.fround((x - a2) / Math.fround(e2 - a2)));
                }
              }
              if (g < lo) g = lo; else if (g > hi) g = hi;
              if (k === 0) {
                la = Math.floor(g + 0.5);
              } else if (k === 1) {
                const lb = Math.floor(g + 0.5);
                hold = la <= lb ? la <= old && old <= lb : lb <= old && old <= la;
                if (!hold) break;
              } else {
                fp = g;
              }
            }
            if (hold) {
              frac = Math.floor(fp + 0.5) === old ? fp - Math.floor(fp) : 0;
              level = old; used = prev; mark = 1;
            }
          }
        }
      }
    }
    out[i] = level;
    blend[i] = frac;
    sizes[i] = used;
    levelCounts[level]++;
    totalCost += costs[p * stride + level];
    minimumCost += costs[p * stride + (mark === 0 ? hiA[p] : level)];
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
  const code = st.code, filter = st.filter, useHold = h > 0 || minFrames > 0 || st.anyBands;
  const bands = st.bands, banded = st.banded;
  let changedCount = st.changedCount, totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0;

  for (let i = start; i < end; i++) {
    const fl = flags[i];
    if (fl & 2) continue;
    const p = profileIds[i];
    if (filter && metricCode[p] !== code) continue;
    const old = levels[i];
    const s = work[i];
    if (fl & 1 || s === Number.POSITIVE_INFINITY) { // hidden or culled: written here, so no NaN meets the doubles below
      out[i] = 255; blend[i] = 0; sizes[i] = Number.NaN; hidden++;
      if (track) {
        if (old !== 255) { changed[changedCount++] = i; lastChange[i] = frame; }
      } else {
        fixed[i] = 2;
      }
      continue;
    }
    if (s !== s) { // invalid sphere: coarsest allowed level
      const safe = hiA[p];
      out[i] = safe; blend[i] = 0; sizes[i] = Number.NaN; invalid++;
      levelCounts[safe]++;
      totalCost += costs[p * stride + safe];
      minimumCost += costs[p * stride + safe];
      if (track) {
        if (safe !== old) { changed[changedCount++] = i; lastChange[i] = frame; }
      } else {
        fixed[i] = 1;
      }
      continue;
    }
    let level: number, frac = 0, used: number, mark = 0;
    {
      const v = s / bias;
      used = v;
      const fo = forced[i];
      if (fo !== 255) {
        level = fo < lc[p] ? fo : lc[p] - 1; mark = 1;
      } else {
        const off = p * stride, n = tc[p], nb = bc[p], lo = loA[p], hi = hiA[p];
        // OpenUSD's rule, inlined (reference: computeLodAscending in heuristics/lodIndex.ts).
        // Branch-free scans: thresholds (and blend thresholds) are sorted, so "first index that is
        // finer than t[j]" is the number of j it is not finer than; counting avoids a mispredicted loop exit.
        let lod = 0;
        for (let j = 0; j < n; j++) lod += +!(v < t[off + j]);
        let f = lod;
        if (nb !== 0) {
          let bi = 0;
          for (let j = 0; j < nb; j++) bi += +!(v < b[off + j]);
          if (bi > lod) bi = lod;
          if (bi < lod - 1) bi = lod - 1;
          if (bi !== lod && bi < nb) {
            const a = t[off + bi];
            let e = b[off + bi];
            if (lod < n && t[off + lod] < e) e = t[off + lod];
            if (a <= v && v < e) f = Math.fround(bi + Math.fround((v - a) / Math.fround(e - a)));
          }
        }
        if (f < lo) f = lo; else if (f > hi) f = hi;
        level = Math.floor(f + 0.5);
        frac = f - Math.floor(f);
        if (useHold && level !== old && old >= lo && old <= hi) {
          const prev = sizes[i];
          if (prev === prev) {
            let hold = minFrames > 0 && frame - lastChange[i] < minFrames;
            // The band: the frame's, or the profile's own for the boundary `old` would leave across
            // (`old` toward coarser, `old − 1` toward finer; profiles.ts `hysteresis`).
            const hb = banded[p] === 0 ? h : bands[off + (level > old ? old : old - 1)];
            // The rule at up to three values, inlined (a call would box the doubles): k = 0 → v·(1+hb),
            // k = 1 → v·(1−hb) (hold when the previous level lies between the two), k = 2 → prev.
            let la = 0, fp = 0;
            for (let k = hold ? 2 : hb > 0 ? 0 : 3; k < 3; k++) {
              const x = k === 0 ? v * (1 + hb) : k === 1 ? v * (1 - hb) : prev;
              let q = 0;
              while (q < n && !(x < t[off + q])) q++;
              let g = q;
              if (nb !== 0) {
                let bj = 0;
                while (bj < nb && !(x < b[off + bj])) bj++;
                if (bj > q) bj = q;
                if (bj < q - 1) bj = q - 1;
                if (bj !== q && bj < nb) {
                  const a2 = t[off + bj];
                  let e2 = b[off + bj];
                  if (q < n && t[off + q] < e2) e2 = t[off + q];
                  if (a2 <= x && x < e2) g = Math.fround(bj + Math.fround((x - a2) / Math.fround(e2 - a2)));
                }
              }
              if (g < lo) g = lo; else if (g > hi) g = hi;
              if (k === 0) {
                la = Math.floor(g + 0.5);
              } else if (k === 1) {
                const lb = Math.floor(g + 0.5);
                hold = la <= lb ? la <= old && old <= lb : lb <= old && old <= la;
                if (!hold) break;
              } else {
                fp = g;
              }
            }
            if (hold) {
              frac = Math.floor(fp + 0.5) === old ? fp - Math.floor(fp) : 0;
              level = old; used = prev; mark = 1;
            }
          }
        }
      }
    }
    out[i] = level;
    blend[i] = frac;
    sizes[i] = used;
    levelCounts[level]++;
    totalCost += costs[p * stride + level];
    minimumCost += costs[p * stride + (mark === 0 ? hiA[p] : level)];
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
