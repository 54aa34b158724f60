/**
 * `LodSet`: level-of-detail selection for 100k–1M objects a frame. Objects are bounding spheres in
 * structure-of-arrays typed arrays; one `update()` computes every object's metric against one or
 * more views and chooses levels by a policy — per-object thresholds, MotoGP rank quotas, a cost
 * budget, or thresholds coarsened to fit a budget — with no per-frame allocation.
 *
 * Contributor notes:
 * - Frame pipeline: (1) validate options and views once; (2) one metric kernel per (metric,
 *   projection, view) over the packed spheres into a `Float64Array` (max over views for screen
 *   sizes, min for distances); (3) a decision pass (thresholds + hysteresis + blend, or a classify
 *   pass for the other policies); (4) the policy's solver (`src/policies`); (5) a finalize pass that
 *   writes `levels`, collects changed ids and the stats.
 * - Budget and hybrid (issue 14): the objective is the screen-space error above a tolerance
 *   (`policies/screenSpaceError.ts`), one upgrade chain per object per frame
 *   (`screenSpacePasses.ts`), a stability band around the previous level and last frame's price,
 *   and `budget: { frameMs }` through a `FrameTimeGovernor` fed by `reportFrameTime`.
 * - Layering: the solvers in `src/policies` are pure typed-array algorithms with no import from
 *   here, so this module imports them (policies do not depend on `LodSet`).
 * - Ids: `add` returns the lowest id ever freed by `remove` before growing `count` (a LIFO free
 *   list), so ids of live objects are stable and `count` is a high-water mark. A removed id reports
 *   `HIDDEN_LEVEL`, is skipped by `update` and is not in `changed`.
 * - The arrays (`levels`, `blend`, `sizes`, `changed`) are replaced when the set grows: re-read them
 *   after `add`/`addMany`, never cache them across additions. `sizes` and `blend` are brought up
 *   to date by their getters (slotSizes.ts, owedSizes.ts, owedBlends.ts): read `set.sizes` and
 *   `set.blend` after each update, not a reference kept from before it.
 * - Worker-thread mode (`setThreads(n)`, threads.ts): thresholds updates split into chunks of
 *   clusters the threads claim dynamically (or id ranges with `clusters: false`) over
 *   SharedArrayBuffer storage, identical results; the other policies stay on the calling thread.
 * - Spatial clusters (clusters.ts, clusterPass.ts, mappedKernels.ts): the thresholds policy culls
 *   or skips whole clusters of ≤ 64 objects and runs the per-object kernels elsewhere; the
 *   per-object path (`clusters: false`) is the tests' reference (test/batch/clusters.test.ts).
 *   rankQuota, budget and hybrid hide culled clusters whole and are incremental across frames:
 *   rankQuota selects only near last frame's cut distances (rankCuts.ts), budget and hybrid skip
 *   the chains of objects (and clusters) proven to keep their level (budgetStable.ts,
 *   budgetIncremental.ts, hybridIncremental.ts); both paths give the same levels, blend, sizes,
 *   stats and price (test/batch/clusterPolicies.test.ts, rankCuts/budgetIncremental/hybridIncremental tests).
 * - Scratch arrays for the policies are allocated on the first update that needs them and when
 *   capacity grows, never in a steady-state frame (test/batch/allocation.test.ts).
 * - Modules: this class holds the object ids, the profiles and the dispatch of `update()`; the
 *   per-frame drivers are module functions over its state (policyDrivers.ts per object,
 *   clusterDrivers.ts over the clusters, threadedDrivers.ts in worker-thread mode), the frame's
 *   options go in through frameSetup.ts, storage growth is objectStorage.ts, the public option and
 *   stats types are updateOptions.ts (re-exported here).
 * - Timings: bench/RESULTS.md (1M-tree field, walking ground camera: ≈ 0.5 × a 4-accumulator read
 *   of the sphere array, three.js `LOD.update` ≈ 85–97 × slower per object; the policies' ratios).
 * - The first version ran at 75–130 ns per object and allocated ~1 MB per frame (boxed doubles, deopt
 *   loops); the fixes are recorded in the notes of metricKernels.ts, thresholdKernels.ts,
 *   policyPasses.ts and frameState.ts.
 *
 * @module
 */
