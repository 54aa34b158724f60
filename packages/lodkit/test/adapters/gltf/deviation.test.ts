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
