/**
 * The order in which `LodRuntime.flush` hands objects to lodkit's `LodManager`: `LodManager.add`
 * appends each object to the batch engine's last spatial cluster (at most 64 objects), so each run
 * of 64 consecutive registrations becomes one cluster, and the engine culls or skips a cluster only
 * as a whole, from its bounding sphere. This order makes every run compact: the leaves of a k-d tree
 * that splits the longest axis of its box at a multiple of 64 objects, depth first.
 *
 * Contributor notes:
 * - It replaced a Morton (Z-curve) order: a run of 64 consecutive Morton codes may straddle a jump of
 *   the curve, so on the bench's seeded field (10,000 objects, 400 × 400 m) its clusters had radii
 *   of 34 m median, 69 m at the 90th percentile and 240 m at most; these have 23, 27 and 31 m
 *   (bench/RESULTS.md).
 * - Linear-time selection (Wirth's) per split, not a sort: O(n log(n / 64)) at registration.
 *
 * @module
 */

/** Objects per cluster of lodkit's batch engine (its `CLUSTER_SIZE`). */
export const CLUSTER_OBJECTS = 64;

/**
 * A permutation of `n` points (`xyz`: 3 finite numbers per point) in which every run of `leaf`
 * consecutive points, from the first, is spatially compact.
 */
export function compactOrder(xyz: Float64Array, n: number, leaf = CLUSTER_OBJECTS): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  const stack: number[] = [0, n];
  while (stack.length > 0) {
    const hi = stack.pop()!, lo = stack.pop()!;
    if (hi - lo <= leaf) continue;
    let axis = 0, longest = -1;
    for (let a = 0; a < 3; a++) {
      let min = Infinity, max = -Infinity;
      for (let i = lo; i < hi; i++) { const v = xyz[idx[i] * 3 + a]; if (v < min) min = v; if (v > max) max = v; }
      if (max - min > longest) { longest = max - min; axis = a; }
    }
    const mid = lo + Math.floor(Math.ceil((hi - lo) / leaf) / 2) * leaf;
    select(idx, xyz, axis, lo, hi - 1, mid);
    stack.push(lo, mid, mid, hi);
  }
  return idx;
}

/** Reorders idx[lo…hi] (inclusive) so that idx[k] is the k-th by `axis`, none after it smaller, none before it larger. */
function select(idx: Uint32Array, xyz: Float64Array, axis: number, lo: number, hi: number, k: number): void {
  let l = lo, r = hi;
  while (l < r) {
    const x = xyz[idx[k] * 3 + axis];
    let i = l, j = r;
    do {
      while (xyz[idx[i] * 3 + axis] < x) i++;
      while (x < xyz[idx[j] * 3 + axis]) j--;
      if (i <= j) { const t = idx[i]; idx[i] = idx[j]; idx[j] = t; i++; j--; }
    } while (i <= j);
    if (j < k) l = i;
    if (k < i) r = j;
  }
}
