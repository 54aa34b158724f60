/**
 * XR: with a stereo `ArrayCamera` (two eyes built by hand, as WebXR's), an object gets ONE level
 * for both eyes — the level of the larger of its two sizes, each eye's size from the formula — in
 * one `LodSet.update` per frame, under a manager and alone. `<InstancedLOD>`: the instances per
 * level (declarative `<LodInstance>` and the ref's `addInstances`) equal the formula's counts.
 */
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ArrayCamera, BoxGeometry, Matrix4, MeshBasicMaterial, PerspectiveCamera, Vector4 } from 'three';
import { LodSet } from 'lodkit';
import type { InstancedLOD as InstancedLODObject, ScreenSizeLOD } from 'lodkit/three';
import { InstancedLOD, LodInstance, LodManager, ScreenSizeDetailed } from '../src/index.js';
import { clearOf, levelForSize, pixelDiameter, render, visibleIndex } from './helpers.js';

afterEach(() => { vi.restoreAllMocks(); });

const FOV = 60, H = 720;

/** Two eyes `ipd` apart at (cx, 0, z), both looking down −z, in one ArrayCamera. */
function stereo(cx: number, z: number, ipd: number): ArrayCamera {
  const eyes = [-1, 1].map((side, i) => {
    const eye = new PerspectiveCamera(FOV, 1, 0.1, 1000);
    eye.position.set(cx + (side * ipd) / 2, 0, z);
    eye.updateMatrixWorld();
    (eye as PerspectiveCamera & { viewport: Vector4 }).viewport = new Vector4(i * 640, 0, 640, 720);
    return eye;
  });
  const camera = new ArrayCamera(eyes);
  camera.position.set(cx, 0, z);
  camera.updateMatrixWorld();
  return camera;
}

const T = [120, 30];
const Levels = () => (
  <>
    <mesh><sphereGeometry args={[1, 32, 16]} /><meshBasicMaterial /></mesh>
    <mesh><sphereGeometry args={[1, 12, 6]} /><meshBasicMaterial /></mesh>
    <mesh><sphereGeometry args={[1, 4, 2]} /><meshBasicMaterial /></mesh>
  </>
);

