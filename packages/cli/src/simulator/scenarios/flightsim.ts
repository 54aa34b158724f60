/**
 * The `flightsim` scenario: Microsoft Flight Simulator's size-on-screen rule. A Boeing 747 and a
 * Cessna 172 (two profiles, 5 LODs each, both on MSFS's 110 / 75 / 50 / 30 % of screen height
 * thresholds, very different triangle counts) fly past a camera on a 20 m tower, which shoots them
 * at three focal lengths: wide 45° (the Cessna passing 25 m away), medium 20° and telephoto 6° (the
 * 747 passing 270 m away and climbing out).
 *
 * The story: at equal screen size the 747 is much farther away and drops to the same LODs as the
 * Cessna, and a telephoto lens raises both to high detail at distances where a distance rule would
 * draw them coarse.
 *
 * Contributor notes:
 * - Triangle counts are illustrative (747: 400k → 4k; Cessna: 80k → 1.5k): the seed says only that
 *   LODs 3–5 of all aircraft end with similar counts.
 *
 * @module
 */
import type { SceneInput } from '../sceneFormat.js';
import { r3 } from './random.js';

const DURATION = 30;

/**
 * Generates the `flightsim` scene (see the module comment).
 * @example
 * ```ts
 * const scene = parseScene(flightsimScene());
 * ```
 * @category Simulator
 */
export function flightsimScene(seed = 172): SceneInput {
  const motion = (x0: number, speed: number, y: number, z: number) => {
    const keys: Array<{ time: number; center: [number, number, number] }> = [];
    for (let t = 0; t <= DURATION; t += 1) keys.push({ time: t, center: [r3(x0 + speed * t), y, z] });
    return keys;
  };
  const b747 = motion(-1500, 95, 120, -250);
  const cessna = motion(-450, 50, 25, -25);
  const keyframes: NonNullable<SceneInput['camera']>['keyframes'] = [];
  const shots: Array<[string, number, number, 'b747' | 'cessna']> = [
    ['wide 45°', 0, 45, 'cessna'], ['medium 20°', 10, 20, 'b747'], ['telephoto 6°', 20, 6, 'b747'],
  ];
  for (const [shot, start, fovY, subject] of shots) {
    for (let t = start; t < start + 10 - 1e-9; t += 0.5) {
      const k = (subject === 'b747' ? b747 : cessna)[Math.floor(t)];
      const next = (subject === 'b747' ? b747 : cessna)[Math.min(DURATION, Math.floor(t) + 1)];
      const s = t - Math.floor(t);
      const target: [number, number, number] = [r3(k.center[0] + (next.center[0] - k.center[0]) * s), k.center[1], k.center[2]];
      keyframes.push({ time: r3(t), shot, viewport: [1920, 1080], fovY, position: [0, 20, 0], target, ...(t === start && start > 0 ? { cut: true } : {}) });
    }
  }
  const last = keyframes[keyframes.length - 1];
  keyframes.push({ ...last, time: DURATION, cut: false });
  return {
    format: 'lodkit-scene',
    version: 1,
    name: 'flightsim',
    description: 'Microsoft Flight Simulator size on screen: a 747 and a Cessna 172, 5 LODs at 110/75/50/30 % of screen height, filmed from a tower at 45°, 20° and 6°.',
    seed,
    fps: 30,
    duration: DURATION,
    budget: 200_000,
    profiles: {
      b747: { metric: 'screenHeight', thresholds: [1.1, 0.75, 0.5, 0.3], triangles: [400_000, 150_000, 60_000, 20_000, 4_000] },
      cessna172: { metric: 'screenHeight', thresholds: [1.1, 0.75, 0.5, 0.3], triangles: [80_000, 40_000, 15_000, 6_000, 1_500] },
    },
    objects: [
      { name: 'Boeing 747', profile: 'b747', radius: 36, motion: b747 },
      { name: 'Cessna 172', profile: 'cessna172', radius: 5.5, motion: cessna },
    ],
    camera: { near: 0.5, far: 20_000, keyframes },
    policies: [
      { name: 'size on screen 110/75/50/30 %', policy: 'thresholds' },
      {
        name: 'distance', policy: 'thresholds',
        profiles: { b747: { metric: 'distance', thresholds: [60, 150, 400, 1000] }, cessna172: { metric: 'distance', thresholds: [10, 25, 60, 150] } },
      },
      { name: 'rank quota [1, 1]', policy: 'rankQuota', quotas: [1, 1], quotaScope: 'scene' },
      { name: 'budget 200k', policy: 'budget' },
      { name: 'hybrid 200k', policy: 'hybrid' },
    ],
    parameters: {
      aircraft: 'Boeing 747 (radius 36 m, 95 m/s, passing 270 m from the camera at t = 15.8 s) and Cessna 172 (radius 5.5 m, 50 m/s, passing 25 m away at t = 9 s)',
      shots: 'wide 45° (0–10 s, on the Cessna), medium 20° (10–20 s) and telephoto 6° (20–30 s) on the 747; camera on a 20 m tower',
      rule: 'MSFS LOD x0 ≥ 110 %, x1 ≥ 75 %, x2 ≥ 50 %, x3 ≥ 30 % of screen height, x4 below',
      budget: '200000 triangles',
    },
  };
}
