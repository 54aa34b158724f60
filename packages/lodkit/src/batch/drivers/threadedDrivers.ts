/**
 * The set side of worker-thread mode (`LodSet.setThreads`): the thresholds policy split into
 * chunks of ids (`clusters: false`) or of clusters (the default) that the threads claim from a
 * shared counter, then the changed ids compacted in chunk order and the stats summed.
 * The workers themselves live in threads.ts; the set's engine keeps the mode's state (thread count,
 * the adaptive choice between threaded and single-thread clustered frames: threadMode.ts).
 *
 * Contributor notes:
 * - Module functions over an explicit context, run once a frame; the per-object work is the
 *   kernels' and cluster chunks' as on one thread, so the results are identical
 *   (test/batch/threads.test.ts).
 *
 * @module
 */
import type { FrameState } from '../core/frameState.js';
import { VIEW_EYE, VIEW_SCALE, VIEW_WINDOW_MAX, VIEW_WINDOW_MIN } from '../kernels/metricKernels.js';
import type { ProfileTable } from '../core/profiles.js';
import { LodThreads, MAX_CHUNKS, MIN_CHUNK_CLUSTERS, MIN_CHUNK_OBJECTS, RESULT_HEAD } from './threads.js';
import type { ClusterIndex } from '../spatial/clusters.js';
import { clusterChunk, prepareClusterFrame } from '../passes/clusterPass.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { thresholdPass } from './policyDrivers.js';
import { SCREEN_SPACE_DEFAULTS } from '../passes/screenSpacePasses.js';
import type { EngineView } from '../core/updateOptions.js';

/** Items (objects or clusters) per chunk: at most `MAX_CHUNKS` chunks, at least `min` items each. */
function chunkSize(count: number, min: number): number {
  const size = Math.ceil(count / MAX_CHUNKS);
  return size > min ? size : min;
}

/** The parameter block's header (threadProtocol.ts `HEADER`): the frame's options, mode (0 per object, 1 clusters), count and chunk size. */
function writeFrameHeader(params: Float64Array, st: FrameState, cull: boolean, viewCount: number, mask: number, mode: number, count: number, size: number): void {
  params[0] = st.bias; params[1] = st.hysteresis; params[2] = st.minFrames; params[3] = st.frame;
  params[4] = cull ? 1 : 0; params[5] = viewCount; params[6] = mask; params[7] = mode;
  params[8] = count; params[9] = size;
}

/**
 * The thresholds policy over worker threads with `clusters: false`: chunks of ids claimed like the
 * clustered frame's chunks (a worker that never runs costs nothing), the same kernels, merged stats.
 */
export function threadedThresholds(threads: LodThreads, st: FrameState, table: ProfileTable, views: EngineView | readonly EngineView[],
  single: boolean, viewCount: number, cull: boolean, n: number): void {
  const params = threads.parameterBlock;
  const size = chunkSize(n, MIN_CHUNK_OBJECTS), chunks = Math.ceil(n / size);
  writeFrameHeader(params, st, cull, viewCount, table.metricMask, 0, n, size);
  for (let v = 0; v < viewCount; v++) {
    const view = single ? (views as EngineView) : (views as readonly EngineView[])[v];
    const f = view.frustum, o = LodThreads.viewOffset(v);
    params.set(f.planes, o);
    params.set(f.position, o + 24 + VIEW_EYE);
    params.set(f.windowMin, o + 24 + VIEW_WINDOW_MIN);
    params.set(f.windowMax, o + 24 + VIEW_WINDOW_MAX);
    // The pixels metric's scale (the workers use 1 for the other metrics, as metricPass does).
    params[o + 24 + VIEW_SCALE] = view.viewportHeight ?? SCREEN_SPACE_DEFAULTS.viewportHeight;
    params[o + 32] = f.isPerspective ? 1 : 0;
  }
  threads.openChunks(chunks);
  threads.start();
  threads.awaitWorkerClaim(); // (the worker seam; returns at once in use)
  const mineChanges = threads.mineChanges;
  for (let j = threads.claimChunk(); j >= 0; j = threads.claimChunk()) {
    const from = j * size;
    st.changedCount = from;
    thresholdPass(st, table, views, single, viewCount, cull, from, from + size < n ? from + size : n, st.levels, true);
    mineChanges[j] = st.changedCount - from;
  }
  threads.releaseHeldChunk(); // (the worker seam)
  mergeChunks(threads, st, table.stride, chunks, null, size);
}

