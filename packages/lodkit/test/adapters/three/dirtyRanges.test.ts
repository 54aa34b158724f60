/**
 * DirtyRanges (a pool's written slots handed to three as few update ranges): through any sequence
 * of writes and flushes, with or without the renderer uploading (clearing) in between, every
 * written slot is covered by the attributes' ranges, matrix and colour ranges mirror each other,
 * an attribute holds at most 64 ranges after a flush that had more (or none closer than MAX_GAP slots), a flush of ≤ 64 ranges pending
 * passes them on exactly as written, a merge never spans more than MAX_GAP unwritten slots, and
 * `bytes`/`ranges` equal what the attributes were handed (net of ranges taken back and merged).
 * `mergeClosest` merges the smallest gaps first, never one over MAX_GAP slots. Expected
 * values are recomputed in the test from the written slots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InstancedBufferAttribute } from 'three';
import { DirtyRanges, MAX_GAP, MAX_RANGES, mergeClosest } from '../../../src/adapters/three/dirtyRanges.js';

const SLOTS = 5000;

type Op = { kind: 'write'; ranges: [number, number][] } | { kind: 'upload' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({
    kind: fc.constant('write' as const),
    ranges: fc.array(fc.tuple(fc.integer({ min: 0, max: SLOTS - 1 }), fc.integer({ min: 1, max: 40 }))
      .map(([s, n]): [number, number] => [s, Math.min(SLOTS, s + n)]), { maxLength: 300 }),
  }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('upload' as const) }) },
);

/** Slots covered by an attribute's update ranges (`floats` per slot). */
function covered(a: InstancedBufferAttribute, floats: number): Set<number> {
  const out = new Set<number>();
  for (const r of a.updateRanges) {
    expect(r.start % floats).toBe(0);
    expect(r.count % floats).toBe(0);
    for (let s = r.start / floats; s < (r.start + r.count) / floats; s++) out.add(s);
  }
  return out;
}

describe('DirtyRanges', () => {
  it('fast-check: every written slot is covered until uploaded, ≤ 64 ranges after a merge, exact below, bytes as handed over', () => {
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 12 }), fc.boolean(), (ops, withColor) => {
      const dirty = new DirtyRanges();
      const matrix = new InstancedBufferAttribute(new Float32Array(SLOTS * 16), 16);
      const color = withColor ? new InstancedBufferAttribute(new Float32Array(SLOTS * 3), 3) : null;
      const perSlot = (16 + (withColor ? 3 : 0)) * 4;
      let uploadedBytes = 0, uploadedRanges = 0;
      const pendingSlots = new Set<number>();
      for (const o of ops) {
        if (o.kind === 'upload') {
          // What the renderer uploads, then clears.
          for (const r of matrix.updateRanges) { uploadedBytes += (r.count / 16) * perSlot; uploadedRanges += withColor ? 2 : 1; }
          matrix.clearUpdateRanges(); color?.clearUpdateRanges();
          pendingSlots.clear();
          continue;
        }
        const before = matrix.updateRanges.map((r) => ({ ...r }));
        for (const [s, e] of o.ranges) { dirty.add(s, e); for (let k = s; k < e; k++) pendingSlots.add(k); }
        dirty.flush(matrix, color);
        const got = covered(matrix, 16);
        for (const s of pendingSlots) expect(got.has(s)).toBe(true);
        if (color !== null) expect([...covered(color, 3)].sort((a, b) => a - b)).toEqual([...got].sort((a, b) => a - b));
        if (before.length + o.ranges.length > MAX_RANGES) {
          // Merged: at most 64 ranges, or none closer than MAX_GAP; no gap of unwritten slots over MAX_GAP inside one.
          const rs = matrix.updateRanges.map((r) => [r.start / 16, (r.start + r.count) / 16]).sort((x, y) => x[0] - y[0]);
          if (rs.length > MAX_RANGES) for (let k = 1; k < rs.length; k++) expect(rs[k][0] - rs[k - 1][1]).toBeGreaterThan(MAX_GAP);
          for (const [from, to] of rs) {
            let run = 0;
            for (let k = from; k < to; k++) { run = pendingSlots.has(k) ? 0 : run + 1; expect(run).toBeLessThanOrEqual(MAX_GAP); }
          }
        } else expect(matrix.updateRanges).toEqual([...before, ...o.ranges.map(([s, e]) => ({ start: s * 16, count: (e - s) * 16 }))]);
        let heldBytes = 0;
        for (const r of matrix.updateRanges) heldBytes += (r.count / 16) * perSlot;
        expect(dirty.bytes).toBe(uploadedBytes + heldBytes);
        expect(dirty.ranges).toBe(uploadedRanges + matrix.updateRanges.length * (withColor ? 2 : 1));
      }
    }), { numRuns: 150, seed: 28 });
  });

  it('mergeClosest: touching ranges first, then the smallest gaps, until 64 are left', () => {
    const starts = new Int32Array(256), ends = new Int32Array(256);
    const merged = (ranges: [number, number][]): [number, number][] => {
      ranges.forEach(([s, n], k) => { starts[ranges.length - 1 - k] = s; ends[ranges.length - 1 - k] = s + n; }); // (any order in)
      const m = mergeClosest(starts, ends, ranges.length);
      return Array.from({ length: m }, (_, k): [number, number] => [starts[k], ends[k] - starts[k]]);
    };
    const run = (from: number, count: number, step: number): [number, number][] => Array.from({ length: count }, (_, k) => [from + k * step, 1]);
    // 30 ranges 9 slots apart, 30 ranges 3 apart, 11 close ones (1 apart, the last touching): 71.
    // Merging across gaps of 1 leaves 61, so the ranges 3 apart stay.
    expect(merged([...run(0, 30, 10), ...run(400, 30, 4), ...run(1000, 10, 2), [1019, 1]]))
      .toEqual([...run(0, 30, 10), ...run(400, 30, 4), [1000, 20]]);
    // 60 ranges 1 apart and 6 touching ones: merging the touching ones is enough (61 left).
    expect(merged([...run(0, 60, 2), ...run(2000, 6, 1)])).toEqual([...run(0, 60, 2), [2000, 6]]);
    // 100 ranges MAX_GAP + 1 slots apart and 20 ranges MAX_GAP apart: only the latter merge (101 left).
    expect(merged([...run(0, 100, MAX_GAP + 2), ...run(10_000, 20, MAX_GAP + 1)]))
      .toEqual([...run(0, 100, MAX_GAP + 2), [10_000, 19 * (MAX_GAP + 1) + 1]]);
    // Starts past 2^22 (three radix passes) and equal starts: sorted, the longest end kept.
    expect(merged([...run(5_000_000, 70, 10), [5_000_000, 3], [3, 1]])).toEqual([[3, 1], [5_000_000, 3], ...run(5_000_010, 69, 10)]);
  });
});
