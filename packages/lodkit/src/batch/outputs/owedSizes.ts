/**
 * Sizes a frame proved it does not need and computes only when they are observed ("owed").
 *
 * rankQuota and budget report every drawn object's own value in `sizes` (the eye distance; the
 * projected diameter in px). For a cluster they decide as a whole — its distance interval inside
 * one band between rank windows; its size interval inside one stable range of its objects' level —
 * nothing in the frame reads those values, so the frame records the cluster and the few numbers
 * the formula needs (eye, and for pixels the view's height factor, pixel scale, bias and viewport
 * cap) instead of computing 64 square roots. The values are computed, with the same operations in
 * the same order as the frame's own inline code, the first time anything can observe them:
 * - a read of `LodSet.sizes` (slotSizes.ts `freshIds` settles first);
 * - an update that reads last frame's sizes (thresholds and hybrid hysteresis, a hold rule of
 *   `minFramesBetweenChanges`, the per-object path) — `LodSet.update` settles before it runs;
 * - an edit that changes what the formula would read: `setSphere`, `add` into a reused slot,
 *   `remove`, growing the set (only the touched cluster is settled).
 * So the values read are bit for bit the ones the frame would have written.
 *
 * An update that overwrites or re-owes every owed value — rankQuota and budget without hold frames
 * visit every live cluster: culled ones get NaN, visible ones their values or a new debt with this
 * frame's numbers — drops the old debt at its start instead of paying it.
 *
 * Literals in loops: flag bit 2 removed (such a slot keeps NaN).
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import { OWED_DISTANCE, OWED_NONE, type OwedSizes } from '../spatial/owedSizesTable.js';

/** Starts this frame's debt of `kind` (the old one was settled or dropped); params follow. */
export function beginOwing(ci: ClusterIndex, kind: number, ex: number, ey: number, ez: number): void {
  const o = ci.owed;
  o.ensure(ci.count);
  o.kind = kind;
  o.params[0] = ex; o.params[1] = ey; o.params[2] = ez;
}

/** Cluster `c`'s sizes are owed with this frame's params (the frame marked them with `markSizes`). */
export function oweCluster(o: OwedSizes, c: number): void {
  if (o.flag[c] === 0) { o.flag[c] = 1; o.list[o.count++] = c; }
}

/** Forgets the debt: this update writes or re-owes every value in it. */
export function dropOwed(ci: ClusterIndex): void {
  const o = ci.owed, flag = o.flag, list = o.list;
  for (let k = 0; k < o.count; k++) flag[list[k]] = 0;
  o.count = 0; o.kind = OWED_NONE;
}

/**
 * Before an update: the last frame's debt is dropped when this frame `overwrites` every value in
 * it (rankQuota and budget over the clusters without hold frames), else paid (the frame may read
 * the values: hysteresis, the hold rule, the per-object path).
 */
export function owedBeforeFrame(ci: ClusterIndex, ids: Float32Array, overwrites: boolean): void {
  if (ci.owed.count === 0) return;
  if (overwrites) dropOwed(ci);
  else settleOwed(ci, ids);
}

/** Computes every owed value into `ids` (by id) or `ci.sizesS` (slot order), as the frame would have. */
export function settleOwed(ci: ClusterIndex, ids: Float32Array): void {
  const o = ci.owed;
  if (o.count === 0) return;
  const flag = o.flag, list = o.list;
  for (let k = 0; k < o.count; k++) {
    const c = list[k];
    if (flag[c] !== 0) settleCluster(ci, c, ids);
  }
  o.count = 0; o.kind = OWED_NONE;
}

/** Settles cluster `c` when it is owed (before an edit changes what its values read). */
export function settleOwedCluster(ci: ClusterIndex, c: number, ids: Float32Array): void {
  if (ci.owed.count !== 0 && c >= 0 && c < ci.owed.flag.length && ci.owed.flag[c] !== 0) settleCluster(ci, c, ids);
}

function settleCluster(ci: ClusterIndex, c: number, ids: Float32Array): void {
  const o = ci.owed, p = o.params, sp = ci.sp, flagsS = ci.flagsS, slotId = ci.slotId;
  const bySlot = ci.sizesInSlots, sizes = bySlot ? ci.sizesS : ids;
  const ex = p[0], ey = p[1], ez = p[2];
  o.flag[c] = 0;
  if (o.kind === OWED_DISTANCE) {
    for (let s = ci.start[c], e = ci.end[c]; s < e; s++) {
      if (flagsS[s] & 2) continue;
      const q4 = s << 2;
      const qx = sp[q4] - ex, qy = sp[q4 + 1] - ey, qz = sp[q4 + 2] - ez;
      const t = Math.sqrt(qx * qx + qy * qy + qz * qz) - sp[q4 + 3];
      sizes[bySlot ? s : slotId[s]] = t > 0 ? t : 0; // rankCuts.ts rankFeedChunk
    }
  } else {
    const wh = p[3], scale = p[4], bias = p[5], vmax = p[6];
    for (let s = ci.start[c], e = ci.end[c]; s < e; s++) {
      if (flagsS[s] & 2) continue;
      const q4 = s << 2, r = sp[q4 + 3];
      const dx = sp[q4] - ex, dy = sp[q4 + 1] - ey, dz = sp[q4 + 2] - ez;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const raw = (((2 * r) / (d * wh)) * scale) * bias; // budgetIncremental.ts budgetFeedChunk
      sizes[bySlot ? s : slotId[s]] = raw > vmax ? vmax : raw;
    }
  }
}
