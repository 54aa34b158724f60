import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HIDDEN_LEVEL, LodSet, blendLowerLevel, type LodView } from '../../src/batch/lodSet.js';
import { Frustum } from '../../src/metrics/frustum.js';
// Expectations come from the test-side formulas (written from the metric definitions and OpenUSD's
// LOD rule), not from lodkit's own sphere metrics or computeLod: a wrong factor there must fail here.
import {
  expectedDistanceLod, expectedScreenLod, float32, referenceCulls as culls, referenceDistance as sphereDistance,
  referencePixelDiameter as spherePixelDiameter, referenceScreenArea as sphereScreenArea, referenceScreenHeight as sphereScreenHeight,
} from '../helpers/reference.js';
import type { SphereMetric } from '../../src/heuristics/lodThresholds.js';
import { camera, randomSpheres } from './helpers.js';

const PROFILES: Record<SphereMetric, { thresholds: number[]; blendThresholds: number[] }> = {
  distance: { thresholds: [20, 60, 150], blendThresholds: [25, 70, 170] },
  pixels: { thresholds: [80, 20], blendThresholds: [70, 15] }, // MotoGP 80 / 20 px
  screenHeight: { thresholds: [1.1, 0.75, 0.5, 0.3], blendThresholds: [1.0, 0.7, 0.45] }, // MSFS
  screenArea: { thresholds: [0.25, 0.1, 0.025], blendThresholds: [0.2, 0.08, 0.02] }, // OpenUSD docs
};

/** The core's reference metric for one view, or null when the sphere is culled (cull on). */
function referenceValue(metric: SphereMetric, view: LodView, x: number, y: number, z: number, r: number): number | null {
  const f = view.frustum;
  if (culls(f, x, y, z, r)) return null;
  switch (metric) {
    case 'distance': return sphereDistance(f, x, y, z, r);
    case 'pixels': return spherePixelDiameter(f, x, y, z, r, view.viewportHeight!);
    case 'screenHeight': return sphereScreenHeight(f, x, y, z, r);
    case 'screenArea': return sphereScreenArea(f, x, y, z, r);
  }
}

/** Expected (level, blend) per the core: USD index, round for the level, fraction for the blend. */
function expectedLevel(metric: SphereMetric, views: LodView[], x: number, y: number, z: number, r: number, bias = 1) {
  let best: number | null = null;
  for (const v of views) {
    const value = referenceValue(metric, v, x, y, z, r);
    if (value === null) continue;
    if (best === null) best = value;
    else best = metric === 'distance' ? Math.min(best, value) : Math.max(best, value);
  }
  if (best === null) return { level: HIDDEN_LEVEL, blend: 0 };
  const p = PROFILES[metric];
  const t = float32(p.thresholds), b = float32(p.blendThresholds);
  const index = metric === 'distance' ? expectedDistanceLod(best / bias, t, b) : expectedScreenLod(best * bias, t, b);
  return { level: Math.round(index), blend: index - Math.floor(index) };
}

function buildSet(metric: SphereMetric, spheres: Float32Array): LodSet {
  const set = new LodSet(8); // small on purpose: exercises growth
  const p = set.addProfile({ metric, ...PROFILES[metric] });
  set.addMany(spheres, p);
  return set;
}

