/**
 * LodManager / ScreenSizeLOD fixes of issue 10: 0-px viewports are skipped frames, `update(camera)`
 * defaults to thresholds, ScreenSizeLOD warns once without a viewport, BatchedMesh on three r160
 * (the declared minimum, installed as the `three-min` devDependency).
 */
import { describe, expect, it, vi } from 'vitest';
import { IcosahedronGeometry, Matrix4, Mesh, MeshBasicMaterial, PerspectiveCamera, Vector2, type Camera } from 'three';
import * as threeMin from 'three-min';
import { LodManager } from '../../../src/adapters/three/lodManager.js';
import { resetScreenSizeLODWarnings, ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { HIDDEN_LEVEL } from '../../../src/batch/lodSet.js';

const material = new MeshBasicMaterial();
const DETAIL = [3, 1, 0];

function pixelLod(z: number, options: ConstructorParameters<typeof ScreenSizeLOD>[0] = {}): ScreenSizeLOD {
  const lod = new ScreenSizeLOD({ metric: 'pixels', ...options });
  lod.addLevel(new Mesh(new IcosahedronGeometry(1, DETAIL[0]), material), 80);
  lod.addLevel(new Mesh(new IcosahedronGeometry(1, DETAIL[1]), material), 20);
  lod.addLevel(new Mesh(new IcosahedronGeometry(1, DETAIL[2]), material), 0);
  lod.position.set(0, 0, z);
  lod.updateMatrixWorld(true);
  return lod;
}

function look(camera: Camera, eye: number[], target: number[]): void {
  camera.position.set(eye[0], eye[1], eye[2]);
  camera.lookAt(target[0], target[1], target[2]);
  camera.updateMatrixWorld(true);
}

/** Expected level of a unit sphere at distance d for a 1000-px, fovY 60° view: 2/(d·2tan30°)·1000 px. */
function expectedLevel(d: number): number {
  const px = (2 / (d * 2 * Math.tan(Math.PI / 6))) * 1000;
  return px > 80 ? 0 : px > 20 ? 1 : 2;
}

const visibleLevel = (lod: ScreenSizeLOD): number => lod.levels.findIndex((l) => l.object.visible);

describe('LodManager: viewport and default policy', () => {
  it('a 0-px drawing buffer is a skipped frame: no throw, levels kept, counted; a real size resumes', () => {
    let height = 1000;
    const renderer = { getDrawingBufferSize: (t: Vector2) => t.set(1600, height) };
    const manager = new LodManager({ renderer });
    const lods = [5, 20, 80].map((d) => pixelLod(-d));
    lods.forEach((l) => manager.add(l));
    const camera = new PerspectiveCamera(60, 1.6, 0.1, 1000);
    look(camera, [0, 0, 0], [0, 0, -1]);
    const first = manager.update(camera);
    expect(lods.map(visibleLevel)).toEqual([5, 20, 80].map(expectedLevel));
    const total = first.totalCost;
    height = 0;
    look(camera, [0, 0, 60], [0, 0, -1]); // would change levels if measured
    const skipped = manager.update(camera);
    expect(manager.skippedFrames).toBe(1);
    expect(manager.touched).toBe(0);
    expect(skipped.totalCost).toBe(total);
    expect(lods.map(visibleLevel)).toEqual([5, 20, 80].map(expectedLevel));
    height = 1000;
    manager.update(camera);
    expect(manager.skippedFrames).toBe(1);
    expect(lods.map(visibleLevel)).toEqual([65, 80, 140].map(expectedLevel));
  });

  it('update(camera) without options runs the thresholds policy (same levels as explicit thresholds)', () => {
    const a = new LodManager({ viewportHeight: 1000 }), b = new LodManager({ viewportHeight: 1000 });
    const la = [3, 10, 30, 100].map((d) => pixelLod(-d)), lb = [3, 10, 30, 100].map((d) => pixelLod(-d));
    la.forEach((l) => a.add(l)); lb.forEach((l) => b.add(l));
    const camera = new PerspectiveCamera(60, 1, 0.1, 1000);
    look(camera, [0, 0, 0], [0, 0, -1]);
    a.update(camera);
    b.update(camera, { policy: 'thresholds' });
    expect(la.map(visibleLevel)).toEqual([3, 10, 30, 100].map(expectedLevel));
    expect(la.map(visibleLevel)).toEqual(lb.map(visibleLevel));
  });

  it('a pixel manager with neither viewportHeight nor renderer skips its frames (counted, warned once), as every adapter does', () => {
    resetScreenSizeLODWarnings();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const m = new LodManager();
    const lod = pixelLod(-5);
    m.add(lod);
    const camera = new PerspectiveCamera();
    for (let f = 0; f < 3; f++) expect(() => m.update(camera)).not.toThrow();
    expect(m.skippedFrames).toBe(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/LodManager.*viewport height.*skippedFrames/);
    // Registration hid the levels until the first decision; a skipped frame decides nothing.
    expect(lod.hiddenByManager).toBe(true);
    m.viewportHeight = 1000;
    m.update(camera);
    expect(m.skippedFrames).toBe(3);
    expect(lod.hiddenByManager).toBe(false);
    warn.mockRestore();
  });
});

describe('ScreenSizeLOD without a viewport', () => {
  it('warns once (not once per object or frame) and counts the skipped updates', () => {
    resetScreenSizeLODWarnings();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const lods = [pixelLod(-5), pixelLod(-50)];
    const camera = new PerspectiveCamera(60, 1, 0.1, 1000);
    look(camera, [0, 0, 0], [0, 0, -1]);
    for (let f = 0; f < 5; f++) for (const l of lods) l.update(camera);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/viewport height/);
    expect(lods.map((l) => l.skippedUpdates)).toEqual([5, 5]);
    // With a viewport the same LOD measures and chooses.
    lods[1].viewportHeight = 1000;
    lods[1].update(camera);
    expect(visibleLevel(lods[1])).toBe(expectedLevel(50));
    warn.mockRestore();
  });
});

