/**
 * The clustered thresholds pass: per cluster and frame, one of three things.
 * 1. Culled: the cluster's sphere is wholly outside some plane of every view (culling on). Its
 *    objects are hidden; when the cluster was already all hidden only the stats are added. On the
 *    calling thread clusterChunk first tests blocks of 16 clusters (spatial/blockCulling.ts) and hides a
 *    culled block's clusters the same way ({@link hideBlock}) without testing each.
 * 2. Skipped: the cluster is wholly inside every plane of at least one view, has one profile, no
 *    forced object, all its live objects are already at one level L with blend 0, and the interval
 *    of metric values its objects can have (over every view, after bias, widened for rounding)
 *    contains no threshold and no blend threshold of the profile and maps to the integer level L.
 *    Then the per-object rule would give every object L with blend 0 again: no per-object work at
 *    all; `sizes` keeps each object's value from the frame it was last evaluated (see `LodSet.sizes`).
 * 3. Otherwise the per-object kernels run over the cluster's slots: the fused WebAssembly SIMD
 *    kernel (wasm/fusedKernel.wat via fusedPass.ts: metric of every view and decision, 4 objects
 *    at a time) for a cluster of one profile with at most four thresholds and four blend
 *    thresholds; else the metric kernels of metricKernels.ts into a slot-ordered scratch, then the
 *    mapped decision kernels (also the path without WebAssembly and in worker threads).
 *
 * Contributor notes:
 * - Why the result is identical to the per-object reference: (1) a sphere inside the cluster's
 *   (grown) sphere is wholly outside a plane when the cluster is; (2) the interval bounds every
 *   object's metric value as the kernels compute it (their double rounding is far below the 1e-6
 *   widening), the rule is monotone and piecewise constant between thresholds, so no object can
 *   reach another level or a blend window; with its level unchanged no hysteresis or
 *   `minFramesBetweenChanges` rule applies, nothing enters `changed`, and the stats are the
 *   cluster's live count times the level's cost. Integer costs sum exactly in any order; other
 *   costs may differ from the reference in the last bits.
 * - A size is later re-read as `prev` by the hysteresis rule, which uses it only through the rule's
 *   value at `prev` (its blend when held). A cluster gets a uniform state only when every object was
 *   decided freely (not held) outside every blend window before clamping, so each kept size maps
 *   to an integer index under any level clamp — as the object's skipped-frame value would — and
 *   later levels and blends do not depend on which of the two `sizes` holds.
 * - Interval bounds per view (D = |centre − eye|, R the cluster radius, r ∈ [rmin, rmax]): distance
 *   `[max(D − R, 0), max(D + R − 2 rmin, 0)]`; perspective height `[2 rmin / ((D + R − rmin) wh),
 *   2 rmax / ((D − R + rmax) wh)]` (× viewport height for pixels), area `π (·)² / wa` of the same
 *   ratios; orthographic height `2 r / wh`, area `π r² / wa`. Views combine as the kernels do (max
 *   for sizes, min for distances), counting only views that surely (lower bound) or possibly (upper
 *   bound) contribute.
 * - Chunked: `LodSet` calls {@link clusterChunk} on ranges of clusters, so no single loop runs long
 *   enough in a fresh process to be on-stack-replaced (each call is a normal optimised entry), and
 *   worker threads could take cluster ranges.
 * - Large finite sentinels (±1e308) instead of ±Infinity in the interval code: see metricKernels.ts
 *   on constants meeting computed doubles in V8.
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import type { FrameState } from '../core/frameState.js';
import {
  areaOrthographicKernel, areaPerspectiveKernel, distanceKernel, heightOrthographicKernel, heightPerspectiveKernel,
} from '../kernels/metricKernels.js';
import { decideAscendingMapped, decideDescendingMapped } from '../kernels/mappedKernels.js';
import { decideDescendingSingle } from '../kernels/singleKernels.js';
import { SP_OFFSET, WASM_MAX_VIEWS } from '../wasm/wasmKernels.js';
import { fusedCluster, loadFusedProfile } from './fusedPass.js';
import { settleBlends } from '../outputs/owedBlends.js';
import type { EngineView } from '../core/updateOptions.js';
import { SCREEN_SPACE_DEFAULTS } from './screenSpacePasses.js';
import { VIEW_EYE, VIEW_SCALE, VIEW_WINDOW_MAX, VIEW_WINDOW_MIN } from '../kernels/metricKernels.js';
import { refitSupers, sphereSide, superCulled } from '../spatial/blockCulling.js';
import { SUPER_SHIFT, SUPER_SIZE } from '../spatial/blocks.js';
import { VB, type ClusterViews } from '../spatial/clusterViews.js';
import {
  VB_EYE, VB_PERSPECTIVE, VB_PIXEL_SCALE, VB_PLANES, VB_WINDOW_AREA, VB_WINDOW_HEIGHT,
  WV, WV_EYE, WV_PERSPECTIVE, WV_PIXEL_SCALE, WV_PLANES, WV_WINDOW_AREA, WV_WINDOW_HEIGHT,
} from '../core/layout.js';

/**
 * Widens the size interval `[scr[0], scr[1]]` by profile `p`'s hysteresis band (its own bands'
 * widest, else the frame's) and a relative 1e-9, and puts a float32 value inside it in `scr[2]`:
 * when the widened interval maps to one level ({@link uniformLevel}), every value and both of its
 * band's probes do, so no previous level can be held.
 */
