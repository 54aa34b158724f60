/**
 * `LodManager`: one batch LOD decision per frame for a whole three.js scene. Registered
 * `ScreenSizeLOD`s and `BatchedMesh` instances become spheres in one
 * lodkit `LodSet`; `update(camera, options)` runs any policy (thresholds, rank quotas, triangle
 * budget, hybrid) and then touches only the objects whose level changed.
 *
 * Contributor notes:
 * - Bookkeeping is structure-of-arrays indexed by the `LodSet` id: `kinds` (LOD, instance,
 *   batched), `owner` (index into `lods` / `groups`) and `local` (instance index). Per-frame work
 *   after `LodSet.update` is O(changedCount) plus, only when a registered profile has blend
 *   thresholds, one pass over `blend` to drive cross-fades. A `ScreenSizeLOD`'s change outside
 *   blends and fades is written from the manager's own copy of its levels (managedLevels.ts).
 * - Instanced models are not registered here: `InstancedLOD` (instancedLOD.ts) is its own object
 *   with its own `LodSet` (it replaced `addInstanced`/`InstancedLodGroup`, which lost colours in the
 *   swap-remove, uploaded whole buffers and let three cull drawn levels).
 * - Batched instances switch geometry with `setGeometryIdAt`, hidden ones with `setVisibleAt`.
 * - Profiles are deduplicated by (metric, thresholds, blends, costs, errors, floor, bands): a scene with
 *   10k identical trees has one profile.
 * - Registered `ScreenSizeLOD`s get `autoUpdate = false` so the renderer does not override the
 *   manager's choice. Their world spheres are captured at registration; call `refresh(lod)` for
 *   moving objects (the demo does it for the bikes) or `refreshAll()`.
 * - Timings (bench/three-manager.bench.ts → bench/RESULTS-three.md, 100k objects, camera moving,
 *   ~100 changes a frame, the built package): 3.0–3.3 ms per frame for thresholds, 4.2–4.3 ms for
 *   the budget policy, against 18–21 ms for `THREE.LOD.update` on 100k `THREE.LOD`s (4.3–6.6×
 *   faster); most of it is `LodSet.update`, the adapter adds the camera view (a `CameraView`, built
 *   when the camera moved) and O(changes) visibility writes.
 * - Allocation: per-frame heap growth does not depend on the object count
 *   (test/adapters/three/allocation.test.ts).
 *
 * @module
 */
import { FrameTimer, webglContextOf } from './frameTimer.js'; // issue 14
import { Matrix4, Sphere, Vector2, Vector3, type BatchedMesh, type Camera, type Object3D } from 'three';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import { HIDDEN_LEVEL, LodSet, type LodFrameStats, type LodUpdateOptions, type LodView } from '../../batch/lodSet.js';
import { CameraViewCache, type CameraView } from './cameraView.js';
import { ScreenSizeLOD, type ViewportSource } from './screenSizeLOD.js';
import { ManagedLevels } from './managedLevels.js';
import { ManagedInstanced } from './managedInstanced.js';
import type { InstancedLOD } from './instancedLOD.js';
import { warnNoViewport } from './screenSizeLODOptions.js';
import { batchedTriangles, countTriangles, nonIncreasing } from './levelCosts.js';
import {
  LOD_MANAGER_DEFAULTS, batchedLevelIds, profileKey, profileOptions, type BatchedLodGroup, type BatchedLodOptions, type LodCostOptions, type LodManagerOptions,
} from './lodManagerOptions.js';
import { shadowFrustumPlanes, sphereInPlanes, type ShadowLight, type ShadowMapSource } from './shadowLight.js';

export {
  LOD_MANAGER_DEFAULTS, type BatchedLodGroup, type BatchedLodOptions, type InstancedLodOptions, type LodCostOptions, type LodManagerOptions,
} from './lodManagerOptions.js';

const KIND_NONE = 0, KIND_LOD = 1, KIND_BATCHED = 3;
const scratchSphere = new Sphere();
/** The options `update(camera)` uses when none are given. */
const THRESHOLDS_POLICY: LodUpdateOptions = { policy: 'thresholds' };
const EMPTY_STATS: LodFrameStats = {
  totalCost: 0, levelCounts: new Uint32Array(1), changes: 0, budgetMet: true, minimumCost: 0, invalid: 0, hidden: 0,
};
const scratchVector = new Vector3();
const scratchMatrix = new Matrix4();
const scratchSize = new Vector2();

