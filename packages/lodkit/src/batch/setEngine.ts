/**
 * The internals of one `LodSet` in one object: its frame state, profile table, spatial clusters,
 * screen-space scratch, worker threads and the bookkeeping of ids and stats. `LodSet` is the
 * public facade over it; the modules beside it (objectStorage.ts, frameDispatch.ts, workerMode.ts,
 * frameTimeTarget.ts) are functions of it, worker-thread mode an object installed on it once loaded
 * ({@link ThreadOps}, threadMode.ts), and the engine seam (engineSeam.ts) hands it to tests
 * and the bench, which used to cast into the set's private fields.
 *
 * Contributor notes:
 * - One class, so every function over it sees one hidden class (monomorphic property loads); the
 *   fields start with the representation they keep (doubles as non-integers, see `stats`).
 * - The set ↔ engine link is a WeakMap written once by the set's constructor: the set keeps its
 *   engine in a private field for the hot path, the map serves the seam only.
 *
 * @module
 */
import type { FrameTimeGovernor } from '../policies/frameTimeGovernor.js';
import { ScreenSpaceScratch } from './passes/screenSpacePasses.js';
import { FrameState } from './core/frameState.js';
import { ProfileTable } from './core/profiles.js';
import type { LodThreads } from './drivers/threads.js';
import { ClusterIndex } from './spatial/clusters.js';
import { ClusterViews } from './spatial/clusterViews.js';
import type { LodClusterStats, LodFrameStats, LodThreadStats, EngineView } from './core/updateOptions.js';
import type { ThreadModeChooser, WorkerSchedule } from './core/threadChooser.js';
import { chosenKernels, type KernelChoice } from './wasm/wasmKernels.js';
import { StillFrames } from './stillFrames.js';

/**
 * Worker-thread mode as the set's frames and lifecycle reach it: threadMode.ts's one object,
 * loaded by `setThreads(n > 1)` (workerMode.ts) and installed as {@link SetEngine.threadOps}.
 * @internal
 */
export interface ThreadOps {
  /** Starts the set's workers (none running; more than one thread; profiles). */
  start(e: SetEngine): void;
  /** Runs the thresholds frame of a set with workers; false when it cannot run threaded (the caller runs it on one thread). */
  thresholds(e: SetEngine, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean, clustered: boolean, exactSizes: boolean): boolean;
}

/**
 * Everything one `LodSet` holds besides its public surface.
 * @internal
 */
export class SetEngine {
  /** The kernel choice in force when the set was built (null: the module defaults), kept for `setThreads`. */
  readonly kernels: KernelChoice | null = chosenKernels();
  /** Object arrays, flattened profiles, the frame's options and stats accumulators. */
  readonly st = new FrameState();
  readonly table = new ProfileTable();
  /** The table layout `st` was last loaded from (frameSetup.ts `loadProfiles`). */
  loadedLayout = -1;
  capacity = 0;
  /** Ids in use are `[0, used)` (a high-water mark). */
  used = 0;
  /** Ids freed by `remove`, reused last-in first-out. */
  freeIds = new Uint32Array(0);
  freeCount = 0;
  frame = 0;
  threadCount = 1;
  /** The workers (threadMode.ts starts them); null with one thread and until the thread module has arrived. */
  threads: LodThreads | null = null;
  /** Worker-thread mode, once loaded (workerMode.ts); never null while `threads` is not. */
  threadOps: ThreadOps | null = null;
  /** The pending load of the thread module this set asked for (workerMode.ts; the engine seam awaits it). */
  threadLoad: Promise<void> | null = null;
  /** An error starting the workers after the load, thrown by the next update (workerMode.ts). */
  threadError: unknown = null;
  /** Screen-space chains of budget and hybrid (issue 14). */
  readonly sse = new ScreenSpaceScratch();
  /** The governor of `budget: { frameMs }` (frameTimeTarget.ts), null before the first such update. */
  governor: FrameTimeGovernor | null = null;
  lastDraws = 0;
  /** Edits of the set so far (objects, spheres, forced levels, hiding, profiles): a still frame has none (stillFrames.ts). */
  edits = 0;
  /** The budget policies' last inputs, for narrowing their band on still frames (stillFrames.ts). */
  readonly still = new StillFrames();
  /** Spatial clusters (built with the WebAssembly kernels `kernels` chose). */
  readonly ci = new ClusterIndex();
  /** Per-view cluster culling state. */
  readonly cv = new ClusterViews();
  /** Threaded or single-thread clustered frames in worker mode (threadChooser.ts; created with the first workers). */
  threadMode: ThreadModeChooser | null = null;
  /** The pinned choice of the schedule (`setThreadSchedule`): 0 adaptive, 1 one thread, 2 threaded (`ThreadModeChooser.forced`). */
  threadFrames = 0;
  readonly clusterInfo: LodClusterStats = { clusters: 0, culled: 0, skipped: 0, evaluated: 0 };
  readonly threadInfo: LodThreadStats = { threaded: false, chunks: 0, callingThreadChunks: 0 };
  workerSchedule: WorkerSchedule = 'free';
  readonly stats: LodFrameStats = {
    // Non-integer starts give the double fields V8's double representation (see FrameState).
    totalCost: 0.5, levelCounts: new Uint32Array(1), changes: 0, budgetMet: true, minimumCost: 0.5, invalid: 0, hidden: 0,
  };
}

const engines = new WeakMap<object, SetEngine>();

/** Links `set` to its engine (once, from the set's constructor). @internal */
export function attachEngine(set: object, engine: SetEngine): void {
  engines.set(set, engine);
}

/** The engine of `set` (a `LodSet`); throws for anything else. @internal */
export function engineOfSet(set: object): SetEngine {
  const engine = engines.get(set);
  if (engine === undefined) throw new TypeError('engine seam: not a LodSet');
  return engine;
}
