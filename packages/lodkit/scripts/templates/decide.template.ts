// (This header, up to the first `//@` line, is the template's own note; it is not emitted.)
// The threshold decision rule, written once: metric value → bias → OpenUSD fractional LOD (level
// scan + blend window) → min/max clamp → hysteresis / minFramesBetweenChanges hold → level, blend,
// size, stats. scripts/generate.mjs expands this template into one plain monomorphic function per
// variant (src/batch/kernels/*.generated.ts; the variants and their families are listed there):
//
//   family 'plain'  — thresholdKernels: id-ordered state, `out` + `track` (changes or marks).
//   family 'mapped' — mappedKernels: slot-ordered copies (clusters.ts), always tracking, cluster state.
//   family 'single' — singleKernels: 'mapped' with one hoisted profile of ≤ 4 (blend) thresholds.
//   family 'next'   — nextKernels: hybrid's first pass, `next`/`fixed` by slot, optional slot list.
//
// Template language (see scripts/generate.mjs): `//@if EXPR`, `//@elif EXPR`, `//@else`, `//@endif`
// on their own lines keep or drop lines (EXPR: JavaScript over the variant's fields: family, desc,
// name, ...); `{{= EXPR}}` inserts a value; `{{A | B}}` is A for descending (screen) metrics and B
// for ascending (distance) ones. Inside the loop, flags, marks and sentinels stay literals (1
// hidden, 2 removed, 255 hidden level / no forced level; marks 0 adjustable, 1 fixed, 2 not drawn):
// an imported constant merging with computed doubles makes TurboFan box values (allocation).
// The readable reference of the index rule is src/heuristics/lodIndex.ts (computeLodDescending /
// computeLodAscending); test/batch/generatedKernels.test.ts checks every variant against it.
//@if family === 'plain' && desc

/**
 * Decides objects `[start, end)` whose values are in `st.work` (screen metrics, larger = finer).
 * Writes `out` (the set's `levels`, or `next` for hybrid), `blend`, `sizes`; when `track` is true it
 * appends changed ids and stamps `lastChange`, otherwise it fills `st.fixed` for the budget pass.
 */
//@elif family === 'plain'

/** As {@link decideDescending} for distance values (smaller = finer; culled = `+∞`; bias divides). */
//@elif family === 'mapped' && desc

/**
 * Decides slots `[start, end)` of the clustered path (screen metrics): reads the metric from
 * `ci.workS` and the state from the slot-ordered copies, writes `levels`/`blend` by id only where
 * they change, `sizes` (by slot when `ci.sizesInSlots`), the changed ids and the cluster state
 * (`st.uMin`, `st.uMax`, `st.uFrac`).
 */
//@elif family === 'mapped'

/** As {@link decideDescendingMapped} for distance values. */
//@elif family === 'single'

/** Decides slots `[start, end)` of a cluster whose objects all have profile `p` (descending metric). */
//@elif family === 'next' && desc

/**
 * The thresholds decision with `track = false` for slots `[start, end)`, or, with `list`, for
 * slots `base + list[start … end)` (the fused kernel's left-over slots, fusedPass.ts).
 */
//@elif family === 'next'

