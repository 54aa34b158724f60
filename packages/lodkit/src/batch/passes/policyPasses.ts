/**
 * Per-object passes of the rankQuota, budget and hybrid policies: classification, candidate and
 * upgrade-item collection, applying bought upgrades, and the finalize pass that writes `levels`,
 * the changed-id list and the stats.
 *
 * Contributor notes:
 * - Every pass is a standalone module function over the {@link FrameState} arrays rather than a
 *   `LodSet` method: as methods, V8 (Node 20) on-stack-replaced the 100k-iteration loops and then
 *   deoptimised at the first property store after the loop on EVERY frame ("insufficient type
 *   feedback"), so each frame ran partly in the interpreter and allocated heap numbers. As small
 *   functions they are optimised once and stay optimised (test/batch/allocation.test.ts).
 * - Literals instead of the named constants inside loops, for the reason given in
 *   thresholdKernels.ts: 1 hidden flag, 2 removed flag, 255 hidden level / no forced level; marks
 *   0 adjustable, 1 fixed, 2 not drawn.
 *
 * @module
 */
import type { FrameState } from '../core/frameState.js';

/**
 * Classifies objects `[0, n)` into `st.next` / `st.fixed`: not drawn (hidden, culled — the metric
 * pass wrote `culledValue` — or removed), fixed (invalid → coarsest allowed; forced; held by
 * `minFramesBetweenChanges`), or adjustable (next = coarsest allowed). Adds hidden/invalid counts
 * and the minimum cost to the stats.
 */
export function classifyPass(st: FrameState, n: number, culledIsInfinity: boolean): void {
  const flags = st.flags, work = st.work, profileIds = st.profileIds, forced = st.forced, levels = st.levels;
  const lastChange = st.lastChange, next = st.next, fixed = st.fixed, sizes = st.sizes;
  const lc = st.levelCount, loA = st.lo, hiA = st.hi, costs = st.costs, stride = st.stride;
  const minFrames = st.minFrames, frame = st.frame;
  let hidden = 0, invalid = 0, minimumCost = 0;
  for (let i = 0; i < n; i++) {
    const fl = flags[i];
    if (fl & 2) { next[i] = 255; fixed[i] = 2; continue; }
    const s = work[i];
    const p = profileIds[i];
    const culled = culledIsInfinity ? s === Number.POSITIVE_INFINITY : s === -1;
    if (fl & 1 || culled) {
      next[i] = 255; fixed[i] = 2; hidden++; sizes[i] = Number.NaN;
      continue;
    }
    let level = 0;
    if (s !== s) {
      level = hiA[p]; fixed[i] = 1; invalid++;
    } else {
      const fo = forced[i];
      const old = levels[i];
      if (fo !== 255) {
        level = fo < lc[p] ? fo : lc[p] - 1; fixed[i] = 1;
      } else if (minFrames > 0 && old !== 255 && old >= loA[p] && old <= hiA[p] && sizes[i] === sizes[i]
        && frame - lastChange[i] < minFrames) {
        level = old; fixed[i] = 1;
      } else {
        level = hiA[p]; fixed[i] = 0;
      }
    }
    next[i] = level;
    minimumCost += costs[p * stride + level];
  }
  st.hidden += hidden; st.invalid += invalid; st.minimumCost += minimumCost;
}

/** Writes `next` into `levels`, collects changed ids (stamping `lastChange`), level counts and total cost. */
export function finalizePass(st: FrameState, n: number): void {
  const next = st.next, levels = st.levels, flags = st.flags, changed = st.changed, lastChange = st.lastChange;
  const profileIds = st.profileIds, costs = st.costs, stride = st.stride, levelCounts = st.levelCounts;
  const frame = st.frame;
  let changedCount = 0, totalCost = 0;
  for (let i = 0; i < n; i++) {
    if (flags[i] & 2) continue;
    const level = next[i];
    if (level !== levels[i]) {
      changed[changedCount++] = i;
      lastChange[i] = frame;
      levels[i] = level;
    }
    if (level !== 255) {
      levelCounts[level]++;
      totalCost += costs[profileIds[i] * stride + level];
    }
  }
  st.changedCount = changedCount;
  st.totalCost = totalCost;
}

/** rankQuota: copies distances into `sizes`, clears `blend`, lists adjustable ids in `st.candidates`; returns their number. */
export function collectRankCandidates(st: FrameState, n: number): number {
  const work = st.work, fixed = st.fixed, candidates = st.candidates, sizes = st.sizes, blend = st.blend;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const f = fixed[i];
    if (f !== 2) {
      sizes[i] = work[i];
      if (f === 0) candidates[m++] = i;
    }
    blend[i] = 0;
  }
  return m;
}

/** rankQuota: turns ranks into levels (clamped to each profile's allowed range; the last group is the coarsest). */
export function applyRanks(st: FrameState, m: number, groups: number): void {
  const candidates = st.candidates, ranks = st.ranks, next = st.next, profileIds = st.profileIds, loA = st.lo, hiA = st.hi;
  for (let q = 0; q < m; q++) {
    const i = candidates[q], p = profileIds[i];
    let level = ranks[i];
    if (level < loA[p]) level = loA[p];
    if (level >= groups || level > hiA[p]) level = hiA[p];
    next[i] = level;
  }
}

