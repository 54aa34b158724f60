/**
 * `BabylonLodManager`: one lodkit batch LOD decision per frame for many Babylon.js meshes. Each
 * registration is a bounding sphere in one `LodSet`; every `scene.onBeforeRenderObservable`
 * notification measures them against the scene's cameras (each of `scene.activeCameras` is a
 * lodkit view) with any policy (thresholds, rank quotas, triangle budget, hybrid) and touches only
 * the objects whose level changed.
 *
 * Contributor notes:
 * - Mirrors `lodkit/three`'s `LodManager`: structure-of-arrays bookkeeping by `LodSet` id
 *   (`owner`: index of the sink, `local`: index inside it), O(changes) work after `LodSet.update`.
 * - Levels are switched with `setEnabled`, not `isVisible`: a disabled node and its descendants
 *   leave Babylon's active-mesh evaluation (no culling test, no bounding update, no shadow or
 *   picking work), and a glTF level is often a node whose primitives are child meshes, which
 *   `isVisible` (one mesh only) would not hide.
 * - The observer runs after Babylon updated the cameras and before it evaluates active meshes, so
 *   a frame draws the levels chosen for its own camera.
 * - Camera frusta are rebuilt every frame (a few µs per camera); nothing else allocates per frame.
 *
 * @module
 */
import type { Camera } from '@babylonjs/core/Cameras/camera.js';
import type { Observer } from '@babylonjs/core/Misc/observable.js';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import type { Scene } from '@babylonjs/core/scene.js';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import { LodSet, type LodFrameStats, type LodUpdateOptions, type LodView } from '../../batch/lodSet.js';
import { Frustum } from '../../metrics/frustum.js';
import { babylonViewportHeight, frustumFromBabylonCamera } from './cameraFrustum.js';
import {
  BABYLON_LOD_MANAGER_DEFAULTS, nodeTriangles, nodeWorldSphere,
  type BabylonLevelSink, type BabylonLodManagerOptions, type BabylonLodOptions,
} from './lodManagerOptions.js';

const EMPTY_STATS: LodFrameStats = {
  totalCost: 0, levelCounts: new Uint32Array(1), changes: 0, budgetMet: true, minimumCost: 0, invalid: 0, hidden: 0,
};
const sphereScratch = new Float64Array(4);

/** The sink of one mesh registration: its level nodes, enabled one at a time. */
class MeshLevels implements BabylonLevelSink {
  shown = -1;
  constructor(readonly levels: readonly (TransformNode | null)[]) {}
  setLevel(_local: number, level: number): void {
    const want = level < this.levels.length ? level : -1;
    if (want === this.shown) return;
    if (this.shown >= 0) this.levels[this.shown]?.setEnabled(false);
    if (want >= 0) this.levels[want]?.setEnabled(true);
    this.shown = want;
  }
}

/**
 * Batched LOD for a Babylon.js scene: register each object's level meshes once; the manager
 * switches them every frame from the scene's cameras (left- or right-handed scene, perspective or
 * orthographic, vertical or horizontal `fovMode`, several `activeCameras`).
 *
 * @example
 * ```ts
 * import { BabylonLodManager } from 'lodkit/babylon';
 * const manager = new BabylonLodManager(scene, { update: { policy: budgetPolicy, budget: 2_000_000 } }); // budgetPolicy from 'lodkit'
 * for (const [high, mid, low] of trees) manager.add([high, mid, low, null], { metric: 'pixels', thresholds: [300, 80, 8] });
 * engine.runRenderLoop(() => scene.render()); // the manager runs before each frame
 * manager.lastStats.totalCost;                // triangles drawn
 * ```
 * @category Babylon
 */
export class BabylonLodManager {
  /** The batch engine; its `levels` and `sizes` are indexed by the handles this manager returns. */
  readonly set: LodSet;
  /** The scene whose `onBeforeRenderObservable` drives {@link BabylonLodManager.update}. */
  readonly scene: Scene;
  /** The `LodSet.update` options of every frame (any policy; change them any time). */
  options: LodUpdateOptions;
  /** Cameras measured; null: `scene.activeCameras` when non-empty, else `scene.activeCamera`. */
  cameras: readonly Camera[] | null;
  /** Viewport height in px for `'pixels'`; null: each camera's render height. */
  viewportHeight: number | null;
  /** Frames skipped: no usable camera, or a `'pixels'` profile with a 0-px viewport. Levels are kept. */
  skippedFrames = 0;
  /** Objects whose level changed in the last update. */
  touched = 0;
  /** Stats of the last update that ran (the batch engine's object, overwritten every frame). */
  lastStats: LodFrameStats = EMPTY_STATS;

