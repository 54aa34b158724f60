/**
 * `LodSet.update` takes any `LodViewFrustum`; `LodManager`, `InstancedLOD` and `GpuInstancedLOD`
 * hand it a `CameraView` (src/adapters/three/cameraView.ts) instead of a `Frustum`. The sizes depend
 * only on the eye and the window, which both read the same numbers from the camera, so the frame
 * must be the frame of `frustumFromCamera`'s `Frustum` of the same camera — levels, blend, sizes
 * (bit for bit), changed set and stats — with WebAssembly on and off, clusters on and off. (The
 * planes agree to ~1e-8 of the scene's scale, cameraView.test.ts: a sphere that close to a plane
 * could be culled by one and not the other; a random scene has none.) And a view missing what the
 * engine reads is refused at the boundary, naming the field.
 */
import fc from 'fast-check';
import { OrthographicCamera, PerspectiveCamera } from 'three';
import { describe, expect, it } from 'vitest';
import { CameraView, setCameraView } from '../../../src/adapters/three/cameraView.js';
import { frustumFromCamera } from '../../../src/adapters/three/frustumFromCamera.js';
import type { LodSet, LodViewFrustum } from '../../../src/batch/lodSet.js';
import { newLodSet } from '../../../src/batch/engineSeam.js';
import { randomSpheres } from '../../batch/helpers.js';

function camera(ortho: boolean, fov: number, zoom: number, pos: number[], target: number[]): PerspectiveCamera | OrthographicCamera {
  const c = ortho ? new OrthographicCamera(-60, 60, 40, -40, 0.5, 900) : new PerspectiveCamera(fov, 1.5, 0.5, 900);
  c.zoom = zoom;
  c.position.set(pos[0], pos[1], pos[2]);
  c.lookAt(target[0], target[1], target[2]);
  c.updateProjectionMatrix();
  c.updateMatrixWorld(true);
  return c;
}

function makeSet(wasm: boolean, spheres: Float32Array): LodSet {
  const set = newLodSet(64, { wasm });
  set.addMany(spheres.subarray(0, 6000), set.addProfile({ metric: 'pixels', thresholds: [120, 30], blendThresholds: [100, 25] }));
  set.addMany(spheres.subarray(6000, 10000), set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03] }));
  set.addMany(spheres.subarray(10000), set.addProfile({ metric: 'distance', thresholds: [30, 120] }));
  return set;
}

const coord = fc.double({ min: -150, max: 150, noNaN: true });

describe('LodSet.update with a CameraView', () => {
  it('gives the frame of frustumFromCamera\'s Frustum of the same camera (perspective, orthographic, zoom; WebAssembly and clusters on and off; fast-check)', () => {
    const spheres = randomSpheres(4000, 7, 300, 0.3, 6);
    for (const wasm of [true, false]) {
      const a = makeSet(wasm, spheres), b = makeSet(wasm, spheres);
      let culled = 0, frames = 0;
      fc.assert(fc.property(
        fc.boolean(), fc.double({ min: 20, max: 100, noNaN: true }), fc.double({ min: 0.5, max: 3, noNaN: true }),
        fc.tuple(coord, fc.double({ min: 1, max: 80, noNaN: true }), coord), fc.tuple(coord, coord), fc.boolean(),
        (ortho, fov, zoom, pos, target, clusters) => {
          fc.pre(Math.hypot(target[0] - pos[0], target[1] - pos[2]) > 5);
          const cam = camera(ortho, fov, zoom, pos, [target[0], 0, target[1]]);
          const view = new CameraView();
          expect(setCameraView(cam, view)).toBe(true);
          const options = { policy: 'thresholds' as const, hysteresis: 0.1, clusters };
          const sa = a.update({ frustum: view, viewportHeight: 1080 }, options);
          const ra = { ...sa, levelCounts: Array.from(sa.levelCounts) };
          const rb = b.update({ frustum: frustumFromCamera(cam), viewportHeight: 1080 }, options);
          expect(ra.levelCounts).toEqual(Array.from(rb.levelCounts));
          expect([ra.totalCost, ra.hidden, ra.invalid]).toEqual([rb.totalCost, rb.hidden, rb.invalid]);
          for (let i = 0; i < a.count; i++) {
            if (a.levels[i] !== b.levels[i] || !Object.is(a.blend[i], b.blend[i]) || !Object.is(a.sizes[i], b.sizes[i])) {
              throw new Error(`id ${i}: level ${a.levels[i]} / ${b.levels[i]}, blend ${a.blend[i]} / ${b.blend[i]}, size ${a.sizes[i]} / ${b.sizes[i]}`);
            }
          }
          const changed = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
          expect(changed(a)).toEqual(changed(b));
          culled += ra.hidden; frames++;
        }), { numRuns: 40 });
      expect(culled).toBeGreaterThan(frames * 100); // (culling ran: the planes were used)
      a.dispose(); b.dispose();
    }
  });

  it('refuses a view whose frustum lacks what the engine reads, naming the field', () => {
    const set = newLodSet(64, { wasm: false });
    set.addMany(randomSpheres(10, 1, 50, 0.5, 2), set.addProfile({ metric: 'distance', thresholds: [30] }));
    const good = new CameraView();
    expect(setCameraView(camera(false, 60, 1, [0, 5, 0], [0, 0, -20]), good)).toBe(true);
    const without = (key: keyof LodViewFrustum, value: unknown) => ({ ...{ planes: good.planes, position: good.position, windowMin: good.windowMin, windowMax: good.windowMax, isPerspective: true }, [key]: value });
    expect(() => set.update({ frustum: without('windowMin', undefined) as unknown as LodViewFrustum }, { policy: 'thresholds' }))
      .toThrow('LodSet.update: views[0].frustum.windowMin must be a Float64Array of 2 values, got undefined');
    expect(() => set.update([{ frustum: good }, { frustum: without('planes', new Float64Array(6)) as unknown as LodViewFrustum }], { policy: 'thresholds' }))
      .toThrow('LodSet.update: views[1].frustum.planes must be a Float64Array of 24 values, got 6 values');
    expect(() => set.update({ frustum: without('isPerspective', 1) as unknown as LodViewFrustum }, { policy: 'thresholds' }))
      .toThrow('LodSet.update: views[0].frustum.isPerspective must be a boolean, got number');
    expect(() => set.update({ frustum: good }, { policy: 'thresholds' })).not.toThrow();
    set.dispose();
  });
});