/**
 * budget: weights (`work × bias`) into `sizes`, adjustable objects to their chain start, one item per
 * hull step with a positive ratio. Sets `st.baseCost` (cost before upgrades); returns the item count.
 */
export function collectBudgetItems(st: FrameState, n: number, shift: number): number {
  const fixed = st.fixed, work = st.work, next = st.next, profileIds = st.profileIds, sizes = st.sizes, blend = st.blend;
  const costs = st.costs, info = st.chainInfo, chainOf = st.chainOf, chainSlope = st.chainSlope;
  const keys = st.keys, items = st.items, bias = st.bias, s = st.stride;
  let base = 0, m = 0;
  for (let i = 0; i < n; i++) {
    blend[i] = 0;
    const f = fixed[i];
    if (f === 2) continue;
    const p = profileIds[i];
    const w = work[i] * bias;
    sizes[i] = w;
    if (f === 1) { base += costs[p * s + next[i]]; continue; }
    const packed = info[p * s];
    const start = packed & 255, steps = packed >>> 8;
    next[i] = start;
    base += costs[p * s + start];
    const chain = p * s * s;
    chainOf[i] = chain;
    for (let j = 0; j < steps; j++) {
      const key = w * chainSlope[chain + j];
      if (!(key > 0)) break;
      keys[m] = key;
      items[m++] = ((i << shift) | j) >>> 0;
    }
  }
  st.baseCost = base;
  return m;
}

/** Applies the first `bought` items: each object moves to the finest level its bought steps reach. */
export function applyUpgrades(st: FrameState, bought: number, shift: number): void {
  const items = st.items, chainOf = st.chainOf, chainLevel = st.chainLevel, next = st.next;
  const mask = (1 << shift) - 1;
  for (let q = 0; q < bought; q++) {
    const it = items[q];
    const i = it >>> shift;
    const level = chainLevel[chainOf[i] + (it & mask)];
    if (level < next[i]) next[i] = level;
  }
}

/** hybrid, when the preferred levels fit: minimum cost with adjustable objects at their quality floor. */
export function hybridMinimumCost(st: FrameState, n: number): void {
  const fixed = st.fixed, flags = st.flags, next = st.next, profileIds = st.profileIds, costs = st.costs;
  const floorA = st.floor, s = st.stride;
  let minimumCost = 0;
  for (let i = 0; i < n; i++) {
    const f = fixed[i];
    if (f === 2 || (flags[i] & 2)) continue;
    const p = profileIds[i];
    const pref = next[i];
    const level = f === 0 && pref < floorA[p] ? floorA[p] : pref;
    minimumCost += costs[p * s + level];
  }
  st.minimumCost = minimumCost;
}

/**
 * hybrid, over budget: remembers preferred levels, moves adjustable objects to the start of their
 * chain (quality floor → preferred level) and emits one item per step (ratio `w · slope`, 0 for flat
 * steps). Sets `st.minimumCost`; returns the item count.
 */
export function collectHybridItems(st: FrameState, n: number, shift: number): number {
  const fixed = st.fixed, flags = st.flags, next = st.next, profileIds = st.profileIds, costs = st.costs;
  const preferred = st.preferred, floorA = st.floor, weights = st.weights, info = st.chainInfo;
  const chainOf = st.chainOf, chainSlope = st.chainSlope, keys = st.keys, items = st.items;
  const bias = st.bias, s = st.stride;
  let minimumCost = 0, m = 0;
  for (let i = 0; i < n; i++) {
    const f = fixed[i];
    if (f === 2 || (flags[i] & 2)) continue;
    const p = profileIds[i];
    const pref = next[i];
    preferred[i] = pref;
    if (f === 1 || pref >= floorA[p]) { minimumCost += costs[p * s + pref]; continue; }
    const packed = info[p * s + pref];
    const start = packed & 255, steps = packed >>> 8;
    next[i] = start;
    minimumCost += costs[p * s + start];
    const chain = (p * s + pref) * s;
    chainOf[i] = chain;
    let w = weights[i] * bias;
    if (!(w >= 0)) w = 0; // culled in every view but drawn because culling is off
    for (let j = 0; j < steps; j++) {
      const slope = chainSlope[chain + j];
      keys[m] = slope > 0 ? w * slope : 0;
      items[m++] = ((i << shift) | j) >>> 0;
    }
  }
  st.minimumCost = minimumCost;
  return m;
}

/** hybrid: objects moved away from their preferred level do not blend. */
export function clearCoarsenedBlend(st: FrameState, n: number): void {
  const fixed = st.fixed, next = st.next, preferred = st.preferred, blend = st.blend;
  for (let i = 0; i < n; i++) {
    if (fixed[i] === 0 && next[i] !== preferred[i]) blend[i] = 0;
  }
}
