/**
 * The options and registration types of {@link LodManager} (lodManager.ts), and its defaults.
 *
 * @module
 */
import type { BatchedMesh, Sphere } from 'three';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import type { LodProfileOptions } from '../../batch/core/profiles.js';
import type { ViewportSource } from './screenSizeLODOptions.js';
import type { ShadowLight, ShadowMapSource } from './shadowLight.js';

/** Per-level costs/errors/floor for a registration (the batch engine's profile extras). @category three.js */
export interface LodCostOptions {
  /** Register with this metric instead of the LOD's own (with `thresholds`); e.g. one LOD in several managers. */
  metric?: SphereMetric;
  /** Register with these lodkit thresholds (levels − 1 values) instead of the LOD's own. */
  thresholds?: ArrayLike<number>;
  /** Register with these blend thresholds instead of the LOD's own. */
  blendThresholds?: ArrayLike<number>;
  /** Cost per level (e.g. triangles); default: triangles counted from the level geometry. */
  costs?: ArrayLike<number>;
  /** Error per level for the budget policies; default derived from costs by `LodSet`. */
  errors?: ArrayLike<number>;
  /** Hybrid policy: never coarser than this level. */
  qualityFloor?: number;
  /**
   * The profile's own hysteresis bands (`LodProfileOptions.hysteresis`: one number, or one per
   * threshold), which replace the update's `hysteresis` for this object. Default for `add`: the
   * LOD's per-level bands when any is above 0, as its own `update` applies them; else none.
   */
  hysteresis?: number | ArrayLike<number>;
}

/** Per-instance LOD options shared by {@link LodManager.addBatched}. @category three.js */
export interface InstancedLodOptions extends Omit<LodCostOptions, 'metric' | 'thresholds'> {
  metric: SphereMetric;
  /** lodkit thresholds (levels − 1 values): descending sizes, or ascending distances. */
  thresholds: ArrayLike<number>;
  blendThresholds?: ArrayLike<number>;
  /** Local bounding sphere of one instance; default: the level-0 geometry's bounding sphere. */
  sphere?: Sphere;
}

/** Options of {@link LodManager.addBatched}. @category three.js */
export interface BatchedLodOptions extends InstancedLodOptions {
  /** Geometry id of each level in the `BatchedMesh` (finest first); ignored with `levelDrawIds`. */
  levelGeometryIds: ArrayLike<number>;
  /**
   * three r159–r165 only (no `setGeometryIdAt`): per instance, the geometry id drawn for each level,
   * finest first, `instanceIds.length × levels` values; entry `i × levels` must be `instanceIds[i]`.
   */
  levelDrawIds?: ArrayLike<number>;
}

/** Options of {@link LodManager}. @category three.js */
export interface LodManagerOptions {
  /** Initial capacity of the underlying `LodSet`. Default 1024. */
  capacity?: number;
  /** Viewport height in pixels for the `'pixels'` metric; else read from `renderer`. */
  viewportHeight?: number | null;
  renderer?: (ViewportSource & ShadowMapSource) | null;
  /** Light whose shadow camera decides which culled objects keep casting shadows. Default: none. */
  shadowLight?: ShadowLight | null;
  /**
   * Keep objects outside the camera's view but inside the light's shadow frustum drawn at their
   * coarsest level with triangles, so three's shadow pass still draws them (its own culling keeps
   * them off screen). Default: `renderer.shadowMap.enabled`.
   */
  shadowCasters?: boolean | null;
}

/** Defaults of {@link LodManagerOptions}. @category three.js */
export const LOD_MANAGER_DEFAULTS = {
  capacity: 1024, viewportHeight: null as number | null, renderer: null as (ViewportSource & ShadowMapSource) | null,
  shadowLight: null as ShadowLight | null, shadowCasters: null as boolean | null,
};

/**
 * Instances of a `BatchedMesh` registered by {@link LodManager.addBatched}; instance
 * `instanceIds[k]` has LodSet id `firstId + k`.
 * @example
 * ```ts
 * const g = manager.addBatched(batched, ids, { metric: 'pixels', thresholds: [80, 20], levelGeometryIds: [g0, g1, g2] });
 * manager.set.levels[g.firstId]; // level of ids[0]
 * ```
 * @category three.js
 */
export interface BatchedLodGroup {
  readonly mesh: BatchedMesh;
  readonly instanceIds: Int32Array;
  readonly levelGeometryIds: Int32Array;
  readonly firstId: number;
  /** three < r166 only: the draw id of each instance's levels (instance-major), else null. */
  readonly levelDrawIds: Int32Array | null;
}

/** The engine profile of a registration (what `LodManager` passes to `LodSet.addProfile`). @internal */
export function profileOptions(metric: SphereMetric, thresholds: ArrayLike<number>, blends: ArrayLike<number> | undefined, costs: ArrayLike<number>, o: LodCostOptions): LodProfileOptions {
  return {
    metric, thresholds, costs,
    ...(blends !== undefined && blends.length > 0 ? { blendThresholds: blends } : {}),
    ...(o.errors !== undefined ? { errors: o.errors } : {}),
    ...(o.qualityFloor !== undefined ? { qualityFloor: o.qualityFloor } : {}),
    ...(o.hysteresis !== undefined ? { hysteresis: o.hysteresis } : {}),
  };
}

/** Registrations with equal keys share one profile (10k identical trees: one profile). @internal */
export function profileKey(p: LodProfileOptions): string {
  const list = (a: ArrayLike<number> | number | undefined, f = (x: number) => x) => (a === undefined ? null : typeof a === 'number' ? a : Array.from(a, f));
  return JSON.stringify([p.metric, list(p.thresholds, Math.fround), list(p.blendThresholds, Math.fround), list(p.costs), list(p.errors), p.qualityFloor ?? null, list(p.hysteresis)]);
}

/**
 * `addBatched`'s geometry id per level (`geo`) and, on three r159–r165 (no `setGeometryIdAt`), the
 * draw id of every (instance, level) (`drawIds`, checked: the level-0 draw is the instance). @internal
 */
export function batchedLevelIds(mesh: BatchedMesh, ids: Int32Array, options: BatchedLodOptions, levelCount: number): { geo: Int32Array; drawIds: Int32Array | null } {
  const legacy = typeof (mesh as { setGeometryIdAt?: unknown }).setGeometryIdAt !== 'function';
  let geo: Int32Array, drawIds: Int32Array | null = null;
  if (legacy) {
    if (options.levelDrawIds === undefined) {
      throw new RangeError('LodManager.addBatched: this three.js BatchedMesh (< r166) has no setGeometryIdAt; give options.levelDrawIds (instanceIds.length × levels geometry ids)');
    }
    drawIds = Int32Array.from(options.levelDrawIds);
    if (drawIds.length !== ids.length * levelCount) {
      throw new RangeError(`LodManager.addBatched: levelDrawIds must have instanceIds.length × levels = ${ids.length * levelCount} values, got ${drawIds.length}`);
    }
    for (let i = 0; i < ids.length; i++) {
      if (drawIds[i * levelCount] !== ids[i]) throw new RangeError(`LodManager.addBatched: levelDrawIds[${i * levelCount}] must equal instanceIds[${i}] (the level-0 draw of instance ${i})`);
    }
    geo = drawIds.slice(0, levelCount);
  } else {
    geo = Int32Array.from(options.levelGeometryIds);
    if (geo.length !== levelCount) {
      throw new RangeError(`LodManager.addBatched: levelGeometryIds must have thresholds.length + 1 = ${levelCount} values, got ${geo.length}`);
    }
  }
  return { geo, drawIds };
}
