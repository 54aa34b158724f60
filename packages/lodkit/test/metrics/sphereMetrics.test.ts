import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  areaToHeight, areaToPixels, Frustum, heightToArea, heightToPixels, lookAtRotation, pixelsToArea, pixelsToHeight,
  ScreenSizeHeuristic, sphereDistance, spherePixelDiameter, sphereScreenArea, sphereScreenHeight,
} from '../../src/index.js';
import { runAllocationProbe } from '../helpers/probe.js';

const deg = (d: number) => (d * Math.PI) / 180;

describe('sphere metrics', () => {
  it('MSFS: diameter as a fraction of the vertical screen, R / (d·tan(fovY/2))', () => {
    const f = Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 1e4 });
    // A 747-sized sphere (R = 35 m) straight ahead at 120 m.
    const expected = 35 / (120 * Math.tan(deg(30)));
    expect(sphereScreenHeight(f, 0, 0, -120, 35)).toBeCloseTo(expected, 12);
    // Off-axis at the same Euclidean distance: same size (no cos factor).
    const off = 120 / Math.SQRT2;
    expect(sphereScreenHeight(f, off, 0, -off, 35)).toBeCloseTo(expected, 12);
  });

  it('MotoGP: pixel diameter = height fraction × viewport pixels, 1/distance/tan(fov/2)', () => {
    const f = Frustum.perspective({ fovY: 45, aspect: 1.6, near: 0.1, far: 1e4 });
    const px = spherePixelDiameter(f, 3, 1, -40, 0.9, 720);
    expect(px).toBeCloseTo((0.9 / (Math.hypot(3, 1, 40) * Math.tan(deg(22.5)))) * 720, 9);
  });

  it('a telephoto lens makes the same distant object many times larger', () => {
    const wide = Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.1, far: 1e4 });
    const tele = Frustum.perspective({ fovY: 5, aspect: 1.5, near: 0.1, far: 1e4 });
    const ratio = sphereScreenHeight(tele, 0, 0, -300, 1) / sphereScreenHeight(wide, 0, 0, -300, 1);
    expect(ratio).toBeCloseTo(Math.tan(deg(30)) / Math.tan(deg(2.5)), 9);
  });

  it('uses the window height for off-centre windows', () => {
    const f = new Frustum({ window: { min: [0, 0.5], max: [2, 1.5] }, near: 0.1, far: 100 });
    // The window spans y 0.5..1.5 at depth 1: a sphere at direction (1, 1, −1)·10 is inside.
    const d = 10 * Math.sqrt(3);
    expect(sphereScreenHeight(f, 10, 10, -10, 2)).toBeCloseTo((2 * 2) / (d * 1), 12);
    // The same sphere straight ahead is outside the off-centre window (fully below its bottom plane).
    expect(sphereScreenHeight(f, 0, 0, -10, 2)).toBe(0);
  });

  it('orthographic: 2R / window height, independent of distance', () => {
    fc.assert(fc.property(fc.double({ min: 0.1, max: 99, noNaN: true }), fc.double({ min: 0.01, max: 5, noNaN: true }), (depth, r) => {
      const f = Frustum.orthographic({ height: 20, aspect: 2, near: 0, far: 100 });
      expect(sphereScreenHeight(f, 1, -2, -depth, r)).toBeCloseTo((2 * r) / 20, 12);
      expect(sphereScreenArea(f, 1, -2, -depth, r)).toBeCloseTo((Math.PI * r * r) / (20 * 40), 12);
    }), { numRuns: 1000 });
  });

  it('is +Infinity with the eye inside the sphere and 0 when wholly outside the frustum', () => {
    const f = new Frustum({ position: [5, 5, 5], near: 0.1, far: 50 });
    expect(sphereScreenHeight(f, 5.5, 5, 5, 1)).toBe(Infinity);
    expect(spherePixelDiameter(f, 5, 5, 5, 1, 1080)).toBe(Infinity);
    expect(sphereScreenHeight(f, 5, 5, 10, 1)).toBe(0); // behind the eye
    expect(sphereScreenHeight(f, 5, 5, -100, 1)).toBe(0); // beyond far
    expect(sphereScreenArea(f, 5, 5, 10, 1)).toBe(0);
    expect(sphereScreenArea(f, 5, 5, 5, 1)).toBe(Number.MAX_VALUE); // OpenUSD's REALLY_BIG at d = 0
  });

  it('projected area: the largest double only at d = 0, the formula\'s own +Infinity where it overflows (as OpenUSD)', () => {
    const f = new Frustum({ position: [0, 0, 0], near: 0.1, far: 50 });
    expect(sphereScreenArea(f, 0, 0, 0, 2)).toBe(Number.MAX_VALUE);
    // d ≈ 1e-160 (d² is subnormal but not 0): (R / d)² ≈ 1e320 overflows, π·∞ / area = +∞ in
    // OpenUSD's double arithmetic; only d = 0 itself is its REALLY_BIG
    expect(sphereScreenArea(f, 0, 0, -1e-160, 1)).toBe(Infinity);
    const near = sphereScreenArea(f, 0, 0, -1e-150, 1); // (R / d)² = 1e300: finite, π·1e300 / 4 (window 2 × 2)
    expect(near / 1e299).toBeCloseTo(Math.PI * 10 / 4, 9);
  });

  it('projected area: OpenUSD\'s projectedSphere number (ScreenSizeHeuristic, checked against OpenUSD\'s own outputs), bit for bit, the eye at or within 1e-150 of the centre included (fast-check)', () => {
    const coord = fc.oneof(fc.integer({ min: -160, max: 160 }).map((k) => k / 8), fc.double({ min: -50, max: 50, noNaN: true }));
    const tiny = fc.constantFrom(0, -0, 5e-324, 1e-300, 1.6e-162, -1.6e-162, 1e-155, 1e-150);
    const half = fc.double({ min: 0, max: 10, noNaN: true });
    fc.assert(fc.property(fc.tuple(coord, coord, coord), fc.tuple(coord, coord, coord), fc.double({ min: 20, max: 120, noNaN: true }), fc.boolean(),
      fc.tuple(coord, coord, coord), fc.tuple(half, half, half), fc.boolean(), fc.tuple(tiny, tiny, tiny),
      (eye0, target, fov, perspective, c, a, nearCentre, t) => {
        const eye = nearCentre ? [c[0] + t[0], c[1] + t[1], c[2] + t[2]] : eye0;
        if (!(Math.hypot(eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]) > 1)) return;
        const pose = { position: eye, rotation: lookAtRotation(eye, target) };
        const f = perspective ? Frustum.perspective({ fovY: fov, aspect: 1.5, near: 0.1, far: 150, ...pose })
          : Frustum.orthographic({ height: fov / 2, aspect: 1.5, near: 0.1, far: 150, ...pose });
        const min = [c[0] - a[0], c[1] - a[1], c[2] - a[2]], max = [c[0] + a[0], c[1] + a[1], c[2] + a[2]];
        // OpenUSD's projectedSphere measures the extent's bounding sphere: its centre, half its diagonal
        const dx = max[0] - min[0], dy = max[1] - min[1], dz = max[2] - min[2];
        const radius = Math.sqrt(dx * dx + dy * dy + dz * dz) / 2;
        const usd = new ScreenSizeHeuristic({ extent: { min, max }, projection: 'projectedSphere', semantics: 'openusd' }).computeScreenSize(f);
        expect(sphereScreenArea(f, (min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2, radius)).toBe(usd);
      }), { numRuns: 400 });
  });

  it('keeps its size while sliding off the side of the screen, then drops to 0', () => {
    const f = Frustum.perspective({ fovY: 90, aspect: 1, near: 0.1, far: 100 });
    const inside = sphereScreenHeight(f, 0, 0, -10, 1);
    // At the same distance 10, 46° off-axis: the centre is 0.17 outside the right plane (45°) but the
    // sphere (R = 1) still reaches in, so the size is unchanged; at 60° it is 2.6 outside: gone.
    const at = (angle: number) => sphereScreenHeight(f, 10 * Math.sin(deg(angle)), 0, -10 * Math.cos(deg(angle)), 1);
    expect(at(46)).toBeCloseTo(inside, 12);
    expect(at(60)).toBe(0);
  });

  it('area fraction equals π h² / (4·aspect) of the height fraction, and conversions invert', () => {
    fc.assert(fc.property(
      fc.double({ min: 10, max: 120, noNaN: true }), fc.double({ min: 0.5, max: 3, noNaN: true }),
      fc.double({ min: 2, max: 500, noNaN: true }), fc.double({ min: 0.05, max: 1.5, noNaN: true }),
      (fovY, aspect, dist, r) => {
        const eye = [3, 4, 5];
        const f = Frustum.perspective({ fovY, aspect, near: 0.01, far: 1e4, position: eye, rotation: lookAtRotation(eye, [0, 0, 0]) });
        const n = Math.hypot(3, 4, 5);
        const c = [3 - (3 / n) * dist, 4 - (4 / n) * dist, 5 - (5 / n) * dist];
        const h = sphereScreenHeight(f, c[0], c[1], c[2], r);
        const a = sphereScreenArea(f, c[0], c[1], c[2], r);
        expect(a).toBeCloseTo((Math.PI * h * h) / (4 * aspect), 9);
        expect(heightToArea(h, aspect)).toBeCloseTo(a, 9);
        expect(areaToHeight(a, aspect)).toBeCloseTo(h, 9);
        expect(pixelsToHeight(heightToPixels(h, 1080), 1080)).toBeCloseTo(h, 12);
        expect(pixelsToArea(areaToPixels(a, aspect, 720), aspect, 720)).toBeCloseTo(a, 9);
      }), { numRuns: 1000 });
  });

  it('conversions reject a non-positive aspect or viewport', () => {
    expect(() => heightToArea(0.5, 0)).toThrow(/aspect/);
    expect(() => pixelsToHeight(10, -1)).toThrow(/viewportHeightPx/);
  });

  it('distance is to the closest point of the sphere and never culled', () => {
    const f = new Frustum({ position: [1, 2, 3] });
    expect(sphereDistance(f, 1, 2, -7, 2)).toBeCloseTo(8, 12);
    expect(sphereDistance(f, 1, 2, 30, 2)).toBeCloseTo(25, 12); // behind the camera
    expect(sphereDistance(f, 1.5, 2, 3, 2)).toBe(0);
  });

  it('allocates nothing: 1e6 calls of each metric with fractional inputs, 1e5 frustum updates (V8 sampling heap profiler)', () => {
    const results = runAllocationProbe('test/metrics/allocation.probe.mjs');
    // The control loop allocates a 16+ byte object per call: the harness must see megabytes.
    expect(results.controlAllocates.bytes).toBeGreaterThan(1_000_000);
    const metrics = Object.entries(results).filter(([name]) => name !== 'controlAllocates');
    expect(metrics).toHaveLength(9); // five metrics, Frustum.set (identity, rotated, 'openusd' input) and Frustum.perspective(…, out)
    // Tolerance 0: any per-call allocation would be sampled (32-byte mean interval) many times over.
    for (const [name, r] of metrics) expect(r.bytes, name).toBe(0);
  });
});
