/**
 * The end of a clustered hybrid frame (hybridIncremental.ts has its passes and notes): the kernel's
 * settled clusters added to the first collection, the minimum cost within budget, and finalize —
 * levels, the changed list, histogram and total cost over the visible clusters.
 *
 * @module
 */
import { STATE_COARSENED, type ClusterIndex } from '../spatial/clusters.js';
import type { FrameState } from '../core/frameState.js';
import { PREF_FINER, type HybridIncremental } from './hybridIncremental.js';

/**
 * Every live object of cluster `c` not yet at level `L` moves there: levels by id and slot, the
 * changed list from `changedCount` on (returns its new length), `lastChange`.
 */
export function moveCluster(st: FrameState, ci: ClusterIndex, c: number, L: number, changedCount: number): number {
  const flagsS = ci.flagsS, levelsS = ci.levelsS, slotId = ci.slotId, levels = st.levels, changed = st.changed, lastChange = st.lastChange, frame = st.frame;
  let n = changedCount;
  for (let s = ci.start[c], e = ci.end[c]; s < e; s++) {
    if ((flagsS[s] & 2) !== 0 || levelsS[s] === L) continue;
    const i = slotId[s];
    changed[n++] = i; lastChange[i] = frame; levels[i] = L; levelsS[s] = L;
  }
  return n;
}

/**
 * Cluster `c` ends with every object adjustable at `level`, coarser than the level `u` all of them
 * prefer, blend 0: STATE_COARSENED, so pass A can skip it while every value still maps to `u`.
 */
function coarsened(hy: HybridIncremental, state: Uint8Array, c: number, level: number, u: number): void {
  state[c] = STATE_COARSENED; hy.clevel[c] = level; hy.cpref[c] = u;
}

/** After the first collection: the totals of the clusters the kernel settled (see `KernelSettled`). */
export function addKernelSettled(hy: HybridIncremental, levels: number): void {
  const k = hy.kernel.acc, acc = hy.acc, lc = hy.listing.counts;
  acc[0] += k[0]; acc[1] += k[1] - k[0]; acc[3] += k[1]; hy.stableObjects += k[2];
  for (let l = 0; l < levels; l++) lc[l] += k[3 + l];
}

/** Cluster `c`'s minimum cost per object: drawn adjustable objects at `minLevels[profile]` when coarser than their preferred level. */
function clusterMinimum(st: FrameState, ci: ClusterIndex, c: number, minLevels: Uint8Array): number {
  const flagsS = ci.flagsS, profS = ci.profS, fixed = st.fixed, next = st.next, costs = st.costs, stride = st.stride;
  let cost = 0;
  for (let s = ci.start[c], e = ci.end[c]; s < e; s++) {
    if (flagsS[s] & 2) continue;
    const f = fixed[s];
    if (f === 2) continue;
    const p = profS[s], pref = next[s], m = minLevels[p];
    cost += costs[p * stride + (f === 0 && pref < m ? m : pref)];
  }
  return cost;
}

/**
 * After pass A: the minimum cost over the visible clusters, adjustable objects at
 * `minLevels[profile]` when coarser than their preferred level (`st.floor`: hybrid's quality floor;
 * `st.hi`: budget's coarsest level), as preferredMinimumCost.
 */
export function preferredMinimumWithin(st: FrameState, ci: ClusterIndex, hy: HybridIncremental, minLevels: Uint8Array): void {
  const clusters = ci.visibleClusters, profile = ci.profile, live = ci.live, upref = hy.upref, ustable = hy.ustable;
  const costs = st.costs, floorA = minLevels, stride = st.stride;
  let minimumCost = 0;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k], u = upref[c];
    ustable[c] = 255;
    if (u !== 255) {
      const p0 = profile[c], floor = floorA[p0];
      minimumCost += live[c] * costs[p0 * stride + (u < floor ? floor : u)];
      continue;
    }
    minimumCost += clusterMinimum(st, ci, c, minLevels);
  }
  st.minimumCost = minimumCost;
}

