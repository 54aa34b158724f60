/**
 * rankQuota over the spatial clusters, incremental across frames: the quota selections run only
 * over the objects near last frame's cut distances instead of over every visible object.
 *
 * An adjustable object's rank is the number of cuts its position in the order "(eye distance, id)
 * ascending" has passed: cut `g` sits at position `C_g = min(quotas[0] + … + quotas[g], T)` among
 * the `T` adjustable objects. Each frame keeps, per cut, a window `[lo_g, hi_g]` of distances around
 * last frame's cut (ordered, disjoint). One pass over the visible clusters' objects computes each
 * distance, classifies the object (hidden / fixed / adjustable, exactly as classifyPass) and puts
 * an adjustable one into a band: below window 0, inside window 0, between windows 0 and 1, … Then
 *
 *     below_g ≤ C_g ≤ below_g + inside_g      for every window g        (the count test)
 *
 * (`below_g`: adjustable objects with distance < lo_g) proves that cut g lies inside window g: an
 * object between two windows has a known rank, and only the window's objects need a selection
 * (`selectSmallest`, the same (distance, id) order as `assignQuotaRanks`), for its first
 * `C_g − below_g`. So the ranks are exactly `assignQuotaRanks`' ranks. When the test fails (first
 * frame, a teleport, a cut that moved out of its window, many equal distances making two windows
 * meet), the frame runs the exact selection over all adjustable objects — the v0.1 algorithm — and
 * the windows are rebuilt from its cuts, wider after each miss.
 *
 * Contributor notes:
 * - The count test needs no interval arithmetic: it counts objects. A cluster wholly inside the
 *   single view whose distance interval falls into one band between windows adds its live count to
 *   that band without any per-object distance; its `sizes` values (which a later thresholds frame
 *   re-reads through its hysteresis rule) are owed and computed when observed (owedSizes.ts), and a
 *   frame whose windows missed computes their distances for the exact selection (exactRanks).
 * - A cut whose window reaches the last object (`C_g = T`, saturated) gets `hi = +1e308` and ends
 *   the window list (`active` < quotas.length): every object beyond it has a rank ≤ g + 1; the test
 *   then also needs `quotas[0 … active] ≥ T`. A cut at position 0 gets the empty window at −1e308.
 * - Finalize per cluster: a cluster of one profile whose objects are all adjustable and fell into
 *   the same band between windows has one level L; its objects are only compared with L (changes
 *   written), the histogram and cost get `live × cost(L)`. Integer costs sum exactly in any order;
 *   other costs may differ from the reference in the last bits (as for the thresholds path).
 * - Single view, cluster wholly inside the view (or culling off), no invalid object: the distance
 *   is computed inline with the kernel's own operations (distanceKernel in metricKernels.ts), no
 *   plane tests; otherwise the cluster runs the metric kernels (clusterMetric).
 * - Literals in loops: 255 hidden level / no forced level, flag bits 1 hidden, 2 removed; kinds
 *   0 adjustable, 1 fixed, 2 not drawn; 1e308 for ±∞ (see metricKernels.ts).
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { classify, clusterMetric } from './clusterPass.js';
import type { FrameState } from '../core/frameState.js';
import { VB_EYE } from '../core/layout.js';
import { assignQuotaRanksPairs, selectSmallest } from '../../policies/rankQuota.js';
import { clusterStateGetter } from '../spatial/clusterState.js';
import { oweCluster } from '../outputs/owedSizes.js';

/** Most quota groups the incremental path handles (more run the exact selection every frame). */
export const MAX_CUT_GROUPS = 100;

/** Smallest and largest relative half-width of a cut window, and the first one. */
const WIDTH_MIN = 0.004, WIDTH_MAX = 1, WIDTH_START = 0.02;

