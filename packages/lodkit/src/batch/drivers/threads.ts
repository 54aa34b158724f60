/**
 * Worker-thread mode of the thresholds policy: one update split into contiguous id ranges, one per
 * thread, over `SharedArrayBuffer`-backed storage. The main thread computes the first range itself
 * and waits for the workers with `Atomics.wait`, so `LodSet.update` stays synchronous.
 *
 * Contributor notes:
 * - Bit-identical by construction: every thread runs the very same kernel functions on its own
 *   objects, and objects do not interact under the thresholds policy. The worker source is built
 *   from the kernels' own `Function.prototype.toString()` (they reference nothing outside their
 *   body), so there is no second copy of the code and no separate worker file to bundle.
 * - Each worker writes its changed ids into `changed[start …)` of its own range (a range of k
 *   objects has at most k changes); the main thread compacts them in range order, which is the
 *   single-thread order. Stats are summed per range (integer costs sum exactly in any order).
 * - Other policies run single-threaded: rank quotas and budgets are global selections.
 * - Clustered thresholds frames (the default) cut the clusters into up to `MAX_CHUNKS` chunks of
 *   at least `MIN_CHUNK_CLUSTERS` clusters; every thread, the calling one included, claims the next
 *   chunk with one `Atomics.add` on a shared word until none is left. The calling thread never
 *   waits for a worker that has claimed nothing (a late or descheduled worker just finds the chunks
 *   gone), only for the chunks a worker holds: a worker can cost a frame at most about one chunk.
 *   The workers run the same cluster functions (their source is built the same way) on the shared
 *   `ClusterIndex` arrays, with the JavaScript metric kernels (a WebAssembly memory is not shared).
 *   `LodSet` still times threaded against single-thread frames and runs the faster (two threads
 *   can lose to one on memory bandwidth or when a worker keeps getting descheduled mid-chunk).
 *   `clusters: false` frames split id ranges, one per thread, and wait for every worker.
 * - Workers are `unref()`ed and blocked in `Atomics.wait` between frames; `dispose()` ends them.
 * - `node:worker_threads` is looked up at run time (`process.getBuiltinModule`), never imported: the
 *   core entry point must load in browsers and bundlers, where threaded mode is simply unavailable.
 *
 * @module
 */
import type { Worker } from 'node:worker_threads';
import type { FrameState } from '../core/frameState.js';
import type { WorkerSchedule } from '../core/threadChooser.js';
import {
  areaOrthographicKernel, areaPerspectiveKernel, distanceKernel, heightOrthographicKernel, heightPerspectiveKernel,
} from '../kernels/metricKernels.js';
import { decideAscending, decideDescending } from '../kernels/thresholdKernels.js';
import type { ClusterIndex } from '../spatial/clusters.js';
import { classify, clusterChunk, clusterInterval, clusterMetric, hideCluster, processCluster, uniformLevel } from '../passes/clusterPass.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import { decideAscendingMapped, decideDescendingMapped } from '../kernels/mappedKernels.js';
import { decideDescendingSingle } from '../kernels/singleKernels.js';

/** Slots per view in the shared parameter block: 24 plane values, 8 view params, projection flag. */
const VIEW_SLOTS = 34;
/**
 * Parameter block header: bias, hysteresis, minFrames, frame, cull, viewCount, metric mask, mode
 * (0 per object, 1 clusters), cluster count, clusters per chunk.
 */
const HEADER = 10;
/** Results per thread: changes, totalCost, minimumCost, invalid, hidden, clusters culled, skipped, objects evaluated; then level counts. */
export const RESULT_HEAD = 8;
/** Maximum number of views in threaded mode. */
export const MAX_THREADED_VIEWS = 16;
/** Most chunks a clustered frame is cut into (the claim word holds the index and count in 16 bits each). */
export const MAX_CHUNKS = 1024;
/**
 * Fewest clusters per chunk: 32 clusters (≈ 2k objects, ≈ 20–60 µs of per-object work) keep the
 * wait for a chunk a worker holds short while the claims (one `Atomics.add` each) stay negligible.
 */
