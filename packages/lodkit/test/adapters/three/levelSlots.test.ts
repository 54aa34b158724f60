/**
 * LevelSlots bulk paths (startup, issue 27): `enterMatrices` (addInstances' block append) leaves a
 * pool exactly as `enterMatrix` one instance at a time does — slots, owners, matrices, colours,
 * count, capacity — through any mix of batches, holes, compactions and colour edits (fast-check,
 * fixed seed); `reserve` reaches the capacity that slot-by-slot growth reaches. InstancedLOD's first
 * update reserves its level pools at once and ends at the same capacities; `reserveForMoves` grows
 * every pool, the CPU-only one too (holes kept from earlier batches included), once to the capacity the moves one by one reach
 * (fast-check). The CPU-only pool keeps its holes as free slots; its shrink waits for 32 compactions in a row under 80 % of its
 * capacity and keeps room for their largest count.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoxGeometry, Matrix4, MeshBasicMaterial, PerspectiveCamera, Sphere, Vector3 } from 'three';
import { LevelSlots, reserveForMoves } from '../../../src/adapters/three/levelSlots.js';
import { InstancedLOD } from '../../../src/adapters/three/instancedLOD.js';
import { HIDDEN_LEVEL } from '../../../src/batch/lodSet.js';

const geometry = new BoxGeometry(), material = new MeshBasicMaterial();

type Op =
  | { kind: 'add'; n: number }
  | { kind: 'leave'; picks: number[] }
  | { kind: 'compact' }
  | { kind: 'color'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), n: fc.integer({ min: 0, max: 90 }) }),
  fc.record({ kind: fc.constant('leave' as const), picks: fc.array(fc.nat(), { maxLength: 12 }) }),
  fc.record({ kind: fc.constant('compact' as const) }),
  fc.record({ kind: fc.constant('color' as const), pick: fc.nat() }),
);

/** The state a pool shows from outside: live slots with their owners, matrices and colours. */
function snapshot(s: LevelSlots): unknown {
  const m = s.matrices, c = s.colors;
  return {
    count: s.count, capacity: s.capacity,
    owners: Array.from(s.owners.subarray(0, s.count)),
    matrices: Array.from(m.subarray(0, s.count * 16)),
    colors: c === null ? null : Array.from(c.subarray(0, s.count * 3)),
  };
}