/**
 * Batched LOD for a whole three.js scene: register objects once, call `update(camera, options)`
 * once per frame.
 *
 * @example
 * ```ts
 * import { LodManager, ScreenSizeLOD } from 'lodkit/three';
 * const manager = new LodManager({ renderer });
 * for (const bike of bikes) manager.add(bike);           // ScreenSizeLODs
 * renderer.setAnimationLoop(() => {
 *   const stats = manager.update(camera, { policy: budgetPolicy, budget: 2_000_000 }); // budgetPolicy from 'lodkit'
 *   renderer.render(scene, camera);
 * });
 * ```
 * @category three.js
 */
export class LodManager {
  /** The batch engine; its `levels`, `blend` and `sizes` are indexed by the ids this manager returns. */
  readonly set: LodSet;
  viewportHeight: number | null;
  renderer: (ViewportSource & ShadowMapSource) | null;
  /** See {@link LodManagerOptions.shadowLight}. */
  shadowLight: ShadowLight | null;
  /** See {@link LodManagerOptions.shadowCasters} (null: follow `renderer.shadowMap.enabled`). */
  shadowCasters: boolean | null;
  /** Culled objects currently kept drawn for the shadow pass. */
  shadowCasterCount = 0;
  /** Registered `ScreenSizeLOD`s by owner index (null after removal). */
  readonly lods: (ScreenSizeLOD | null)[] = [];
  /** Registered batched groups. */
  readonly batchedGroups: BatchedLodGroup[] = [];
  /** Objects touched (visibility/instance/geometry changes) by the last update. */
  touched = 0;
  /**
   * Frames skipped for an unusable camera (a non-finite matrix), or because a `'pixels'` profile is
   * registered and the viewport height is 0 px (the renderer's drawing buffer) or unknown (neither
   * `viewportHeight` nor `renderer`), as `InstancedLOD.skippedFrames` counts. A skipped frame keeps every level,
   * touches nothing and returns the previous frame's stats.
   */
  skippedFrames = 0;

  private kinds = new Uint8Array(0);
  private shadowShown = new Uint8Array(0);
  private readonly lightCache = new CameraViewCache();
  private lightRebuilds = -1;
  private owner = new Int32Array(0);
  private local = new Int32Array(0);
  private readonly cache = new CameraViewCache();
  private readonly views: LodView<CameraView>[] = [];
  private readonly viewList: LodView<CameraView>[] = [];
  private readonly profiles = new Map<string, number>();
  private readonly idOf = new Map<ScreenSizeLOD, number>();
  /** The registered LODs' level objects and shown levels, for plain switches (managedLevels.ts). @internal */
  readonly managedLevels = new ManagedLevels();
  private readonly instancedLODs = new ManagedInstanced();
  private blendingProfiles = 0;
  private pixelProfiles = 0;
  private blending = new Uint32Array(0);
  private blendingCount = 0;
  private nextBlending = new Uint32Array(0);

  constructor(options: LodManagerOptions = {}) {
    const o = { ...LOD_MANAGER_DEFAULTS, ...options };
    this.set = new LodSet(o.capacity);
    this.viewportHeight = o.viewportHeight;
    this.renderer = o.renderer;
    this.shadowLight = o.shadowLight;
    this.shadowCasters = o.shadowCasters;
  }

  /**
   * Registers an `InstancedLOD` built on this manager's engine (`new InstancedLOD({ …, set: manager.set })`):
   * its instances are decided by this manager's `update`, in the same `LodSet.update` as every other
   * object (one policy, one budget for the whole scene). Its own `update` is then not called.
   */
  addInstancedLOD(inst: InstancedLOD): void { this.instancedLODs.add(this.set, inst); }

  /** Stops deciding `inst` (its instances stay in the set until `inst.dispose()` removes them). */
  removeInstancedLOD(inst: InstancedLOD): void { this.instancedLODs.remove(inst); }

  /** Number of ids in use (a high-water mark, like `LodSet.count`). */
  get count(): number { return this.set.count; }

