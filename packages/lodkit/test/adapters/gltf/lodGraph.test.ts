/**
 * `LodGraph` and `NodeForest` (src/adapters/gltf/lodGraph.ts): cycles, nesting depth, bounded cycle
 * descriptions and the ancestor test on graphs worked out by hand; linear work proved by counting
 * the steps the `work` seam reports (never by timing); random small graphs against a brute-force
 * reachability reference written here.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CYCLE_SHOWN, LodGraph, NodeForest } from '../../../src/adapters/gltf/lodGraph.js';

/** A graph from a list of level lists (null: no MSFT_lod). */
const graphOf = (lists: (number[] | null)[]): LodGraph => new LodGraph(lists.length, (i) => lists[i]);

/** n owners, owner k → k + 1 (the last one plain), or → (k + 1) mod n when `closed`. */
function chain(n: number, closed = false): (number[] | null)[] {
  return Array.from({ length: n }, (_, k) => (k < n - 1 ? [k + 1] : closed ? [0] : null));
}

/** n owners, owner k → k + 1 … k + width (those < n): the 600 × 254 DAG shape. */
function band(n: number, width: number): (number[] | null)[] {
  return Array.from({ length: n }, (_, k) => {
    const ids: number[] = [];
    for (let d = 1; d <= width && k + d < n; d++) ids.push(k + d);
    return ids.length > 0 ? ids : null;
  });
}

const edgesOf = (lists: (number[] | null)[]): number => lists.reduce((s, l) => s + (l?.length ?? 0), 0);

describe('LodGraph on hand-worked graphs', () => {
  it('a two-node cycle beside a plain owner: both on the cycle, described as the cycle itself', () => {
    // 0 → [2, 3], 3 → [0]: 0 and 3 form the cycle; 1 and 2 are plain.
    const g = graphOf([[2, 3], null, null, [0]]);
    expect([0, 1, 2, 3].map((i) => g.onCycle(i))).toEqual([true, false, false, true]);
    expect(g.describeCycle(0)).toBe('0 → 3 → 0');
    expect(g.describeCycle(3)).toBe('3 → 0 → 3');
    expect(Array.from(g.depth)).toEqual([-1, 0, 0, -1]);
  });

  it('a three-node cycle: every owner is described from itself around the cycle', () => {
    const g = graphOf([[1], [2], [0]]);
    expect(g.describeCycle(0)).toBe('0 → 1 → 2 → 0');
    expect(g.describeCycle(1)).toBe('1 → 2 → 0 → 1');
    expect(g.describeCycle(2)).toBe('2 → 0 → 1 → 2');
  });

  it('nesting depth: plain 0, levels plain 1, one more per nested group; a level on a cycle counts as plain', () => {
    // 0 → [1, 2]; 1 → [2]; 2 → [3]; 3 plain; 4 → [5]; 5 ↔ 6 (cycle).
    const g = graphOf([[1, 2], [2], [3], null, [5], [6], [5]]);
    expect(Array.from(g.depth)).toEqual([3, 2, 1, 0, 1, -1, -1]);
    expect(g.onCycle(4)).toBe(false);
  });

  it('self edges and ids out of range are left out (callers report them first)', () => {
    const g = graphOf([[0, 1, 9], [-1, 1.5]]);
    expect(g.edgeCount).toBe(1);
    expect(g.onCycle(0)).toBe(false);
    expect(Array.from(g.depth)).toEqual([1, 0]);
  });

  it('describing an owner that is not on a cycle is a RangeError', () => {
    expect(() => graphOf([[1], null]).describeCycle(0)).toThrow(RangeError);
  });

  it(`a 4,000-node cycle: each description shows at most ${CYCLE_SHOWN - 3} ids, "…" and the step count`, () => {
    const g = graphOf(chain(4000, true));
    expect(g.describeCycle(0)).toBe('0 → 1 → 2 → 3 → 4 → … → 3997 → 3998 → 3999 → 0 (4000 steps)');
    expect(g.describeCycle(5)).toBe('5 → 6 → 7 → 8 → 9 → … → 2 → 3 → 4 → 5 (4000 steps)');
    expect(g.describeCycle(1)).toBe('1 → 2 → 3 → 4 → 5 → … → 0 → 1 (4000 steps)'); // the tail reaches the root
    expect(g.describeCycle(3998)).toBe('3998 → 3999 → 0 → … → 3995 → 3996 → 3997 → 3998 (4000 steps)');
    // A cycle of exactly CYCLE_SHOWN − 1 nodes (CYCLE_SHOWN ids with the return) is printed whole.
    expect(graphOf(chain(CYCLE_SHOWN - 1, true)).describeCycle(2)).toBe('2 → 3 → 4 → 5 → 6 → 7 → 8 → 9 → 10 → 0 → 1 → 2');
  });
});

