/**
 * OpenUSD's `UsdLodScreenSizeHeuristicQuery`: the screen size of an extent (projectedSphere or
 * projectedExtent) as a fraction of the view window, turned into a fractional LOD index.
 *
 * Contributor notes:
 * - The two `semantics` exist because OpenUSD 26.08's documentation and its code disagree:
 *   - `'documented'` (default) follows the documentation: an object crossing the near plane has size
 *     1.0, and hysteresis keeps `prevSize` while `|size − prevSize| < hysteresis`, else jumps to `size`.
 *   - `'openusd'` reproduces the code: there is no 1.0 rule (projectedExtent clips the box's 12 edges
 *     against the near plane and measures what is left; projectedSphere has no near-plane special
 *     case) and hysteresis clamps `prevSize` into `[size − h, size + h]`.
 *   "Crossing the near plane" means the method's own volume straddles it: the box's corners for
 *   projectedExtent, the sphere for projectedSphere.
 * - projectedExtent works on module-level scratch arrays (8 clip corners, ≤ 24 clipped points, a hull)
 *   and an insertion sort: a call creates no objects or arrays. Inner kernels pass results through a
 *   scratch `Float64Array` instead of returning doubles, which V8 boxes when a call is not inlined.
 *   The public methods are too large for V8 to inline into a caller's loop, so their own double
 *   arguments and results still cross a call boundary as heap numbers: measured with V8's sampling
 *   heap profiler, `select(…, out)` leaves about 23 bytes of short-lived garbage per call (44 when
 *   projectedExtent clips at the near plane; DistanceHeuristic 87). Per-frame work over many objects belongs in the
 *   batch engine, which loops internally and allocates nothing; these classes are the per-object
 *   reference and the way to match OpenUSD exactly.
 * - Matches OpenUSD's numbers bit for bit (test/heuristics/openusdOracle.test.ts): sphere from the
 *   transformed extent's min–max diagonal (points divided by w, as `GfMatrix4d::Transform`),
 *   perspective radius scaled by `referencePlaneDepth / |eye − centre|`, `Number.MAX_VALUE` when
 *   the eye is at the centre; a box wholly outside any single plane is 0, tested on plane equations
 *   pulled back into the box's space as `GfFrustum::Intersects(GfBBox3d)` does; the shape is never
 *   clipped by side planes; `GfProject` leaves a point with w = 0 undivided.
 *
 * @module
 */
import type { Frustum, InputMode } from '../metrics/frustum.js';
import { IDENTITY_MATRIX, invertMatrixGf, length3, multiplyMatrices, transformPointProjective, type Mat4Like } from '../metrics/vector.js';
import { checkMatrix, isEmptyExtent, readExtent, type Extent } from './extent.js';
import { HeuristicQuery, queryResult } from './heuristicQuery.js';
import { hysteresisDocumented, hysteresisOpenUsd, type HysteresisSemantics } from './lodIndex.js';

/** OpenUSD's `projectionMethod` tokens. @category Heuristics */
export type ScreenSizeProjection = 'projectedSphere' | 'projectedExtent';

/** Options for {@link ScreenSizeHeuristic}. @category Heuristics */
export interface ScreenSizeHeuristicOptions {
  /** Local-space bounding box; min > max means empty (size 0), as in OpenUSD. */
  extent: Extent;
  /** Default `'projectedSphere'`. */
  projection?: ScreenSizeProjection;
  /** Descending screen-area fractions, e.g. `[0.25, 0.10, 0.025]`. Default none (always LOD 0). */
  thresholds?: ArrayLike<number>;
  /** Descending blend thresholds, each in `(thresholds[i+1], thresholds[i]]`. */
  blendThresholds?: ArrayLike<number>;
  /** `'documented'` (default) or `'openusd'`; see the module notes. */
  semantics?: HysteresisSemantics;
  /** OpenUSD's `lodDomain` token: `'imaging'` (default), `'audio'`, `'physics'` or your own. */
  domain?: string;
  /**
   * `'strict'` (default) validates `projection` and the thresholds; `'openusd'` accepts what
   * OpenUSD's query accepts and computes what it computes: thresholds in any order and extra blend
   * thresholds (indices by OpenUSD's binary searches), and any other `projection` token measured as
   * `projectedExtent`, as OpenUSD does after its coding error.
   */
  input?: InputMode;
}

const SCREEN_SIZE_DEFAULTS = {
  projection: 'projectedSphere' as ScreenSizeProjection,
  semantics: 'documented' as HysteresisSemantics,
  domain: 'imaging',
  input: 'strict' as InputMode,
};

