/**
 * `InstancedLOD`: many instances of one model with per-instance levels of detail, as one three.js
 * `Object3D`. One instance store (matrices, optional colours) feeds one stock `InstancedMesh` per
 * level (its children); lodkit's `LodSet` chooses every instance's level with any policy, and only
 * the instances whose level changed are copied and marked for upload.
 *
 * Contributor notes:
 * - Ids are `LodSet` ids (stable while live, reused after `removeInstance`). Per-id arrays:
 *   `levelOf` (level drawn, {@link SHADOW_ONLY_LEVEL}, or `HIDDEN_LEVEL`), `slotOf` (slot in that
 *   pool) and `flags` (live, hidden by the user). The instance store is the pools themselves: one
 *   per level, one for shadow-only casters, one CPU-only for instances drawn nowhere; each live
 *   instance's matrix (and colour) is in exactly one of them, so it is stored once (~80 B per
 *   instance in all, bench/RESULTS-instanced.md), not once in a store plus once per drawn copy.
 * - Frame (`update`): `LodSet.update`, each changed instance copied into its new pool, every pool
 *   compacted (levelSlots.ts): O(changes), plus one pass of the hidden ids against the light's
 *   frustum when shadow casters are on and the light (or an off-screen instance) moved.
 * - Picking: levelRaycast.ts maps the level meshes' slots back to instance ids.
 * - Culling: lodkit culls per instance; the level meshes keep `frustumCulled = true` with a bounding
 *   sphere this object owns — the union of every instance's sphere, grown on add/move (never
 *   shrunk; `computeBoundingSphere()` makes it tight again). three's own test can therefore only
 *   skip a level mesh when no instance at all is in view, never hide a drawn instance (three caches
 *   `InstancedMesh.boundingSphere` once computed, which is how the old `InstancedLodGroup` vanished).
 * - Shadow casters: instances culled by the camera but inside the shadow light's frustum are copied
 *   into one extra `InstancedMesh` (the shadow level's geometry) that lives on a layer only the
 *   light's shadow camera renders, so they cast shadows without being drawn on screen.
 *
 * @module
 */
import {
  Color, Matrix4, Object3D, Sphere, Vector2, type InstancedMesh,
  type Camera, type Intersection, type Raycaster,
} from 'three';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import { HIDDEN_LEVEL, LodSet, type LodFrameStats, type LodUpdateOptions, type LodView } from '../../batch/lodSet.js';
import { CameraViewCache, type CameraView } from './cameraView.js';
import { reserveForMoves, type LevelSlots } from './levelSlots.js';
import { leavesCpuPoolOnly, MoveQueue } from './batchMoves.js';
import { geometryTriangles, nonIncreasing } from './levelCosts.js';
import {
  instanceMatrices, resolveInstancedLODOptions, unionSphere, warnNoViewport, type InstancedLODOptions, type InstancedUploadStats,
} from './instancedLODOptions.js';
import { shadowFrustumPlanes, sphereInPlanes, type ShadowLight } from './shadowLight.js';
import type { ShadowCopies } from './shadowCopies.js';
import { InstanceSpheres } from './instanceSpheres.js';
import { growBounds } from './instanceBounds.js';
import { raycastLevels } from './levelRaycast.js';
import { makeInstancedPools, uploadStatsOf } from './instancedPools.js';

export { INSTANCED_LOD_DEFAULTS, type InstancedLODLevel, type InstancedLODOptions, type InstancedUploadStats } from './instancedLODOptions.js';

/** `levelOf` value of an instance drawn only in the shadow pass (off-screen caster). @category three.js */
export const SHADOW_ONLY_LEVEL = 254;

const FLAG_LIVE = 1, FLAG_USER_HIDDEN = 2;
const THRESHOLDS: LodUpdateOptions = { policy: 'thresholds' };
const EMPTY_STATS: LodFrameStats = { totalCost: 0, levelCounts: new Uint32Array(1), changes: 0, budgetMet: true, minimumCost: 0, invalid: 0, hidden: 0 };
const scratchSize = new Vector2();
const scratchSphere = new Sphere();
const scratchBounds = new Sphere();
/** `addInstances`' batch bounds for the Morton order (instanceSpheres.ts `batch`). */
const batchBounds = new Float64Array(7);

