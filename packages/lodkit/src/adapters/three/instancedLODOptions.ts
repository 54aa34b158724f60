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
import { LodSet } from '../../batch/lodSet.js';

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
  /**
   * The batch engine to share: a `LodManager`'s `set`. The instances then live in that set beside
   * the manager's objects, and the manager's `update` decides them in the same `LodSet.update` (one
   * policy, one budget for the whole scene) once the object is registered with
   * `manager.addInstancedLOD(object)`; this object's own `update` is not used. Default: its own set.
   */
  set?: LodSet;
}

/** Defaults of {@link InstancedLODOptions}. @category three.js */
export const INSTANCED_LOD_DEFAULTS = {
  metric: 'pixels' as SphereMetric, capacity: 1024, viewportHeight: null as number | null,
  shadowLight: null as ShadowLight | null, shadowCasters: null as boolean | null, shadowLevel: null as number | null, shadowLayer: 31,
  shadowLOD: 'offscreen' as 'offscreen' | 'all',
};

/**
 * `options` with {@link INSTANCED_LOD_DEFAULTS} filled in and checked at the boundary (a TypeError or
 * RangeError naming the field), and `shadowLevel` resolved (default: the coarsest level).
 */
export function resolveInstancedLODOptions(options: InstancedLODOptions) {
  const o = { ...INSTANCED_LOD_DEFAULTS, ...options };
  if (!Array.isArray(o.levels) || o.levels.length < 1 || o.levels.length > 253) throw new TypeError('InstancedLOD: levels must be an array of 1 … 253 {geometry, material}');
  o.levels.forEach((l, i) => {
    if (l == null || (l.geometry as { isBufferGeometry?: boolean })?.isBufferGeometry !== true) throw new TypeError(`InstancedLOD: levels[${i}].geometry must be a BufferGeometry`);
    if (l.material == null) throw new TypeError(`InstancedLOD: levels[${i}].material is required`);
  });
  const L = o.levels.length;
  if (o.thresholds == null || o.thresholds.length !== L - 1) throw new RangeError(`InstancedLOD: thresholds must have levels − 1 = ${L - 1} values, got ${o.thresholds?.length}`);
  if (!Number.isInteger(o.capacity) || o.capacity < 1) throw new RangeError(`InstancedLOD: capacity must be an integer ≥ 1, got ${String(o.capacity)}`);
  const shadowLevel = o.shadowLevel ?? L - 1;
  if (!Number.isInteger(shadowLevel) || shadowLevel < 0 || shadowLevel >= L) throw new RangeError(`InstancedLOD: shadowLevel must be an integer in [0, ${L - 1}], got ${String(shadowLevel)}`);
  if (!Number.isInteger(o.shadowLayer) || o.shadowLayer < 1 || o.shadowLayer > 31) throw new RangeError(`InstancedLOD: shadowLayer must be an integer in [1, 31], got ${String(o.shadowLayer)}`);
  if (o.set !== undefined && !(o.set instanceof LodSet)) throw new TypeError('InstancedLOD: set must be a LodSet (a LodManager\'s `set`)');
  if (o.shadowLOD !== 'offscreen' && o.shadowLOD !== 'all') throw new RangeError(`InstancedLOD: shadowLOD must be 'offscreen' or 'all', got ${String(o.shadowLOD)}`);
  return { ...o, shadowLevel };
}

/** Upload accounting of an {@link InstancedLOD} (cumulative; diff two reads for one frame). @category three.js */
export interface InstancedUploadStats {
  /**
   * Bytes of the update ranges handed to three (matrix and colour slots written, plus the few slots
   * between ranges merged to save upload calls; ranges merged again before the renderer uploaded
   * them are counted once).
   */
  bytes: number;
  /** Update ranges handed to three (each one upload call, before three merges touching ones). */
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