describe('LevelSlots bulk growth', () => {
  for (const mesh of [false, true]) {
    it(`enterMatrices equals enterMatrix one at a time (${mesh ? 'mesh' : 'CPU-only'} pool)`, () => {
      fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
        const make = () => (mesh ? new LevelSlots(geometry, material, 16) : new LevelSlots(null, null, 16));
        const [bulk, single] = [make(), make()];
        const slotA = new Int32Array(4096).fill(-1), slotB = new Int32Array(4096).fill(-1);
        let next = 0, value = 0;
        for (const o of ops) {
          if (o.kind === 'add') {
            const src = new Float32Array(o.n * 16);
            for (let k = 0; k < src.length; k++) src[k] = value++;
            bulk.enterMatrices(next, src, o.n, slotA);
            for (let i = 0; i < o.n; i++) slotB[next + i] = single.enterMatrix(next + i, src, i * 16);
            next += o.n;
          } else if (o.kind === 'leave') {
            // The same live slots leave both pools (holes until compact or the next add).
            for (const p of o.picks) {
              if (single.count === 0) break;
              const slot = p % single.count;
              if (single.owners[slot] < 0) continue;
              expect(bulk.owners[slot]).toBe(single.owners[slot]);
              bulk.leave(slot); single.leave(slot);
            }
          } else if (o.kind === 'compact') {
            bulk.compact(slotA); single.compact(slotB);
          } else {
            for (const s of [bulk, single]) s.enableColor();
            if (single.count > 0) {
              const slot = o.pick % single.count;
              if (single.owners[slot] >= 0) { bulk.setColor(slot, 0.25, 0.5, 0.75); single.setColor(slot, 0.25, 0.5, 0.75); }
            }
          }
          bulk.flush(); single.flush();
          expect(snapshot(bulk)).toEqual(snapshot(single));
          expect(Array.from(slotA.subarray(0, next))).toEqual(Array.from(slotB.subarray(0, next)));
        }
        // Every occupied slot's owner maps back to it.
        for (let slot = 0; slot < bulk.count; slot++) {
          const id = bulk.owners[slot];
          if (id >= 0) expect(slotA[id]).toBe(slot);
        }
      }), { seed: 0x27a11, numRuns: 150 });
    });
  }

  it('reserve grows once, to the capacity slot-by-slot growth reaches', () => {
    for (const mesh of [false, true]) {
      for (const n of [17, 100, 1000, 12_345]) {
        const a = mesh ? new LevelSlots(geometry, material, 16) : new LevelSlots(null, null, 16);
        const b = mesh ? new LevelSlots(geometry, material, 16) : new LevelSlots(null, null, 16);
        a.reserve(n);
        const grown = a.growthBytes;
        const m = new Float32Array(16);
        for (let i = 0; i < n; i++) { a.enterMatrix(i, m, 0); b.enterMatrix(i, m, 0); }
        expect(a.capacity).toBe(b.capacity);
        expect(a.growthBytes).toBe(grown); // no growth after the reservation
        if (mesh) expect(a.growthBytes).toBeLessThanOrEqual(b.growthBytes);
      }
    }
  });

  it('the CPU-only pool shrinks to 1.1 × its count after 32 batches in a row that used under 80 % of its capacity, not at once', () => {
    const s = new LevelSlots(null, null, 16), slotOf = new Int32Array(20_000);
    const src = new Float32Array(20_000 * 16).map((_, i) => i);
    s.enterMatrices(0, src, 20_000, slotOf);
    const full = s.capacity; // 20,000 taken by reserve's growth steps
    for (let id = 0; id < 20_000; id += 2) s.leave(slotOf[id]); // half leave (the first update's moves)
    s.compact(slotOf); // (this batch held every instance before the half left)
    expect(s.live).toBe(10_000);
    expect(s.count).toBe(20_000); // the CPU-only pool keeps its holes as free slots
    expect(s.capacity).toBe(full); // not at once
    for (let k = 1; k < 32; k++) s.compact(slotOf);
    expect(s.capacity).toBe(full); // 31 batches under 80 %
    s.compact(slotOf);
    expect(s.capacity).toBe(11_000); // the 32nd: ceil(10,000 × 1.1), its holes filled first
    expect([s.count, s.freeSlots]).toEqual([10_000, 0]);
    for (let id = 1; id < 20_000; id += 2) expect(Array.from(s.matrices.subarray(slotOf[id] * 16, slotOf[id] * 16 + 16))).toEqual(Array.from(src.subarray(id * 16, id * 16 + 16)));
    // A compaction at ≥ 80 % restarts the count.
    const t = new LevelSlots(null, null, 16), slotOfT = new Int32Array(20_000);
    t.enterMatrices(0, src, 10_000, slotOfT);
    const cap = t.capacity;
    for (let id = 0; id < 5_000; id++) t.leave(slotOfT[id]);
    for (let k = 0; k < 31; k++) t.compact(slotOfT);
    t.enterMatrices(10_000, src, Math.ceil(cap * 0.8) - 5_000, slotOfT); // back to ≥ 80 %
    t.compact(slotOfT);
    for (let id = 10_000; id < 10_000 + 2_000; id++) t.leave(slotOfT[id]);
    for (let k = 0; k < 31; k++) t.compact(slotOfT);
    expect(t.capacity).toBe(cap);
  });

  it('the shrink keeps room for the most slots any of the 32 batches used (a camera jumping back and forth does not regrow it)', () => {
    const s = new LevelSlots(null, null, 16), slotOf = new Int32Array(100_000), m = new Float32Array(16);
    const live: number[] = [];
    let next = 0;
    const setCount = (want: number): void => { // one frame: instances leave or enter, then one compaction
      while (live.length > want) s.leave(slotOf[live.pop()!]);
      while (live.length < want) { const id = next++; live.push(id); slotOf[id] = s.enterMatrix(id, m, 0); }
      s.compact(slotOf);
    };
    setCount(20_000);
    const full = s.capacity;
    setCount(10_000); // (this batch still held 20,000 before they left)
    for (let k = 0; k < 31; k++) setCount(k % 2 === 0 ? 14_000 : 10_000); // 31 batches under 80 %
    expect(s.capacity).toBe(full);
    setCount(10_000); // the 32nd
    expect(s.capacity).toBe(Math.ceil(14_000 * 1.1)); // not 1.1 × 10,000
    const cap = s.capacity;
    setCount(14_000);
    expect(s.capacity).toBe(cap); // the jump back fits
    for (const id of live) expect(s.owners[slotOf[id]]).toBe(id);
  });

  it('the CPU-only pool keeps its holes as free slots: later entrants take them, nothing is copied, nothing grows', () => {
    const s = new LevelSlots(null, null, 16), slotOf = new Int32Array(3_000);
    const src = new Float32Array(3_000 * 16).map((_, i) => i);
    s.enterMatrices(0, src, 2_000, slotOf);
    const cap = s.capacity, before = Array.from(s.matrices.subarray(0, 2_000 * 16));
    const left = [3, 700, 1_999, 1_200];
    for (const id of left) s.leave(slotOf[id]);
    s.compact(slotOf);
    expect([s.count, s.live, s.freeSlots]).toEqual([2_000, 1_996, 4]);
    // The instances that stayed kept their slots and bytes (no hole was filled from the tail).
    for (let id = 0; id < 2_000; id++) if (!left.includes(id)) expect(slotOf[id]).toBe(id);
    expect(Array.from(s.matrices.subarray(0, 2_000 * 16))).toEqual(before);
    // Entrants take the holes (last freed first), then append.
    s.enterMatrices(2_000, src, 6, slotOf);
    expect(Array.from(slotOf.subarray(2_000, 2_006))).toEqual([1_200, 1_999, 700, 3, 2_000, 2_001]);
    expect([s.count, s.live, s.freeSlots, s.capacity]).toEqual([2_002, 2_002, 0, cap]);
    for (let k = 0; k < 6; k++) expect(Array.from(s.matrices.subarray(slotOf[2_000 + k] * 16, slotOf[2_000 + k] * 16 + 16))).toEqual(Array.from(src.subarray(k * 16, (k + 1) * 16)));
  });

  it('fast-check: reserveForMoves grows each pool once, to the capacity the moves one by one reach, and the moves then grow nothing', () => {
    const L = 3, HIDDEN = HIDDEN_LEVEL, n = 3_000;
    const poolOf = (c: number): number => (c < L ? c : L + 1);
    const code = (hiddenWeight: number): fc.Arbitrary<number> => fc.oneof({ weight: hiddenWeight, arbitrary: fc.constant(HIDDEN) }, { weight: 1, arbitrary: fc.constantFrom(0, 1, 2) });
    // Starts mostly hidden (moves fill the level pools) or mostly drawn (they fill the CPU-only pool).
    const scene = fc.boolean().chain((hiddenFirst) => fc.tuple(
      fc.array(code(hiddenFirst ? 12 : 1), { minLength: n, maxLength: n }),
      fc.array(fc.tuple(fc.nat({ max: n - 1 }), code(hiddenFirst ? 1 : 12)), { minLength: 1, maxLength: 2_500 })));
    let grew = 0;
    let withHoles = 0;
    fc.assert(fc.property(scene, fc.constantFrom(0, 0, 5, 400), ([start, moves], holes) => {
      // Pools exactly full (capacity = count): any slot the moves use beyond the count grows them.
      const counts = [0, 0, 0, 0, 0];
      for (const c of start) counts[poolOf(c)]++;
      const pools = (): LevelSlots[] => counts.map((c, k) => (k === L + 1 ? new LevelSlots(null, null, c) : new LevelSlots(geometry, material, c)));
      const a = pools(), b = pools(), slotA = new Int32Array(n), slotB = new Int32Array(n), m = new Float32Array(16);
      for (let id = 0; id < n; id++) { slotA[id] = a[poolOf(start[id])].enterMatrix(id, m, 0); slotB[id] = b[poolOf(start[id])].enterMatrix(id, m, 0); }
      // The CPU-only pool may start with holes kept from earlier batches (instances removed).
      for (let h = 0; h < holes; h++) {
        const cpu = L + 1, slot = (h * 7919) % Math.max(1, a[cpu].count);
        if (a[cpu].count === 0 || a[cpu].owners[slot] < 0) continue;
        a[cpu].leave(slot); b[cpu].leave(slot); a[cpu].compact(slotA); b[cpu].compact(slotB);
      }
      // One change per instance (to the last code listed for it), in the order first listed.
      const levelOf = Uint8Array.from(start), levels = Uint8Array.from(start), seen = new Set<number>(), order: number[] = [];
      for (const [id, to] of moves) { levels[id] = to; if (!seen.has(id)) { seen.add(id); order.push(id); } }
      const changed = Uint32Array.from(order);
      const move = (p: LevelSlots[], slot: Int32Array, id: number): void => {
        const from = p[poolOf(levelOf[id])], s = slot[id];
        slot[id] = p[poolOf(levels[id])].enterFrom(id, from, s);
        from.leave(s);
      };
      const before = a.map((p) => p.capacity);
      reserveForMoves(a, L, changed, changed.length, levels, levelOf, new Int32Array(2 * (L + 1)));
      const reserved = a.map((p) => p.capacity);
      for (const id of changed) if (levels[id] !== levelOf[id]) { move(a, slotA, id); move(b, slotB, id); }
      expect(a.map((p) => p.capacity)).toEqual(reserved); // the moves grew nothing after the reservation
      expect(reserved).toEqual(b.map((p) => p.capacity)); // = what slot-by-slot growth reached
      if (reserved.some((c, k) => c !== before[k])) grew++;
      if (a[L + 1].freeSlots > 0 || holes > 0) withHoles++;
    }), { seed: 0x28e5, numRuns: 80 });
    expect(grew).toBeGreaterThan(40); // (most scenes grew some pool)
    expect(withHoles).toBeGreaterThan(20);
  });

  it('a matrix copied in bulk is bit-exact (NaN, −0, denormals included)', () => {
    const s = new LevelSlots(null, null, 16), slotOf = new Int32Array(8);
    const src = new Float32Array(32);
    src.set([Number.NaN, -0, 1e-45, Infinity, -Infinity, 3.5], 3);
    s.enterMatrices(0, src, 2, slotOf);
    expect(Array.from(new Uint32Array(s.matrices.buffer, 0, 32))).toEqual(Array.from(new Uint32Array(src.buffer)));
  });
});