/**
 * Instances with per-instance LOD, drawn through one `InstancedMesh` per level.
 * @example
 * ```ts
 * import { InstancedLOD } from 'lodkit/three';
 * import { budgetPolicy } from 'lodkit';
 * const forest = new InstancedLOD({
 *   levels: [{ geometry: treeHigh, material }, { geometry: treeMid, material }, { geometry: treeLow, material }],
 *   metric: 'pixels', thresholds: [120, 30], renderer,
 * });
 * const first = forest.addInstances(matrices);      // 16 floats per instance
 * forest.setColorAt(first, new Color('#2e7d32'));
 * scene.add(forest);
 * renderer.setAnimationLoop(() => {
 *   forest.update(camera, { policy: budgetPolicy, budget: 3_000_000 });
 *   renderer.render(scene, camera);
 * });
 * ```
 * @category three.js
 */
export class InstancedLOD extends Object3D {
  readonly isInstancedLOD = true;
  /** The batch engine (levels, sizes, changed ids by instance id): its own, or a `LodManager`'s (`options.set`). */
  readonly set: LodSet;
  /** True when {@link set} is shared (`options.set`): the manager's update decides the instances. */
  readonly shared: boolean;
  /** The metric of `thresholds` (`options.metric`). */
  readonly metric: SphereMetric;
  /** One mesh per level (children of this object), finest first. */
  readonly levelMeshes: InstancedMesh[];
  /** The shadow-only mesh of off-screen casters (child, on `shadowLayer`). */
  readonly shadowMesh: InstancedMesh;
  /** With `shadowLOD: 'all'`: copies of the drawn casters at `shadowLevel` (child, on `shadowLayer`). */
  readonly shadowCopyMesh: InstancedMesh;
  /** See {@link InstancedLODOptions.shadowLOD}. */
  readonly shadowLOD: 'offscreen' | 'all';
  viewportHeight: number | null;
  renderer: InstancedLODOptions['renderer'] | null;
  shadowLight: ShadowLight | null;
  shadowCasters: boolean | null;
  readonly shadowLevel: number;
  readonly shadowLayer: number;
  /** Conservative bounds of every instance (local space), shared by the level meshes. */
  readonly boundingSphere = new Sphere();
  /** Frames skipped for an unusable camera or a 0-px viewport (levels kept). */
  skippedFrames = 0;

  private readonly slots: LevelSlots[];
  private readonly copies: ShadowCopies;
  private readonly profile: number;
  private readonly spheres: InstanceSpheres;
  private colored = false;
  private levelOfId = new Uint8Array(0);
  private slotOf = new Int32Array(0);
  private flags = new Uint8Array(0);
  private live = 0;
  private readonly cache = new CameraViewCache();
  private readonly lightCache = new CameraViewCache();
  private readonly views: LodView<CameraView>[] = [];
  private lightRebuilds = -1;
  private shadowDirty = true;
  private lastStats: LodFrameStats | null = null;
  private readonly levelCount: number;
  /** Scratch of `reserveForMoves` (per level and the CPU-only pool: entrants minus leavers, their peak). */
  private readonly netMoves: Int32Array;
  private readonly queue = new MoveQueue();

