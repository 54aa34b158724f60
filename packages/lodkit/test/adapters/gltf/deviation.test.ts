import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TriangleGrid, measureDeviation, pointTriangleDistanceSq } from '../../../src/adapters/gltf/deviation.js';
import { terrain, uvSphere } from './fixtures.js';

/** Independent reference: distance to a triangle by dense barycentric sampling plus its edges/vertices (slow, approximate from above). */
function referenceDistance(p: number[], a: number[], b: number[], c: number[], steps = 60): number {
  let best = Infinity;
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; i + j <= steps; j++) {
      const u = i / steps, v = j / steps, w = 1 - u - v;
      const q = [0, 1, 2].map((k) => u * a[k] + v * b[k] + w * c[k]);
      best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
    }
  }
  return best;
}

describe('pointTriangleDistanceSq', () => {
  const a = [0, 0, 0], b = [2, 0, 0], c = [0, 2, 0];
  const d = (p: number[]) => Math.sqrt(pointTriangleDistanceSq(p[0], p[1], p[2], a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]));
  it('hand-worked cases: above the face, beyond a vertex, beyond an edge', () => {
    expect(d([0.5, 0.5, 3])).toBeCloseTo(3, 12);
    expect(d([-3, -4, 0])).toBeCloseTo(5, 12); // closest point a
    expect(d([1, -2, 0])).toBeCloseTo(2, 12); // closest point on edge ab
    expect(d([2, 2, 0])).toBeCloseTo(Math.SQRT2, 12); // closest point (1, 1, 0) on edge bc
  });
  it('measures triangles of any size: hand-worked cases scaled by powers of two', () => {
    // Found by the random-seed mode (seed -426383815): a triangle 7e-72 wide gave NaN (the Voronoi
    // tests multiply four lengths: 1e-316, below the doubles). The origin lies on its edge bc.
    const tiny = pointTriangleDistanceSq(0, 0, 0, 0, 3.8574011792847896e-87, 0, -2.3692316819334703e-80, 0, 0, 7.007409730555321e-72, 0, 0);
    expect(Math.sqrt(tiny)).toBeLessThan(1e-86); // 0 up to the rounding of the coordinates (|c| · 2^-52)
    // The hand-worked cases above, everything × s: each distance × s exactly (s² is a power of two).
    for (const s of [2 ** -500, 2 ** -300, 2 ** 120, 2 ** 400]) {
      const ds = (p: number[]) => Math.sqrt(pointTriangleDistanceSq(p[0] * s, p[1] * s, p[2] * s, 0, 0, 0, 2 * s, 0, 0, 0, 2 * s, 0)) / s;
      expect(ds([0.5, 0.5, 3])).toBe(3);
      expect(ds([-3, -4, 0])).toBe(5);
      expect(ds([1, -2, 0])).toBe(2);
      expect(ds([2, 2, 0])).toBeCloseTo(Math.SQRT2, 12);
    }
    // A subnormal triangle (2^-1068 wide) at a point on its face: 0, not NaN.
    const sub = 2 ** -1070;
    expect(pointTriangleDistanceSq(sub, sub, 0, 0, 0, 0, 4 * sub, 0, 0, 0, 4 * sub, 0)).toBe(0);
    // A point 2^250 away from a unit triangle: its distance to the triangle's plane.
    expect(Math.sqrt(pointTriangleDistanceSq(0.5, 0.5, 2 ** 250, 0, 0, 0, 2, 0, 0, 0, 2, 0))).toBe(2 ** 250);
    expect(Math.sqrt(pointTriangleDistanceSq(0.5, 0.5, 2 ** 400, 0, 0, 0, 2, 0, 0, 0, 2, 0))).toBe(2 ** 400);
    // 2^450 along the diagonal from a triangle 2^99 wide: its products pass 2^1024; the closest point
    // is the hypotenuse's midpoint (2^98, 2^98, 0), so the distance is (2^450 − 2^98)·√2.
    const far = pointTriangleDistanceSq(2 ** 450, 2 ** 450, 0, 0, 0, 0, 2 ** 99, 0, 0, 0, 2 ** 99, 0);
    expect(Math.sqrt(far) / ((2 ** 450 - 2 ** 98) * Math.SQRT2)).toBeCloseTo(1, 14);
  });
  it('is scale-equivariant across the range of doubles, never NaN (property)', () => {
    const coord = fc.double({ min: -3, max: 3, noNaN: true });
    const point = fc.tuple(coord, coord, coord);
    fc.assert(fc.property(point, point, point, point, fc.integer({ min: -480, max: 480 }), (p, ta, tb, tc, k) => {
      const s = 2 ** k, at = (v: readonly number[]): [number, number, number] => [v[0] * s, v[1] * s, v[2] * s];
      const exact = Math.sqrt(pointTriangleDistanceSq(...p, ...ta, ...tb, ...tc));
      const scaled = Math.sqrt(pointTriangleDistanceSq(...at(p), ...at(ta), ...at(tb), ...at(tc))) / s;
      expect(Number.isFinite(scaled)).toBe(true);
      // the two differ by rounding alone: scaled inputs are measured from a's frame (k ≥ -480 keeps a
      // squared distance's underflow, ≤ 2^-1074 / s², below 2^-57 in distance; the subnormal case: above)
      expect(Math.abs(scaled - exact)).toBeLessThanOrEqual(1e-7);
    }), { numRuns: 300 });
  });
  it('agrees with dense sampling (property)', () => {
    const coord = fc.double({ min: -3, max: 3, noNaN: true });
    const point = fc.tuple(coord, coord, coord);
    fc.assert(fc.property(point, point, point, point, (p, ta, tb, tc) => {
      const exact = Math.sqrt(pointTriangleDistanceSq(...p, ...ta, ...tb, ...tc));
      const sampled = referenceDistance(p, ta, tb, tc);
      expect(Number.isFinite(exact)).toBe(true);
      // Never farther than a sampled point of the triangle; near-degenerate (sliver) triangles cost
      // the closed form ~1e-9 of rounding, so the margin is 1e-7 (the sampling itself is 0.3 coarse).
      expect(exact).toBeLessThanOrEqual(sampled + 1e-7);
      expect(sampled - exact).toBeLessThan(0.3); // sampling resolution for triangles up to ~10 wide
    }), { numRuns: 200 });
  });
});