export const MIN_CHUNK_CLUSTERS = 32;
/**
 * `ctrl` slots of the worker seam ({@link LodThreads.setWorkerSchedule}): the gate the workers pass
 * before every claim (0 open, 1 closed), hold claimed chunks (0/1), their release (0/1, reset each
 * frame), and the chunks the workers claimed in the live frame.
 */
const GATE = 64, HOLD = 65, RELEASE = 66, WORKER_CLAIMS = 67;

/**
 * Source text of a function for the worker. Under a module runner that rewrites imports (vitest's
 * `__vite_ssr_import_N__.name`), calls into other modules are turned back into the plain names the
 * worker defines; plain ESM output is unchanged.
 */
function sourceOf(fn: (...args: never[]) => unknown): string {
  return fn.toString()
    .replace(/\(0,\s*__vite_ssr_import_\d+__\.(\w+)\)/g, '$1')
    .replace(/__vite_ssr_import_\d+__\.(\w+)/g, '$1');
}

function workerSource(): string {
  return `
const { workerData } = require('node:worker_threads');
${sourceOf(distanceKernel)}
${sourceOf(heightPerspectiveKernel)}
${sourceOf(heightOrthographicKernel)}
${sourceOf(areaPerspectiveKernel)}
${sourceOf(areaOrthographicKernel)}
${sourceOf(decideDescending)}
${sourceOf(decideAscending)}
const VB = 32, SP_OFFSET = 0;
${sourceOf(classify)}
${sourceOf(clusterInterval)}
${sourceOf(uniformLevel)}
${sourceOf(hideCluster)}
${sourceOf(clusterMetric)}
${sourceOf(processCluster)}
${sourceOf(clusterChunk)}
${sourceOf(decideDescendingMapped)}
${sourceOf(decideAscendingMapped)}
${sourceOf(decideDescendingSingle)}
const d = workerData;
const st = {
  spheres: d.spheres, profileIds: d.profileIds, flags: d.flags, forced: d.forced, levels: d.levels, blend: d.blend,
  sizes: d.sizes, lastChange: d.lastChange, changed: d.changed, changedCount: 0, work: d.work, weights: new Float64Array(0),
  next: new Uint8Array(0), fixed: new Uint8Array(0), stride: d.stride, thresholds: d.thresholds,
  blendThresholds: d.blendThresholds, thresholdCount: d.thresholdCount, blendCount: d.blendCount,
  levelCount: d.levelCount, metricCode: d.metricCode, costs: d.costs, errors: new Float64Array(0),
  qualityFloor: new Uint8Array(0), lo: d.lo, hi: d.hi, floor: new Uint8Array(0),
  bias: 0.5, hysteresis: 0.5, minFrames: 0, frame: 0, code: 0, filter: false,
  levelCounts: new Uint32Array(d.stride), totalCost: 0.5, minimumCost: 0.5, invalid: 0, hidden: 0,
  thresholds4: d.thresholds4, blendThresholds4: d.blendThresholds4, countScratch: new Uint32Array(d.stride),
  uMin: 256, uMax: -1, uFrac: 0, clustersCulled: 0, clustersSkipped: 0, objectsEvaluated: 0,
};
const c = d.clusters;
const ci = c === null ? null : {
  slotId: c.slotId, workS: c.workS, sp: c.sp, profS: c.profS, flagsS: c.flagsS, forcedS: c.forcedS, levelsS: c.levelsS,
  blendS: c.blendS, start: c.start, end: c.end, profile: c.profile, bounds: c.bounds, live: c.live,
  forcedCount: c.forcedCount, state: c.state, wasm: null, workOffset: 0, sizesS: c.sizesS, sizesInSlots: false, sizesDirty: null, markSizes() {}, // (the calling thread marks: sizesAllDirty)
};
const cv = c === null ? null : {
  count: 0, cull: true, exactSizes: false, mask: 0, block: c.block, planes: [], kv: [],
  klass: new Uint8Array(${MAX_THREADED_VIEWS}), scr: new Float64Array(4), eyeMagnitude: 0.5,
};
if (cv !== null) for (let v = 0; v < ${MAX_THREADED_VIEWS}; v++) {
  cv.planes.push(c.planes.subarray(v * 24, v * 24 + 24));
  cv.kv.push(c.kv.subarray(v * 8, v * 8 + 8));
}
const ctrl = d.ctrl, params = d.params, results = d.results, index = d.index, stride = d.stride;
const claim = d.claim, done = d.done, chunkResults = d.chunkResults;
const planes = [], views = [];
for (let v = 0; v < ${MAX_THREADED_VIEWS}; v++) {
  planes.push(params.subarray(${HEADER} + v * ${VIEW_SLOTS}, ${HEADER} + v * ${VIEW_SLOTS} + 24));
  views.push(params.subarray(${HEADER} + v * ${VIEW_SLOTS} + 24, ${HEADER} + v * ${VIEW_SLOTS} + 32));
}
let seq = 0;
for (;;) {
  Atomics.wait(ctrl, 0, seq);
  seq = Atomics.load(ctrl, 0);
  if (seq < 0) break;
  const start = d.starts[index], end = d.ends[index];
  st.bias = params[0]; st.hysteresis = params[1]; st.minFrames = params[2]; st.frame = params[3];
  const cull = params[4] !== 0, viewCount = params[5], mask = params[6];
  const mixed = (mask & (mask - 1)) !== 0;
  st.changedCount = start; st.totalCost = 0; st.minimumCost = 0; st.invalid = 0; st.hidden = 0;
  st.levelCounts.fill(0);
  st.clustersCulled = 0; st.clustersSkipped = 0; st.objectsEvaluated = 0;
  if (params[7] === 1) {
    // Dynamic claiming: chunk j = clusters [j·size, (j+1)·size), its changed ids written from the
    // chunk's first slot on, its stats into results row j, then done[j] = 1. The frame's values are
    // read after each successful claim: a claim can only succeed in the frame that is live (the
    // main thread resets the word after every chunk of the previous frame is done), so a worker
    // that woke for an earlier frame and was descheduled still processes a chunk correctly.
    for (;;) {
      // (the worker seam: a closed gate keeps this worker from claiming, also a claim it makes late,
      // after its frame ended, which would land in the next frame)
      while (Atomics.load(ctrl, ${GATE}) !== 0) Atomics.wait(ctrl, ${GATE}, 1);
      const v = Atomics.add(claim, 0, 1), j = v & 0xffff;
      if (j >= v >>> 16) break;
      Atomics.add(ctrl, ${WORKER_CLAIMS}, 1);
      Atomics.notify(ctrl, ${WORKER_CLAIMS});
      st.bias = params[0]; st.hysteresis = params[1]; st.minFrames = params[2]; st.frame = params[3];
      cv.count = params[5]; cv.cull = params[4] !== 0; cv.mask = params[6];
      cv.exactSizes = c.scalars[0] !== 0; cv.eyeMagnitude = c.scalars[1]; ci.sizesInSlots = c.scalars[2] !== 0;
      const clusterCount = params[8], size = params[9];
      const from = j * size, to = from + size < clusterCount ? from + size : clusterCount;
      const first = ci.start[from];
      st.changedCount = first; st.totalCost = 0; st.minimumCost = 0; st.invalid = 0; st.hidden = 0;
      st.clustersCulled = 0; st.clustersSkipped = 0; st.objectsEvaluated = 0;
      st.levelCounts.fill(0);
      // (the seam's hold: until the calling thread has claimed the rest of this frame's chunks)
      if (Atomics.load(ctrl, ${HOLD}) !== 0) while (Atomics.load(ctrl, ${RELEASE}) === 0) Atomics.wait(ctrl, ${RELEASE}, 0);
      clusterChunk(st, ci, cv, from, to, false);
      const r = j * (${RESULT_HEAD} + stride);
      chunkResults[r] = st.changedCount - first; chunkResults[r + 1] = st.totalCost; chunkResults[r + 2] = st.minimumCost;
      chunkResults[r + 3] = st.invalid; chunkResults[r + 4] = st.hidden;
      chunkResults[r + 5] = st.clustersCulled; chunkResults[r + 6] = st.clustersSkipped; chunkResults[r + 7] = st.objectsEvaluated;
      for (let l = 0; l < stride; l++) chunkResults[r + ${RESULT_HEAD} + l] = st.levelCounts[l];
      Atomics.store(done, j, 1);
      Atomics.notify(done, j);
    }
    continue;
  }
  for (let code = 0; code < 4; code++) {
    if (!(mask & (1 << code))) continue;
    for (let v = 0; v < viewCount; v++) {
      const mode = v === 0 ? 0 : code === 0 ? 2 : 1;
      const persp = params[${HEADER} + v * ${VIEW_SLOTS} + 32] !== 0;
      const pl = planes[v], vp = views[v];
      if (code === 0) distanceKernel(st.spheres, start, end, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
      else if (code === 3) {
        if (persp) areaPerspectiveKernel(st.spheres, start, end, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
        else areaOrthographicKernel(st.spheres, start, end, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
      } else if (persp) heightPerspectiveKernel(st.spheres, start, end, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
      else heightOrthographicKernel(st.spheres, start, end, st.work, mode, pl, vp, cull, st.profileIds, st.metricCode, code, mixed);
    }
    st.code = code; st.filter = mixed;
    if (code === 0) decideAscending(st, start, end, st.levels, true);
    else decideDescending(st, start, end, st.levels, true);
  }
  const r = index * (${RESULT_HEAD} + stride);
  results[r] = st.changedCount - start; results[r + 1] = st.totalCost; results[r + 2] = st.minimumCost;
  results[r + 3] = st.invalid; results[r + 4] = st.hidden;
  results[r + 5] = 0; results[r + 6] = 0; results[r + 7] = 0;
  for (let l = 0; l < stride; l++) results[r + ${RESULT_HEAD} + l] = st.levelCounts[l];
  Atomics.store(ctrl, index, seq);
  Atomics.notify(ctrl, index);
}
`;
}

