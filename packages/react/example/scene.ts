/** The example's fixed numbers, shared with its end-to-end test. */

/** Level colours, finest first (unlit materials: these exact colours reach the screen). */
export const LEVEL_COLORS = ['#35d07f', '#4c8df2', '#eb5757'] as const;
/** Pixel thresholds of the spheres (MotoGP's 80 / 20 px). */
export const THRESHOLDS = [80, 20] as const;
/** Camera vertical field of view, degrees. */
export const FOV = 50;
/** Radius of every sphere. */
export const RADIUS = 1;

/**
 * Sphere centres: one at the origin (the one the camera looks at), and 299 in two banks at
 * |x| ≥ 6 along −z, so none covers the centre of the screen.
 */
export function spherePositions(): [number, number, number][] {
  const out: [number, number, number][] = [[0, 0, 0]];
  for (let i = 0; out.length < 300; i++) {
    const side = i % 2 === 0 ? -1 : 1;
    const row = Math.floor(i / 2);
    out.push([side * (6 + (row % 5) * 3), ((row % 3) - 1) * 2.5, -4 * Math.floor(row / 5)]);
  }
  return out;
}