  constructor(options: InstancedLODOptions) {
    super();
    const o = resolveInstancedLODOptions(options);
    const L = o.levels.length, cap = o.capacity, shadowLevel = o.shadowLevel;
    this.levelCount = L;
    this.netMoves = new Int32Array(2 * (L + 1));
    this.set = o.set ?? new LodSet(cap);
    this.shared = o.set !== undefined; this.metric = o.metric;
    const costs = o.costs ?? o.levels.map((l) => geometryTriangles(l.geometry));
    this.profile = this.set.addProfile({
      metric: o.metric, thresholds: o.thresholds, costs: nonIncreasing(Array.from(costs)),
      ...(o.errors !== undefined ? { errors: o.errors } : {}),
      ...(o.qualityFloor !== undefined ? { qualityFloor: o.qualityFloor } : {}),
    });
    this.spheres = new InstanceSpheres(o.sphere?.clone() ?? unionSphere(o.levels.map((l) => l.geometry)));
    this.viewportHeight = o.viewportHeight;
    this.renderer = o.renderer ?? null;
    this.shadowLight = o.shadowLight;
    this.shadowCasters = o.shadowCasters;
    this.shadowLevel = shadowLevel;
    this.shadowLayer = o.shadowLayer;
    this.boundingSphere.makeEmpty();
    const pools = makeInstancedPools(o.levels, shadowLevel, o.shadowLayer, cap, this.boundingSphere);
    this.slots = pools.slots; this.copies = pools.copies;
    this.levelMeshes = this.slots.slice(0, L).map((s) => s.mesh!);
    this.shadowMesh = this.slots[L].mesh!;
    this.shadowCopyMesh = this.copies.mesh;
    this.shadowLOD = o.shadowLOD;
    for (const m of pools.meshes) this.add(m);
    this.grow(cap);
    (this as { type: string }).type = 'InstancedLOD';
  }

  /** Live instances. */
  get instanceCount(): number { return this.live; }

  /** Upload accounting summed over the level meshes and the shadow mesh. */
  get uploadStats(): InstancedUploadStats { return uploadStatsOf(this.slots, this.levelCount, this.copies); }

  /** Bytes of CPU memory held by this object's arrays (pools, slot maps) — the `LodSet` excluded. */
  get byteLength(): number {
    let b = this.levelOfId.byteLength + this.slotOf.byteLength + this.flags.byteLength + this.copies.byteLength;
    for (const s of this.slots) b += s.byteLength;
    return b;
  }

  /** Adds one instance (matrix relative to this object; optional colour); returns its id. Drawn from the next `update`. */
  addInstance(matrix: Matrix4, color?: Color): number {
    if (!(matrix instanceof Matrix4)) throw new TypeError('InstancedLOD.addInstance: matrix must be a THREE.Matrix4');
    this.writeWorldSphere(matrix.elements, 0);
    const id = this.set.add({ center: [scratchSphere.center.x, scratchSphere.center.y, scratchSphere.center.z], radius: scratchSphere.radius, profile: this.profile });
    this.grow(this.set.count);
    this.initInstance(id, matrix.elements, 0);
    if (color !== undefined) this.setColorAt(id, color);
    return id;
  }

  /** Adds `matrices.length / 16` instances (consecutive ids; a `Float32Array` or a `number[]`, 16 per instance, column-major); returns the first id. */
  addInstances(matrices: Float32Array | readonly number[]): number {
    matrices = instanceMatrices(matrices); // a Float32Array of 16 floats per instance, or a TypeError
    const n = matrices.length / 16, cpu = this.slots[this.levelCount + 1];
    // The spheres in the room the matrices will take in the CPU-only pool (addMany copies them).
    const spheres = cpu.scratchTail(n, n * 4) ?? new Float32Array(n * 4);
    this.updateWorldMatrix(true, false);
    this.spheres.remember(this.matrixWorld);
    // World spheres for the set and the grown bounds in one pass (kept aside until addMany succeeded).
    const bounds = scratchBounds.copy(this.boundingSphere);
    this.spheres.batch(this.matrixWorld, matrices, n, spheres, bounds, batchBounds);
    const first = this.set.addManyWithBounds(spheres, this.profile, batchBounds);
    this.boundingSphere.copy(bounds);
    this.grow(this.set.count);
    // Into the CPU-only pool in one block (one reservation, one copy), not one matrix at a time.
    cpu.enterMatrices(first, matrices, n, this.slotOf);
    this.levelOfId.fill(HIDDEN_LEVEL, first, first + n); this.flags.fill(FLAG_LIVE, first, first + n);
    this.live += n;
    if (n > 0) this.shadowDirty = true;
    return first;
  }