/**
 * An upper bound of hybrid's minimum cost after pass A, per visible cluster (no per-object work
 * where it can be avoided): a cluster of one profile without forced objects costs at most `live ×
 * cost(floor)` — an adjustable object ends at its floor or coarser, an invalid one at its coarsest
 * allowed level, a hidden one costs 0; without hold frames no object is kept finer. Other clusters
 * (mixed profiles, forced objects, hold frames) are summed per object as preferredMinimumWithin.
 */
export function minimumUpperBound(st: FrameState, ci: ClusterIndex): number {
  const clusters = ci.visibleClusters, profile = ci.profile, live = ci.live, forcedCount = ci.forcedCount;
  const costs = st.costs, floorA = st.floor, stride = st.stride, holds = st.minFrames > 0;
  let bound = 0;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k], p0 = profile[c];
    bound += !holds && p0 !== 0xffff && forcedCount[c] === 0 ? live[c] * costs[p0 * stride + floorA[p0]] : clusterMinimum(st, ci, c, floorA);
  }
  return bound;
}

/**
 * A lower bound of hybrid's minimum cost after pass A, per visible cluster: the exact minimum of the
 * clusters whose objects all prefer one level (`upref`: each ends at it or at its floor) or all end
 * at their preferred level (`chains` 2: `prefCost`), 0 for the others (some objects may be hidden or
 * culled).
 */
export function minimumLowerBound(st: FrameState, ci: ClusterIndex, hy: HybridIncremental): number {
  const clusters = ci.visibleClusters, profile = ci.profile, live = ci.live, upref = hy.upref, chainsA = hy.chains, prefCost = hy.prefCost;
  const costs = st.costs, floorA = st.floor, stride = st.stride;
  let bound = 0;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k], u = upref[c];
    if (u !== 255) { const p0 = profile[c], f = floorA[p0]; bound += live[c] * costs[p0 * stride + (u < f ? f : u)]; } else if (chainsA[c] === 2) bound += prefCost[c];
  }
  return bound;
}

/**
 * A lower bound of hybrid's minimum cost from pass A's preferred histogram (`st.levelCounts`, read
 * before finalize resets it), for frames without hold frames: an object preferring level l ends at l,
 * or at its floor when that is coarser (only hold frames keep one coarser still), so it costs at
 * least the least `cost(max(l, floor))` over the profiles. Decides "below the minimum" where the
 * per-cluster bound cannot (clusters with chains count 0 there).
 */
export function preferredHistogramBound(st: FrameState, profiles: number): number {
  const counts = st.levelCounts, costs = st.costs, floorA = st.floor, stride = st.stride, levelCountA = st.levelCount;
  let bound = 0;
  for (let l = 0; l < stride; l++) {
    const n = counts[l];
    if (n === 0) continue;
    let least = Infinity;
    for (let p = 0; p < profiles; p++) {
      if (l >= levelCountA[p]) continue;
      const c = costs[p * stride + (l < floorA[p] ? floorA[p] : l)];
      if (c < least) least = c;
    }
    if (least < Infinity) bound += n * least;
  }
  return bound;
}

/**
 * Within budget: every object at its preferred level — levels into `levels` over the visible
 * clusters (`levelsS` kept in step), the changed list (reset first), histogram, total cost — and,
 * for hybrid, in the same visit, the minimum cost with adjustable objects at their quality floor
 * when coarser than their preferred level, as preferredMinimumWithin. A budget frame's thresholds
 * try keeps pass A's minimum (adjustable objects at the coarsest level, fixed ones at theirs: the
 * kernels sum it as this loop would).
 */
