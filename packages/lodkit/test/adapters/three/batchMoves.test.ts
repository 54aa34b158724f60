/**
 * batchMoves.ts: a large batch's moves through `MoveQueue` (four copies at a time) leave every pool
 * exactly as `enterFrom` + `leave` one instance at a time do — slots, owners, matrices, colours,
 * counts, capacities — including an entrant that takes the hole an earlier move of its own group
 * just left, and pools that grow in the middle of a batch (fast-check, fixed seed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoxGeometry, MeshBasicMaterial } from 'three';
import { LevelSlots } from '../../../src/adapters/three/levelSlots.js';
import { MoveQueue } from '../../../src/adapters/three/batchMoves.js';

const geometry = new BoxGeometry(), material = new MeshBasicMaterial();
const POOLS = 4; // three level meshes and the CPU-only pool (last)

function pools(capacity: number, colored: boolean): LevelSlots[] {
  const p = Array.from({ length: POOLS }, (_, k) => (k === POOLS - 1 ? new LevelSlots(null, null, capacity) : new LevelSlots(geometry, material, capacity)));
  if (colored) for (const s of p) s.enableColor();
  return p;
}

function snapshot(p: LevelSlots[]): unknown {
  return p.map((s) => ({
    count: s.count, capacity: s.capacity, free: s.freeSlots,
    owners: Array.from(s.owners.subarray(0, s.count)),
    matrices: Array.from(s.matrices.subarray(0, s.count * 16)),
    colors: s.colors === null ? null : Array.from(s.colors.subarray(0, s.count * 3)),
  }));
}

describe('MoveQueue', () => {
  it('fast-check: queued moves equal enterFrom + leave one at a time', () => {
    const n = 120;
    const batch = fc.array(fc.tuple(fc.nat({ max: n - 1 }), fc.nat({ max: POOLS - 1 })), { minLength: 1, maxLength: 300 });
    let refilled = 0, sameGroup = 0, grew = 0;
    fc.assert(fc.property(fc.array(fc.nat({ max: POOLS - 1 }), { minLength: n, maxLength: n }), fc.array(batch, { minLength: 1, maxLength: 4 }),
      fc.boolean(), fc.constantFrom(16, 64), (start, batches, colored, capacity) => {
        const a = pools(capacity, colored), b = pools(capacity, colored);
        const slotA = new Int32Array(n), slotB = new Int32Array(n), poolOf = Int32Array.from(start), m = new Float32Array(16);
        for (let id = 0; id < n; id++) {
          for (let k = 0; k < 16; k++) m[k] = id * 16 + k;
          slotA[id] = a[start[id]].enterMatrix(id, m, 0); slotB[id] = b[start[id]].enterMatrix(id, m, 0);
          if (colored) { a[start[id]].setColor(slotA[id], id, -id, 0.5); b[start[id]].setColor(slotB[id], id, -id, 0.5); }
        }
        const queue = new MoveQueue();
        for (const moves of batches) {
          const capacities = a.map((s) => s.capacity);
          const seen = new Set<number>(), left: [number, number][] = [];
          for (const [id, to] of moves) {
            if (seen.has(id) || poolOf[id] === to) continue; // (one change per instance and batch, as `changed` lists them)
            seen.add(id);
            const from = poolOf[id], sa = slotA[id], sb = slotB[id];
            const holes = a[to].freeSlots;
            slotA[id] = queue.move(id, a[from], sa, a[to]); a[from].leave(sa);
            slotB[id] = b[to].enterFrom(id, b[from], sb); b[from].leave(sb);
            if (holes > 0) refilled++;
            // The hole one of the previous three moves left (a copy still queued reads it).
            if (left.slice(-3).some(([p, slot]) => p === to && slot === slotA[id])) sameGroup++;
            left.push([from, sa]);
            poolOf[id] = to;
          }
          queue.flush();
          if (a.some((s, k) => s.capacity !== capacities[k])) grew++;
          for (const s of a) s.compact(slotA);
          for (const s of b) s.compact(slotB);
          expect(snapshot(a)).toEqual(snapshot(b));
          expect(Array.from(slotA)).toEqual(Array.from(slotB));
        }
        // Every instance still has its own matrix (and colour), wherever it went.
        for (let id = 0; id < n; id++) {
          const s = a[poolOf[id]], o = slotA[id] * 16;
          expect(s.owners[slotA[id]]).toBe(id);
          expect(s.matrices[o]).toBe(id * 16);
          expect(s.matrices[o + 15]).toBe(id * 16 + 15);
          if (colored) expect(Array.from(s.colors!.subarray(slotA[id] * 3, slotA[id] * 3 + 3))).toEqual([id, -id, 0.5]);
        }
      }), { seed: 0x27b3, numRuns: 120 });
    expect(refilled).toBeGreaterThan(300); // (entrants took holes left earlier in the batch)
    expect(sameGroup).toBeGreaterThan(50); // (… some of them by a move whose copy was still queued)
    expect(grew).toBeGreaterThan(20); // (pools grew in the middle of a batch)
  });
});