// Box corner i has x from bit 0, y from bit 1, z from bit 2 (GfRange3d::GetCorner order).
const BOX_EDGES = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7]);

const scratchClip = new Float64Array(16);
const scratchInverse = new Float64Array(16);
const scratchAdjoint = new Float64Array(16);
const scratchDet = new Float64Array(1);
/** `GfBBox3d`'s precision limit: a transform with |det| ≤ 1e-13 is degenerate and keeps the identity as its inverse. */
const BBOX_PRECISION_LIMIT = 1e-13;
const scratchModelView = new Float64Array(16);
const scratchCorners = new Float64Array(32); // 8 × (x, y, z, w)
const scratchPoints = new Float64Array(48); // ≤ 24 × (x, y)
const scratchHull = new Float64Array(50); // ≤ 25 × (x, y)
const scratchVec = new Float64Array(3);

/**
 * OpenUSD's screen-size LOD heuristic: projects an extent (or its bounding sphere) into a frustum's
 * window and maps the covered fraction to a (possibly fractional) LOD index.
 *
 * @example
 * ```ts
 * import { Frustum, ScreenSizeHeuristic } from 'lodkit';
 * const heuristic = new ScreenSizeHeuristic({
 *   extent: { min: [-1, -1, -1], max: [1, 1, 1] },
 *   projection: 'projectedExtent',
 *   thresholds: [0.25, 0.10], blendThresholds: [0.20, 0.05],
 * });
 * const frustum = new Frustum({ position: [0, 0, 6] });
 * let prev = 0;
 * const { lod, size } = heuristic.select(frustum, undefined, prev, 0.01);
 * prev = size; // keep for the next frame
 * ```
 * @category Heuristics
 */
export class ScreenSizeHeuristic extends HeuristicQuery<Frustum> {
  /** `[minX, minY, minZ, maxX, maxY, maxZ]`. */
  readonly extent: Float64Array;
  readonly projection: ScreenSizeProjection;
  private readonly empty: boolean;
  private readonly documented: boolean;

  constructor(options: ScreenSizeHeuristicOptions) {
    const owner = 'ScreenSizeHeuristic';
    if (options == null || typeof options !== 'object') throw new RangeError(`${owner}: options must be an object with an extent`);
    const o = { ...SCREEN_SIZE_DEFAULTS, ...options };
    const extent = readExtent(o.extent, owner);
    super(o, 'descending', owner);
    if (this.unchecked) {
      if (o.projection !== 'projectedSphere') o.projection = 'projectedExtent';
    } else if (o.projection !== 'projectedSphere' && o.projection !== 'projectedExtent') {
      throw new RangeError(`${owner}: projection must be 'projectedSphere' or 'projectedExtent', got ${String(o.projection)}`);
    }
    this.extent = extent;
    this.projection = o.projection;
    this.documented = o.semantics === 'documented';
    this.empty = isEmptyExtent(extent);
  }

  /**
   * The extent's screen size as a fraction of the window (1.0 = covers the window), optionally with
   * hysteresis against the previous frame's size. `transform` maps local → world (column-major,
   * default identity). Allocation-free.
   */
  computeScreenSize(frustum: Frustum, transform?: Mat4Like, prevSize?: number, hysteresis = 0): number {
    this.measure(frustum, transform, prevSize, hysteresis);
    return queryResult[0];
  }

  /** Leaves the size (after hysteresis) in `queryResult[0]` rather than returning a double. */
  protected measure(frustum: Frustum, transform: Mat4Like | undefined, prevSize: number | undefined, hysteresis: number): void {
    const m = transform ?? IDENTITY_MATRIX;
    if (transform !== undefined) checkMatrix(transform, 'ScreenSizeHeuristic.computeScreenSize');
    if (this.empty) queryResult[0] = 0;
    else if (this.projection === 'projectedSphere') this.sphereSize(frustum, m);
    else this.extentSize(frustum, m);
    if (prevSize === undefined) return;
    const size = queryResult[0];
    queryResult[0] = this.documented ? hysteresisDocumented(size, prevSize, hysteresis) : hysteresisOpenUsd(size, prevSize, hysteresis);
  }

