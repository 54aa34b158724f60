/**
 * GpuInstancedLOD without WebGPU (Node): the CPU fallback's levels by the distance and pixel
 * formulas, the instance transform built from each sphere, hysteresis and bias passed through,
 * the binding-size / capacity arithmetic, and the errors at the API boundary. The GPU path is
 * tested in Chromium (test/e2e/gpuInstanced.test.ts). Expected values are hand-worked.
 */
import { describe, expect, it } from 'vitest';
import { BoxGeometry, Color, Matrix4, MeshBasicMaterial, PerspectiveCamera, Quaternion, Sphere, Vector2, Vector3 } from 'three';
import { GpuInstancedLOD, gpuInstancedBindingBytes, gpuInstancedCapacity } from '../../../src/adapters/three/gpuInstancedLOD.js';
import { packColors } from '../../../src/adapters/three/gpuInstancedNodes.js';

const material = new MeshBasicMaterial();
const box = new BoxGeometry(2, 2, 2); // local sphere: centre 0, radius √3
const renderer = { getDrawingBufferSize: (v: Vector2) => v.set(800, 1000) };
const levels = [box, box, box].map((geometry) => ({ geometry, material }));

function camera(z = 0): PerspectiveCamera {
  const c = new PerspectiveCamera(90, 0.8, 0.1, 1000); // looks down −z
  c.position.set(0, 0, z);
  c.updateMatrixWorld(true);
  return c;
}

