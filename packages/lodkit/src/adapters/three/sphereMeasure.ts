/**
 * One bounding sphere measured against a camera's views with a sphere metric: the largest screen
 * size (or smallest distance) over the views. What `ScreenSizeLOD` runs per object per frame.
 *
 * Contributor notes:
 * - The sphere and viewport travel in the module-level {@link sphereArgs}, not as arguments: V8
 *   boxes a double passed to (or returned from) a call it does not inline.
 *
 * @module
 */
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import type { FrustumView } from '../../metrics/frustumView.js';
import { sphereDistance, sphereScreenArea, sphereScreenHeight } from '../../metrics/sphereMetrics.js';

/**
 * Measures one world-space sphere against frusta: the largest screen size (or smallest distance)
 * over the views; 0 (or +∞ for distance) when the sphere is outside every view.
 * @example
 * ```ts
 * const px = measureSphere('pixels', [frustum], 1, x, y, z, r, 1080);
 * ```
 * @category three.js
 */
export function measureSphere(
  metric: SphereMetric, frusta: readonly FrustumView[], count: number,
  x: number, y: number, z: number, radius: number, viewportHeight: number,
): number {
  measureSphereInto(metric, frusta, count, x, y, z, radius, viewportHeight, measureOut, 0);
  return measureOut[0];
}

/**
 * {@link measureSphere} writing into `out[offset]` instead of returning: V8 allocates a heap number
 * for a double returned from a call it does not inline, which per-object loops cannot afford.
 * @example
 * ```ts
 * const out = new Float64Array(1);
 * measureSphereInto('screenHeight', frusta, 1, x, y, z, r, 1, out, 0);
 * ```
 * @category three.js
 */
export function measureSphereInto(
  metric: SphereMetric, frusta: readonly FrustumView[], count: number,
  x: number, y: number, z: number, radius: number, viewportHeight: number, out: Float64Array, offset: number,
): void {
  sphereArgs[0] = x; sphereArgs[1] = y; sphereArgs[2] = z; sphereArgs[3] = radius; sphereArgs[4] = viewportHeight;
  measureScratchSphere(metric, frusta, count, out, offset);
}

/** Sphere x, y, z, r and viewport height for {@link measureScratchSphere} (doubles passed through memory, not boxed arguments). */
export const sphereArgs = new Float64Array(5);

/** Measures the sphere in {@link sphereArgs} into `out[offset]` (ScreenSizeLOD's per-frame path). @internal */
export function measureScratchSphere(metric: SphereMetric, frusta: readonly FrustumView[], count: number, out: Float64Array, offset: number): void {
  const x = sphereArgs[0], y = sphereArgs[1], z = sphereArgs[2], radius = sphereArgs[3];
  if (metric === 'distance') {
    let best = Infinity;
    for (let i = 0; i < count; i++) {
      const d = sphereDistance(frusta[i], x, y, z, radius);
      if (d < best) best = d;
    }
    out[offset] = best;
    return;
  }
  let best = 0;
  for (let i = 0; i < count; i++) {
    const s = metric === 'screenArea' ? sphereScreenArea(frusta[i], x, y, z, radius) : sphereScreenHeight(frusta[i], x, y, z, radius);
    if (s > best) best = s;
  }
  out[offset] = metric === 'pixels' ? best * sphereArgs[4] : best;
}

const measureOut = new Float64Array(1);
