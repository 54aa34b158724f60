/**
 * Per-object passes of the budget and hybrid policies under the screen-space-error quality model
 * (src/policies/screenSpaceError.ts): one upgrade chain per adjustable object per frame, built
 * from its projected diameter, the tolerance and the previous level's stability bonus.
 *
 * Contributor notes:
 * - Kept apart from policyPasses.ts (which the rank-quota policy and the thresholds-first part of
 *   hybrid still use) so the two can change independently; the same rules apply: standalone module
 *   functions over typed arrays, literals in loops (2 = not drawn, 1 = fixed, 255 = hidden).
 * - {@link collectScreenSpaceItemsList} is the same body over the spatial clusters' visible slots
 *   (LodSet's clustered budget/hybrid paths): change both together; test/batch/clusterPolicies.test.ts
 *   compares the two paths frame by frame. Two copies on purpose: one body called from both paths
 *   (a loop-invariant list/no-list test) made the per-object budget frame 10–20 % slower in an
 *   interleaved A/B (the type feedback of the two call sites mixes in the shared loop).
 * - Chains live in {@link UpgradeChains} (`ScreenSpaceScratch.chains`): object `i`'s steps at
 *   `i · stride …`, so `chainOf[i] = i · stride` feeds `selectAffordablePrefix` unchanged.
 *
 * @module
 */
import { selectAffordablePrefix } from '../../policies/budget.js';
import { buildObjectChain } from '../../policies/screenSpaceError.js';
import type { ClusterIndex } from '../spatial/clusters.js';
import type { FrameState } from '../core/frameState.js';
import { BudgetRegime } from './budgetRegime.js';
import { protectedFloorKey, pushChainItems, upgradeCeilKey } from './chainItems.js';

const chainParams = new Float64Array(4);

/** Defaults of the screen-space budget options. @category Batch */
export const SCREEN_SPACE_DEFAULTS = {
  /** Screen-space error below this many pixels is invisible (3D Tiles' maximum SSE). */
  tolerance: 1,
  /** Relative stability band (see policies/screenSpaceError.ts). */
  band: 0.4,
  /** Viewport height assumed for a view without `viewportHeight`. */
  viewportHeight: 1080,
} as const;

/**
 * The upgrade chains of one frame, per object (or per slot on the clustered paths): steps of
 * object `i` at `i · stride …`, each with its target level, Δcost and slope (the item's key). What
 * the collections write, the solver reads (`deltaCost`) and the upgrades apply (`level`).
 * @category Batch
 */
export class UpgradeChains {
  level: Uint8Array = new Uint8Array(0);
  deltaCost: Float64Array = new Float64Array(0);
  slope: Float64Array = new Float64Array(0);
  /** Steps per object: the profile table's level stride. */
  stride = 1;

  /** Sizes the arrays for `capacity` objects of at most `stride` levels (no-op when large enough). */
  ensure(capacity: number, stride: number): void {
    this.stride = stride;
    if (this.level.length < capacity * stride) {
      this.level = new Uint8Array(capacity * stride);
      this.deltaCost = new Float64Array(capacity * stride);
      this.slope = new Float64Array(capacity * stride);
    }
  }
}

/** The budget and hybrid policies' state of one set: chains, the options and price of the frame, the budget's regime. @category Batch */
export class ScreenSpaceScratch {
  readonly chains = new UpgradeChains();
  tolerance = 1.5;
  band = 0.5;
  /**
   * The price the stability band works with (px per unit of cost): last frame's {@link price},
   * rising at most (1 + band) / (1 − band) a frame ({@link updatePrice}); 0 when it did not bind.
   */
  lambda = 0.5;
  /** The budget's marginal ratio of the last frame: the best ratio left out (`LodSet.budgetPrice`); 0 when it did not bind. */
  price = 0.5;
  /** Key offset of the protected tier this frame (∞ when none). */
  offset = 0.5;
  /** The least key of this frame's stable objects' steps (budgetStable.ts `setStableFloor`). */
  stableFloor = 0.5;
  /** After a solve: the largest raw key of the protected items left out, −1 when none ({@link protectedCut}). */
  cutKey = 0.5;
  /** After a reduced solve that cut the protected tier: that cut's key (budgetIncremental.ts), the frame's λ when not known (a redone frame: budgetStable.ts noteRedoneCut). */
  cutAt = 0.5;
  /** Largest viewport height of the frame's views: projected diameters are clamped to it. */
  viewportMax = 1080.5;
  /** budget: which regime the last frame drew and when the next tries the thresholds' selection (budgetRegime.ts). */
  readonly regime = new BudgetRegime();

