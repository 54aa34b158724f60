/**
 * `npm start` until the simulator lands: prints how the seeds' three rules choose levels for one
 * object as a camera backs away from it, under a normal and a telephoto lens.
 *
 * @module
 */
import { Frustum } from '../metrics/frustum.js';
import { spherePixelDiameter, sphereScreenArea, sphereScreenHeight } from '../metrics/sphereMetrics.js';
import { LodThresholds } from '../heuristics/lodThresholds.js';

const VIEWPORT_PX = 1080;
const motogp = new LodThresholds({ metric: 'pixels', thresholds: [80, 20] });
const msfs = new LodThresholds({ metric: 'screenHeight', thresholds: [1.1, 0.75, 0.5, 0.3] });
const usd = new LodThresholds({ metric: 'screenArea', thresholds: [0.25, 0.1], blendThresholds: [0.2, 0.05] });

const radius = 1; // a 2 m bike
const rows: Array<Record<string, string>> = [];
const frustum = new Frustum();
for (const fovY of [60, 6]) {
  for (const distance of [2, 5, 10, 20, 50, 100, 200]) {
    Frustum.perspective({ fovY, aspect: 16 / 9, near: 0.1, far: 10_000 }, frustum);
    const px = spherePixelDiameter(frustum, 0, 0, -distance, radius, VIEWPORT_PX);
    const h = sphereScreenHeight(frustum, 0, 0, -distance, radius);
    const a = sphereScreenArea(frustum, 0, 0, -distance, radius);
    rows.push({
      'fovY°': String(fovY),
      'distance m': String(distance),
      'pixels': px.toFixed(1),
      'MotoGP 80/20 px': String(motogp.computeLod(px)),
      'height %': (h * 100).toFixed(1),
      'MSFS 110/75/50/30 %': String(msfs.computeLod(h)),
      'area %': (a * 100).toFixed(2),
      'USD .25/.10 (+blend)': usd.computeLod(a).toFixed(3),
    });
  }
}
console.log(`lodkit — LOD chosen for a sphere of radius ${radius} m, viewport ${VIEWPORT_PX} px high\n`);
console.table(rows);
