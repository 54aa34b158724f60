/**
 * MotoGP's rank quotas as an array algorithm: order objects by distance from the eye and hand out
 * levels first come, first served — the closest `quotas[0]` objects get level 0, the next
 * `quotas[1]` level 1, …, everyone else the coarsest level.
 *
 * Contributor notes:
 * - No full sort: each quota is one selection (`selectSmallest`) on what the previous quotas left,
 *   so a frame costs O(n · quotas.length) expected instead of O(n log n).
 * - Selection is a quickselect with a median-of-three pivot over (key, id) pairs — the keys
 *   gathered into the ids' positions first and moved with them, so a partition reads two arrays in
 *   order — comparing `(key, id)` lexicographically. Keys are distances, so equal distances are
 *   ordered by id and the result is unique and deterministic. After `2·log2(n) + 8` rounds without
 *   converging the pivot switches to a pseudo-random element (an LCG), which defeats inputs crafted
 *   against median-of-three; ranges of ≤ 16 ids are finished by insertion sort.
 * - Timings (v0.1, per-object path): a whole rankQuota update of 1M spheres with three quotas was
 *   1.7× the per-object thresholds update. Over the spatial clusters `LodSet` runs these selections
 *   only on the objects near last frame's cut distances (src/batch/rankCuts.ts; bench/RESULTS.md).
 *
 * @module
 */

/** True when `(ka, a)` precedes `(kb, b)`: smaller key, ties by smaller id. */
function precedes(ka: number, a: number, kb: number, b: number): boolean {
  return ka < kb || (ka === kb && a < b);
}

/** Sorts positions `[from, to)` of the pairs (`vals[j]` the key of `ids[j]`) by (key, id). */
function insertionSort(vals: Float64Array, ids: Uint32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const id = ids[i], v = vals[i];
    let j = i - 1;
    while (j >= from && precedes(v, id, vals[j], ids[j])) {
      ids[j + 1] = ids[j]; vals[j + 1] = vals[j];
      j--;
    }
    ids[j + 1] = id; vals[j + 1] = v;
  }
}

/**
 * Median-of-three rounds a quickselect over `n` entries runs before it takes random pivots
 * (2·log2(n) + 8, in integer arithmetic: no heap numbers before the loop is optimised); with
 * {@link randomPivot}, expected linear time on any input. Shared with budget.ts. @internal
 */
export function pivotRounds(n: number): number {
  let limit = 8;
  for (let k = n; k > 0; k >>>= 1) limit += 2;
  return limit;
}

/** A pseudo-random index in `[lo, hi)` from the caller's LCG state `state[0]` (advanced). @internal */
export function randomPivot(state: Uint32Array, lo: number, hi: number): number {
  const s = (Math.imul(state[0], 1664525) + 1013904223) >>> 0;
  state[0] = s;
  return lo + (s % (hi - lo));
}

const lcgState = Uint32Array.of(0x9e3779b9);

/**
 * {@link selectSmallest} over pairs: `vals[j]` is the key of `ids[j]` and moves with it, so every
 * comparison reads the two arrays in order — not `keys[id]` at random, which cost the exact
 * selection of 400k candidates at 1M objects in random spatial order 60–110 ms (rankCuts.ts).
 * @internal
 */
