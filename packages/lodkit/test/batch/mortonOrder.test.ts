/**
 * `mortonOrder` of a small batch (≤ 256 spheres: a stable insertion sort, issue 27 startup) is the
 * permutation the radix passes of a large batch give: the same batch padded with spheres of NaN
 * centre (key 0, outside the bounds and the smallest radius) runs the radix path, and its order
 * without the padding is compared (fast-check, fixed seed). Large batches: the radix passes give
 * the stable sort by key of a plain reference (the keys as the module documents them). Bounds given
 * by the caller (`InstancedLOD`'s own pass) give the same order.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { mortonOrder } from '../../src/batch/spatial/mortonOrder.js';
import { referenceBatchBounds } from '../helpers/batchBounds.js';

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

/** The documented key: radius band (factor 2 above the smallest positive radius), then 10-bit Morton code of the centre in the batch's bounding cube; 0 for a non-finite centre. */
function referenceOrder(s: Float32Array, n: number): number[] {
  let min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity], minR = Infinity;
  const finite = (i: number) => [0, 1, 2].every((a) => Number.isFinite(s[i * 4 + a]));
  for (let i = 0; i < n; i++) {
    if (!finite(i)) continue;
    const r = s[i * 4 + 3];
    if (r > 0 && r < minR) minR = r;
    min = min.map((m, a) => Math.min(m, s[i * 4 + a])); max = max.map((m, a) => Math.max(m, s[i * 4 + a]));
  }
  const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]), scale = extent > 0 ? 1023.999 / extent : 0;
  const spread = (v: number) => { let x = (v | 0) & 1023, y = 0; for (let b = 0; b < 10; b++) y |= ((x >> b) & 1) << (3 * b); return y; };
  const key = (i: number): number => {
    if (!finite(i)) return 0;
    const r = s[i * 4 + 3], band = r >= 8 * minR ? 3 : r >= 4 * minR ? 2 : r >= 2 * minR ? 1 : 0;
    let k = band * 2 ** 30;
    for (let a = 0; a < 3; a++) k += spread((s[i * 4 + a] - min[a]) * scale) * 2 ** a;
    return k;
  };
  const keys = Array.from({ length: n }, (_, i) => key(i));
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a] - keys[b]); // (Array sort is stable)
}

it('large batches: the stable sort by key', () => {
  fc.assert(fc.property(fc.array(sphere, { minLength: 257, maxLength: 3000 }), (list) => {
    const s = new Float32Array(list.flat());
    expect(Array.from(mortonOrder(s, list.length))).toEqual(referenceOrder(s, list.length));
  }), { seed: 0x27b1, numRuns: 40 });
});

it('given the batch bounds (addManyWithBounds), the same order as computing them', () => {
  fc.assert(fc.property(fc.array(sphere, { minLength: 1, maxLength: 1200 }), (list) => {
    const n = list.length, s = new Float32Array(list.flat());
    const b = referenceBatchBounds(s, n);
    expect(Array.from(mortonOrder(s, n, Float64Array.from(b)))).toEqual(Array.from(mortonOrder(s, n)));
  }), { seed: 0x27b2, numRuns: 100 });
});
