import { describe, expect, it, vi } from 'vitest';
import {
  ArrayCamera, Frustum as ThreeFrustum, Sphere,
  BatchedMesh, BoxGeometry, IcosahedronGeometry, InstancedMesh, Matrix4, Mesh, MeshBasicMaterial, PerspectiveCamera, Scene,
  Vector3, type Camera, type Object3D,
} from 'three';
import { LodManager } from '../../../src/adapters/three/lodManager.js';
import { countTriangles } from '../../../src/adapters/three/levelCosts.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { fadeOf, isFading } from '../../../src/adapters/three/crossFade.js';
import { lcg } from '../../helpers/random.js';

const material = new MeshBasicMaterial();
// Icosahedra of detail 3, 1, 0 (1280, 80, 20 triangles), radius 1.
const DETAIL = [3, 1, 0];

function bikeLod(x: number, y: number, z: number): ScreenSizeLOD {
  const lod = new ScreenSizeLOD({ metric: 'pixels', viewportHeight: 1000 });
  lod.addLevel(new Mesh(new IcosahedronGeometry(1, DETAIL[0]), material), 80);
  lod.addLevel(new Mesh(new IcosahedronGeometry(1, DETAIL[1]), material), 20);
  lod.addLevel(new Mesh(new IcosahedronGeometry(1, DETAIL[2]), material), 0);
  lod.position.set(x, y, z);
  lod.updateMatrixWorld(true);
  return lod;
}

function look(camera: Camera, eye: number[], target: number[]): void {
  camera.position.set(eye[0], eye[1], eye[2]);
  camera.lookAt(target[0], target[1], target[2]);
  camera.updateMatrixWorld(true);
}