describe('XR: one decision for both eyes of an ArrayCamera', () => {
  it('under <LodManager camera={arrayCamera}>: level of the larger eye size, one LodSet.update per frame', async () => {
    const refs: (ScreenSizeLOD | null)[] = [];
    const xs = [-6, -3, 0, 3, 6];
    let camera = stereo(0, 10, 4);
    const scene = (cam: ArrayCamera) => (
      <LodManager camera={cam}>
        {xs.map((x, i) => <ScreenSizeDetailed key={i} ref={(o) => { refs[i] = o; }} metric="pixels" thresholds={T} position={[x, 0, 0]}><Levels /></ScreenSizeDetailed>)}
      </LodManager>
    );
    const r = await render(scene(camera), { width: 1280, height: H });
    const spy = vi.spyOn(LodSet.prototype, 'update');
    let disagreements = 0, checked = 0;
    // [eye centre x, z, eye separation]; the 10.2-m rows put one eye on each side of the 120-px boundary.
    for (const [cx, z, ipd] of [[0, 10, 4], [2, 8, 4], [-2, 14, 4], [0, 25, 4], [4, 6, 4], [0, 18, 4], [1, 12, 4], [-1, 20, 4], [1.5, 10.2, 3], [-1.5, 10.2, 3], [4.5, 10.2, 3]] as const) {
      camera = stereo(cx, z, ipd);
      await r.renderer.update(scene(camera));
      spy.mockClear();
      await r.frame();
      expect(spy).toHaveBeenCalledTimes(1);
      xs.forEach((x, i) => {
        const sizes = camera.cameras.map((eye) => pixelDiameter(eye.position.toArray(), [x, 0, 0], 1, FOV, r.viewportHeight()));
        if (!sizes.every((s) => clearOf(s, T, 2e-3))) return;
        // Only objects well inside both eyes' views (aspect 1: the horizontal half-angle is FOV / 2).
        if (!camera.cameras.every((eye) => Math.abs(x - eye.position.x) < eye.position.z * Math.tan((FOV * Math.PI) / 360) - 2)) return;
        const levels = sizes.map((s) => levelForSize(s, T));
        if (levels[0] !== levels[1]) disagreements++;
        expect(visibleIndex(refs[i]!.children), `object at x = ${x}, eyes at ${cx} ± ${ipd / 2}, z = ${z}: ${sizes.map((s) => s.toFixed(1))} px`).toBe(Math.min(...levels));
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(12);
    expect(disagreements, 'cases where the eyes alone would choose different levels').toBeGreaterThan(0);
    await r.renderer.unmount();
  });

  it('without a manager, a ScreenSizeDetailed measured against the ArrayCamera set as r3f camera takes the same one decision', async () => {
    const ref = createRef<ScreenSizeLOD>();
    const r = await render(<ScreenSizeDetailed ref={ref} metric="pixels" thresholds={T} position={[3, 0, 0]}><Levels /></ScreenSizeDetailed>, { width: 1280, height: H });
    let disagreements = 0;
    for (const z of [6, 8, 10, 14, 20, 30]) {
      const camera = stereo(0, z, 6);
      r.state().set({ camera: camera as unknown as PerspectiveCamera });
      await r.frame();
      const sizes = camera.cameras.map((eye) => pixelDiameter(eye.position.toArray(), [3, 0, 0], 1, FOV, r.viewportHeight()));
      if (!sizes.every((s) => clearOf(s, T, 2e-3))) continue;
      const levels = sizes.map((s) => levelForSize(s, T));
      if (levels[0] !== levels[1]) disagreements++;
      expect(visibleIndex(ref.current!.children), `z = ${z}`).toBe(Math.min(...levels));
    }
    expect(disagreements).toBeGreaterThan(0);
    await r.renderer.unmount();
  });
});

describe('<InstancedLOD>', () => {
  const box = new BoxGeometry(2, 2, 2), small = new BoxGeometry(1, 1, 1), material = new MeshBasicMaterial();
  const levels = [{ geometry: box, material }, { geometry: small, material }];
  const R = Math.sqrt(3); // bounding sphere of the 2 × 2 × 2 box (the union of both levels' spheres)

  function expectedCounts(points: number[][], scales: number[], eye: number[], fov: number, h: number, t: number[]): number[] {
    const counts = new Array(t.length + 1).fill(0);
    points.forEach((p, i) => { counts[levelForSize(pixelDiameter(eye, p, R * scales[i], fov, h), t)]++; });
    return counts;
  }

  it('declarative <LodInstance> children: instances per level mesh = the formula, as the camera moves', async () => {
    const points = Array.from({ length: 40 }, (_, i) => [((i % 5) - 2) * 3, ((i % 4) - 1.5) * 2, -4 * i]);
    const scales = points.map((_, i) => 1 + (i % 3) * 0.5);
    const ref = createRef<InstancedLODObject>();
    const r = await render(
      <InstancedLOD ref={ref} levels={levels} thresholds={[60]}>
        {points.map((p, i) => <LodInstance key={i} position={p as [number, number, number]} scale={scales[i]} />)}
      </InstancedLOD>,
    );
    const camera = r.state().camera as PerspectiveCamera;
    for (const z of [10, 40, 90]) {
      r.moveCamera(0, 0, z, [0, 0, z - 100]);
      await r.frame();
      const visible = points.filter((p) => p[2] < z - 3);
      const sizes = points.map((p, i) => pixelDiameter([0, 0, z], p, R * scales[i], camera.fov, r.viewportHeight()));
      if (!sizes.every((s) => clearOf(s, [60]))) continue;
      const want = expectedCounts(visible, scales.filter((_, i) => points[i][2] < z - 3), [0, 0, z], camera.fov, r.viewportHeight(), [60]);
      expect(ref.current!.levelMeshes.map((m) => m.count), `camera z = ${z}`).toEqual(want);
    }
    await r.renderer.unmount();
  });

  it('the imperative ref: addInstances(matrices) for many instances, counted per level the same way', async () => {
    const ref = createRef<InstancedLODObject>();
    const r = await render(<InstancedLOD ref={ref} levels={levels} thresholds={[40]} capacity={16} />);
    const n = 2000;
    const matrices = new Float32Array(n * 16);
    const points: number[][] = [];
    const m = new Matrix4();
    for (let i = 0; i < n; i++) {
      const p = [((i * 37) % 41) - 20, ((i * 17) % 13) - 6, -5 - ((i * 53) % 400)];
      points.push(p);
      m.makeTranslation(p[0], p[1], p[2]).toArray(matrices, i * 16);
    }
    const first = ref.current!.addInstances(matrices);
    r.moveCamera(0, 0, 0, [0, 0, -1]);
    await r.frame();
    const camera = r.state().camera as PerspectiveCamera;
    const halfY = Math.tan((camera.fov * Math.PI) / 360), halfX = halfY * camera.aspect;
    const levelsOf = ref.current!.set.levels; // LodSet levels by instance id
    let checked = 0;
    const counts = [0, 0];
    points.forEach((p, i) => {
      const depth = -p[2];
      // Only instances well inside the view (the formula has no culling); sizes clear of 40 px.
      if (Math.abs(p[0]) > depth * halfX - 2 * R || Math.abs(p[1]) > depth * halfY - 2 * R) return;
      const px = pixelDiameter([0, 0, 0], p, R, camera.fov, r.viewportHeight());
      if (!clearOf(px, [40])) return;
      const want = levelForSize(px, [40]);
      expect(levelsOf[first + i], `instance ${i} at ${p}`).toBe(want);
      counts[want]++; checked++;
    });
    expect(checked).toBeGreaterThan(n / 2);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBeGreaterThan(0);
    await r.renderer.unmount();
  });
});