  /** Registers a `ScreenSizeLOD` (turns its `autoUpdate` off); returns its id. */
  add(lod: ScreenSizeLOD, options: LodCostOptions = {}): number {
    if (!(lod instanceof ScreenSizeLOD)) throw new TypeError('LodManager.add: lod must be a ScreenSizeLOD');
    if (lod.levels.length === 0) throw new RangeError('LodManager.add: the ScreenSizeLOD has no levels');
    if (this.idOf.has(lod)) throw new RangeError('LodManager.add: the LOD is already registered');
    const costs = options.costs ?? nonIncreasing(lod.levels.map((l) => countTriangles(l.object)));
    const thresholds = options.thresholds ?? lod.thresholds;
    if (thresholds.length !== lod.levels.length - 1) {
      throw new RangeError(`LodManager.add: thresholds must have levels − 1 = ${lod.levels.length - 1} values, got ${thresholds.length}`);
    }
    const blends = options.blendThresholds ?? (options.thresholds === undefined ? lod.blendThresholds : undefined);
    const own = options.hysteresis === undefined && lod.levels.some((l) => l.hysteresis > 0); // (the LOD's per-level bands)
    const profile = this.profile(options.metric ?? lod.metric, thresholds, blends, costs, own ? { ...options, hysteresis: lod.bands } : options);
    lod.updateWorldMatrix(true, false);
    const s = this.worldSphereOf(lod);
    const id = this.set.add({ center: [s.center.x, s.center.y, s.center.z], radius: s.radius, profile });
    this.ensureCapacity();
    this.kinds[id] = KIND_LOD;
    this.owner[id] = this.lods.length;
    this.local[id] = 0;
    this.lods.push(lod);
    this.idOf.set(lod, id);
    // A LOD that never chose a level shows all its levels (as THREE.LOD does): hide them until the
    // first update. One already showing a level (e.g. shared with another manager) keeps it, so
    // its next change can cross-fade from it.
    if (lod.displayedLevel < 0) lod.setLevel(HIDDEN_LEVEL, 0);
    lod.autoUpdate = false;
    this.managedLevels.capture(id, lod);
    return id;
  }

  /**
   * Registers `BatchedMesh` instances whose geometry is switched per level
   * (`options.levelGeometryIds`, finest first). Returns the group (ids `firstId …`).
   *
   * three r159–r165 (the declared minimum is r160) have no `addInstance`/`setGeometryIdAt`: each
   * geometry added is drawn once at its own matrix. There, give `options.levelDrawIds` (per
   * instance, finest first: `instanceIds.length × levels` geometry ids, instance-major); the manager
   * shows one draw id per instance with `setVisibleAt` and copies the level-0 matrix to the others.
   *
   * Sets `mesh.perObjectFrustumCulled = false`: the manager already hides the instances outside the
   * view (set it back to `true` afterwards only if something else shows instances the manager hides).
   */
  addBatched(mesh: BatchedMesh, instanceIds: ArrayLike<number>, options: BatchedLodOptions): BatchedLodGroup {
    if ((mesh as { isBatchedMesh?: boolean }).isBatchedMesh !== true) throw new TypeError('LodManager.addBatched: mesh must be a BatchedMesh');
    const ids = Int32Array.from(instanceIds);
    const levelCount = options.thresholds.length + 1;
    const { geo, drawIds } = batchedLevelIds(mesh, ids, options, levelCount);
    const costs = options.costs ?? nonIncreasing(Array.from(geo, (g) => batchedTriangles(mesh, g)));
    const profile = this.profile(options.metric, options.thresholds, options.blendThresholds, costs, options);
    const local = options.sphere ?? mesh.getBoundingSphereAt(geo[0], new Sphere());
    if (local === null) throw new RangeError(`LodManager.addBatched: geometry ${geo[0]} has no bounding sphere`);
    const matrices = new Float32Array(ids.length * 16);
    for (let i = 0; i < ids.length; i++) {
      mesh.getMatrixAt(ids[i], scratchMatrix);
      matrices.set(scratchMatrix.elements, i * 16);
      if (drawIds !== null) for (let l = 1; l < levelCount; l++) mesh.setMatrixAt(drawIds[i * levelCount + l], scratchMatrix);
    }
    const firstId = this.set.addMany(this.instanceSpheres(local, matrices, mesh), profile);
    this.ensureCapacity();
    const group: BatchedLodGroup = { mesh, instanceIds: ids, levelGeometryIds: geo, firstId, levelDrawIds: drawIds };
    const gi = this.batchedGroups.length;
    this.batchedGroups.push(group);
    // The manager hides every instance outside the view; three's per-instance test would repeat it
    // each render (issue 29 measured 6.4 instead of 2.6 ms a frame at 100k instances). docs/defaults.md
    mesh.perObjectFrustumCulled = false;
    for (let i = 0; i < ids.length; i++) {
      this.kinds[firstId + i] = KIND_BATCHED; this.owner[firstId + i] = gi; this.local[firstId + i] = i;
      if (drawIds === null) mesh.setVisibleAt(ids[i], false);
      else for (let l = 0; l < levelCount; l++) mesh.setVisibleAt(drawIds[i * levelCount + l], false);
    }
    return group;
  }

