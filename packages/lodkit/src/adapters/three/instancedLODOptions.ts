/**
 * Options, defaults and small helpers of `InstancedLOD` (instancedLOD.ts), kept apart so the class
 * module holds only the frame logic.
 *
 * @module
 */
import { Sphere, Vector3, type BufferGeometry, type Material } from 'three';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import type { ViewportSource } from './screenSizeLODOptions.js';
import type { ShadowLight, ShadowMapSource } from './shadowLight.js';

export { warnNoViewport } from './screenSizeLODOptions.js';

/** One level of an {@link InstancedLOD}: what to draw, finest first. @category three.js */
export interface InstancedLODLevel {
  geometry: BufferGeometry;
  material: Material | Material[];
}

/** Options of {@link InstancedLOD}. @category three.js */
export interface InstancedLODOptions {
  levels: InstancedLODLevel[];
  /** Metric of `thresholds`. Default `'pixels'` (unlike `ScreenSizeLOD`'s `'distance'`; see docs/defaults.md). */
  metric?: SphereMetric;
  /** lodkit thresholds (levels − 1 values): descending sizes, or ascending distances. */
  thresholds: ArrayLike<number>;
  /** Cost per level for the budget policies; default: triangles of each level geometry. */
  costs?: ArrayLike<number>;
  /** Error per level for the budget policies; default derived from costs by `LodSet`. */
  errors?: ArrayLike<number>;
  /** Hybrid policy: never coarser than this level. */
  qualityFloor?: number;
  /** Initial instance capacity (grows as needed). Default 1024. */
  capacity?: number;
  /** Local bounding sphere of one instance; default: the union of the level geometries' spheres. */
  sphere?: Sphere;
  /** Viewport height in pixels for the `'pixels'` metric; else read from `renderer`. */
  viewportHeight?: number | null;
  /** Drawing-buffer size for `'pixels'`; its `shadowMap.enabled` turns shadow casters on by default. */
  renderer?: (ViewportSource & ShadowMapSource) | null;
  /** Light whose shadow camera decides the off-screen shadow casters; default: none. */
  shadowLight?: ShadowLight | null;
  /** Keep off-screen instances the light sees drawn in its shadow pass. Default: `renderer.shadowMap.enabled`. */
  shadowCasters?: boolean | null;
  /** Level drawn for off-screen shadow casters. Default: the coarsest. */
  shadowLevel?: number | null;
  /** Layer of the shadow-only meshes (enabled on the light's shadow camera, never on yours). Default 31. */
  shadowLayer?: number;
  /**
   * Which casters use `shadowLevel` in the shadow pass: `'offscreen'` (default) — drawn instances
   * cast with the level they are drawn at, off-screen ones with `shadowLevel`; `'all'` — every caster
   * the light sees uses `shadowLevel` (drawn ones through a copy in `shadowCopyMesh`, 68 B each, and
   * the level meshes cast nothing): a coarse shadow LOD for the whole pass.
   */
  shadowLOD?: 'offscreen' | 'all';
}

/** Defaults of {@link InstancedLODOptions}. @category three.js */
export const INSTANCED_LOD_DEFAULTS = {
  metric: 'pixels' as SphereMetric, capacity: 1024, viewportHeight: null as number | null,
  shadowLight: null as ShadowLight | null, shadowCasters: null as boolean | null, shadowLevel: null as number | null, shadowLayer: 31,
  shadowLOD: 'offscreen' as 'offscreen' | 'all',
};

/** Upload accounting of an {@link InstancedLOD} (cumulative; diff two reads for one frame). @category three.js */
export interface InstancedUploadStats {
  /** Bytes marked with `addUpdateRange` (matrix and colour slots written). */
  bytes: number;
  /** Update ranges marked. */
  ranges: number;
  /** Bytes uploaded whole because a level's buffer grew or colours were enabled. */
  growthBytes: number;
}

/** Union of the level geometries' bounding spheres: the local sphere of one instance. */
export function unionSphere(geometries: BufferGeometry[]): Sphere {
  const out = new Sphere();
  out.makeEmpty();
  for (const g of geometries) {
    if (g.boundingSphere === null) g.computeBoundingSphere();
    const s = g.boundingSphere!;
    if (out.isEmpty()) out.copy(s); else out.union(s);
  }
  if (out.isEmpty()) out.set(new Vector3(), 0);
  return out;
}

/**
 * The instance matrices `addInstances` takes: a `Float32Array`, or a plain `number[]` (copied once),
 * 16 finite numbers per instance (column-major, as `Matrix4.elements`); else a TypeError.
 */
export function instanceMatrices(matrices: unknown): Float32Array {
  const plain = Array.isArray(matrices);
  if ((!plain && !(matrices instanceof Float32Array)) || (matrices as ArrayLike<number>).length % 16 !== 0) {
    throw new TypeError('InstancedLOD.addInstances: matrices must be a Float32Array or a number[] of 16 floats per instance');
  }
  if (!plain) return matrices as Float32Array;
  const list = matrices as unknown[];
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== 'number' || !Number.isFinite(list[i])) throw new TypeError(`InstancedLOD.addInstances: matrices[${i}] must be a finite number, got ${String(list[i])}`);
  }
  return Float32Array.from(list as number[]);
}