/** Per-set state of the incremental rank selection (windows carried from frame to frame) and its scratch. */
export class RankCuts {
  /** Windows of this frame, `active` of them. */
  lo: Float64Array = new Float64Array(MAX_CUT_GROUPS);
  hi: Float64Array = new Float64Array(MAX_CUT_GROUPS);
  active = 0;
  /** The quota count the windows were built for. */
  groups = -1;
  /** Last frame's cut distances, and the frame's before (the window follows their motion). */
  cut: Float64Array = new Float64Array(MAX_CUT_GROUPS);
  lastCut: Float64Array = new Float64Array(MAX_CUT_GROUPS);
  /** Per cut: a decaying maximum of its per-frame moves. */
  motion: Float64Array = new Float64Array(MAX_CUT_GROUPS);
  /** Relative half-width of the windows (doubles after a miss, shrinks slowly after hits). */
  width = 0.5;
  /** Frames that passed the count test / ran the exact selection (for tests and the bench). */
  hits = 0;
  misses = 0;
  /** Adjustable objects per band (2g: between windows, 2g + 1: inside window g). */
  counts: Uint32Array = new Uint32Array(2 * MAX_CUT_GROUPS + 2);
  offsets: Uint32Array = new Uint32Array(2 * MAX_CUT_GROUPS + 2);
  /** Per slot: kind (0 adjustable, 1 fixed, 2 not drawn) and level (fixed) or band (adjustable). */
  kindS: Uint8Array = new Uint8Array(0);
  lvS: Uint8Array = new Uint8Array(0);
  /** The window objects' ids and windows, in pass order. */
  winIds: Uint32Array = new Uint32Array(0);
  winTag: Uint8Array = new Uint8Array(0);
  /** The exact selection's distances, in candidate order (moved with the ids: rankQuota.ts pairs). */
  vals: Float64Array = new Float64Array(0);
  winCount = 0;
  /** Per cluster: the band-between-windows rank all its objects share, or 255. */
  uniform: Uint8Array = new Uint8Array(0);

  constructor() {
    this.width = WIDTH_START;
  }

  /** Sizes the scratch for `slots` slots and `clusters` clusters (no-op when large enough). */
  ensure(slots: number, clusters: number): void {
    if (this.kindS.length < slots) {
      this.kindS = new Uint8Array(slots); this.lvS = new Uint8Array(slots);
      this.winIds = new Uint32Array(slots); this.winTag = new Uint8Array(slots); this.vals = new Float64Array(slots);
    }
    if (this.uniform.length < clusters) this.uniform = new Uint8Array(clusters);
  }
}

/** The {@link RankCuts} of a set's cluster index (created on its first rankQuota frame). */
export const rankCutsOf: (ci: ClusterIndex) => RankCuts = clusterStateGetter(() => new RankCuts());

/**
 * Pass A over clusters `[from, to)`: culled clusters (culling on) to `ci.culledList`; for the
 * others distances, classification, `sizes`, blend cleared, minimum cost and hidden/invalid
 * counts; adjustable objects into bands (window objects' distances into `st.work`, their ids to
 * `rc.winIds`). Visible clusters go to `ci.visibleClusters`.
 */
