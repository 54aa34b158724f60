/**
 * The cost-budget solver: a multiple-choice knapsack (Funkhouser & Séquin 1993, "Adaptive display
 * algorithm for interactive frame rates during visualization of complex virtual environments").
 * Every object starts at its cheapest allowed level; its finer levels are reached through the steps
 * of the upper convex hull of its (cost, benefit) points, and the steps of all objects are bought in
 * order of Δbenefit/Δcost (ties by object id, then step) until the first one that does not fit.
 *
 * Benefit model: `benefit(level) = w · (error[start] − error[level])` where `w` is the object's
 * on-screen size (projected diameter ÷ window height, max over views, × bias) and `error` the
 * profile's per-level relative error. A step's ratio is therefore `w · slope` with
 * `slope = Δerror / Δcost` a property of the profile alone, so hulls are built once per profile.
 *
 * Since issue 14 `LodSet`'s budget and hybrid policies use per-object chains over the
 * screen-space-error loss (`screenSpaceError.ts`: a tolerance makes the loss non-linear in size, so
 * a profile's chain is no longer the same for every object); `selectAffordablePrefix` is shared,
 * and `buildUpgradeChain` stays for linear benefit models with per-profile chains.
 *
 * Contributor notes:
 * - "Stop at the first upgrade that does not fit" (rather than skipping it and trying cheaper ones)
 *   makes the result a prefix of one total order; a small change in sizes moves the boundary by a
 *   few steps instead of reshuffling which objects fill the remaining budget — no flicker.
 * - That prefix is found without sorting: `selectAffordablePrefix` is a weighted quickselect that
 *   partitions the (ratio, item) pairs around a pivot, sums the cost of the better side and recurses
 *   into the side that holds the boundary. Expected O(m) for m steps. Each item's cost is gathered
 *   beside it first and moves with it, so the sums read in order (selectAffordablePrefixCosts).
 * - Because a concave hull's slopes do not increase, an object's steps appear in chain order in the
 *   total order and the bought steps of an object are always a prefix of its chain. That is the
 *   greedy of the LP relaxation (Sinha & Zoltners 1979) truncated at the first fractional item, so
 *   its benefit is at least LP optimum − (benefit of one step).
 * - The order test "key descending, then item ascending" is written out inline: as a helper taking
 *   doubles it was not always inlined, and every call then boxed its arguments (allocation).
 * - Items are packed as `(id << shift) | step` in a `Uint32Array`; ids must stay below `2^(32−shift)`.
 *
 * @module
 */
import { pivotRounds, randomPivot } from './rankQuota.js';

/**
 * Builds the upgrade chain of one profile between `start` (the coarsest level allowed; the chain
 * actually starts at the finest level that costs the same) and `finest`, by gift-wrapping the upper
 * hull of `(cost, −error)`: from the current level take the finer level with the largest
 * `Δerror / Δcost` (ties: the finer level). Steps with slope 0 are kept only when `keepFlat`.
 * Writes each step's target level, Δcost and slope at `outOffset …` and returns
 * `(stepCount << 8) | chainStartLevel`.
 *
 * @example
 * ```ts
 * // costs [100, 30, 10, 1], errors [0, 0.05, 0.2, 1]
 * const packed = buildUpgradeChain(costs, errors, 0, 3, 0, false, lv, dc, sl, 0);
 * packed & 255; // 3: start at the coarsest level
 * packed >> 8;  // steps on the hull
 * ```
 * @category Policies
 */
export function buildUpgradeChain(
  costs: Float64Array, errors: Float64Array, profileOffset: number, start: number, finest: number, keepFlat: boolean,
  outLevel: Uint8Array, outDeltaCost: Float64Array, outSlope: Float64Array, outOffset: number,
): number {
  const c0 = costs[profileOffset + start];
  let current = start;
  while (current > finest && costs[profileOffset + current - 1] === c0) current--;
  for (let l = finest; l <= current; l++) hullBenefit[l] = -errors[profileOffset + l];
  return walkUpperHull(costs, hullBenefit, profileOffset, current, finest, keepFlat, outLevel, outDeltaCost, outSlope, outOffset);
}

/** buildUpgradeChain's benefits (−error), by level. */
const hullBenefit = new Float64Array(256);

/**
 * The gift-wrapping walk of both chain builders ({@link buildUpgradeChain}, `buildObjectChain` in
 * screenSpaceError.ts): from level `start` toward `finest` over the upper hull of
 * `(cost, benefit[level])`, always to the finer level of largest Δbenefit/Δcost (ties: the finer)
 * while that slope is positive, or zero with `keepFlat`. Writes each step's level, Δcost and slope
 * at `out… + outOffset` and returns `(steps << 8) | start`. No allocation.
 * @internal
 */