  /** Re-reads a registered `ScreenSizeLOD`'s world bounding sphere (call after it moved). */
  refresh(lod: ScreenSizeLOD): void {
    const id = this.idOf.get(lod);
    if (id === undefined) throw new RangeError('LodManager.refresh: the LOD is not registered');
    const s = this.worldSphereOf(lod);
    this.set.setSphere(id, s.center.x, s.center.y, s.center.z, s.radius);
  }

  /** The id of a registered `ScreenSizeLOD` (index into `set.levels` etc.), or -1. */
  idFor(lod: ScreenSizeLOD): number {
    return this.idOf.get(lod) ?? -1;
  }

  /**
   * Re-applies every object's current level (O(n)): use it when something else changed the
   * objects' visibility, e.g. after switching between two managers that share objects.
   */
  resync(): void {
    const levels = this.set.levels, blend = this.set.blend;
    for (let id = 0; id < this.set.count; id++) {
      if (this.kinds[id] === KIND_LOD) this.lods[this.owner[id]]?.invalidateVisibility(); // (else a level it shows already is skipped)
      this.apply(id, levels[id], blend[id]);
    }
  }

  /** Re-reads the world spheres of every registered `ScreenSizeLOD` (O(n)). */
  refreshAll(): void {
    for (const lod of this.lods) if (lod !== null) this.refresh(lod);
  }

  /** Unregisters a `ScreenSizeLOD`: it keeps its level objects, gets `autoUpdate` back, and its id is freed. */
  remove(lod: ScreenSizeLOD): void {
    const id = this.idOf.get(lod);
    if (id === undefined) throw new RangeError('LodManager.remove: the LOD is not registered');
    if (this.shadowShown[id] === 1) { this.shadowShown[id] = 0; this.shadowCasterCount--; }
    this.set.remove(id);
    this.lods[this.owner[id]] = null;
    this.managedLevels.forget(id);
    this.kinds[id] = KIND_NONE;
    lod.autoUpdate = true;
    this.idOf.delete(lod);
  }

  /** Viewport height used for `'pixels'` profiles (NaN when unknown). */
  resolveViewportHeight(): number {
    if (this.viewportHeight !== null) return this.viewportHeight;
    if (this.renderer !== null) return this.renderer.getDrawingBufferSize(scratchSize).y;
    return NaN;
  }

  /**
   * Runs one frame: measures every registered object against `camera` (every eye of an
   * `ArrayCamera`: the largest size wins, so both eyes draw the same level), applies the policy and
   * updates only the objects whose level changed (plus cross-fades of objects inside blend
   * windows). Returns the batch engine's frame stats (the same object every frame). Without
   * options it runs the thresholds policy. Throws only for invalid options (from `LodSet.update`).
   * Inside a frame nothing throws: an unusable camera, a 0-px drawing buffer, or a `'pixels'`
   * profile with neither `viewportHeight` nor `renderer` (warned once per page) is a skipped frame
   * with no change (counted in {@link LodManager.skippedFrames}; docs/defaults.md).
   */
  update(camera: Camera, options: LodUpdateOptions = THRESHOLDS_POLICY): LodFrameStats {
    const n = this.cache.update(camera);
    const viewport = this.resolveViewportHeight();
    if (this.pixelProfiles + this.instancedLODs.pixels > 0 && !(viewport > 0)) {
      // No viewport (warned once per page), or a 0-px drawing buffer (a collapsed canvas, a hidden
      // tab): nothing can be measured in pixels. Skip the frame, keep every level, count it.
      if (this.viewportHeight === null && this.renderer === null) warnNoViewport('', 'LodManager', "set the manager's renderer or viewportHeight", 'skippedFrames');
      this.skippedFrames++;
      this.touched = 0;
      return this.lastStats ?? EMPTY_STATS;
    }
    const views = this.viewList;
    views.length = 0;
    for (let i = 0; i < n; i++) {
      let v = this.views[i];
      if (v === undefined) { v = { frustum: this.cache.views[i] }; this.views[i] = v; }
      v.frustum = this.cache.views[i];
      v.viewportHeight = viewport > 0 ? viewport : undefined;
      views.push(v);
    }
    if (n === 0) {
      // An unusable camera: keep every level. LodSet needs a view, so run nothing and report no changes.
      this.skippedFrames++;
      this.touched = 0;
      return this.lastStats ?? EMPTY_STATS;
    }
    this.instancedLODs.before();
    const stats = this.set.update(views, options);
    if (typeof options.budget === 'object' && options.budget !== null) { // issue 14: a frame-time budget is fed with measured frame times (frameTimer.ts)
      this.frameTimer ??= new FrameTimer(webglContextOf(this.renderer));
      this.frameTimer.afterUpdate(this.set, stats);
    }
    this.lastStats = stats;
    // Without a blending profile every blend is 0: `set.blend` is not read, so the blends a
    // thresholds frame owes are never copied (batch/owedBlends.ts).
    const set = this.set, levels = set.levels, changed = set.changed, cc = set.changedCount;
    const blend = this.blendingProfiles > 0 ? set.blend : null;
    let touched = 0;
    for (let k = 0; k < cc; k++) { const id = changed[k]; this.apply(id, levels[id], blend === null ? 0 : blend[id]); touched++; }
    if (blend !== null) touched += this.applyBlends(levels, blend);
    touched += this.advanceFades();
    this.instancedLODs.after(set, stats); // (its changed instances are counted in the loop above)
    touched += this.updateShadowCasters();
    this.touched = touched;
    return stats;
  }