export function selectSmallestPairs(vals: Float64Array, ids: Uint32Array, from: number, to: number, k: number): void {
  if (k <= 0 || k >= to - from) return;
  const target = from + k; // the boundary: positions [from … target) must hold the k smallest
  let lo = from, hi = to;
  let rounds = 0;
  const limit = pivotRounds(to - from);
  while (hi - lo > 16) {
    let pivotIndex: number;
    if (++rounds > limit) pivotIndex = randomPivot(lcgState, lo, hi);
    else {
      const mid = lo + ((hi - lo) >> 1);
      const a = ids[lo], b = ids[mid], c = ids[hi - 1], va = vals[lo], vb = vals[mid], vc = vals[hi - 1];
      if (precedes(va, a, vb, b)) {
        pivotIndex = precedes(vb, b, vc, c) ? mid : precedes(va, a, vc, c) ? hi - 1 : lo;
      } else {
        pivotIndex = precedes(va, a, vc, c) ? lo : precedes(vb, b, vc, c) ? hi - 1 : mid;
      }
    }
    // Lomuto partition around the pivot moved to the end.
    const pivot = ids[pivotIndex], pv = vals[pivotIndex];
    ids[pivotIndex] = ids[hi - 1]; vals[pivotIndex] = vals[hi - 1];
    ids[hi - 1] = pivot; vals[hi - 1] = pv;
    let store = lo;
    for (let i = lo; i < hi - 1; i++) {
      const id = ids[i], v = vals[i];
      if (precedes(v, id, pv, pivot)) {
        ids[i] = ids[store]; vals[i] = vals[store];
        ids[store] = id; vals[store] = v;
        store++;
      }
    }
    ids[hi - 1] = ids[store]; vals[hi - 1] = vals[store];
    ids[store] = pivot; vals[store] = pv;
    // positions [lo … store) precede the pivot, (store, hi) follow it.
    if (store === target || store + 1 === target) return;
    if (store > target) hi = store;
    else lo = store + 1;
  }
  insertionSort(vals, ids, lo, hi);
}

/** {@link assignQuotaRanks} over pairs (`vals[j]` the key of `ids[j]`, moved with it). @internal */
export function assignQuotaRanksPairs(
  vals: Float64Array, ids: Uint32Array, from: number, to: number, quotas: ArrayLike<number>, outRank: Uint8Array,
): void {
  let pos = from;
  const groups = quotas.length;
  for (let g = 0; g < groups; g++) {
    let k = quotas[g];
    if (k > to - pos) k = to - pos;
    if (k <= 0) continue;
    selectSmallestPairs(vals, ids, pos, to, k);
    for (let q = pos; q < pos + k; q++) outRank[ids[q]] = g;
    pos += k;
  }
  const rest = groups > 254 ? 254 : groups;
  for (let q = pos; q < to; q++) outRank[ids[q]] = rest;
}

/** The keys of `ids[from … to)` in their positions (a scratch that only grows). */
let gathered = new Float64Array(0);
function gatherKeys(keys: Float64Array, ids: Uint32Array, from: number, to: number): Float64Array {
  if (gathered.length < to) gathered = new Float64Array(Math.max(to, gathered.length * 2));
  const out = gathered;
  for (let j = from; j < to; j++) out[j] = keys[ids[j]];
  return out;
}

/**
 * Rearranges `ids[from … to)` so that its first `k` entries are the `k` ids with the smallest
 * `(keys[id], id)` (in no particular order) and every later entry follows all of them.
 * Expected O(to − from); a scratch of `to` keys, kept for later calls.
 *
 * @example
 * ```ts
 * const keys = new Float64Array([5, 1, 4, 1, 3]);
 * const ids = new Uint32Array([0, 1, 2, 3, 4]);
 * selectSmallest(keys, ids, 0, 5, 2); // ids[0..2) = {1, 3}: distance 1, ties by id
 * ```
 * @category Policies
 */
export function selectSmallest(keys: Float64Array, ids: Uint32Array, from: number, to: number, k: number): void {
  if (k <= 0 || k >= to - from) return;
  selectSmallestPairs(gatherKeys(keys, ids, from, to), ids, from, to, k);
}

/**
 * Assigns quota ranks: `ids[from … to)` are candidate objects, `keys[id]` their distance. The
 * first `quotas[0]` by `(distance, id)` get rank 0, the next `quotas[1]` rank 1, …; the rest get
 * rank `quotas.length`. Ranks are written to `outRank[id]`. Expected O(n · quotas.length).
 *
 * @example
 * ```ts
 * // MotoGP: 4 closest high, next 6 medium, the rest low.
 * assignQuotaRanks(distances, candidates, 0, n, [4, 6], ranks);
 * ```
 * @category Policies
 */
export function assignQuotaRanks(
  keys: Float64Array, ids: Uint32Array, from: number, to: number, quotas: ArrayLike<number>, outRank: Uint8Array,
): void {
  assignQuotaRanksPairs(gatherKeys(keys, ids, from, to), ids, from, to, quotas, outRank);
}
