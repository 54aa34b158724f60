// Generated from scripts/templates/decide.template.ts by scripts/generate.mjs: do not edit.
// Variants: decideDescendingSingle (family single, desc true).
import type { ClusterIndex } from '../spatial/clusters.js';
import type { FrameState } from '../core/frameState.js';

/** Decides slots `[start, end)` of a cluster whose objects all have profile `p` (descending metric). */
export function decideDescendingSingle(st: FrameState, ci: ClusterIndex, start: number, end: number, p: number): void {
  const map = ci.slotId, work = ci.workS, flags = ci.flagsS, forced = ci.forcedS, levelsS = ci.levelsS, blendS = ci.blendS;
  const levels = st.levels, blend = st.blend, lastChange = st.lastChange;
  // sizes by slot or by id (clusters.ts `sizesS`; the worker threads' index has no `sizesInSlots`)
  const bySlot = ci.sizesInSlots === true, sizes = bySlot ? ci.sizesS : st.sizes;
  const changed = st.changed, levelCounts = st.levelCounts;
  const t = st.thresholds, b = st.blendThresholds, tc = st.thresholdCount, bc = st.blendCount;
  const lc = st.levelCount, costs = st.costs, loA = st.lo, hiA = st.hi;
  const stride = st.stride, bias = st.bias, h = st.hysteresis, minFrames = st.minFrames, frame = st.frame;
  const bands = st.bands, banded = st.banded, useHold = h > 0 || minFrames > 0 || st.anyBands;
  let changedCount = st.changedCount, totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0, free = 0;
  // The profile, hoisted: at most 4 thresholds and 4 blend thresholds, padded with −∞ (never counted).
  const off = p * stride, n = tc[p], nb = bc[p], lo = loA[p], hi = hiA[p], lcp = lc[p];
  const tp = st.thresholds4, bp = st.blendThresholds4, q4 = p * 4, counts = st.countScratch;
  const T0 = tp[q4], T1 = tp[q4 + 1], T2 = tp[q4 + 2], T3 = tp[q4 + 3];
  const B0 = bp[q4], B1 = bp[q4 + 1], B2 = bp[q4 + 2], B3 = bp[q4 + 3];

  let uMin = st.uMin, uMax = st.uMax, uFrac = st.uFrac;
  for (let k = start; k < end; k++) {
    const fl = flags[k];
    if (fl & 2) continue;
    const i = map[k], z = bySlot ? k : i; // (z: the index into sizes)
    const old = levelsS[k];
    const s = work[k];
    if (fl & 1 || s === -1) { // hidden or culled: written here, so no NaN meets the doubles below
      sizes[z] = Number.NaN; hidden++;
      if (blendS[k] !== 0) { blendS[k] = 0; blend[i] = 0; }
      if (old !== 255) { levelsS[k] = 255; levels[i] = 255; changed[changedCount++] = i; lastChange[i] = frame; }
      if (uMin > 255) uMin = 255; uMax = 255;
      continue;
    }
    if (s !== s) { // invalid sphere: coarsest allowed level
      const safe = hi;
      sizes[z] = Number.NaN; invalid++;
      if (blendS[k] !== 0) { blendS[k] = 0; blend[i] = 0; }
      counts[safe]++;
      minimumCost += costs[off + safe];
      if (safe !== old) { levelsS[k] = safe; levels[i] = safe; changed[changedCount++] = i; lastChange[i] = frame; }
      if (safe < uMin) uMin = safe; if (safe > uMax) uMax = safe;
      continue;
    }
    let level: number, frac = 0, used: number, mark = 0;
    {
      const v = s * bias;
      used = v;
      const fo = forced[k];
      if (fo !== 255) {
        level = fo < lcp ? fo : lcp - 1; mark = 1;
      } else {
        // OpenUSD's rule, inlined (reference: computeLodDescending in heuristics/lodIndex.ts).
        const sizeF = Math.fround(v);
        // Branch-free scans: thresholds (and blend thresholds) are sorted, so "first index that is
        // finer than t[j]" is the number of j it is not finer than; counting avoids a mispredicted loop exit.
        const lod = +!(sizeF > T0) + +!(sizeF > T1) + +!(sizeF > T2) + +!(sizeF > T3);
        let f = lod;
        if (nb !== 0) {
          let bi = +!(sizeF > B0) + +!(sizeF > B1) + +!(sizeF > B2) + +!(sizeF > B3);
          if (bi > lod) bi = lod;
          if (bi < lod - 1) bi = lod - 1;
          if (bi !== lod && bi < nb) {
            const a = t[off + bi];
            let e = b[off + bi];
            if (lod < n && t[off + lod] > e) e = t[off + lod];
            if (a >= v && v > e) f = Math.fround(bi + Math.fround((v - a) / Math.fround(e - a)));
          }
        }
        uFrac |= +(f !== lod); // in a blend window before clamping: no uniform state (see clusterPass.ts)
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
              level = old; used = prev; mark = 1; uFrac = 1; // held: its size is not a free decision
            }
          }
        }
      }
    }
    const fb = Math.fround(frac);
    if (blendS[k] !== fb) { blendS[k] = fb; blend[i] = fb; }
    sizes[z] = used;
    counts[level]++;
    if (mark !== 0) minimumCost += costs[off + level]; else free++;
    if (level !== old) { levelsS[k] = level; levels[i] = level; changed[changedCount++] = i; lastChange[i] = frame; }
    if (level < uMin) uMin = level; if (level > uMax) uMax = level;
    uFrac |= +(frac !== 0);
  }
  st.uMin = uMin; st.uMax = uMax; st.uFrac = uFrac;
  // Stats from the per-level counts: exact for integer costs, like the per-object sums.
  for (let l = 0; l < lcp; l++) {
    const c = counts[l];
    if (c !== 0) { levelCounts[l] += c; totalCost += c * costs[off + l]; counts[l] = 0; }
  }
  minimumCost += free * costs[off + hi];
  st.changedCount = changedCount;
  st.totalCost += totalCost;
  st.minimumCost += minimumCost;
  st.invalid += invalid;
  st.hidden += hidden;
}