describe('GpuInstancedLOD (CPU fallback)', () => {
  it('renderers without a WebGPU backend get the CPU engine; distance levels 0, 1, 2 and a culled one', async () => {
    const lod = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 8 });
    expect(lod.mode).toBe('cpu');
    expect(lod.selector).toBeNull();
    expect(lod.sharedBuffers).toBe(true);
    // Surface distances 4, 14, 29 (levels 0, 1, 2); the last sphere is behind the eye.
    lod.setSpheres(new Float32Array([0, 0, -5, 1, 0, 0, -15, 1, 0, 0, -30, 1, 0, 0, 40, 1]));
    expect(lod.instanceCount).toBe(4);
    lod.update(camera());
    expect(Array.from(await lod.readLevelCounts())).toEqual([1, 1, 1]);
    expect([0, 1, 2].map((id) => lod.cpu!.levelOf(id))).toEqual([0, 1, 2]);
    expect(lod.levelMeshes.map((m) => (m as unknown as { count: number }).count)).toEqual([1, 1, 1]);
  });

  it('each instance is the geometry moved and scaled so that its local sphere becomes its sphere', () => {
    const lod = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 2 });
    lod.setSpheres(new Float32Array([1, 2, 3, 2 * Math.sqrt(3), -4, 0, -9, Math.sqrt(3) / 2]));
    const m = lod.cpu!.getMatrixAt(0, new Matrix4());
    const e0 = m.elements; // scale √3 → 2√3 is 2 (float32), no rotation, translation (1, 2, 3)
    expect([e0[12], e0[13], e0[14], e0[15]]).toEqual([1, 2, 3, 1]);
    for (const k of [0, 5, 10]) expect(e0[k]).toBeCloseTo(2, 6);
    for (const k of [1, 2, 3, 4, 6, 7, 8, 9, 11]) expect(e0[k]).toBe(0);
    // An off-centre local sphere: centre (1, 0, 0), radius 2 → sphere (10, 0, 0, 4): scale 2, origin (8, 0, 0).
    const off = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 1, sphere: new Sphere(new Vector3(1, 0, 0), 2) });
    off.setSpheres(new Float32Array([10, 0, 0, 4]));
    const e = off.cpu!.getMatrixAt(0, new Matrix4()).elements;
    expect([e[0], e[5], e[10], e[12], e[13], e[14]]).toEqual([2, 2, 2, 8, 0, 0]);
  });

  it('rotations: each matrix is T(centre) · R(q) · S(s) · T(−c), composed independently with three; bad quaternions become the identity', () => {
    const local = new Sphere(new Vector3(0.5, -1, 2), 2);
    const lod = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 3, sphere: local, rotations: true });
    const q = new Quaternion().setFromAxisAngle(new Vector3(1, 2, -0.5).normalize(), 0.7);
    const spheres = new Float32Array([3, 4, -5, 6, -1, 0, -8, 1, 0, 0, -9, 1]);
    // Instance 0: q scaled by 3 (normalised by lodkit); 1: NaN (identity); 2: zero (identity).
    lod.setSpheres(spheres, 3, { rotations: new Float32Array([3 * q.x, 3 * q.y, 3 * q.z, 3 * q.w, NaN, 0, 0, 1, 0, 0, 0, 0]) });
    expect(lod.invalidRotations).toBe(2);
    const s = 6 / 2;
    const want = new Matrix4().makeTranslation(3, 4, -5)
      .multiply(new Matrix4().makeRotationFromQuaternion(q))
      .multiply(new Matrix4().makeScale(s, s, s))
      .multiply(new Matrix4().makeTranslation(-0.5, 1, -2));
    const got = lod.cpu!.getMatrixAt(0, new Matrix4()).elements;
    want.elements.forEach((v, k) => expect(got[k]).toBeCloseTo(v, 5));
    const id = lod.cpu!.getMatrixAt(1, new Matrix4()).elements; // identity rotation, scale ½
    expect([id[0], id[1], id[4], id[5], id[10], id[12], id[13], id[14]]).toEqual([0.5, 0, 0, 0.5, 0.5, -1.25, 0.5, -9]);
    // Without the option, rotations are refused; a short array too.
    const plain = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 1 });
    expect(() => plain.setSpheres(new Float32Array(4), 1, { rotations: new Float32Array(4) })).toThrow(/without the rotations option/);
    expect(() => lod.setSpheres(spheres, 3, { rotations: new Float32Array(8) })).toThrow(/rotations must be a Float32Array of 12 floats/);
  });

  it('colours: packed to 8 bits per channel (clamped, NaN → 0, white when omitted), the same bytes on the CPU path', () => {
    expect(Array.from(packColors(new Float32Array([1, 0, 0.5, -1, 2, NaN]), 2))).toEqual([0xff80_00ff, 0xff00_ff00]);
    expect(Array.from(packColors(undefined, 2))).toEqual([0xffffffff, 0xffffffff]);
    const lod = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 2, colors: true });
    lod.setSpheres(new Float32Array([0, 0, -5, 1, 0, 0, -15, 1]), 2, { colors: new Float32Array([0.2, 0.4, 1, 0, 0.5, 0.75]) });
    const c = lod.cpu!.getColorAt(1, new Color());
    expect([c.r, c.g, c.b]).toEqual([0, Math.fround(128 / 255), Math.fround(191 / 255)]); // round(0.5·255) = 128, round(0.75·255) = 191 (float32 store)
    const plain = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 1 });
    expect(() => plain.setSpheres(new Float32Array(4), 1, { colors: new Float32Array(3) })).toThrow(/without the colors option/);
    expect(() => lod.setSpheres(new Float32Array(8), 2, { colors: new Float32Array(3) })).toThrow(/colors must be a Float32Array of 6 floats/);
  });

  it('pixels metric from the renderer height; bias and hysteresis reach the engine', async () => {
    // lodkit's pixels metric: 2r / (d · windowHeight) × viewport, windowHeight = 2·tan 45° = 2, so
    // 1000·r/d px at 1000 px. r = 1 at d = 20 → 50 px: level 1 (20 < 50 < 60).
    const lod = new GpuInstancedLOD(renderer, { levels, metric: 'pixels', thresholds: [60, 20], capacity: 1 });
    lod.setSpheres(new Float32Array([0, 0, -20, 1]));
    lod.update(camera());
    expect(Array.from(await lod.readLevelCounts())).toEqual([0, 1, 0]);
    lod.update(camera(), { bias: 1.3 }); // 65 px > 60: level 0
    expect(Array.from(await lod.readLevelCounts())).toEqual([1, 0, 0]);
    // Back 2 m (d = 22): 1.3 · 1000/22 = 59.1 px — level 1 without a band; inside a 10 % band
    // 59.1 · 1.1 = 65 px still maps to level 0, so level 0 is kept.
    lod.update(camera(2), { bias: 1.3, hysteresis: 0.1 });
    expect(Array.from(await lod.readLevelCounts())).toEqual([1, 0, 0]);
    lod.update(camera(2), { bias: 1.3 });
    expect(Array.from(await lod.readLevelCounts())).toEqual([0, 1, 0]);
    const fixed = new GpuInstancedLOD(renderer, { levels, metric: 'pixels', thresholds: [60, 20], capacity: 1, viewportHeight: 2000 });
    fixed.setSpheres(new Float32Array([0, 0, -20, 1])); // 100 px at 2000 px: level 0
    fixed.update(camera());
    expect(Array.from(await fixed.readLevelCounts())).toEqual([1, 0, 0]);
  });

  it('setSpheres replaces every instance', async () => {
    const lod = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 4 });
    lod.setSpheres(new Float32Array([0, 0, -5, 1, 0, 0, -15, 1]));
    lod.setSpheres(new Float32Array([0, 0, -30, 1]));
    lod.update(camera());
    expect(lod.instanceCount).toBe(1);
    expect(Array.from(await lod.readLevelCounts())).toEqual([0, 0, 1]);
    expect(lod.children.length).toBe(1);
  });

  it('binding bytes and capacity under device limits (hand-worked)', () => {
    expect(gpuInstancedBindingBytes(10_000_000, 4)).toBe(160_000_000); // spheres 16 B = lists 4 × 4 B
    expect(gpuInstancedBindingBytes(100, 1)).toBe(1600);
    expect(gpuInstancedBindingBytes(100, 8)).toBe(8 * 128 * 4); // 100 rounded up to 128 per list
    const defaults = { maxStorageBufferBindingSize: 134_217_728, maxBufferSize: 268_435_456 };
    expect(gpuInstancedCapacity(defaults, 4)).toBe(8_388_608);
    expect(gpuInstancedCapacity(defaults, 8)).toBe(4_194_304);
    expect(gpuInstancedCapacity({ maxStorageBufferBindingSize: 2 ** 31, maxBufferSize: 2 ** 30 }, 4)).toBe(67_108_864);
    expect(gpuInstancedCapacity({ maxStorageBufferBindingSize: 1_000_000, maxBufferSize: 1_000_000 }, 4)).toBe(62_464); // 62,500 → a multiple of 64
  });

  it('rejects bad options at the boundary, naming the field', () => {
    expect(() => new GpuInstancedLOD(null as never, { levels, thresholds: [1, 2], capacity: 1 })).toThrow(/renderer/);
    expect(() => new GpuInstancedLOD(renderer, { levels: [], thresholds: [], capacity: 1 })).toThrow(/levels/);
    expect(() => new GpuInstancedLOD(renderer, { levels, thresholds: [1], capacity: 1 })).toThrow(/thresholds must have levels − 1 = 2/);
    expect(() => new GpuInstancedLOD(renderer, { levels, thresholds: [1, 2], capacity: 0 })).toThrow(/capacity/);
    expect(() => new GpuInstancedLOD(renderer, { levels: [{ geometry: box, material: [material] }], thresholds: [], capacity: 1 })).toThrow(/levels\[0\]\.material/);
    expect(() => new GpuInstancedLOD(renderer, { levels: [{ geometry: {} as never, material }], thresholds: [], capacity: 1 })).toThrow(/levels\[0\]\.geometry/);
    const lod = new GpuInstancedLOD(renderer, { levels, metric: 'distance', thresholds: [10, 20], capacity: 2 });
    expect(() => lod.setSpheres(new Float32Array(12))).toThrow(/count must be an integer in \[0, 2\]/);
    expect(() => lod.setSpheres(new Float32Array(4), 2)).toThrow(/spheres has 4 floats, 8 needed/);
    expect(() => lod.setSpheres([0, 0, 0, 1] as never)).toThrow(/Float32Array/);
  });

  it('a WebGPURenderer before init() is refused (its backend is not chosen yet); create() awaits init', async () => {
    let ready = false;
    const pending = { ...renderer, hasInitialized: () => ready, init: async () => { ready = true; } };
    expect(() => new GpuInstancedLOD(pending, { levels, thresholds: [60, 20], capacity: 1 })).toThrow(/await renderer.init\(\) first/);
    const lod = await GpuInstancedLOD.create(pending, { levels, thresholds: [60, 20], capacity: 1 });
    expect(ready).toBe(true);
    expect(lod.mode).toBe('cpu');
  });
});