  /**
   * Culled objects inside the shadow light's frustum are shown at their coarsest level with
   * triangles: O(changes), or one pass over every id when the light moved.
   */
  private updateShadowCasters(): number {
    const on = this.shadowLight !== null && (this.shadowCasters ?? this.renderer?.shadowMap?.enabled === true);
    const set = this.set, levels = set.levels;
    let touched = 0;
    if (!on) {
      if (this.shadowCasterCount > 0) {
        for (let id = 0; id < set.count; id++) if (this.shadowShown[id] === 1 && levels[id] === HIDDEN_LEVEL) { this.apply(id, HIDDEN_LEVEL, 0); touched++; }
        this.shadowCasterCount = 0;
      }
      return touched;
    }
    const planes = shadowFrustumPlanes(this.shadowLight!, this.lightCache);
    if (planes === null) return 0;
    if (this.lightRebuilds !== this.lightCache.rebuilds) {
      this.lightRebuilds = this.lightCache.rebuilds;
      for (let id = 0; id < set.count; id++) touched += this.shadowCaster(id, planes, levels);
    } else {
      const changed = set.changed, cc = set.changedCount;
      for (let k = 0; k < cc; k++) touched += this.shadowCaster(changed[k], planes, levels);
    }
    return touched;
  }

  private shadowCaster(id: number, planes: Float64Array, levels: Uint8Array): number {
    const kind = this.kinds[id];
    if (levels[id] !== HIDDEN_LEVEL || kind === KIND_NONE) return 0;
    const s = this.set.spheres, o = id * 4;
    const want = sphereInPlanes(planes, s[o], s[o + 1], s[o + 2], s[o + 3]);
    if (want === (this.shadowShown[id] === 1)) return 0;
    if (want) {
      const p = this.set.profileOf(id);
      let level = this.set.levelCount(p) - 1;
      while (level > 0 && this.set.costOf(p, level) === 0) level--;
      this.apply(id, level, 0);
      this.shadowShown[id] = 1; this.shadowCasterCount++;
    } else {
      this.apply(id, HIDDEN_LEVEL, 0); // clears the flag
    }
    return 1;
  }

  private lastStats: LodFrameStats | null = null;
  /** issue 14: measures frame times for `budget: { frameMs }` (GPU timer queries, else intervals). */
  frameTimer: FrameTimer | null = null;

  private apply(id: number, level: number, frac: number): void {
    const kind = this.kinds[id];
    if (this.shadowShown[id] === 1) { this.shadowShown[id] = 0; this.shadowCasterCount--; }
    if (kind === KIND_LOD) {
      const lod = this.lods[this.owner[id]];
      if (lod !== null && !this.managedLevels.trySwitch(id, lod, level, frac)) {
        lod.setLevel(level, frac);
        if (lod.fading && !this.animating.includes(lod)) this.animating.push(lod);
        this.managedLevels.capture(id, lod);
      }
    } else if (kind === KIND_BATCHED) {
      const g = this.batchedGroups[this.owner[id]];
      const k = this.local[id], inst = g.instanceIds[k];
      const draws = g.levelDrawIds;
      if (draws !== null) {
        // three < r166: one draw id per level; exactly the chosen one is visible.
        const L = g.levelGeometryIds.length;
        for (let l = 0; l < L; l++) g.mesh.setVisibleAt(draws[k * L + l], l === level);
        return;
      }
      if (level === HIDDEN_LEVEL || level >= g.levelGeometryIds.length) {
        g.mesh.setVisibleAt(inst, false);
      } else {
        g.mesh.setGeometryIdAt(inst, g.levelGeometryIds[level]);
        g.mesh.setVisibleAt(inst, true);
      }
    }
  }

