/**
 * batchMoves.ts: a large batch's moves through `MoveQueue` (four copies at a time) leave every pool
 * exactly as `enterFrom` + `leave` one instance at a time do — slots, owners, matrices, colours,
 * counts, capacities — including an entrant that takes the hole an earlier move of its own group
 * just left, and pools that grow in the middle of a batch (fast-check, fixed seed). A batch that
 * only leaves the CPU-only pool (`leavesCpuPoolOnly`), moved by `LevelSlots.moveAllOut` in that
 * pool's slot order, ends as `reserveForMoves` + the moves one at a time in `changed` order: also
 * the CPU-only pool's holes in their order, the dirty ranges and every byte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoxGeometry, MeshBasicMaterial } from 'three';
import { LevelSlots, reserveForMoves } from '../../../src/adapters/three/levelSlots.js';
import { leavesCpuPoolOnly, MoveQueue } from '../../../src/adapters/three/batchMoves.js';
import { HIDDEN_LEVEL } from '../../../src/batch/lodSet.js';

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

describe('LevelSlots.moveAllOut', () => {
  const L = 3, n = 400;
  /** Pools laid out as `InstancedLOD` has them: the levels, the shadow casters, the CPU-only pool. */
  const poolOf = (code: number): number => (code < L ? code : L + 1);
  function full(p: LevelSlots[]): unknown {
    return p.map((s) => {
      s.flush();
      const r = s.mesh?.instanceMatrix.updateRanges ?? [];
      return {
        count: s.count, capacity: s.capacity, live: s.live, bytes: s.bytes, ranges: s.ranges, byteLength: s.byteLength,
        owners: Array.from(s.owners), updateRanges: r.map((x) => [x.start, x.count]),
        matrices: Array.from(s.matrices.subarray(0, s.count * 16)).map((v, k) => (s.owners[k >> 4] < 0 ? 0 : v)),
        colors: s.colors === null ? null : Array.from(s.colors.subarray(0, s.count * 3)).map((v, k) => (s.owners[Math.floor(k / 3)] < 0 ? 0 : v)),
      };
    });
  }

  it('fast-check: ends as reserveForMoves + enterFrom / leave one at a time in changed order', () => {
    const code = fc.oneof({ weight: 3, arbitrary: fc.constant(HIDDEN_LEVEL) }, { weight: 1, arbitrary: fc.constantFrom(0, 1, 2) });
    let withHoles = 0, grew = 0;
    fc.assert(fc.property(fc.array(code, { minLength: n, maxLength: n }), fc.array(fc.tuple(fc.nat({ max: n - 1 }), code), { minLength: 1, maxLength: 600, size: 'max' }),
      fc.nat({ max: 60 }), fc.boolean(), fc.constantFrom(16, 200), (start, moves, removed, colored, capacity) => {
        const make = (): LevelSlots[] => Array.from({ length: L + 2 }, (_, k) => (k === L + 1 ? new LevelSlots(null, null, capacity) : new LevelSlots(geometry, material, capacity)));
        const a = make(), b = make();
        if (colored) for (const s of [...a, ...b]) s.enableColor();
        const slotA = new Int32Array(n), slotB = new Int32Array(n), m = new Float32Array(16);
        for (let id = 0; id < n; id++) {
          for (let k = 0; k < 16; k++) m[k] = id * 16 + k;
          slotA[id] = a[poolOf(start[id])].enterMatrix(id, m, 0); slotB[id] = b[poolOf(start[id])].enterMatrix(id, m, 0);
          if (colored) { a[poolOf(start[id])].setColor(slotA[id], id, -id, 0.5); b[poolOf(start[id])].setColor(slotB[id], id, -id, 0.5); }
        }
        const levelOf = Uint8Array.from(start);
        // Instances removed from the CPU-only pool earlier: holes it keeps, taken by nothing in the batch.
        const gone = new Set<number>();
        for (let r = 0; r < removed; r++) {
          const id = (r * 7919) % n;
          if (levelOf[id] !== HIDDEN_LEVEL || gone.has(id)) continue;
          gone.add(id); a[L + 1].leave(slotA[id]); b[L + 1].leave(slotB[id]);
        }
        for (const p of [a, b]) for (const s of p) s.compact(p === a ? slotA : slotB);
        for (const p of [a, b]) for (const s of p) s.flush();
        // The batch: hidden instances drawn at a level or listed unchanged; drawn ones listed unchanged.
        const levels = Uint8Array.from(levelOf), order: number[] = [], seen = new Set<number>();
        for (const [id, to] of moves) {
          if (seen.has(id) || gone.has(id)) continue;
          seen.add(id); order.push(id);
          if (levelOf[id] === HIDDEN_LEVEL) levels[id] = to;
        }
        const changed = Uint32Array.from(order), cc = changed.length;
        expect(leavesCpuPoolOnly(a, L, changed, cc, levels, levelOf)).toBe(true);
        const codeA = Uint8Array.from(levelOf), codeB = Uint8Array.from(levelOf), before = a.map((s) => s.capacity);
        if (a[L + 1].freeSlots > 0) withHoles++;
        a[L + 1].moveAllOut(a, L, changed, cc, levels, codeA, slotA, new Int32Array(2 * (L + 1)));
        reserveForMoves(b, L, changed, cc, levels, codeB, new Int32Array(2 * (L + 1)));
        for (const id of changed) {
          if (levels[id] === codeB[id]) continue;
          const from = b[poolOf(codeB[id])], s = slotB[id];
          slotB[id] = b[levels[id]].enterFrom(id, from, s); from.leave(s);
          codeB[id] = levels[id];
        }
        if (a.some((s, k) => s.capacity !== before[k])) grew++;
        expect(Array.from(codeA)).toEqual(Array.from(codeB));
        expect(Array.from(slotA)).toEqual(Array.from(slotB));
        expect(full(a)).toEqual(full(b));
        // The CPU-only pool's holes in the same order: later entrants take the same slots.
        for (let k = 0; k < 5; k++) expect(a[L + 1].claim(n + k)).toBe(b[L + 1].claim(n + k));
      }), { seed: 0x3a11, numRuns: 100 });
    expect(withHoles).toBeGreaterThan(30); // (the CPU-only pool kept holes from removals)
    expect(grew).toBeGreaterThan(20); // (level pools grew in the batch)
  });

  it('leavesCpuPoolOnly: false for a change into the CPU-only pool or between levels, or a level pool with holes', () => {
    const p = Array.from({ length: L + 2 }, (_, k) => (k === L + 1 ? new LevelSlots(null, null, 16) : new LevelSlots(geometry, material, 16)));
    const m = new Float32Array(16), slotOf = new Int32Array(4);
    const levelOf = Uint8Array.from([HIDDEN_LEVEL, 0, 1, HIDDEN_LEVEL]);
    for (let id = 0; id < 4; id++) slotOf[id] = p[poolOf(levelOf[id])].enterMatrix(id, m, 0);
    const all = Uint32Array.from([0, 1, 2, 3]);
    const check = (levels: number[]): boolean => leavesCpuPoolOnly(p, L, all, 4, Uint8Array.from(levels), levelOf);
    expect(check([2, 0, 1, 0])).toBe(true);
    expect(check([2, 0, 1, HIDDEN_LEVEL])).toBe(true); // (unchanged entries are skipped)
    expect(check([2, HIDDEN_LEVEL, 1, 0])).toBe(false); // drawn → hidden
    expect(check([2, 2, 1, 0])).toBe(false); // level → level
    expect(check([L, 0, 1, 0])).toBe(false); // (not a level: the shadow casters' pool)
    p[1].leave(slotOf[2]);
    expect(check([2, 0, 1, 0])).toBe(false); // level 1 has a hole
  });
});
