/**
 * A still camera converges (issue 28): after any history of moving frames — budgets that bind or
 * not, any stability band, clustered or per object — budget and hybrid reach, within
 * SETTLE_FRAMES + 1 still frames, the selection a set without history makes on that frame with
 * `stabilityBand: 0`: the same levels, so the same cost and screen-space error. The band still damps
 * while the camera moves (test/policies/screenSpaceBudget.test.ts, "the band cuts level changes").
 * The reference set is a fresh one: the property is that the history stops mattering, which the
 * band used to prevent (it held an object whose finer level improved its error by less than
 * `band × its error`, whatever budget was left).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { SETTLE_FRAMES, StillFrames, stillBandFactor } from '../../src/batch/stillFrames.js';
import { camera, randomSpheres } from './helpers.js';

const N = 2500;
const COSTS = [[900, 300, 80, 12], [5000, 1200, 250]];

function scene(): LodSet {
  const set = new LodSet(64);
  const a = set.addProfile({ metric: 'screenHeight', thresholds: [0.2, 0.08, 0.02], costs: COSTS[0], errors: [0.002, 0.004, 0.006, 0.01] });
  const b = set.addProfile({ metric: 'pixels', thresholds: [150, 40], costs: COSTS[1] });
  set.addMany(randomSpheres(N / 2, 5, 200, 0.3, 5), a);
  set.addMany(randomSpheres(N / 2, 6, 200, 0.3, 5), b);
  set.setHidden(17, true);
  set.setForcedLevel(33, 1);
  return set;
}

function view(x: number, z: number, yaw: number): LodView {
  return { frustum: camera([x, 12, z], [x + Math.cos(yaw) * 60, 0, z + Math.sin(yaw) * 60], 55), viewportHeight: 1080 };
}

/** The sum of the drawn objects' level costs, from the profiles' cost tables (not the set's stats). */
function costOf(set: LodSet): number {
  let total = 0;
  for (let i = 0; i < set.count; i++) {
    const l = set.levels[i];
    if (l !== 255) total += COSTS[set.profileOf(i)][l];
  }
  return total;
}

const frameArb = fc.record({
  x: fc.double({ min: -120, max: 120, noNaN: true }), z: fc.double({ min: -120, max: 120, noNaN: true }),
  yaw: fc.double({ min: 0, max: 6.28, noNaN: true }), budget: fc.integer({ min: 20_000, max: 2_000_000 }),
  band: fc.constantFrom(0.1, 0.4, 0.6, 0.9), clusters: fc.boolean(),
});

describe('still frames: budget and hybrid converge to the selection without history', () => {
  for (const policy of ['budget', 'hybrid'] as const) {
    it(`${policy}: any history, then still frames → the fresh set's band-0 levels (fast-check)`, () => {
      fc.assert(fc.property(fc.array(frameArb, { minLength: 1, maxLength: 8 }), frameArb, (history, last) => {
        const set = scene();
        for (const f of history) set.update(view(f.x, f.z, f.yaw), { policy, budget: f.budget, stabilityBand: f.band, clusters: f.clusters });
        const still = view(last.x, last.z, last.yaw);
        const options: LodUpdateOptions = { policy, budget: last.budget, stabilityBand: last.band, clusters: last.clusters };
        for (let k = 0; k <= SETTLE_FRAMES; k++) set.update(still, options);
        const fresh = scene();
        const ref = fresh.update(still, { ...options, stabilityBand: 0 });
        const stats = set.update(still, options); // (one more still frame: stays there)
        expect(Array.from(set.levels.subarray(0, N))).toEqual(Array.from(fresh.levels.subarray(0, N)));
        expect(stats.totalCost).toBe(ref.totalCost);
        expect(costOf(set)).toBe(stats.totalCost);
        expect(set.changedCount).toBe(0);
      }), { numRuns: 12 });
    });
  }

  it('the band narrows only on frames whose inputs repeat: a move, an edit, a new budget or option restart it', () => {
    const s = new StillFrames();
    const a = view(0, 0, 1), b = view(0, 0, 1.01), o: LodUpdateOptions = { policy: 'budget', budget: 1000 };
    const factor = (v: LodView, edits = 0, budget = 1000, options = o) => stillBandFactor(s, 'budget', v, true, 1, edits, budget, options);
    expect(factor(a)).toBe(1);
    for (let k = 1; k <= SETTLE_FRAMES + 2; k++) expect(factor(a)).toBe(Math.max(0, 1 - k / SETTLE_FRAMES));
    expect(factor(b)).toBe(1); // the camera turned
    expect(factor(b)).toBe(1 - 1 / SETTLE_FRAMES);
    expect(factor(b, 1)).toBe(1); // an edit of the set
    expect(factor(b, 1, 2000)).toBe(1); // a new budget
    expect(factor(b, 1, 2000, { ...o, bias: 1.5 })).toBe(1); // a new option
    expect(factor(b, 1, 2000, { ...o, bias: 1.5 })).toBe(1 - 1 / SETTLE_FRAMES);
    expect(stillBandFactor(s, 'hybrid', b, true, 1, 1, 2000, { ...o, bias: 1.5 })).toBe(1); // another policy
    expect(stillBandFactor(s, 'hybrid', [b, a], false, 2, 1, 2000, { ...o, bias: 1.5 })).toBe(1); // another view count
  });
});
