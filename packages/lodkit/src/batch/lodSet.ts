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
 *   The mode's code is loaded by a dynamic `import()` on the first `setThreads(n > 1)`
 *   (workerMode.ts, threadMode.ts): browser bundles never load it.
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
 * - Modules: this class is the public facade over one `SetEngine` (setEngine.ts: every
 *   internal of the set in one object, which the engine seam engineSeam.ts hands to tests and the
 *   bench); `update()` is frameDispatch.ts (the per-frame drivers are module functions over the
 *   engine: policyDrivers.ts per object, clusterDrivers.ts over the clusters, threadedDrivers.ts
 *   in worker-thread mode; the frame's options go in through frameSetup.ts), ids and growth are
 *   objectStorage.ts, worker threads workerMode.ts (threadMode.ts once loaded), `budget: { frameMs }` frameTimeTarget.ts,
 *   argument checks updateValidation.ts; the public option and stats types are updateOptions.ts
 *   (re-exported here).
 * - Timings: bench/RESULTS.md (1M-tree field, walking ground camera: ≈ 0.5 × a 4-accumulator read
 *   of the sphere array, three.js `LOD.update` ≈ 85–97 × slower per object; the policies' ratios).
 * - The first version ran at 75–130 ns per object and allocated ~1 MB per frame (boxed doubles, deopt
 *   loops); the fixes are recorded in the notes of metricKernels.ts, thresholdKernels.ts,
 *   policyPasses.ts and frameState.ts.
 *
 * @module
 */
import type { FrameTimeGovernor } from '../policies/frameTimeGovernor.js';
import { FLAG_HIDDEN, FLAG_REMOVED, HIDDEN_LEVEL, NO_FORCED_LEVEL } from './core/frameState.js';
import { validateLodProfile, type LodProfile, type LodProfileOptions } from './core/profiles.js';
import { MAX_THREADED_VIEWS } from './core/threadSupport.js';
import { warmUpClusteredPath } from './warmUp.js';
import { checkId, checkProfile } from './updateValidation.js';
import type { LodClusterStats, LodFrameStats, LodThreadStats, LodUpdateOptions, LodView, LodViewFrustum } from './core/updateOptions.js';
import { freshIds, sizesToIds } from './outputs/slotSizes.js';
import { settleOwedCluster } from './outputs/owedSizes.js';
import { settleBlends } from './outputs/owedBlends.js';
import { refitSupers } from './spatial/blockCulling.js';
import type { WorkerSchedule } from './core/threadChooser.js';
import { chooseKernels } from './wasm/wasmKernels.js';
import { allocateId, grownCapacity, growSet, MAX_CAPACITY, resetState, shareProfileRanges, writeObject } from './objectStorage.js';
import { loadProfiles } from './drivers/frameSetup.js';
import { attachEngine, SetEngine } from './setEngine.js';
import { runFrame } from './frameDispatch.js';
import { checkThreadSupport, disposeThreads, restartThreads, scheduleThreads } from './workerMode.js';

export { HIDDEN_LEVEL, NO_FORCED_LEVEL } from './core/frameState.js';

export {
  blendLowerLevel, LOD_UPDATE_DEFAULTS, type FrameTimeBudget, type LodClusterStats, type LodFrameStats, type LodPolicy,
  type LodPolicyModule, type LodPolicyName, type LodThreadStats, type LodUpdateOptions, type LodView, type LodViewFrustum,
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
 *   bit what the frame would have written (owedSizes.ts); a budget frame that draws the
 *   thresholds' selection (it fits) reports a thresholds frame's values, as below.
 *   Thresholds and hybrid policies with clusters (the default): an object whose cluster was skipped
 *   as a whole (every object provably keeps its level, blend 0; hybrid: its preferred level) keeps
 *   the value of the last frame in which it was evaluated — a value the rule maps to the same level
 *   as this frame's value, outside every blend window — until its cluster is evaluated again (an
 *   object held by hysteresis or `minFramesBetweenChanges` keeps its value in either case: the
 *   rule's previous size, which may be such an earlier value).
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
 * const stats = set.update({ frustum, viewportHeight: 1080 }, { policy: rankQuotaPolicy, quotas: [4, 6] }); // rankQuotaPolicy from 'lodkit'
 * for (let k = 0; k < set.changedCount; k++) redraw(set.changed[k], set.levels[set.changed[k]]);
 * ```
 * @category Batch
 */
export class LodSet {
  /** Every internal of the set (setEngine.ts; tests and the bench reach it through engineSeam.ts). */
  private readonly e = new SetEngine();

  /**
   * Most objects a set can hold: 2²⁸ (268,435,456). The packed spheres take 16 bytes per object and
   * one typed array holds at most 4 GiB in Node 20 / V8, so a larger set could never be allocated.
   */
  static readonly MAX_CAPACITY = MAX_CAPACITY;

  constructor(initialCapacity = 1024) {
    if (typeof initialCapacity !== 'number' || !Number.isInteger(initialCapacity) || initialCapacity < 0) {
      throw new RangeError(`LodSet: initialCapacity must be an integer ≥ 0, got ${String(initialCapacity)}`);
    }
    if (initialCapacity > LodSet.MAX_CAPACITY) {
      throw new RangeError(`LodSet: initialCapacity ${initialCapacity} is more than the maximum capacity ${LodSet.MAX_CAPACITY} (LodSet.MAX_CAPACITY, 2^28 objects: 16 bytes of sphere each in one typed array of at most 4 GiB)`);
    }
    attachEngine(this, this.e);
    growSet(this.e, Math.max(1, initialCapacity));
    // Empty: sizes in slot order from the start (slotSizes.ts; no 1M gather in frame 1, whose OSR loop V8 recompiled in frame 2).
    if (this.e.ci.sizesS.length !== 0) this.e.ci.sizesInSlots = true;
    warmUpClusteredPath(LodSet); // once per process, before any real frame; again when the kernels arrive (see warmUp.ts)
  }

  /** Ids in use are in `[0, count)` (a high-water mark; removed ids inside it report `HIDDEN_LEVEL`). */
  get count(): number { return this.e.used; }
  /** Level per id to draw without blending; `HIDDEN_LEVEL` when hidden/culled/removed. */
  get levels(): Uint8Array { return this.e.st.levels; }
  /**
   * OpenUSD fractional part per id (blend toward the next level). Clustered thresholds and hybrid
   * frames keep the blends their kernel changed in slot order; the first read copies them to their
   * ids (1M objects, one frame's changes: ≈ 0.07 ms trees, 0.2 ms random ids; owedBlends.ts), later
   * reads cost nothing. A reference kept from before an update shows the last read's values.
   */
  get blend(): Float32Array { const e = this.e; settleBlends(e.ci, e.st.blend); return e.st.blend; }
  /**
   * Value the policy used per id (see the class notes). With the WebAssembly kernel the set keeps
   * the values in its slot order; the first read after an update copies those the update wrote
   * (1M objects: ≈ 0.5 ms in random id order, 0.2 ms on the tree field; bench/RESULTS.md) and,
   * after a rankQuota or budget frame, computes the values it left owed (≈ 1.8 ms more for 1M);
   * later reads cost nothing. A reference kept from before an update shows the last read's values.
   */
  get sizes(): Float32Array { const e = this.e; freshIds(e.ci, e.st.sizes, e.used); return e.st.sizes; }
  /** Ids whose level changed in the last update: the first `changedCount` entries. */
  get changed(): Uint32Array { return this.e.st.changed; }
  /** Number of valid entries in `changed`. */
  get changedCount(): number { return this.e.st.changedCount; }
  /** Number of profiles. */
  get profileCount(): number { return this.e.table.count; }
  /** What the last update did with the spatial clusters (see {@link LodClusterStats}). */
  get clusterStats(): Readonly<LodClusterStats> { return this.e.clusterInfo; }
  /** Worker-thread mode: whether the last update ran threaded, and its chunk split (see {@link LodThreadStats}). */
  get threadStats(): Readonly<LodThreadStats> { return this.e.threadInfo; }
  /** The packed spheres `x, y, z, r` per id (read-only view for renderers and tests). */
  get spheres(): Float32Array { return this.e.st.spheres; }

  /**
   * Adds a profile (metric, thresholds, per-level costs/errors) and returns its id.
   * Throws `RangeError`/`TypeError` naming the field when the options are invalid.
   */
  addProfile(options: LodProfileOptions): number {
    this.e.edits++; // (a still frame has no edit: stillFrames.ts)
    const profile = validateLodProfile(options);
    const e = this.e, t = e.table, st = e.st;
    const id = t.add(profile);
    // Amortised O(levels): the per-profile arrays are only replaced when the table's capacity or
    // stride grew (profiles.ts); otherwise only the new profile's entries are written.
    if (st.lo.length < t.capacity) shareProfileRanges(st, t.capacity, e.threadCount > 1);
    e.loadedLayout = loadProfiles(st, t, e.loadedLayout);
    e.stats.levelCounts = st.levelCounts;
    if (e.threadCount > 1) restartThreads(e); // workers hold copies of the profile arrays
    return id;
  }

  /** The validated profile `profile` (frozen copy of what `addProfile` stored). */
  getProfile(profile: number): LodProfile {
    checkProfile(this.e.table, profile, 'getProfile');
    return this.e.table.profiles[profile];
  }

  /** Number of levels of a profile (`thresholds.length + 1`). */
  levelCount(profile: number): number {
    checkProfile(this.e.table, profile, 'levelCount');
    return this.e.table.levelCount[profile];
  }

  /** Cost of `level` in `profile`; 0 for `HIDDEN_LEVEL`. */
  costOf(profile: number, level: number): number {
    const t = this.e.table;
    checkProfile(t, profile, 'costOf');
    if (level === HIDDEN_LEVEL) return 0;
    if (!Number.isInteger(level) || level < 0 || level >= t.levelCount[profile]) {
      throw new RangeError(`LodSet.costOf: level must be an integer in [0, ${t.levelCount[profile] - 1}] or HIDDEN_LEVEL, got ${String(level)}`);
    }
    return t.costs[profile * t.stride + level];
  }

  /** Profile id of object `id`. */
  profileOf(id: number): number {
    checkId(this.e.st, this.e.used, id, 'profileOf');
    return this.e.st.profileIds[id];
  }

  /** Adds one object; returns its id. Its level is `HIDDEN_LEVEL` until the next update. */
  add(object: { center: ArrayLike<number>; radius: number; profile: number }): number {
    this.e.edits++; // (a still frame has no edit: stillFrames.ts)
    if (object == null || typeof object !== 'object') throw new TypeError('LodSet.add: object must be {center, radius, profile}');
    const c = object.center;
    if (c == null || typeof c.length !== 'number' || c.length < 3) throw new TypeError('LodSet.add: center must be an array of 3 numbers');
    const e = this.e;
    checkProfile(e.table, object.profile, 'add');
    const before = e.used, generation = e.ci.generation;
    const id = allocateId(e);
    const ci = e.ci;
    // Owed values of the cluster it joins (the last one, or its slot's) read the slot's old state (owedSizes.ts).
    settleOwedCluster(ci, id >= before ? ci.count - 1 : ci.clusterOf[ci.idSlot[id]], e.st.sizes);
    writeObject(e, id, c[0], c[1], c[2], object.radius, object.profile);
    const s = e.st.spheres, o = id * 4; // the stored float32 values
    if (id >= before) ci.addOne(id, s[o], s[o + 1], s[o + 2], s[o + 3], object.profile);
    else { ci.setObject(id, s[o], s[o + 1], s[o + 2], s[o + 3], object.profile); ci.touch(id, true); }
    if (e.threads !== null && ci.generation !== generation) restartThreads(e); // workers hold the old cluster arrays
    return id;
  }

  /** Adds `spheres.length / 4` objects (`x, y, z, r` each) with one profile; returns the first id (ids are consecutive). */
  addMany(spheres: Float32Array, profile: number): number {
    return this.addManyWithBounds(spheres, profile, null);
  }

  /**
   * `addMany` with the batch's bounds already known (`InstancedLOD`'s spheres pass computes them):
   * the 7 numbers of mortonOrder.ts `BATCH_BOUNDS`, or null. Spares the Morton order its first pass
   * over the batch (startup, issue 27); the same ids, slots and frames as `addMany`.
   * @internal
   */
  addManyWithBounds(spheres: Float32Array, profile: number, bounds: Float64Array | null): number {
    this.e.edits++; // (a still frame has no edit: stillFrames.ts)
    if (!(spheres instanceof Float32Array) || spheres.length % 4 !== 0) {
      throw new TypeError('LodSet.addMany: spheres must be a Float32Array of x, y, z, r quadruples');
    }
    const e = this.e;
    checkProfile(e.table, profile, 'addMany');
    const n = spheres.length >> 2;
    const first = e.used;
    if (first + n > e.capacity) growSet(e, grownCapacity(e, first + n, 'addMany'));
    const st = e.st, ci = e.ci;
    st.spheres.set(spheres, first * 4);
    st.profileIds.fill(profile, first, first + n);
    resetState(st, first, first + n);
    e.used += n;
    const generation = ci.generation;
    ci.addBatch(first, n, spheres, profile, bounds);
    // The new clusters' bounds now rather than in the next update: a first frame that refits every
    // cluster left the refit loop on on-stack-replaced code, and V8 compiled it in frame 2 (warmUp.ts).
    ci.refitPending(st.flags, st.forced);
    refitSupers(ci); // (the blocks' spheres too: superClusters.ts)
    if (e.threads !== null && ci.generation !== generation) restartThreads(e); // workers hold the old cluster arrays
    return first;
  }

  /** Moves/resizes object `id`. Non-finite values are stored and reported as invalid by `update`. */
  setSphere(id: number, x: number, y: number, z: number, radius: number): void {
    this.e.edits++; // (a still frame has no edit: stillFrames.ts)
    const e = this.e, ci = e.ci;
    checkId(e.st, e.used, id, 'setSphere');
    settleOwedCluster(ci, ci.clusterOf[ci.idSlot[id]], e.st.sizes); // its owed values read the old sphere
    const s = e.st.spheres, o = id * 4;
    s[o] = x; s[o + 1] = y; s[o + 2] = z; s[o + 3] = radius;
    ci.setSphere(id, s[o], s[o + 1], s[o + 2], s[o + 3]);
  }

  /** Frees `id` for reuse by a later `add`; its level becomes `HIDDEN_LEVEL` now (not reported in `changed`). */
  remove(id: number): void {
    this.e.edits++; // (a still frame has no edit: stillFrames.ts)
    const e = this.e, st = e.st, ci = e.ci;
    checkId(st, e.used, id, 'remove');
    settleBlends(ci, st.blend);
    st.flags[id] = FLAG_REMOVED;
    st.levels[id] = HIDDEN_LEVEL;
    st.blend[id] = 0;
    st.sizes[id] = Number.NaN;
    ci.clearSize(id);
    e.freeIds[e.freeCount++] = id;
    ci.touch(id, true);
    ci.mirror(id, st.flags, st.forced, st.levels, st.blend);
  }

  /** Forces `id` to `level` (clamped to its profile's range) under every policy, or clears it with `null`. */
  setForcedLevel(id: number, level: number | null): void {
    this.e.edits++; // (a still frame has no edit: stillFrames.ts)
    const e = this.e, st = e.st, ci = e.ci;
    checkId(st, e.used, id, 'setForcedLevel');
    if (level !== null && (typeof level !== 'number' || !Number.isInteger(level) || level < 0 || level >= 255)) {
      throw new RangeError(`LodSet.setForcedLevel: level must be an integer in [0, 254] or null, got ${String(level)}`);
    }
    settleBlends(ci, st.blend);
    st.forced[id] = level === null ? NO_FORCED_LEVEL : level;
    ci.touch(id, true);
    ci.mirror(id, st.flags, st.forced, st.levels, st.blend);
  }

  /** Hides (`HIDDEN_LEVEL`, cost 0) or shows object `id` from the next update on. */
  setHidden(id: number, hidden: boolean): void {
    this.e.edits++; // (a still frame has no edit: stillFrames.ts)
    const e = this.e, st = e.st, ci = e.ci;
    checkId(st, e.used, id, 'setHidden');
    settleBlends(ci, st.blend);
    if (hidden) st.flags[id] |= FLAG_HIDDEN;
    else st.flags[id] &= ~FLAG_HIDDEN;
    ci.touch(id, false);
    ci.mirror(id, st.flags, st.forced, st.levels, st.blend);
  }

  /**
   * Runs one frame: computes every object's metric over `views` and chooses levels by
   * `options.policy`. Throws `RangeError`/`TypeError` only for invalid options or views; bad sphere
   * data is given the documented safe level and counted in the stats.
   */
  update(views: LodView<LodViewFrustum> | readonly LodView<LodViewFrustum>[], options: LodUpdateOptions): LodFrameStats {
    return runFrame(this.e, views, options); // (frameDispatch.ts)
  }

  // --- issue 14: frame-time target -------------------------------------------------------------

  /**
   * The governor behind `budget: { frameMs }` (created by the first update with such a budget;
   * null before). Its `budget` is the cost budget the next update uses.
   */
  get frameTimeGovernor(): FrameTimeGovernor | null { return this.e.governor; }

  /**
   * budget / hybrid: the budget's price after the last update, px of screen-space loss per unit of
   * cost — the best ratio among the upgrades left out (0 when everything wanted fitted; decays by
   * `(1 − band) / (1 + band)` a frame while budget is left). The stability band works around it,
   * following its rises by at most `(1 + band) / (1 − band)` a frame.
   */
  get budgetPrice(): number { return this.e.sse.price; }

  /**
   * Reports the measured time (ms) of the frame selected by the last update, for `budget: { frameMs }`.
   * Returns the cost budget of the next update. A value that is not a finite number > 0 is ignored
   * (counted in `frameTimeGovernor.rejected`).
   * @example
   * ```ts
   * set.update(view, { policy: hybridPolicy, budget: { frameMs: 16.7 } });
   * renderer.render(scene, camera);
   * set.reportFrameTime(measuredMs);
   * ```
   */
  reportFrameTime(ms: number): number {
    const g = this.e.governor;
    if (g === null) throw new RangeError('LodSet.reportFrameTime: no update with budget: { frameMs } has run yet');
    return g.observe(ms);
  }

  // --- end issue 14 ---

  /**
   * Splits thresholds-policy updates over `count` threads (the calling thread plus `count − 1`
   * workers) with `SharedArrayBuffer` storage: chunks of clusters that the threads claim from a
   * shared counter (the default; a late worker costs at most about one chunk, the calling thread
   * keeps the WebAssembly kernel in a shared memory, the workers run the JavaScript kernels, and
   * the set runs one thread while its recent frames are faster: threadChooser.ts) or id ranges (`clusters: false`). Results are identical to one thread (the changed
   * list in range order). The other policies run on the calling thread. `count = 1` returns to
   * single-threaded mode. Call `dispose()` (or `setThreads(1)`) when done. Node.js only: elsewhere a
   * RangeError. The first call in a process loads the worker-thread code (a dynamic `import()`):
   * until it has arrived, a tick or a few later, frames run on the calling thread (the same
   * results); an error starting the workers then is thrown by the next `update`.
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
    if (count > 1) checkThreadSupport(); // (a RangeError in browsers, before the set changes)
    const e = this.e;
    if (e.threads) { e.threads.dispose(); e.threads = null; }
    // The kernel memory may change (clusters.ts makeShared): values kept in slot order go to their ids first.
    sizesToIds(e.ci, e.st.sizes, e.used);
    settleBlends(e.ci, e.st.blend);
    e.threadCount = count;
    if (count > 1) {
      const before = chooseKernels(e.kernels); // the shared-memory kernel as the set chose when built (engineSeam.ts)
      try { e.ci.makeShared(e.capacity); } finally { chooseKernels(before); }
      e.cv.makeShared(MAX_THREADED_VIEWS);
    }
    if (e.threadMode !== null) e.threadMode.reset();
    if (e.table.count > 0) shareProfileRanges(e.st, e.table.capacity, count > 1);
    growSet(e, e.capacity); // re-allocates the object arrays (shared when count > 1) and starts the workers (workerMode.ts)
  }

  /** Ends the worker threads, if any (the set keeps working single-threaded). */
  dispose(): void {
    disposeThreads(this.e);
  }

  /**
   * Test seam of worker-thread mode, so that tests see the same thread split on every run:
   * `frames` pins the choice between threaded and single-thread clustered frames ('adaptive' is the
   * timed choice of threadChooser.ts), `workers` how the workers take part in threaded frames
   * (threads.ts `setWorkerSchedule`: 'free' as in use, 'absent', 'first', 'holdFirst').
   * Kept across `setThreads` and growth. Results never depend on either: only the split does.
   * The engine seam (engineSeam.ts) has the same; this method stays for older builds' callers.
   * @internal
   */
  setThreadSchedule(frames: 'adaptive' | 'threaded' | 'single', workers: WorkerSchedule = 'free'): void {
    scheduleThreads(this.e, frames, workers); // (workerMode.ts; also engineSeam.ts setThreadSchedule)
  }
}