/** Node's `Worker` class, or a clear error where there is none (browsers, other runtimes). */
function nodeWorkerClass(): typeof Worker {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const module = typeof getBuiltin === 'function' ? getBuiltin('node:worker_threads') as { Worker?: typeof Worker } | undefined : undefined;
  if (!module?.Worker) throw new RangeError('LodSet.setThreads: worker threads need Node.js ≥ 20.16 (node:worker_threads)');
  if (typeof SharedArrayBuffer !== 'function') throw new RangeError('LodSet.setThreads: SharedArrayBuffer is not available');
  return module.Worker;
}

/** A pool of worker threads bound to one set's shared storage. @category Batch */
export class LodThreads {
  readonly workers: Worker[] = [];
  readonly ctrl = new Int32Array(new SharedArrayBuffer(4 * 68));
  /** Clustered frames: the claim word, next chunk index (low 16 bits) and chunk count (high 16 bits). */
  readonly claim = new Int32Array(new SharedArrayBuffer(4));
  /** Clustered frames: 1 once a worker finished chunk j (reset by the main thread before each frame). */
  readonly done = new Int32Array(new SharedArrayBuffer(4 * MAX_CHUNKS));
  /** Clustered frames: per chunk a worker did, its changes count, stats and level counts (`RESULT_HEAD + stride` each). */
  readonly chunkResults: Float64Array;
  /** Main-thread bookkeeping: 1 for the chunks it did itself, and their change counts. */
  readonly mine = new Uint8Array(MAX_CHUNKS);
  readonly mineChanges = new Int32Array(MAX_CHUNKS);
  /** Chunks of the last clustered frame, and how many of them the calling thread did. */
  lastChunks = 0;
  lastMainChunks = 0;
  /** The worker seam's schedule (tests and the bench; 'free' in use). */
  private schedule: WorkerSchedule = 'free';
  readonly params = new Float64Array(new SharedArrayBuffer(8 * (HEADER + MAX_THREADED_VIEWS * VIEW_SLOTS)));
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly results: Float64Array;
  private seq = 0;