  /** Removes instance `id` now (its slot is refilled at once); the id may be reused by a later add. */
  removeInstance(id: number): void {
    this.checkId(id, 'removeInstance');
    const s = this.slotsOf(this.levelOfId[id]);
    s.leave(this.slotOf[id]);
    s.compact(this.slotOf);
    s.flush();
    if (this.copies.copyOf[id] >= 0) this.copies.drop(id, true);
    this.levelOfId[id] = HIDDEN_LEVEL; this.slotOf[id] = -1; this.flags[id] = 0;
    this.set.remove(id);
    this.live--;
  }

  /** Sets instance `id`'s matrix (relative to this object); its drawn slot is rewritten and marked. */
  setMatrixAt(id: number, matrix: Matrix4): void {
    this.checkId(id, 'setMatrixAt');
    const s = this.slotsOf(this.levelOfId[id]);
    s.setMatrix(this.slotOf[id], matrix.elements, 0);
    s.flush();
    this.writeWorldSphere(matrix.elements, 0);
    const c = scratchSphere.center;
    this.set.setSphere(id, c.x, c.y, c.z, scratchSphere.radius);
    this.expandBounds(id);
    if (this.levelOfId[id] === HIDDEN_LEVEL || this.levelOfId[id] === SHADOW_ONLY_LEVEL) this.shadowDirty = true;
    else if (this.shadowLOD === 'all') this.syncCopy(id, true);
  }

  /** Copies instance `id`'s matrix into `target`. */
  getMatrixAt(id: number, target: Matrix4): Matrix4 {
    this.checkId(id, 'getMatrixAt');
    return target.fromArray(this.slotsOf(this.levelOfId[id]).matrices, this.slotOf[id] * 16);
  }

  /** Sets instance `id`'s colour (enables per-instance colour on every level at the first call). */
  setColorAt(id: number, color: Color): void {
    this.checkId(id, 'setColorAt');
    if (!this.colored) { this.colored = true; for (const s of this.slots) s.enableColor(); this.copies.pool.enableColor(); }
    const s = this.slotsOf(this.levelOfId[id]);
    s.setColor(this.slotOf[id], color.r, color.g, color.b);
    s.flush();
    this.copies.setColor(id, color.r, color.g, color.b);
  }

  /** Copies instance `id`'s colour into `target` (white when no colour was ever set). */
  getColorAt(id: number, target: Color): Color {
    this.checkId(id, 'getColorAt');
    const c = this.slotsOf(this.levelOfId[id]).colors;
    if (c === null) return target.setRGB(1, 1, 1);
    const o = this.slotOf[id] * 3;
    return target.setRGB(c[o], c[o + 1], c[o + 2]);
  }

  /** Hides or shows instance `id` from the next `update` on (hidden instances cast no shadow). */
  setVisibleAt(id: number, visible: boolean): void {
    this.checkId(id, 'setVisibleAt');
    this.set.setHidden(id, !visible);
    if (visible) this.flags[id] &= ~FLAG_USER_HIDDEN;
    else this.flags[id] |= FLAG_USER_HIDDEN;
    this.shadowDirty = true;
  }

  /** Whether instance `id` is shown (not hidden with `setVisibleAt`). */
  getVisibleAt(id: number): boolean {
    this.checkId(id, 'getVisibleAt');
    return (this.flags[id] & FLAG_USER_HIDDEN) === 0;
  }

  /** Level instance `id` is drawn at: 0 … levels − 1, `SHADOW_ONLY_LEVEL` or `HIDDEN_LEVEL`. */
  levelOf(id: number): number { return this.levelOfId[id]; }

  /** Slot of instance `id` in the mesh of `levelOf(id)` (−1 when not drawn). */
  slotAt(id: number): number { return this.levelOfId[id] === HIDDEN_LEVEL ? -1 : this.slotOf[id]; }

  /** Instance id drawn in `slot` of level `level`'s mesh (or of the shadow mesh for `SHADOW_ONLY_LEVEL`). */
  instanceAt(level: number, slot: number): number { return this.slotsOf(level).owners[slot]; }

