/**
 * The set side of worker-thread mode (`LodSet.setThreads`): the thresholds policy split into
 * contiguous id ranges (`clusters: false`) or cluster ranges, one per thread (the calling thread
 * takes the first), then the workers' changed ids compacted in range order and their stats summed.
 * The workers themselves live in threads.ts; `LodSet` keeps the mode's state (thread count, the
 * adaptive choice between threaded and single-thread clustered frames).
 *
 * Contributor notes:
 * - Module functions over an explicit context, run once a frame; the per-object work is the
 *   kernels' and cluster chunks' as on one thread, so the results are identical
 *   (test/batch/threads.test.ts).
 *
 * @module
 */
import type { FrameState } from './frameState.js';
import { VIEW_EYE, VIEW_SCALE, VIEW_WINDOW_MAX, VIEW_WINDOW_MIN } from './metricKernels.js';
import type { ProfileTable } from './profiles.js';
import { LodThreads, RESULT_HEAD } from './threads.js';
import { splitClusters, type ClusterIndex } from './clusters.js';
import { clusterChunk, type ClusterViews, prepareClusterFrame } from './clusterPass.js';
import { thresholdPass } from './policyDrivers.js';
import type { LodView } from './updateOptions.js';

/** (Re)allocates the per-profile level ranges `st.lo` / `st.hi` for `n` profiles, shared when `shared`. */
export function shareProfileRanges(st: FrameState, n: number, shared: boolean): void {
  st.lo = shared ? new Uint8Array(new SharedArrayBuffer(n)) : new Uint8Array(n);
  st.hi = shared ? new Uint8Array(new SharedArrayBuffer(n)) : new Uint8Array(n);
}

/** The thresholds policy over worker threads: same kernels, contiguous id ranges, merged stats. */
export function threadedThresholds(threads: LodThreads, st: FrameState, table: ProfileTable, views: LodView | readonly LodView[],
  single: boolean, viewCount: number, cull: boolean, n: number): void {
  const params = threads.parameterBlock;
  params[0] = st.bias; params[1] = st.hysteresis; params[2] = st.minFrames; params[3] = st.frame;
  params[4] = cull ? 1 : 0; params[5] = viewCount; params[6] = table.metricMask; params[7] = 0;
  for (let v = 0; v < viewCount; v++) {
    const view = single ? (views as LodView) : (views as readonly LodView[])[v];
    const f = view.frustum, o = LodThreads.viewOffset(v);
    params.set(f.planes, o);
    params.set(f.position, o + 24 + VIEW_EYE);
    params.set(f.windowMin, o + 24 + VIEW_WINDOW_MIN);
    params.set(f.windowMax, o + 24 + VIEW_WINDOW_MAX);
    params[o + 24 + VIEW_SCALE] = view.viewportHeight ?? 1;
    params[o + 32] = f.isPerspective ? 1 : 0;
  }
  const mainEnd = threads.split(n);
  threads.start();
  thresholdPass(st, table, views, single, viewCount, cull, 0, mainEnd, st.levels, true);
  threads.wait();
  const results = threads.results, stride = table.stride, changed = st.changed, levelCounts = st.levelCounts;
  let count = st.changedCount;
  for (let w = 1; w <= threads.workerCount; w++) {
    const r = w * (RESULT_HEAD + stride), k = results[r], from = threads.starts[w];
    if (k > 0) changed.copyWithin(count, from, from + k);
    count += k;
    st.totalCost += results[r + 1]; st.minimumCost += results[r + 2];
    st.invalid += results[r + 3]; st.hidden += results[r + 4];
    for (let l = 0; l < stride; l++) levelCounts[l] += results[r + RESULT_HEAD + l];
  }
  st.changedCount = count;
}

/**
 * The clustered thresholds pass split into contiguous cluster ranges, one per thread (the
 * calling thread takes the first). Each range writes its changed ids from its first slot on;
 * they are compacted in range order afterwards, and the stats summed.
 */
export function threadedClustered(threads: LodThreads, st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable,
  used: number, views: LodView | readonly LodView[], single: boolean, viewCount: number, cull: boolean, exactSizes: boolean): void {
  const params = threads.parameterBlock;
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, exactSizes, used, table.metricMask);
  params[0] = st.bias; params[1] = st.hysteresis; params[2] = st.minFrames; params[3] = st.frame;
  params[4] = cull ? 1 : 0; params[5] = viewCount; params[6] = table.metricMask; params[7] = 1;
  cv.scalars[0] = exactSizes ? 1 : 0; cv.scalars[1] = cv.eyeMagnitude;
  const mainEnd = splitClusters(ci, threads.starts, threads.ends, threads.workerCount + 1);
  threads.start();
  for (let c = 0; c < mainEnd; c += 256) clusterChunk(st, ci, cv, c, c + 256 < mainEnd ? c + 256 : mainEnd);
  threads.wait();
  const results = threads.results, stride = table.stride, changed = st.changed, levelCounts = st.levelCounts;
  let changes = st.changedCount;
  for (let w = 1; w <= threads.workerCount; w++) {
    const r = w * (RESULT_HEAD + stride), k = results[r], from = threads.starts[w];
    if (k > 0) { const first = ci.start[from]; changed.copyWithin(changes, first, first + k); }
    changes += k;
    st.totalCost += results[r + 1]; st.minimumCost += results[r + 2];
    st.invalid += results[r + 3]; st.hidden += results[r + 4];
    st.clustersCulled += results[r + 5]; st.clustersSkipped += results[r + 6]; st.objectsEvaluated += results[r + 7];
    for (let l = 0; l < stride; l++) levelCounts[l] += results[r + RESULT_HEAD + l];
  }
  st.changedCount = changes;
}