  /** Starts `workerCount` workers over the (shared) arrays of `st`. */
  constructor(readonly workerCount: number, st: FrameState, ci: ClusterIndex | null, cv: ClusterViews | null) {
    const stride = st.stride;
    this.starts = new Int32Array(new SharedArrayBuffer(4 * (workerCount + 1)));
    this.ends = new Int32Array(new SharedArrayBuffer(4 * (workerCount + 1)));
    this.results = new Float64Array(new SharedArrayBuffer(8 * (workerCount + 1) * (RESULT_HEAD + stride)));
    this.chunkResults = new Float64Array(new SharedArrayBuffer(8 * MAX_CHUNKS * (RESULT_HEAD + stride)));
    const source = workerSource();
    const WorkerClass = nodeWorkerClass();
    for (let w = 0; w < workerCount; w++) {
      const worker = new WorkerClass(source, {
        eval: true,
        workerData: {
          index: w + 1, ctrl: this.ctrl, params: this.params, results: this.results, starts: this.starts, ends: this.ends,
          claim: this.claim, done: this.done, chunkResults: this.chunkResults,
          spheres: st.spheres, profileIds: st.profileIds, flags: st.flags, forced: st.forced, levels: st.levels,
          blend: st.blend, sizes: st.sizes, lastChange: st.lastChange, changed: st.changed, work: st.work,
          stride, thresholds: st.thresholds, blendThresholds: st.blendThresholds, thresholdCount: st.thresholdCount,
          blendCount: st.blendCount, levelCount: st.levelCount, metricCode: st.metricCode, costs: st.costs,
          lo: st.lo, hi: st.hi, thresholds4: st.thresholds4, blendThresholds4: st.blendThresholds4,
          clusters: ci === null || cv === null ? null : {
            slotId: ci.slotId, workS: ci.workS, sp: ci.sp, profS: ci.profS, flagsS: ci.flagsS, forcedS: ci.forcedS,
            levelsS: ci.levelsS, blendS: ci.blendS, start: ci.start, end: ci.end, profile: ci.profile, bounds: ci.bounds,
            live: ci.live, forcedCount: ci.forcedCount, state: ci.state, sizesS: ci.sizesS,
            block: cv.sharedBlock, planes: cv.sharedPlanes, kv: cv.sharedKv, scalars: cv.scalars,
          },
        },
      });
      worker.unref();
      this.workers.push(worker);
    }
  }

