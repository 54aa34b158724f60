import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Frustum, lookAtRotation, ScreenSizeHeuristic, type ScreenSizeProjection } from '../../src/index.js';
import { expectedScreenLod, matMul, normalizeQuat, quatMultiply, quatToMatrix, translation } from '../helpers/reference.js';

const THRESHOLDS = [0.25, 0.1];
const BLENDS = [0.2, 0.05];
const CUBE = 3;
const cubeTransform = translation(CUBE / 2, CUBE / 2, -CUBE / 2);
const cubeExtent = { min: [-1.5, -1.5, -1.5], max: [1.5, 1.5, 1.5] };

/**
 * OpenUSD's test scene, solved by hand. The size-3 cube spans x, y ∈ [0, 3], z ∈ [−3, 0]; the
 * default frustum (window ±1 at depth 1, near 1, far 10) sits at (0, 0, z) looking down −Z, so
 * the eye is on the line through the cube's corner edge.
 * - projectedExtent, box wholly in front of the near plane: the hull is the near face, a square of
 *   side 3/z in NDC (the far face, side 3/(z+3), lies inside it): size (3/z)² / 4.
 * - z = 0: the box crosses the near plane (world z = −1): documented → 1.0; OpenUSD clips it at
 *   depth 1, where its section is the square [0, 3]²: (3/1)² / 4 = 2.25.
 * - z ≥ 11: the box lies wholly beyond the far plane (world z − 10 > 0): 0.
 * - projectedSphere: centre (1.5, 1.5, −1.5), radius 1.5·√3, eye distance d: π (R/d)² / 4; culled by
 *   the far plane once (z − 10) − (−1.5) > R; crossing the near plane (documented → 1.0) while
 *   |z + 0.5| < R, i.e. z ≤ 2.
 */
function expectedSizes(z: number, semantics: 'documented' | 'openusd'): { sphere: number; extent: number } {
  const R = 1.5 * Math.sqrt(3);
  const d = Math.sqrt(1.5 * 1.5 + 1.5 * 1.5 + (z + 1.5) * (z + 1.5));
  let sphere: number;
  if (z - 10 + 1.5 > R) sphere = 0;
  else if (semantics === 'documented' && Math.abs(z + 0.5) < R) sphere = 1;
  else sphere = (Math.PI * (R / d) ** 2) / 4;
  let extent: number;
  if (z > 10) extent = 0;
  else if (z === 0) extent = semantics === 'documented' ? 1 : 9 / 4;
  else extent = (3 / z) ** 2 / 4;
  return { sphere, extent };
}

describe('ScreenSizeHeuristic — OpenUSD test scene (cube moved along +Z, z = 0 … 29)', () => {
  for (const semantics of ['documented', 'openusd'] as const) {
    for (const projection of ['projectedSphere', 'projectedExtent'] as ScreenSizeProjection[]) {
      it(`${projection}, ${semantics} semantics`, () => {
        const h = new ScreenSizeHeuristic({ extent: cubeExtent, projection, thresholds: THRESHOLDS, blendThresholds: BLENDS, semantics });
        const hyst = 0.1;
        for (let z = 0; z < 30; z++) {
          const frustum = new Frustum({ position: [0, 0, z] });
          const exp = expectedSizes(z, semantics);
          const expSize = projection === 'projectedSphere' ? exp.sphere : exp.extent;
          const a0 = h.computeScreenSize(frustum, cubeTransform);
          expect(a0, `z = ${z}`).toBeCloseTo(expSize, 9);
          expect(h.computeLod(a0), `z = ${z}`).toBeCloseTo(expectedScreenLod(expSize, THRESHOLDS, BLENDS), 6);
          // OpenUSD's hysteresis checks: a1 inside the band, a2 outside it.
          const a1 = a0 + 0.05, a2 = a0 + 0.25;
          expect(h.computeScreenSize(frustum, cubeTransform, a1, 0)).toBe(a0);
          expect(h.computeScreenSize(frustum, cubeTransform, a1, hyst)).toBe(a1);
          const b2 = h.computeScreenSize(frustum, cubeTransform, a2, hyst);
          expect(b2).toBe(semantics === 'documented' ? a0 : a0 + hyst);
          const sel = h.select(frustum, cubeTransform, a2, hyst);
          expect(sel).toEqual({ lod: h.computeLod(b2), size: b2 });
        }
      });
    }
  }

  it('matches the hand-derived LOD at the landmark distances', () => {
    const h = new ScreenSizeHeuristic({ extent: cubeExtent, projection: 'projectedExtent', thresholds: THRESHOLDS, blendThresholds: BLENDS });
    const lodAt = (z: number) => h.computeLod(h.computeScreenSize(new Frustum({ position: [0, 0, z] }), cubeTransform));
    expect(lodAt(2)).toBe(0); // (3/2)²/4 = 0.5625
    expect(lodAt(3)).toBe(0); // exactly 25 %: not > 0.25 → blend window 0→1 at its start, fraction 0
    expect(lodAt(4)).toBe(1); // 0.140625: between 0.20 and 0.10
    expect(lodAt(5)).toBeCloseTo(1 + (0.1 - 0.09) / (0.1 - 0.05), 6); // 0.09: blending 1 → 2
    expect(lodAt(8)).toBe(2); // 0.0352
    expect(lodAt(11)).toBe(2); // beyond far: 0
  });
});

