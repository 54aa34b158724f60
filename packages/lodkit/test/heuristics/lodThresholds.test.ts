import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeLodAscending, computeLodDescending, hysteresisDocumented, hysteresisOpenUsd, LodThresholds } from '../../src/index.js';
import { expectedDistanceLod, expectedScreenLod } from '../helpers/reference.js';

describe('LodThresholds', () => {
  it('MSFS: 110 / 75 / 50 / 30 % of the vertical screen', () => {
    const cessna = new LodThresholds({ metric: 'screenHeight', thresholds: [1.1, 0.75, 0.5, 0.3] });
    expect([1.5, 1.0, 0.6, 0.4, 0.1].map((h) => cessna.computeLod(h))).toEqual([0, 1, 2, 3, 4]);
    expect(cessna.levelCount).toBe(5);
  });

  it('MotoGP: over 80 px high, 20–80 px medium, under 20 px low', () => {
    const bike = new LodThresholds({ metric: 'pixels', thresholds: [80, 20] });
    expect([200, 81, 80, 50, 20, 5].map((p) => bike.computeLod(p))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('distance profiles ascend', () => {
    const d = new LodThresholds({ metric: 'distance', thresholds: [10, 50] });
    expect([0, 9.99, 10, 49, 50, 1e9].map((v) => d.computeLod(v))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(d.descending).toBe(false);
  });

  it('is frozen and round-trips through JSON', () => {
    const p = new LodThresholds({ metric: 'screenArea', thresholds: [0.25, 0.1], blendThresholds: [0.2, 0.05] });
    expect(Object.isFrozen(p)).toBe(true);
    const q = new LodThresholds(JSON.parse(JSON.stringify(p)));
    expect(Array.from(q.thresholds)).toEqual(Array.from(p.thresholds));
    expect(Array.from(q.blendThresholds)).toEqual(Array.from(p.blendThresholds));
  });

  it.each([
    [{ metric: 'triangles', thresholds: [1] }, /metric/],
    [{ metric: 'pixels' }, /thresholds is required/],
    [{ metric: 'pixels', thresholds: [20, 80] }, /thresholds\[1\]/],
    [{ metric: 'distance', thresholds: [80, 20] }, /non-decreasing/],
  ])('rejects %j', (bad, message) => {
    expect(() => new LodThresholds(bad as never)).toThrow(message);
  });
});

describe('computeLod rules against the written-out rule', () => {
  const sortedDesc = fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 5 })
    .map((a) => Array.from(new Float32Array(a)).sort((x, y) => y - x)).filter((t) => t.every((v, i) => i === 0 || v < t[i - 1]));
  it('descending: equals the spec rule for sizes away from float32 ties', () => {
    fc.assert(fc.property(sortedDesc, fc.double({ min: -10, max: 110, noNaN: true }), fc.double({ min: 0.01, max: 0.99, noNaN: true }), (t, size, f) => {
      const blends = t.map((v, i) => Math.fround((i + 1 < t.length ? t[i + 1] : v - 10) * f + v * (1 - f)))
        .filter((b, i) => b <= t[i] && (i + 1 >= t.length || b > t[i + 1]));
      fc.pre(blends.length === t.length && t.every((v) => Math.abs(v - size) > 1e-5) && blends.every((v) => Math.abs(v - size) > 1e-5));
      const got = computeLodDescending(new Float32Array(t), new Float32Array(blends), size);
      expect(got).toBeCloseTo(expectedScreenLod(size, t, blends), 5);
    }), { numRuns: 2000 });
  });
  it('ascending: equals the spec rule', () => {
    const sortedAsc = sortedDesc.map((t) => [...t].reverse());
    fc.assert(fc.property(sortedAsc, fc.double({ min: -10, max: 110, noNaN: true }), fc.double({ min: 0.01, max: 0.99, noNaN: true }), (t, d, f) => {
      const blends = t.map((v, i) => Math.fround(v * (1 - f) + (i + 1 < t.length ? t[i + 1] : v + 10) * f))
        .filter((b, i) => b >= t[i] && (i + 1 >= t.length || b < t[i + 1]));
      fc.pre(blends.length === t.length);
      const got = computeLodAscending(new Float32Array(t), new Float32Array(blends), d);
      expect(got).toBeCloseTo(expectedDistanceLod(d, t, blends), 5);
      expect(got).toBeGreaterThanOrEqual(0);
      expect(got).toBeLessThanOrEqual(t.length);
    }), { numRuns: 2000 });
  });
});

describe('hysteresis rules', () => {
  it('documented keeps the previous value strictly inside the band, else jumps', () => {
    expect(hysteresisDocumented(1.0, 1.05, 0.1)).toBe(1.05);
    expect(hysteresisDocumented(1.0, 2.0, 0.1)).toBe(1.0);
  });
  it('documented: a difference exactly equal to the band jumps (`<`, not `<=`), on both sides', () => {
    // Binary fractions, so |value − previous| is exactly the band: 1.125 − 1 = 0.125 with no rounding
    // (1.1 − 1.0 is 0.10000000000000009 > 0.1, which both `<` and `<=` would treat the same).
    expect(Math.abs(1.0 - 1.125)).toBe(0.125);
    expect(hysteresisDocumented(1.0, 1.125, 0.125)).toBe(1.0);
    expect(hysteresisDocumented(1.0, 0.875, 0.125)).toBe(1.0);
    // One ulp inside the band keeps the previous value.
    const inside = 1.125 - Number.EPSILON;
    expect(Math.abs(1.0 - inside) < 0.125).toBe(true);
    expect(hysteresisDocumented(1.0, inside, 0.125)).toBe(inside);
  });
  it('openusd clamps the previous value into [value − band, value + band]', () => {
    expect(hysteresisOpenUsd(1.0, 1.05, 0.1)).toBe(1.05);
    expect(hysteresisOpenUsd(1.0, 2.0, 0.25)).toBe(1.25);
    expect(hysteresisOpenUsd(1.0, 0.0, 0.25)).toBe(0.75);
  });
  it('openusd: a previous value exactly on the band edge is kept as is (the clamp is inclusive)', () => {
    expect(hysteresisOpenUsd(1.0, 1.25, 0.25)).toBe(1.25);
    expect(hysteresisOpenUsd(1.0, 0.75, 0.25)).toBe(0.75);
    expect(hysteresisOpenUsd(1.0, 1.25 + 2 * Number.EPSILON, 0.25)).toBe(1.25);
  });
});