  /** Writes the frame's shared parameters (views already packed by the caller). */
  get parameterBlock(): Float64Array {
    return this.params;
  }

  /** Offset of view `v` in the parameter block: planes at +0, view params at +24, perspective flag at +32. */
  static viewOffset(v: number): number {
    return HEADER + v * VIEW_SLOTS;
  }

  /** Splits `[0, n)` into `workerCount + 1` ranges; returns the end of the main thread's range. */
  split(n: number): number {
    const parts = this.workerCount + 1;
    const chunk = Math.ceil(n / parts);
    for (let k = 0; k < parts; k++) {
      this.starts[k] = Math.min(n, k * chunk);
      this.ends[k] = Math.min(n, (k + 1) * chunk);
    }
    return this.ends[0];
  }

  /** Wakes the workers (parameters must be written). */
  start(): void {
    this.seq = (this.seq + 1) & 0x3fffffff;
    Atomics.store(this.ctrl, 0, this.seq);
    Atomics.notify(this.ctrl, 0);
  }

  /** Blocks until every worker finished the current frame. */
  wait(): void {
    for (let w = 1; w <= this.workerCount; w++) {
      let v: number;
      while ((v = Atomics.load(this.ctrl, w)) !== this.seq) Atomics.wait(this.ctrl, w, v);
    }
  }

