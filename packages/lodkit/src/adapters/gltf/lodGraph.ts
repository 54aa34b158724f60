/**
 * Linear-time checks of the `MSFT_lod` reference graph, shared by `lodkit/gltf`'s reader and the
 * three.js loader plugin: which owners lie on a cycle (with a short, bounded description of one),
 * how deep levels nest (a level that is itself a group, whose level is a group, …), and the node
 * hierarchy's ancestor test. Imports nothing, so the plugin can use it without glTF-Transform.
 *
 * Contributor notes:
 * - Why: the first checks searched from every owner separately and copied the whole path at every
 *   step (≈ cubic): a 4,000-node `MSFT_lod` chain took 36 s to read and a 600 × 254-id DAG
 *   stalled. Here every pass visits each owner and each edge a bounded number of times: Tarjan's
 *   strongly connected components (iterative, so a long chain cannot overflow the stack), the
 *   nesting depth in the order Tarjan finishes the components (sinks first), and one breadth-first
 *   search forward and one backward inside a component the first time one of its owners' cycles is
 *   described. {@link LodGraph.work} counts those steps so that tests can prove the bound.
 * - An owner is "on a cycle" when it lies in a component of two or more owners, i.e. following
 *   `MSFT_lod` edges from its levels leads back to it: exactly what the old per-owner search found.
 *   Self edges are left out (both callers report them as `self-reference` first).
 * - A cycle is described as a closed walk through the owner: from the owner along the backward
 *   search's next hops to the component's root, then down the forward search's tree back to the
 *   owner. On a simple cycle (the usual case) that is the cycle itself, `0 → 3 → 0`. A walk of more
 *   than {@link CYCLE_SHOWN} ids prints its first and last few ids and its length, so reporting
 *   every owner of a 4,000-node cycle is linear output, not quadratic.
 * - The ceilings ({@link LOD_GRAPH_LIMITS}) are checked by the callers against the values computed
 *   here; they are not needed for speed (everything is linear) but keep the groups within what the
 *   batch engine can hold (levels are bytes, at most 255) and refuse absurd nesting.
 *
 * @module
 */

/**
 * Ceilings on `MSFT_lod` groups: `idsPerGroup` ids in one `MSFT_lod.ids` (so at most 255 levels
 * with level 0, the batch engine's `MAX_LEVELS`) and `depth` levels nested within levels (a chain of
 * groups where each one's level is the next group). A file over either is refused in strict mode,
 * the group dropped in lenient mode and by the three.js plugin, with a message naming
 * `nodes[i].extensions.MSFT_lod.ids`.
 * @category glTF
 */
export const LOD_GRAPH_LIMITS = Object.freeze({ idsPerGroup: 254, depth: 1024 });

/** Walks longer than this many ids are printed shortened (first and last few ids, and the length). @category glTF */
export const CYCLE_SHOWN = 12;
const HEAD = 5;
const TAIL = 4;

/**
 * The `MSFT_lod` edges of one owner array (`nodes` or `materials`) with its cycles and nesting
 * depths, computed once in time linear in owners + ids.
 * @example
 * ```ts
 * const graph = new LodGraph(3, (i) => [[1], [0], null][i]); // 0 → 1 → 0, node 2 plain
 * graph.onCycle(0);        // true
 * graph.describeCycle(1);  // '1 → 0 → 1'
 * graph.depth[2];          // 0
 * ```
 * @category glTF
 */