export function walkUpperHull(
  costs: Float64Array, benefit: Float64Array, profileOffset: number, start: number, finest: number, keepFlat: boolean,
  outLevel: Uint8Array, outDeltaCost: Float64Array, outSlope: Float64Array, outOffset: number,
): number {
  let current = start, steps = 0;
  while (current > finest) {
    const cc = costs[profileOffset + current], cb = benefit[current];
    let best = -1, bestSlope = 0;
    for (let l = current - 1; l >= finest; l--) {
      const dc = costs[profileOffset + l] - cc;
      if (!(dc > 0)) continue; // equal cost: reached through a later step or dominated
      const slope = (benefit[l] - cb) / dc;
      if ((slope > 0 || (keepFlat && slope === 0)) && (best < 0 || slope >= bestSlope)) { bestSlope = slope; best = l; }
    }
    if (best < 0) break;
    outLevel[outOffset + steps] = best;
    outDeltaCost[outOffset + steps] = costs[profileOffset + best] - cc;
    outSlope[outOffset + steps] = bestSlope;
    steps++;
    current = best;
  }
  return (steps << 8) | start;
}

const lcgState = Uint32Array.of(0x2545f491);

/** The items' costs in their positions (a scratch that only grows). */
let gatheredCosts = new Float64Array(0);

/**
 * Reorders `keys[0 … m)` / `items[0 … m)` (swapped together) so that the longest prefix of the
 * total order "key descending, item ascending" whose summed cost fits in `capacity` comes first,
 * and returns its length. An item's cost is `chainCost[chainOf[item >>> shift] + (item & mask)]`.
 * Expected O(m); a scratch of `m` costs, kept for later calls.
 *
 * @example
 * ```ts
 * const bought = selectAffordablePrefix(keys, items, m, budget - baseCost, chainOf, deltaCost, 3);
 * // items[0 … bought) are the upgrades to apply
 * ```
 * @category Policies
 */
export function selectAffordablePrefix(
  keys: Float64Array, items: Uint32Array, m: number, capacity: number,
  chainOf: Uint32Array, chainCost: Float64Array, shift: number,
): number {
  if (gatheredCosts.length < m) gatheredCosts = new Float64Array(Math.max(m, gatheredCosts.length * 2));
  const costs = gatheredCosts, mask = (1 << shift) - 1;
  for (let q = 0; q < m; q++) { const it = items[q]; costs[q] = chainCost[chainOf[it >>> shift] + (it & mask)]; }
  return selectAffordablePrefixCosts(keys, items, costs, m, capacity);
}

/**
 * {@link selectAffordablePrefix} with each item's cost beside it: `costs[q]` is the cost of
 * `items[q]` and moves with it, so a partition sums its costs in order instead of reading
 * `chainCost[chainOf[item]]` at random (two dependent reads per item).
 * @internal
 */
export function selectAffordablePrefixCosts(
  keys: Float64Array, items: Uint32Array, costs: Float64Array, m: number, capacity: number,
): number {
  let lo = 0, hi = m;
  // `× 1` types the parameter as a number, so `remaining` stays an unboxed double in optimised code
  // (merging the raw parameter into the loop variable made V8 box it on every update).
  let remaining = capacity * 1;
  let rounds = 0;
  const limit = pivotRounds(m);
  while (hi - lo > 16) {
    let pivotIndex: number;
    if (++rounds > limit) pivotIndex = randomPivot(lcgState, lo, hi);
    else {
      const mid = lo + ((hi - lo) >> 1), last = hi - 1;
      const ka = keys[lo], kb = keys[mid], kc = keys[last];
      const ia = items[lo], ib = items[mid], ic = items[last];
      const ab = ka > kb || (ka === kb && ia < ib);
      const bc = kb > kc || (kb === kc && ib < ic);
      const ac = ka > kc || (ka === kc && ia < ic);
      if (ab) pivotIndex = bc ? mid : ac ? last : lo;
      else pivotIndex = ac ? lo : bc ? last : mid;
    }
    const last = hi - 1;
    const pk = keys[pivotIndex], pi = items[pivotIndex], pc = costs[pivotIndex];
    keys[pivotIndex] = keys[last]; items[pivotIndex] = items[last]; costs[pivotIndex] = costs[last];
    keys[last] = pk; items[last] = pi; costs[last] = pc;
    let store = lo;
    let sum = 0;
    for (let q = lo; q < last; q++) {
      const k = keys[q], it = items[q];
      if (k > pk || (k === pk && it < pi)) {
        const c = costs[q];
        keys[q] = keys[store]; items[q] = items[store]; costs[q] = costs[store];
        keys[store] = k; items[store] = it; costs[store] = c;
        store++;
        sum += c;
      }
    }
    keys[last] = keys[store]; items[last] = items[store]; costs[last] = costs[store];
    keys[store] = pk; items[store] = pi; costs[store] = pc;
    if (sum > remaining) {
      hi = store; // the boundary lies among the items before the pivot
      continue;
    }
    remaining -= sum;
    if (pc > remaining) return store;
    remaining -= pc;
    lo = store + 1;
  }
  // Insertion-sort the last range and scan it in order.
  for (let q = lo + 1; q < hi; q++) {
    const k = keys[q], it = items[q], c = costs[q];
    let j = q - 1;
    while (j >= lo && (k > keys[j] || (k === keys[j] && it < items[j]))) {
      keys[j + 1] = keys[j]; items[j + 1] = items[j]; costs[j + 1] = costs[j];
      j--;
    }
    keys[j + 1] = k; items[j + 1] = it; costs[j + 1] = c;
  }
  for (let q = lo; q < hi; q++) {
    const c = costs[q];
    if (c > remaining) return q;
    remaining -= c;
  }
  return hi;
}