export function preferredFinalize(st: FrameState, ci: ClusterIndex, hy: HybridIncremental): void {
  const clusters = ci.visibleClusters, startA = ci.start, endA = ci.end, flagsS = ci.flagsS, slotId = ci.slotId;
  const levelsS = ci.levelsS, profS = ci.profS, profile = ci.profile, live = ci.live, state = ci.state;
  const upref = hy.upref, chainsA = hy.chains, prefCost = hy.prefCost, ulevel = hy.ulevel;
  const levels = st.levels, next = st.next, fixed = st.fixed, changed = st.changed, lastChange = st.lastChange;
  const costs = st.costs, stride = st.stride, levelCounts = st.levelCounts, frame = st.frame;
  const budgetTry = !hy.hybridPass, um = hy.free, freeA = um.flag, floorA = st.floor;
  let changedCount = 0, totalCost = 0, minimumCost = 0;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k], u = upref[c];
    if (u !== 255) { // every object adjustable at its preferred level u (blend 0)
      if (state[c] !== u) { // (state u: skipped by pass A, every object already there)
        changedCount = moveCluster(st, ci, c, u, changedCount);
        state[c] = u; // each decided freely outside every blend window, blend 0: the thresholds path's state u
      }
      const p0 = profile[c], m = floorA[p0];
      levelCounts[u] += live[c];
      totalCost += live[c] * costs[p0 * stride + u];
      minimumCost += live[c] * costs[p0 * stride + (u < m ? m : u)]; // (unread in a budget try)
      continue;
    }
    if (chainsA[c] === 2) { // every object keeps its level (histogram: keptCounts); none prefers finer than its floor
      totalCost += prefCost[c];
      if (ulevel[c] !== 255) state[c] = ulevel[c]; // one level, decided freely: the thresholds path's state
      minimumCost += prefCost[c]; // (no object finer than its floor; a budget try's kernel ran without one: unread there)
      continue;
    }
    // The thresholds path's state when every object is at the one level all of them prefer freely (ulevel).
    const ul = ulevel[c];
    const fr = budgetTry ? 0 : freeA[c]; // (FreeClusters: their histogram and minimum are added below)
    if (fr === 2) { totalCost += prefCost[c]; state[c] = ul !== 255 ? ul : 254; continue; }
    if (fr === 1) totalCost += prefCost[c]; // (its objects visited for the changes only)
    let allAt = ul !== 255 ? 1 : 0;
    for (let s = startA[c], e = endA[c]; s < e; s++) {
      if (flagsS[s] & 2) continue;
      const level = next[s];
      if (level !== levelsS[s]) {
        const i = slotId[s];
        changed[changedCount++] = i; lastChange[i] = frame; levels[i] = level; levelsS[s] = level;
      }
      if (level !== ul) allAt = 0;
      if (fr === 0 && level !== 255) {
        const p = profS[s];
        levelCounts[level]++;
        totalCost += costs[p * stride + level];
        if (!budgetTry && fixed[s] !== 2) { const m = floorA[p]; minimumCost += costs[p * stride + (fixed[s] === 0 && level < m ? m : level)]; }
      }
    }
    state[c] = allAt === 1 ? ul : 254;
  }
  const kc = hy.keptCounts;
  for (let l = 0; l < st.stride; l++) levelCounts[l] += kc[l];
  if (!budgetTry) { const uc = um.counts; for (let l = 0; l < st.stride; l++) levelCounts[l] += uc[l]; minimumCost += um.minimum; }
  st.changedCount = changedCount;
  st.totalCost = totalCost;
  if (!budgetTry) st.minimumCost = minimumCost;
}

/**
 * Finalize of slots `list[0 … n)` (hybridFinalize's list; passes/hybridBinding.ts's listed objects):
 * a stable one (kind 3) keeps its displayed level, another ends at `next`; an adjustable object
 * that does not end at its preferred level loses its blend; changes, the histogram and the cost are
 * added to `st.changedCount` / `st.changed`, `st.levelCounts` and `st.totalCost`.
 */
export function finalizeSlots(st: FrameState, ci: ClusterIndex, hy: HybridIncremental, list: Int32Array, n: number): void {
  const slotId = ci.slotId, levelsS = ci.levelsS, blendS = ci.blendS, profS = ci.profS, kindS = hy.kindS;
  const levels = st.levels, next = st.next, fixed = st.fixed, preferred = st.preferred, blend = st.blend;
  const changed = st.changed, lastChange = st.lastChange, costs = st.costs, stride = st.stride, levelCounts = st.levelCounts, frame = st.frame;
  let changedCount = st.changedCount, totalCost = st.totalCost;
  for (let r = 0; r < n; r++) {
    const s = list[r], i = slotId[s];
    const level = kindS[s] === 3 ? levelsS[s] : next[s];
    if (fixed[s] === 0 && level !== preferred[s] && blendS[s] !== 0) { blend[i] = 0; blendS[s] = 0; }
    if (level !== levelsS[s]) {
      changed[changedCount++] = i; lastChange[i] = frame; levels[i] = level; levelsS[s] = level;
    }
    if (level !== 255) {
      levelCounts[level]++;
      totalCost += costs[profS[s] * stride + level];
    }
  }
  st.changedCount = changedCount; st.totalCost = totalCost;
}