export function rankFeedChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, rc: RankCuts, from: number, to: number): void {
  const live = ci.live, bounds = ci.bounds, culledList = ci.culledList, flagsS = ci.flagsS, forcedS = ci.forcedS;
  const levelsS = ci.levelsS, blendS = ci.blendS, slotId = ci.slotId, sp = ci.sp, profS = ci.profS, workS = ci.workS;
  const state = ci.state, profile = ci.profile, forcedCount = ci.forcedCount, startA = ci.start, endA = ci.end, clusters = ci.visibleClusters;
  const bySlot = ci.sizesInSlots, sizes = bySlot ? ci.sizesS : st.sizes; // (clusters.ts `sizesS`)
  const blend = st.blend, work = st.work, lastChange = st.lastChange;
  const lc = st.levelCount, loA = st.lo, hiA = st.hi, costs = st.costs, stride = st.stride;
  const minFrames = st.minFrames, frame = st.frame;
  const kindS = rc.kindS, lvS = rc.lvS, winIds = rc.winIds, winTag = rc.winTag, counts = rc.counts, uniform = rc.uniform;
  const wlo = rc.lo, whi = rc.hi, active = rc.active;
  const block = cv.block, klass = cv.klass, singleView = cv.count === 1, cull = cv.cull;
  const ex = block[VB_EYE], ey = block[VB_EYE + 1], ez = block[VB_EYE + 2], eyeMagnitude = cv.eyeMagnitude;
  let q = ci.culledCount, vc = ci.visibleClusterCount, w = rc.winCount;
  const owed = ci.owed;
  let hidden = 0, invalid = 0, minimumCost = 0, evaluated = 0, skipped = 0;
  for (let c = from; c < to; c++) {
    if (live[c] === 0) continue;
    const R = bounds[c * 6 + 3];
    let inline = false;
    if (R === R) {
      if (cull) {
        if (classify(ci, cv, c) === 1) { culledList[q++] = c; continue; }
        inline = singleView && klass[0] === 2;
      } else {
        inline = singleView;
      }
    }
    state[c] = 254; // levels written by a policy: the thresholds path re-evaluates the cluster
    clusters[vc++] = c;
    ci.markSizes(c);
    const p0 = profile[c];
    if (inline && minFrames === 0 && forcedCount[c] === 0 && p0 !== 0xffff) {
      // The cluster's distance interval (clusterInterval's bounds, widened the same way): when both
      // ends fall into one band between windows, so does every object (the band is monotone in d).
      const o = c * 6, cx = bounds[o], cy = bounds[o + 1], cz = bounds[o + 2];
      const dx = cx - ex, dy = cy - ey, dz = cz - ez;
      const D = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const abs = 1e-9 * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + R + eyeMagnitude);
      let l = D - R; if (l < 0) l = 0;
      let h = D + R - 2 * bounds[o + 4]; if (h < 0) h = 0;
      l = l - 1e-6 * l - abs; h = h + 1e-6 * h + abs;
      let bl = 0, bh = 0;
      for (let g = 0; g < active; g++) {
        if (l < wlo[g]) break;
        if (l <= whi[g]) { bl = 2 * g + 1; break; }
        bl = 2 * g + 2;
      }
      for (let g = 0; g < active; g++) {
        if (h < wlo[g]) break;
        if (h <= whi[g]) { bh = 2 * g + 1; break; }
        bh = 2 * g + 2;
      }
      if (bl === bh && (bl & 1) === 0 && h < 1e300) {
        // Every object's distance lies in [l, h] (finite): its band is known without it. Its
        // `sizes` value is owed (owedSizes.ts), computed with the same operations when observed.
        let n = 0, clean = 1;
        for (let s = startA[c], e = endA[c]; s < e; s++) {
          const fl = flagsS[s];
          if (fl & 2) continue;
          if (fl & 1) { clean = 0; break; }
          if (blendS[s] !== 0) { blendS[s] = 0; blend[slotId[s]] = 0; }
          n++;
        }
        if (clean === 1) {
          oweCluster(owed, c);
          counts[bl] += n; skipped++;
          minimumCost += n * costs[p0 * stride + hiA[p0]];
          uniform[c] = bl >> 1;
          continue;
        }
      }
    }
    if (!inline) clusterMetric(st, ci, cv, c, 0, false);
    let uni = -2; // band shared by every object so far (−2 none yet, −1 none)
    for (let s = startA[c], e = endA[c]; s < e; s++) {
      const fl = flagsS[s];
      if (fl & 2) continue;
      evaluated++;
      const id = slotId[s];
      let d: number;
      if (inline) {
        const o = s << 2;
        const dx = sp[o] - ex, dy = sp[o + 1] - ey, dz = sp[o + 2] - ez;
        const t = Math.sqrt(dx * dx + dy * dy + dz * dz) - sp[o + 3];
        d = t > 0 ? t : 0;
        workS[s] = d;
      } else {
        d = workS[s];
      }
      if (blendS[s] !== 0) { blendS[s] = 0; blend[id] = 0; }
      if ((fl & 1) !== 0 || d === Number.POSITIVE_INFINITY) {
        kindS[s] = 2; hidden++; sizes[bySlot ? s : id] = Number.NaN; uni = -1;
        continue;
      }
      const p = profS[s];
      if (d !== d) {
        const level = hiA[p];
        kindS[s] = 1; lvS[s] = level; invalid++; minimumCost += costs[p * stride + level];
        sizes[bySlot ? s : id] = d; uni = -1;
        continue;
      }
      const fo = forcedS[s];
      if (fo !== 255) {
        const level = fo < lc[p] ? fo : lc[p] - 1;
        kindS[s] = 1; lvS[s] = level; minimumCost += costs[p * stride + level];
        sizes[bySlot ? s : id] = d; uni = -1;
        continue;
      }
      if (minFrames > 0) {
        const old = levelsS[s];
        const prev = sizes[bySlot ? s : id];
        if (old !== 255 && old >= loA[p] && old <= hiA[p] && prev === prev && frame - lastChange[id] < minFrames) {
          kindS[s] = 1; lvS[s] = old; minimumCost += costs[p * stride + old];
          sizes[bySlot ? s : id] = d; uni = -1;
          continue;
        }
      }
      minimumCost += costs[p * stride + hiA[p]];
      sizes[bySlot ? s : id] = d;
      let b = 0;
      for (let g = 0; g < active; g++) {
        if (d < wlo[g]) break;
        if (d <= whi[g]) { b = 2 * g + 1; break; }
        b = 2 * g + 2;
      }
      kindS[s] = 0; lvS[s] = b; counts[b]++;
      if (b & 1) { work[id] = d; winIds[w] = id; winTag[w++] = b >> 1; }
      uni = uni === -2 || uni === b ? b : -1;
    }
    uniform[c] = uni >= 0 && (uni & 1) === 0 && profile[c] !== 0xffff ? uni >> 1 : 255;
  }
  ci.culledCount = q; ci.visibleClusterCount = vc; rc.winCount = w;
  st.hidden += hidden; st.invalid += invalid; st.minimumCost += minimumCost; st.objectsEvaluated += evaluated;
  st.clustersSkipped += skipped;
}

