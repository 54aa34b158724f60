/**
 * Screen-size metrics of a bounding sphere, the seeds' other measures besides OpenUSD's extent:
 * MSFS's diameter as a fraction of the vertical screen, MotoGP's pixel diameter, OpenUSD's
 * projected-sphere area fraction, and the distance used by distance-based LOD.
 *
 * Contributor notes:
 * - Every function here takes scalars and a {@link FrustumView} (a `Frustum`, or the three.js
 *   adapter's lighter `CameraView`) and returns a number: nothing is
 *   allocated, nothing is validated per call (the frustum was validated when it was set). The
 *   batch engine inlines the same formulas over typed arrays; these are the reference versions.
 * - These are the unchecked formulas, for per-frame callers inside lodkit (ScreenSizeLOD) whose bad
 *   spheres must give a safe result, not a throw. `lodkit` exports checkedSphereMetrics.ts's
 *   wrappers, which reject a negative or NaN radius and a non-finite centre at the boundary.
 * - Allocation is checked with V8's sampling heap profiler (test/metrics/allocation.probe.mjs, 1e6
 *   calls each, fractional inputs): 0 bytes. Two V8 traps found that way: `Math.hypot` allocates,
 *   and returning a heap-number constant (`Infinity`) from one branch boxes every return value.
 * - Perspective sizes scale by the Euclidean eye–centre distance `d` (not the view depth), exactly
 *   as OpenUSD's projectedSphere and MotoGP's "1 / distance / tan(fov / 2)": the size of an object
 *   does not change as the camera turns away from it.
 * - "Wholly outside" uses the six planes (sphere behind any one plane → 0), so an object sliding
 *   off the side of the screen keeps its size until it is fully gone.
 *
 * @module
 */
import type { FrustumView } from './frustumView.js';
import { length3 } from './vector.js';

/**
 * The sphere's diameter as a fraction of the window's vertical extent (MSFS: 1.10 = 110 %).
 *
 * Perspective: `2R / (d · windowHeight)` = `R / (d · tan(fovY / 2))` for a centred window, with `d`
 * the eye–centre distance; orthographic: `2R / windowHeight`. Returns `+Infinity` when the eye is
 * inside the sphere (perspective) and 0 when the sphere is wholly outside the frustum.
 *
 * @example
 * ```ts
 * const frustum = Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.1, far: 1e4 });
 * sphereScreenHeight(frustum, 0, 0, -100, 30); // 0.5196… → MSFS LOD x2 (75 % … 50 %)
 * ```
 * @category Metrics
 */
export function sphereScreenHeight(frustum: FrustumView, x: number, y: number, z: number, radius: number): number {
  if (frustum.cullsSphere(x, y, z, radius)) return 0;
  if (!frustum.isPerspective) return (2 * radius) / frustum.windowHeight;
  const p = frustum.position;
  const d = length3(x - p[0], y - p[1], z - p[2]);
  // Eye inside the sphere: divide by +0 to get +Infinity. Returning the `Infinity` constant instead
  // makes V8 box every result of this function (measured: 16 bytes per call).
  return (2 * radius) / (d > radius ? d * frustum.windowHeight : 0);
}

/**
 * The sphere's projected diameter in pixels for a viewport `viewportHeightPx` pixels tall (MotoGP's
 * 80 / 20 px rule): {@link sphereScreenHeight} × `viewportHeightPx`.
 * @category Metrics
 */
export function spherePixelDiameter(frustum: FrustumView, x: number, y: number, z: number, radius: number, viewportHeightPx: number): number {
  return sphereScreenHeight(frustum, x, y, z, radius) * viewportHeightPx;
}

/**
 * The projected sphere's area as a fraction of the window area: OpenUSD's `projectedSphere`
 * (`π (R·refDepth / d)² / windowArea`, orthographic `π R² / windowArea`). Like OpenUSD it returns
 * `Number.MAX_VALUE` when the eye is exactly at the centre (`+Infinity` where the formula overflows, the eye
 * within ≈ 1e-154 R of it), and 0 when the sphere is wholly outside.
 * @category Metrics
 */
export function sphereScreenArea(frustum: FrustumView, x: number, y: number, z: number, radius: number): number {
  if (frustum.cullsSphere(x, y, z, radius)) return 0;
  let r = radius, cap = Number.POSITIVE_INFINITY;
  if (frustum.isPerspective) {
    const p = frustum.position;
    const d = length3(x - p[0], y - p[1], z - p[2]);
    // OpenUSD: the largest double at d = 0 (R / 0 = +Infinity here, capped below); any other d
    // keeps the formula's own value, +Infinity where it overflows (d ≈ 1e-160). A cap for
    // Math.min rather than a returned constant: returning one boxes every result (notes above).
    if (d === 0) cap = Number.MAX_VALUE;
    r = (radius * frustum.referencePlaneDepth) / d;
  }
  return Math.min((Math.PI * r * r) / frustum.windowArea, cap);
}

/**
 * Distance from the eye to the closest point of the sphere (0 when the eye is inside it), the
 * sphere analogue of OpenUSD's distance to the closest point of an extent. Not culled: distance LOD
 * (MotoGP's "naive version") does not look at the frustum's planes.
 * @category Metrics
 */
export function sphereDistance(frustum: FrustumView, x: number, y: number, z: number, radius: number): number {
  const p = frustum.position;
  const d = length3(x - p[0], y - p[1], z - p[2]) - radius;
  return d > 0 ? d : 0;
}
