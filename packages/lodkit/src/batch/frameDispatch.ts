/**
 * One `LodSet.update`, in order: validate the arguments; load the frame's options (frameSetup.ts)
 * and size the policy's scratch; settle or keep the deferred outputs (owed sizes and blends, sizes
 * in slot order: outputs/); run the policy's frame driver — thresholds here, over the clusters
 * (clusterDrivers.ts) or per object (`clusters: false`, policyDrivers.ts), with workers through
 * the engine's `threadOps` (threadMode.ts, loaded on demand); the other policies through their objects
 * (policyModules.ts, found by policyEngine.ts); then copy the frame's stats out.
 *
 * Contributor notes:
 * - Called once per frame: no allocation here (test/batch/allocation.test.ts), and every driver
 *   call site sees one argument shape (the engine's fields), so V8 keeps them monomorphic.
 *
 * @module
 */
import { settleBlends } from './outputs/owedBlends.js';
import { owedBeforeFrame } from './outputs/owedSizes.js';
import { placeSizes } from './outputs/slotSizes.js';
import { thresholdPass } from './drivers/policyDrivers.js';
import { clusteredThresholds } from './drivers/clusterDrivers.js';
import { beginFrame } from './drivers/frameSetup.js';
import { LOD_UPDATE_DEFAULTS, type LodFrameStats, type LodUpdateOptions, type EngineView } from './core/updateOptions.js';
import { validateUpdate } from './updateValidation.js';
import { ensureScratch } from './objectStorage.js';
import { noteFrameCost, resolveBudget } from './frameTimeTarget.js';
import type { SetEngine, ThreadOps } from './setEngine.js';
import { policyEngine, resolvePolicy } from './policyEngine.js';

/** Runs one frame of the set whose engine is `e` (see `LodSet.update`) and returns its stats object. */
export function runFrame(e: SetEngine, views: EngineView | readonly EngineView[], options: LodUpdateOptions): LodFrameStats {
  if (e.threadError !== null) throwThreadError(e);
  const single = views != null && (views as EngineView).frustum !== undefined;
  const viewCount = single ? 1 : (views as readonly EngineView[] | null)?.length ?? 0;
  if (options == null || typeof options !== 'object') throw new TypeError('LodSet.update: options must be an object');
  const module = resolvePolicy(options.policy, 'LodSet.update'); // (null: thresholds)
  const policy = module === null ? 'thresholds' : module.name;
  validateUpdate(e.table, e.used, views, single, viewCount, options, policy);
  const budget = resolveBudget(e, options, module); // (a frame-time target goes through the governor)
  if (e.ci.wasm === null) e.ci.attachKernel(); // (the WebAssembly kernels, once compiled: wasmKernels.ts)
  const st = e.st, table = e.table, sse = e.sse;
  const cull = options.cull ?? LOD_UPDATE_DEFAULTS.cull;
  beginFrame(st, table, sse, views, single, viewCount, options, ++e.frame);
  ensureScratch(st, table, sse, e.capacity, policy);

  const n = e.used;
  const threadInfo = e.threadInfo; // (threadMode.ts fills it for a threaded frame)
  threadInfo.threaded = false; threadInfo.chunks = 0; threadInfo.callingThreadChunks = 0;
  // Every policy uses the clusters, also with ids in random spatial order (bench/RESULTS.md).
  const clustered = options.clusters ?? LOD_UPDATE_DEFAULTS.clusters;
  const ci = e.ci, cv = e.cv;
  const exactSizes = options.exactSizes ?? LOD_UPDATE_DEFAULTS.exactSizes;
  owedBeforeFrame(ci, st.sizes, clustered && st.minFrames === 0 && module !== null && policyEngine(module).overwritesSizes(e, options));
  // Only clustered thresholds frames (the calling thread's kernel, also while worker threads take
  // chunks) and the first pass of clustered hybrid frames and of budget frames that start with the
  // thresholds' selection add to the owed blends; every other frame reads or writes `blend` by id
  // and gets them first (owedBlends.ts).
  cv.oweBlends = clustered && (module === null || policyEngine(module).owesBlends(e, options));
  if (!cv.oweBlends) settleBlends(ci, st.blend);
  placeSizes(ci, clustered && (module === null || !policyEngine(module).writesSizesById(e, options)), st.sizes, n); // (slotSizes.ts)
  if (module !== null) {
    policyEngine(module).frame(e, views, single, viewCount, cull, clustered, exactSizes, budget, options);
  } else if (e.threads !== null && (e.threadOps as ThreadOps).thresholds(e, views, single, viewCount, cull, clustered, exactSizes)) {
    // (worker-thread mode ran it: threaded, or timed on this thread; threadMode.ts)
  } else if (clustered) {
    clusteredThresholds(st, ci, cv, table, n, views, single, viewCount, cull, exactSizes);
  } else {
    thresholdPass(st, table, views, single, viewCount, cull, 0, n, st.levels, true);
  }
  if (!clustered) ci.invalidateAll(); // levels were written without the clusters' bookkeeping
  if (ci.sizesInSlots) ci.idsFresh = false;

  const stats = e.stats;
  stats.totalCost = st.totalCost;
  stats.changes = st.changedCount;
  stats.minimumCost = st.minimumCost;
  stats.invalid = st.invalid;
  stats.hidden = st.hidden;
  stats.budgetMet = options.budget === undefined || st.totalCost <= budget;
  noteFrameCost(e, options, n - st.hidden - e.freeCount);
  const info = e.clusterInfo;
  info.clusters = ci.count; info.culled = st.clustersCulled; info.skipped = st.clustersSkipped; info.evaluated = st.objectsEvaluated;
  return stats;
}

/** Throws (once) the error that ended the start of the set's workers after the thread module arrived (workerMode.ts). */
function throwThreadError(e: SetEngine): never {
  const error = e.threadError;
  e.threadError = null;
  throw error;
}