/**
 * Over budget, after the solve: levels into `levels` over the visible clusters (`levelsS` kept in
 * step), the coarsened objects' blend cleared; the changed list (reset first), histogram, total cost.
 */
export function hybridFinalize(st: FrameState, ci: ClusterIndex, hy: HybridIncremental): void {
  const clusters = ci.visibleClusters, startA = ci.start, endA = ci.end, flagsS = ci.flagsS, slotId = ci.slotId;
  const levelsS = ci.levelsS, blendS = ci.blendS, profS = ci.profS, profile = ci.profile, live = ci.live, state = ci.state;
  const upref = hy.upref, ustable = hy.ustable, kindS = hy.kindS, chainsA = hy.chains, prefCost = hy.prefCost, ulevel = hy.ulevel;
  const listing = hy.listing, listedA = listing.listed, kern = hy.kernel;
  const levels = st.levels, next = st.next, fixed = st.fixed, preferred = st.preferred, blend = st.blend;
  const changed = st.changed, lastChange = st.lastChange, costs = st.costs, stride = st.stride, floorA = st.floor;
  const levelCounts = st.levelCounts, frame = st.frame;
  let changedCount = 0, totalCost = 0;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k], u = upref[c], us = ustable[c];
    if (us !== 255) { // shortcut 2 for the whole cluster: every object keeps us (blend already 0)
      levelCounts[us] += live[c];
      totalCost += live[c] * costs[profile[c] * stride + us];
      if (us === u) state[c] = u; // each at the level it prefers freely: the thresholds path's state
      else coarsened(hy, state, c, us, u);
      continue;
    }
    if (u !== 255 && u >= floorA[profile[c]]) { // every object at its preferred level u (blend 0)
      if (state[c] !== u) { // (state u: skipped by pass A, every object already there)
        changedCount = moveCluster(st, ci, c, u, changedCount);
        state[c] = u; // each decided freely outside every blend window, blend 0: the thresholds path's state u
      }
      levelCounts[u] += live[c];
      totalCost += live[c] * costs[profile[c] * stride + u];
      continue;
    }
    if (u === 255 && chainsA[c] === 2) { // every object keeps its level (histogram below)
      totalCost += prefCost[c];
      if (ulevel[c] !== 255) state[c] = ulevel[c]; // one level, decided freely: the thresholds path's state
      continue;
    }
    if (listedA[c] === 1) { state[c] = kern.settled[c] === 1 ? kern.state[c] : 254; continue; } // its slots: the list below (settled by the kernel: none)
    const chained = u !== 255 || chainsA[c] === 1; // else every object at next = its preferred level
    // The thresholds path's state when every object ends at the one level all of them prefer freely
    // (blend 0): uniform clusters (u) and clusters pass A found so (ulevel).
    const ul = u !== 255 ? u : ulevel[c];
    let allAt = ul !== 255 ? 1 : 0, one = -1; // (one: the level every object ends at, −2 when they differ)
    for (let s = startA[c], e = endA[c]; s < e; s++) {
      if (flagsS[s] & 2) continue;
      const i = slotId[s];
      const level = chained && kindS[s] === 3 ? levelsS[s] : next[s];
      one = one === -1 || one === level ? level : -2;
      if (chained && u === 255 && fixed[s] === 0 && level !== preferred[s] && blendS[s] !== 0) { blend[i] = 0; blendS[s] = 0; }
      const old = levelsS[s];
      if (level !== old) {
        changed[changedCount++] = i; lastChange[i] = frame; levels[i] = level; levelsS[s] = level;
      }
      if (level !== ul) allAt = 0;
      if (level !== 255) {
        levelCounts[level]++;
        totalCost += costs[profS[s] * stride + level];
      }
    }
    state[c] = allAt === 1 ? ul : 254; // (254 also for a cluster pass A skipped in state u and coarsened now)
    if (allAt === 0 && u !== 255 && one >= 0 && one !== 255) coarsened(hy, state, c, one, u); // (blend 0: cleared in pass A)
  }
  { // The listed clusters' slots (chained, u 255): as the loop above; their settled objects are in listing.counts / acc[3].
    const lcounts = listing.counts;
    st.changedCount = changedCount; st.totalCost = totalCost;
    finalizeSlots(st, ci, hy, listing.slots, listing.count);
    changedCount = st.changedCount; totalCost = st.totalCost;
    for (let l = 0; l < st.stride; l++) levelCounts[l] += lcounts[l];
    totalCost += hy.acc[3];
  }
  const kc = hy.keptCounts;
  for (let l = 0; l < st.stride; l++) levelCounts[l] += kc[l];
  st.changedCount = changedCount;
  st.totalCost = totalCost;
}