describe('LodGraph does linear work (counted, not timed)', () => {
  // Steps per owner and per edge, from the passes in lodGraph.ts: reading ids (1 + ids), the CSR
  // fill (1 + ids), Tarjan (1 per edge + 1 per finish + 1 per member + 1 per edge for depth), the
  // reverse edges (3 per owner + 2 per edge), two breadth-first searches (1 per owner + 1 per edge
  // each) and ≤ 12 per description: ≤ 25 × (owners + edges) with room to spare.
  const C = 25;
  for (const [label, lists] of [
    ['4,000-node chain', chain(4000)],
    ['16,000-node chain', chain(16_000)],
    ['4,000-node cycle', chain(4000, true)],
    ['16,000-node cycle', chain(16_000, true)],
    ['600 × 254 DAG', band(600, 254)],
  ] as const) {
    it(`${label}: build + every cycle described ≤ ${C} × (owners + edges) steps`, () => {
      const g = graphOf(lists as (number[] | null)[]);
      for (let i = 0; i < g.count; i++) if (g.onCycle(i)) g.describeCycle(i);
      const size = g.count + edgesOf(lists as (number[] | null)[]);
      expect(g.work).toBeLessThanOrEqual(C * size);
      expect(g.work).toBeGreaterThanOrEqual(size); // the seam counts real work
    });
  }

  it('the chain and the DAG have the depths worked out by hand', () => {
    const c = graphOf(chain(4000));
    expect(c.depth[0]).toBe(3999);
    expect(c.depth[3999]).toBe(0);
    // Band: owner k reaches 599 in 599 − k steps of +1 (longest path), so depth = 599 − k.
    const d = graphOf(band(600, 254));
    expect(d.depth[0]).toBe(599);
    expect(d.depth[345]).toBe(254);
  });
});

describe('LodGraph against a brute-force reference (property)', () => {
  /** Whether `start` is reachable from its own levels (the old per-owner search, written plainly). */
  function reachesItself(lists: (number[] | null)[], start: number): boolean {
    const seen = new Set<number>();
    const todo = (lists[start] ?? []).filter((v) => v !== start);
    while (todo.length > 0) {
      const v = todo.pop()!;
      if (v === start) return true;
      if (seen.has(v)) continue;
      seen.add(v);
      for (const w of lists[v] ?? []) if (w !== v) todo.push(w);
    }
    return false;
  }

  it('onCycle matches reachability; every description is a closed walk along edges', () => {
    const arb = fc.integer({ min: 1, max: 12 }).chain((n) => fc.array(
      fc.option(fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: 3 }), { nil: null }),
      { minLength: n, maxLength: n },
    ));
    fc.assert(fc.property(arb, (lists) => {
      const g = graphOf(lists);
      for (let i = 0; i < lists.length; i++) {
        expect(g.onCycle(i)).toBe(reachesItself(lists, i));
        if (!g.onCycle(i)) continue;
        const text = g.describeCycle(i);
        if (text.includes('…')) continue; // (≤ 12 owners: walks are short, but a closed walk may be longer)
        const ids = text.split(' → ').map(Number);
        expect(ids[0]).toBe(i);
        expect(ids[ids.length - 1]).toBe(i);
        for (let k = 1; k < ids.length; k++) expect(lists[ids[k - 1]]).toContain(ids[k]);
      }
    }), { numRuns: 300 });
  });
});

describe('NodeForest', () => {
  it('ancestors by pre/post order on a hand-built hierarchy', () => {
    // 0 ⊃ {1 ⊃ {2}, 3}; 4 alone.
    const f = new NodeForest(Int32Array.from([-1, 0, 1, 0, -1]));
    expect(f.isAncestor(0, 2)).toBe(true);
    expect(f.isAncestor(1, 2)).toBe(true);
    expect(f.isAncestor(2, 0)).toBe(false);
    expect(f.isAncestor(1, 3)).toBe(false);
    expect(f.isAncestor(0, 0)).toBe(false);
    expect(f.isAncestor(0, 4)).toBe(false);
  });

  it('a 100,000-deep hierarchy: built in ≤ 6 steps per node, no recursion', () => {
    const n = 100_000;
    const parent = Int32Array.from({ length: n }, (_, i) => i - 1);
    const f = new NodeForest(parent);
    expect(f.isAncestor(0, n - 1)).toBe(true);
    expect(f.isAncestor(n - 1, 0)).toBe(false);
    expect(f.work).toBeLessThanOrEqual(6 * n);
  });

  it('a cycle in children (hostile file) is cut, not followed forever', () => {
    // 0 → 1 → 2 → 0 as parents, 3 below 2.
    const f = new NodeForest(Int32Array.from([2, 0, 1, 2]));
    expect(f.isAncestor(2, 3)).toBe(true);
    expect(f.work).toBeLessThanOrEqual(6 * 4);
  });
});
