/**
 * The stability band's item rules (src/batch/passes/chainItems.ts) on hand-worked chains: band 0.4
 * and last price λ = 1 give a protected floor of 0.6 and an upgrade ceiling of 1.4.
 */
import { describe, expect, it } from 'vitest';
import { protectedFloorKey, pushChainItems, upgradeCeilKey } from '../../src/batch/passes/chainItems.js';

/** One chain of steps (target level, slope) at offset 4 of the chain arrays; items of object 5, shift 3, from index 1. */
function push(steps: [number, number][], prev: number, band: number, lambda: number) {
  const level = new Uint8Array(8), slope = new Float64Array(8);
  steps.forEach(([l, k], j) => { level[4 + j] = l; slope[4 + j] = k; });
  const keys = new Float64Array(8).fill(99), items = new Uint32Array(8).fill(99);
  const m = pushChainItems(keys, items, 1, level, slope, 4, steps.length, prev, protectedFloorKey(band, lambda), upgradeCeilKey(band, lambda), 5, 3);
  return { m, keys: Array.from(keys.subarray(1, m)), items: Array.from(items.subarray(1, m)) };
}

describe('chainItems: the band\'s rules for knapsack items', () => {
  it('the two keys: (1 − band)·λ (0 without a band or a price) and (1 + band)·λ (0 without a band)', () => {
    expect(protectedFloorKey(0.4, 1)).toBeCloseTo(0.6, 15);
    expect(upgradeCeilKey(0.4, 1)).toBeCloseTo(1.4, 15);
    expect(protectedFloorKey(0.4, 0)).toBe(0);
    expect(protectedFloorKey(0, 2)).toBe(0);
    expect(upgradeCeilKey(0, 2)).toBe(0);
  });

  it('steps not finer than the previous level worth the floor are protected; an upgrade past it below the ceiling ends the items', () => {
    // from level 3: to 2 (key 5), to 1 (0.7), to 0 (1.3); previous level 1
    expect(push([[2, 5], [1, 0.7], [0, 1.3]], 1, 0.4, 1)).toEqual({ m: 3, keys: [-5, -0.7], items: [5 << 3, (5 << 3) | 1] });
    // the upgrade past it at 1.5 beats the ceiling: an item, not protected
    expect(push([[2, 5], [1, 0.7], [0, 1.5]], 1, 0.4, 1)).toEqual({ m: 4, keys: [-5, -0.7, 1.5], items: [5 << 3, (5 << 3) | 1, (5 << 3) | 2] });
    // an incumbent step below the floor (0.5 < 0.6) is an ordinary item
    expect(push([[2, 5], [1, 0.5]], 1, 0.4, 1).keys).toEqual([-5, 0.5]);
  });

  it('no previous level (hidden last frame), no band or no price: every step an ordinary item', () => {
    expect(push([[2, 5], [1, 0.7], [0, 0.1]], 255, 0.4, 1).keys).toEqual([5, 0.7, 0.1]);
    expect(push([[2, 5], [1, 0.7], [0, 0.1]], 1, 0, 1).keys).toEqual([5, 0.7, 0.1]);
    // λ = 0: nothing protected, and the ceiling 0 stops no step
    expect(push([[2, 5], [1, 0.7], [0, 0.1]], 1, 0.4, 0).keys).toEqual([5, 0.7, 0.1]);
  });
});