/**
 * Below the minimum: the floored clusters pass A took whole (hybridIncremental.ts `PREF_FINER`)
 * get their sizes — pass A's values in `workS` × bias, as the uniform clusters get theirs (their
 * levels and blend 0 stand: hybridFinalizeAtFloor keeps them).
 */
export function writeFlooredSizes(st: FrameState, ci: ClusterIndex, hy: HybridIncremental): void {
  const list = hy.floored, startA = ci.start, endA = ci.end, flagsS = ci.flagsS, slotId = ci.slotId, workS = ci.workS;
  const bySlot = ci.sizesInSlots, sizes = bySlot ? ci.sizesS : st.sizes, bias = st.bias, live = ci.live;
  let objects = 0;
  for (let k = 0, n = hy.flooredCount; k < n; k++) {
    const c = list[k];
    for (let s = startA[c], e = endA[c]; s < e; s++) if ((flagsS[s] & 2) === 0) sizes[bySlot ? s : slotId[s]] = workS[s] * bias;
    objects += live[c];
  }
  hy.flooredTotal += objects;
}

/**
 * hybrid below the minimum cost (every adjustable object at its quality floor is already over the
 * budget; no collection ran): as {@link hybridFinalize} within budget, but adjustable objects finer
 * than their floor end at it with blend 0 (coarsenToFloor, clearCoarsenedBlend). A cluster keeps
 * the thresholds path's state only when no object of it moved; one of a single profile whose every
 * object preferred a level finer than its floor is left floored (`PREF_FINER`, pass A may take it
 * whole next frame), as are the floored clusters pass A took whole. Clusters in which the fused
 * kernel's pass A touched no lane (FreeClusters `atFloor`, after a frame below the minimum) are
 * not visited: their histogram and cost were summed in pass A.
 */