// --- issue 14 (screen-space budgets, frame-time target): imports ---
import { FrameTimeGovernor } from '../policies/frameTimeGovernor.js';
import { ScreenSpaceScratch } from './passes/screenSpacePasses.js';
// --- end issue 14 ---
import { FLAG_HIDDEN, FLAG_REMOVED, FrameState, HIDDEN_LEVEL, NO_FORCED_LEVEL } from './core/frameState.js';
import { ProfileTable, validateLodProfile, type LodProfile, type LodProfileOptions } from './core/profiles.js';
import { LodThreads, MAX_THREADED_VIEWS } from './drivers/threads.js';
import { ClusterIndex } from './spatial/clusters.js';
import { ClusterViews } from './spatial/clusterViews.js';
import { warmUpClusteredPath } from './warmUp.js';
import { validateUpdate } from './updateValidation.js';
import {
  LOD_UPDATE_DEFAULTS, type LodClusterStats, type LodFrameStats, type LodThreadStats, type LodUpdateOptions, type LodView,
} from './core/updateOptions.js';
import { budgetPolicy, hybridPolicy, rankQuotaPolicy, thresholdPass } from './drivers/policyDrivers.js';
import { clusteredBudget, clusteredHybrid, clusteredRankQuota, clusteredThresholds } from './drivers/clusterDrivers.js';
import { freshIds, placeSizes, sizesToIds } from './outputs/slotSizes.js';
import { owedBeforeFrame, settleOwed, settleOwedCluster } from './outputs/owedSizes.js';
import { settleBlends } from './outputs/owedBlends.js';
import { refitSupers } from './spatial/blockCulling.js';
import { shareProfileRanges, threadedClustered, threadedThresholds } from './drivers/threadedDrivers.js';
import { ThreadModeChooser, type WorkerSchedule } from './core/threadChooser.js';
import { ensureScratch, growObjectArrays, resetState } from './objectStorage.js';
import { beginFrame, loadProfiles } from './drivers/frameSetup.js';

export { HIDDEN_LEVEL, NO_FORCED_LEVEL } from './core/frameState.js';

export {
  blendLowerLevel, LOD_UPDATE_DEFAULTS, type FrameTimeBudget, type LodClusterStats, type LodFrameStats, type LodPolicy,
  type LodThreadStats, type LodUpdateOptions, type LodView,
} from './core/updateOptions.js';


/**
 * A batch of bounding spheres with LOD profiles, updated once per frame.
 *
 * Output arrays (indexed by id, valid for ids `< count`):
 * - `levels` — the level to draw without blending: OpenUSD's `round(index)`; `HIDDEN_LEVEL` (255)
 *   for hidden, culled and removed objects.
 * - `blend` — the fractional part of OpenUSD's index (`index − floor(index)`), 0 outside blend
 *   windows; a blending renderer draws `blendLowerLevel(level, blend)` and the next level.
 * - `sizes` — the value the policy used: the metric after bias and hysteresis (thresholds, hybrid),
 *   the eye distance (rankQuota), the projected diameter in px clamped to the viewport (budget);
 *   NaN for hidden/invalid. rankQuota and budget: every drawn object's own value, for clusters
 *   decided as a whole computed when first observed (a read, the next update, an edit), bit for
 *   bit what the frame would have written (owedSizes.ts).
 *   Thresholds and hybrid policies with clusters (the default): an object whose cluster was skipped
 *   as a whole (every object provably keeps its level, blend 0; hybrid: its preferred level) keeps
 *   the value of the last frame in which it was evaluated — a value the rule maps to the same level
 *   as this frame's value, outside every blend window — until its cluster is evaluated again (an
 *   object held by hysteresis keeps its value in either case: the rule's previous size).
 *   Pass `exactSizes: true` for every object's own value every frame (slower: no cluster is
 *   skipped; culled clusters still are, their objects' sizes are NaN either way).
 * - `changed[0 … changedCount)` — ids whose `levels` entry changed this frame, in no particular
 *   order (cluster order with clusters, id order on the reference path).
 *
 * @example
 * ```ts
 * import { Frustum, LodSet } from 'lodkit';
 * const set = new LodSet(1024);
 * const bike = set.addProfile({ metric: 'pixels', thresholds: [80, 20], costs: [20000, 5000, 800] });
 * for (let i = 0; i < 20; i++) set.add({ center: [i * 10, 0, -50], radius: 1, profile: bike });
 * const frustum = Frustum.perspective({ fovY: 30, aspect: 16 / 9, near: 0.1, far: 1000 });
 * const stats = set.update({ frustum, viewportHeight: 1080 }, { policy: 'rankQuota', quotas: [4, 6] });
 * for (let k = 0; k < set.changedCount; k++) redraw(set.changed[k], set.levels[set.changed[k]]);
 * ```
 * @category Batch
 */