  /** Recomputes the tight bounding sphere of every live instance (O(n)). */
  computeBoundingSphere(): Sphere {
    this.boundingSphere.makeEmpty();
    for (let id = 0; id < this.set.count; id++) if (this.flags[id] & FLAG_LIVE) this.expandBounds(id);
    return this.boundingSphere;
  }

  /**
   * Chooses every instance's level for `camera` (thresholds policy without options) and updates
   * the level meshes: O(changed instances). Returns the batch engine's stats (same object each
   * frame). Throws only for invalid options. An unusable camera, a 0-px viewport or a `'pixels'`
   * metric with neither `viewportHeight` nor `renderer` (warned once per page) skips the frame
   * (`skippedFrames`), keeping every level (docs/defaults.md).
   */
  update(camera: Camera, options: LodUpdateOptions = THRESHOLDS): LodFrameStats {
    if (this.shared) throw new Error("InstancedLOD.update: this object shares a LodManager's set (options.set); the manager's update decides it (manager.addInstancedLOD)");
    const n = this.cache.update(camera);
    let viewport = NaN;
    if (this.viewportHeight !== null) viewport = this.viewportHeight;
    else if (this.renderer != null) viewport = this.renderer.getDrawingBufferSize(scratchSize).y;
    const pixels = this.set.getProfile(this.profile).metric === 'pixels';
    if (pixels && this.viewportHeight === null && this.renderer == null) warnNoViewport(this.name, 'InstancedLOD', 'set its renderer or viewportHeight', 'skippedFrames');
    if (n === 0 || (pixels && !(viewport > 0))) { this.skippedFrames++; return this.lastStats ?? EMPTY_STATS; }
    this.beforeFrame();
    const views = this.views;
    views.length = n;
    for (let i = 0; i < n; i++) {
      const v = views[i] ?? (views[i] = { frustum: this.cache.views[i] });
      v.frustum = this.cache.views[i];
      v.viewportHeight = viewport > 0 ? viewport : undefined;
    }
    const stats = this.set.update(views, options);
    this.afterFrame(stats, this.set.changed, this.set.changedCount);
    return stats;
  }

  /** @internal Before a frame (its own, or `LodManager`'s shared one): the world spheres follow this object's matrix. */
  beforeFrame(): void {
    this.updateWorldMatrix(true, false);
    if (this.spheres.moved(this.matrixWorld)) this.refreshSpheres();
  }

  /** @internal After a frame: the changed instances (`changed[0 … cc)`, this object's ids only) move to their pools. */
  afterFrame(stats: LodFrameStats, changed: Uint32Array, cc: number): void {
    this.lastStats = stats;
    this.applyChanges(changed, cc);
    for (const s of this.slots) { s.compact(this.slotOf); s.flush(); }
    this.copies.flush();
    // With a shadow LOD for every caster, the level meshes leave the shadow pass to the copies.
    const levelsCast = this.castShadow && !(this.shadowLOD === 'all' && this.shadowsOn());
    for (const m of this.levelMeshes) { m.castShadow = levelsCast; m.receiveShadow = this.receiveShadow; }
  }

  /** Whether `id` is a live instance of this object (with a shared `set`, other ids belong to other owners). */
  hasInstance(id: number): boolean { return id < this.flags.length && (this.flags[id] & FLAG_LIVE) !== 0; }

  /** Raycasts the drawn level of each instance; hits carry `object = this` and `instanceId` = the instance id. */
  override raycast(raycaster: Raycaster, intersects: Intersection[]): void {
    raycastLevels(this, this.slots, this.levelCount, raycaster, intersects); // (levelRaycast.ts)
  }

  /** Frees the GPU buffers of the level meshes (geometries and materials are the caller's). */
  override dispose(): void {
    for (const s of this.slots) s.mesh?.dispose();
    this.shadowCopyMesh.dispose();
    if (!this.shared) { this.set.dispose(); return; }
    // A shared set stays the manager's: only this object's instances leave it.
    for (let id = 0; id < this.flags.length; id++) if (this.flags[id] & FLAG_LIVE) this.set.remove(id);
    this.flags.fill(0); this.live = 0;
  }

