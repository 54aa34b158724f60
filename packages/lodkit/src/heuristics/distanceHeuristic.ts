/**
 * OpenUSD's `UsdLodDistanceHeuristicQuery` (also MotoGP's "naive version"): the distance from a
 * viewpoint to the closest point of an extent (or to a centre point), against ascending thresholds.
 *
 * Contributor notes:
 * - The viewpoint is taken into the object's local space with the inverse transform, clamped to the
 *   extent, and the clamped point taken back to world space, exactly as OpenUSD does; the same
 *   1e-10 determinant guard falls back to the centre for singular transforms.
 * - Hysteresis clamps the previous distance into `[d − h, d + h]` under BOTH semantics: OpenUSD's
 *   `distanceHeuristicQuery.h` documents exactly that (the returned value lags the true distance by
 *   `h`), and its code does it. Keep-or-jump is only what the screen-size docs describe. So for
 *   distances `semantics` changes nothing today; it is accepted so that one option object can
 *   configure both heuristics. There is no near-plane rule for distances.
 * - The centre is rounded to float32, as OpenUSD's query holds it (`GfVec3f`, the schema's
 *   `point3f`); points go through `GfMatrix4d::Transform` (with the w-divide) and the inverse is
 *   computed in `GfMatrix4d::GetInverse`'s operation order, so distances agree to the last bit.
 *
 * @module
 */
import { Frustum, type InputMode } from '../metrics/frustum.js';
import { determinant, IDENTITY_MATRIX, invertMatrixGf, length3, transformPointProjective, type Mat4Like, type Vec3Like } from '../metrics/vector.js';
import { checkMatrix, isEmptyExtent, readExtent, type Extent } from './extent.js';
import { HeuristicQuery, queryResult } from './heuristicQuery.js';
import { hysteresisOpenUsd, type HysteresisSemantics } from './lodIndex.js';

/** Options for {@link DistanceHeuristic}. @category Heuristics */
export interface DistanceHeuristicOptions {
  /** Local-space centre used when there is no (non-empty) extent. Default `[0, 0, 0]`. */
  center?: Vec3Like;
  /** Local-space box; when set and non-empty the distance is to its closest point. */
  extent?: Extent;
  /** Ascending distances, e.g. `[5, 20]`: LOD 0 under 5, LOD 1 under 20, else LOD 2. */
  thresholds: ArrayLike<number>;
  /** Ascending blend thresholds, each in `[thresholds[i], thresholds[i+1])`. */
  blendThresholds?: ArrayLike<number>;
  /** `'documented'` (default) or `'openusd'`: both clamp hysteresis, as OpenUSD documents for distances. */
  semantics?: HysteresisSemantics;
  /** OpenUSD's `lodDomain` token. Default `'imaging'`. */
  domain?: string;
  /** `'strict'` (default) validates the thresholds; `'openusd'` takes them in any order, with extra blend thresholds, as OpenUSD does. */
  input?: InputMode;
}

const DISTANCE_DEFAULTS = {
  center: [0, 0, 0] as Vec3Like,
  semantics: 'documented' as HysteresisSemantics,
  domain: 'imaging',
  input: 'strict' as InputMode,
};

const SINGULAR_DETERMINANT = 1e-10;

/** OpenUSD's guard `|det| > 1e-10`, as a boolean so that no double crosses a call boundary. */
function isInvertible(m: Mat4Like): boolean {
  return Math.abs(determinant(m)) > SINGULAR_DETERMINANT;
}
const scratchInverse = new Float64Array(16);
const scratchDet = new Float64Array(1);
const scratchPoint = new Float64Array(3);

/**
 * OpenUSD's distance LOD heuristic.
 *
 * @example
 * ```ts
 * import { DistanceHeuristic } from 'lodkit';
 * const h = new DistanceHeuristic({ extent: { min: [-1, -1, -1], max: [1, 1, 1] }, thresholds: [5, 20], blendThresholds: [8, 25] });
 * h.computeDistance([0, 0, 10]);   // 9
 * h.computeLod(6.5);               // 0.5 (blending LOD 0 → 1)
 * ```
 * @category Heuristics
 */