export class LodSet {
  private readonly st = new FrameState();
  private readonly table = new ProfileTable();
  /** The table layout `st` was last loaded from (frameSetup.ts `loadProfiles`). */
  private loadedLayout = -1;
  private capacity = 0;
  private used = 0;
  private freeIds = new Uint32Array(0);
  private freeCount = 0;
  private frame = 0;
  private threadCount = 1;
  private threads: LodThreads | null = null;
  // --- issue 14: screen-space chains and the frame-time governor ---
  private readonly sse = new ScreenSpaceScratch();
  private governor: FrameTimeGovernor | null = null;
  private lastDraws = 0;
  // --- end issue 14 ---
  private readonly ci = new ClusterIndex();
  private readonly cv = new ClusterViews();
  private readonly threadMode = new ThreadModeChooser();
  private readonly clusterInfo: LodClusterStats = { clusters: 0, culled: 0, skipped: 0, evaluated: 0 };
  private readonly threadInfo: LodThreadStats = { threaded: false, chunks: 0, callingThreadChunks: 0 };
  private workerSchedule: WorkerSchedule = 'free';

  private readonly stats: LodFrameStats = {
    // Non-integer starts give the double fields V8's double representation (see FrameState).
    totalCost: 0.5, levelCounts: new Uint32Array(1), changes: 0, budgetMet: true, minimumCost: 0.5, invalid: 0, hidden: 0,
  };

  /**
   * Most objects a set can hold: 2²⁸ (268,435,456). The packed spheres take 16 bytes per object and
   * one typed array holds at most 4 GiB in Node 20 / V8, so a larger set could never be allocated.
   */
  static readonly MAX_CAPACITY = 2 ** 28;

  constructor(initialCapacity = 1024) {
    if (typeof initialCapacity !== 'number' || !Number.isInteger(initialCapacity) || initialCapacity < 0) {
      throw new RangeError(`LodSet: initialCapacity must be an integer ≥ 0, got ${String(initialCapacity)}`);
    }
    if (initialCapacity > LodSet.MAX_CAPACITY) {
      throw new RangeError(`LodSet: initialCapacity ${initialCapacity} is more than the maximum capacity ${LodSet.MAX_CAPACITY} (LodSet.MAX_CAPACITY, 2^28 objects: 16 bytes of sphere each in one typed array of at most 4 GiB)`);
    }
    this.grow(Math.max(1, initialCapacity));
    // Empty: sizes in slot order from the start (slotSizes.ts; no 1M gather in frame 1, whose OSR loop V8 recompiled in frame 2).
    if (this.ci.sizesS.length !== 0) this.ci.sizesInSlots = true;
    warmUpClusteredPath(LodSet); // once per process, before any real frame (see warmUp.ts)
  }

  /** Ids in use are in `[0, count)` (a high-water mark; removed ids inside it report `HIDDEN_LEVEL`). */
  get count(): number { return this.used; }
  /** Level per id to draw without blending; `HIDDEN_LEVEL` when hidden/culled/removed. */
  get levels(): Uint8Array { return this.st.levels; }
  /**
   * OpenUSD fractional part per id (blend toward the next level). Clustered thresholds and hybrid
   * frames keep the blends their kernel changed in slot order; the first read copies them to their
   * ids (1M objects, one frame's changes: ≈ 0.07 ms trees, 0.2 ms random ids; owedBlends.ts), later
   * reads cost nothing. A reference kept from before an update shows the last read's values.
   */
  get blend(): Float32Array { settleBlends(this.ci, this.st.blend); return this.st.blend; }
  /**
   * Value the policy used per id (see the class notes). With the WebAssembly kernel the set keeps
   * the values in its slot order; the first read after an update copies those the update wrote
   * (1M objects: ≈ 0.5 ms in random id order, 0.2 ms on the tree field; bench/RESULTS.md) and,
   * after a rankQuota or budget frame, computes the values it left owed (≈ 1.8 ms more for 1M);
   * later reads cost nothing. A reference kept from before an update shows the last read's values.
   */
  get sizes(): Float32Array { freshIds(this.ci, this.st.sizes, this.used); return this.st.sizes; }
  /** Ids whose level changed in the last update: the first `changedCount` entries. */
  get changed(): Uint32Array { return this.st.changed; }
  /** Number of valid entries in `changed`. */
  get changedCount(): number { return this.st.changedCount; }
  /** Number of profiles. */
  get profileCount(): number { return this.table.count; }
  /** What the last update did with the spatial clusters (see {@link LodClusterStats}). */
  get clusterStats(): Readonly<LodClusterStats> { return this.clusterInfo; }
  /** Worker-thread mode: whether the last update ran threaded, and its chunk split (see {@link LodThreadStats}). */
  get threadStats(): Readonly<LodThreadStats> { return this.threadInfo; }
  /** The packed spheres `x, y, z, r` per id (read-only view for renderers and tests). */
  get spheres(): Float32Array { return this.st.spheres; }

