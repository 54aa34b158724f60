/**
 * The `'openusd'` input mode: inputs lodkit rejects by default but OpenUSD accepts, with OpenUSD's
 * results worked by hand from its documented algorithms (GfFrustum's corner-built planes,
 * std::upper_bound over the thresholds, projectedExtent for an unknown projection token).
 */
import { describe, expect, it } from 'vitest';
import { DistanceHeuristic, Frustum, ScreenSizeHeuristic } from '../../src/index.js';
import { readFileSync } from 'node:fs';

describe("input: 'openusd'", () => {
  it('strict stays the default and rejects each of these inputs', () => {
    expect(() => new Frustum({ near: 0 })).toThrow(/near/);
    expect(() => new Frustum({ window: { min: [1, -1], max: [-1, 1] } })).toThrow(/window/);
    expect(() => new ScreenSizeHeuristic({ extent: { min: [0, 0, 0], max: [1, 1, 1] }, thresholds: [0.1, 0.5] })).toThrow(/thresholds\[1\]/);
    expect(() => new ScreenSizeHeuristic({ extent: { min: [0, 0, 0], max: [1, 1, 1] }, projection: 'fisheye' as never })).toThrow(/projection/);
    expect(() => new DistanceHeuristic({ thresholds: [5], blendThresholds: [6, 7] })).toThrow(/blendThresholds/);
    expect(() => new Frustum({ input: 'loose' as never })).toThrow(/input/);
  });

  it('perspective near = 0: every GfFrustum plane degenerates and nothing is culled', () => {
    // The near rectangle collapses onto the eye: the four side planes and the near plane have zero
    // normals and distance 0 (0 ≥ 0 always holds); the far plane is 0·p + far ≥ 0. A unit sphere 5
    // units BEHIND the eye is then measured, π (1/5)² / 4 of the window (area 4).
    const f = new Frustum({ near: 0, far: 10, input: 'openusd' });
    expect(Array.from(f.planes.subarray(0, 20), (v) => v + 0)).toEqual(new Array(20).fill(0));
    const h = new ScreenSizeHeuristic({ extent: { min: [-1 / Math.sqrt(3), -1 / Math.sqrt(3), 5 - 1 / Math.sqrt(3)], max: [1 / Math.sqrt(3), 1 / Math.sqrt(3), 5 + 1 / Math.sqrt(3)] }, semantics: 'openusd', input: 'openusd' });
    expect(h.computeScreenSize(f)).toBeCloseTo(Math.PI / 100, 14);
  });

  it('a window flipped in y flips the side planes: OpenUSD culls everything in front', () => {
    // GfFrustum's left plane goes through the eye, lb and lt; its normal is lb × lt =
    // n²(t − b)·(1, 0, l), so with t < b it points the other way. Window x ∈ [−1, 1], y from 1 down
    // to −1 (t − b = −2): left normal ∝ −(1, 0, −1) = (−1, 0, 1)/√2, i.e. z ≥ x; right (r = 1):
    // rt × rb = −n²(t − b)·(1, 0, r) = (1, 0, 1)/√2, i.e. x + z ≥ 0. In front of the eye (z < 0)
    // that needs x ≤ z < 0 and x ≥ −z > 0 at once: nowhere, so a box ahead has size 0.
    const f = new Frustum({ window: { min: [-1, 1], max: [1, -1] }, input: 'openusd' });
    const s = Math.SQRT1_2;
    expect(f.planes[0]).toBeCloseTo(-s, 15); expect(f.planes[2]).toBeCloseTo(s, 15);
    expect(f.planes[4]).toBeCloseTo(s, 15); expect(f.planes[6]).toBeCloseTo(s, 15);
    const box = new ScreenSizeHeuristic({ extent: { min: [-0.5, -0.5, -5], max: [0.5, 0.5, -4] }, projection: 'projectedExtent', semantics: 'openusd', input: 'openusd' });
    expect(box.computeScreenSize(f)).toBe(0);
  });

  it('unsorted and extra thresholds: the index std::upper_bound finds', () => {
    const e = { min: [0, 0, 0], max: [1, 1, 1] };
    // Descending search with greater<float> over [0.1, 0.5, 0.2] for size 0.3: middle 0.5 (0.3 > 0.5?
    // no → right half), then 0.2 (0.3 > 0.2 → stop) → index 2. A linear scan would say 0.
    expect(new ScreenSizeHeuristic({ extent: e, thresholds: [0.1, 0.5, 0.2], input: 'openusd' }).computeLod(0.3)).toBe(2);
    // Thresholds [0.5], blends [0.4, 0.3], size 0.45: LOD 1; blend search → 0; window [0.5, 0.4]:
    // 0 + (0.45 − 0.5) / (0.4 − 0.5) = 0.5 in float32.
    const blend = new ScreenSizeHeuristic({ extent: e, thresholds: [0.5], blendThresholds: [0.4, 0.3], input: 'openusd' });
    expect(blend.computeLod(0.45)).toBe(Math.fround((0.45 - Math.fround(0.5)) / Math.fround(Math.fround(0.4) - Math.fround(0.5))));
    // Ascending search with < over [10, 2, 30] for distance 5: middle 2 (5 < 2? no → right), then
    // 30 (5 < 30 → stop) → index 2.
    expect(new DistanceHeuristic({ thresholds: [10, 2, 30], input: 'openusd' }).computeLod(5)).toBe(2);
  });

  it('an unknown projection token is measured as projectedExtent', () => {
    const e = { min: [0, 0, -4], max: [2, 2, -2] };
    const odd = new ScreenSizeHeuristic({ extent: e, projection: 'fisheye' as never, input: 'openusd', semantics: 'openusd' });
    expect(odd.projection).toBe('projectedExtent');
    // The GetLod box: its hull covers NDC [0, 1]² → 1/4 of the view.
    expect(odd.computeScreenSize(new Frustum())).toBeCloseTo(0.25, 15);
  });

  it("the oracle's cases give the same numbers in the 'openusd' input mode", () => {
    const oracle = JSON.parse(readFileSync(new URL('../fixtures/openusd-oracle/cases.json', import.meta.url), 'utf8'));
    let checked = 0;
    for (const c of oracle.cases) {
      const f = new Frustum({ position: c[5], rotation: c[6], window: { min: [c[7][0], c[7][1]], max: [c[7][2], c[7][3]] }, near: c[8], far: c[9], projection: c[0] === 0 ? 'perspective' : 'orthographic', input: 'openusd' });
      const h = new ScreenSizeHeuristic({ extent: { min: c[10].slice(0, 3), max: c[10].slice(3, 6) }, projection: c[1] === 0 ? 'projectedSphere' : 'projectedExtent', thresholds: c[12], blendThresholds: c[13], semantics: 'openusd', input: 'openusd' });
      const sel = h.select(f, c[11]);
      const [size, , , lod] = c[25];
      if (size === null) { expect(Number.isFinite(sel.size)).toBe(false); continue; }
      expect(Math.abs(sel.size - size)).toBeLessThanOrEqual(1e-9 * Math.abs(size));
      expect(sel.lod).toBe(lod);
      checked++;
    }
    expect(checked).toBeGreaterThan(1500);
  });
});