/** As {@link decideDescendingNext} for distance values. */
//@endif
//@if family === 'plain'
export function {{= name}}(st: FrameState, start: number, end: number, out: Uint8Array, track: boolean): void {
  const work = st.work, flags = st.flags, profileIds = st.profileIds, forced = st.forced;
  const levels = st.levels, blend = st.blend, sizes = st.sizes, lastChange = st.lastChange;
  const changed = st.changed, fixed = st.fixed, levelCounts = st.levelCounts;
//@elif family === 'next'
export function {{= name}}(st: FrameState, ci: ClusterIndex, start: number, end: number, list: Int32Array = NO_LIST, base = 0): void {
  const map = ci.slotId, work = ci.workS, blendS = ci.blendS, out = st.next, flags = st.flags, profileIds = st.profileIds, forced = st.forced;
  const levels = st.levels, blend = st.blend, lastChange = st.lastChange;
  const bySlot = ci.sizesInSlots, sizes = bySlot ? ci.sizesS : st.sizes; // (clusters.ts `sizesS`)
  const fixed = st.fixed, levelCounts = st.levelCounts;
//@elif family === 'single'
export function {{= name}}(st: FrameState, ci: ClusterIndex, start: number, end: number, p: number): void {
  const map = ci.slotId, work = ci.workS, flags = ci.flagsS, forced = ci.forcedS, levelsS = ci.levelsS, blendS = ci.blendS;
//@else
export function {{= name}}(st: FrameState, ci: ClusterIndex, start: number, end: number): void {
  const map = ci.slotId, work = ci.workS, flags = ci.flagsS, profileIds = ci.profS, forced = ci.forcedS, levelsS = ci.levelsS, blendS = ci.blendS;
//@endif
//@if family === 'mapped' || family === 'single'
  const levels = st.levels, blend = st.blend, lastChange = st.lastChange;
  // sizes by slot or by id (clusters.ts `sizesS`; the worker threads' index has no `sizesInSlots`)
  const bySlot = ci.sizesInSlots === true, sizes = bySlot ? ci.sizesS : st.sizes;
  const changed = st.changed, levelCounts = st.levelCounts;
//@endif
  const t = st.thresholds, b = st.blendThresholds, tc = st.thresholdCount, bc = st.blendCount;
//@if family === 'single'
  const lc = st.levelCount, costs = st.costs, loA = st.lo, hiA = st.hi;
  const stride = st.stride, bias = st.bias, h = st.hysteresis, minFrames = st.minFrames, frame = st.frame;
  const bands = st.bands, banded = st.banded, useHold = h > 0 || minFrames > 0 || st.anyBands;
  let changedCount = st.changedCount, totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0, free = 0;
  // The profile, hoisted: at most 4 thresholds and 4 blend thresholds, padded with −∞ (never counted).
  const off = p * stride, n = tc[p], nb = bc[p], lo = loA[p], hi = hiA[p], lcp = lc[p];
  const tp = st.thresholds4, bp = st.blendThresholds4, q4 = p * 4, counts = st.countScratch;
  const T0 = tp[q4], T1 = tp[q4 + 1], T2 = tp[q4 + 2], T3 = tp[q4 + 3];
  const B0 = bp[q4], B1 = bp[q4 + 1], B2 = bp[q4 + 2], B3 = bp[q4 + 3];
//@else
  const lc = st.levelCount, metricCode = st.metricCode, costs = st.costs, loA = st.lo, hiA = st.hi;
  const stride = st.stride, bias = st.bias, h = st.hysteresis, minFrames = st.minFrames, frame = st.frame;
  const code = st.code, filter = st.filter, useHold = h > 0 || minFrames > 0 || st.anyBands;
  const bands = st.bands, banded = st.banded;
//@endif
//@if family === 'plain' || family === 'mapped'
  let changedCount = st.changedCount, totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0;
//@elif family === 'next'
  let totalCost = 0, minimumCost = 0, invalid = 0, hidden = 0;
//@endif

//@if family === 'plain'
  for (let i = start; i < end; i++) {
    const fl = flags[i];
    if (fl & 2) continue;
    const p = profileIds[i];
    if (filter && metricCode[p] !== code) continue;
    const old = levels[i];
    const s = work[i];
//@elif family === 'next'
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
//@else
  let uMin = st.uMin, uMax = st.uMax, uFrac = st.uFrac;
  for (let k = start; k < end; k++) {
    const fl = flags[k];
    if (fl & 2) continue;
//@if family === 'mapped'
    const p = profileIds[k];
    if (filter && metricCode[p] !== code) continue;
//@endif
    const i = map[k], z = bySlot ? k : i; // (z: the index into sizes)
    const old = levelsS[k];
    const s = work[k];
//@endif
    if (fl & 1 || s === {{-1 | Number.POSITIVE_INFINITY}}) { // hidden or culled: written here, so no NaN meets the doubles below
//@if family === 'plain'
      out[i] = 255; blend[i] = 0; sizes[i] = Number.NaN; hidden++;
      if (track) {
        if (old !== 255) { changed[changedCount++] = i; lastChange[i] = frame; }
      } else {
        fixed[i] = 2;
      }
//@elif family === 'next'
      out[k] = 255; blend[i] = 0; sizes[z] = Number.NaN; hidden++;
      fixed[k] = 2; blendS[k] = 0;
//@else
      sizes[z] = Number.NaN; hidden++;
      if (blendS[k] !== 0) { blendS[k] = 0; blend[i] = 0; }
      if (old !== 255) { levelsS[k] = 255; levels[i] = 255; changed[changedCount++] = i; lastChange[i] = frame; }
      if (uMin > 255) uMin = 255; uMax = 255;
//@endif
      continue;
    }
    if (s !== s) { // invalid sphere: coarsest allowed level
//@if family === 'plain'
      const safe = hiA[p];
      out[i] = safe; blend[i] = 0; sizes[i] = Number.NaN; invalid++;
//@elif family === 'next'
      const safe = hiA[p];
      out[k] = safe; blend[i] = 0; sizes[z] = Number.NaN; invalid++;
//@elif family === 'mapped'
      const safe = hiA[p];
      sizes[z] = Number.NaN; invalid++;
      if (blendS[k] !== 0) { blendS[k] = 0; blend[i] = 0; }
//@else
      const safe = hi;
      sizes[z] = Number.NaN; invalid++;
      if (blendS[k] !== 0) { blendS[k] = 0; blend[i] = 0; }
//@endif
//@if family === 'single'
      counts[safe]++;
      minimumCost += costs[off + safe];
//@else
      levelCounts[safe]++;
      totalCost += costs[p * stride + safe];
      minimumCost += costs[p * stride + safe];
//@endif
//@if family === 'plain'
      if (track) {
        if (safe !== old) { changed[changedCount++] = i; lastChange[i] = frame; }
      } else {
        fixed[i] = 1;
      }
//@elif family === 'next'
      fixed[k] = 1; blendS[k] = 0;
//@else
      if (safe !== old) { levelsS[k] = safe; levels[i] = safe; changed[changedCount++] = i; lastChange[i] = frame; }
      if (safe < uMin) uMin = safe; if (safe > uMax) uMax = safe;
//@endif
      continue;
    }
    let level: number, frac = 0, used: number, mark = 0;
    {
      const v = s {{* | /}} bias;
      used = v;
//@if family === 'single'
      const fo = forced[k];
      if (fo !== 255) {
        level = fo < lcp ? fo : lcp - 1; mark = 1;
      } else {
//@else
      const fo = forced[{{= family === 'mapped' ? 'k' : 'i'}}];
      if (fo !== 255) {
        level = fo < lc[p] ? fo : lc[p] - 1; mark = 1;
      } else {
        const off = p * stride, n = tc[p], nb = bc[p], lo = loA[p], hi = hiA[p];
//@endif
        // OpenUSD's rule, inlined (reference: computeLod{{Descending | Ascending}} in heuristics/lodIndex.ts).
//@if desc
        const sizeF = Math.fround(v);
//@endif
        // Branch-free scans: thresholds (and blend thresholds) are sorted, so "first index that is
        // finer than t[j]" is the number of j it is not finer than; counting avoids a mispredicted loop exit.
//@if family === 'single'
        const lod = +!(sizeF > T0) + +!(sizeF > T1) + +!(sizeF > T2) + +!(sizeF > T3);
//@else
        let lod = 0;
        for (let j = 0; j < n; j++) lod += +!({{sizeF > | v <}} t[off + j]);
//@endif
        let f = lod;
        if (nb !== 0) {
//@if family === 'single'
          let bi = +!(sizeF > B0) + +!(sizeF > B1) + +!(sizeF > B2) + +!(sizeF > B3);
//@else
          let bi = 0;
          for (let j = 0; j < nb; j++) bi += +!({{sizeF > | v <}} b[off + j]);
//@endif
          if (bi > lod) bi = lod;
          if (bi < lod - 1) bi = lod - 1;
          if (bi !== lod && bi < nb) {
            const a = t[off + bi];
            let e = b[off + bi];
            if (lod < n && t[off + lod] {{> | <}} e) e = t[off + lod];
            if ({{a >= v && v > e | a <= v && v < e}}) f = Math.fround(bi + Math.fround((v - a) / Math.fround(e - a)));
          }
        }
//@if family === 'mapped' || family === 'single'
        uFrac |= +(f !== lod); // in a blend window before clamping: no uniform state (see clusterPass.ts)
//@endif
        if (f < lo) f = lo; else if (f > hi) f = hi;
        level = Math.floor(f + 0.5);
        frac = f - Math.floor(f);
        if (useHold && level !== old && old >= lo && old <= hi) {
          const prev = sizes[{{= family === 'plain' ? 'i' : 'z'}}];
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
//@if desc
              const xF = Math.fround(x);
//@endif
              let q = 0;
              while (q < n && !({{xF > | x <}} t[off + q])) q++;
              let g = q;
              if (nb !== 0) {
                let bj = 0;
                while (bj < nb && !({{xF > | x <}} b[off + bj])) bj++;
                if (bj > q) bj = q;
                if (bj < q - 1) bj = q - 1;
                if (bj !== q && bj < nb) {
                  const a2 = t[off + bj];
                  let e2 = b[off + bj];
                  if (q < n && t[off + q] {{> | <}} e2) e2 = t[off + q];
                  if ({{a2 >= x && x > e2 | a2 <= x && x < e2}}) g = Math.fround(bj + Math.fround((x - a2) / Math.fround(e2 - a2)));
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
//@if family === 'mapped' || family === 'single'
              level = old; used = prev; mark = 1; uFrac = 1; // held: its size is not a free decision
//@else
              level = old; used = prev; mark = 1;
//@endif
            }
          }
        }
      }
    }
//@if family === 'plain'
    out[i] = level;
    blend[i] = frac;
    sizes[i] = used;
//@elif family === 'next'
    out[k] = level;
    blend[i] = frac;
    sizes[z] = used;
//@else
    const fb = Math.fround(frac);
    if (blendS[k] !== fb) { blendS[k] = fb; blend[i] = fb; }
    sizes[z] = used;
//@endif
//@if family === 'single'
    counts[level]++;
    if (mark !== 0) minimumCost += costs[off + level]; else free++;
//@else
    levelCounts[level]++;
    totalCost += costs[p * stride + level];
    minimumCost += costs[p * stride + (mark === 0 ? hiA[p] : level)];
//@endif
//@if family === 'plain'
    if (track) {
      if (level !== old) { changed[changedCount++] = i; lastChange[i] = frame; }
    } else {
      fixed[i] = mark;
    }
  }
//@elif family === 'next'
    fixed[k] = mark;
    blendS[k] = frac;
  }
//@else
    if (level !== old) { levelsS[k] = level; levels[i] = level; changed[changedCount++] = i; lastChange[i] = frame; }
    if (level < uMin) uMin = level; if (level > uMax) uMax = level;
    uFrac |= +(frac !== 0);
  }
  st.uMin = uMin; st.uMax = uMax; st.uFrac = uFrac;
//@endif
//@if family === 'single'
  // Stats from the per-level counts: exact for integer costs, like the per-object sums.
  for (let l = 0; l < lcp; l++) {
    const c = counts[l];
    if (c !== 0) { levelCounts[l] += c; totalCost += c * costs[off + l]; counts[l] = 0; }
  }
  minimumCost += free * costs[off + hi];
//@endif
//@if family !== 'next'
  st.changedCount = changedCount;
//@endif
  st.totalCost += totalCost;
  st.minimumCost += minimumCost;
  st.invalid += invalid;
  st.hidden += hidden;
}