  /**
   * Adds a profile (metric, thresholds, per-level costs/errors) and returns its id.
   * Throws `RangeError`/`TypeError` naming the field when the options are invalid.
   */
  addProfile(options: LodProfileOptions): number {
    const profile = validateLodProfile(options);
    const id = this.table.add(profile);
    const t = this.table, st = this.st;
    // Amortised O(levels): the per-profile arrays are only replaced when the table's capacity or
    // stride grew (profiles.ts); otherwise only the new profile's entries are written.
    if (st.lo.length < t.capacity) shareProfileRanges(st, t.capacity, this.threadCount > 1);
    this.loadedLayout = loadProfiles(st, t, this.loadedLayout);
    this.stats.levelCounts = st.levelCounts;
    if (this.threadCount > 1) this.restartThreads(); // workers hold copies of the profile arrays
    return id;
  }

  /** The validated profile `profile` (frozen copy of what `addProfile` stored). */
  getProfile(profile: number): LodProfile {
    this.checkProfile(profile, 'getProfile');
    return this.table.profiles[profile];
  }

  /** Number of levels of a profile (`thresholds.length + 1`). */
  levelCount(profile: number): number {
    this.checkProfile(profile, 'levelCount');
    return this.table.levelCount[profile];
  }

  /** Cost of `level` in `profile`; 0 for `HIDDEN_LEVEL`. */
  costOf(profile: number, level: number): number {
    this.checkProfile(profile, 'costOf');
    if (level === HIDDEN_LEVEL) return 0;
    if (!Number.isInteger(level) || level < 0 || level >= this.table.levelCount[profile]) {
      throw new RangeError(`LodSet.costOf: level must be an integer in [0, ${this.table.levelCount[profile] - 1}] or HIDDEN_LEVEL, got ${String(level)}`);
    }
    return this.table.costs[profile * this.table.stride + level];
  }

  /** Profile id of object `id`. */
  profileOf(id: number): number {
    this.checkId(id, 'profileOf');
    return this.st.profileIds[id];
  }

  /** Adds one object; returns its id. Its level is `HIDDEN_LEVEL` until the next update. */
  add(object: { center: ArrayLike<number>; radius: number; profile: number }): number {
    if (object == null || typeof object !== 'object') throw new TypeError('LodSet.add: object must be {center, radius, profile}');
    const c = object.center;
    if (c == null || typeof c.length !== 'number' || c.length < 3) throw new TypeError('LodSet.add: center must be an array of 3 numbers');
    this.checkProfile(object.profile, 'add');
    const before = this.used, generation = this.ci.generation;
    const id = this.allocateId();
    // Owed values of the cluster it joins (the last one, or its slot's) read the slot's old state (owedSizes.ts).
    settleOwedCluster(this.ci, id >= before ? this.ci.count - 1 : this.ci.clusterOf[this.ci.idSlot[id]], this.st.sizes);
    this.writeObject(id, c[0], c[1], c[2], object.radius, object.profile);
    const s = this.st.spheres, o = id * 4; // the stored float32 values
    if (id >= before) this.ci.addOne(id, s[o], s[o + 1], s[o + 2], s[o + 3], object.profile);
    else { this.ci.setObject(id, s[o], s[o + 1], s[o + 2], s[o + 3], object.profile); this.ci.touch(id, true); }
    if (this.threads !== null && this.ci.generation !== generation) this.restartThreads(); // workers hold the old cluster arrays
    return id;
  }