export function widenByBand(st: FrameState, p: number, scr: Float64Array): void {
  const hp = st.banded[p] === 0 ? st.hysteresis : st.bandMax[p];
  scr[0] = scr[0] * (1 - hp) * (1 - 1e-9); scr[1] = scr[1] * (1 + hp) * (1 + 1e-9);
  scr[2] = Math.fround((scr[0] + scr[1]) * 0.5);
}

/**
 * The level every value in `[scr[0], scr[1]]` maps to under profile `p`'s rule (OpenUSD index,
 * clamped to the frame's level range) when that is the same integer for all of them and no
 * threshold or blend threshold lies inside; otherwise −1. The rule is evaluated at `scr[2]`, a
 * float32 value well inside the interval.
 */
export function uniformLevel(st: FrameState, p: number, descending: boolean, scr: Float64Array): number {
  const lo = scr[0], hi = scr[1], x = scr[2];
  const t = st.thresholds, b = st.blendThresholds, off = p * st.stride, n = st.thresholdCount[p], nb = st.blendCount[p];
  for (let j = 0; j < n; j++) { const x = t[off + j]; if (x >= lo && x <= hi) return -1; }
  for (let j = 0; j < nb; j++) { const x = b[off + j]; if (x >= lo && x <= hi) return -1; }
  // No threshold inside: every value of the unwidened interval compares alike with every threshold,
  // in float32 and double (the widening exceeds a float32 ulp on each side), so the rule at `x` is
  // the rule everywhere.
  let lod = 0, f = 0;
  if (descending) {
    const sizeF = Math.fround(x);
    for (let j = 0; j < n; j++) lod += +!(sizeF > t[off + j]);
    f = lod;
    if (nb !== 0) {
      let bi = 0;
      for (let j = 0; j < nb; j++) bi += +!(sizeF > b[off + j]);
      if (bi > lod) bi = lod;
      if (bi < lod - 1) bi = lod - 1;
      if (bi !== lod && bi < nb) {
        const a = t[off + bi];
        let e = b[off + bi];
        if (lod < n && t[off + lod] > e) e = t[off + lod];
        if (a >= x && x > e) f = -1; // inside a blend window
      }
    }
  } else {
    for (let j = 0; j < n; j++) lod += +!(x < t[off + j]);
    f = lod;
    if (nb !== 0) {
      let bi = 0;
      for (let j = 0; j < nb; j++) bi += +!(x < b[off + j]);
      if (bi > lod) bi = lod;
      if (bi < lod - 1) bi = lod - 1;
      if (bi !== lod && bi < nb) {
        const a = t[off + bi];
        let e = b[off + bi];
        if (lod < n && t[off + lod] < e) e = t[off + lod];
        if (a <= x && x < e) f = -1;
      }
    }
  }
  if (f < 0) return -1;
  const lo2 = st.lo[p], hi2 = st.hi[p];
  return f < lo2 ? lo2 : f > hi2 ? hi2 : f;
}