describe('LodSet thresholds policy vs the core reference metrics', () => {
  const spheres = randomSpheres(4000, 7, 120, 0.5, 20);
  const perspective = camera([0, 8, 0], [40, 0, 60], 50);
  const ortho = Frustum.orthographic({ height: 150, aspect: 1.5, near: -500, far: 500, position: [0, 0, 0] });
  for (const metric of ['distance', 'pixels', 'screenHeight', 'screenArea'] as const) {
    for (const [name, frustum] of [['perspective', perspective], ['orthographic', ortho]] as const) {
      it(`${metric}, ${name}: level and blend equal the reference LOD rule of the reference metric per object`, () => {
        const set = buildSet(metric, spheres);
        const view: LodView = { frustum, viewportHeight: 1080 };
        const stats = set.update(view, { policy: 'thresholds' });
        let hidden = 0, blended = 0;
        for (let i = 0; i < set.count; i++) {
          const o = i * 4;
          const e = expectedLevel(metric, [view], spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]);
          expect(set.levels[i], `id ${i}`).toBe(e.level);
          expect(set.blend[i]).toBeCloseTo(e.blend, 5);
          if (e.level === HIDDEN_LEVEL) hidden++;
          if (e.blend > 0) blended++;
        }
        expect(stats.hidden).toBe(hidden);
        expect(stats.invalid).toBe(0);
        if (!(metric === 'distance' && name === 'orthographic')) expect(hidden).toBeGreaterThan(0);
        if (name === 'perspective') expect(blended).toBeGreaterThan(0); // blend windows are exercised
      });
    }
  }

  it('several views: an object takes the largest size over the views (smallest distance)', () => {
    const left = camera([-3, 8, 0], [40, 0, 60], 50);
    const right = camera([3, 8, 0], [-40, 0, 60], 70);
    const views: LodView[] = [{ frustum: left, viewportHeight: 720 }, { frustum: right, viewportHeight: 1080 }];
    for (const metric of ['distance', 'pixels', 'screenHeight', 'screenArea'] as const) {
      const set = buildSet(metric, spheres);
      set.update(views, { policy: 'thresholds' });
      let differs = 0;
      for (let i = 0; i < set.count; i++) {
        const o = i * 4;
        const e = expectedLevel(metric, views, spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]);
        expect(set.levels[i], `${metric} id ${i}`).toBe(e.level);
        const one = expectedLevel(metric, [views[0]], spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]);
        if (one.level !== e.level) differs++;
      }
      expect(differs).toBeGreaterThan(0); // the second view matters
    }
  });

  it('cull: false keeps culled objects at the reference value (0 size → coarsest; distance never culled)', () => {
    for (const metric of ['distance', 'screenHeight'] as const) {
      const set = buildSet(metric, spheres);
      const stats = set.update({ frustum: perspective }, { policy: 'thresholds', cull: false });
      expect(stats.hidden).toBe(0);
      const t = float32(PROFILES[metric].thresholds), b = float32(PROFILES[metric].blendThresholds);
      for (let i = 0; i < set.count; i++) {
        const o = i * 4;
        const [x, y, z, r] = [spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]];
        const index = metric === 'distance'
          ? expectedDistanceLod(sphereDistance(perspective, x, y, z, r), t, b)
          : expectedScreenLod(sphereScreenHeight(perspective, x, y, z, r), t, b);
        expect(set.levels[i]).toBe(Math.round(index));
      }
    }
  });

  it('bias scales sizes (divides distances) like Unity lodBias', () => {
    for (const metric of ['distance', 'screenHeight'] as const) {
      const set = buildSet(metric, spheres);
      set.update({ frustum: perspective }, { policy: 'thresholds', bias: 2.5 });
      for (let i = 0; i < set.count; i++) {
        const o = i * 4;
        const e = expectedLevel(metric, [{ frustum: perspective }], spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3], 2.5);
        expect(set.levels[i]).toBe(e.level);
      }
    }
  });

  it('minLevel / maxLevel clamp every drawn level', () => {
    const set = buildSet('screenHeight', spheres);
    set.update({ frustum: perspective }, { policy: 'thresholds' });
    const free = Uint8Array.from(set.levels);
    const stats = set.update({ frustum: perspective }, { policy: 'thresholds', minLevel: 1, maxLevel: 2 });
    let counted = 0;
    for (let i = 0; i < set.count; i++) {
      if (free[i] === HIDDEN_LEVEL) { expect(set.levels[i]).toBe(HIDDEN_LEVEL); continue; }
      expect(set.levels[i]).toBe(Math.min(2, Math.max(1, free[i])));
      counted++;
    }
    expect(stats.levelCounts[1] + stats.levelCounts[2]).toBe(counted);
    expect(stats.levelCounts[0] + stats.levelCounts[3] + stats.levelCounts[4]).toBe(0);
  });

  it('MSFS 747 vs Cessna: two profiles, and mixed metrics, in one set', () => {
    const set = new LodSet(4);
    const cessna = set.addProfile({ metric: 'screenHeight', thresholds: [1.1, 0.75, 0.5, 0.3] });
    const b747 = set.addProfile({ metric: 'screenHeight', thresholds: [2.2, 1.5, 1.0, 0.6] });
    const far = set.addProfile({ metric: 'distance', thresholds: [30, 90] });
    const f = Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.1, far: 1e4 });
    // Same screen height 0.55 for both: d = 2R / (0.55 · windowHeight).
    const wh = f.windowHeight;
    const a = set.add({ center: [0, 0, -(2 * 5) / (0.55 * wh)], radius: 5, profile: cessna });
    const b = set.add({ center: [0, 0, -(2 * 35) / (0.55 * wh)], radius: 35, profile: b747 });
    const c = set.add({ center: [0, 0, -50], radius: 5, profile: far });
    set.update({ frustum: f }, { policy: 'thresholds' });
    expect(set.levels[a]).toBe(2); // 0.75 ≥ 0.55 > 0.5
    expect(set.levels[b]).toBe(4); // 747 at 0.55 is below its last threshold 0.6: coarsest
    expect(set.levels[c]).toBe(1); // 45 m to the surface: 30 ≤ d < 90
    expect(set.profileOf(b)).toBe(b747);
    expect(set.costOf(cessna, 0)).toBe(256);
  });

  it('blendLowerLevel recovers the USD blending pair', () => {
    // index 1.3 → level 1, blend .3 → pair (1, 2); index 1.7 → level 2, blend .7 → pair (1, 2).
    expect(blendLowerLevel(1, 0.3)).toBe(1);
    expect(blendLowerLevel(2, 0.7)).toBe(1);
    expect(blendLowerLevel(3, 0)).toBe(3);
  });
});