  private readonly sinks: (BabylonLevelSink | null)[] = [];
  private readonly sinkIndex = new Map<BabylonLevelSink, number>();
  private owner = new Int32Array(0);
  private local = new Int32Array(0);
  private readonly nodes = new Map<number, MeshLevels>();
  private readonly profiles = new Map<string, number>();
  private pixelProfiles = 0;
  private readonly frusta: Frustum[] = [];
  private readonly views: LodView[] = [];
  private readonly viewList: LodView[] = [];
  private readonly flushList: BabylonLevelSink[] = [];
  private readonly flushMark: Uint8Array[] = [];
  private observer: Observer<Scene> | null = null;
  private readonly disposeObserver: Observer<Scene> | null;

  constructor(scene: Scene, options: BabylonLodManagerOptions = {}) {
    const o = { ...BABYLON_LOD_MANAGER_DEFAULTS, ...options };
    this.scene = scene;
    this.set = new LodSet(o.capacity);
    this.options = o.update;
    this.cameras = o.cameras;
    this.viewportHeight = o.viewportHeight;
    if (o.autoUpdate) this.observer = scene.onBeforeRenderObservable.add(() => { this.update(); });
    this.disposeObserver = scene.onDisposeObservable.add(() => { this.dispose(); });
  }

  /** Number of ids in use (a high-water mark, like `LodSet.count`). */
  get count(): number { return this.set.count; }

  /**
   * Registers one object: its level nodes, finest first (`null`: draw nothing at that level, e.g. a
   * last level that culls small objects). Every level is disabled until the first update enables
   * the chosen one. Returns the handle (the `LodSet` id).
   */
  add(levels: readonly (TransformNode | null)[], options: BabylonLodOptions): number {
    if (!Array.isArray(levels) || levels.length === 0) throw new RangeError('BabylonLodManager.add: levels must list at least one node');
    if (options.thresholds.length !== levels.length - 1) {
      throw new RangeError(`BabylonLodManager.add: thresholds must have levels − 1 = ${levels.length - 1} values, got ${options.thresholds.length}`);
    }
    const first = levels[0];
    if (options.sphere === undefined && first === null) throw new RangeError('BabylonLodManager.add: level 0 is null; pass options.sphere');
    const costs = options.costs ?? nonIncreasing(levels.map(nodeTriangles));
    const profile = this.profile(options.metric, options.thresholds, costs, options);
    const sink = new MeshLevels(levels.slice());
    const id = this.addObject(this.sphereOf(sink, options), profile, sink, 0);
    this.nodes.set(id, sink);
    for (const l of levels) l?.setEnabled(false);
    return id;
  }

  /** Unregisters an object added with {@link BabylonLodManager.add}; its levels are left as they are. */
  remove(handle: number): void {
    if (!this.nodes.delete(handle)) throw new RangeError(`BabylonLodManager.remove: ${handle} is not a registered handle`);
    this.removeObject(handle);
  }

  /** Re-reads the world sphere of a registration after its nodes moved (or sets `sphere`). */
  refresh(handle: number, sphere?: { center: ArrayLike<number>; radius: number }): void {
    const sink = this.nodes.get(handle);
    if (sink === undefined) throw new RangeError(`BabylonLodManager.refresh: ${handle} is not a registered handle`);
    if (sphere === undefined && sink.levels[0] === null) throw new RangeError('BabylonLodManager.refresh: level 0 is null; pass the sphere');
    const s = this.sphereOf(sink, sphere === undefined ? {} : { sphere });
    this.set.setSphere(handle, s[0], s[1], s[2], s[3]);
  }

  /** The level drawn by a handle (`HIDDEN_LEVEL`, 255, when hidden or culled). */
  levelOf(handle: number): number { return this.set.levels[handle]; }

  /**
   * A profile of the batch engine for these thresholds and costs, shared by every registration
   * with the same values (a scene of 10k identical trees has one profile).
   */
  profile(metric: SphereMetric, thresholds: ArrayLike<number>, costs: ArrayLike<number>, o: { errors?: ArrayLike<number>; qualityFloor?: number } = {}): number {
    const key = JSON.stringify([metric, Array.from(thresholds, Math.fround), Array.from(costs), o.errors === undefined ? null : Array.from(o.errors), o.qualityFloor ?? null]);
    let p = this.profiles.get(key);
    if (p === undefined) {
      p = this.set.addProfile({
        metric, thresholds, costs,
        ...(o.errors !== undefined ? { errors: o.errors } : {}),
        ...(o.qualityFloor !== undefined ? { qualityFloor: o.qualityFloor } : {}),
      });
      this.profiles.set(key, p);
      if (metric === 'pixels') this.pixelProfiles++;
    }
    return p;
  }

