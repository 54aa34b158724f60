import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Frustum, lookAtRotation } from '../../src/index.js';
import { apply, gfRotationMatrix, normalizeQuat } from '../helpers/reference.js';

const quat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((q) => Math.hypot(...q) > 0.1).map((q) => normalizeQuat(q));
const coord = fc.double({ min: -50, max: 50, noNaN: true });

describe('Frustum', () => {
  it('has GfFrustum defaults', () => {
    const f = new Frustum();
    expect(Array.from(f.position)).toEqual([0, 0, 0]);
    expect(Array.from(f.rotation)).toEqual([0, 0, 0, 1]);
    expect([f.near, f.far, f.projection, f.windowArea, f.referencePlaneDepth]).toEqual([1, 10, 'perspective', 4, 1]);
    expect(Array.from(f.forward, (v) => v + 0)).toEqual([0, 0, -1]); // + 0 folds −0 into 0
  });

  it('builds the window from fovY and aspect', () => {
    const f = Frustum.perspective({ fovY: 90, aspect: 2, near: 0.5, far: 100 });
    expect(f.windowHeight).toBeCloseTo(2, 12); // tan(45°) = 1 → window −1..1
    expect(f.windowWidth).toBeCloseTo(4, 12);
    const o = Frustum.orthographic({ height: 10, aspect: 1.5, near: -5, far: 5 });
    expect([o.windowWidth, o.windowHeight, o.referencePlaneDepth, o.isPerspective]).toEqual([15, 10, 0, false]);
  });

  it.each([
    [{ near: 0 }, /near/],
    [{ near: -1 }, /near/],
    [{ near: 2, far: 2 }, /far/],
    [{ window: { min: [0, 0], max: [0, 1] } }, /window/],
    [{ position: [0, NaN, 0] }, /position\[1\]/],
    [{ rotation: [0, 0, 0, 1.001] }, /rotation/],
    [{ far: Infinity }, /far/],
    [{ projection: 'fisheye' as never }, /projection/],
  ])('rejects %j with a RangeError naming the field', (init, field) => {
    expect(() => new Frustum(init)).toThrow(RangeError);
    expect(() => new Frustum(init)).toThrow(field);
  });

  it('accepts a quaternion within 1e-6 of unit length and a negative orthographic near', () => {
    expect(() => new Frustum({ rotation: [0, 0, 0, 1 + 5e-7] })).not.toThrow();
    expect(() => new Frustum({ projection: 'orthographic', near: -3, far: 3 })).not.toThrow();
  });

  it('leaves the frustum unchanged when set() throws', () => {
    const f = new Frustum({ position: [1, 2, 3] });
    expect(() => f.set({ near: -1 })).toThrow(RangeError);
    expect(Array.from(f.position)).toEqual([1, 2, 3]);
  });

  it('perspective projection matrix maps the window at depth 1 to NDC ±1 (GL clip)', () => {
    const f = new Frustum({ window: { min: [-2, -1], max: [1, 3] }, near: 1, far: 10 });
    const check = (p: number[], ndc: number[]) => {
      const c = apply(f.projectionMatrix, p);
      expect(c[0] / c[3]).toBeCloseTo(ndc[0], 12);
      expect(c[1] / c[3]).toBeCloseTo(ndc[1], 12);
      expect(c[2] / c[3]).toBeCloseTo(ndc[2], 12);
    };
    check([-2, -1, -1], [-1, -1, -1]); // window corner on the near plane (near = 1)
    check([2, 6, -2], [1, 1, (-(11 / 9) * -2 - 20 / 9) / 2]); // same corner direction at depth 2
    check([10, 30, -10], [1, 1, 1]); // far plane
  });

  it('orthographic projection maps the window box to NDC', () => {
    const f = new Frustum({ projection: 'orthographic', window: { min: [-4, -2], max: [4, 2] }, near: 1, far: 9 });
    const c = apply(f.projectionMatrix, [4, -2, -9]);
    expect([c[0], c[1], c[2], c[3]]).toEqual([1, -1, 1, 1]);
  });

  it('view matrix takes the eye to the origin and the view direction to −Z', () => {
    fc.assert(fc.property(quat, coord, coord, coord, (q, x, y, z) => {
      const f = new Frustum({ position: [x, y, z], rotation: q });
      const eye = apply(f.viewMatrix, [x, y, z]);
      const ahead = apply(f.viewMatrix, [x + f.forward[0], y + f.forward[1], z + f.forward[2]]);
      // GfFrustum rotates by the GfRotation built from q (axis and angle): camera-local up in world = column 1.
      const r = gfRotationMatrix(q);
      const up = apply(f.viewMatrix, [x + r[4], y + r[5], z + r[6]]);
      for (let i = 0; i < 3; i++) expect(Math.abs(eye[i])).toBeLessThan(1e-9);
      expect(ahead[0]).toBeCloseTo(0, 9); expect(ahead[1]).toBeCloseTo(0, 9); expect(ahead[2]).toBeCloseTo(-1, 9);
      expect(up[0]).toBeCloseTo(0, 9); expect(up[1]).toBeCloseTo(1, 9); expect(up[2]).toBeCloseTo(0, 9);
    }), { numRuns: 1000 });
  });

  it('rotates as GfRotation does: the axis from x, y, z and the angle from the raw w', () => {
    // A 60° turn about +Y, scaled 1 + 9e-7 (accepted: within 1e-6 of unit length). GfRotation keeps
    // the axis (0, 1, 0) and takes angle = 2·acos(w·(1 + 9e-7)), not the angle of q / |q|.
    const k = 1 + 9e-7, half = Math.PI / 6;
    const f = new Frustum({ rotation: [0, Math.sin(half) * k, 0, Math.cos(half) * k] });
    const angle = 2 * Math.acos(Math.cos(half) * k);
    // The camera looks down −Z; a turn by `angle` about +Y takes it to (−sin, 0, −cos).
    expect(f.forward[0]).toBeCloseTo(-Math.sin(angle), 14);
    expect(f.forward[2]).toBeCloseTo(-Math.cos(angle), 14);
    expect(Math.abs(angle - Math.PI / 3)).toBeGreaterThan(1e-7); // differs from normalising q
    // An imaginary part of at most 1e-10 is the identity.
    expect(Array.from(new Frustum({ rotation: [1e-11, 0, 0, 1] }).forward, (v) => v + 0)).toEqual([0, 0, -1]);
  });

  it('recomputes the rotation when the rotation array is edited in place and update() is called', () => {
    const f = new Frustum({ rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] }); // 90° about +Y: looks down −X
    expect(f.forward[0]).toBeCloseTo(-1, 15);
    f.rotation[1] = 0; f.rotation[3] = 1; // back to the identity
    f.update();
    expect(Array.from(f.forward, (v) => v + 0)).toEqual([0, 0, -1]);
    expect(Array.from(f.gfRotation)).toEqual([0, 0, 0, 1]);
  });

  it('planes agree with the clip-space containment test', () => {
    fc.assert(fc.property(quat, fc.boolean(), coord, coord, coord, (q, ortho, x, y, z) => {
      const f = new Frustum({ position: [1, -2, 3], rotation: q, window: { min: [-1.5, -0.5], max: [0.5, 1] }, near: 0.5, far: 40, projection: ortho ? 'orthographic' : 'perspective' });
      const m = f.viewMatrix, p = f.projectionMatrix;
      const view = apply(m, [x, y, z]);
      const clip = apply(p, view);
      const w = clip[3];
      const margin = 1e-6 * Math.max(1, Math.abs(w));
      const inClip = w > 0 && Math.abs(clip[0]) <= w && Math.abs(clip[1]) <= w && Math.abs(clip[2]) <= w;
      const nearBoundary = [0, 1, 2].some((i) => Math.abs(Math.abs(clip[i]) - Math.abs(w)) < margin * 10);
      fc.pre(!nearBoundary); // counted by fast-check (too many skips fail the property), not a silent pass
      let inPlanes = true;
      for (let i = 0; i < 6; i++) if (f.planeDistance(i, x, y, z) < 0) inPlanes = false;
      expect(inPlanes).toBe(inClip);
    }), { numRuns: 2000 });
  });

  it('lookAtRotation points the camera at the target with +Y up', () => {
    fc.assert(fc.property(coord, coord, coord, coord, coord, coord, (ex, ey, ez, tx, ty, tz) => {
      const d = Math.hypot(tx - ex, ty - ey, tz - ez);
      fc.pre(d > 1e-3);
      const f = new Frustum({ position: [ex, ey, ez], rotation: lookAtRotation([ex, ey, ez], [tx, ty, tz]) });
      expect(f.forward[0]).toBeCloseTo((tx - ex) / d, 6);
      expect(f.forward[1]).toBeCloseTo((ty - ey) / d, 6);
      expect(f.forward[2]).toBeCloseTo((tz - ez) / d, 6);
    }), { numRuns: 1000 });
  });

  it('round-trips through toJSON', () => {
    const f = Frustum.perspective({ fovY: 40, aspect: 1.25, near: 0.1, far: 70, position: [1, 2, 3], rotation: lookAtRotation([1, 2, 3], [0, 0, 0]) });
    const g = new Frustum(JSON.parse(JSON.stringify(f)));
    expect(Array.from(g.planes)).toEqual(Array.from(f.planes));
    expect(Array.from(g.projectionMatrix)).toEqual(Array.from(f.projectionMatrix));
  });
});
