/**
 * The worker-thread program of worker-thread mode (threads.ts starts it with
 * `new Worker(url-of-this-module)`; Node only). It imports the very kernel and cluster functions
 * the calling thread runs, then loops: wait for a frame on `ctrl[0]`, claim chunks of it, report each.
 *
 * Contributor notes:
 * - Loading this module in a worker started by `LodThreads` runs the loop ({@link runThreadWorker});
 *   loaded anywhere else (the main thread, a browser, a tool that imports every module) it does
 *   nothing. `node:worker_threads` is looked up at run time, like in threads.ts: the core imports no
 *   package (test/index.test.ts).
 * - Nothing in the core imports this module: threads.ts names it only by a URL built at run time,
 *   so browser bundles of `lodkit` neither contain it nor see a worker reference to follow.
 * - The worker's `FrameState`, `ClusterIndex` and `ClusterViews` are plain objects with the fields
 *   the kernels read, over the shared arrays (the scalars start at non-integer values for V8's
 *   double fields, as in frameState.ts). Its index has no WebAssembly kernel (`wasm: null`: the
 *   JavaScript metric kernels; a WebAssembly memory is not shared) and does not mark sizes (the
 *   calling thread marks them all: `sizesAllDirty`).
 * - The shared-memory protocol (parameter block, results rows, the seam's `ctrl` words) is
 *   threadProtocol.ts; the frame order and the claim rules are described in threads.ts.
 *
 * @module
 */