describe('BatchedMesh on three r160 (the declared minimum)', () => {
  it('the installed three-min is r160 and has no setGeometryIdAt', () => {
    expect(threeMin.REVISION).toBe('160');
    expect(typeof (threeMin.BatchedMesh.prototype as { setGeometryIdAt?: unknown }).setGeometryIdAt).toBe('undefined');
  });

  it('levelDrawIds: exactly the draw of the chosen level is visible, culled instances draw nothing', () => {
    const count = 6;
    const geos = DETAIL.map((d) => new threeMin.IcosahedronGeometry(1, d));
    const tris = geos.map((g) => g.index === null ? g.getAttribute('position').count / 3 : g.index.count / 3);
    const batched = new threeMin.BatchedMesh(count * 3, 20_000, 40_000, new threeMin.MeshBasicMaterial());
    const draws: number[] = [];
    const first: number[] = [];
    for (let i = 0; i < count; i++) {
      for (let l = 0; l < 3; l++) draws.push(batched.addGeometry(geos[l]));
      first.push(draws[i * 3]);
      batched.setMatrixAt(draws[i * 3], new threeMin.Matrix4().makeTranslation(0, 0, -5 - i * 20) as unknown as Matrix4);
    }
    const manager = new LodManager({ viewportHeight: 1000 });
    const group = manager.addBatched(batched as never, first, { metric: 'pixels', thresholds: [80, 20], levelGeometryIds: [], levelDrawIds: draws });
    expect(group.levelDrawIds).not.toBeNull();
    const camera = new PerspectiveCamera(60, 1, 0.1, 5000);
    look(camera, [0, 0, 0], [0, 0, -1]);
    const stats = manager.update(camera);
    let cost = 0;
    for (let i = 0; i < count; i++) {
      const want = expectedLevel(5 + i * 20);
      cost += tris[want];
      for (let l = 0; l < 3; l++) expect(batched.getVisibleAt(draws[i * 3 + l])).toBe(l === want);
      // The coarser draws got the instance's matrix.
      const m = new threeMin.Matrix4();
      batched.getMatrixAt(draws[i * 3 + 2], m);
      expect(m.elements[14]).toBe(-5 - i * 20);
    }
    expect(stats.totalCost).toBe(cost); // triangle costs read from r160's draw ranges
    look(camera, [0, 0, 0], [0, 0, 1]);
    manager.update(camera);
    for (let i = 0; i < count; i++) {
      expect(manager.set.levels[group.firstId + i]).toBe(HIDDEN_LEVEL);
      for (let l = 0; l < 3; l++) expect(batched.getVisibleAt(draws[i * 3 + l])).toBe(false);
    }
    expect(() => manager.addBatched(batched as never, first, { metric: 'pixels', thresholds: [80, 20], levelGeometryIds: [0, 1, 2] })).toThrow(/levelDrawIds/);
  });
});