  constructor() {
    this.lambda = 0; this.price = 0; // declared 0.5 above only for V8's double field representation
  }

  /** The budget did not bind (or nothing could be bought): no price. */
  noPrice(): void {
    this.lambda = 0; this.price = 0;
  }

  /** Sizes the chains for `capacity` objects of at most `stride` levels (no-op when large enough). */
  ensure(capacity: number, stride: number): void {
    this.chains.ensure(capacity, stride);
  }
}

/**
 * Budget (`hybrid` false) or hybrid over budget (`hybrid` true): builds each adjustable object's
 * chain, moves it to the chain start and emits one item per step (key = px of loss removed per
 * unit of cost). `diameters` holds projected diameters in px (−1 when culled). Budget: range
 * `[lo, hi]`, writes `st.baseCost`; hybrid: range `[preferred, floor]` (preferred = `next` on
 * entry, saved in `st.preferred`), writes `st.minimumCost`. Returns the item count.
 */
export function collectScreenSpaceItems(
  st: FrameState, sc: ScreenSpaceScratch, diameters: Float64Array, n: number, shift: number, hybrid: boolean,
): number {
  const fixed = st.fixed, next = st.next, profileIds = st.profileIds, sizes = st.sizes, blend = st.blend;
  const costs = st.costs, errors = st.errors, chainOf = st.chainOf, keys = st.keys, items = st.items;
  const levels = st.levels, flags = st.flags, loA = st.lo, hiA = st.hi, floorA = st.floor, preferred = st.preferred;
  const ch = sc.chains, bias = st.bias, s = st.stride, cs = ch.stride, tolerance = sc.tolerance, band = sc.band, vmax = sc.viewportMax;
  const outLevel = ch.level, outCost = ch.deltaCost, outSlope = ch.slope, lambda = sc.lambda;
  const params = chainParams;
  params[1] = tolerance; params[2] = band; params[3] = lambda;
  let base = 0, m = 0;
  const floorKey = protectedFloorKey(band, lambda), ceilKey = upgradeCeilKey(band, lambda);
  for (let i = 0; i < n; i++) {
    if (!hybrid) blend[i] = 0;
    const f = fixed[i];
    if (f === 2 || (flags[i] & 2)) continue;
    const p = profileIds[i];
    const raw = diameters[i] * bias; // NaN for invalid spheres: reported as such in `sizes`
    let w = raw > vmax ? vmax : raw;
    if (!(w >= 0)) w = 0; // culled in every view but drawn because culling is off
    let finest: number, coarsest: number;
    if (hybrid) {
      const pref = next[i];
      preferred[i] = pref;
      if (f === 1 || pref >= floorA[p]) { base += costs[p * s + pref]; continue; }
      finest = pref; coarsest = floorA[p];
    } else {
      sizes[i] = raw > vmax ? vmax : raw;
      if (f === 1) { base += costs[p * s + next[i]]; continue; }
      finest = loA[p]; coarsest = hiA[p];
    }
    params[0] = w;
    const packed = buildObjectChain(costs, errors, p * s, coarsest, finest, levels[i], hybrid, params, outLevel, outCost, outSlope, i * cs);
    const start = packed & 255, steps = packed >>> 8;
    next[i] = start;
    base += costs[p * s + start];
    chainOf[i] = i * cs;
    m = pushChainItems(keys, items, m, outLevel, outSlope, i * cs, steps, levels[i], floorKey, ceilKey, i, shift); // (the band's rules: chainItems.ts)
  }
  finishItems(st, sc, m);
  if (hybrid) st.minimumCost = base;
  else st.baseCost = base;
  return m;
}

