/**
 * LodManager.update does not allocate per object: with 20,000 registered ScreenSizeLODs, a camera
 * cycling through 8 poses (hundreds of level changes a frame), the heap grows by less than 64 kB
 * per frame (one 16-byte allocation per object would be 320 kB; the slack absorbs the test runner's
 * own traffic). Measured like test/batch/allocation.test.ts (gc exposed at run time, no forced
 * collection inside the loop).
 *
 * Not zero: measured ≈ 3–7 kB per frame, not growing with the object count (2k and 20k objects
 * measured alike), when the manager still built a `Frustum` per moved camera (`frustumFromCamera`
 * ≈ 1.3 kB per call); it builds a `CameraView` now (cameraView.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { Object3D, PerspectiveCamera, Sphere, Vector3 } from 'three';
import { LodManager } from '../../../src/adapters/three/lodManager.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

it('LodManager.update: heap growth per frame is independent of the object count (no per-object allocation)', () => {
  const cameras = Array.from({ length: 8 }, (_, k) => {
    const c = new PerspectiveCamera(60, 16 / 9, 0.1, 1000);
    c.position.set(k * 6 - 24, 3, k * 4);
    c.lookAt(20, 0, -60);
    c.updateMatrixWorld(true);
    return c;
  });
  const options = { policy: 'thresholds' as const, hysteresis: 0.05 };
  const count = 20_000, side = Math.round(Math.sqrt(count));
  const manager = new LodManager({ viewportHeight: 1080 });
  const sphere = new Sphere(new Vector3(), 1);
  for (let i = 0; i < count; i++) {
    const lod = new ScreenSizeLOD({ metric: 'pixels', viewportHeight: 1080 });
    lod.addLevel(new Object3D(), 80).addLevel(new Object3D(), 20).addLevel(new Object3D());
    lod.setBoundingSphere(sphere);
    lod.position.set((i % side) * (400 / side) - 200, 0, Math.floor(i / side) * (400 / side) - 200);
    lod.updateMatrixWorld(true);
    manager.add(lod, { costs: [100, 20, 5] });
  }
  for (let f = 0; f < 300; f++) manager.update(cameras[f & 7], options); // warm-up: JIT, scratch sizing
  gc(); gc();
  let changes = 0;
  const frames = 500;
  const before = process.memoryUsage().heapUsed;
  for (let f = 0; f < frames; f++) changes += manager.update(cameras[f & 7], options).changes;
  const perFrame = (process.memoryUsage().heapUsed - before) / frames;
  expect(changes / frames).toBeGreaterThan(100);
  expect(perFrame).toBeLessThan(64 * 1024);
});