describe('InstancedLOD startup paths', () => {
  it('the first update grows each level pool at once, to the capacities of slot-by-slot growth', () => {
    const n = 20_000, side = Math.round(Math.sqrt(n));
    const lod = new InstancedLOD({ levels: [0, 1, 2].map(() => ({ geometry, material })), metric: 'distance', thresholds: [30, 70] });
    const matrices = new Float32Array(n * 16), m = new Matrix4();
    for (let i = 0; i < n; i++) m.makeTranslation((i % side) * 0.7 - side * 0.35, 0, -Math.floor(i / side) * 0.7).toArray(matrices, i * 16);
    lod.addInstances(matrices.subarray(0, 7 * 16)); // a small batch first: the bulk path appends behind it
    lod.addInstances(matrices.subarray(7 * 16));
    const camera = new PerspectiveCamera(60, 1.5, 0.1, 5000);
    camera.position.set(0, 5, 10); camera.lookAt(0, 0, -100); camera.updateMatrixWorld(true);
    lod.update(camera);
    const growthSteps = (count: number): number => { let cap = 1024; while (cap < count) cap = Math.max(cap + 1, Math.ceil(cap * 1.5)); return cap; };
    let drawn = 0;
    for (const mesh of lod.levelMeshes) {
      expect(mesh.count).toBeGreaterThan(1024); // every level grew in this frame
      expect(mesh.instanceMatrix.count).toBe(growthSteps(mesh.count));
      drawn += mesh.count;
    }
    expect(drawn).toBeGreaterThan(3 * 1024);
    // Every instance still has its own matrix, wherever it is drawn.
    for (let id = 0; id < n; id++) {
      lod.getMatrixAt(id, m);
      expect(Array.from(m.elements), `id ${id}`).toEqual(Array.from(matrices.subarray(id * 16, id * 16 + 16)));
    }
    expect(lod.instanceCount).toBe(n);
  });
});

