/**
 * The `forest` scenario, for scale: 210,000 instances of three tree models (pine, oak, bush;
 * 4, 4 and 3 LODs) scattered over 3 km × 3 km from a fixed seed, and a camera walking through it
 * at 1.4 m/s, eye height 1.7 m, looking around as it goes.
 *
 * Contributor notes:
 * - Instances are stored as flat sphere groups (one per model) so the scene validates quickly.
 * - 10 frames per second over 12 s (120 frames) keeps a full run of six policies on 210k objects
 *   around half a minute on a 2-core machine; the engine's update dominates.
 *
 * @module
 */
import type { SceneInput } from '../sceneFormat.js';
import { lcg, r3 } from './random.js';

const SIZE = 3000;
const DURATION = 12;

/**
 * Generates the `forest` scene with `instances` trees (default 210,000).
 * @example
 * ```ts
 * const scene = parseScene(forestScene(1, 10_000)); // a small forest for a quick test
 * ```
 * @category Simulator
 */
export function forestScene(seed = 1, instances = 210_000): SceneInput {
  const random = lcg(seed);
  const models = [
    { name: 'pine', share: 0.5, radius: [4, 8] },
    { name: 'oak', share: 0.3, radius: [6, 11] },
    { name: 'bush', share: 0.2, radius: [0.8, 2] },
  ];
  const groups = models.map((m) => {
    const n = Math.round(instances * m.share);
    const spheres = new Array<number>(n * 4);
    for (let i = 0; i < n; i++) {
      const r = m.radius[0] + random() * (m.radius[1] - m.radius[0]);
      spheres[i * 4] = r3((random() - 0.5) * SIZE);
      spheres[i * 4 + 1] = r3(r * 0.9);
      spheres[i * 4 + 2] = r3((random() - 0.5) * SIZE);
      spheres[i * 4 + 3] = r3(r);
    }
    return { name: m.name, profile: m.name, spheres };
  });
  const keyframes: NonNullable<SceneInput['camera']>['keyframes'] = [];
  for (let t = 0; t <= DURATION; t += 1) {
    const x = -14 + 1.4 * t, z = 5 * Math.sin(t / 4);
    const look = Math.sin(t / 3) * 0.8; // glance left and right
    keyframes.push({ time: t, shot: 'walk', viewport: [1920, 1080], fovY: 60, position: [r3(x), 1.7, r3(z)], target: [r3(x + 10 * Math.cos(look)), 1.7, r3(z + 10 * Math.sin(look))] });
  }
  return {
    format: 'lodkit-scene',
    version: 1,
    name: 'forest',
    description: `${instances} trees of three models over ${SIZE / 1000} km × ${SIZE / 1000} km; a walking camera.`,
    seed,
    fps: 10,
    duration: DURATION,
    budget: 4_000_000,
    profiles: {
      pine: { metric: 'pixels', thresholds: [400, 120, 30], triangles: [8_000, 2_000, 400, 40] },
      oak: { metric: 'pixels', thresholds: [400, 120, 30], triangles: [15_000, 4_000, 800, 60] },
      bush: { metric: 'pixels', thresholds: [150, 40], triangles: [2_000, 400, 20] },
    },
    groups,
    camera: { near: 0.1, far: 4000, keyframes },
    policies: [
      { name: 'screen size', policy: 'thresholds' },
      { name: 'screen size + 10% hysteresis', policy: 'thresholds', hysteresis: 0.1 },
      { name: 'distance', policy: 'thresholds', profiles: { pine: { metric: 'distance', thresholds: [30, 100, 400] }, oak: { metric: 'distance', thresholds: [40, 140, 500] }, bush: { metric: 'distance', thresholds: [15, 60] } } },
      { name: 'rank quota [10, 100, 1000]', policy: 'rankQuota', quotas: [10, 100, 1000] },
      { name: 'budget 4M', policy: 'budget' },
      { name: 'hybrid 4M', policy: 'hybrid' },
    ],
    parameters: {
      trees: `${instances} (50 % pine r 4–8 m, 30 % oak r 6–11 m, 20 % bush r 0.8–2 m)`,
      area: `${SIZE} m × ${SIZE} m`,
      camera: 'walking 1.4 m/s, eye 1.7 m, fovY 60°, glancing ±46°',
      budget: '4000000 triangles',
    },
  };
}