  // ---------------------------------------------------------------------------------------------

  /** Moves every changed instance from its old pool into its new one; then shadow casters. */
  private applyChanges(changed: Uint32Array, cc: number): void {
    const set = this.set, levels = set.levels;
    const levelOf = this.levelOfId;
    const casters = this.shadowsOn();
    const light = casters ? this.lightFrustum() : null;
    const full = light !== null && (this.shadowDirty || this.lightRebuilds !== this.lightCache.rebuilds);
    // A large batch: each pool grown once; copied in the CPU-only pool's slot order when every change
    // leaves it (the first update), else four at a time (levelSlots.ts, batchMoves.ts).
    const L = this.levelCount, queue = cc >= 1024 ? this.queue : null;
    if (queue !== null && leavesCpuPoolOnly(this.slots, L, changed, cc, levels, levelOf)) {
      this.slots[L + 1].moveAllOut(this.slots, L, changed, cc, levels, levelOf, this.slotOf, this.netMoves);
    } else {
      if (queue !== null) reserveForMoves(this.slots, L, changed, cc, levels, levelOf, this.netMoves);
      for (let k = 0; k < cc; k++) {
        const id = changed[k];
        let to = levels[id];
        if (to === HIDDEN_LEVEL && light !== null && !full && this.castsShadow(id, light)) to = SHADOW_ONLY_LEVEL;
        if (levelOf[id] !== to) this.move(id, to, queue);
      }
      queue?.flush();
    }
    if (full) this.shadowPass(light);
    else if (!casters && this.slots[this.levelCount].count > 0) this.clearShadowCasters();
    if (this.shadowLOD === 'all') {
      if (!casters) { if (this.copies.pool.count > 0) this.copies.clear(); }
      else if (full) { for (let id = 0; id < set.count; id++) if (this.hasInstance(id)) this.syncCopy(id, false); }
      else for (let k = 0; k < cc; k++) this.syncCopy(changed[k], false);
    }
  }

  /**
   * `shadowLOD: 'all'`: a drawn, visible instance inside the light's frustum has a copy (at the
   * shadow level) in `shadowCopyMesh`; anything else has none. Uses the light frustum of the last update.
   */
  private syncCopy(id: number, flush: boolean): void {
    const planes = this.lightCache.count > 0 ? this.lightCache.views[0].planes : null;
    const want = planes !== null && this.levelOfId[id] < this.levelCount && this.shadowsOn() && this.castsShadow(id, planes);
    this.copies.sync(id, want, this.slotsOf(this.levelOfId[id]), this.slotOf[id], flush);
  }

  /** Copies instance `id` into the pool of `to` (or queues the copy), then takes it out of its current pool. */
  private move(id: number, to: number, queue: MoveQueue | null = null): void {
    const from = this.slotsOf(this.levelOfId[id]), slot = this.slotOf[id], dest = this.slotsOf(to);
    this.slotOf[id] = queue !== null ? queue.move(id, from, slot, dest) : dest.enterFrom(id, from, slot);
    from.leave(slot);
    this.levelOfId[id] = to;
  }

  /** Re-decides every hidden instance's shadow-caster membership (light moved, or an off-screen instance changed). */
  private shadowPass(planes: Float64Array): void {
    const levelOf = this.levelOfId;
    for (let id = 0; id < this.set.count; id++) {
      const l = levelOf[id];
      if (l !== HIDDEN_LEVEL && l !== SHADOW_ONLY_LEVEL) continue;
      if (!(this.flags[id] & FLAG_LIVE)) continue;
      const want = this.castsShadow(id, planes);
      if (want !== (l === SHADOW_ONLY_LEVEL)) this.move(id, want ? SHADOW_ONLY_LEVEL : HIDDEN_LEVEL);
    }
    this.shadowDirty = false;
    this.lightRebuilds = this.lightCache.rebuilds;
  }