/** Moves the protected tier (negative keys) above every other key ({@link setTierOffset}). */
function finishItems(st: FrameState, sc: ScreenSpaceScratch, m: number): void {
  setTierOffset(st, sc);
  const offset = sc.offset;
  if (offset === Number.POSITIVE_INFINITY) return;
  const keys = st.keys;
  for (let q = 0; q < m; q++) { const k = keys[q]; if (k < 0) keys[q] = offset - k; }
}

/**
 * This frame's offset of the protected tier into `sc.offset` (∞ without a tier: band or price 0):
 * twice an upper bound of every chain step's key, from the profiles, the band, the price, the
 * tolerance and the viewport clamp. A step's key is Δbenefit / Δcost (buildObjectChain): Δbenefit
 * is at most the keep bonus `band · max(e·w, tolerance)`, plus a loss `e·w`, plus the price term
 * `band · λ · (cost range)`; Δcost at least the profile's smallest gap between two costs. Why a
 * bound and not the largest key collected: the tier's keys `offset + key` are then rounded the same
 * way whichever objects have chains, so the incremental paths order them as the per-object path
 * does (budgetIncremental.ts `reducedSolve`).
 */
export function setTierOffset(st: FrameState, sc: ScreenSpaceScratch): void {
  const band = sc.band, lambda = sc.lambda;
  if (!(band > 0 && lambda > 0)) { sc.offset = Number.POSITIVE_INFINITY; return; }
  const costs = st.costs, errors = st.errors, s = st.stride, counts = st.levelCount, w = sc.viewportMax, tolerance = sc.tolerance;
  let bound = 0;
  for (let p = 0; p < counts.length; p++) {
    const n = counts[p], off = p * s;
    let eMax = 0, cMin = costs[off], cMax = costs[off], gap = Number.POSITIVE_INFINITY;
    for (let a = 0; a < n; a++) {
      const e = errors[off + a], c = costs[off + a];
      if (e > eMax) eMax = e;
      if (c < cMin) cMin = c;
      if (c > cMax) cMax = c;
      for (let b = 0; b < a; b++) { const d = c - costs[off + b], g = d < 0 ? -d : d; if (g > 0 && g < gap) gap = g; }
    }
    if (!(gap < Number.POSITIVE_INFINITY)) continue; // (one cost: no step)
    const sse = eMax * w, keep = band * (sse > tolerance ? sse : tolerance);
    const k = (keep + sse + band * lambda * (cMax - cMin)) / gap;
    if (k > bound) bound = k;
  }
  sc.offset = bound * 2 + 1e-300;
}

/**
 * {@link collectScreenSpaceItems} over the visible slots of the spatial clusters (`ci.visible[0 …
 * count)`, ids through `ci.slotId`): the same per-object body, so the same chains, keys and items
 * (in slot order; the solver's order is by key, then item, so the bought set is the same). Budget
 * also clears the slot copy of blend (`ci.blendS`). Objects of clusters culled as a whole get no item.
 */
