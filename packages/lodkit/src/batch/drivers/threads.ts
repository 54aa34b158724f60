/**
 * Worker-thread mode of the thresholds policy: one update split into contiguous id ranges, one per
 * thread, over `SharedArrayBuffer`-backed storage. The main thread computes the first range itself
 * and waits for the workers with `Atomics.wait`, so `LodSet.update` stays synchronous.
 *
 * Contributor notes:
 * - Bit-identical by construction: every thread runs the very same kernel functions on its own
 *   objects, and objects do not interact under the thresholds policy. The workers run
 *   threadWorker.ts, a module of its own that imports those functions (the kernels, the cluster
 *   pass), so there is no second copy of the code; the shared-memory layout both sides use is
 *   threadProtocol.ts.
 * - The worker module is found beside this one at run time: `new Worker(new URL('threadWorker.js',
 *   import.meta.url))`, the file name in a variable, so browser bundlers neither bundle the
 *   worker nor rewrite the URL (threaded mode is Node-only). Running from the TypeScript source
 *   (vitest), the workers start from the built package's dist/ ({@link threadWorkerUrl}); a
 *   missing worker file is a RangeError when the workers start (`setThreads` on a set with
 *   profiles, or its first `addProfile`), not a frame waiting for a worker forever.
 * - Each chunk writes its changed ids into `changed[first …)` of its own ids or slots (a chunk of k
 *   objects has at most k changes); the main thread compacts them in chunk order, which is the
 *   single-thread order. Stats are summed per chunk (integer costs sum exactly in any order).
 * - Other policies run single-threaded: rank quotas and budgets are global selections.
 * - Clustered thresholds frames (the default) cut the clusters into up to `MAX_CHUNKS` chunks of
 *   at least `MIN_CHUNK_CLUSTERS` clusters, `clusters: false` frames the ids into chunks of at
 *   least `MIN_CHUNK_OBJECTS`; every thread, the calling one included, claims the next
 *   chunk with one `Atomics.add` on a shared word until none is left. The calling thread never
 *   waits for a worker that has claimed nothing (a late or descheduled worker just finds the chunks
 *   gone), only for the chunks a worker holds: a worker can cost a frame at most about one chunk.
 *   The workers run the same cluster functions (imported the same way) on the shared
 *   `ClusterIndex` arrays, with the JavaScript metric kernels (a WebAssembly memory is not shared).
 *   `LodSet` still times threaded against single-thread clustered frames and runs the faster (two
 *   threads can lose to one on memory bandwidth or when a worker keeps getting descheduled
 *   mid-chunk). A worker that never starts (or failed to load) therefore never stalls a frame.
 * - Workers are `unref()`ed and blocked in `Atomics.wait` between frames; `dispose()` ends them.
 * - `node:worker_threads` is looked up at run time (`process.getBuiltinModule`, core/threadSupport.ts),
 *   never imported: the core entry point must load in browsers and bundlers, where threaded mode is
 *   simply unavailable. This module itself is loaded only by `setThreads(n > 1)` (a dynamic
 *   `import()` of threadMode.ts, workerMode.ts), so browser bundles keep it in a chunk never loaded.
 *
 * @module
 */
import type { Worker } from 'node:worker_threads';
import type { FrameState } from '../core/frameState.js';
import type { WorkerSchedule } from '../core/threadChooser.js';
import { nodeBuiltin, workerThreadsModule } from '../core/threadSupport.js';
import type { ClusterIndex } from '../spatial/clusters.js';
import type { ClusterViews } from '../spatial/clusterViews.js';
import {
  CTRL_WORDS, GATE, HEADER, HOLD, MAX_THREADED_VIEWS, RELEASE, RESULT_HEAD, THREAD_WORKER_TAG, VIEW_SLOTS, WORKER_CLAIMS,
  type ThreadWorkerData,
} from './threadProtocol.js';

export { MAX_THREADED_VIEWS, RESULT_HEAD } from './threadProtocol.js';

/** Most chunks a clustered frame is cut into (the claim word holds the index and count in 16 bits each). */
export const MAX_CHUNKS = 1024;
/**
 * Fewest clusters per chunk: 32 clusters (≈ 2k objects, ≈ 20–60 µs of per-object work) keep the
 * wait for a chunk a worker holds short while the claims (one `Atomics.add` each) stay negligible.
 */
export const MIN_CHUNK_CLUSTERS = 32;
/** Fewest ids per chunk of a `clusters: false` frame (as many objects as 32 full clusters). */
export const MIN_CHUNK_OBJECTS = 2048;

/** The worker module's file, beside this module in the build (a variable: bundlers follow no literal `new URL`). */
const WORKER_FILE = 'threadWorker.js';

