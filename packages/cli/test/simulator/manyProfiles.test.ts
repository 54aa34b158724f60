/**
 * Per-object index arrays are wide enough for every profile a scene may have (65,535): with
 * `quotaScope: 'profile'` each profile gets its own set, and a set index stored in 8 bits made
 * object 256 read set 0's levels (issue 24). Expected levels are worked out by hand below.
 */
import { describe, expect, it } from 'vitest';
import { parseScene, type SceneInput } from '../../src/simulator/sceneFormat.js';
import { simulate } from '../../src/simulator/simulate.js';
import { staticCamera } from './fixtures.js';

const PROFILES = 300;
const TRIANGLES = [1000, 100, 10, 1];

/**
 * 300 profiles; profile k has (k mod 3) + 1 pixel thresholds, so 2, 3 or 4 levels. Object k (one
 * radius-1 sphere 10 m in front of the camera, 10 px) uses profile k.
 */
function manyProfileScene(): SceneInput {
  const profiles: SceneInput['profiles'] = {};
  for (let k = 0; k < PROFILES; k++) {
    const n = (k % 3) + 1;
    profiles[`p${k}`] = { metric: 'pixels', thresholds: [20, 5, 2].slice(0, n), triangles: TRIANGLES.slice(0, n + 1) };
  }
  return {
    format: 'lodkit-scene', version: 1, name: 'many profiles', fps: 1, duration: 1,
    profiles,
    objects: Array.from({ length: PROFILES }, (_, k) => ({ profile: `p${k}`, center: [0, 0, -10] as [number, number, number], radius: 1 })),
    camera: staticCamera(),
    // quotas [0, 0, 0]: every cut sits at position 0, so each set's one object passes all three
    // cuts (rank 3) and is clamped to its profile's coarsest level: (k mod 3) + 1.
    policies: [{ name: 'ranked', policy: 'rankQuota', quotas: [0, 0, 0], quotaScope: 'profile' }],
  };
}

describe('a scene with more profiles than a byte can index', () => {
  it('rankQuota per profile reads each object\'s own set: 100 objects each at levels 1, 2, 3', () => {
    const [ranked] = simulate(parseScene(manyProfileScene())).result.policies;
    const frame = ranked.frames[0];
    // k ≡ 0, 1, 2 (mod 3) → levels 1, 2, 3: 100 objects each. Reading set k − 256 for objects
    // 256…299 (the 8-bit wrap) would move 44 of them to level ((k − 256) mod 3) + 1 ≠ (k mod 3) + 1.
    expect(frame.hidden).toBe(0);
    expect(frame.levelsHistogram).toEqual([0, 100, 100, 100]);
    // Cost: 100 × (100 + 10 + 1) triangles.
    expect(frame.cost).toBe(11_100);
  });

  it('the thresholds policy agrees: 10 px is below 20 and above 5 → level 1 for every profile', () => {
    const scene = manyProfileScene();
    scene.policies = [{ name: 'screen', policy: 'thresholds' }];
    const [screen] = simulate(parseScene(scene)).result.policies;
    expect(screen.frames[0].levelsHistogram).toEqual([0, 300, 0, 0]);
    expect(screen.frames[0].cost).toBe(30_000);
  });
});