describe('ScreenSizeHeuristic — OpenUSD GetLod case', () => {
  const options = {
    extent: { min: [0, 0, -4], max: [2, 2, -2] },
    projection: 'projectedExtent' as const,
    thresholds: [0.99, 0.3, 0.1],
    blendThresholds: [0.75, 0.2],
  };
  for (const semantics of ['documented', 'openusd'] as const) {
    it(`gives 1.5 in perspective and 0.0 in orthographic (${semantics})`, () => {
      const h = new ScreenSizeHeuristic({ ...options, semantics });
      // Perspective: the near face (depth 2) projects to [0, 1]², a quarter of the NDC square → 0.25.
      expect(h.computeScreenSize(new Frustum())).toBe(0.25);
      expect(h.computeLod(0.25)).toBe(1.5);
      expect(h.select(new Frustum()).lod).toBe(1.5);
      // Orthographic (window ±1 world units): the box covers [0, 2]² of NDC → 1.0 → LOD 0.
      const ortho = new Frustum({ projection: 'orthographic' });
      expect(h.computeScreenSize(ortho)).toBe(1);
      expect(h.select(ortho).lod).toBe(0);
    });
  }
});

describe('ScreenSizeHeuristic — rules', () => {
  it('computeLod reproduces OpenUSD float32 comparisons', () => {
    const h = new ScreenSizeHeuristic({ extent: cubeExtent, thresholds: [0.1] });
    // 0.1 as float32 is 0.100000001490116…; a double just above 0.1 rounds to the same float → not greater.
    expect(h.computeLod(0.1000000001)).toBe(1);
    expect(h.computeLod(0.1000001)).toBe(0);
    expect(new ScreenSizeHeuristic({ extent: cubeExtent }).computeLod(0.5)).toBe(0); // no thresholds
  });

  it('computeLod stays in [0, thresholds.length] for any size, NaN giving the coarsest', () => {
    const sorted = fc.array(fc.double({ min: 0, max: 2, noNaN: true }), { minLength: 1, maxLength: 6 })
      .map((a) => Array.from(new Float32Array(a)).sort((x, y) => y - x));
    fc.assert(fc.property(sorted, fc.double(), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }), (t, size, u) => {
      // Blend i somewhere in (t[i+1], t[i]]; dropped when float rounding leaves no room.
      const blends: number[] = [];
      for (let i = 0; i < Math.min(u.length, t.length); i++) {
        const lo = i + 1 < t.length ? t[i + 1] : t[i] - 1;
        const b = Math.fround(lo + (t[i] - lo) * u[i]);
        if (!(b <= t[i] && b > lo)) break;
        blends.push(b);
      }
      const h = new ScreenSizeHeuristic({ extent: cubeExtent, thresholds: t, blendThresholds: blends });
      const lod = h.computeLod(size);
      expect(lod).toBeGreaterThanOrEqual(0);
      expect(lod).toBeLessThanOrEqual(t.length);
      expect(h.computeLod(NaN)).toBe(t.length);
    }), { numRuns: 2000 });
  });

  it('an empty extent (min > max) has size 0', () => {
    const h = new ScreenSizeHeuristic({ extent: { min: [1, 0, 0], max: [0, 1, 1] }, thresholds: [0.5] });
    expect(h.computeScreenSize(new Frustum())).toBe(0);
    expect(h.select(new Frustum()).lod).toBe(1);
  });

  it('returns Number.MAX_VALUE for projectedSphere with the eye at the centre (openusd semantics)', () => {
    const h = new ScreenSizeHeuristic({ extent: cubeExtent, semantics: 'openusd' });
    expect(h.computeScreenSize(new Frustum())).toBe(Number.MAX_VALUE);
  });

  it.each([
    [{ thresholds: [0.1, 0.2] }, /thresholds\[1\]/],
    [{ thresholds: [0.2, NaN] }, /thresholds\[1\]/],
    [{ thresholds: [0.25, 0.1], blendThresholds: [0.3] }, /blendThresholds\[0\]/],
    [{ thresholds: [0.25, 0.1], blendThresholds: [0.2, 0.11] }, /blendThresholds\[1\]/],
    [{ thresholds: [0.25, 0.1], blendThresholds: [0.2, 0.05, 0.01] }, /blendThresholds/],
    [{ thresholds: [0.25, 0.1], blendThresholds: [0.1] }, /blendThresholds\[0\]/],
    [{ projection: 'projectedBox' }, /projection/],
    [{ semantics: 'strict' }, /semantics/],
    [{ extent: { min: [0, 0], max: [1, 1, 1] } }, /extent\.min/],
    [{ extent: { min: [0, 0, 0], max: [1, Infinity, 1] } }, /extent\.max\[1\]/],
    [{ domain: '' }, /domain/],
  ])('rejects %j naming the field', (bad, field) => {
    expect(() => new ScreenSizeHeuristic({ extent: cubeExtent, ...(bad as object) })).toThrow(RangeError);
    expect(() => new ScreenSizeHeuristic({ extent: cubeExtent, ...(bad as object) })).toThrow(field);
  });

  it('rejects a malformed transform at the call', () => {
    const h = new ScreenSizeHeuristic({ extent: cubeExtent });
    expect(() => h.computeScreenSize(new Frustum(), [1, 0, 0])).toThrow(/transform/);
    const m = translation(0, 0, -5); m[13] = NaN;
    expect(() => h.computeScreenSize(new Frustum(), m)).toThrow(/transform\[13\]/);
  });

  it('keeps its size as the object slides off the side of the screen (not clipped by side planes)', () => {
    for (const projection of ['projectedSphere', 'projectedExtent'] as const) {
      const h = new ScreenSizeHeuristic({ extent: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] }, projection });
      const f = new Frustum({ far: 100 });
      // Camera-facing unit cube at depth 20 sliding along x: at x = 20 its centre is on the right plane.
      const centred = h.computeScreenSize(f, translation(0, 0, -20));
      const edge = h.computeScreenSize(f, translation(20, 0, -20));
      if (projection === 'projectedExtent') expect(edge).toBeCloseTo(centred, 2); // perspective shape change only
      else expect(edge).toBeCloseTo((Math.PI * (Math.sqrt(0.75) / Math.sqrt(800)) ** 2) / 4, 12);
      expect(h.computeScreenSize(f, translation(25, 0, -20))).toBe(0);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const quat = fc.tuple(unit, unit, unit, unit).filter((q) => Math.hypot(...q) > 0.1).map((q) => normalizeQuat(q));
const coord = fc.double({ min: -20, max: 20, noNaN: true });
const half = fc.double({ min: 0.05, max: 2, noNaN: true });
const thresholdSet = fc.tuple(fc.double({ min: 0.001, max: 0.99, noNaN: true }), fc.double({ min: 0.001, max: 0.99, noNaN: true }), fc.double({ min: 0.001, max: 0.99, noNaN: true }))
  .map((t) => Array.from(new Float32Array(t)).sort((a, b) => b - a))
  .filter((t) => t[0] > t[1] && t[1] > t[2]);
const projectionArb = fc.constantFrom<ScreenSizeProjection>('projectedSphere', 'projectedExtent');
const semanticsArb = fc.constantFrom('documented' as const, 'openusd' as const);

describe('ScreenSizeHeuristic — properties', () => {
  it('LOD never decreases as the object moves away along the view ray', () => {
    fc.assert(fc.property(quat, quat, half, half, half, thresholdSet, projectionArb, semanticsArb, fc.boolean(),
      fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      (camQ, objQ, hx, hy, hz, thresholds, projection, semantics, ortho, u1, u2) => {
        const blends = [thresholds[0] * 0.5 + thresholds[1] * 0.5, thresholds[1] * 0.5 + thresholds[2] * 0.5].map(Math.fround)
          .map((b, i) => (b > thresholds[i + 1] && b <= thresholds[i] ? b : thresholds[i]));
        const eye = [1, 2, 3];
        const near = 0.5, far = 200;
        const frustum = new Frustum({ position: eye, rotation: camQ, near, far, projection: ortho ? 'orthographic' : 'perspective', window: ortho ? { min: [-4, -3], max: [4, 3] } : undefined });
        const h = new ScreenSizeHeuristic({ extent: { min: [-hx, -hy, -hz], max: [hx, hy, hz] }, projection, thresholds, blendThresholds: blends, semantics });
        const R = Math.hypot(hx, hy, hz);
        // Centre on the view ray, the whole object beyond the near plane.
        const t1 = near + R + 0.01 + u1 * 150, t2 = t1 + u2 * 100;
        const at = (t: number) => quatToMatrix(objQ, eye[0] + frustum.forward[0] * t, eye[1] + frustum.forward[1] * t, eye[2] + frustum.forward[2] * t);
        const lod1 = h.computeLod(h.computeScreenSize(frustum, at(t1)));
        const lod2 = h.computeLod(h.computeScreenSize(frustum, at(t2)));
        expect(lod2).toBeGreaterThanOrEqual(lod1 - 1e-6);
      }), { numRuns: 1000 });
  });

  it('is invariant when camera and object move rigidly together', () => {
    fc.assert(fc.property(quat, quat, quat, coord, coord, coord, coord, coord, coord, half, half, projectionArb, fc.boolean(),
      (camQ, objQ, g, ox, oy, oz, gx, gy, gz, hx, hz, projection, ortho) => {
        const extent = { min: [-hx, -0.3, -hz], max: [hx, 0.6, hz] };
        const h = new ScreenSizeHeuristic({ extent, projection, semantics: 'openusd', thresholds: [0.3, 0.05] });
        const window = ortho ? { min: [-6, -4], max: [6, 4] } : { min: [-0.8, -0.6], max: [0.8, 0.6] };
        const projectionType = ortho ? 'orthographic' as const : 'perspective' as const;
        const eye = [0.5, -1, 2];
        const f1 = new Frustum({ position: eye, rotation: camQ, near: 0.1, far: 100, window, projection: projectionType });
        const m1 = quatToMatrix(objQ, ox, oy, oz);
        const G = quatToMatrix(g, gx, gy, gz);
        const eye2 = [0, 1, 2].map((r) => G[r] * eye[0] + G[4 + r] * eye[1] + G[8 + r] * eye[2] + G[12 + r]);
        const rot2 = normalizeQuat(quatMultiply(g, camQ));
        const f2 = new Frustum({ position: eye2, rotation: rot2, near: 0.1, far: 100, window, projection: projectionType });
        const m2 = matMul(G, m1);
        // The frustum rotates as OpenUSD's GfRotation does (gfFrustum.ts): through the angle
        // 2·acos(w), whose rounding is ≈ 2.2e-16 / |q.xyz| rad — a rotation within ≈ 1e-8 rad of
        // none is lost (seed −311225357: |q.xyz| = 3.8e-9 for the first pose but not the second, sizes
        // 13.9282783 and 13.9282769, 1e-7 apart). Skip camera rotations whose angle is rounded
        // by more than 2.2e-10 rad in either pose (an imaginary part up to 1e-10 is the identity, as in OpenUSD).
        const rounded = (q: number[]) => { const n = Math.hypot(q[0], q[1], q[2]); return n > 1e-10 && n <= 1e-6; };
        fc.pre(!rounded(camQ) && !rounded(rot2));
        const s1 = h.computeScreenSize(f1, m1);
        const s2 = h.computeScreenSize(f2, m2);
        // Objects within 1e-6 of a culling plane may flip between 0 and a size; skip that sliver.
        fc.pre(!((s1 === 0) !== (s2 === 0)));
        // projectedExtent clips the box's edges at the near plane (OpenUSD's code): an edge lying in
        // that plane within rounding is cut wherever the rounding of its ends' distances puts the cut,
        // anywhere along it (seed 104959098: a face 1e-15 from the plane, sizes 491 and 372 for the
        // same rigid pose). Skip boxes with an edge within 1e-9 of the near plane.
        const nearGap = (i: number): number => {
          const x = i & 1 ? hx : -hx, y = i & 2 ? 0.6 : -0.3, z = i & 4 ? hz : -hz;
          let d = -0.1;
          for (let r = 0; r < 3; r++) d += f1.forward[r] * (m1[r] * x + m1[4 + r] * y + m1[8 + r] * z + m1[12 + r] - eye[r]);
          return Math.abs(d);
        };
        let edgeOnNear = false;
        for (let i = 0; i < 8; i++) for (const b of [1, 2, 4]) if ((i & b) === 0 && nearGap(i) < 1e-9 && nearGap(i | b) < 1e-9) edgeOnNear = true;
        fc.pre(!(projection === 'projectedExtent' && edgeOnNear));
        expect(Math.abs(s1 - s2)).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(s1)));
      }), { numRuns: 1000 });
  });

  it('orthographic size does not depend on distance', () => {
    fc.assert(fc.property(quat, quat, half, half, half, projectionArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      (camQ, objQ, hx, hy, hz, projection, u1, u2) => {
        const f = new Frustum({ rotation: camQ, projection: 'orthographic', near: 0, far: 100, window: { min: [-5, -5], max: [5, 5] } });
        const h = new ScreenSizeHeuristic({ extent: { min: [-hx, -hy, -hz], max: [hx, hy, hz] }, projection, semantics: 'openusd' });
        const R = Math.hypot(hx, hy, hz);
        const place = (u: number) => { const t = R + 0.01 + u * (95 - 2 * R); return quatToMatrix(objQ, f.forward[0] * t, f.forward[1] * t, f.forward[2] * t); };
        const s1 = h.computeScreenSize(f, place(u1));
        const s2 = h.computeScreenSize(f, place(u2));
        expect(s1).toBeGreaterThan(0);
        expect(Math.abs(s1 - s2)).toBeLessThanOrEqual(1e-9 * s1);
      }), { numRuns: 1000 });
  });

  it('hysteresis never changes the LOD while the size oscillates inside the band', () => {
    fc.assert(fc.property(semanticsArb, projectionArb, fc.double({ min: 2, max: 40, noNaN: true }),
      fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 }),
      (semantics, projection, distance, wobble) => {
        const h = new ScreenSizeHeuristic({ extent: cubeExtent, projection, semantics, thresholds: [0.2, 0.05, 0.01], blendThresholds: [0.15, 0.03] });
        const frustum = new Frustum({ far: 100 });
        const eye = lookAtRotation([0, 0, 0], [0.1, 0.1, -1]);
        const place = (d: number) => translation(0.1 * d, 0.1 * d, -d);
        frustum.set({ rotation: eye, far: 100 });
        const raw = wobble.map((w) => h.computeScreenSize(frustum, place(distance + w * 0.5)));
        const start = h.computeScreenSize(frustum, place(distance));
        const band = Math.max(...raw.map((s) => Math.abs(s - start))) * 1.01 + 1e-12;
        let prev = start;
        const lod0 = h.computeLod(start);
        for (let i = 0; i < wobble.length; i++) {
          const sel = h.select(frustum, place(distance + wobble[i] * 0.5), prev, band);
          expect(sel.lod).toBe(lod0);
          prev = sel.size;
        }
      }), { numRuns: 1000 });
  });
});
