/**
 * The float32 reference of the GPU kernel (src/adapters/webgpu/reference.ts) against hand-worked
 * cases and against `LodSet`'s float64 thresholds policy (the engine): equal levels except the
 * near-threshold objects the reference flags, which are counted.
 */
import { describe, expect, it } from 'vitest';
import { Frustum } from '../../../src/metrics/frustum.js';
import type { LodView } from '../../../src/batch/lodSet.js';
import { validateLodProfile, type LodProfileOptions } from '../../../src/batch/core/profiles.js';
import { profileScene } from './scenes.js';
import { FRAME_BYTES, FRESH_STATE, NO_REFERENCE, OBJECT_WORDS, packFrame, packProfiles, referenceFrame, type FrameExtras } from '../../../src/adapters/webgpu/index.js';

/** Fresh object records for `n` objects. */
export function freshRecords(n: number): Uint32Array {
  const r = new Uint32Array(n * OBJECT_WORDS);
  for (let i = 0; i < n; i++) r[i * OBJECT_WORDS] = FRESH_STATE;
  return r;
}

/** One reference frame; `records` is updated; returns the near flags and the blend. */
function run(views: LodView[], profiles: LodProfileOptions[], spheres: Float32Array, ids: Uint32Array, records: Uint32Array, h = 0, bias = 1,
  extras?: FrameExtras): { near: Uint8Array; blend: Float32Array } {
  const frame = new ArrayBuffer(FRAME_BYTES);
  packFrame(frame, views, ids.length, 64, 5, bias, h, extras);
  const near = new Uint8Array(ids.length), blend = new Float32Array(ids.length);
  referenceFrame(frame, packProfiles(profiles.map((p) => validateLodProfile(p)), 'test'), spheres, ids, ids.length, records, blend, near);
  return { near, blend };
}

describe('referenceFrame (thresholds)', () => {
  it('hysteresis, hand-worked: orthographic screenHeight = 2r / 10, threshold 0.1, band 0.2', () => {
    const views = [{ frustum: Frustum.orthographic({ height: 10, aspect: 1, near: 0.1, far: 100 }) }];
    const profiles: LodProfileOptions[] = [{ metric: 'screenHeight', thresholds: [0.1] }];
    const state = freshRecords(1), ids = new Uint32Array(1);
    const at = (r: number) => { run(views, profiles, new Float32Array([0, 0, -5, r]), ids, state, 0.2); return state[0] & 0x1ff; };
    expect(at(0.6)).toBe(0);   // 0.12 > 0.1: level 0
    expect(at(0.475)).toBe(0); // 0.095 → level 1, but 0.095·1.2 = 0.114 still maps to 0: held
    expect(at(0.4)).toBe(1);   // 0.08: 0.096 and 0.064 both map to 1
    expect(at(0.55)).toBe(1);  // 0.11 → 0, but 0.11·0.8 = 0.088 maps to 1: held
    expect(at(Number.NaN)).toBe(1 | NO_REFERENCE); // invalid: coarsest level, no reference next frame
    expect(at(0.475)).toBe(1);  // no hold right after an invalid frame
    const behind = new Float32Array([0, 0, 5, 0.5]);
    run(views, profiles, behind, ids, state, 0.2);
    expect(state[0] & 0x1ff).toBe(255 | NO_REFERENCE); // culled
  });

  it('equals LodSet (float64, thresholds policy) on seeded scenes except counted near-threshold cases', () => {
    const profiles: LodProfileOptions[] = [
      { metric: 'distance', thresholds: [20, 60, 150, 400] },
      { metric: 'pixels', thresholds: [300, 100, 30, 10] },
      { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03, 0.01] },
      { metric: 'screenArea', thresholds: [0.05, 0.005, 0.0005] },
    ];
    const per = 5000, n = per * profiles.length;
    const { spheres, ids, set } = profileScene(7, per, profiles);
    const yaw = (a: number) => [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
    const path: LodView[][] = [];
    for (let k = 0; k < 4; k++) path.push([{ frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 2000, position: [0, 10, 300 - 3 * k], rotation: yaw(0.01 * k) }), viewportHeight: 1080 }]);
    path.push([{ frustum: Frustum.orthographic({ height: 400, aspect: 1.5, near: 0.1, far: 3000, position: [0, 20, 600], rotation: yaw(0.3) }), viewportHeight: 720 }]);
    path.push([
      { frustum: Frustum.perspective({ fovY: 50, aspect: 1, near: 0.1, far: 1500, position: [100, 5, 100], rotation: yaw(1.2) }), viewportHeight: 900 },
      { frustum: Frustum.perspective({ fovY: 70, aspect: 2, near: 0.1, far: 800, position: [-200, 15, -50], rotation: yaw(-2) }), viewportHeight: 600 },
    ]);
    const state = freshRecords(n);
    let near = 0, nearDiffer = 0, visible = 0;
    for (const [k, views] of path.entries()) {
      const flags = run(views, profiles, spheres, ids, state, 0.1).near;
      set.update(views, { policy: 'thresholds', hysteresis: 0.1, clusters: false });
      let bad = 0;
      for (let i = 0; i < n; i++) {
        const mine = state[i * OBJECT_WORDS] & 0xff;
        if (mine !== 255) visible++;
        near += flags[i];
        if (mine !== set.levels[i]) { if (flags[i]) nearDiffer++; else bad++; }
      }
      expect(bad, `frame ${k}`).toBe(0);
    }
    expect(visible).toBeGreaterThan(10_000);
    console.info(`[webgpu reference] vs LodSet: ${path.length} frames × ${n} objects, near-threshold ${near}, of which differing ${nearDiffer}`);
    expect(near).toBeLessThan(40);
  });
});
