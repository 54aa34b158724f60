/**
 * The life of worker-thread mode (`LodSet.setThreads(n)`, n > 1) as the always-loaded set sees
 * it: the runtime check, loading the mode itself (threadMode.ts, with drivers/threads.ts and the
 * thread chooser) by a dynamic `import()` the first time a set asks for threads, (re)starting and
 * ending the workers, and the pinned schedule of tests and the bench.
 *
 * Contributor notes:
 * - Import nothing here that is thread-specific (type imports aside): an app that never calls
 *   `setThreads(n > 1)` never loads threadMode.ts, and a browser bundle keeps it in a chunk of its
 *   own (test/release/threadsChunk.test.ts).
 * - Before the module has arrived a set runs every frame on the calling thread, which is correct
 *   (threads only split the work). On arrival it starts the workers of the sets that still want
 *   them (`threadCount > 1`, profiles, none started): a `setThreads(1)` or `dispose()` in between
 *   drops the load's result, so no worker is left running. Once it has arrived, every later start
 *   is synchronous, as before.
 * - An error starting the workers after the load (a missing worker file, lodkit bundled into a
 *   script) is kept and thrown by the set's next `update` (frameDispatch.ts), not lost in a promise;
 *   the set goes on with one thread.
 * - {@link threadModeArrival} is what the engine seam's `threadModeLoaded` awaits.
 *
 * @module
 */
import type { WorkerSchedule } from './core/threadChooser.js';
import { workerThreadsModule } from './core/threadSupport.js';
import type { SetEngine, ThreadOps } from './setEngine.js';

/** The thread module's object once it has arrived (one per process), and its pending load. */
let loaded: ThreadOps | null = null;
let loading: Promise<ThreadOps> | null = null;

/** Throws a RangeError where worker threads cannot run (browsers, no `SharedArrayBuffer`): `setThreads(n > 1)` checks it first. */
export function checkThreadSupport(): void {
  workerThreadsModule();
}

/** Ends the workers, if any, and starts new ones when the set runs more than one thread and has profiles (once the thread module has arrived). */
export function restartThreads(e: SetEngine): void {
  if (e.threads !== null) { e.threads.dispose(); e.threads = null; }
  if (e.threadCount <= 1) return;
  if (loaded !== null) {
    e.threadOps = loaded;
    if (e.table.count > 0) loaded.start(e);
  } else if (e.threadLoad === null) {
    loading ??= import('./threadMode.js').then((m) => (loaded = m.threadMode));
    e.threadLoad = loading.then((ops) => arrived(e, ops), (error: unknown) => { loading = null; failed(e, error); });
  }
}

/** The thread module has arrived: starts the set's workers unless `setThreads(1)` / `dispose()` came first (or they run already). */
function arrived(e: SetEngine, ops: ThreadOps): void {
  e.threadLoad = null;
  if (e.threadCount <= 1 || e.threads !== null) return;
  e.threadOps = ops;
  if (e.table.count === 0) return; // (the first addProfile starts them)
  try { ops.start(e); } catch (error) { e.threadError = error; }
}

/** The thread module did not load: the set's next update says why (unless it no longer wants threads). */
function failed(e: SetEngine, error: unknown): void {
  e.threadLoad = null;
  if (e.threadCount > 1) e.threadError = error;
}

/** Ends the workers, if any (the set keeps working single-threaded; a pending start is dropped). */
export function disposeThreads(e: SetEngine): void {
  if (e.threads !== null) { e.threads.dispose(); e.threads = null; }
  e.threadCount = 1;
  e.threadError = null;
}

/**
 * Pins the thread split (`LodSet.setThreadSchedule`, engineSeam.ts `setThreadSchedule`): `frames`
 * chooses between threaded and single-thread clustered frames ('adaptive': threadChooser.ts),
 * `workers` how the workers take part in threaded ones (`LodThreads.setWorkerSchedule`). Kept on
 * the engine: workers started later (after the thread module arrives, after growth) take it too.
 */
export function scheduleThreads(e: SetEngine, frames: 'adaptive' | 'threaded' | 'single', workers: WorkerSchedule): void {
  e.threadFrames = frames === 'adaptive' ? 0 : frames === 'threaded' ? 2 : 1;
  e.workerSchedule = workers;
  if (e.threadMode !== null) e.threadMode.forced = e.threadFrames;
  if (e.threads !== null) e.threads.setWorkerSchedule(workers);
}

/** Settles once the thread module a set asked for has arrived and its workers (if it still wants them) have started; at once when nothing is pending. */
export function threadModeArrival(e: SetEngine): Promise<void> {
  return e.threadLoad ?? Promise.resolve();
}