export class LodGraph {
  readonly count: number;
  /**
   * Levels nested below each owner: 0 without edges, 1 when its levels are plain, 1 + the deepest
   * level's depth otherwise (a level on a cycle counts as plain); −1 for an owner on a cycle.
   */
  readonly depth: Int32Array;
  /** Steps taken by every pass so far (owners and edges visited). @internal Test seam: work ≤ c·(owners + edges). */
  work = 0;
  /** Edges kept (ids in range, self edges left out). */
  readonly edgeCount: number;
  private readonly start: Int32Array;
  private readonly edges: Int32Array;
  private readonly component: Int32Array;
  private readonly componentSize: Int32Array;
  private readonly componentRoot: Int32Array;
  // The searches inside a component, made the first time one of its cycles is described.
  private searched: Uint8Array | null = null;
  private towardRoot: Int32Array | null = null;
  private stepsToRoot: Int32Array | null = null;
  private treeParent: Int32Array | null = null;
  private stepsFromRoot: Int32Array | null = null;
  private reverseStart: Int32Array | null = null;
  private reverseEdges: Int32Array | null = null;

  /** `idsOf(i)`: owner `i`'s level ids, or null when it has no (usable) `MSFT_lod`. Ids outside `[0, count)` are skipped. */
  constructor(count: number, idsOf: (owner: number) => ArrayLike<number> | null) {
    this.count = count;
    const start = new Int32Array(count + 1);
    const lists: (ArrayLike<number> | null)[] = new Array(count);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const ids = idsOf(i);
      lists[i] = ids;
      start[i] = total;
      if (ids !== null) for (let k = 0; k < ids.length; k++) if (keep(ids[k], i, count)) total++;
      this.work += 1 + (ids === null ? 0 : ids.length);
    }
    start[count] = total;
    const edges = new Int32Array(total);
    for (let i = 0, e = 0; i < count; i++) {
      const ids = lists[i];
      if (ids !== null) for (let k = 0; k < ids.length; k++) if (keep(ids[k], i, count)) edges[e++] = ids[k];
    }
    this.work += count + total;
    this.start = start;
    this.edges = edges;
    this.edgeCount = total;
    this.component = new Int32Array(count);
    this.componentSize = new Int32Array(count);
    this.componentRoot = new Int32Array(count);
    this.depth = new Int32Array(count);
    this.tarjan();
  }

  /** Whether following `MSFT_lod` edges from `owner`'s levels leads back to `owner`. */
  onCycle(owner: number): boolean {
    return this.componentSize[this.component[owner]] > 1;
  }

  /**
   * A closed walk through `owner` along `MSFT_lod` edges, as ids joined by ` → `
   * (`3 → 0 → 3`); shortened to the first and last few ids and the step count when it has more than
   * {@link CYCLE_SHOWN} ids. Only for owners {@link onCycle}.
   */
  describeCycle(owner: number): string {
    const c = this.component[owner];
    if (this.componentSize[c] < 2) throw new RangeError(`LodGraph.describeCycle: owner ${owner} is not on a cycle`);
    this.search(c);
    const root = this.componentRoot[c];
    const toRoot = this.towardRoot!, parent = this.treeParent!;
    if (owner === root) {
      // Once per component: the root's walk leaves by its last level inside the component (the
      // level the old depth-first search tried first) and follows the next hops back.
      let first = -1;
      for (let e = this.start[root + 1] - 1; e >= this.start[root] && first === -1; e--) {
        this.work++;
        if (this.component[this.edges[e]] === c) first = this.edges[e];
      }
      const walk = [root];
      for (let v = first; v !== root; v = toRoot[v]) { walk.push(v); this.work++; }
      walk.push(root);
      return walk.length <= CYCLE_SHOWN ? walk.join(' → ')
        : `${walk.slice(0, HEAD).join(' → ')} → … → ${walk.slice(-TAIL).join(' → ')} (${walk.length - 1} steps)`;
    }
    const steps = this.stepsToRoot![owner] + this.stepsFromRoot![owner];
    if (steps + 1 <= CYCLE_SHOWN) {
      const walk: number[] = [];
      for (let v = owner; v !== root; v = toRoot[v]) walk.push(v);
      const down: number[] = [];
      for (let v = owner; v !== root; v = parent[v]) down.push(v);
      this.work += walk.length + down.length;
      return [...walk, root, ...down.reverse()].join(' → ');
    }
    // Head: the first ids, along the next hops (they end at the root); tail: the last ids, up the
    // tree (they end at the owner). Both stop at the root and cannot both reach it: a walk of more
    // than CYCLE_SHOWN ids has steps ≥ CYCLE_SHOWN, so one side is longer than HEAD or TAIL.
    const head: number[] = [];
    for (let v = owner; head.length < HEAD; v = toRoot[v]) { head.push(v); if (v === root) break; }
    const tail: number[] = [];
    for (let v = owner; tail.length < TAIL; v = parent[v]) { tail.push(v); if (v === root) break; }
    this.work += head.length + tail.length;
    return `${head.join(' → ')} → … → ${tail.reverse().join(' → ')} (${steps} steps)`;
  }

  /** Iterative Tarjan; each component gets its depth when it is finished (successors first). */
  private tarjan(): void {
    const n = this.count, start = this.start, edges = this.edges;
    const index = new Int32Array(n).fill(-1), low = new Int32Array(n);
    const onStack = new Uint8Array(n), stack = new Int32Array(n), calls = new Int32Array(n), next = new Int32Array(n);
    let counter = 0, top = 0, components = 0;
    for (let s = 0; s < n; s++) {
      if (index[s] !== -1) continue;
      let depth = 0;
      index[s] = low[s] = counter++; stack[top++] = s; onStack[s] = 1; calls[0] = s; next[0] = start[s];
      while (depth >= 0) {
        const v = calls[depth];
        this.work++;
        if (next[depth] < start[v + 1]) {
          const w = edges[next[depth]++];
          if (index[w] === -1) {
            index[w] = low[w] = counter++; stack[top++] = w; onStack[w] = 1;
            depth++; calls[depth] = w; next[depth] = start[w];
          } else if (onStack[w] === 1 && index[w] < low[v]) low[v] = index[w];
          continue;
        }
        depth--;
        if (depth >= 0 && low[v] < low[calls[depth]]) low[calls[depth]] = low[v];
        if (low[v] !== index[v]) continue;
        // v roots a component: pop it; the root kept for descriptions is its smallest owner index.
        const c = components++;
        let size = 0, root = v, w: number;
        do {
          w = stack[--top]; onStack[w] = 0; this.component[w] = c; size++;
          if (w < root) root = w;
        } while (w !== v);
        this.componentSize[c] = size;
        this.componentRoot[c] = root;
        this.work += size;
        if (size > 1) {
          for (let k = top; k < top + size; k++) this.depth[stack[k]] = -1;
          continue;
        }
        let d = 0;
        for (let e = start[v]; e < start[v + 1]; e++) {
          const below = this.depth[edges[e]];
          const through = below < 0 ? 1 : below + 1;
          if (through > d) d = through;
        }
        this.work += start[v + 1] - start[v];
        this.depth[v] = d;
      }
    }
  }

  /** Breadth-first searches from component `c`'s root, forward (tree) and backward (next hops). */
  private search(c: number): void {
    const n = this.count;
    if (this.searched === null) {
      this.searched = new Uint8Array(n);
      this.towardRoot = new Int32Array(n).fill(-1); this.stepsToRoot = new Int32Array(n);
      this.treeParent = new Int32Array(n).fill(-1); this.stepsFromRoot = new Int32Array(n);
      // Reverse edges, built once (counting sort by target).
      const rs = new Int32Array(n + 1), re = new Int32Array(this.edgeCount);
      for (let e = 0; e < this.edgeCount; e++) rs[this.edges[e] + 1]++;
      for (let i = 0; i < n; i++) rs[i + 1] += rs[i];
      const fill = rs.slice(0, n);
      for (let i = 0; i < n; i++) for (let e = this.start[i]; e < this.start[i + 1]; e++) re[fill[this.edges[e]]++] = i;
      this.reverseStart = rs; this.reverseEdges = re;
      this.work += 3 * n + 2 * this.edgeCount;
    }
    if (this.searched[c] === 1) return;
    this.searched[c] = 1;
    const root = this.componentRoot[c], comp = this.component;
    const queue = new Int32Array(this.componentSize[c]);
    const bfs = (from: Int32Array, to: Int32Array, via: Int32Array, steps: Int32Array): void => {
      let head = 0, tail = 0;
      queue[tail++] = root; via[root] = root; steps[root] = 0;
      while (head < tail) {
        const v = queue[head++];
        this.work++;
        for (let e = from[v]; e < from[v + 1]; e++) {
          const w = to[e];
          this.work++;
          if (comp[w] !== c || via[w] !== -1) continue;
          via[w] = v; steps[w] = steps[v] + 1; queue[tail++] = w;
        }
      }
    };
    bfs(this.start, this.edges, this.treeParent!, this.stepsFromRoot!);
    bfs(this.reverseStart!, this.reverseEdges!, this.towardRoot!, this.stepsToRoot!);
  }
}