/** Hides every live object of cluster `c` (culled as a whole), recording changes; returns their number. */
export function hideCluster(st: FrameState, ci: ClusterIndex, c: number): number {
  const slotId = ci.slotId, flags = ci.flagsS, levelsS = ci.levelsS, blendS = ci.blendS;
  const levels = st.levels, blend = st.blend, bySlot = ci.sizesInSlots === true, sizes = bySlot ? ci.sizesS : st.sizes;
  const changed = st.changed, lastChange = st.lastChange, frame = st.frame;
  let changedCount = st.changedCount, hidden = 0;
  ci.markSizes(c);
  for (let s = ci.start[c], e = ci.end[c]; s < e; s++) {
    if (flags[s] & 2) continue;
    const id = slotId[s];
    hidden++;
    if (levelsS[s] !== 255) { levelsS[s] = 255; levels[id] = 255; changed[changedCount++] = id; lastChange[id] = frame; }
    if (blendS[s] !== 0) { blendS[s] = 0; blend[id] = 0; }
    sizes[bySlot ? s : id] = Number.NaN;
  }
  st.changedCount = changedCount;
  return hidden;
}

/**
 * Metric `code` of cluster `c`'s objects over every view into `ci.workS` (max over views for
 * sizes, min for distances), with the WebAssembly kernel where it applies; `mixed`: only objects
 * whose profile has that metric. `classified`: `cv.klass` holds this cluster's classes of this frame
 * (wholly inside every view, the WebAssembly kernel runs no plane test: see {@link fusedCull}).
 */
export function clusterMetric(st: FrameState, ci: ClusterIndex, cv: ClusterViews, c: number, code: number, mixed: boolean,
  classified = false): void {
  const a = ci.start[c], e = ci.end[c], block = cv.block, cull = fusedCull(cv, classified);
  for (let v = 0; v < cv.count; v++) {
    const kv = cv.kv[v], pl = cv.planes[v];
    kv[VIEW_SCALE] = code === 1 ? block[v * VB + VB_PIXEL_SCALE] : 1;
    const mode = v === 0 ? 0 : code === 0 ? 2 : 1;
    const persp = block[v * VB + VB_PERSPECTIVE] !== 0;
    if (persp && (code === 1 || code === 2) && ci.wasm !== null && !mixed) {
      ci.wasm.heightPerspective(SP_OFFSET, ci.workOffset, a, e, mode, v, code === 1 ? 1 : 0, cull);
    } else if (code === 0) distanceKernel(ci.sp, a, e, ci.workS, mode, pl, kv, cv.cull, ci.profS, st.metricCode, code, mixed);
    else if (code === 3) {
      if (persp) areaPerspectiveKernel(ci.sp, a, e, ci.workS, mode, pl, kv, cv.cull, ci.profS, st.metricCode, code, mixed);
      else areaOrthographicKernel(ci.sp, a, e, ci.workS, mode, pl, kv, cv.cull, ci.profS, st.metricCode, code, mixed);
    } else if (persp) heightPerspectiveKernel(ci.sp, a, e, ci.workS, mode, pl, kv, cv.cull, ci.profS, st.metricCode, code, mixed);
    else heightOrthographicKernel(ci.sp, a, e, ci.workS, mode, pl, kv, cv.cull, ci.profS, st.metricCode, code, mixed);
  }
}

/**
 * The fused kernel's `cull` argument for a cluster whose per-view classes `cv.klass` are this
 * frame's (`classified`): 2 when it lies wholly inside every view (no object can fail a plane
 * test, so the kernel runs none), else 1 / 0 for culling on / off.
 */
export function fusedCull(cv: ClusterViews, classified: boolean): number {
  if (classified) {
    let v = 0;
    while (v < cv.count && cv.klass[v] === 2) v++;
    if (v === cv.count) return 2;
  }
  return cv.cull ? 1 : 0;
}

/**
 * Runs the per-object kernels over cluster `c`; returns its new state. A cluster of one profile
 * with at most four thresholds and four blend thresholds runs the fused WebAssembly kernel
 * (fusedPass.ts) when there is one.
 */