  /** Adds `spheres.length / 4` objects (`x, y, z, r` each) with one profile; returns the first id (ids are consecutive). */
  addMany(spheres: Float32Array, profile: number): number {
    if (!(spheres instanceof Float32Array) || spheres.length % 4 !== 0) {
      throw new TypeError('LodSet.addMany: spheres must be a Float32Array of x, y, z, r quadruples');
    }
    this.checkProfile(profile, 'addMany');
    const n = spheres.length >> 2;
    const first = this.used;
    if (first + n > this.capacity) this.grow(this.grownCapacity(first + n, 'addMany'));
    this.st.spheres.set(spheres, first * 4);
    const st = this.st;
    st.profileIds.fill(profile, first, first + n);
    resetState(st, first, first + n);
    this.used += n;
    const generation = this.ci.generation;
    this.ci.addBatch(first, n, spheres, profile);
    // The new clusters' bounds now rather than in the next update: a first frame that refits every
    // cluster left the refit loop on on-stack-replaced code, and V8 compiled it in frame 2 (warmUp.ts).
    this.ci.refitPending(st.flags, st.forced);
    refitSupers(this.ci); // (the blocks' spheres too: superClusters.ts)
    if (this.threads !== null && this.ci.generation !== generation) this.restartThreads(); // workers hold the old cluster arrays
    return first;
  }

  /** Moves/resizes object `id`. Non-finite values are stored and reported as invalid by `update`. */
  setSphere(id: number, x: number, y: number, z: number, radius: number): void {
    this.checkId(id, 'setSphere');
    settleOwedCluster(this.ci, this.ci.clusterOf[this.ci.idSlot[id]], this.st.sizes); // its owed values read the old sphere
    const s = this.st.spheres, o = id * 4;
    s[o] = x; s[o + 1] = y; s[o + 2] = z; s[o + 3] = radius;
    this.ci.setSphere(id, s[o], s[o + 1], s[o + 2], s[o + 3]);
  }

  /** Frees `id` for reuse by a later `add`; its level becomes `HIDDEN_LEVEL` now (not reported in `changed`). */
  remove(id: number): void {
    this.checkId(id, 'remove');
    const st = this.st;
    settleBlends(this.ci, st.blend);
    st.flags[id] = FLAG_REMOVED;
    st.levels[id] = HIDDEN_LEVEL;
    st.blend[id] = 0;
    st.sizes[id] = Number.NaN;
    this.ci.clearSize(id);
    this.freeIds[this.freeCount++] = id;
    this.ci.touch(id, true);
    this.ci.mirror(id, st.flags, st.forced, st.levels, st.blend);
  }

  /** Forces `id` to `level` (clamped to its profile's range) under every policy, or clears it with `null`. */
  setForcedLevel(id: number, level: number | null): void {
    this.checkId(id, 'setForcedLevel');
    if (level !== null && (typeof level !== 'number' || !Number.isInteger(level) || level < 0 || level >= 255)) {
      throw new RangeError(`LodSet.setForcedLevel: level must be an integer in [0, 254] or null, got ${String(level)}`);
    }
    settleBlends(this.ci, this.st.blend);
    this.st.forced[id] = level === null ? NO_FORCED_LEVEL : level;
    this.ci.touch(id, true);
    this.ci.mirror(id, this.st.flags, this.st.forced, this.st.levels, this.st.blend);
  }

  /** Hides (`HIDDEN_LEVEL`, cost 0) or shows object `id` from the next update on. */
  setHidden(id: number, hidden: boolean): void {
    this.checkId(id, 'setHidden');
    settleBlends(this.ci, this.st.blend);
    if (hidden) this.st.flags[id] |= FLAG_HIDDEN;
    else this.st.flags[id] &= ~FLAG_HIDDEN;
    this.ci.touch(id, false);
    this.ci.mirror(id, this.st.flags, this.st.forced, this.st.levels, this.st.blend);
  }

