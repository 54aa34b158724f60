// Generated from scripts/templates/decide.template.ts by scripts/generate.mjs: do not edit.
// Variants: decideDescendingNext (family next, desc true); decideAscendingNext (family next, desc false).
import type { ClusterIndex } from '../spatial/clusters.js';
import type { FrameState } from '../core/frameState.js';

/** No slot list: the kernels below run slots `[start, end)`. */
export const NO_LIST = new Int32Array(0);

/**
 * The thresholds decision with `track = false` for slots `[start, end)`, or, with `list`, for
 * slots `base + list[start … end)` (the fused kernel's left-over slots, fusedPass.ts).
 */
export function decideDescendingNext(st: FrameState, ci: ClusterIndex, start: number, end: number, list: Int32Array = NO_LIST, base = 0): void {
  const map = ci.slotId, work = ci.workS, blendS = ci.blendS, out = st.next, flags = st.flags, profileIds = st.profileIds, forced = st.forced;
  const levels = st.levels, blend = st.blend, lastChange = st.lastChange;
  const bySlot = ci.sizesInSlots, sizes = bySlot ? ci.sizesS : st.sizes; // (clusters.ts `sizesS`)
  const fixed = st.fixed, levelCounts = st.levelCounts;
  const t = st.thresholds, b = st.blendThresholds, tc = st.thresholdCount, bc = st.blendCount;
  const lc = st.levelCount, metricCode = st.metricCode, costs = st.costs, loA = st.lo, hiA = st.hi;
  const stride = st.stride, bias = st.bias, h = st.hysteresis, minFrames = st.minFrames, frame = st.frame;
  const code = st.code, filter = st.filter, useHold = h > 0 || minFrames > 0 || st.anyBands;
  const bands = st.bands, banded = st.banded;
  let totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0;

  const useList = list.length !== 0;
  for (let r = start; r < end; r++) {
    const k = useList ? base + list[r] : r;
    const i = map[k], z = bySlot ? k : i; // (z: the index into sizes)
    const fl = flags[i];
    if (fl & 2) continue;
    const p = profileIds[i];
    if (filter && metricCode[p] !== code) continue;
    const old = levels[i];
    const s = work[k];
    if (fl & 1 || s === -1) { // hidden or culled: written here, so no NaN meets the doubles below
      out[k] = 255; blend[i] = 0; sizes[z] = Number.NaN; hidden++;
      fixed[k] = 2; blendS[k] = 0;
      continue;
    }
    if (s !== s) { // invalid sphere: coarsest allowed level
      const safe = hiA[p];
      out[k] = safe; blend[i] = 0; sizes[z] = Number.NaN; invalid++;
      levelCounts[safe]++;
      totalCost += costs[p * stride + safe];
      minimumCost += costs[p * stride + safe];
      fixed[k] = 1; blendS[k] = 0;
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
          const prev = sizes[z];
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
    out[k] = level;
    blend[i] = frac;
    sizes[z] = used;
    levelCounts[level]++;
    totalCost += costs[p * stride + level];
    minimumCost += costs[p * stride + (mark === 0 ? hiA[p] : level)];
    fixed[k] = mark;
    blendS[k] = frac;
  }
  st.totalCost += totalCost;
  st.minimumCost += minimumCost;
  st.invalid += invalid;
  st.hidden += hidden;
}

/** As {@link decideDescendingNext} for distance values. */
export function decideAscendingNext(st: FrameState, ci: ClusterIndex, start: number, end: number, list: Int32Array = NO_LIST, base = 0): void {
  const map = ci.slotId, work = ci.workS, blendS = ci.blendS, out = st.next, flags = st.flags, profileIds = st.profileIds, forced = st.forced;
  const levels = st.levels, blend = st.blend, lastChange = st.lastChange;
  const bySlot = ci.sizesInSlots, sizes = bySlot ? ci.sizesS : st.sizes; // (clusters.ts `sizesS`)
  const fixed = st.fixed, levelCounts = st.levelCounts;
  const t = st.thresholds, b = st.blendThresholds, tc = st.thresholdCount, bc = st.blendCount;
  const lc = st.levelCount, metricCode = st.metricCode, costs = st.costs, loA = st.lo, hiA = st.hi;
  const stride = st.stride, bias = st.bias, h = st.hysteresis, minFrames = st.minFrames, frame = st.frame;
  const code = st.code, filter = st.filter, useHold = h > 0 || minFrames > 0 || st.anyBands;
  const bands = st.bands, banded = st.banded;
  let totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0;

  const useList = list.length !== 0;
  for (let r = start; r < end; r++) {
    const k = useList ? base + list[r] : r;
    const i = map[k], z = bySlot ? k : i; // (z: the index into sizes)
    const fl = flags[i];
    if (fl & 2) continue;
    const p = profileIds[i];
    if (filter && metricCode[p] !== code) continue;
    const old = levels[i];
    const s = work[k];
    if (fl & 1 || s === Number.POSITIVE_INFINITY) { // hidden or culled: written here, so no NaN meets the doubles below
      out[k] = 255; blend[i] = 0; sizes[z] = Number.NaN; hidden++;
      fixed[k] = 2; blendS[k] = 0;
      continue;
    }
    if (s !== s) { // invalid sphere: coarsest allowed level
      const safe = hiA[p];
      out[k] = safe; blend[i] = 0; sizes[z] = Number.NaN; invalid++;
      levelCounts[safe]++;
      totalCost += costs[p * stride + safe];
      minimumCost += costs[p * stride + safe];
      fixed[k] = 1; blendS[k] = 0;
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
          const prev = sizes[z];
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
    out[k] = level;
    blend[i] = frac;
    sizes[z] = used;
    levelCounts[level]++;
    totalCost += costs[p * stride + level];
    minimumCost += costs[p * stride + (mark === 0 ? hiA[p] : level)];
    fixed[k] = mark;
    blendS[k] = frac;
  }
  st.totalCost += totalCost;
  st.minimumCost += minimumCost;
  st.invalid += invalid;
  st.hidden += hidden;
}