export function processCluster(st: FrameState, ci: ClusterIndex, cv: ClusterViews, c: number): number {
  const a = ci.start[c], e = ci.end[c], p = ci.profile[c];
  st.uMin = 256; st.uMax = -1; st.uFrac = 0;
  ci.markSizes(c);
  const mixed = p === 0xffff;
  const fused = ci.wasm === null || mixed ? null : ci.wasm.fused;
  // (the fused kernel applies the frame's hysteresis band only: a profile with its own bands runs the JavaScript kernels)
  if (fused !== null && st.thresholdCount[p] <= 4 && st.blendCount[p] <= 4 && st.banded[p] === 0) {
    const code = st.metricCode[p];
    st.code = code; st.filter = false;
    if (cv.fusedProfile !== p) { loadFusedProfile(st, fused, p, code, false, ci.sizesInSlots, cv.oweBlends); cv.fusedProfile = p; }
    // clusterChunk classified every cluster with a finite bound (a NaN one was not)
    fusedCluster(st, ci, fused, c, p, code, cv.count, fusedCull(cv, ci.bounds[c * 6 + 3] === ci.bounds[c * 6 + 3]));
    const lo = st.uMin, hi = st.uMax;
    return lo === hi && st.uFrac === 0 && lo <= 255 ? lo : 254;
  }
  for (let code = 0; code < 4; code++) {
    if (mixed ? !(cv.mask & (1 << code)) : st.metricCode[p] !== code) continue;
    clusterMetric(st, ci, cv, c, code, mixed, ci.bounds[c * 6 + 3] === ci.bounds[c * 6 + 3]); // (classified as above)
    st.code = code;
    st.filter = mixed;
    if (code === 0) decideAscendingMapped(st, ci, a, e);
    else if (!mixed && st.thresholdCount[p] <= 4 && st.blendCount[p] <= 4) decideDescendingSingle(st, ci, a, e, p);
    else decideDescendingMapped(st, ci, a, e);
  }
  const lo = st.uMin, hi = st.uMax;
  return lo === hi && st.uFrac === 0 && lo <= 255 ? lo : 254;
}

/**
 * Cluster classification against the views: fills `cv.klass` and returns 1 when the cluster is
 * wholly outside every view (0 otherwise).
 */
export function classify(ci: ClusterIndex, cv: ClusterViews, c: number): number {
  const b = ci.bounds, o = c * 6, klass = cv.klass;
  let allOut = 1;
  for (let v = 0; v < cv.count; v++) {
    const k = sphereSide(cv, v, b, o, false);
    klass[v] = k;
    if (k !== 1) allOut = 0;
  }
  return allOut;
}

/**
 * True when the eye of the frame's first view lies surely outside cluster `c`'s bounding sphere (so
 * outside every object's): its distance exceeds the radius by more than the rounding of the
 * inline size formula — where the owed sizes (owedSizes.ts) may stand in for computed ones.
 */
export function eyeOutsideCluster(ci: ClusterIndex, cv: ClusterViews, c: number): boolean {
  const b = ci.bounds, o6 = c * 6, block = cv.block, R = b[o6 + 3];
  const cx = b[o6] - block[VB_EYE], cy = b[o6 + 1] - block[VB_EYE + 1], cz = b[o6 + 2] - block[VB_EYE + 2];
  const D = Math.sqrt(cx * cx + cy * cy + cz * cz);
  return D - R > 1e-6 * D + 1e-9 * (Math.abs(b[o6]) + Math.abs(b[o6 + 1]) + Math.abs(b[o6 + 2]) + R + cv.eyeMagnitude);
}

/**
 * The interval of metric values (after bias, widened) of cluster `c` with metric `code` into
 * `cv.scr[0..1]`; returns 0 when there is none (no view wholly inside, eye too close, …).
 */