function keep(id: number, owner: number, count: number): boolean {
  return Number.isInteger(id) && id >= 0 && id < count && id !== owner;
}

/**
 * The node hierarchy (`nodes[].children`) as pre/post-order numbers, so that "is `a` an ancestor
 * of `b`" is two comparisons instead of a walk up the parents (which, per level id, was quadratic
 * in a deep hierarchy). Built in one iterative depth-first pass; a child listed by two parents
 * keeps the one `parentOf` gives, and a cycle in `children` (a hostile file) is cut where the
 * search meets it.
 * @example
 * ```ts
 * const forest = new NodeForest(Int32Array.from([-1, 0, 1])); // 0 ⊃ 1 ⊃ 2
 * forest.isAncestor(0, 2); // true
 * forest.isAncestor(2, 0); // false
 * ```
 * @category glTF
 */
export class NodeForest {
  /** Steps taken (nodes and parent links visited). @internal Test seam. */
  work = 0;
  private readonly enter: Int32Array;
  private readonly leave: Int32Array;

  /** `parentOf[i]`: node `i`'s parent index, or −1 for a root. */
  constructor(parentOf: Int32Array) {
    const n = parentOf.length;
    const childStart = new Int32Array(n + 1), children = new Int32Array(n);
    for (let i = 0; i < n; i++) if (parentOf[i] >= 0) childStart[parentOf[i] + 1]++;
    for (let i = 0; i < n; i++) childStart[i + 1] += childStart[i];
    const fill = childStart.slice(0, n);
    for (let i = 0; i < n; i++) if (parentOf[i] >= 0) children[fill[parentOf[i]]++] = i;
    this.work += 3 * n;
    const enter = new Int32Array(n).fill(-1), leave = new Int32Array(n), mark = new Int32Array(n).fill(-1);
    const calls = new Int32Array(n), next = new Int32Array(n);
    let clock = 0;
    const visit = (root: number): void => {
      let depth = 0;
      enter[root] = clock++; calls[0] = root; next[0] = childStart[root];
      while (depth >= 0) {
        const v = calls[depth];
        this.work++;
        if (next[depth] < childStart[v + 1]) {
          const w = children[next[depth]++];
          if (enter[w] !== -1) continue; // the edge that closes a cycle in `children`
          enter[w] = clock++; depth++; calls[depth] = w; next[depth] = childStart[w];
          continue;
        }
        leave[v] = clock++;
        depth--;
      }
    };
    for (let i = 0; i < n; i++) if (parentOf[i] < 0) visit(i);
    // Nodes not reached from a root hang below a cycle: climb to the cycle and start there.
    for (let i = 0; i < n; i++) {
      if (enter[i] !== -1) continue;
      let v = i;
      while (mark[v] !== i) { mark[v] = i; v = parentOf[v]; this.work++; }
      visit(v);
    }
    this.enter = enter;
    this.leave = leave;
  }

  /** Whether `a` is a strict ancestor of `b`. */
  isAncestor(a: number, b: number): boolean {
    return this.enter[a] < this.enter[b] && this.leave[b] < this.leave[a];
  }
}
