/**
 * `InstancedLOD`s on a `LodManager`'s set (`options.set`, `manager.addInstancedLOD`): one
 * `LodSet.update` per frame for every object (counted with a spy on the documented batch entry
 * point), instance levels equal to a standalone `InstancedLOD`'s and to the pixel formula, one
 * budget spanning `ScreenSizeLOD`s and instances (the triangles three would draw, counted from the
 * meshes, equal the stats and stay under it), clear errors, and disposal.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Frustum, IcosahedronGeometry, Matrix4, Mesh, MeshBasicMaterial, PerspectiveCamera, Sphere, Vector3, type Camera } from 'three';
import { LodManager } from '../../../src/adapters/three/lodManager.js';
import { InstancedLOD } from '../../../src/adapters/three/instancedLOD.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { HIDDEN_LEVEL, LodSet } from '../../../src/batch/lodSet.js';
import { budgetPolicy } from '../../../src/batch/policyModules.js';
import { lcg } from '../../helpers/random.js';

const material = new MeshBasicMaterial();
const GEOMETRIES = [3, 1, 0].map((d) => new IcosahedronGeometry(1, d)); // radius 1; 1280, 80, 20 triangles
const TRIS = [1280, 80, 20];
const levels = GEOMETRIES.map((geometry) => ({ geometry, material }));

function look(camera: Camera, eye: number[], target: number[]): void {
  camera.position.set(eye[0], eye[1], eye[2]);
  camera.lookAt(target[0], target[1], target[2]);
  camera.updateMatrixWorld(true);
}

function matrices(n: number, seed: number, x0: number): Float32Array {
  const r = lcg(seed), out = new Float32Array(n * 16), m = new Matrix4();
  for (let i = 0; i < n; i++) { m.makeTranslation(x0 + (r() - 0.5) * 200, 0, -r() * 300); out.set(m.elements, i * 16); }
  return out;
}

function bike(x: number, z: number): ScreenSizeLOD {
  const lod = new ScreenSizeLOD({ metric: 'pixels', viewportHeight: 1000 });
  GEOMETRIES.forEach((g, l) => lod.addLevel(new Mesh(g, material), [80, 20, 0][l]));
  lod.position.set(x, 0, z);
  lod.updateMatrixWorld(true);
  return lod;
}

/** Triangles three draws: each level mesh's instance count × its triangles, plus the shown LOD levels. */
function drawnTriangles(instanced: InstancedLOD[], lods: ScreenSizeLOD[]): number {
  let t = 0;
  for (const inst of instanced) inst.levelMeshes.forEach((m, l) => { t += m.count * TRIS[l]; });
  for (const lod of lods) lod.levels.forEach((lv, l) => { if (lv.object.visible) t += TRIS[l]; });
  return t;
}

afterEach(() => { vi.restoreAllMocks(); });

