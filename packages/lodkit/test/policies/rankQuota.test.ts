import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HIDDEN_LEVEL, LodSet } from '../../src/batch/lodSet.js';
import { Frustum } from '../../src/metrics/frustum.js';
// Expected ranks come from the test-side distance and culling formulas, not lodkit's own metrics.
import { referenceCulls, referenceDistance as sphereDistance } from '../helpers/reference.js';
import { assignQuotaRanks, selectSmallest } from '../../src/policies/rankQuota.js';
import { camera, lcg } from '../batch/helpers.js';

/** Reference: full sort by (distance, id), then quotas in order. */
function referenceRanks(distances: number[], quotas: number[]): number[] {
  const order = distances.map((d, i) => i).sort((a, b) => distances[a] - distances[b] || a - b);
  const rank = new Array<number>(distances.length);
  let pos = 0;
  quotas.forEach((q, g) => {
    for (let k = 0; k < q && pos < order.length; k++) rank[order[pos++]] = g;
  });
  while (pos < order.length) rank[order[pos++]] = quotas.length;
  return rank;
}

describe('rankQuota (MotoGP)', () => {
  it('20 bikes on a telephoto straight: the 4 closest high, the next 6 medium, the other 10 low', () => {
    // A narrow TV camera down a straight: every bike has a similar screen size, so screen-size
    // thresholds would draw all 20 at high detail. Rank quotas cap it.
    const eye = [0, 3, 0];
    const tv = camera(eye, [0, 1, -400], 6, 16 / 9);
    const set = new LodSet(4);
    const bike = set.addProfile({ metric: 'pixels', thresholds: [80, 20], costs: [20000, 6000, 1200] });
    const rand = lcg(42);
    const distances: number[] = [];
    const ids: number[] = [];
    for (let b = 0; b < 20; b++) {
      const z = -(150 + rand() * 100), x = (rand() - 0.5) * 8;
      ids.push(set.add({ center: [x, 1, z], radius: 1.1, profile: bike }));
      distances.push(sphereDistance(tv, x, 1, z, 1.1));
    }
    const view = { frustum: tv, viewportHeight: 1080 };
    const thresholdStats = set.update(view, { policy: 'thresholds' });
    expect(thresholdStats.levelCounts[0]).toBe(20); // "the framerate would plummet"
    const stats = set.update(view, { policy: 'rankQuota', quotas: [4, 6] });
    const expected = referenceRanks(distances, [4, 6]);
    expect(Array.from(set.levels.subarray(0, 20))).toEqual(expected);
    expect(Array.from(stats.levelCounts)).toEqual([4, 6, 10]);
    expect(stats.totalCost).toBe(4 * 20000 + 6 * 6000 + 10 * 1200);
    // Sizes hold the eye distance used for ranking.
    for (let i = 0; i < 20; i++) expect(set.sizes[ids[i]]).toBeCloseTo(distances[i], 2);
  });

  it('track sectors around a camera: 4 closest high, next 6 medium, rest low; culled sectors hidden', () => {
    const set = new LodSet(8);
    const sector = set.addProfile({ metric: 'distance', thresholds: [50, 200] });
    // 36 sectors on a ring of radius 300 m around the origin; the camera sits on the ring.
    const centers: number[][] = [];
    for (let k = 0; k < 36; k++) {
      const a = (k / 36) * 2 * Math.PI;
      centers.push([300 * Math.cos(a), 0, 300 * Math.sin(a)]);
      set.add({ center: centers[k], radius: 26, profile: sector });
    }
    const eye = [300, 2, 0];
    const f = Frustum.perspective({ fovY: 100, aspect: 2, near: 0.1, far: 2000, position: eye, rotation: camera(eye, [300, 2, 300]).rotation });
    const stats = set.update({ frustum: f }, { policy: 'rankQuota', quotas: [4, 6] });
    const visible: number[] = [], dist: number[] = [];
    for (let k = 0; k < 36; k++) {
      const [x, y, z] = centers[k];
      if (referenceCulls(f, x, y, z, 26)) { expect(set.levels[k]).toBe(HIDDEN_LEVEL); continue; }
      visible.push(k); dist.push(sphereDistance(f, x, y, z, 26));
    }
    expect(visible.length).toBeGreaterThan(10);
    expect(stats.hidden).toBe(36 - visible.length);
    const ranks = referenceRanks(dist, [4, 6]);
    visible.forEach((k, j) => expect(set.levels[k], `sector ${k}`).toBe(ranks[j]));
    expect(stats.levelCounts[0]).toBe(4);
    expect(stats.levelCounts[1]).toBe(6);
  });

  it('ties are broken by id, and a static camera changes nothing', () => {
    const set = new LodSet(1);
    const p = set.addProfile({ metric: 'distance', thresholds: [1, 2, 3] });
    // 12 objects at exactly the same distance (10) from the eye, in every direction.
    const points = [[10, 0, 0], [-10, 0, 0], [0, 10, 0], [0, -10, 0], [0, 0, 10], [0, 0, -10],
      [6, 8, 0], [8, 0, 6], [0, 6, 8], [-6, -8, 0], [-8, 0, -6], [0, -6, -8]];
    for (const c of points) set.add({ center: c, radius: 1, profile: p });
    const f = Frustum.perspective({ fovY: 90, aspect: 1, near: 0.1, far: 100 });
    const stats = set.update({ frustum: f }, { policy: 'rankQuota', quotas: [2, 3], cull: false });
    expect(Array.from(set.levels.subarray(0, 12))).toEqual([0, 0, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3]);
    expect(stats.changes).toBe(12);
    expect(set.update({ frustum: f }, { policy: 'rankQuota', quotas: [2, 3], cull: false }).changes).toBe(0);
  });

  it('forced objects keep their level and take no quota; min/maxLevel clamp ranks', () => {
    const set = new LodSet(1);
    const p = set.addProfile({ metric: 'distance', thresholds: [1, 2, 3] });
    for (let k = 0; k < 6; k++) set.add({ center: [0, 0, -(k + 2)], radius: 0.5, profile: p });
    set.setForcedLevel(0, 2);
    const f = Frustum.perspective({ fovY: 90, aspect: 1, near: 0.1, far: 100 });
    set.update({ frustum: f }, { policy: 'rankQuota', quotas: [1, 2] });
    expect(Array.from(set.levels.subarray(0, 6))).toEqual([2, 0, 1, 1, 3, 3]);
    set.update({ frustum: f }, { policy: 'rankQuota', quotas: [1, 2], minLevel: 1, maxLevel: 2 });
    expect(Array.from(set.levels.subarray(0, 6))).toEqual([2, 1, 1, 1, 2, 2]);
  });

  it('assignQuotaRanks / selectSmallest equal a full sort on random keys with many ties (fast-check)', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 0, maxLength: 300 }),
      fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 0, maxLength: 4 }),
      (ints, quotas) => {
        const n = ints.length;
        const keys = Float64Array.from(ints, (v) => v / 4);
        const ids = Uint32Array.from({ length: n }, (_, i) => i);
        const ranks = new Uint8Array(n);
        assignQuotaRanks(keys, ids, 0, n, quotas, ranks);
        expect(Array.from(ranks)).toEqual(referenceRanks(Array.from(keys), quotas));
      },
    ), { numRuns: 300 });
  });

  it('selectSmallest is correct on adversarial orders (sorted, reversed, organ-pipe, all equal)', () => {
    const n = 5000;
    const patterns: Array<(i: number) => number> = [
      (i) => i, (i) => n - i, (i) => Math.min(i, n - i), () => 7, (i) => (i * 7919) % 1013,
    ];
    for (const pattern of patterns) {
      const keys = Float64Array.from({ length: n }, (_, i) => pattern(i));
      for (const k of [1, 17, 2500, 4999]) {
        const ids = Uint32Array.from({ length: n }, (_, i) => i);
        selectSmallest(keys, ids, 0, n, k);
        const chosen = new Set(Array.from(ids.subarray(0, k)));
        const ref = Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a] - keys[b] || a - b).slice(0, k);
        expect(chosen.size).toBe(k);
        for (const id of ref) expect(chosen.has(id)).toBe(true);
      }
    }
  });
});
