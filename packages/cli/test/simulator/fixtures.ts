/**
 * Tiny hand-made scenes for the simulator tests. Geometry is chosen so every number can be worked
 * out by hand: camera at the origin looking down −Z, fovY 90° (window height 2 on the plane at
 * distance 1), viewport 100 × 100 px, so a sphere of radius 1 at distance d is 2/(2d)·100 = 100/d px.
 */
import type { SceneInput } from '../../src/simulator/sceneFormat.js';

/** A camera that never moves: origin, looking down −Z, fovY 90°, 100 × 100 px, 1 s. */
export function staticCamera(fovY = 90): SceneInput['camera'] {
  return {
    near: 0.1,
    far: 1000,
    keyframes: [
      { time: 0, position: [0, 0, 0], target: [0, 0, -1], fovY, viewport: [100, 100], shot: 'still' },
      { time: 1, position: [0, 0, 0], target: [0, 0, -1], fovY, viewport: [100, 100], shot: 'still' },
    ],
  };
}

/** Profile `p`: pixels 20 / 5 → levels 0, 1, 2 costing 1000, 100, 10 triangles. */
export const TINY_PROFILES: SceneInput['profiles'] = {
  p: { metric: 'pixels', thresholds: [20, 5], triangles: [1000, 100, 10] },
};

/**
 * Four static spheres of radius 1: A at 2 m (50 px → level 0), B at 10 m (10 px → level 1),
 * C at 50 m (2 px → level 2) and D behind the camera (culled).
 */
export function tinyStaticScene(overrides: Partial<SceneInput> = {}): SceneInput {
  return {
    format: 'lodkit-scene',
    version: 1,
    name: 'tiny static',
    fps: 4,
    duration: 1,
    profiles: TINY_PROFILES,
    objects: [
      { name: 'A', profile: 'p', center: [0, 0, -2], radius: 1 },
      { name: 'B', profile: 'p', center: [0, 0, -10], radius: 1 },
      { name: 'C', profile: 'p', center: [0, 0, -50], radius: 1 },
      { name: 'D', profile: 'p', center: [0, 0, 100], radius: 1 },
    ],
    camera: staticCamera(),
    policies: [{ name: 'screen', policy: 'thresholds' }],
    ...overrides,
  };
}

/**
 * One sphere of radius 1 moving from z = −2 to z = −50 in 1 s (z = −2 − 48t); at 4 fps the frames
 * are t = 0, .25, .5, .75 → distances 2, 14, 26, 38 → 50, 7.14, 3.85, 2.63 px → levels 0, 1, 2, 2.
 */
export function tinyMovingScene(overrides: Partial<SceneInput> = {}): SceneInput {
  return {
    format: 'lodkit-scene',
    version: 1,
    name: 'tiny moving',
    fps: 4,
    duration: 1,
    budget: 500,
    profiles: TINY_PROFILES,
    objects: [{ name: 'mover', profile: 'p', radius: 1, motion: [{ time: 0, center: [0, 0, -2] }, { time: 1, center: [0, 0, -50] }] }],
    camera: staticCamera(),
    policies: [{ name: 'screen', policy: 'thresholds' }],
    ...overrides,
  };
}
