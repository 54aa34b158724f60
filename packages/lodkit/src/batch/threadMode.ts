/**
 * Worker-thread mode of a `LodSet` (`setThreads(n)`, n > 1), the part loaded on demand: starting
 * the workers (drivers/threads.ts), and the thresholds frame over them — clustered frames threaded
 * or on the calling thread as core/threadChooser.ts decides from the frames' own times, per-object
 * frames (`clusters: false`) in chunks of ids (drivers/threadedDrivers.ts).
 *
 * Contributor notes:
 * - Nothing loaded with the package's entry imports this module or what it imports (type imports
 *   aside): workerMode.ts loads it with a dynamic `import()` when a set first asks for threads and
 *   installs {@link threadMode} on the set's engine (`SetEngine.threadOps`), so a browser bundle
 *   keeps it in a chunk it never loads (test/release/threadsChunk.test.ts). Until it has arrived the
 *   set runs every frame on the calling thread (results never depend on the split).
 * - Workers hold copies of the profile arrays and the cluster arrays: whatever replaces those
 *   (a new profile, growth, a new cluster generation) restarts them (workerMode.ts `restartThreads`).
 * - The schedule (`SetEngine.threadFrames`, `workerSchedule`) is kept across `setThreads` and
 *   growth; results never depend on it, only the split.
 *
 * @module
 */
import { LodThreads } from './drivers/threads.js';
import { threadedClustered, threadedThresholds } from './drivers/threadedDrivers.js';
import { clusteredThresholds } from './drivers/clusterDrivers.js';
import { ThreadModeChooser } from './core/threadChooser.js';
import { MAX_THREADED_VIEWS } from './core/threadSupport.js';
import type { EngineView } from './core/updateOptions.js';
import type { SetEngine, ThreadOps } from './setEngine.js';

/** Starts the set's workers (the caller has ended any before; the set runs > 1 thread and has profiles). */
function startThreads(e: SetEngine): void {
  if (e.threadMode === null) e.threadMode = new ThreadModeChooser();
  e.threadMode.forced = e.threadFrames;
  e.threads = new LodThreads(e.threadCount - 1, e.st, e.ci, e.cv);
  e.threads.setWorkerSchedule(e.workerSchedule);
}

/**
 * The thresholds frame of a set with workers: false when it cannot run threaded (more views than
 * {@link MAX_THREADED_VIEWS}, or the view block not shared yet): the caller runs it on one thread.
 */
function thresholdsFrame(e: SetEngine, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, clustered: boolean, exactSizes: boolean): boolean {
  if (viewCount > MAX_THREADED_VIEWS) return false;
  if (clustered) {
    if (!e.cv.isShared) return false;
    adaptiveClustered(e, views, single, viewCount, cull, exactSizes);
    return true;
  }
  const threads = e.threads as LodThreads, info = e.threadInfo;
  threadedThresholds(threads, e.st, e.table, views, single, viewCount, cull, e.used);
  info.threaded = true; info.chunks = threads.lastChunks; info.callingThreadChunks = threads.lastMainChunks;
  return true;
}

/** Clustered thresholds frame in worker mode: threaded or not as threadChooser.ts decides from the frames' times. */
function adaptiveClustered(e: SetEngine, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, exactSizes: boolean): void {
  const mode = e.threadMode as ThreadModeChooser, threaded = mode.next();
  const t0 = performance.now();
  // (threaded or not, the calling thread's kernel owes the blends of its chunks; the workers'
  // JavaScript kernels store at the ids and in the slot copy: owedBlends.ts)
  if (threaded) threadedClustered(e.threads as LodThreads, e.st, e.ci, e.cv, e.table, e.used, views, single, viewCount, cull, exactSizes);
  else clusteredThresholds(e.st, e.ci, e.cv, e.table, e.used, views, single, viewCount, cull, exactSizes);
  mode.ms = performance.now() - t0;
  mode.record(threaded);
  if (threaded) {
    const info = e.threadInfo, t = e.threads as LodThreads;
    info.threaded = true; info.chunks = t.lastChunks; info.callingThreadChunks = t.lastMainChunks;
  }
}

/** What workerMode.ts installs on a set's engine once this module has arrived. */
export const threadMode: ThreadOps = { start: startThreads, thresholds: thresholdsFrame };