export function clusterInterval(st: FrameState, ci: ClusterIndex, cv: ClusterViews, c: number, code: number): number {
  const b = ci.bounds, o = c * 6, cx = b[o], cy = b[o + 1], cz = b[o + 2], R = b[o + 3], rmin = b[o + 4], rmax = b[o + 5];
  const block = cv.block, klass = cv.klass, cull = cv.cull;
  const magnitude = Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + R + cv.eyeMagnitude;
  // ok: a view that bounds the interval on its open side exists (distance: the upper bound of a
  // wholly-inside view, or any view without culling; sizes: the lower bound of a wholly-inside view).
  let lo = code === 0 ? 1e308 : -1, hi = code === 0 ? 1e308 : -1, ok = code === 0 && !cull ? 1 : 0;
  for (let v = 0; v < cv.count; v++) {
    const q = v * VB, k = klass[v];
    const dx = cx - block[q + VB_EYE], dy = cy - block[q + VB_EYE + 1], dz = cz - block[q + VB_EYE + 2];
    const D = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (code === 0) {
      if (cull && k === 1) continue;
      let l = D - R; if (l < 0) l = 0;
      let h = D + R - 2 * rmin; if (h < 0) h = 0;
      if (l < lo) lo = l;
      if (!cull || k === 2) { if (h < hi) hi = h; ok = 1; }
      continue;
    }
    if (k === 1) continue; // wholly outside: contributes −1 (culling) or 0 (no culling), never the max
    let l = 0, h = 0;
    const wh = block[q + VB_WINDOW_HEIGHT], wa = block[q + VB_WINDOW_AREA], scale = code === 1 ? block[q + VB_PIXEL_SCALE] : 1;
    if (block[q + VB_PERSPECTIVE] !== 0) {
      const gap = D - R;
      if (!(gap > 1e-4 * magnitude)) return 0; // eye in or near the cluster: unbounded or ill-conditioned
      const rl = rmin / (D + R - rmin), rh = rmax / (gap + rmax);
      if (code === 3) { l = (Math.PI * rl * rl) / wa; h = (Math.PI * rh * rh) / wa; }
      else { l = ((2 * rl) / wh) * scale; h = ((2 * rh) / wh) * scale; }
    } else if (code === 3) {
      l = (Math.PI * rmin * rmin) / wa; h = (Math.PI * rmax * rmax) / wa;
    } else {
      l = ((2 * rmin) / wh) * scale; h = ((2 * rmax) / wh) * scale;
    }
    if (h > hi) hi = h;
    if (k === 2) { if (l > lo) lo = l; ok = 1; }
  }
  if (ok === 0 || !(lo < 1e300)) return 0;
  const bias = st.bias;
  if (code === 0) { lo /= bias; hi /= bias; } else { lo *= bias; hi *= bias; }
  const abs = code === 0 ? (1e-9 * magnitude) / bias : 0;
  const scr = cv.scr;
  scr[0] = lo - 1e-6 * Math.abs(lo) - abs;
  scr[1] = hi + 1e-6 * Math.abs(hi) + abs;
  scr[2] = Math.fround((scr[0] + scr[1]) * 0.5);
  return scr[1] < 1e300 ? 1 : 0;
}

/**
 * Clusters `[first, last)` of a block culled whole (spatial/blockCulling.ts): each handled as clusterChunk
 * handles a culled cluster (hidden, or only counted when already hidden); adds to the stats.
 */
export function hideBlock(st: FrameState, ci: ClusterIndex, first: number, last: number): void {
  const live = ci.live, state = ci.state;
  let hidden = 0, culled = 0;
  for (let c = first; c < last; c++) {
    const n = live[c];
    if (n === 0) continue;
    if (state[c] === 255) hidden += n;
    else { hidden += hideCluster(st, ci, c); state[c] = 255; }
    culled++;
  }
  st.hidden += hidden; st.clustersCulled += culled;
}

/**
 * The clustered thresholds pass over clusters `[from, to)`; adds to the frame's stats. `blocks`
 * (culling on, `from` a multiple of 16, the calling thread's one-thread frames): a block of 16
 * clusters culled whole by one test (spatial/blockCulling.ts) is hidden without testing its clusters.
 */
