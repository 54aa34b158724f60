/**
 * `ProfileTable` / `LodSet.addProfile` at scale (issue 24): adding a profile must not cost more with
 * every profile already added. Proved by counting the values the table writes (its `work` seam),
 * not by timing: with capacity doubling every profile is written at most about three times in all
 * (once when added, and in the re-layouts at capacities 4, 8, 16, …, whose sizes sum to < 2n).
 * Values are checked against profiles built by hand; the level choice after 20,000 profiles is
 * worked out from distances chosen far from the thresholds.
 */
import { describe, expect, it } from 'vitest';
import { ProfileTable, validateLodProfile } from '../../src/batch/core/profiles.js';
import { LodSet } from '../../src/batch/lodSet.js';
import { camera } from './helpers.js';

/** What `write` counts for one profile of `levels` levels: 6 scalars + 4 per-level arrays. */
const perProfile = (levels: number): number => 6 + 4 * levels;

describe('ProfileTable.add is amortised O(levels)', () => {
  it('20,000 three-level profiles: at most 3 writes per profile in all, and every entry in place', () => {
    const table = new ProfileTable();
    const n = 20_000;
    for (let p = 0; p < n; p++) {
      // Pixels (descending): thresholds 2p + 2 > 2p + 1, default costs 16, 4, 1.
      table.add(validateLodProfile({ metric: 'pixels', thresholds: [2 * p + 2, 2 * p + 1] }));
    }
    expect(table.count).toBe(n);
    expect(table.stride).toBe(3);
    expect(table.capacity).toBeGreaterThanOrEqual(n);
    // Re-layouts at 4, 8, …, 16,384 copy < 2n profiles; each add writes one more: < 3n writes.
    expect(table.work).toBeLessThanOrEqual(3 * n * perProfile(3));
    for (const p of [0, 1, 4, 5, 16_383, 16_384, n - 1]) {
      expect(table.thresholdCount[p]).toBe(2);
      expect(table.levelCount[p]).toBe(3);
      expect(Array.from(table.thresholds.subarray(p * 3, p * 3 + 2))).toEqual([2 * p + 2, 2 * p + 1]);
      expect(Array.from(table.costs.subarray(p * 3, p * 3 + 3))).toEqual([16, 4, 1]);
      expect(table.metricCode[p]).toBe(1);
    }
  });

  it('a profile with more levels widens the stride and keeps every earlier profile', () => {
    const table = new ProfileTable();
    for (let p = 0; p < 10; p++) table.add(validateLodProfile({ metric: 'distance', thresholds: [p + 1], costs: [2, 1] }));
    const before = table.layout;
    table.add(validateLodProfile({ metric: 'distance', thresholds: [1, 2, 3, 4], costs: [5, 4, 3, 2, 1] }));
    expect(table.layout).toBe(before + 1);
    expect(table.stride).toBe(5);
    for (let p = 0; p < 10; p++) {
      expect(table.thresholds[p * 5]).toBe(p + 1);
      expect(Array.from(table.costs.subarray(p * 5, p * 5 + 2))).toEqual([2, 1]);
    }
    expect(Array.from(table.costs.subarray(50, 55))).toEqual([5, 4, 3, 2, 1]);
    expect(table.metricMask).toBe(1); // distance only (code 0)
  });
});

describe('LodSet.addProfile at scale', () => {
  it('20,000 profiles, then an update chooses each object\'s level from its own profile', () => {
    const set = new LodSet(8);
    const n = 20_000;
    // Profile p: distance thresholds [10 + p % 3, 100 + p % 3] (ascending), so distances 5, 50
    // and 500 give levels 0, 1 and 2 whatever p is.
    for (let p = 0; p < n; p++) expect(set.addProfile({ metric: 'distance', thresholds: [10 + (p % 3), 100 + (p % 3)] })).toBe(p);
    expect(set.profileCount).toBe(n);
    const eye = [0, 0, 0];
    const picks = [0, 1, 2, 9_999, n - 1];
    const distances = [5, 50, 500];
    const expected: number[] = [];
    for (const p of picks) {
      distances.forEach((d, level) => { set.add({ center: [0, 0, -d], radius: 0.01, profile: p }); expected.push(level); });
    }
    set.update({ frustum: camera(eye, [0, 0, -1], 60, 1), viewportHeight: 1080 }, { policy: 'thresholds' });
    expect(Array.from(set.levels.subarray(0, expected.length))).toEqual(expected);
    expect(set.costOf(n - 1, 0)).toBe(16);
    expect(set.levelCount(n - 1)).toBe(3);
  });

  it('refuses a capacity past MAX_CAPACITY with a RangeError naming the argument and the maximum', () => {
    expect(LodSet.MAX_CAPACITY).toBe(268_435_456);
    expect(() => new LodSet(2 ** 31)).toThrow(RangeError);
    expect(() => new LodSet(2 ** 31)).toThrow(/initialCapacity 2147483648 is more than the maximum capacity 268435456 \(LodSet\.MAX_CAPACITY/);
    expect(() => new LodSet(2 ** 28 + 1)).toThrow(/initialCapacity/);
  });
});