export class DistanceHeuristic extends HeuristicQuery<Vec3Like | Frustum> {
  readonly center: Float64Array;
  /** `[minX, minY, minZ, maxX, maxY, maxZ]`, or `null` when there is no extent or it is empty. */
  readonly extent: Float64Array | null;

  constructor(options: DistanceHeuristicOptions) {
    const owner = 'DistanceHeuristic';
    if (options == null || typeof options !== 'object') throw new RangeError(`${owner}: options must be an object`);
    const o = { ...DISTANCE_DEFAULTS, ...options };
    const c = readExtent({ min: o.center, max: o.center }, owner, 'center');
    const extent = o.extent === undefined ? null : readExtent(o.extent, owner);
    super(o, 'ascending', owner);
    // OpenUSD's query holds the centre as a GfVec3f (the schema's point3f): round it to float32.
    this.center = Float64Array.of(Math.fround(c[0]), Math.fround(c[1]), Math.fround(c[2]));
    this.extent = extent && !isEmptyExtent(extent) ? extent : null;
  }

  /**
   * Distance from `viewpoint` (a point, or a {@link Frustum}'s position) to the closest point of the
   * transformed extent (0 inside it), or to the transformed centre; optionally with hysteresis.
   */
  computeDistance(viewpoint: Vec3Like | Frustum, transform?: Mat4Like, prevDistance?: number, hysteresis = 0): number {
    this.measure(viewpoint, transform, prevDistance, hysteresis);
    return queryResult[0];
  }

  /** Leaves the distance (after hysteresis) in `queryResult[0]` (see ScreenSizeHeuristic's note on boxed doubles). */
  protected measure(viewpoint: Vec3Like | Frustum, transform: Mat4Like | undefined, prevDistance: number | undefined, hysteresis: number): void {
    const owner = 'DistanceHeuristic.computeDistance';
    const v = viewpoint instanceof Frustum ? viewpoint.position : viewpoint;
    if (v == null || typeof v.length !== 'number' || v.length < 3 || !Number.isFinite(v[0]) || !Number.isFinite(v[1]) || !Number.isFinite(v[2])) {
      throw new RangeError(`${owner}: viewpoint must be 3 finite numbers or a Frustum`);
    }
    const m = transform ?? IDENTITY_MATRIX;
    if (transform !== undefined) checkMatrix(transform, owner);
    this.rawDistance(v[0], v[1], v[2], m);
    if (prevDistance === undefined) return;
    queryResult[0] = hysteresisOpenUsd(queryResult[0], prevDistance, hysteresis);
  }

  private rawDistance(vx: number, vy: number, vz: number, m: Mat4Like): void {
    let tx = this.center[0], ty = this.center[1], tz = this.center[2];
    const e = this.extent;
    if (e !== null && isInvertible(m)) {
      invertMatrixGf(m, scratchInverse, scratchDet);
      transformPointProjective(scratchInverse, vx, vy, vz, scratchPoint);
      const lx = scratchPoint[0], ly = scratchPoint[1], lz = scratchPoint[2];
      if (lx >= e[0] && lx <= e[3] && ly >= e[1] && ly <= e[4] && lz >= e[2] && lz <= e[5]) { queryResult[0] = 0; return; }
      tx = Math.min(Math.max(lx, e[0]), e[3]);
      ty = Math.min(Math.max(ly, e[1]), e[4]);
      tz = Math.min(Math.max(lz, e[2]), e[5]);
    }
    transformPointProjective(m, tx, ty, tz, scratchPoint);
    queryResult[0] = length3(scratchPoint[0] - vx, scratchPoint[1] - vy, scratchPoint[2] - vz);
  }
}