describe('TriangleGrid', () => {
  it('finds the same closest distance as a brute-force scan (property)', () => {
    const { positions, indices } = uvSphere(1.5, 24, 12);
    const grid = new TriangleGrid(positions, indices);
    const brute = (x: number, y: number, z: number): number => {
      let best = Infinity;
      for (let t = 0; t < indices.length; t += 3) {
        const [i, j, k] = [indices[t] * 3, indices[t + 1] * 3, indices[t + 2] * 3];
        best = Math.min(best, pointTriangleDistanceSq(x, y, z, positions[i], positions[i + 1], positions[i + 2],
          positions[j], positions[j + 1], positions[j + 2], positions[k], positions[k + 1], positions[k + 2]));
      }
      return Math.sqrt(best);
    };
    const coord = fc.double({ min: -4, max: 4, noNaN: true });
    fc.assert(fc.property(coord, coord, coord, (x, y, z) => {
      expect(grid.distance(x, y, z)).toBeCloseTo(brute(x, y, z), 10);
    }), { numRuns: 300 });
  });
  it('measures a query point beyond 2^300 against every triangle, scaled', () => {
    const { positions, indices } = uvSphere(1.5, 24, 12);
    const grid = new TriangleGrid(positions, indices);
    // 2^350 above a sphere of radius 1.5 at the origin: 2^350 − 1.5 rounds to 2^350
    expect(grid.distance(0, 0, 2 ** 350)).toBe(2 ** 350);
    expect(grid.distance(-(2 ** 400), 0, 0)).toBe(2 ** 400);
  });
});

describe('measureDeviation', () => {
  it('is 0 for an unchanged mesh and the plane offset for a flattened bump', () => {
    const { positions, indices } = terrain(8);
    expect(measureDeviation(positions, indices, indices)).toBeLessThan(1e-12);
    // Two big triangles over the grid's corners vs the bumpy grid: the deviation is at least the
    // largest |height − corner plane| over the vertices (corners are vertices of both).
    const size = 8;
    const corners = new Uint32Array([0, size * (size - 1), size - 1, size - 1, size * (size - 1), size * size - 1]);
    const measured = measureDeviation(positions, indices, corners);
    const vertex = (v: number) => [positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]];
    let worst = 0;
    for (let v = 0; v < size * size; v++) {
      const d = Math.min(referenceDistance(vertex(v), vertex(corners[0]), vertex(corners[1]), vertex(corners[2]), 200),
        referenceDistance(vertex(v), vertex(corners[3]), vertex(corners[4]), vertex(corners[5]), 200));
      worst = Math.max(worst, d);
    }
    // Sampling overestimates each distance by at most ~ triangle size / 200.
    expect(measured).toBeGreaterThanOrEqual(worst - 0.02);
    expect(measured).toBeLessThanOrEqual(0.2); // bumps are at most 0.13 tall
  });
});