export function hybridFinalizeAtFloor(st: FrameState, ci: ClusterIndex, hy: HybridIncremental): void {
  const clusters = ci.visibleClusters, startA = ci.start, endA = ci.end, flagsS = ci.flagsS, slotId = ci.slotId;
  const levelsS = ci.levelsS, blendS = ci.blendS, profS = ci.profS, profile = ci.profile, live = ci.live, state = ci.state;
  const upref = hy.upref, chainsA = hy.chains, prefCost = hy.prefCost, ulevel = hy.ulevel, atFloorA = hy.free.atFloor;
  const levels = st.levels, next = st.next, fixed = st.fixed, blend = st.blend;
  const changed = st.changed, lastChange = st.lastChange, costs = st.costs, stride = st.stride, floorA = st.floor, hiA = st.hi;
  const levelCounts = st.levelCounts, frame = st.frame;
  let changedCount = 0, totalCost = 0, skipped = 0;
  for (let k = 0; k < ci.visibleClusterCount; k++) {
    const c = clusters[k], u = upref[c];
    if (u !== 255) { // every object adjustable, preferring u with blend 0
      const floor = floorA[profile[c]], L = u < floor ? floor : u;
      if (L === u) {
        if (state[c] !== u) { changedCount = moveCluster(st, ci, c, u, changedCount); state[c] = u; }
      } else {
        // (state STATE_COARSENED here: pass A skipped it, every object already at clevel; floored: upref F − 1 stands for finer)
        if (state[c] !== STATE_COARSENED || hy.clevel[c] !== L) changedCount = moveCluster(st, ci, c, L, changedCount);
        coarsened(hy, state, c, L, hy.skippedA[c] === 2 ? PREF_FINER : u);
      }
      levelCounts[L] += live[c];
      totalCost += live[c] * costs[profile[c] * stride + L];
      continue;
    }
    if (chainsA[c] === 2) { // no object prefers a level finer than its floor: every one keeps its level
      totalCost += prefCost[c];
      if (ulevel[c] !== 255) state[c] = ulevel[c];
      continue;
    }
    const af = atFloorA[c];
    if (af !== 0) { // nothing to change (the loop below would find it so; histogram and cost below)
      skipped++;
      if (af === 1) coarsened(hy, state, c, floorA[profile[c]], PREF_FINER);
      else state[c] = 254; // (af 2: some object held, hidden or preferring the floor, so not one level for all: ulevel 255)
      continue;
    }
    const ul = ulevel[c], p0 = profile[c];
    let allAt = ul !== 255 ? 1 : 0, finer = p0 !== 0xffff && ci.forcedCount[c] === 0 ? 1 : 0;
    if (finer === 1 && floorA[p0] === hiA[p0]) {
      // One profile whose floor is its coarsest level, no forced object: every adjustable object
      // ends at F (the loop below, with its cost and histogram per cluster instead of per object).
      const F = floorA[p0];
      let atF = 0;
      for (let s = startA[c], e = endA[c]; s < e; s++) {
        if (flagsS[s] & 2) continue;
        const pref = next[s];
        let level = F;
        if (fixed[s] === 0) {
          atF++;
          if (pref < F) { if (blendS[s] !== 0) { blendS[s] = 0; blend[slotId[s]] = 0; } } else finer = 0;
        } else {
          level = pref; finer = 0;
          if (level !== ul) allAt = 0;
          if (level !== 255) { levelCounts[level]++; totalCost += costs[p0 * stride + level]; }
        }
        if (level !== levelsS[s]) {
          const i = slotId[s];
          changed[changedCount++] = i; lastChange[i] = frame; levels[i] = level; levelsS[s] = level;
        }
      }
      if (atF > 0 && F !== ul) allAt = 0;
      levelCounts[F] += atF;
      totalCost += atF * costs[p0 * stride + F];
      if (finer === 1) coarsened(hy, state, c, F, PREF_FINER);
      else state[c] = allAt === 1 ? ul : 254;
      continue;
    }
    for (let s = startA[c], e = endA[c]; s < e; s++) {
      if (flagsS[s] & 2) continue;
      const i = slotId[s], pref = next[s];
      let level = pref;
      if (fixed[s] === 0 && pref < floorA[profS[s]]) {
        level = floorA[profS[s]];
        if (blendS[s] !== 0) { blend[i] = 0; blendS[s] = 0; }
      } else finer = 0;
      if (level !== levelsS[s]) {
        changed[changedCount++] = i; lastChange[i] = frame; levels[i] = level; levelsS[s] = level;
      }
      if (level !== ul) allAt = 0;
      if (level !== 255) {
        levelCounts[level]++;
        totalCost += costs[profS[s] * stride + level];
      }
    }
    if (finer === 1) coarsened(hy, state, c, floorA[profile[c]], PREF_FINER);
    else state[c] = allAt === 1 ? ul : 254;
  }
  hy.atFloorTotal += skipped;
  const fc = hy.free.floorCounts;
  for (let l = 0; l < st.stride; l++) levelCounts[l] += fc[l];
  totalCost += hy.free.floorCost;
  const kc = hy.keptCounts;
  for (let l = 0; l < st.stride; l++) levelCounts[l] += kc[l];
  st.changedCount = changedCount;
  st.totalCost = totalCost;
}