describe('LodSet controls and bad input', () => {
  const f = camera([0, 0, 0], [0, 0, -1], 60);
  function small(): { set: LodSet; ids: number[] } {
    const set = new LodSet(2);
    const p = set.addProfile({ metric: 'distance', thresholds: [10, 20, 40] });
    const ids = [5, 15, 30, 60].map((d) => set.add({ center: [0, 0, -d], radius: 0, profile: p }));
    return { set, ids };
  }

  it('forced level and hidden', () => {
    const { set, ids } = small();
    set.setForcedLevel(ids[0], 3);
    set.setForcedLevel(ids[3], 200); // clamped to the profile's coarsest
    set.setHidden(ids[1], true);
    const stats = set.update({ frustum: f }, { policy: 'thresholds' });
    expect(Array.from(set.levels.subarray(0, 4))).toEqual([3, HIDDEN_LEVEL, 2, 3]);
    expect(stats.hidden).toBe(1);
    expect(stats.totalCost).toBe(1 + 4 + 1);
    set.setForcedLevel(ids[0], null);
    set.setHidden(ids[1], false);
    set.update({ frustum: f }, { policy: 'thresholds' });
    expect(Array.from(set.levels.subarray(0, 4))).toEqual([0, 1, 2, 3]);
    expect(Array.from(set.changed.subarray(0, set.changedCount))).toEqual([0, 1]);
  });

  it('NaN / ∞ / negative spheres get the coarsest allowed level and are counted, never throw', () => {
    const { set, ids } = small();
    set.setSphere(ids[0], NaN, 0, 0, 1);
    set.setSphere(ids[1], 0, Infinity, 0, 1);
    set.setSphere(ids[2], 0, 0, -5, -1);
    for (const policy of ['thresholds', 'rankQuota', 'budget', 'hybrid'] as const) {
      const stats = set.update({ frustum: f }, { policy, quotas: [1, 1], budget: 100, maxLevel: 2 });
      expect(stats.invalid, policy).toBe(3);
      expect(Array.from(set.levels.subarray(0, 3)), policy).toEqual([2, 2, 2]);
      expect(Number.isNaN(set.sizes[0])).toBe(true);
    }
  });

  it('remove frees the id (HIDDEN_LEVEL, skipped) and add reuses it', () => {
    const { set, ids } = small();
    set.update({ frustum: f }, { policy: 'thresholds' });
    set.remove(ids[1]);
    expect(set.levels[ids[1]]).toBe(HIDDEN_LEVEL);
    const stats = set.update({ frustum: f }, { policy: 'thresholds' });
    expect(stats.changes).toBe(0);
    expect(stats.levelCounts[1]).toBe(0);
    expect(() => set.setSphere(ids[1], 0, 0, 0, 1)).toThrow(RangeError);
    const again = set.add({ center: [0, 0, -12], radius: 0, profile: 0 });
    expect(again).toBe(ids[1]);
    set.update({ frustum: f }, { policy: 'thresholds' });
    expect(set.levels[again]).toBe(1);
    expect(set.count).toBe(4);
  });

  it('invalid options throw RangeError/TypeError naming the field', () => {
    const { set } = small();
    const v = { frustum: f };
    expect(() => set.update(v, { policy: 'nope' as never })).toThrow(/policy/);
    expect(() => set.update(v, { policy: 'thresholds', bias: 0 })).toThrow(/bias/);
    expect(() => set.update(v, { policy: 'thresholds', minLevel: 3, maxLevel: 1 })).toThrow(/minLevel/);
    expect(() => set.update(v, { policy: 'thresholds', hysteresis: 1 })).toThrow(/hysteresis/);
    expect(() => set.update(v, { policy: 'thresholds', minFramesBetweenChanges: -1 })).toThrow(/minFramesBetweenChanges/);
    expect(() => set.update(v, { policy: 'budget' })).toThrow(/budget/);
    expect(() => set.update(v, { policy: 'rankQuota' })).toThrow(/quotas/);
    expect(() => set.update(v, { policy: 'rankQuota', quotas: [1.5] })).toThrow(/quotas\[0\]/);
    expect(() => set.update([], { policy: 'thresholds' })).toThrow(TypeError);
    expect(() => set.update({ frustum: {} as Frustum }, { policy: 'thresholds' })).toThrow(/frustum/);
    const px = new LodSet();
    px.addProfile({ metric: 'pixels', thresholds: [80, 20] });
    expect(() => px.update(v, { policy: 'thresholds' })).toThrow(/viewportHeight/);
    expect(() => px.addProfile({ metric: 'pixels', thresholds: [20, 80] })).toThrow(/thresholds/);
    expect(() => px.addProfile({ metric: 'pixels', thresholds: [80, 20], costs: [1, 2, 3] })).toThrow(/costs\[1\]/);
    expect(() => px.addProfile({ metric: 'pixels', thresholds: [80, 20], costs: [1, 2] })).toThrow(/costs/);
    expect(() => px.addProfile({ metric: 'pixels', thresholds: [80, 20], errors: [1, 0.5, 0] })).toThrow(/errors\[1\]/);
    expect(() => px.addProfile({ metric: 'pixels', thresholds: [80, 20], qualityFloor: 3 })).toThrow(/qualityFloor/);
    expect(() => px.addProfile({ metric: 'bogus' as never, thresholds: [1] })).toThrow(/metric/);
  });

  it('the stats object is reused frame to frame', () => {
    const { set } = small();
    const a = set.update({ frustum: f }, { policy: 'thresholds' });
    const b = set.update({ frustum: f }, { policy: 'budget', budget: 10 });
    expect(a).toBe(b);
  });
});

