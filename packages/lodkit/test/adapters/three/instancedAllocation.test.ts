/**
 * InstancedLOD.update does not allocate per instance: 200k instances, a camera cycling through 8
 * poses (hundreds of level changes a frame), heap growth per frame well under one byte per
 * instance. three's `addUpdateRange` allocates one `{start, count}` per range it is handed (as
 * written up to 64 per buffer, merged past that: dirtyRanges.ts), and keeps them until the renderer
 * uploads; the renderer's upload is simulated by clearing them.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { IcosahedronGeometry, Matrix4, MeshBasicMaterial, PerspectiveCamera } from 'three';
import { InstancedLOD } from '../../../src/adapters/three/instancedLOD.js';
import { LodManager } from '../../../src/adapters/three/lodManager.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

for (const shared of [false, true]) it(`${shared ? 'LodManager.update with a shared InstancedLOD (options.set)' : 'InstancedLOD.update'}: heap growth per frame does not scale with the instance count`, () => {
  const n = 200_000, side = Math.round(Math.sqrt(n));
  const material = new MeshBasicMaterial();
  const manager = shared ? new LodManager({ viewportHeight: 1080 }) : null;
  const lod = new InstancedLOD({
    levels: [2, 1, 0].map((d) => ({ geometry: new IcosahedronGeometry(1, d), material })), thresholds: [60, 15], viewportHeight: 1080, capacity: n,
    ...(manager !== null ? { set: manager.set } : {}),
  });
  if (manager !== null) manager.addInstancedLOD(lod);
  const update = (c: PerspectiveCamera) => (manager !== null ? manager.update(c) : lod.update(c));
  const matrices = new Float32Array(n * 16);
  const m = new Matrix4();
  for (let i = 0; i < n; i++) m.makeTranslation((i % side) * 4 - side * 2, 0, Math.floor(i / side) * 4 - side * 2).toArray(matrices, i * 16);
  lod.addInstances(matrices);
  const cameras = Array.from({ length: 8 }, (_, k) => {
    const c = new PerspectiveCamera(60, 16 / 9, 0.1, 2000);
    c.position.set(k * 8 - 32, 6, k * 5);
    c.lookAt(30, 0, -200);
    c.updateMatrixWorld(true);
    return c;
  });
  const upload = (): void => { for (const mesh of [...lod.levelMeshes, lod.shadowMesh]) mesh.instanceMatrix.clearUpdateRanges(); };
  for (let f = 0; f < 120; f++) { update(cameras[f & 7]); upload(); }
  gc(); gc();
  let changes = 0;
  const frames = 200;
  const before = process.memoryUsage().heapUsed;
  for (let f = 0; f < frames; f++) { changes += update(cameras[f & 7]).changes; upload(); }
  const perFrame = (process.memoryUsage().heapUsed - before) / frames;
  expect(changes / frames).toBeGreaterThan(200);
  expect(perFrame).toBeLessThan(64 * 1024); // one 16-byte object per instance would be 3.2 MB
});