  /**
   * Runs one frame: computes every object's metric over `views` and chooses levels by
   * `options.policy`. Throws `RangeError`/`TypeError` only for invalid options or views; bad sphere
   * data is given the documented safe level and counted in the stats.
   */
  update(views: LodView | readonly LodView[], options: LodUpdateOptions): LodFrameStats {
    const single = views != null && (views as LodView).frustum !== undefined;
    const viewCount = single ? 1 : (views as readonly LodView[] | null)?.length ?? 0;
    validateUpdate(this.table, this.used, views, single, viewCount, options);
    const st = this.st, table = this.table, sse = this.sse;
    const policy = options.policy;
    const cull = options.cull ?? LOD_UPDATE_DEFAULTS.cull;
    beginFrame(st, table, sse, views, single, viewCount, options, ++this.frame);
    ensureScratch(st, table, sse, this.capacity, policy);

    const n = this.used;
    const threadInfo = this.threadInfo; // (adaptiveClustered fills it for a threaded frame)
    threadInfo.threaded = false; threadInfo.chunks = 0; threadInfo.callingThreadChunks = 0;
    // --- issue 14: numeric budget (a frame-time target goes through the governor) ---
    const budget = this.resolveBudget(options);
    // --- end issue 14 ---
    // Every policy uses the clusters, also with ids in random spatial order (bench/RESULTS.md).
    const clustered = options.clusters ?? LOD_UPDATE_DEFAULTS.clusters;
    const ci = this.ci, cv = this.cv;
    const exactSizes = options.exactSizes ?? LOD_UPDATE_DEFAULTS.exactSizes;
    owedBeforeFrame(ci, st.sizes, clustered && st.minFrames === 0 && (policy === 'rankQuota' || policy === 'budget'));
    // Only clustered thresholds frames (the calling thread's kernel, also while worker threads take
    // chunks) and clustered hybrid frames (their first pass) add to the owed blends; every other
    // frame reads or writes `blend` by id and gets them first (owedBlends.ts).
    cv.oweBlends = clustered && (policy === 'thresholds' || policy === 'hybrid');
    if (!cv.oweBlends) settleBlends(ci, st.blend);
    placeSizes(ci, clustered, st.sizes, n); // (slotSizes.ts)
    if (clustered && policy === 'hybrid') {
      clusteredHybrid(st, ci, cv, table, sse, n, views, single, viewCount, cull, budget, exactSizes);
    } else if (clustered && policy === 'rankQuota') {
      clusteredRankQuota(st, ci, cv, table, n, views, single, viewCount, cull, options.quotas as ArrayLike<number>);
    } else if (clustered && policy === 'budget') {
      clusteredBudget(st, ci, cv, table, sse, n, views, single, viewCount, cull, budget);
    } else if (clustered) {
      if (this.threads !== null && viewCount <= MAX_THREADED_VIEWS && this.cv.isShared) this.adaptiveClustered(views, single, viewCount, cull, exactSizes);
      else clusteredThresholds(st, ci, cv, table, n, views, single, viewCount, cull, exactSizes);
    } else if (policy === 'thresholds') {
      if (this.threads !== null && viewCount <= MAX_THREADED_VIEWS) threadedThresholds(this.threads, st, table, views, single, viewCount, cull, n);
      else thresholdPass(st, table, views, single, viewCount, cull, 0, n, st.levels, true);
    } else if (policy === 'rankQuota') {
      rankQuotaPolicy(st, views, single, viewCount, cull, options.quotas as ArrayLike<number>, n);
    } else if (policy === 'budget') {
      budgetPolicy(st, table, sse, views, single, viewCount, cull, budget, n);
    } else {
      hybridPolicy(st, table, sse, views, single, viewCount, cull, budget, n);
    }
    if (!clustered) this.ci.invalidateAll(); // levels were written without the clusters' bookkeeping
    if (ci.sizesInSlots) ci.idsFresh = false;

    const stats = this.stats;
    stats.totalCost = st.totalCost;
    stats.changes = st.changedCount;
    stats.minimumCost = st.minimumCost;
    stats.invalid = st.invalid;
    stats.hidden = st.hidden;
    stats.budgetMet = options.budget === undefined || st.totalCost <= budget;
    // --- issue 14: what the governor's next measurement will be paired with ---
    this.lastDraws = n - st.hidden - this.freeCount;
    if (this.governor !== null && typeof options.budget === 'object') this.governor.noteFrame(st.totalCost, this.lastDraws);
    // --- end issue 14 ---
    const info = this.clusterInfo;
    info.clusters = this.ci.count; info.culled = st.clustersCulled; info.skipped = st.clustersSkipped; info.evaluated = st.objectsEvaluated;
    return stats;
  }

  // --- issue 14: frame-time target -------------------------------------------------------------

