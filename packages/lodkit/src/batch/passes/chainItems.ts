/**
 * The stability band's two rules for knapsack items, in one place for every budget and hybrid
 * collection (screenSpacePasses.ts, budgetIncremental.ts, hybridIncremental.ts): which steps of an
 * object's upgrade chain become items, and which of those are protected.
 *
 * - An upgrade past the previous level must beat last frame's price λ by the band: a step finer
 *   than the previous level with a key below `(1 + band) · λ` ends the chain's items (else the
 *   object would pop for a gain the price does not show).
 * - A step not finer than the previous level still worth `(1 − band) · λ` is protected: its key is
 *   stored negated, and the solve moves every negative key above all others (screenSpacePasses.ts
 *   `setTierOffset`, budgetIncremental.ts `reducedSolve`), so a newcomer cannot push a stable
 *   object out.
 *
 * @module
 */

/** The key from which an incumbent step is protected: `(1 − band) · λ`, or 0 (none) without a band or a price. */
export function protectedFloorKey(band: number, lambda: number): number {
  return band > 0 && lambda > 0 ? (1 - band) * lambda : 0;
}

/** The key an upgrade past the previous level must reach: `(1 + band) · λ`, or 0 without a band. */
export function upgradeCeilKey(band: number, lambda: number): number {
  return band > 0 ? (1 + band) * lambda : 0;
}

/**
 * Appends the items of one chain — `steps` steps at `at …` of `level` / `slope` (buildObjectChain's
 * output), previous level `prev` (255: none) — to `keys` / `items` from index `m`: item
 * `(id << shift) | step`, key the step's slope, negated when protected. Returns the new count.
 */
export function pushChainItems(keys: Float64Array, items: Uint32Array, m: number, level: Uint8Array, slope: Float64Array,
  at: number, steps: number, prev: number, floorKey: number, ceilKey: number, id: number, shift: number): number {
  for (let j = 0; j < steps; j++) {
    const key = slope[at + j];
    if (prev !== 255 && level[at + j] < prev && key < ceilKey) break;
    keys[m] = floorKey > 0 && prev !== 255 && level[at + j] >= prev && key >= floorKey ? -key : key;
    items[m++] = ((id << shift) | j) >>> 0;
  }
  return m;
}
