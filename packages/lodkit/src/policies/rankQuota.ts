/**
 * MotoGP's rank quotas as an array algorithm: order objects by distance from the eye and hand out
 * levels first come, first served — the closest `quotas[0]` objects get level 0, the next
 * `quotas[1]` level 1, …, everyone else the coarsest level.
 *
 * Contributor notes:
 * - No full sort: each quota is one selection (`selectSmallest`) on what the previous quotas left,
 *   so a frame costs O(n · quotas.length) expected instead of O(n log n).
 * - Selection is a quickselect with a median-of-three pivot over an index array, comparing
 *   `(key, id)` lexicographically. Keys are distances, so equal distances are ordered by id and the
 *   result is unique and deterministic. After `2·log2(n) + 8` rounds without converging the pivot
 *   switches to a pseudo-random element (an LCG), which defeats inputs crafted against
 *   median-of-three; ranges of ≤ 16 ids are finished by insertion sort.
 * - Timings (v0.1, per-object path): a whole rankQuota update of 1M spheres with three quotas was
 *   1.7× the per-object thresholds update. Over the spatial clusters `LodSet` runs these selections
 *   only on the objects near last frame's cut distances (src/batch/rankCuts.ts; bench/RESULTS.md).
 *
 * @module
 */

/** True when object `a` precedes object `b`: smaller key, ties by smaller id. */
function precedes(keys: Float64Array, a: number, b: number): boolean {
  const ka = keys[a], kb = keys[b];
  return ka < kb || (ka === kb && a < b);
}

function insertionSort(keys: Float64Array, ids: Uint32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const id = ids[i];
    let j = i - 1;
    while (j >= from && precedes(keys, id, ids[j])) {
      ids[j + 1] = ids[j];
      j--;
    }
    ids[j + 1] = id;
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
 * Rearranges `ids[from … to)` so that its first `k` entries are the `k` ids with the smallest
 * `(keys[id], id)` (in no particular order) and every later entry follows all of them.
 * Expected O(to − from); no allocation.
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
  const target = from + k; // the boundary: ids[from … target) must be the k smallest
  let lo = from, hi = to;
  let rounds = 0;
  const limit = pivotRounds(to - from);
  while (hi - lo > 16) {
    let pivotIndex: number;
    if (++rounds > limit) pivotIndex = randomPivot(lcgState, lo, hi);
    else {
      const mid = lo + ((hi - lo) >> 1);
      const a = ids[lo], b = ids[mid], c = ids[hi - 1];
      if (precedes(keys, a, b)) {
        pivotIndex = precedes(keys, b, c) ? mid : precedes(keys, a, c) ? hi - 1 : lo;
      } else {
        pivotIndex = precedes(keys, a, c) ? lo : precedes(keys, b, c) ? hi - 1 : mid;
      }
    }
    // Lomuto partition around the pivot moved to the end.
    const pivot = ids[pivotIndex];
    ids[pivotIndex] = ids[hi - 1];
    ids[hi - 1] = pivot;
    let store = lo;
    for (let i = lo; i < hi - 1; i++) {
      const id = ids[i];
      if (precedes(keys, id, pivot)) {
        ids[i] = ids[store];
        ids[store] = id;
        store++;
      }
    }
    ids[hi - 1] = ids[store];
    ids[store] = pivot;
    // ids[lo … store) precede the pivot, ids[store + 1 … hi) follow it.
    if (store === target || store + 1 === target) return;
    if (store > target) hi = store;
    else lo = store + 1;
  }
  insertionSort(keys, ids, lo, hi);
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
  let pos = from;
  const groups = quotas.length;
  for (let g = 0; g < groups; g++) {
    let k = quotas[g];
    if (k > to - pos) k = to - pos;
    if (k <= 0) continue;
    selectSmallest(keys, ids, pos, to, k);
    for (let q = pos; q < pos + k; q++) outRank[ids[q]] = g;
    pos += k;
  }
  const rest = groups > 254 ? 254 : groups;
  for (let q = pos; q < to; q++) outRank[ids[q]] = rest;
}