  /**
   * The governor behind `budget: { frameMs }` (created by the first update with such a budget;
   * null before). Its `budget` is the cost budget the next update uses.
   */
  get frameTimeGovernor(): FrameTimeGovernor | null { return this.governor; }

  /**
   * budget / hybrid: the budget's price after the last update, px of screen-space loss per unit of
   * cost — the best ratio among the upgrades left out (0 when everything wanted fitted; decays by
   * `(1 − band) / (1 + band)` a frame while budget is left). The stability band works around it.
   */
  get budgetPrice(): number { return this.sse.lambda; }

  /**
   * Reports the measured time (ms) of the frame selected by the last update, for `budget: { frameMs }`.
   * Returns the cost budget of the next update. A value that is not a finite number > 0 is ignored
   * (counted in `frameTimeGovernor.rejected`).
   * @example
   * ```ts
   * set.update(view, { policy: 'hybrid', budget: { frameMs: 16.7 } });
   * renderer.render(scene, camera);
   * set.reportFrameTime(measuredMs);
   * ```
   */
  reportFrameTime(ms: number): number {
    if (this.governor === null) {
      throw new RangeError('LodSet.reportFrameTime: no update with budget: { frameMs } has run yet');
    }
    return this.governor.observe(ms);
  }

  private resolveBudget(options: LodUpdateOptions): number {
    const b = options.budget;
    if (b === undefined) return Number.POSITIVE_INFINITY;
    if (typeof b === 'number') return b;
    const g = this.governor;
    if (g === null || g.targetMs !== b.frameMs || g.gain !== (b.gain ?? g.gain)) {
      const next = new FrameTimeGovernor({ targetMs: b.frameMs, gain: b.gain, initialBudget: g?.budget });
      this.governor = next;
      return next.budget;
    }
    return g.budget;
  }
  // --- end issue 14 ---

  private allocateId(): number {
    if (this.freeCount > 0) return this.freeIds[--this.freeCount];
    if (this.used >= this.capacity) this.grow(this.grownCapacity(this.used + 1, 'add'));
    return this.used++;
  }

  /** Doubled capacity for `needed` objects, at most MAX_CAPACITY (a RangeError naming the method beyond). */
  private grownCapacity(needed: number, method: string): number {
    if (needed > LodSet.MAX_CAPACITY) {
      throw new RangeError(`LodSet.${method}: ${needed} objects would be more than the maximum capacity ${LodSet.MAX_CAPACITY} (LodSet.MAX_CAPACITY)`);
    }
    return Math.min(LodSet.MAX_CAPACITY, Math.max(needed, this.capacity * 2));
  }

  private writeObject(id: number, x: number, y: number, z: number, radius: number, profile: number): void {
    const st = this.st, o = id * 4;
    st.spheres[o] = x; st.spheres[o + 1] = y; st.spheres[o + 2] = z; st.spheres[o + 3] = radius;
    st.profileIds[id] = profile;
    resetState(st, id, id + 1);
  }