  private clearShadowCasters(): void {
    const shadow = this.slots[this.levelCount];
    for (let s = shadow.count - 1; s >= 0; s--) {
      const id = shadow.owners[s];
      if (id >= 0) this.move(id, HIDDEN_LEVEL);
    }
    this.shadowDirty = true;
  }

  private shadowsOn(): boolean {
    if (this.shadowLight === null || !this.castShadow) return false;
    return this.shadowCasters ?? this.renderer?.shadowMap?.enabled === true;
  }

  /** The light's shadow frustum planes (world space), or null when unusable; enables the shadow layer on its camera. */
  private lightFrustum(): Float64Array | null {
    this.shadowLight!.shadow.camera.layers.enable(this.shadowLayer);
    return shadowFrustumPlanes(this.shadowLight!, this.lightCache);
  }

  /** A live, user-visible instance whose world sphere is not wholly outside the light frustum. */
  private castsShadow(id: number, planes: Float64Array): boolean {
    if ((this.flags[id] & (FLAG_LIVE | FLAG_USER_HIDDEN)) !== FLAG_LIVE) return false;
    const s = this.set.spheres, o = id * 4;
    return sphereInPlanes(planes, s[o], s[o + 1], s[o + 2], s[o + 3]);
  }

  /** The pool of a `levelOf` code: a level, the shadow casters, or the CPU-only pool. */
  private slotsOf(level: number): LevelSlots {
    return this.slots[level < this.levelCount ? level : level === SHADOW_ONLY_LEVEL ? this.levelCount : this.levelCount + 1];
  }

  private initInstance(id: number, matrix: ArrayLike<number>, offset: number): void {
    this.levelOfId[id] = HIDDEN_LEVEL; this.flags[id] = FLAG_LIVE;
    this.slotOf[id] = this.slots[this.levelCount + 1].enterMatrix(id, matrix, offset);
    this.expandBounds(id);
    this.live++;
    this.shadowDirty = true;
  }

  /** Grows the instance bounds by instance `id`'s local sphere under its matrix (this object's space). */
  private expandBounds(id: number): void {
    this.spheres.inObject(this.slotsOf(this.levelOfId[id]).matrices, this.slotOf[id] * 16, scratchSphere);
    growBounds(this.boundingSphere, scratchSphere);
  }

  /** World sphere of the local sphere under `matrixWorld × matrix` into `scratchSphere`. */
  private writeWorldSphere(matrix: ArrayLike<number>, offset: number): void {
    this.spheres.inWorld(this.matrixWorld, matrix, offset, scratchSphere);
  }

  /** This object moved: recompute every instance's world sphere (O(n)). */
  private refreshSpheres(): void {
    this.spheres.remember(this.matrixWorld);
    for (let id = 0; id < this.set.count; id++) {
      if (!(this.flags[id] & FLAG_LIVE)) continue;
      this.writeWorldSphere(this.slotsOf(this.levelOfId[id]).matrices, this.slotOf[id] * 16);
      const c = scratchSphere.center;
      this.set.setSphere(id, c.x, c.y, c.z, scratchSphere.radius);
    }
    this.shadowDirty = true;
  }

  private grow(need: number): void {
    const cap = this.levelOfId.length;
    if (need <= cap) return;
    const next = Math.max(need, cap * 2, 16);
    const l = new Uint8Array(next).fill(HIDDEN_LEVEL); l.set(this.levelOfId); this.levelOfId = l;
    const s = new Int32Array(next).fill(-1); s.set(this.slotOf); this.slotOf = s;
    const f = new Uint8Array(next); f.set(this.flags); this.flags = f;
    if (this.shadowLOD === 'all') this.copies.grow(next); // (copy slots: only with a shadow LOD for every caster)
  }

  private checkId(id: number, method: string): void {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= this.set.count || !(this.flags[id] & FLAG_LIVE)) {
      throw new RangeError(`InstancedLOD.${method}: id must be a live instance id, got ${String(id)}`);
    }
  }
}