describe('InstancedLOD bounds', () => {
  it('skipping Sphere.union for instances clearly inside leaves the bounds bit-identical to union over every instance', () => {
    const local = new Sphere(new Vector3(0.1, 0.2, -0.3), 1.5);
    const coord = fc.oneof(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.constantFrom(0, -0, 1e-30));
    const instance = fc.tuple(coord, coord, coord, fc.double({ min: 0.01, max: 20, noNaN: true }), fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }));
    fc.assert(fc.property(fc.array(instance, { minLength: 1, maxLength: 120 }), fc.integer({ min: 1, max: 3 }), (list, batches) => {
      const lod = new InstancedLOD({ levels: [{ geometry, material }], metric: 'distance', thresholds: [], sphere: local });
      const m = new Matrix4(), matrices = new Float32Array(list.length * 16);
      list.forEach(([x, y, z, s, a], i) => m.makeRotationY(a).scale(new Vector3(s, s * 0.5, s)).setPosition(x, y, z).toArray(matrices, i * 16));
      const cut = Math.floor(list.length / batches);
      for (let from = 0; from < list.length; from += cut || list.length) lod.addInstances(matrices.subarray(from * 16, Math.min(list.length, from + (cut || list.length)) * 16));
      const want = new Sphere().makeEmpty(), s = new Sphere();
      for (let i = 0; i < list.length; i++) {
        s.copy(local).applyMatrix4(m.fromArray(matrices, i * 16));
        if (want.isEmpty()) want.copy(s); else want.union(s);
      }
      const got = lod.boundingSphere;
      expect([got.center.x, got.center.y, got.center.z, got.radius]).toEqual([want.center.x, want.center.y, want.center.z, want.radius]);
      lod.computeBoundingSphere();
      expect([got.center.x, got.center.y, got.center.z, got.radius]).toEqual([want.center.x, want.center.y, want.center.z, want.radius]);
    }), { seed: 0x27c0, numRuns: 200 });
  });
});