/**
 * The count test of the module comment, then the window selections into `st.ranks` (valid: true)
 * or, when it fails, the exact selection over every adjustable object. Rebuilds the windows for
 * the next frame. Returns 1 when the windows held.
 */
export function resolveRanks(st: FrameState, ci: ClusterIndex, rc: RankCuts, quotas: ArrayLike<number>): number {
  const groups = quotas.length, counts = rc.counts, active = rc.active, bands = 2 * active + 1;
  let total = 0;
  for (let b = 0; b < bands; b++) total += counts[b];
  // The count test.
  let ok = rc.groups === groups ? 1 : 0, below = 0, quota = 0;
  for (let g = 0; g < active && ok === 1; g++) {
    below += counts[2 * g];
    quota += quotas[g];
    const cutPos = quota < total ? quota : total;
    if (below > cutPos || cutPos > below + counts[2 * g + 1]) ok = 0;
    below += counts[2 * g + 1];
  }
  if (ok === 1 && active < groups && quota + quotas[active] < total) ok = 0;
  const cand = st.candidates, work = st.work, ranks = st.ranks, cut = rc.cut, lastCut = rc.lastCut;
  if (ok === 1) {
    // Window objects grouped by window (counting sort by tag), each window selected.
    const offsets = rc.offsets, winIds = rc.winIds, winTag = rc.winTag;
    let off = 0;
    for (let g = 0; g < active; g++) { offsets[g] = off; off += counts[2 * g + 1]; }
    for (let k = 0; k < rc.winCount; k++) cand[offsets[winTag[k]]++] = winIds[k];
    off = 0; below = 0; quota = 0;
    for (let g = 0; g < active; g++) {
      below += counts[2 * g];
      quota += quotas[g];
      const cutPos = quota < total ? quota : total;
      const m = counts[2 * g + 1], k = cutPos - below;
      lastCut[g] = cut[g];
      if (m > 0) {
        selectSmallest(work, cand, off, off + m, k);
        let a = -1e308, z = 1e308;
        for (let j = off; j < off + k; j++) { const id = cand[j]; ranks[id] = g; if (work[id] > a) a = work[id]; }
        for (let j = off + k; j < off + m; j++) { const id = cand[j]; ranks[id] = g + 1; if (work[id] < z) z = work[id]; }
        cut[g] = k === 0 ? z : k === m ? a : (a + z) * 0.5;
      }
      below += m; off += m;
    }
    rc.hits++;
    rc.width = rc.width * 0.9 > WIDTH_MIN ? rc.width * 0.9 : WIDTH_MIN;
  } else {
    exactRanks(st, ci, rc, quotas, total);
    rc.misses++;
    const wider = rc.width * 2;
    rc.width = wider < WIDTH_MAX ? wider : WIDTH_MAX;
  }
  buildWindows(rc, quotas, total, ok === 1);
  rc.groups = groups;
  return ok;
}