  /**
   * Opens `chunks` chunks for claiming (the parameter block must be written): clears their done
   * flags, then publishes the claim word. Every chunk of the previous frame is done by now, so no
   * worker writes a done flag of the old frame after the reset.
   */
  openChunks(chunks: number): void {
    this.done.fill(0, 0, chunks);
    this.mine.fill(0, 0, chunks);
    // The seam's per-frame words, before any claim of this frame can succeed.
    Atomics.store(this.ctrl, WORKER_CLAIMS, 0);
    Atomics.store(this.ctrl, RELEASE, 0);
    Atomics.store(this.claim, 0, chunks << 16);
    this.lastChunks = chunks;
    this.lastMainChunks = 0;
  }

  /**
   * After {@link start}: under the 'first' and 'holdFirst' schedules, blocks until a worker has
   * claimed a chunk of this frame (no chunk is claimed by the calling thread before, so one will).
   */
  awaitWorkerClaim(): void {
    if (this.schedule !== 'first' && this.schedule !== 'holdFirst') return;
    // A worker kept at the gate by 'absent' frames passes it only now, inside this live frame.
    Atomics.store(this.ctrl, GATE, 0);
    Atomics.notify(this.ctrl, GATE);
    while (Atomics.load(this.ctrl, WORKER_CLAIMS) === 0) Atomics.wait(this.ctrl, WORKER_CLAIMS, 0);
  }

  /** After the calling thread's claims: lets a worker holding its first chunk ('holdFirst') finish it. */
  releaseHeldChunk(): void {
    if (this.schedule !== 'holdFirst') return;
    Atomics.store(this.ctrl, RELEASE, 1);
    Atomics.notify(this.ctrl, RELEASE);
  }

  /** Claims the next chunk for the calling thread; −1 once all are claimed. */
  claimChunk(): number {
    const v = Atomics.add(this.claim, 0, 1), j = v & 0xffff;
    if (j >= v >>> 16) return -1;
    this.mine[j] = 1;
    this.lastMainChunks++;
    return j;
  }

  /** Blocks until a worker finished chunk `j` (one it claimed: the wait is one chunk's work at most). */
  waitChunk(j: number): void {
    while (Atomics.load(this.done, j) === 0) Atomics.wait(this.done, j, 0);
  }

  /**
   * The worker seam: how the workers take part in the following clustered frames, so that tests
   * (and the bench) get the same chunk split on every run instead of the scheduler's.
   * - 'free': as in use, the threads race for the chunks.
   * - 'absent': the workers wait at a gate before any claim (a worker descheduled for frames):
   *   the calling thread does every chunk. A worker stopped there stays there, inside the
   *   frame it woke for, until another schedule opens the gate.
   * - 'first': the calling thread claims only once a worker has claimed a chunk of the frame:
   *   every threaded frame has worker chunks. The gate opens inside the frame, so a worker kept
   *   there since an earlier frame joins this one with the parameters of the frame it woke for
   *   long gone (it must read the live frame's).
   * - 'holdFirst': 'first', and the worker holds its first chunk until the calling thread has
   *   claimed every other one: the calling thread then awaits exactly that chunk (a worker
   *   descheduled mid-chunk). With one worker the calling thread does all chunks but one, also
   *   when the worker's claim is a late one from the frame before (the hold is per frame).
   * @internal
   */
  setWorkerSchedule(schedule: WorkerSchedule): void {
    this.schedule = schedule;
    Atomics.store(this.ctrl, HOLD, schedule === 'holdFirst' ? 1 : 0);
    if (schedule === 'absent') Atomics.store(this.ctrl, GATE, 1);
    else if (schedule === 'free') { Atomics.store(this.ctrl, GATE, 0); Atomics.notify(this.ctrl, GATE); }
    // ('first' and 'holdFirst' open the gate inside the next threaded frame: awaitWorkerClaim)
  }

  /** Ends the workers. */
  dispose(): void {
    Atomics.store(this.ctrl, GATE, 0); // (a worker at the gate goes on to see the end)
    Atomics.notify(this.ctrl, GATE);
    Atomics.store(this.ctrl, 0, -1);
    Atomics.notify(this.ctrl, 0);
    for (const w of this.workers) void w.terminate();
    this.workers.length = 0;
  }
}