export function clusterChunk(st: FrameState, ci: ClusterIndex, cv: ClusterViews, from: number, to: number, blocks: boolean): void {
  const live = ci.live, state = ci.state, profile = ci.profile, bounds = ci.bounds, forcedCount = ci.forcedCount;
  const costs = st.costs, stride = st.stride, levelCounts = st.levelCounts, hiA = st.hi, metricCode = st.metricCode;
  let hidden = 0, totalCost = 0, minimumCost = 0, culled = 0, skipped = 0, evaluated = 0;
  for (let c = from; c < to; c++) {
    if (blocks && (c & (SUPER_SIZE - 1)) === 0 && superCulled(ci, cv, c >> SUPER_SHIFT) === 1) {
      const last = c + SUPER_SIZE < to ? c + SUPER_SIZE : to;
      hideBlock(st, ci, c, last);
      c = last - 1;
      continue;
    }
    const n = live[c];
    if (n === 0) continue;
    const R = bounds[c * 6 + 3];
    if (R === R) {
      const out = classify(ci, cv, c);
      if (out === 1 && cv.cull) {
        if (state[c] === 255) hidden += n;
        else { hidden += hideCluster(st, ci, c); state[c] = 255; }
        culled++;
        continue;
      }
      const sc = state[c], p = profile[c];
      // The interval is computed for mixed clusters too (≈ 50 ns against 64 objects' work): the
      // first frame, where every cluster is mixed, then also warms up the skip path, so frame 2 of
      // a fresh process does not run 16k cluster tests in V8's interpreter.
      if (p !== 0xffff && forcedCount[c] === 0 && !cv.exactSizes) {
        const code = metricCode[p];
        if (clusterInterval(st, ci, cv, c, code) === 1 && uniformLevel(st, p, code !== 0, cv.scr) === sc && sc < 254) {
          levelCounts[sc] += n;
          totalCost += n * costs[p * stride + sc];
          minimumCost += n * costs[p * stride + hiA[p]];
          skipped++;
          continue;
        }
      }
    }
    state[c] = processCluster(st, ci, cv, c);
    evaluated += n;
  }
  st.clustersCulled += culled; st.clustersSkipped += skipped; st.objectsEvaluated += evaluated;
  st.hidden += hidden;
  st.totalCost += totalCost;
  st.minimumCost += minimumCost;
}

/** Refits edited clusters, resynchronises the slot copies and fills the per-frame view data. */
export function prepareClusterFrame(st: FrameState, ci: ClusterIndex, cv: ClusterViews, views: EngineView | readonly EngineView[], single: boolean,
viewCount: number, cull: boolean, exactSizes: boolean, used: number, metricMask: number): void {
  ci.refitPending(st.flags, st.forced);
  refitSupers(ci);
  ci.sync(st.levels, st.blend, used);
  cv.ensure(viewCount);
  cv.count = viewCount; cv.cull = cull; cv.exactSizes = exactSizes; cv.mask = metricMask;
  const block = cv.block;
  let eye = 0.5;
  for (let v = 0; v < viewCount; v++) {
    const view = single ? (views as EngineView) : (views as readonly EngineView[])[v];
    const f = view.frustum, q = v * VB, kv = cv.kv[v];
    block.set(f.planes, q + VB_PLANES);
    block.set(f.position, q + VB_EYE);
    block[q + VB_WINDOW_HEIGHT] = f.windowMax[1] - f.windowMin[1];
    block[q + VB_WINDOW_AREA] = (f.windowMax[0] - f.windowMin[0]) * (f.windowMax[1] - f.windowMin[1]);
    block[q + VB_PIXEL_SCALE] = view.viewportHeight === undefined ? SCREEN_SPACE_DEFAULTS.viewportHeight : view.viewportHeight; // as metricPass (policyDrivers.ts)
    block[q + VB_PERSPECTIVE] = f.isPerspective ? 1 : 0;
    cv.planes[v].set(f.planes);
    kv.set(f.position, VIEW_EYE);
    kv.set(f.windowMin, VIEW_WINDOW_MIN);
    kv.set(f.windowMax, VIEW_WINDOW_MAX);
    const m = Math.abs(f.position[0]) + Math.abs(f.position[1]) + Math.abs(f.position[2]);
    if (m > eye) eye = m;
    if (ci.wasm !== null && v < WASM_MAX_VIEWS) {
      const wp = ci.wasmParams, w = v * WV;
      wp.set(f.planes, w + WV_PLANES);
      wp.set(f.position, w + WV_EYE);
      wp[w + WV_WINDOW_HEIGHT] = f.windowMax[1] - f.windowMin[1]; // as the JavaScript kernel derives it
      wp[w + WV_PIXEL_SCALE] = block[q + VB_PIXEL_SCALE];
      wp[w + WV_WINDOW_AREA] = block[q + VB_WINDOW_AREA];
      wp[w + WV_PERSPECTIVE] = block[q + VB_PERSPECTIVE];
    }
  }
  if (ci.memory !== null && viewCount > WASM_MAX_VIEWS) { settleBlends(ci, st.blend); ci.wasm = null; ci.memory = null; } // beyond the parameter blocks: JavaScript kernels from now on (plain arrays from the next growth)
  if (ci.wasm !== null && ci.wasm.fused !== null) ci.wasm.fused.setup(viewCount);
  cv.fusedProfile = -1;
  cv.eyeMagnitude = eye;
}