/** The v0.1 selection over every adjustable visible object; records the cut distances in `rc.cut`. */
function exactRanks(st: FrameState, ci: ClusterIndex, rc: RankCuts, quotas: ArrayLike<number>, total: number): void {
  const clusters = ci.visibleClusters, startA = ci.start, endA = ci.end, flagsS = ci.flagsS, slotId = ci.slotId, workS = ci.workS;
  const kindS = rc.kindS, lvS = rc.lvS, uniform = rc.uniform, cand = st.candidates, vals = rc.vals, sp = ci.sp;
  const flag = ci.owed.flag, eye = ci.owed.params, ex = eye[0], ey = eye[1], ez = eye[2]; // (clusteredRankQuota: this frame's eye)
  let m = 0;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k];
    const all = uniform[c] !== 255; // one band: every live object is adjustable (no kinds written by the fast path)
    const owed = flag[c] !== 0; // the fast path's cluster: no distances computed either
    uniform[c] = 255;
    for (let s = startA[c], e = endA[c]; s < e; s++) {
      if ((flagsS[s] & 2) !== 0) continue;
      if (all) kindS[s] = 0;
      else if (kindS[s] !== 0) continue;
      if (owed) {
        const q4 = s << 2; // rankFeedChunk's inline distance
        const qx = sp[q4] - ex, qy = sp[q4 + 1] - ey, qz = sp[q4 + 2] - ez;
        const t = Math.sqrt(qx * qx + qy * qy + qz * qz) - sp[q4 + 3];
        workS[s] = t > 0 ? t : 0;
      }
      const id = slotId[s];
      vals[m] = workS[s]; cand[m++] = id; lvS[s] = 1; // odd band: the rank is in st.ranks
    }
  }
  assignQuotaRanksPairs(vals, cand, 0, m, quotas, st.ranks);
  // Cut g lies between the farthest object before position C_g and the closest one from it on.
  const groups = quotas.length, cut = rc.cut, lastCut = rc.lastCut;
  let pos = 0;
  for (let g = 0; g < groups && g < MAX_CUT_GROUPS; g++) {
    let next = pos + quotas[g];
    if (next > total) next = total;
    let a = -1e308, z = 1e308;
    for (let j = pos; j < next; j++) { const v = vals[j]; if (v > a) a = v; }
    if (a === -1e308 && g > 0) a = cut[g - 1]; // empty group: the previous cut
    let end = next;
    for (let h = g + 1; h < groups && end === next; h++) { end = next + quotas[h]; if (end > total) end = total; }
    if (end === next) end = total;
    for (let j = next; j < end; j++) { const v = vals[j]; if (v < z) z = v; }
    lastCut[g] = rc.groups === groups ? cut[g] : Number.NaN;
    cut[g] = z === 1e308 ? a : a === -1e308 ? z : (a + z) * 0.5;
    pos = next;
  }
}

/**
 * Next frame's windows around this frame's cuts (see the module comment); `active` 0 when they
 * would meet. Half-width: the largest of `width × |cut|`, 3 × the cut's recent motion (a decaying
 * maximum of its per-frame moves) and, after a frame whose windows held, the half-width that
 * would have held about 48 objects at this frame's density (sparse objects near the eye make the
 * cut jump by their spacing).
 */
