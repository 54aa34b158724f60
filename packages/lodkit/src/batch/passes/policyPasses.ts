/**
 * Per-object passes of the rankQuota, budget and hybrid policies: classification, rank groups, the
 * hybrid minimum cost and blend rule, and the finalize pass that writes `levels`,
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
  classifyRange(st, null, null, 0, n, culledIsInfinity);
}

/**
 * The body of {@link classifyPass} (`list` null: ids `[from, to)`) and of classifyList (ids
 * `slotId[list[k]]`, `k` in `[from, to)`; the list holds no removed object, so only the id range
 * tests the removed flag).
 */
export function classifyRange(
  st: FrameState, list: Uint32Array | null, slotId: Uint32Array | null, from: number, to: number, culledIsInfinity: boolean,
): void {
  const flags = st.flags, work = st.work, profileIds = st.profileIds, forced = st.forced, levels = st.levels;
  const lastChange = st.lastChange, next = st.next, fixed = st.fixed, sizes = st.sizes;
  const lc = st.levelCount, loA = st.lo, hiA = st.hi, costs = st.costs, stride = st.stride;
  const minFrames = st.minFrames, frame = st.frame;
  let hidden = 0, invalid = 0, minimumCost = 0;
  for (let k = from; k < to; k++) {
    const i = list === null ? k : (slotId as Uint32Array)[list[k]];
    const fl = flags[i];
    if (list === null && (fl & 2)) { next[i] = 255; fixed[i] = 2; continue; }
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
  finalizeRange(st, null, null, null, n);
}

/**
 * The body of {@link finalizePass} (`list` null: ids `[0, n)`) and of finalizeList (ids
 * `slotId[list[k]]`, `k < n`, with the slot copy `levelsS` kept in step; the list holds no removed
 * object, so only the id range tests the removed flag).
 */
export function finalizeRange(
  st: FrameState, list: Uint32Array | null, slotId: Uint32Array | null, levelsS: Uint8Array | null, n: number,
): void {
  const next = st.next, levels = st.levels, flags = st.flags, changed = st.changed, lastChange = st.lastChange;
  const profileIds = st.profileIds, costs = st.costs, stride = st.stride, levelCounts = st.levelCounts;
  const frame = st.frame;
  let changedCount = 0, totalCost = 0;
  for (let k = 0; k < n; k++) {
    const s = list === null ? k : list[k], i = slotId === null ? s : slotId[s];
    if (list === null && (flags[i] & 2)) continue;
    const level = next[i];
    if (level !== levels[i]) {
      changed[changedCount++] = i;
      lastChange[i] = frame;
      levels[i] = level;
      if (levelsS !== null) levelsS[s] = level;
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
 * When the preferred (thresholds') levels fit: the minimum cost, adjustable objects at
 * `minLevels[profile]` when it is coarser than their preferred level — `st.floor` (hybrid: the
 * quality floor) or `st.hi` (budget: the coarsest allowed level).
 */
export function preferredMinimumCost(st: FrameState, n: number, minLevels: Uint8Array): void {
  const fixed = st.fixed, flags = st.flags, next = st.next, profileIds = st.profileIds, costs = st.costs;
  const floorA = minLevels, s = st.stride;
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
 * hybrid below the minimum cost (every adjustable object at its quality floor is already over the
 * budget): adjustable objects finer than the floor move to it, the others keep their preferred
 * level (saved in `st.preferred` for {@link clearCoarsenedBlend}).
 */
export function coarsenToFloor(st: FrameState, n: number): void {
  const fixed = st.fixed, next = st.next, preferred = st.preferred, profileIds = st.profileIds, floorA = st.floor;
  for (let i = 0; i < n; i++) {
    const pref = next[i];
    preferred[i] = pref;
    if (fixed[i] === 0 && pref < floorA[profileIds[i]]) next[i] = floorA[profileIds[i]];
  }
}

/** hybrid: objects moved away from their preferred level do not blend. */
export function clearCoarsenedBlend(st: FrameState, n: number): void {
  const fixed = st.fixed, next = st.next, preferred = st.preferred, blend = st.blend;
  for (let i = 0; i < n; i++) {
    if (fixed[i] === 0 && next[i] !== preferred[i]) blend[i] = 0;
  }
}
