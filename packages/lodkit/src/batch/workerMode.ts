/**
 * Worker-thread mode of a `LodSet` (`setThreads(n)`, n > 1): the workers' lifecycle, the pinned
 * thread schedule of tests and the bench, and the clustered thresholds frame that runs threaded or
 * on the calling thread as threadChooser.ts decides from the frames' own times.
 *
 * Contributor notes:
 * - Workers hold copies of the profile arrays and the cluster arrays: whatever replaces those
 *   (a new profile, growth, a new cluster generation) restarts them (`restartThreads`).
 * - The schedule is kept across `setThreads` and growth; results never depend on it, only the split.
 *
 * @module
 */
import { LodThreads } from './drivers/threads.js';
import { threadedClustered } from './drivers/threadedDrivers.js';
import { clusteredThresholds } from './drivers/clusterDrivers.js';
import type { WorkerSchedule } from './core/threadChooser.js';
import type { LodView } from './core/updateOptions.js';
import type { SetEngine } from './setEngine.js';

/** Ends the workers, if any, and starts new ones when the set runs more than one thread and has profiles. */
export function restartThreads(e: SetEngine): void {
  if (e.threads) { e.threads.dispose(); e.threads = null; }
  if (e.threadCount > 1 && e.table.count > 0) {
    e.threads = new LodThreads(e.threadCount - 1, e.st, e.ci, e.cv);
    e.threads.setWorkerSchedule(e.workerSchedule);
  }
}

/** Ends the workers, if any (the set keeps working single-threaded). */
export function disposeThreads(e: SetEngine): void {
  if (e.threads) { e.threads.dispose(); e.threads = null; }
  e.threadCount = 1;
}

/**
 * Pins the thread split (`LodSet.setThreadSchedule`, engineSeam.ts `setThreadSchedule`): `frames`
 * chooses between threaded and single-thread clustered frames ('adaptive': threadChooser.ts),
 * `workers` how the workers take part in threaded ones (`LodThreads.setWorkerSchedule`).
 */
export function scheduleThreads(e: SetEngine, frames: 'adaptive' | 'threaded' | 'single', workers: WorkerSchedule): void {
  e.threadMode.forced = frames === 'adaptive' ? 0 : frames === 'threaded' ? 2 : 1;
  e.workerSchedule = workers;
  if (e.threads !== null) e.threads.setWorkerSchedule(workers);
}

/** Clustered thresholds frame in worker mode: threaded or not as threadChooser.ts decides from the frames' times. */
export function adaptiveClustered(e: SetEngine, views: LodView | readonly LodView[], single: boolean, viewCount: number, cull: boolean, exactSizes: boolean): void {
  const mode = e.threadMode, threaded = mode.next();
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