  private grow(capacity: number): void {
    const old = this.capacity;
    settleOwed(this.ci, this.st.sizes); // (owedSizes.ts; the arrays are re-allocated below)
    settleBlends(this.ci, this.st.blend); // (owedBlends.ts)
    // Without the kernel (dropped after a frame with more views than it takes) the grown slot
    // arrays keep no sizes: those still in slot order go to their ids first (slotSizes.ts).
    if (this.ci.wasm === null) sizesToIds(this.ci, this.st.sizes, this.used);
    // Shared buffers in worker-thread mode (the workers see the same memory), plain ones otherwise.
    growObjectArrays(this.st, capacity, old, this.threadCount > 1);
    const free = new Uint32Array(capacity); free.set(this.freeIds.subarray(0, this.freeCount)); this.freeIds = free;
    this.ci.growSlots(capacity, old);
    this.ci.placeOutputs(this.st); // the fused kernel writes sizes and blend in place
    this.capacity = capacity;
    this.restartThreads();
  }
  /**
   * Splits thresholds-policy updates over `count` threads (the calling thread plus `count − 1`
   * workers) with `SharedArrayBuffer` storage: chunks of clusters that the threads claim from a
   * shared counter (the default; a late worker costs at most about one chunk, the calling thread
   * keeps the WebAssembly kernel in a shared memory, the workers run the JavaScript kernels, and
   * the set runs one thread while its recent frames are faster: threadChooser.ts) or id ranges (`clusters: false`). Results are identical to one thread (the changed
   * list in range order). The other policies run on the calling thread. `count = 1` returns to
   * single-threaded mode. Call `dispose()` (or `setThreads(1)`) when done.
   * @example
   * ```ts
   * set.setThreads(2);
   * set.update(view, { policy: 'thresholds' }); // same levels as with one thread
   * set.dispose();
   * ```
   */
  setThreads(count: number): void {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 64) {
      throw new RangeError(`LodSet.setThreads: count must be an integer in [1, 64], got ${String(count)}`);
    }
    if (this.threads) { this.threads.dispose(); this.threads = null; }
    // The kernel memory may change (clusters.ts makeShared): values kept in slot order go to their ids first.
    sizesToIds(this.ci, this.st.sizes, this.used);
    settleBlends(this.ci, this.st.blend);
    this.threadCount = count;
    if (count > 1) { this.ci.makeShared(this.capacity); this.cv.makeShared(MAX_THREADED_VIEWS); }
    this.threadMode.reset();
    if (this.table.count > 0) shareProfileRanges(this.st, this.table.capacity, count > 1);
    this.grow(this.capacity); // re-allocates the object arrays (shared when count > 1) and starts the workers
  }

  /** Ends the worker threads, if any (the set keeps working single-threaded). */
  dispose(): void {
    if (this.threads) { this.threads.dispose(); this.threads = null; }
    this.threadCount = 1;
  }

  private restartThreads(): void {
    if (this.threads) { this.threads.dispose(); this.threads = null; }
    if (this.threadCount > 1 && this.table.count > 0) {
      this.threads = new LodThreads(this.threadCount - 1, this.st, this.ci, this.cv);
      this.threads.setWorkerSchedule(this.workerSchedule);
    }
  }

  /**
   * Test seam of worker-thread mode, so that tests see the same thread split on every run:
   * `frames` pins the choice between threaded and single-thread clustered frames ('adaptive' is the
   * timed choice of threadChooser.ts), `workers` how the workers take part in threaded frames
   * ({@link LodThreads.setWorkerSchedule}: 'free' as in use, 'absent', 'first', 'holdFirst').
   * Kept across `setThreads` and growth. Results never depend on either: only the split does.
   * @internal
   */
  setThreadSchedule(frames: 'adaptive' | 'threaded' | 'single', workers: WorkerSchedule = 'free'): void {
    this.threadMode.forced = frames === 'adaptive' ? 0 : frames === 'threaded' ? 2 : 1;
    this.workerSchedule = workers;
    if (this.threads !== null) this.threads.setWorkerSchedule(workers);
  }

  /** Clustered thresholds frame in worker mode: threaded or not as threadChooser.ts decides from the frames' times. */
  private adaptiveClustered(views: LodView | readonly LodView[], single: boolean, viewCount: number, cull: boolean, exactSizes: boolean): void {
    const mode = this.threadMode, threaded = mode.next();
    const t0 = performance.now();
    // (threaded or not, the calling thread's kernel owes the blends of its chunks; the workers'
    // JavaScript kernels store at the ids and in the slot copy: owedBlends.ts)
    if (threaded) threadedClustered(this.threads as LodThreads, this.st, this.ci, this.cv, this.table, this.used, views, single, viewCount, cull, exactSizes);
    else clusteredThresholds(this.st, this.ci, this.cv, this.table, this.used, views, single, viewCount, cull, exactSizes);
    mode.ms = performance.now() - t0;
    mode.record(threaded);
    if (threaded) {
      const info = this.threadInfo, t = this.threads as LodThreads;
      info.threaded = true; info.chunks = t.lastChunks; info.callingThreadChunks = t.lastMainChunks;
    }
  }

  private checkProfile(profile: number, method: string): void {
    if (typeof profile !== 'number' || !Number.isInteger(profile) || profile < 0 || profile >= this.table.count) {
      throw new RangeError(`LodSet.${method}: profile must be an id returned by addProfile (0 … ${this.table.count - 1}), got ${String(profile)}`);
    }
  }

  private checkId(id: number, method: string): void {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= this.used || (this.st.flags[id] & FLAG_REMOVED)) {
      throw new RangeError(`LodSet.${method}: id must be a live object id in [0, ${this.used}), got ${String(id)}`);
    }
  }
}