  private sphereSize(frustum: Frustum, m: Mat4Like): void {
    const e = this.extent;
    transformPointProjective(m, e[0], e[1], e[2], scratchVec);
    const x0 = scratchVec[0], y0 = scratchVec[1], z0 = scratchVec[2];
    transformPointProjective(m, e[3], e[4], e[5], scratchVec);
    const radius = length3(scratchVec[0] - x0, scratchVec[1] - y0, scratchVec[2] - z0) / 2;
    transformPointProjective(m, (e[0] + e[3]) / 2, (e[1] + e[4]) / 2, (e[2] + e[5]) / 2, scratchVec);
    const cx = scratchVec[0], cy = scratchVec[1], cz = scratchVec[2];
    if (frustum.cullsSphere(cx, cy, cz, radius)) { queryResult[0] = 0; return; }
    if (this.documented) {
      const dNear = frustum.planeDistance(4, cx, cy, cz);
      if (dNear > -radius && dNear < radius) { queryResult[0] = 1; return; }
    }
    let r = radius;
    if (frustum.isPerspective) {
      const p = frustum.position;
      const d = length3(p[0] - cx, p[1] - cy, p[2] - cz);
      if (d === 0) { queryResult[0] = Number.MAX_VALUE; return; }
      r = (radius * frustum.referencePlaneDepth) / d;
    }
    queryResult[0] = (Math.PI * r * r) / frustum.windowArea;
  }

  /**
   * OpenUSD's `GfFrustum::Intersects(GfBBox3d)`: each world plane is pulled back into the box's
   * local space (its equation times the transpose of local → world) and the local box must reach its
   * positive side. Working on plane equations rather than on transformed corners is what makes
   * projective transforms agree with OpenUSD (no w-divide of the corners). OpenUSD gets local →
   * world by inverting `GfBBox3d`'s inverse, and a box whose |det| ≤ 1e-13 keeps the identity as
   * its inverse, so a singular transform tests the untransformed box: `'openusd'` does both;
   * `'documented'` pulls back with the transform itself, which also culls a flattened box where it is.
   */
  private intersects(frustum: Frustum, m: Mat4Like): boolean {
    let a: Mat4Like = m;
    if (!this.documented) {
      if (!invertMatrixGf(m, scratchInverse, scratchDet, BBOX_PRECISION_LIMIT)) a = IDENTITY_MATRIX;
      else { invertMatrixGf(scratchInverse, scratchAdjoint, scratchDet); a = scratchAdjoint; }
    }
    const pl = frustum.planes, e = this.extent;
    for (let o = 0; o < 24; o += 4) {
      // Equation (n, w) of "n·p + w ≥ 0" times local → world, transposed: column j of `a` dotted with it.
      const e0 = pl[o], e1 = pl[o + 1], e2 = pl[o + 2], e3 = pl[o + 3];
      const nx = e0 * a[0] + e1 * a[1] + e2 * a[2] + e3 * a[3];
      const ny = e0 * a[4] + e1 * a[5] + e2 * a[6] + e3 * a[7];
      const nz = e0 * a[8] + e1 * a[9] + e2 * a[10] + e3 * a[11];
      const w = e0 * a[12] + e1 * a[13] + e2 * a[14] + e3 * a[15];
      // GfPlane::Set normalises (n, w); the sign of the test is unchanged by it, its rounding is not.
      const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
      const k = 1 / (len > 1e-10 ? len : 1e-10);
      const ux = nx * k, uy = ny * k, uz = nz * k;
      const distance = len !== 0 ? -w / len : -w;
      // The corner furthest along the normal (GfPlane::IntersectsPositiveHalfSpace).
      let d = 0;
      d += ux * (ux >= 0 ? e[3] : e[0]);
      d += uy * (uy >= 0 ? e[4] : e[1]);
      d += uz * (uz >= 0 ? e[5] : e[2]);
      if (!(d >= distance)) return false;
    }
    return true;
  }

  private extentSize(frustum: Frustum, m: Mat4Like): void {
    const e = this.extent;
    if (!this.intersects(frustum, m)) { queryResult[0] = 0; return; }
    // Clip-space corners: clip = projection · view · transform · corner.
    multiplyMatrices(frustum.viewMatrix, m, scratchModelView);
    multiplyMatrices(frustum.projectionMatrix, scratchModelView, scratchClip);
    const c = scratchClip, k = scratchCorners;
    let anyBehind = false, anyInFront = false;
    for (let i = 0; i < 8; i++) {
      const x = i & 1 ? e[3] : e[0], y = i & 2 ? e[4] : e[1], z = i & 4 ? e[5] : e[2];
      const o = i * 4;
      k[o] = c[0] * x + c[4] * y + c[8] * z + c[12];
      k[o + 1] = c[1] * x + c[5] * y + c[9] * z + c[13];
      k[o + 2] = c[2] * x + c[6] * y + c[10] * z + c[14];
      k[o + 3] = c[3] * x + c[7] * y + c[11] * z + c[15];
      const dNear = k[o + 2] + k[o + 3];
      if (dNear < 0) anyBehind = true; else if (dNear > 0) anyInFront = true;
    }
    if (this.documented && anyBehind && anyInFront) { queryResult[0] = 1; return; }
    clippedHullArea(k);
    queryResult[0] /= 8;
  }
}