/**
 * The URL of the worker module for a copy of this module at `here` (its `import.meta.url`): the
 * built `threadWorker.js` beside it; when this module runs from its TypeScript source (`.ts`:
 * vitest, the Vite dev server), the built one of the same folder under the package's `dist/` —
 * Node 20 cannot start a worker from a `.ts` file, and a worker loads plain Node modules, not
 * the test runner's. Tests that start workers from source check that dist/ is fresh
 * (test/helpers/dist.ts `assertFreshDist`).
 * @internal
 */
export function threadWorkerUrl(here: string): URL {
  const url = new URL(WORKER_FILE, here);
  if (!new URL(here).pathname.endsWith('.ts')) return url;
  const at = url.pathname.lastIndexOf('/src/');
  if (at < 0) throw new RangeError(`LodSet.setThreads: cannot find the built worker for ${here} (no /src/ folder)`);
  url.pathname = `${url.pathname.slice(0, at)}/dist/${url.pathname.slice(at + 5)}`;
  return url;
}

/**
 * The worker module's URL, after checking that the file is there (a worker that fails to load would
 * leave a frame waiting for it). `import.meta` is read once: a bundle in a non-module format (IIFE,
 * CommonJS) gets `{}` there, and a warning from its bundler for this one line.
 */
function workerModule(): URL {
  const here: unknown = import.meta.url;
  if (typeof here !== 'string') throw new RangeError('LodSet.setThreads: worker threads need lodkit loaded as ES modules (its dist/ files), not bundled into a script');
  const url = threadWorkerUrl(here);
  const fs = nodeBuiltin<{ existsSync(path: URL): boolean }>('node:fs');
  if (fs !== undefined && url.protocol === 'file:' && !fs.existsSync(url)) {
    const fromSource = new URL(here).pathname.endsWith('.ts');
    throw new RangeError(`LodSet.setThreads: the worker module ${url.href} is missing${fromSource ? ' (running from source: build the package first, npm run build -w lodkit)' : ' (an app bundled for Node must leave lodkit external: the workers load its dist/ files)'}`);
  }
  return url;
}

/** A pool of worker threads bound to one set's shared storage. @category Batch */
export class LodThreads {
  readonly workers: Worker[] = [];
  readonly ctrl = new Int32Array(new SharedArrayBuffer(4 * CTRL_WORDS));
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
  private seq = 0;

  /** Starts `workerCount` workers over the (shared) arrays of `st`. */
  constructor(readonly workerCount: number, st: FrameState, ci: ClusterIndex | null, cv: ClusterViews | null) {
    const stride = st.stride;
    this.chunkResults = new Float64Array(new SharedArrayBuffer(8 * MAX_CHUNKS * (RESULT_HEAD + stride)));
    const WorkerClass = workerThreadsModule<{ Worker?: typeof Worker }>().Worker; // (a RangeError where there is none)
    const url = workerModule();
    for (let w = 0; w < workerCount; w++) {
      const workerData: ThreadWorkerData = {
        tag: THREAD_WORKER_TAG, index: w + 1, ctrl: this.ctrl, params: this.params,
        claim: this.claim, done: this.done, chunkResults: this.chunkResults,
        spheres: st.spheres, profileIds: st.profileIds, flags: st.flags, forced: st.forced, levels: st.levels,
        blend: st.blend, sizes: st.sizes, lastChange: st.lastChange, changed: st.changed, work: st.work,
        stride, thresholds: st.thresholds, blendThresholds: st.blendThresholds, thresholdCount: st.thresholdCount,
        blendCount: st.blendCount, levelCount: st.levelCount, metricCode: st.metricCode, costs: st.costs,
        lo: st.lo, hi: st.hi, thresholds4: st.thresholds4, blendThresholds4: st.blendThresholds4,
        bands: st.bands, banded: st.banded, anyBands: st.anyBands,
        clusters: ci === null || cv === null ? null : {
          slotId: ci.slotId, workS: ci.workS, sp: ci.sp, profS: ci.profS, flagsS: ci.flagsS, forcedS: ci.forcedS,
          levelsS: ci.levelsS, blendS: ci.blendS, start: ci.start, end: ci.end, profile: ci.profile, bounds: ci.bounds,
          live: ci.live, forcedCount: ci.forcedCount, state: ci.state, sizesS: ci.sizesS,
          block: cv.sharedBlock, planes: cv.sharedPlanes, kv: cv.sharedKv, scalars: cv.scalars,
        },
      };
      const worker = new WorkerClass(url, { workerData });
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

  /** Wakes the workers (parameters must be written). */
  start(): void {
    this.seq = (this.seq + 1) & 0x3fffffff;
    Atomics.store(this.ctrl, 0, this.seq);
    Atomics.notify(this.ctrl, 0);
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
