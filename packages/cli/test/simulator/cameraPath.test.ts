import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Frustum } from 'lodkit';
import { CameraPath, slerp } from '../../src/simulator/cameraPath.js';
import { parseScene } from '../../src/simulator/sceneFormat.js';
import { tinyStaticScene } from './fixtures.js';

type Key = Parameters<typeof parseScene>[0];

function path(keyframes: unknown[]): CameraPath {
  const scene = parseScene({ ...tinyStaticScene(), camera: { keyframes } } as Key);
  return new CameraPath(scene.camera);
}

const forwardOf = (f: Frustum) => Array.from(f.forward);

describe('CameraPath', () => {
  it('interpolates position and target linearly and looks at the target', () => {
    const p = path([
      { time: 0, position: [0, 0, 0], target: [0, 0, -10], fovY: 60, viewport: [200, 100] },
      { time: 2, position: [10, 0, 0], target: [10, 0, -10], fovY: 60, viewport: [200, 100] },
    ]);
    const f = new Frustum();
    const s = p.sample(0.5, f);
    expect(Array.from(f.position)).toEqual([2.5, 0, 0]);
    const fw = forwardOf(f);
    expect(fw[0]).toBeCloseTo(0, 12); expect(fw[2]).toBeCloseTo(-1, 12);
    expect(s.viewportHeight).toBe(100);
    // window height at distance 1 = 2 tan 30°
    expect(f.windowHeight).toBeCloseTo(2 * Math.tan(Math.PI / 6), 12);
    // aspect 2
    expect(f.windowWidth / f.windowHeight).toBeCloseTo(2, 12);
  });

  it('holds the first and last keyframes outside the path', () => {
    const p = path([
      { time: 1, position: [1, 0, 0], target: [1, 0, -1], fovY: 60, viewport: [100, 100] },
      { time: 2, position: [3, 0, 0], target: [3, 0, -1], fovY: 60, viewport: [100, 100] },
    ]);
    const f = new Frustum();
    p.sample(-5, f); expect(f.position[0]).toBe(1);
    p.sample(9, f); expect(f.position[0]).toBe(3);
  });

  it('zooms in log(tan(fovY/2)): halfway between 60° and 6° the magnification is the geometric mean', () => {
    const p = path([
      { time: 0, position: [0, 0, 0], target: [0, 0, -1], fovY: 60, viewport: [100, 100] },
      { time: 1, position: [0, 0, 0], target: [0, 0, -1], fovY: 6, viewport: [100, 100] },
    ]);
    const f = new Frustum();
    p.sample(0.5, f);
    const expected = Math.sqrt(Math.tan(Math.PI / 6) * Math.tan((3 * Math.PI) / 180));
    expect(f.windowHeight / 2).toBeCloseTo(expected, 12);
  });

  it('orthographic height interpolates geometrically too', () => {
    const p = path([
      { time: 0, position: [0, 0, 0], target: [0, 0, -1], height: 4, viewport: [100, 100] },
      { time: 1, position: [0, 0, 0], target: [0, 0, -1], height: 16, viewport: [100, 100] },
    ]);
    const f = new Frustum();
    p.sample(0.5, f);
    expect(f.isPerspective).toBe(false);
    expect(f.windowHeight).toBeCloseTo(8, 12);
  });

  it('a cut holds the previous keyframe until its time, then jumps', () => {
    const p = path([
      { time: 0, position: [0, 0, 0], target: [0, 0, -1], fovY: 60, viewport: [100, 100], shot: 'a' },
      { time: 1, position: [0, 0, 0], target: [0, 0, -1], fovY: 60, viewport: [100, 100], shot: 'a' },
      { time: 1, position: [50, 0, 0], target: [50, 0, -1], fovY: 5, viewport: [100, 100], shot: 'b', cut: true },
      { time: 3, position: [60, 0, 0], target: [60, 0, -1], fovY: 5, viewport: [100, 100], shot: 'b' },
    ]);
    const f = new Frustum();
    expect(p.sample(0.999, f).shot).toBe('a');
    expect(f.position[0]).toBe(0);
    expect(p.sample(1, f).shot).toBe('b');
    expect(f.position[0]).toBe(50);
    p.sample(2, f);
    expect(f.position[0]).toBe(55);
  });

  it('slerps quaternion keyframes: halfway between identity and 90° about y is 45° about y', () => {
    const s = Math.SQRT1_2;
    const p = path([
      { time: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1], fovY: 60, viewport: [100, 100] },
      { time: 1, position: [0, 0, 0], rotation: [0, s, 0, s], fovY: 60, viewport: [100, 100] },
    ]);
    const f = new Frustum();
    p.sample(0.5, f);
    // −Z rotated 45° about +y → (−sin 45°, 0, −cos 45°)
    const fw = forwardOf(f);
    expect(fw[0]).toBeCloseTo(-Math.SQRT1_2, 12);
    expect(fw[2]).toBeCloseTo(-Math.SQRT1_2, 12);
  });

  it('slerp: unit length, endpoints exact, shortest arc', () => {
    const unit = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
      .filter((q) => Math.hypot(...q) > 0.1).map((q) => { const n = Math.hypot(...q); return q.map((x) => x / n); });
    fc.assert(fc.property(unit, unit, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, s) => {
      const out = slerp(a, b, s, new Float64Array(4));
      expect(Math.hypot(...out)).toBeCloseTo(1, 9);
      const at0 = slerp(a, b, 0, new Float64Array(4));
      for (let i = 0; i < 4; i++) expect(at0[i]).toBeCloseTo(a[i], 9);
    }));
  });
});