describe('changes and hysteresis', () => {
  it('changed lists exactly the ids whose level differs from the previous frame; a static camera gives none', () => {
    const spheres = randomSpheres(3000, 3, 150, 0.5, 10);
    const set = new LodSet(16);
    const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02] });
    set.addMany(spheres, p);
    let previous = new Uint8Array(set.count).fill(HIDDEN_LEVEL);
    for (let frame = 0; frame < 6; frame++) {
      const f = camera([frame * 4, 6, 0], [frame * 4 + 20, 0, 80], 55);
      const stats = set.update({ frustum: f }, { policy: 'thresholds', hysteresis: 0.1 });
      const expected: number[] = [];
      for (let i = 0; i < set.count; i++) if (set.levels[i] !== previous[i]) expected.push(i);
      // The order of `changed` is unspecified (cluster order): compare as a set.
      expect(Array.from(set.changed.subarray(0, set.changedCount)).sort((a, b) => a - b)).toEqual(expected);
      expect(stats.changes).toBe(expected.length);
      previous = Uint8Array.from(set.levels.subarray(0, set.count));
      const again = set.update({ frustum: f }, { policy: 'thresholds', hysteresis: 0.1 });
      expect(again.changes).toBe(0);
    }
  });

  it('a size oscillating inside the band (t/(1+h), t/(1−h)) around a threshold never flips the level (fast-check)', () => {
    const fr = Frustum.perspective({ fovY: 60, aspect: 1, near: 0.01, far: 1e6 });
    const wh = fr.windowHeight;
    fc.assert(fc.property(
      fc.double({ min: 0.02, max: 0.4, noNaN: true }), // h
      fc.constantFrom(0, 1, 2),                        // threshold index
      fc.boolean(),                                   // start above or below
      fc.array(fc.double({ min: 0.001, max: 0.999, noNaN: true }), { minLength: 2, maxLength: 40 }),
      (h, k, above, path) => {
        const thresholds = [0.4, 0.1, 0.025];
        const t = thresholds[k];
        const set = new LodSet(1);
        const p = set.addProfile({ metric: 'screenHeight', thresholds });
        const radius = 1;
        // Screen height s at distance d: s = 2R / (d · wh) → d = 2R / (s · wh).
        const id = set.add({ center: [0, 0, -(2 * radius) / ((above ? t * 1.001 : t * 0.999) * wh)], radius, profile: p });
        set.update({ frustum: fr }, { policy: 'thresholds', hysteresis: h });
        const settled = set.levels[id];
        expect(settled).toBe(above ? k : k + 1);
        // The open band, shrunk by 1e-3 so float32 rounding of the size cannot reach its edges, and
        // kept away from the neighbouring thresholds.
        let lowEdge = (t / (1 + h)) * 1.001, highEdge = (t / (1 - h)) * 0.999;
        if (k > 0) highEdge = Math.min(highEdge, thresholds[k - 1] * 0.999);
        if (k < 2) lowEdge = Math.max(lowEdge, thresholds[k + 1] * 1.001);
        for (const u of path) {
          const s = lowEdge + u * (highEdge - lowEdge);
          set.setSphere(id, 0, 0, -(2 * radius) / (s * wh), radius);
          const stats = set.update({ frustum: fr }, { policy: 'thresholds', hysteresis: h });
          expect(set.levels[id]).toBe(settled);
          expect(stats.changes).toBe(0);
        }
      },
    ), { numRuns: 200 });
  });

  it('without hysteresis the same oscillation does flip (the test above can fail)', () => {
    const fr = Frustum.perspective({ fovY: 60, aspect: 1, near: 0.01, far: 1e6 });
    const set = new LodSet(1);
    const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.1] });
    const id = set.add({ center: [0, 0, -(2 / (0.105 * fr.windowHeight))], radius: 1, profile: p });
    let flips = 0;
    for (const s of [0.095, 0.105, 0.095, 0.105]) {
      set.setSphere(id, 0, 0, -(2 / (s * fr.windowHeight)), 1);
      flips += set.update({ frustum: fr }, { policy: 'thresholds' }).changes;
    }
    expect(flips).toBe(4);
    // With h = 0.1 the level (0, from 0.105) stays while the size keeps oscillating.
    flips = 0;
    for (const s of [0.105, 0.095, 0.105, 0.095, 0.105]) {
      set.setSphere(id, 0, 0, -(2 / (s * fr.windowHeight)), 1);
      flips += set.update({ frustum: fr }, { policy: 'thresholds', hysteresis: 0.1 }).changes;
    }
    expect(flips).toBe(0);
  });

  it('minFramesBetweenChanges holds a level for that many frames', () => {
    const fr = Frustum.perspective({ fovY: 60, aspect: 1, near: 0.01, far: 1e6 });
    const set = new LodSet(1);
    const p = set.addProfile({ metric: 'distance', thresholds: [10] });
    const id = set.add({ center: [0, 0, -5], radius: 0, profile: p });
    const seq: number[] = [];
    for (let frame = 0; frame < 8; frame++) {
      set.setSphere(id, 0, 0, frame % 2 === 0 ? -5 : -15, 0);
      set.update({ frustum: fr }, { policy: 'thresholds', minFramesBetweenChanges: 3 });
      seq.push(set.levels[id]);
    }
    // Frame 1 shows level 0 (stamped); frames 2–3 hold; frame 4 changes (stamped); 5–6 hold; 7 changes; 8 holds.
    expect(seq).toEqual([0, 0, 0, 1, 1, 1, 0, 0]);
  });
});