/** three's own frustum test (independent of lodkit): spheres wholly outside measure 0 (the core's rule). */
function inView(camera: Camera, center: Vector3, radius: number): boolean {
  const f = new ThreeFrustum().setFromProjectionMatrix(new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
  return f.intersectsSphere(new Sphere(center, radius));
}

function visibleLevel(lod: ScreenSizeLOD): number {
  const v = lod.levels.map((l) => l.object.visible);
  return v.filter(Boolean).length === 1 ? v.indexOf(true) : -1;
}

/** Triangles of every mesh that three would draw (visible along its whole parent chain). */
function drawnTriangles(root: Object3D): number {
  let total = 0;
  const visit = (o: Object3D): void => {
    if (!o.visible) return;
    if ((o as Mesh).isMesh) total += countTriangles(o) - o.children.reduce((s, c) => s + countTriangles(c), 0);
    o.children.forEach(visit);
  };
  visit(root);
  return total;
}

function scene(count: number, seed: number): { scene: Scene; lods: ScreenSizeLOD[] } {
  const rand = lcg(seed);
  const s = new Scene();
  const lods: ScreenSizeLOD[] = [];
  for (let i = 0; i < count; i++) {
    const lod = bikeLod((rand() - 0.5) * 200, (rand() - 0.5) * 20, -5 - rand() * 300);
    s.add(lod);
    lods.push(lod);
  }
  return { scene: s, lods };
}

describe('LodManager', () => {
  it('thresholds policy: each registered ScreenSizeLOD shows the level of the pixel formula', () => {
    const { lods } = scene(300, 7);
    const manager = new LodManager({ viewportHeight: 1000 });
    lods.forEach((l) => manager.add(l));
    const camera = new PerspectiveCamera(50, 1.6, 0.1, 2000);
    camera.updateProjectionMatrix();
    look(camera, [0, 2, 40], [0, 0, -100]);
    manager.update(camera, { policy: 'thresholds', cull: false });
    const eye = new Vector3(0, 2, 40);
    const windowHeight = 2 * Math.tan((25 * Math.PI) / 180);
    let checked = 0;
    for (const lod of lods) {
      const d = eye.distanceTo(lod.position);
      const px = inView(camera, lod.position, 1) ? (2 / (d * windowHeight)) * 1000 : 0; // radius 1 (unit icosahedron)
      if (Math.abs(px - 80) < 0.01 || Math.abs(px - 20) < 0.01) continue;
      const expected = px > 80 ? 0 : px > 20 ? 1 : 2;
      expect(visibleLevel(lod)).toBe(expected);
      expect(lod.autoUpdate).toBe(false);
      checked++;
    }
    expect(checked).toBeGreaterThan(290);
  });

  it('resync() draws each object\'s level again after something else wrote the levels\' visible', () => {
    const { lods } = scene(200, 5);
    const manager = new LodManager({ viewportHeight: 1000 });
    lods.forEach((l) => manager.add(l));
    const camera = new PerspectiveCamera(50, 1.6, 0.1, 2000);
    camera.updateProjectionMatrix();
    look(camera, [0, 2, 40], [0, 0, -100]);
    manager.update(camera, { policy: 'thresholds' });
    const before = lods.map((l) => l.levels.map((v) => v.object.visible));
    expect(before.some((v) => v.includes(true))).toBe(true);
    for (const lod of lods) for (const v of lod.levels) v.object.visible = true; // another manager, a debug view …
    manager.resync();
    expect(lods.map((l) => l.levels.map((v) => v.object.visible))).toEqual(before);
  });

  it('touches only objects whose level changed, and nothing for a static camera', () => {
    const { lods } = scene(500, 11);
    const manager = new LodManager({ viewportHeight: 1000 });
    lods.forEach((l) => manager.add(l));
    const camera = new PerspectiveCamera(50, 1.6, 0.1, 2000);
    look(camera, [0, 2, 40], [0, 0, -100]);
    manager.update(camera, { policy: 'thresholds' });
    const before = lods.map(visibleLevel);
    // A LOD is touched through setLevel or, for a plain switch, the manager's own writes and the
    // LOD's noteManagedLevel / noteManagedHidden (managedLevels.ts): count all three.
    const spies = lods.map((l) => [vi.spyOn(l, 'setLevel'), vi.spyOn(l, 'noteManagedLevel'), vi.spyOn(l, 'noteManagedHidden')]);
    const calls = (i: number) => spies[i].reduce((sum, s) => sum + s.mock.calls.length, 0);
    look(camera, [0, 2, 25], [0, 0, -100]);
    const stats = manager.update(camera, { policy: 'thresholds' });
    const after = lods.map(visibleLevel);
    const differs = lods.map((_, i) => before[i] !== after[i]);
    expect(stats.changes).toBeGreaterThan(0);
    expect(stats.changes).toBeLessThan(lods.length / 2);
    lods.forEach((_, i) => expect(calls(i)).toBe(differs[i] ? 1 : 0));
    expect(manager.touched).toBe(differs.filter(Boolean).length);
    spies.flat().forEach((s) => s.mockClear());
    const again = manager.update(camera, { policy: 'thresholds' });
    expect(again.changes).toBe(0);
    expect(manager.touched).toBe(0);
    spies.flat().forEach((s) => expect(s).not.toHaveBeenCalled());
  });

  it('budget policy keeps the triangles actually drawn under the budget', () => {
    const { scene: s, lods } = scene(400, 3);
    const manager = new LodManager({ viewportHeight: 1000 });
    lods.forEach((l) => manager.add(l));
    const camera = new PerspectiveCamera(20, 1.6, 0.1, 2000);
    look(camera, [0, 2, 30], [0, 0, -100]);
    for (const budget of [12_000, 30_000, 60_000]) {
      const stats = manager.update(camera, { policy: 'budget', budget });
      expect(stats.budgetMet).toBe(true);
      const drawn = drawnTriangles(s);
      expect(drawn).toBeLessThanOrEqual(budget);
      expect(drawn).toBe(stats.totalCost);
    }
    // Unconstrained thresholds draw more than the tightest budget: the budget did bind.
    manager.update(camera, { policy: 'thresholds' });
    expect(drawnTriangles(s)).toBeGreaterThan(12_000);
  });

  it('batched instances switch geometry per level and hide when culled', () => {
    const geos = DETAIL.map((d) => new IcosahedronGeometry(1, d));
    const batched = new BatchedMesh(10, 2000, 8000, material);
    const gids = geos.map((g) => batched.addGeometry(g));
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const id = batched.addInstance(gids[0]);
      batched.setMatrixAt(id, new Matrix4().makeTranslation(0, 0, -10 - i * 20));
      ids.push(id);
    }
    const manager = new LodManager({ viewportHeight: 1000 });
    manager.addBatched(batched, ids, { metric: 'pixels', thresholds: [80, 20], levelGeometryIds: gids });
    const camera = new PerspectiveCamera(60, 1, 0.1, 5000);
    look(camera, [0, 0, 0], [0, 0, -1]);
    manager.update(camera, { policy: 'thresholds' });
    const wh = 2 * Math.tan(Math.PI / 6);
    for (let i = 0; i < 10; i++) {
      const px = (2 / ((10 + i * 20) * wh)) * 1000;
      expect(batched.getGeometryIdAt(ids[i])).toBe(gids[px > 80 ? 0 : px > 20 ? 1 : 2]);
      expect(batched.getVisibleAt(ids[i])).toBe(true);
    }
    look(camera, [0, 0, 0], [0, 0, 1]); // looking away: all culled
    const stats = manager.update(camera, { policy: 'thresholds' });
    expect(stats.hidden).toBe(10);
    ids.forEach((id) => expect(batched.getVisibleAt(id)).toBe(false));
  });

  it('an ArrayCamera (stereo eyes) gives one level per object: the largest size over the eyes', () => {
    const lods = Array.from({ length: 30 }, (_, i) => bikeLod(0, 0, -10 - i * 4));
    const manager = new LodManager({ viewportHeight: 1000 });
    lods.forEach((l) => manager.add(l));
    const wide = new PerspectiveCamera(90, 1, 0.1, 2000), narrow = new PerspectiveCamera(20, 1, 0.1, 2000);
    for (const c of [wide, narrow]) { c.updateProjectionMatrix(); look(c, [0, 0, 0], [0, 0, -1]); }
    manager.update(new ArrayCamera([wide, narrow]), { policy: 'thresholds' });
    const px = (fov: number, d: number): number => (2 / (d * 2 * Math.tan((fov * Math.PI) / 360))) * 1000;
    lods.forEach((lod, i) => {
      const size = Math.max(px(90, 10 + i * 4), px(20, 10 + i * 4));
      if (Math.abs(size - 80) < 0.01 || Math.abs(size - 20) < 0.01) return;
      expect(visibleLevel(lod)).toBe(size > 80 ? 0 : size > 20 ? 1 : 2);
    });
  });

  it('blend thresholds: objects inside a blend window draw both levels with complementary dither, and stop when they leave it', () => {
    const lod = bikeLod(0, 0, -20);
    const manager = new LodManager({ viewportHeight: 1000 });
    manager.add(lod, { metric: 'pixels', thresholds: [80, 20], blendThresholds: [60] });
    const camera = new PerspectiveCamera(50, 1, 0.1, 2000);
    const wh = 2 * Math.tan((25 * Math.PI) / 180);
    // Distance where the bike is 70 px tall: inside the [80, 60] blend window, fraction (70 − 80)/(60 − 80) = 0.5.
    const d70 = 2000 / (70 * wh);
    look(camera, [0, 0, -20 + d70], [0, 0, -20]);
    manager.update(camera, { policy: 'thresholds' });
    expect(lod.levels[0].object.visible && lod.levels[1].object.visible).toBe(true);
    expect(fadeOf(lod.levels[0].object) + -fadeOf(lod.levels[1].object)).toBeCloseTo(1, 5);
    expect(lod.blend).toBeCloseTo(0.5, 4);
    look(camera, [0, 0, -20 + 2000 / (100 * wh)], [0, 0, -20]); // 100 px: plain level 0
    manager.update(camera, { policy: 'thresholds' });
    expect(visibleLevel(lod)).toBe(0);
    expect(isFading(lod.levels[0].object) || isFading(lod.levels[1].object)).toBe(false);
  });

  it('rankQuota gives the closest objects the finest levels (MotoGP 4/6) and rejects bad registrations', () => {
    const lods = Array.from({ length: 20 }, (_, i) => bikeLod(0, 0, -10 - i * 5));
    const manager = new LodManager({ viewportHeight: 1000 });
    lods.forEach((l) => manager.add(l));
    const camera = new PerspectiveCamera(50, 1, 0.1, 2000);
    look(camera, [0, 0, 0], [0, 0, -1]);
    manager.update(camera, { policy: 'rankQuota', quotas: [4, 6] });
    expect(lods.map(visibleLevel)).toEqual([...Array(4).fill(0), ...Array(6).fill(1), ...Array(10).fill(2)]);
    expect(() => manager.add(new ScreenSizeLOD())).toThrow(/no levels/);
    // A 'pixels' manager with no viewport skips the frame (counted, warned once), never throws: docs/defaults.md.
    const noViewport = new LodManager();
    noViewport.add(bikeLod(0, 0, -5));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => noViewport.update(camera, { policy: 'thresholds' })).not.toThrow();
    expect(noViewport.skippedFrames).toBe(1);
    warn.mockRestore();
  });
});

describe('triangle counting', () => {
  it('counts indexed and non-indexed geometry, draw ranges and instances', () => {
    const box = new BoxGeometry(); // 6 faces × 2 triangles, indexed
    expect(countTriangles(new Mesh(box, material))).toBe(12);
    const flat = box.toNonIndexed();
    flat.setDrawRange(0, 9);
    expect(countTriangles(new Mesh(flat, material))).toBe(3);
    const inst = new InstancedMesh(box, material, 5);
    inst.count = 4;
    expect(countTriangles(inst)).toBe(48);
  });
});
