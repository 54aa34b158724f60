/**
 * The options and registration types of {@link BabylonLodManager} (lodManager.ts), its defaults,
 * and the level-cost helpers that read Babylon meshes.
 *
 * @module
 */
import type { Camera } from '@babylonjs/core/Cameras/camera.js';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import type { LodUpdateOptions } from '../../batch/core/updateOptions.js';

/**
 * A world-space bounding sphere.
 * @example
 * ```ts
 * const sphere: BabylonSphere = { center: [0, 1, 0], radius: 2 };
 * ```
 * @category Babylon
 */
export interface BabylonSphere {
  center: ArrayLike<number>;
  radius: number;
}

/**
 * How one registration switches: lodkit's metric and thresholds, plus the batch engine's profile
 * extras for the budget and hybrid policies.
 * @example
 * ```ts
 * const options: BabylonLodOptions = { metric: 'pixels', thresholds: [300, 80, 20] };
 * ```
 * @category Babylon
 */
export interface BabylonLodOptions {
  /** lodkit's sphere metric: `'pixels'`, `'screenHeight'`, `'screenArea'` (OpenUSD) or `'distance'`. */
  metric: SphereMetric;
  /** levels − 1 values: descending sizes, or ascending distances (lodkit's rule, OpenUSD's). */
  thresholds: ArrayLike<number>;
  /** Cost per level (e.g. triangles); default: triangles counted from each level (0 for a `null` level). */
  costs?: ArrayLike<number>;
  /** Error per level for the budget policies; default derived from costs by `LodSet`. */
  errors?: ArrayLike<number>;
  /** Hybrid policy: never coarser than this level. */
  qualityFloor?: number;
  /**
   * World bounding sphere measured every frame; default: level 0's bounding sphere (Babylon's
   * `boundingInfo.boundingSphere`, or the hierarchy's box for a node without geometry), read at
   * registration and by {@link BabylonLodManager.refresh}.
   */
  sphere?: BabylonSphere;
}

/**
 * Options of {@link BabylonLodManager}.
 * @example
 * ```ts
 * const options: BabylonLodManagerOptions = { update: { policy: 'budget', budget: 2_000_000 } };
 * ```
 * @category Babylon
 */
export interface BabylonLodManagerOptions {
  /** Initial capacity of the underlying `LodSet`. Default 1024. */
  capacity?: number;
  /** The `LodSet.update` options used every frame (any policy). Default `{ policy: 'thresholds' }`. */
  update?: LodUpdateOptions;
  /** Cameras measured as lodkit views; default (null): `scene.activeCameras` when set, else `scene.activeCamera`. */
  cameras?: readonly Camera[] | null;
  /** Viewport height in px for `'pixels'`; default (null): `engine.getRenderHeight()` × each camera's `viewport.height`. */
  viewportHeight?: number | null;
  /** Run an update in every `scene.onBeforeRenderObservable` notification. Default true. */
  autoUpdate?: boolean;
}

/**
 * Defaults of {@link BabylonLodManagerOptions}.
 * @example
 * ```ts
 * BABYLON_LOD_MANAGER_DEFAULTS.capacity; // 1024
 * ```
 * @category Babylon
 */
export const BABYLON_LOD_MANAGER_DEFAULTS = {
  capacity: 1024,
  update: { policy: 'thresholds' } as LodUpdateOptions,
  cameras: null as readonly Camera[] | null,
  viewportHeight: null as number | null,
  autoUpdate: true,
};

/**
 * Receives the level changes of a group of objects registered with
 * {@link BabylonLodManager.addObject} (the thin-instance LOD and the mesh registrations are sinks).
 * @example
 * ```ts
 * const sink: BabylonLevelSink = { setLevel(local, level) { console.log(local, level); } };
 * ```
 * @category Babylon
 */
export interface BabylonLevelSink {
  /** Object `local` of the group now draws `level` (`HIDDEN_LEVEL`, 255, when hidden or culled). */
  setLevel(local: number, level: number): void;
  /** Called once after a frame's changes, when `setLevel` was called at least once that frame. */
  flush?(): void;
}

/** Triangles of a node and the meshes under it (indices ÷ 3, or vertices ÷ 3 when unindexed). @internal */
export function nodeTriangles(node: TransformNode | null): number {
  if (node === null) return 0;
  let total = 0;
  const meshes: AbstractMesh[] = isMesh(node) ? [node, ...node.getChildMeshes(false)] : node.getChildMeshes(false);
  for (const m of meshes) {
    const indices = m.getTotalIndices();
    total += indices > 0 ? indices / 3 : m.getTotalVertices() / 3;
  }
  return Math.floor(total);
}

/** Whether a node is an `AbstractMesh` (duck-typed: no runtime import of Babylon). @internal */
export function isMesh(node: TransformNode): node is AbstractMesh {
  const n = node as unknown as { getBoundingInfo?: unknown; getTotalIndices?: unknown };
  return typeof n.getBoundingInfo === 'function' && typeof n.getTotalIndices === 'function';
}

/**
 * World bounding sphere of a node: Babylon's own bounding sphere of a mesh with geometry and no
 * child meshes, else the sphere around the hierarchy's world box. @internal
 */
export function nodeWorldSphere(node: TransformNode, out: Float64Array): void {
  node.computeWorldMatrix(true);
  if (isMesh(node) && node.getTotalVertices() > 0 && node.getChildMeshes(false).length === 0) {
    const s = node.getBoundingInfo().boundingSphere;
    out[0] = s.centerWorld.x; out[1] = s.centerWorld.y; out[2] = s.centerWorld.z; out[3] = s.radiusWorld;
    return;
  }
  const { min, max } = node.getHierarchyBoundingVectors(true);
  out[0] = (min.x + max.x) / 2; out[1] = (min.y + max.y) / 2; out[2] = (min.z + max.z) / 2;
  const dx = max.x - min.x, dy = max.y - min.y, dz = max.z - min.z;
  out[3] = Math.sqrt(dx * dx + dy * dy + dz * dz) / 2;
}