import type { FrameState } from '../core/frameState.js';
import { MetricCode } from '../core/profiles.js';
import {
  areaOrthographicKernel, areaPerspectiveKernel, distanceKernel, heightOrthographicKernel, heightPerspectiveKernel, VIEW_SCALE,
} from '../kernels/metricKernels.js';
import { decideAscending, decideDescending } from '../kernels/thresholdKernels.js';
import { clusterChunk } from '../passes/clusterPass.js';
import type { ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import {
  GATE, HEADER, HOLD, MAX_THREADED_VIEWS, RELEASE, RESULT_HEAD, THREAD_WORKER_TAG, VIEW_SLOTS, WORKER_CLAIMS, type ThreadWorkerData,
} from './threadProtocol.js';

/** The worker's frame state: the fields the kernels read, over the shared arrays of `d`. */
function workerFrameState(d: ThreadWorkerData): FrameState {
  const st = {
    spheres: d.spheres, profileIds: d.profileIds, flags: d.flags, forced: d.forced, levels: d.levels, blend: d.blend,
    sizes: d.sizes, lastChange: d.lastChange, changed: d.changed, changedCount: 0, work: d.work, weights: new Float64Array(0),
    next: new Uint8Array(0), fixed: new Uint8Array(0), stride: d.stride, thresholds: d.thresholds,
    blendThresholds: d.blendThresholds, thresholdCount: d.thresholdCount, blendCount: d.blendCount,
    levelCount: d.levelCount, metricCode: d.metricCode, costs: d.costs, errors: new Float64Array(0),
    qualityFloor: new Uint8Array(0), lo: d.lo, hi: d.hi, floor: new Uint8Array(0),
    bias: 0.5, hysteresis: 0.5, minFrames: 0, frame: 0, code: 0, filter: false,
    levelCounts: new Uint32Array(d.stride), totalCost: 0.5, minimumCost: 0.5, invalid: 0, hidden: 0,
    thresholds4: d.thresholds4, blendThresholds4: d.blendThresholds4, bands: d.bands, banded: d.banded, anyBands: d.anyBands, countScratch: new Uint32Array(d.stride),
    uMin: 256, uMax: -1, uFrac: 0, clustersCulled: 0, clustersSkipped: 0, objectsEvaluated: 0,
  } satisfies Partial<FrameState>;
  return st as unknown as FrameState; // (the policy scratch of the calling thread's state is never read here)
}

/** The worker's cluster index and view data over the shared cluster arrays, or nulls without clusters. */
function workerClusters(d: ThreadWorkerData): [ClusterIndex, ClusterViews, Float64Array[]] | [null, null, Float64Array[]] {
  const c = d.clusters, frameKv: Float64Array[] = [];
  if (c === null) return [null, null, frameKv];
  const ci = {
    slotId: c.slotId, workS: c.workS, sp: c.sp, profS: c.profS, flagsS: c.flagsS, forcedS: c.forcedS, levelsS: c.levelsS,
    blendS: c.blendS, start: c.start, end: c.end, profile: c.profile, bounds: c.bounds, live: c.live,
    forcedCount: c.forcedCount, state: c.state, wasm: null, workOffset: 0, sizesS: c.sizesS, sizesInSlots: false, sizesDirty: null,
    markSizes(): void {}, // (the calling thread marks: sizesAllDirty)
  } satisfies Partial<ClusterIndex>;
  const cv = {
    count: 0, cull: true, exactSizes: false, mask: 0, block: c.block, planes: [] as Float64Array[], kv: [] as Float64Array[],
    klass: new Uint8Array(MAX_THREADED_VIEWS), scr: new Float64Array(4), eyeMagnitude: 0.5,
  } satisfies Partial<ClusterViews>;
  for (let v = 0; v < MAX_THREADED_VIEWS; v++) {
    cv.planes.push(c.planes.subarray(v * 24, v * 24 + 24));
    // The view parameters the calling thread wrote for the frame; each thread computes with its own
    // copy (`clusterMetric` writes the metric's scale into slot 7 per cluster: a shared copy would
    // let one thread's pixels scale reach another thread's screenHeight cluster).
    frameKv.push(c.kv.subarray(v * 8, v * 8 + 8));
    cv.kv.push(new Float64Array(8));
  }
  return [ci as unknown as ClusterIndex, cv as unknown as ClusterViews, frameKv]; // (the calling thread's bookkeeping is not here)
}

/**
 * The worker loop: blocks in `Atomics.wait` on `ctrl[0]` between frames, then claims chunks of the
 * frame — cluster chunks, or id ranges with `clusters: false` — with the same kernels as the
 * calling thread, until none is left; returns when `ctrl[0]` becomes −1 (`LodThreads.dispose`).
 * @internal
 */
export function runThreadWorker(d: ThreadWorkerData): void {
  const st = workerFrameState(d);
  const [ci, cv, frameKv] = workerClusters(d);
  const c = d.clusters;
  const ctrl = d.ctrl, params = d.params, stride = d.stride;
  const claim = d.claim, done = d.done, chunkResults = d.chunkResults;
  const planes: Float64Array[] = [], views: Float64Array[] = [];
  // Per view, its parameters with scale 1: the block holds the pixels metric's scale (the viewport
  // height); every other metric runs with 1, as the calling thread's metricPass does.
  const unitViews: Float64Array[] = [];
  for (let v = 0; v < MAX_THREADED_VIEWS; v++) {
    planes.push(params.subarray(HEADER + v * VIEW_SLOTS, HEADER + v * VIEW_SLOTS + 24));
    views.push(params.subarray(HEADER + v * VIEW_SLOTS + 24, HEADER + v * VIEW_SLOTS + 32));
    unitViews.push(new Float64Array(8));
  }
  let seq = 0;
  for (;;) {
    Atomics.wait(ctrl, 0, seq);
    seq = Atomics.load(ctrl, 0);
    if (seq < 0) break;
    // Dynamic claiming: chunk j (clusters [j·size, (j+1)·size), or those ids with `clusters: false`)
    // writes its changed ids from its first id or slot on, its stats into results row j, then
    // done[j] = 1. The frame's values are read after each successful claim: a claim can only succeed
    // in the frame that is live (the main thread resets the word after every chunk of the previous
    // frame is done), so a worker that woke for an earlier frame and was descheduled still
    // processes a chunk correctly. A worker that never runs (slow to start, failed to load) costs
    // nothing: the calling thread claims what is left.
    for (;;) {
      // (the worker seam: a closed gate keeps this worker from claiming, also a claim it makes late,
      // after its frame ended, which would land in the next frame)
      while (Atomics.load(ctrl, GATE) !== 0) Atomics.wait(ctrl, GATE, 1);
      const v = Atomics.add(claim, 0, 1), j = v & 0xffff;
      if (j >= v >>> 16) break;
      Atomics.add(ctrl, WORKER_CLAIMS, 1);
      Atomics.notify(ctrl, WORKER_CLAIMS);
      st.bias = params[0]; st.hysteresis = params[1]; st.minFrames = params[2]; st.frame = params[3];
      const count = params[8], size = params[9], from = j * size, to = from + size < count ? from + size : count;
      const clustered = params[7] === 1 && ci !== null && cv !== null && c !== null;
      const first = clustered ? ci.start[from] : from;
      st.changedCount = first; st.totalCost = 0; st.minimumCost = 0; st.invalid = 0; st.hidden = 0;
      st.clustersCulled = 0; st.clustersSkipped = 0; st.objectsEvaluated = 0;
      st.levelCounts.fill(0);
      // (the seam's hold: until the calling thread has claimed the rest of this frame's chunks)
      if (Atomics.load(ctrl, HOLD) !== 0) while (Atomics.load(ctrl, RELEASE) === 0) Atomics.wait(ctrl, RELEASE, 0);
      if (clustered) {
        cv.count = params[5]; cv.cull = params[4] !== 0; cv.mask = params[6];
        for (let k = 0; k < cv.count; k++) cv.kv[k].set(frameKv[k]);
        cv.exactSizes = c.scalars[0] !== 0; cv.eyeMagnitude = c.scalars[1]; ci.sizesInSlots = c.scalars[2] !== 0;
        clusterChunk(st, ci, cv, from, to, false);
      } else {
        objectChunk(st, params, planes, views, unitViews, from, to);
      }
      const r = j * (RESULT_HEAD + stride);
      chunkResults[r] = st.changedCount - first; chunkResults[r + 1] = st.totalCost; chunkResults[r + 2] = st.minimumCost;
      chunkResults[r + 3] = st.invalid; chunkResults[r + 4] = st.hidden;
      chunkResults[r + 5] = st.clustersCulled; chunkResults[r + 6] = st.clustersSkipped; chunkResults[r + 7] = st.objectsEvaluated;
      for (let l = 0; l < stride; l++) chunkResults[r + RESULT_HEAD + l] = st.levelCounts[l];
      Atomics.store(done, j, 1);
      Atomics.notify(done, j);
    }
  }
}

/** `clusters: false`: the thresholds decision over ids `[from, to)`, as the calling thread's `thresholdPass`. */
function objectChunk(st: FrameState, params: Float64Array, planes: Float64Array[], views: Float64Array[], unitViews: Float64Array[],
  from: number, to: number): void {
  const cull = params[4] !== 0, viewCount = params[5], mask = params[6];
  const mixed = (mask & (mask - 1)) !== 0;
  for (let code = 0; code < 4; code++) {
    if (!(mask & (1 << code))) continue;
    for (let v = 0; v < viewCount; v++) {
      const mode = v === 0 ? 0 : code === 0 ? 2 : 1;
      const persp = params[HEADER + v * VIEW_SLOTS + 32] !== 0;
      const pl = planes[v];
      let vp = views[v];
      if (code !== MetricCode.pixels) { const u = unitViews[v]; u.set(vp); u[VIEW_SCALE] = 1; vp = u; }
      if (code === 0) distanceKernel(st.spheres, from, to, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
      else if (code === 3) {
        if (persp) areaPerspectiveKernel(st.spheres, from, to, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
        else areaOrthographicKernel(st.spheres, from, to, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
      } else if (persp) heightPerspectiveKernel(st.spheres, from, to, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
      else heightOrthographicKernel(st.spheres, from, to, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
    }
    st.code = code; st.filter = mixed;
    if (code === 0) decideAscending(st, from, to, st.levels, true);
    else decideDescending(st, from, to, st.levels, true);
  }
}

/** `node:worker_threads` where this runs in a Node worker, else null (looked up at run time). */
function workerThreads(): { isMainThread: boolean; workerData: unknown } | null {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof getBuiltin !== 'function') return null;
  return (getBuiltin('node:worker_threads') as { isMainThread: boolean; workerData: unknown } | undefined) ?? null;
}

const wt = workerThreads();
if (wt !== null && !wt.isMainThread) {
  const data = wt.workerData as Partial<ThreadWorkerData> | null | undefined;
  if (typeof data === 'object' && data !== null && data.tag === THREAD_WORKER_TAG) runThreadWorker(data as ThreadWorkerData);
}