describe('LodManager.addInstancedLOD', () => {
  it('one LodSet.update per frame for the LODs and two InstancedLODs; instance levels = a standalone InstancedLOD = the pixel formula', () => {
    const manager = new LodManager({ viewportHeight: 1000 });
    const lods = Array.from({ length: 50 }, (_, i) => bike((i % 10) * 8 - 40, -10 - 6 * Math.floor(i / 10)));
    lods.forEach((l) => manager.add(l));
    const shared = [0, 1].map(() => new InstancedLOD({ levels, thresholds: [80, 20], viewportHeight: 1, set: manager.set }));
    const alone = [0, 1].map(() => new InstancedLOD({ levels, thresholds: [80, 20], viewportHeight: 1000 }));
    const firsts = [0, 1].map((k) => shared[k].addInstances(matrices(3000, 11 + k, k * 250)));
    [0, 1].forEach((k) => alone[k].addInstances(matrices(3000, 11 + k, k * 250)));
    shared.forEach((s) => manager.addInstancedLOD(s));
    const camera = new PerspectiveCamera(60, 1, 0.1, 5000);
    const spy = vi.spyOn(LodSet.prototype, 'update');
    const wh = 2 * Math.tan(Math.PI / 6);
    let checked = 0;
    for (let f = 0; f < 12; f++) {
      look(camera, [f * 20, 20, 40 - f * 10], [f * 20 + 30, 0, -200]);
      spy.mockClear();
      const stats = manager.update(camera);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(manager.touched).toBe(stats.changes); // every changed LOD or instance once
      const three = new Frustum().setFromProjectionMatrix(new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
      for (let k = 0; k < 2; k++) {
        alone[k].update(camera);
        const m = new Matrix4(), p = new Vector3();
        for (let i = 0; i < 3000; i++) {
          const id = firsts[k] + i;
          expect(shared[k].levelOf(id)).toBe(alone[k].levelOf(i));
          shared[k].getMatrixAt(id, m);
          p.setFromMatrixPosition(m);
          const px = (2 / (camera.position.distanceTo(p) * wh)) * 1000;
          if (Math.abs(px - 80) < 0.01 || Math.abs(px - 20) < 0.01) continue;
          const want = !three.intersectsSphere(new Sphere(p, 1)) ? HIDDEN_LEVEL : px > 80 ? 0 : px > 20 ? 1 : 2;
          if (want === HIDDEN_LEVEL && shared[k].levelOf(id) !== HIDDEN_LEVEL) continue; // (three's test is looser than lodkit's near the planes)
          expect(shared[k].levelOf(id)).toBe(want);
          checked++;
        }
        // the level meshes hold exactly the instances at each level
        shared[k].levelMeshes.forEach((mesh, l) => { for (let s = 0; s < mesh.count; s++) expect(shared[k].levelOf(shared[k].instanceAt(l, s))).toBe(l); });
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(() => shared[0].update(camera)).toThrow(/shares a LodManager's set/);
  });

  it('one budget spans the LODs and the instances: what three draws equals the stats and stays under it, both kinds coarsened', () => {
    const manager = new LodManager({ viewportHeight: 1000 });
    const lods = Array.from({ length: 200 }, (_, i) => bike((i % 20) * 6 - 60, -8 - 5 * Math.floor(i / 20)));
    lods.forEach((l) => manager.add(l));
    const inst = new InstancedLOD({ levels, thresholds: [80, 20], set: manager.set });
    inst.addInstances(matrices(4000, 5, 0));
    manager.addInstancedLOD(inst);
    const camera = new PerspectiveCamera(60, 1, 0.1, 5000);
    look(camera, [0, 10, 30], [0, 0, -200]);
    const first = manager.update(camera), free = first.totalCost;
    expect(drawnTriangles([inst], lods)).toBe(free);
    const freeLods = drawnTriangles([], lods), freeInstances = drawnTriangles([inst], []);
    const budget = Math.round(first.minimumCost + 0.4 * (free - first.minimumCost)); // binds, above every object at its coarsest
    let stats = manager.update(camera, { policy: budgetPolicy, budget });
    for (let f = 0; f < 40; f++) stats = manager.update(camera, { policy: budgetPolicy, budget });
    expect(stats.totalCost).toBeLessThanOrEqual(budget);
    expect(drawnTriangles([inst], lods)).toBe(stats.totalCost);
    // both kinds gave up triangles against the thresholds' picture
    expect(drawnTriangles([], lods)).toBeLessThan(freeLods);
    expect(drawnTriangles([inst], [])).toBeLessThan(freeInstances);
  });

  it('clear errors; dispose() takes the instances out of the shared set; a reused id belongs to its new owner', () => {
    const manager = new LodManager({ viewportHeight: 1000 });
    const own = new InstancedLOD({ levels, thresholds: [80, 20] });
    expect(() => manager.addInstancedLOD(own)).toThrow(/built on the manager's set/);
    expect(() => new InstancedLOD({ levels, thresholds: [80, 20], set: {} as LodSet })).toThrow(/set must be a LodSet/);
    const inst = new InstancedLOD({ levels, thresholds: [80, 20], set: manager.set });
    const first = inst.addInstances(matrices(100, 3, 0));
    manager.addInstancedLOD(inst);
    const camera = new PerspectiveCamera(60, 1, 0.1, 5000);
    look(camera, [0, 10, 30], [0, 0, -200]);
    manager.update(camera);
    expect(inst.levelMeshes.reduce((s, m) => s + m.count, 0)).toBeGreaterThan(0);
    inst.removeInstance(first + 7);
    const lod = bike(0, -20);
    const id = manager.add(lod); // may reuse the removed instance's id
    manager.update(camera);
    expect(inst.hasInstance(id)).toBe(false);
    expect(lod.levels.some((l) => l.object.visible)).toBe(true);
    manager.removeInstancedLOD(inst);
    inst.dispose();
    manager.update(camera);
    let live = 0;
    for (let i = 0; i < manager.set.count; i++) if (manager.set.levels[i] !== HIDDEN_LEVEL) live++;
    expect(live).toBe(1); // only the LOD is decided now
    expect(inst.instanceCount).toBe(0);
  });
});
