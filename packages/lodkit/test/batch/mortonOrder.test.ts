/**
 * `mortonOrder` of a small batch (≤ 256 spheres: a stable insertion sort, issue 27 startup) is the
 * permutation the radix passes of a large batch give: the same batch padded with spheres of NaN
 * centre (key 0, outside the bounds and the smallest radius) runs the radix path, and its order
 * without the padding is compared (fast-check, fixed seed).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { mortonOrder } from '../../src/batch/spatial/mortonOrder.js';

const coord = fc.oneof(fc.integer({ min: -4, max: 4 }).map((v) => v * 10), fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.constant(Number.NaN));
const sphere = fc.tuple(coord, coord, coord, fc.oneof(fc.constantFrom(0, 0.5, 1, 2, 3, 9), fc.double({ min: 0, max: 50, noNaN: true })));

it('small batches get the order of the radix passes', () => {
  fc.assert(fc.property(fc.array(sphere, { minLength: 1, maxLength: 256 }), (list) => {
    const n = list.length, pad = 300;
    const small = new Float32Array(list.flat());
    const big = new Float32Array((n + pad) * 4).fill(Number.NaN);
    big.set(small);
    for (let i = n; i < n + pad; i++) big[i * 4 + 3] = 1;
    const expected = Array.from(mortonOrder(big, n + pad)).filter((i) => i < n);
    expect(Array.from(mortonOrder(small, n))).toEqual(expected);
  }), { seed: 0x27b0, numRuns: 300 });
});
