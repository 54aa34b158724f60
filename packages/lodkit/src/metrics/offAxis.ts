/**
 * How much larger perspective draws an off-axis sphere than lodkit's sphere metrics say. The
 * metrics (sphereMetrics.ts) size a sphere by its Euclidean distance, `2R/d` on the plane at
 * distance 1, as OpenUSD and MotoGP do, so that a size does not change as the camera turns. The
 * drawn outline is an ellipse whose axes grow as the sphere moves off the view axis: with `θ` the
 * angle between the view axis and the direction to the centre and `α = asin(R/d)` the sphere's
 * angular radius, on the plane at distance 1
 * - major axis (radial) `tan(θ + α) − tan(θ − α)` = `2 sinα cosα / (cos²θ − sin²α)`,
 * - minor axis `2 sinα / √(cos²θ − sin²α)`,
 * so the major axis over the metric's `2 sinα` is `cosα / (cos²θ − sin²α)`: `1/cos α` on the axis
 * and `1/cos²θ` for a small sphere. A short length at that place (a level's geometric error) is
 * stretched the same way: `1/cos²θ` along the radial direction, `1/cos θ` across it.
 *
 * These functions are additions for documentation and checks: the metrics themselves are
 * unchanged (their results match OpenUSD's, which tests pin).
 *
 * @module
 */

/**
 * The drawn major-axis diameter of a sphere over lodkit's metric diameter (`2R/d`), for a sphere
 * whose centre is `offAxis` radians from the view axis and whose angular radius is `angularRadius`
 * radians (`asin(R/d)`): `cos α / (cos²θ − sin²α)`. `Infinity` once `θ + α` reaches 90° (the
 * outline is no longer an ellipse).
 * @example
 * ```ts
 * offAxisStretchAt(0, 0);            // 1: a small sphere on the view axis
 * offAxisStretchAt(Math.PI / 6, 0);  // 1.333…: 30° off the axis, 1/cos²30°
 * ```
 * @category Metrics
 */
export function offAxisStretchAt(offAxis: number, angularRadius = 0): number {
  const theta = Math.abs(offAxis), alpha = Math.abs(angularRadius);
  if (!(theta + alpha < Math.PI / 2)) return Infinity;
  const c = Math.cos(theta), s = Math.sin(alpha);
  return Math.cos(alpha) / (c * c - s * s);
}

/**
 * The worst case of {@link offAxisStretchAt} over a perspective frustum: a sphere whose centre
 * lies in a corner of the window (`tan θ = tan(fovY/2)·√(1 + aspect²)`), for a vertical field of
 * view of `fovYDegrees` degrees and an aspect of width ÷ height. This bounds how much larger than
 * lodkit's metric any sphere centred inside the frustum is drawn, and so how far over a pixel
 * promise made from the metric (e.g. `lodkit gltf lod --max-error-px`) its error can be drawn:
 * `1 + tan²(fovY/2)·(1 + aspect²)` for a small sphere (60°, 16/9: 2.39).
 * @example
 * ```ts
 * offAxisStretch(60, 16 / 9);        // 2.388…: at a corner of a 60°, 16:9 view
 * offAxisStretch(60, 16 / 9, 0.05);  // a little more for a sphere of angular radius 0.05 rad
 * ```
 * @category Metrics
 */
export function offAxisStretch(fovYDegrees: number, aspect: number, angularRadius = 0): number {
  if (!(fovYDegrees > 0 && fovYDegrees < 180) || !(aspect > 0) || !Number.isFinite(aspect)) {
    throw new RangeError(`offAxisStretch: fovYDegrees must be in (0, 180) and aspect a finite number > 0, got ${fovYDegrees}, ${aspect}`);
  }
  const t = Math.tan((fovYDegrees * Math.PI) / 360);
  return offAxisStretchAt(Math.atan(t * Math.sqrt(1 + aspect * aspect)), angularRadius);
}
