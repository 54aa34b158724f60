/**
 * rankQuota, budget and hybrid over the spatial clusters (culled clusters hidden whole, passes over the
 * visible objects only) against the per-object path (`clusters: false`): the same levels, blend,
 * sizes, changed set and stats every frame, on camera paths with edits between frames and with
 * thresholds frames in between (the cluster states must survive a policy frame).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LodSet, type LodPolicy, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { Frustum } from '../../src/metrics/frustum.js';
import { lookAtRotation } from '../../src/metrics/vector.js';
import { randomSpheres } from './helpers.js';

function view(eye: number[], yaw: number): LodView {
  const rotation = lookAtRotation(eye, [eye[0] + Math.cos(yaw) * 50, eye[1] - 3, eye[2] + Math.sin(yaw) * 50]);
  return { frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 900, position: eye, rotation }), viewportHeight: 1080 };
}

function compare(a: LodSet, b: LodSet, sa: { totalCost: number; minimumCost: number; hidden: number; invalid: number; levelCounts: number[]; budgetMet: boolean }, sb: ReturnType<LodSet['update']>, exactSizes: boolean, label: string): void {
  const n = a.count;
  for (let i = 0; i < n; i++) {
    if (a.levels[i] !== b.levels[i] || !Object.is(a.blend[i], b.blend[i])) throw new Error(`${label}: id ${i} level ${a.levels[i]} / ${b.levels[i]} blend ${a.blend[i]} / ${b.blend[i]}`);
    if (exactSizes ? !Object.is(a.sizes[i], b.sizes[i]) : Number.isNaN(a.sizes[i]) !== Number.isNaN(b.sizes[i])) throw new Error(`${label}: id ${i} size ${a.sizes[i]} / ${b.sizes[i]}`);
  }
  const set = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
  expect(set(a), label).toEqual(set(b));
  expect(sa.totalCost, label).toBe(sb.totalCost);
  expect(sa.minimumCost, label).toBe(sb.minimumCost);
  expect(sa.hidden, label).toBe(sb.hidden);
  expect(sa.invalid, label).toBe(sb.invalid);
  expect(sa.budgetMet, label).toBe(sb.budgetMet);
  expect(sa.levelCounts, label).toEqual(Array.from(sb.levelCounts));
}

describe('rankQuota, budget and hybrid over clusters = per-object path', () => {
  it('camera paths, policies mixed with thresholds frames, edits between frames (fast-check)', () => {
    let culled = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }),
      fc.array(fc.record({
        policy: fc.constantFrom<LodPolicy>('rankQuota', 'budget', 'hybrid', 'hybrid', 'thresholds'),
        dx: fc.double({ min: -5, max: 5, noNaN: true }), dyaw: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        edit: fc.integer({ min: 0, max: 5 }), target: fc.nat(), budgetShare: fc.double({ min: 0, max: 1.2, noNaN: true }),
        minFrames: fc.constantFrom(0, 0, 2), cull: fc.constantFrom(true, true, false), maxLevel: fc.constantFrom(255, 2),
      }), { minLength: 2, maxLength: 8 }),
      (seed, frames) => {
        const a = new LodSet(64), b = new LodSet(64);
        for (const s of [a, b]) {
          s.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08], costs: [900, 300, 60, 8] });
          s.addProfile({ metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100], costs: [800, 200, 50, 6], qualityFloor: 2 });
          s.addMany(randomSpheres(1500, seed, 500, 0.3, 6), 0);
          s.addMany(randomSpheres(700, seed + 1, 500, 0.3, 6), 1);
        }
        let eye = [0, 6, 0], yaw = 0.2;
        for (let f = 0; f < frames.length; f++) {
          const fr = frames[f];
          eye = [eye[0] + fr.dx, 6, eye[2] + fr.dx * 0.5]; yaw += fr.dyaw;
          const v = view(eye, yaw);
          const budget = 20_000 + fr.budgetShare * 400_000;
          const options: LodUpdateOptions = { policy: fr.policy, quotas: [3, 40, 300], budget, minFramesBetweenChanges: fr.minFrames, cull: fr.cull, maxLevel: fr.maxLevel, hysteresis: 0.1 };
          const ra = a.update(v, options);
          const sa = { ...ra, levelCounts: Array.from(ra.levelCounts) };
          const sb = b.update(v, { ...options, clusters: false });
          compare(a, b, sa, sb, fr.policy !== 'thresholds', `seed ${seed} frame ${f} ${fr.policy}`);
          if (fr.policy !== 'thresholds') culled += a.clusterStats.culled;
          const id = fr.target % a.count;
          if (fr.edit === 1) { a.setHidden(id, true); b.setHidden(id, true); }
          if (fr.edit === 2) { a.setForcedLevel(id, 1); b.setForcedLevel(id, 1); }
          if (fr.edit === 3) { const s = a.spheres; const m = [s[id * 4] + 20, s[id * 4 + 1], s[id * 4 + 2], s[id * 4 + 3]] as const; a.setSphere(id, ...m); b.setSphere(id, ...m); }
          if (fr.edit === 4) { a.setSphere(id, Number.NaN, 0, 0, 1); b.setSphere(id, Number.NaN, 0, 0, 1); }
        }
      }), { numRuns: 60 });
    expect(culled).toBeGreaterThan(0); // clusters were hidden whole (not vacuous)
  });
});
