/**
 * The sphere metrics as `lodkit` exports them: the formulas of sphereMetrics.ts behind an entry
 * check, so a negative or NaN radius, a non-finite centre or a non-positive viewport throws a
 * `RangeError` naming the argument (the README's rule for API boundaries) instead of returning a
 * plausible number (`spherePixelDiameter` used to give −44.5 px for radius −1).
 *
 * Contributor notes:
 * - The check is one expression of comparisons (`v - v === 0` is false exactly for NaN and ±∞) and
 *   the throw lives in a separate function, so the wrappers stay inlinable and allocation-free
 *   (test/metrics/allocation.probe.mjs measures these exports from dist/: 0 bytes).
 * - Per-frame code inside lodkit (`ScreenSizeLOD`) calls the unchecked formulas in sphereMetrics.ts
 *   directly: inside a frame a bad sphere must give a safe result, never a throw. The batch engine
 *   has its own kernels and uses neither.
 *
 * @module
 */
import type { FrustumView } from './frustumView.js';
import {
  sphereDistance as distanceOf, sphereScreenArea as areaOf, sphereScreenHeight as heightOf,
} from './sphereMetrics.js';

function invalid(fn: string, x: number, y: number, z: number, radius: number, viewport?: number): never {
  if (!(x - x === 0)) throw new RangeError(`${fn}: x must be a finite number, got ${x}`);
  if (!(y - y === 0)) throw new RangeError(`${fn}: y must be a finite number, got ${y}`);
  if (!(z - z === 0)) throw new RangeError(`${fn}: z must be a finite number, got ${z}`);
  if (!(radius >= 0 && radius - radius === 0)) throw new RangeError(`${fn}: radius must be a finite number ≥ 0, got ${radius}`);
  throw new RangeError(`${fn}: viewportHeightPx must be a finite number > 0, got ${viewport}`);
}

/**
 * The sphere's diameter as a fraction of the window's vertical extent (MSFS: 1.10 = 110 %).
 *
 * Perspective: `2R / (d · windowHeight)` = `R / (d · tan(fovY / 2))` for a centred window, with `d`
 * the eye–centre distance; orthographic: `2R / windowHeight`. Returns `+Infinity` when the eye is
 * inside the sphere (perspective) and 0 when the sphere is wholly outside the frustum. Throws
 * `RangeError` for a non-finite centre or a negative / NaN / infinite radius.
 *
 * @example
 * ```ts
 * const frustum = Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.1, far: 1e4 });
 * sphereScreenHeight(frustum, 0, 0, -100, 30); // 0.5196… → MSFS LOD x2 (75 % … 50 %)
 * ```
 * @category Metrics
 */
export function sphereScreenHeight(frustum: FrustumView, x: number, y: number, z: number, radius: number): number {
  if (!(x - x + (y - y) + (z - z) === 0 && radius >= 0 && radius - radius === 0)) invalid('sphereScreenHeight', x, y, z, radius);
  return heightOf(frustum, x, y, z, radius);
}

/**
 * The sphere's projected diameter in pixels for a viewport `viewportHeightPx` pixels tall (MotoGP's
 * 80 / 20 px rule): {@link sphereScreenHeight} × `viewportHeightPx`. Throws `RangeError` for a bad
 * centre or radius, or a viewport height that is not a finite number > 0.
 * @example
 * ```ts
 * spherePixelDiameter(frustum, 0, 1, -40, 1.1, 1080); // MotoGP: > 80 px is high detail
 * ```
 * @category Metrics
 */
export function spherePixelDiameter(frustum: FrustumView, x: number, y: number, z: number, radius: number, viewportHeightPx: number): number {
  if (!(x - x + (y - y) + (z - z) === 0 && radius >= 0 && radius - radius === 0 && viewportHeightPx > 0 && viewportHeightPx - viewportHeightPx === 0)) {
    invalid('spherePixelDiameter', x, y, z, radius, viewportHeightPx);
  }
  return heightOf(frustum, x, y, z, radius) * viewportHeightPx;
}

/**
 * The projected sphere's area as a fraction of the window area: OpenUSD's `projectedSphere`
 * (`π (R·refDepth / d)² / windowArea`, orthographic `π R² / windowArea`). Like OpenUSD it returns
 * `Number.MAX_VALUE` when the eye is exactly at the centre (`+Infinity` where the formula overflows, the eye
 * within ≈ 1e-154 R of it), and 0 when the sphere is wholly outside.
 * Throws `RangeError` for a non-finite centre or a negative / NaN / infinite radius.
 * @example
 * ```ts
 * sphereScreenArea(frustum, 0, 0, -10, 1); // OpenUSD projectedSphere size
 * ```
 * @category Metrics
 */
export function sphereScreenArea(frustum: FrustumView, x: number, y: number, z: number, radius: number): number {
  if (!(x - x + (y - y) + (z - z) === 0 && radius >= 0 && radius - radius === 0)) invalid('sphereScreenArea', x, y, z, radius);
  return areaOf(frustum, x, y, z, radius);
}

/**
 * Distance from the eye to the closest point of the sphere (0 when the eye is inside it), the
 * sphere analogue of OpenUSD's distance to the closest point of an extent. Not culled: distance LOD
 * (MotoGP's "naive version") does not look at the frustum's planes. Throws `RangeError` for a
 * non-finite centre or a negative / NaN / infinite radius.
 * @example
 * ```ts
 * sphereDistance(frustum, 0, 0, -10, 1); // 9 for an eye at the origin
 * ```
 * @category Metrics
 */
export function sphereDistance(frustum: FrustumView, x: number, y: number, z: number, radius: number): number {
  if (!(x - x + (y - y) + (z - z) === 0 && radius >= 0 && radius - radius === 0)) invalid('sphereDistance', x, y, z, radius);
  return distanceOf(frustum, x, y, z, radius);
}