export function collectScreenSpaceItemsList(
  st: FrameState, sc: ScreenSpaceScratch, diameters: Float64Array, ci: ClusterIndex, count: number, shift: number, hybrid: boolean,
): number {
  const list = ci.visible, slotId = ci.slotId, blendS = ci.blendS;
  const fixed = st.fixed, next = st.next, profileIds = st.profileIds, sizes = st.sizes, blend = st.blend;
  const costs = st.costs, errors = st.errors, chainOf = st.chainOf, keys = st.keys, items = st.items;
  const levels = st.levels, flags = st.flags, loA = st.lo, hiA = st.hi, floorA = st.floor, preferred = st.preferred;
  const ch = sc.chains, bias = st.bias, s = st.stride, cs = ch.stride, tolerance = sc.tolerance, band = sc.band, vmax = sc.viewportMax;
  const outLevel = ch.level, outCost = ch.deltaCost, outSlope = ch.slope, lambda = sc.lambda;
  const params = chainParams;
  params[1] = tolerance; params[2] = band; params[3] = lambda;
  let base = 0, m = 0;
  const floorKey = protectedFloorKey(band, lambda), ceilKey = upgradeCeilKey(band, lambda);
  for (let k = 0; k < count; k++) {
    const slot = list[k], i = slotId[slot];
    if (!hybrid) { blend[i] = 0; blendS[slot] = 0; }
    const f = fixed[i];
    if (f === 2 || (flags[i] & 2)) continue;
    const p = profileIds[i];
    const raw = diameters[i] * bias;
    let w = raw > vmax ? vmax : raw;
    if (!(w >= 0)) w = 0;
    let finest: number, coarsest: number;
    if (hybrid) {
      const pref = next[i];
      preferred[i] = pref;
      if (f === 1 || pref >= floorA[p]) { base += costs[p * s + pref]; continue; }
      finest = pref; coarsest = floorA[p];
    } else {
      sizes[i] = raw > vmax ? vmax : raw;
      if (f === 1) { base += costs[p * s + next[i]]; continue; }
      finest = loA[p]; coarsest = hiA[p];
    }
    params[0] = w;
    const packed = buildObjectChain(costs, errors, p * s, coarsest, finest, levels[i], hybrid, params, outLevel, outCost, outSlope, i * cs);
    const start = packed & 255, steps = packed >>> 8;
    next[i] = start;
    base += costs[p * s + start];
    chainOf[i] = i * cs;
    m = pushChainItems(keys, items, m, outLevel, outSlope, i * cs, steps, levels[i], floorKey, ceilKey, i, shift);
  }
  finishItems(st, sc, m);
  if (hybrid) st.minimumCost = base;
  else st.baseCost = base;
  return m;
}

/**
 * A budget below the minimum cost (every drawn object at its coarsest allowed level is already
 * over it): no chain is built and nothing is bought. Over objects `[0, n)` (`list` null) or the
 * visible slots `list[0 … n)` (ids through `slotId`, the slot copy of blend `blendS` cleared too):
 * blend 0 and `sizes` as the collection writes them; `next` stays the classification's, so
 * adjustable objects end at their coarsest allowed level. Sets the price to 0.
 */
export function drawCoarsest(st: FrameState, sc: ScreenSpaceScratch, diameters: Float64Array, list: Uint32Array | null,
  slotId: Uint32Array | null, blendS: Float32Array | null, n: number): void {
  const fixed = st.fixed, flags = st.flags, sizes = st.sizes, blend = st.blend, bias = st.bias, vmax = sc.viewportMax;
  for (let k = 0; k < n; k++) {
    const s = list === null ? k : list[k], i = slotId === null ? s : slotId[s];
    blend[i] = 0;
    if (blendS !== null) blendS[s] = 0;
    if (fixed[i] === 2 || (flags[i] & 2)) continue;
    const raw = diameters[i] * bias;
    sizes[i] = raw > vmax ? vmax : raw;
  }
  noteBelowMinimum(st, sc);
}

/** A budget frame below its minimum cost (`st.minimumCost`): nothing bought, price 0, regime 2 (budgetRegime.ts). */
export function noteBelowMinimum(st: FrameState, sc: ScreenSpaceScratch): void {
  st.baseCost = st.minimumCost;
  sc.noPrice(); sc.regime.boughtAll = false; sc.regime.drawn = 2;
}

/**
 * Applies the first `bought` items: each object moves to the finest level its bought steps reach.
 * `idSlot`: `st.next` is indexed by slot (the clustered hybrid frame), items carry ids.
 */