/**
 * After the calling thread's claims: awaits the chunks the workers claimed, adds their stats, and
 * compacts every chunk's changed ids in chunk order (chunk j's start at its first slot,
 * `starts[j·size]`, or at id `j·size` when `starts` is null).
 */
function mergeChunks(threads: LodThreads, st: FrameState, stride: number, chunks: number, starts: Uint32Array | null, size: number): void {
  const results = threads.chunkResults, mine = threads.mine, mineChanges = threads.mineChanges;
  const changed = st.changed, levelCounts = st.levelCounts;
  let changes = 0;
  for (let j = 0; j < chunks; j++) {
    let k: number;
    if (mine[j] === 1) k = mineChanges[j];
    else {
      threads.waitChunk(j);
      const r = j * (RESULT_HEAD + stride);
      k = results[r];
      st.totalCost += results[r + 1]; st.minimumCost += results[r + 2];
      st.invalid += results[r + 3]; st.hidden += results[r + 4];
      st.clustersCulled += results[r + 5]; st.clustersSkipped += results[r + 6]; st.objectsEvaluated += results[r + 7];
      for (let l = 0; l < stride; l++) levelCounts[l] += results[r + RESULT_HEAD + l];
    }
    const first = starts === null ? j * size : starts[j * size];
    if (k > 0 && first !== changes) changed.copyWithin(changes, first, first + k);
    changes += k;
  }
  st.changedCount = changes;
}

/**
 * The clustered thresholds pass over chunks of clusters claimed dynamically: the calling thread
 * and the workers take the next chunk from one `Atomics` counter until none is left, so a worker
 * that is late, descheduled or absent costs the frame at most the chunk it holds — the calling
 * thread simply does the rest. Each chunk writes its changed ids from its first slot on; they are
 * compacted in chunk order afterwards (the single-thread order), and the stats summed.
 */
export function threadedClustered(threads: LodThreads, st: FrameState, ci: ClusterIndex, cv: ClusterViews, table: ProfileTable,
  used: number, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, exactSizes: boolean): void {
  const params = threads.parameterBlock;
  prepareClusterFrame(st, ci, cv, views, single, viewCount, cull, exactSizes, used, table.metricMask);
  const count = ci.count;
  const size = chunkSize(count, MIN_CHUNK_CLUSTERS), chunks = Math.ceil(count / size);
  writeFrameHeader(params, st, cull, viewCount, table.metricMask, 1, count, size);
  cv.scalars[0] = exactSizes ? 1 : 0; cv.scalars[1] = cv.eyeMagnitude; cv.scalars[2] = ci.sizesInSlots ? 1 : 0;
  if (ci.sizesInSlots) ci.sizesAllDirty = true; // (the workers do not mark their clusters)
  threads.openChunks(chunks);
  threads.start();
  threads.awaitWorkerClaim(); // (the worker seam; returns at once in use)
  const starts = ci.start, mineChanges = threads.mineChanges;
  for (let j = threads.claimChunk(); j >= 0; j = threads.claimChunk()) {
    const from = j * size, first = starts[from];
    st.changedCount = first;
    clusterChunk(st, ci, cv, from, from + size < count ? from + size : count, false); // (chunks of any size: no blocks)
    mineChanges[j] = st.changedCount - first;
  }
  threads.releaseHeldChunk(); // (the worker seam)
  // Every chunk is claimed; the ones not done here were claimed by a worker and are awaited.
  mergeChunks(threads, st, table.stride, chunks, starts, size);
}