  /** Time-based fades (`fadeDuration > 0`) started by level changes progress every frame until done. */
  private advanceFades(): number {
    const list = this.animating;
    let w = 0;
    for (let k = 0; k < list.length; k++) {
      const lod = list[k];
      if (lod.hiddenByManager || !lod.fading) continue;
      lod.applyVisibility(lod.getCurrentLevel(), lod.blend);
      if (lod.fading) list[w++] = lod;
    }
    const n = list.length;
    list.length = w;
    return n;
  }

  private readonly animating: ScreenSizeLOD[] = [];

  /** Cross-fades: ScreenSizeLODs inside a blend window this frame or last frame get their pair updated. */
  private applyBlends(levels: Uint8Array, blend: Float32Array): number {
    const total = this.set.count;
    if (this.nextBlending.length < total) { this.nextBlending = new Uint32Array(Math.max(total, 2 * this.nextBlending.length)); }
    let next = 0, touched = 0;
    for (let id = 0; id < total; id++) {
      if (blend[id] > 0 && this.kinds[id] === KIND_LOD) {
        this.nextBlending[next++] = id;
        const lod = this.lods[this.owner[id]];
        if (lod !== null) { lod.setLevel(levels[id], blend[id]); touched++; }
      }
    }
    for (let k = 0; k < this.blendingCount; k++) {
      const id = this.blending[k];
      if (!(blend[id] > 0) && this.kinds[id] === KIND_LOD) {
        const lod = this.lods[this.owner[id]];
        if (lod !== null) { lod.setLevel(levels[id], 0); touched++; }
      }
    }
    const t = this.blending; this.blending = this.nextBlending; this.nextBlending = t.length >= total ? t : new Uint32Array(total);
    this.blendingCount = next;
    return touched;
  }

  private profile(metric: SphereMetric, thresholds: ArrayLike<number>, blends: ArrayLike<number> | undefined, costs: ArrayLike<number>, o: LodCostOptions): number {
    const options = profileOptions(metric, thresholds, blends, costs, o), key = profileKey(options);
    let p = this.profiles.get(key);
    if (p === undefined) {
      p = this.set.addProfile(options);
      this.profiles.set(key, p);
      if (options.blendThresholds !== undefined) this.blendingProfiles++;
      if (metric === 'pixels') this.pixelProfiles++;
    }
    return p;
  }

  private ensureCapacity(): void {
    const need = this.set.count;
    if (this.kinds.length >= need) return;
    const cap = Math.max(need, this.kinds.length * 2, 64);
    const k = new Uint8Array(cap); k.set(this.kinds); this.kinds = k;
    const sh = new Uint8Array(cap); sh.set(this.shadowShown); this.shadowShown = sh;
    const o = new Int32Array(cap); o.set(this.owner); this.owner = o;
    const l = new Int32Array(cap); l.set(this.local); this.local = l;
    this.managedLevels.ensure(cap);
  }

  private worldSphereOf(lod: ScreenSizeLOD): Sphere {
    const local = lod.boundingSphere ?? lod.computeBoundingSphere();
    scratchSphere.center.copy(local.center).applyMatrix4(lod.matrixWorld);
    scratchSphere.radius = local.radius * lod.matrixWorld.getMaxScaleOnAxis();
    return scratchSphere;
  }

  /** World spheres (x, y, z, r per instance) of a local sphere under instance matrices and the mesh's world matrix. */
  private instanceSpheres(local: Sphere, matrices: Float32Array, mesh: Object3D): Float32Array {
    mesh.updateWorldMatrix(true, false);
    const n = matrices.length / 16;
    const out = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      scratchMatrix.fromArray(matrices, i * 16).premultiply(mesh.matrixWorld);
      scratchVector.copy(local.center).applyMatrix4(scratchMatrix);
      out[i * 4] = scratchVector.x; out[i * 4 + 1] = scratchVector.y; out[i * 4 + 2] = scratchVector.z;
      out[i * 4 + 3] = local.radius * scratchMatrix.getMaxScaleOnAxis();
    }
    return out;
  }
}

