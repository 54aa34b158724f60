import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DistanceHeuristic, Frustum } from '../../src/index.js';
import { expectedDistanceLod, normalizeQuat, quatToMatrix, translation } from '../helpers/reference.js';

const TRANSLATE_X = 3;

describe('DistanceHeuristic — OpenUSD test scene (viewpoint (0, 0, z), z = 0 … 29)', () => {
  for (const semantics of ['documented', 'openusd'] as const) {
    it(`centre heuristic and extent heuristic with blending (${semantics})`, () => {
      const xform = translation(TRANSLATE_X, 0, 0);
      // distance_0: centre (1, 0, 0), thresholds 5 / 20.
      const h0 = new DistanceHeuristic({ center: [1, 0, 0], thresholds: [5, 20], semantics, domain: 'SomeRenderer' });
      // distance_1: unit cube extent ±1 (the centre is ignored), thresholds 5 / 20, blends 8 / 25.
      const h1 = new DistanceHeuristic({ center: [999, 0, 0], extent: { min: [-1, -1, -1], max: [1, 1, 1] }, thresholds: [5, 20], blendThresholds: [8, 25], semantics });
      const hyst = 0.3;
      for (let z = 0; z < 30; z++) {
        const view = [0, 0, z];
        // Hand geometry: centre at (4, 0, 0) → hypot(z, 4); the cube spans x ∈ [2, 4], z ∈ [−1, 1].
        const d0 = Math.hypot(z, TRANSLATE_X + 1);
        const d1 = Math.hypot(2, z - Math.min(Math.max(z, -1), 1));
        const cases: Array<[DistanceHeuristic, number, number[]]> = [[h0, d0, []], [h1, d1, [8, 25]]];
        for (const [h, expected, blends] of cases) {
          const a0 = h.computeDistance(view, xform);
          expect(a0).toBeCloseTo(expected, 9);
          expect(h.computeLod(a0)).toBeCloseTo(expectedDistanceLod(expected, [5, 20], blends), 6);
          const a1 = a0 + 0.25, a2 = a0 + 0.5;
          expect(h.computeDistance(view, xform, a1, 0)).toBe(a0);
          expect(h.computeDistance(view, xform, a1, hyst)).toBe(a1);
          // Both semantics clamp, as distanceHeuristicQuery.h documents: the kept value lags by h.
          expect(h.computeDistance(view, xform, a2, hyst)).toBe(a0 + hyst);
          expect(h.computeDistance(view, xform, a0 - 0.5, hyst)).toBe(a0 - hyst);
          const sel = h.select(view, xform, a2, hyst);
          expect(sel.lod).toBe(h.computeLod(sel.size));
        }
      }
    });
  }

  it('reproduces the GetLod distance case: 0.5 halfway through the first blend', () => {
    const h = new DistanceHeuristic({ center: [0, 0, -5], thresholds: [4, 10], blendThresholds: [6, 12] });
    expect(h.computeDistance(new Frustum())).toBe(5); // a Frustum is accepted as the viewpoint
    expect(h.select(new Frustum({ projection: 'orthographic' })).lod).toBe(0.5);
  });

  it('is 0 inside the extent and measures through rotations and scales', () => {
    const h = new DistanceHeuristic({ extent: { min: [-1, -2, -3], max: [1, 2, 3] }, thresholds: [1] });
    expect(h.computeDistance([0.5, 1, -2])).toBe(0);
    // Scaled ×2 on x and rotated 90° about z: local x becomes world y (half-length 2).
    const s = Math.SQRT1_2;
    const m = quatToMatrix([0, 0, s, s]);
    for (let i = 0; i < 4; i++) m[i] *= 2;
    // World box after the transform: x ∈ [−2, 2], y ∈ [−2, 2], z ∈ [−3, 3].
    expect(h.computeDistance([5, 0, 0], m)).toBeCloseTo(3, 12);
    expect(h.computeDistance([0, 7, 0], m)).toBeCloseTo(5, 12);
  });

  it('falls back to the centre for a singular transform', () => {
    const h = new DistanceHeuristic({ center: [0, 0, 0], extent: { min: [-1, -1, -1], max: [1, 1, 1] }, thresholds: [1] });
    const flat = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, -10, 1]; // z scale 0
    expect(h.computeDistance([0, 0, 0], flat)).toBe(10);
  });

  it('LOD never decreases as the viewpoint backs away', () => {
    fc.assert(fc.property(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), (x, y, z, t1, dt) => {
        fc.pre(Math.hypot(x, y, z) > 0.1);
        const [ux, uy, uz] = normalizeQuat([x, y, z, 0]);
        const h = new DistanceHeuristic({ extent: { min: [-1, -1, -1], max: [1, 1, 1] }, thresholds: [2, 10, 30], blendThresholds: [4, 15] });
        const l1 = h.computeLod(h.computeDistance([ux * t1, uy * t1, uz * t1]));
        const t2 = t1 + dt;
        const l2 = h.computeLod(h.computeDistance([ux * t2, uy * t2, uz * t2]));
        expect(l2).toBeGreaterThanOrEqual(l1);
      }), { numRuns: 1000 });
  });

  it.each([
    [{ thresholds: [5, 4] }, /thresholds\[1\]/],
    [{ thresholds: [5, 20], blendThresholds: [4] }, /blendThresholds\[0\]/],
    [{ thresholds: [5, 20], blendThresholds: [8, 19] }, /blendThresholds\[1\]/],
    [{ thresholds: [5], center: [0, 'x', 0] }, /center/],
    [{ thresholds: [5], semantics: 'other' }, /semantics/],
  ])('rejects %j naming the field', (bad, field) => {
    expect(() => new DistanceHeuristic(bad as never)).toThrow(field);
  });

  it('rejects a bad viewpoint at the call', () => {
    const h = new DistanceHeuristic({ thresholds: [5] });
    expect(() => h.computeDistance([0, NaN, 0])).toThrow(/viewpoint/);
  });
});