function buildWindows(rc: RankCuts, quotas: ArrayLike<number>, total: number, held: boolean): void {
  const groups = quotas.length, lo = rc.lo, hi = rc.hi, cut = rc.cut, lastCut = rc.lastCut, width = rc.width;
  const motion = rc.motion, counts = rc.counts, oldActive = rc.active;
  let active = 0, quota = 0;
  for (let g = 0; g < groups && g < MAX_CUT_GROUPS; g++) {
    quota += quotas[g];
    const x = cut[g];
    let dense = 0;
    if (held && g < oldActive && lo[g] > -1e308 && hi[g] < 1e308) {
      const half = (hi[g] - lo[g]) * 0.5, m = counts[2 * g + 1];
      dense = m > 12 ? (half * 48) / m : half * 4;
    }
    const step = Math.abs(x - lastCut[g]);
    const decayed = motion[g] * 0.85;
    motion[g] = step === step && step < 1e300 ? (step > decayed ? step : decayed) : 0;
    active = g + 1;
    if (quota === 0) { lo[g] = -1e308; hi[g] = -1e308; continue; } // cut at position 0
    let delta = width * Math.abs(x);
    if (3 * motion[g] > delta) delta = 3 * motion[g];
    if (dense > delta) delta = dense;
    delta += 1e-9;
    lo[g] = x - delta; hi[g] = x + delta;
    if (quota >= total) { hi[g] = 1e308; break; } // saturated: every later object is in the window
  }
  if (groups > MAX_CUT_GROUPS) active = 0;
  // Disjoint and ordered: split meeting windows at the middle of their cuts; equal cuts: no windows.
  for (let g = 1; g < active; g++) {
    if (hi[g - 1] === -1e308 || lo[g] > hi[g - 1]) continue;
    const a = cut[g - 1], z = cut[g];
    if (!(z > a) || lo[g - 1] === -1e308) { active = 0; break; }
    const mid = (a + z) * 0.5;
    if (!(mid > a && mid < z)) { active = 0; break; }
    hi[g - 1] = mid;
    lo[g] = mid + (z - mid) * 1e-9;
    if (!(lo[g] > mid)) { active = 0; break; }
  }
  rc.active = active;
}

/**
 * Pass B: levels from kinds, bands and ranks over the visible clusters (`levelsS` kept in step),
 * the changed list (reset first), the level histogram and the total cost.
 */
export function rankFinalize(st: FrameState, ci: ClusterIndex, rc: RankCuts, groups: number): void {
  const clusters = ci.visibleClusters, startA = ci.start, endA = ci.end, flagsS = ci.flagsS, slotId = ci.slotId;
  const levelsS = ci.levelsS, profS = ci.profS, profile = ci.profile, live = ci.live;
  const kindS = rc.kindS, lvS = rc.lvS, uniform = rc.uniform;
  const levels = st.levels, changed = st.changed, lastChange = st.lastChange, ranks = st.ranks;
  const costs = st.costs, stride = st.stride, levelCounts = st.levelCounts, loA = st.lo, hiA = st.hi;
  const frame = st.frame;
  let changedCount = 0, totalCost = 0;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k], a = startA[c], e = endA[c], u = uniform[c];
    if (u !== 255) {
      const p = profile[c];
      let level = u;
      if (level < loA[p]) level = loA[p];
      if (level >= groups || level > hiA[p]) level = hiA[p];
      for (let s = a; s < e; s++) {
        if ((flagsS[s] & 2) !== 0 || levelsS[s] === level) continue;
        const id = slotId[s];
        changed[changedCount++] = id; lastChange[id] = frame; levels[id] = level; levelsS[s] = level;
      }
      levelCounts[level] += live[c];
      totalCost += live[c] * costs[p * stride + level];
      continue;
    }
    for (let s = a; s < e; s++) {
      if (flagsS[s] & 2) continue;
      const kind = kindS[s];
      let level = 255;
      if (kind === 1) level = lvS[s];
      else if (kind === 0) {
        const b = lvS[s], p = profS[s];
        level = (b & 1) !== 0 ? ranks[slotId[s]] : b >> 1;
        if (level < loA[p]) level = loA[p];
        if (level >= groups || level > hiA[p]) level = hiA[p];
      }
      if (level !== levelsS[s]) {
        const id = slotId[s];
        changed[changedCount++] = id; lastChange[id] = frame; levels[id] = level; levelsS[s] = level;
      }
      if (level !== 255) {
        levelCounts[level]++;
        totalCost += costs[profS[s] * stride + level];
      }
    }
  }
  st.changedCount = changedCount;
  st.totalCost = totalCost;
}