/**
 * Writes to `queryResult` twice the NDC area of the convex hull of the box's 12 edges clipped against the near plane
 * (`z + w ≥ 0` in clip space), built with OpenUSD's monotone chain and its 1e-6 de-duplication.
 */
function clippedHullArea(k: Float64Array): void {
  const pts = scratchPoints;
  let count = 0;
  for (let edge = 0; edge < 24; edge += 2) {
    const i0 = BOX_EDGES[edge] * 4, i1 = BOX_EDGES[edge + 1] * 4;
    const d0 = k[i0 + 2] + k[i0 + 3];
    const d1 = k[i1 + 2] + k[i1 + 3];
    if (d0 < 0 && d1 < 0) continue;
    let tMin = 0, tMax = 1;
    if (d0 < 0 || d1 < 0) {
      const t = d0 / (d0 - d1);
      if (d0 < 0) tMin = Math.max(tMin, t); else tMax = Math.min(tMax, t);
    }
    for (let end = 0; end < 2; end++) {
      const t = end === 0 ? tMin : tMax;
      // GfLerp(t, p0, p1) = (1 − t)·p0 + t·p1, then GfProject divides by w.
      const s = 1 - t;
      const x = s * k[i0] + t * k[i1];
      const y = s * k[i0 + 1] + t * k[i1 + 1];
      const w = s * k[i0 + 3] + t * k[i1 + 3];
      const inv = w !== 0 ? 1 / w : 1; // GfProject multiplies by the reciprocal; w = 0 is left undivided
      pts[count * 2] = x * inv;
      pts[count * 2 + 1] = y * inv;
      count++;
    }
  }
  // Insertion sort by x, then y (≤ 24 points).
  for (let i = 1; i < count; i++) {
    const x = pts[i * 2], y = pts[i * 2 + 1];
    let j = i - 1;
    while (j >= 0 && (pts[j * 2] > x || (pts[j * 2] === x && pts[j * 2 + 1] > y))) {
      pts[(j + 1) * 2] = pts[j * 2];
      pts[(j + 1) * 2 + 1] = pts[j * 2 + 1];
      j--;
    }
    pts[(j + 1) * 2] = x;
    pts[(j + 1) * 2 + 1] = y;
  }
  // Remove near-duplicates (std::unique with GfIsClose(·, ·, 1e-6)).
  let unique = count > 0 ? 1 : 0;
  for (let i = 1; i < count; i++) {
    const kx = pts[(unique - 1) * 2], ky = pts[(unique - 1) * 2 + 1];
    if (Math.abs(kx - pts[i * 2]) < 1e-6 && Math.abs(ky - pts[i * 2 + 1]) < 1e-6) continue;
    pts[unique * 2] = pts[i * 2];
    pts[unique * 2 + 1] = pts[i * 2 + 1];
    unique++;
  }
  const hull = scratchHull;
  let h = 0;
  for (let i = 0; i < unique; i++) {
    const px = pts[i * 2], py = pts[i * 2 + 1];
    while (h >= 2 && turnsRight(hull, h, px, py)) h--;
    hull[h * 2] = px; hull[h * 2 + 1] = py; h++;
  }
  const lowerLimit = h + 1;
  for (let j = unique - 2; j >= 0; j--) {
    const px = pts[j * 2], py = pts[j * 2 + 1];
    while (h >= lowerLimit && turnsRight(hull, h, px, py)) h--;
    hull[h * 2] = px; hull[h * 2 + 1] = py; h++;
  }
  let area2 = 0;
  for (let i = 0; i < h - 1; i++) {
    area2 += hull[i * 2] * hull[i * 2 + 3] - hull[i * 2 + 1] * hull[i * 2 + 2];
  }
  queryResult[0] = area2;
}

/**
 * True when (b − a) × (p − a) ≤ 0 for a, b the last two hull points (a right turn or collinear).
 * Returns a boolean, not the cross product: see the note on boxed doubles in `computeScreenSize`.
 */
function turnsRight(hull: Float64Array, h: number, px: number, py: number): boolean {
  const ax = hull[(h - 2) * 2], ay = hull[(h - 2) * 2 + 1];
  const bx = hull[(h - 1) * 2], by = hull[(h - 1) * 2 + 1];
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax) <= 0;
}