  /**
   * Low level: registers one sphere `[x, y, z, r]` with `profile` whose level changes go to
   * `sink.setLevel(local, level)`. Returns the `LodSet` id.
   */
  addObject(sphere: ArrayLike<number>, profile: number, sink: BabylonLevelSink, local: number): number {
    let s = this.sinkIndex.get(sink);
    if (s === undefined) { s = this.sinks.length; this.sinks.push(sink); this.sinkIndex.set(sink, s); this.flushMark.push(new Uint8Array(1)); }
    const id = this.set.add({ center: [sphere[0], sphere[1], sphere[2]], radius: sphere[3], profile });
    if (this.owner.length < this.set.count) {
      const cap = Math.max(this.set.count, this.owner.length * 2, 64);
      const o = new Int32Array(cap); o.set(this.owner); this.owner = o;
      const l = new Int32Array(cap); l.set(this.local); this.local = l;
    }
    this.owner[id] = s;
    this.local[id] = local;
    return id;
  }

  /** Low level: frees an id of {@link BabylonLodManager.addObject} (its sink is not called). */
  removeObject(id: number): void {
    this.set.remove(id);
    this.owner[id] = -1;
  }

  /** Calls `sink.flush()` after the next update even if none of its objects changes level (e.g. it moved one). */
  requestFlush(sink: BabylonLevelSink): void {
    const s = this.sinkIndex.get(sink);
    if (s === undefined || sink.flush === undefined || this.flushMark[s][0] === 1) return;
    this.flushMark[s][0] = 1;
    this.flushList.push(sink);
  }

  /**
   * Runs one frame now (the observer calls it before every render): measures every object against
   * the cameras, applies {@link BabylonLodManager.options} and switches the objects whose level
   * changed. Returns the frame's stats; a skipped frame returns the previous ones.
   */
  update(): LodFrameStats {
    const cams = this.camerasNow();
    const views = this.viewList;
    views.length = 0;
    for (let i = 0; i < cams.length; i++) {
      const camera = cams[i];
      let f = this.frusta[i];
      if (f === undefined) { f = new Frustum(); this.frusta[i] = f; }
      try { frustumFromBabylonCamera(camera, f); } catch { continue; }
      const vh = this.viewportHeight ?? babylonViewportHeight(camera);
      if (this.pixelProfiles > 0 && !(vh > 0)) continue;
      let v = this.views[i];
      if (v === undefined) { v = { frustum: f }; this.views[i] = v; }
      v.frustum = f;
      v.viewportHeight = vh > 0 ? vh : undefined;
      views.push(v);
    }
    if (views.length === 0) { this.skippedFrames++; this.touched = 0; return this.lastStats; }
    const stats = this.set.update(views, this.options);
    this.lastStats = stats;
    const levels = this.set.levels, changed = this.set.changed, cc = this.set.changedCount;
    for (let k = 0; k < cc; k++) {
      const id = changed[k], s = this.owner[id];
      if (s < 0) continue;
      const sink = this.sinks[s]!;
      sink.setLevel(this.local[id], levels[id]);
      if (sink.flush !== undefined && this.flushMark[s][0] === 0) { this.flushMark[s][0] = 1; this.flushList.push(sink); }
    }
    for (const sink of this.flushList) { sink.flush!(); this.flushMark[this.sinkIndex.get(sink)!][0] = 0; }
    this.flushList.length = 0;
    this.touched = cc;
    return stats;
  }

  /** Removes every observer this manager added and ends the batch engine's threads. Levels stay as they are. */
  dispose(): void {
    if (this.observer !== null) { this.scene.onBeforeRenderObservable.remove(this.observer); this.observer = null; }
    if (this.disposeObserver !== null) this.scene.onDisposeObservable.remove(this.disposeObserver);
    this.set.dispose();
  }

  private camerasNow(): readonly Camera[] {
    if (this.cameras !== null) return this.cameras;
    const active = this.scene.activeCameras;
    if (active !== null && active.length > 0) return active;
    const single = this.scene.activeCamera;
    return single === null ? NO_CAMERAS : (this.oneCamera[0] = single, this.oneCamera);
  }

  private readonly oneCamera: Camera[] = [];

  private sphereOf(sink: MeshLevels, o: Pick<BabylonLodOptions, 'sphere'>): Float64Array {
    if (o.sphere !== undefined) {
      sphereScratch[0] = o.sphere.center[0]; sphereScratch[1] = o.sphere.center[1]; sphereScratch[2] = o.sphere.center[2];
      sphereScratch[3] = o.sphere.radius;
    } else {
      nodeWorldSphere(sink.levels[0]!, sphereScratch);
    }
    return sphereScratch;
  }
}

const NO_CAMERAS: readonly Camera[] = [];

function nonIncreasing(values: number[]): number[] {
  for (let i = 1; i < values.length; i++) if (values[i] > values[i - 1]) values[i] = values[i - 1];
  return values;
}