export function applyScreenSpaceUpgrades(st: FrameState, sc: ScreenSpaceScratch, bought: number, shift: number, idSlot: Uint32Array | null = null): void {
  const items = st.items, chainOf = st.chainOf, chainLevel = sc.chains.level, next = st.next;
  const mask = (1 << shift) - 1;
  for (let q = 0; q < bought; q++) {
    const it = items[q];
    const i = it >>> shift;
    const level = chainLevel[chainOf[i] + (it & mask)];
    const x = idSlot === null ? i : idSlot[i];
    if (level < next[x]) next[x] = level;
  }
}

/**
 * The solve of a budget frame over the `m` collected items: buys the affordable prefix with
 * `budget − base` (`base`: the cost before any upgrade), moves the objects up and sets the price;
 * when even `base` does not fit nothing is bought and the price is 0.
 */
export function buyUpgrades(st: FrameState, sc: ScreenSpaceScratch, m: number, budget: number, base: number, shift: number): void {
  sc.cutKey = -1; // (−1 until this solve cuts the protected tier)
  if (base <= budget) {
    const bought = selectAffordablePrefix(st.keys, st.items, m, budget - base, st.chainOf, sc.chains.deltaCost, shift);
    applyScreenSpaceUpgrades(st, sc, bought, shift);
    updatePrice(st, sc, bought, m, shift);
  } else {
    sc.noPrice(); sc.regime.boughtAll = false;
  }
}

/**
 * Sets the budget's price after a solve (`sc.price`): the largest raw key among the items not
 * bought (`bought … m`), or, when every offered item was bought, the last price × (1 − band) / (1 + band);
 * and the band's price (`sc.lambda`): the same, at most the last one × (1 + band) / (1 − band).
 * Writes the field instead of returning the double: a returned double is a fresh heap number per frame.
 */
export function updatePrice(st: FrameState, sc: ScreenSpaceScratch, bought: number, m: number, shift: number): void {
  sc.regime.boughtAll = bought >= m;
  if (bought >= m) { sc.lambda = sc.lambda * ((1 - sc.band) / (1 + sc.band)); sc.price = sc.lambda; return; }
  const keys = st.keys, offset = sc.offset;
  let k = 0;
  for (let q = bought; q < m; q++) { const v = keys[q]; if (v < offset && v > k) k = v; }
  protectedCut(st, sc, bought, m, shift);
  const price = sc.cutKey > k ? sc.cutKey : k, last = sc.lambda, band = sc.band;
  sc.price = price;
  // The band's price rises at most (1 + band) / (1 − band) a frame, as it decays by the inverse:
  // after a frame whose budget cut the kept levels, the best ratio left out is often a newcomer's
  // passed over for them (≈ 25 × the last price walking back), and at such a price few objects
  // would stay stable and the band would protect few of the levels shown.
  const cap = last * ((1 + band) / (1 - band));
  sc.lambda = band > 0 && last > 0 && price > cap ? cap : price;
}

/**
 * Sets `sc.cutKey` to the largest raw key of the protected items in `bought … m` (−1 when none),
 * read from their chains, not as `tiered key − offset`: the offset is a bound that can exceed the
 * keys by orders of magnitude ({@link setTierOffset}), and the difference keeps only the bits its
 * ulp leaves. The largest raw key has the largest tiered key (adding the offset keeps the order),
 * so only the items with that tiered key are read.
 */
export function protectedCut(st: FrameState, sc: ScreenSpaceScratch, bought: number, m: number, shift: number): void {
  const keys = st.keys, items = st.items, chainOf = st.chainOf, slope = sc.chains.slope, mask = (1 << shift) - 1;
  let top = 0;
  for (let q = bought; q < m; q++) if (keys[q] > top) top = keys[q];
  let k = -1;
  if (top >= sc.offset) {
    for (let q = bought; q < m; q++) {
      if (keys[q] !== top) continue;
      const it = items[q], v = slope[chainOf[it >>> shift] + (it & mask)];
      if (v > k) k = v;
    }
  }
  sc.cutKey = k;
}
