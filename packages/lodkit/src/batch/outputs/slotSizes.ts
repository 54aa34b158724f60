/**
 * Where the clustered frames keep `sizes` (`ClusterIndex.sizesS`, in the WebAssembly kernel's
 * memory): in slot order, so the kernels store them sequentially instead of scattering them over
 * the id-ordered public array (1M objects in random id order: ≈ 0.6 ms of a frame, and frames 2–4
 * of a new set up to 2 × slower, bench/RESULTS.md "Evening round"). The public array is brought up
 * to date when read (`freshIds`: only the clusters a frame marked, `ClusterIndex.markSizes`) and
 * takes over when a path that writes by id runs (`sizesToIds`).
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import { settleOwed } from './owedSizes.js';

/**
 * Before a frame: sizes in slot order for a clustered frame with the kernel's memory (sequential
 * stores; shared with the workers in worker-thread mode), by id for the per-object path.
 */
export function placeSizes(ci: ClusterIndex, clustered: boolean, ids: Float32Array, slots: number): void {
  if (clustered && ci.sizesS.length !== 0) sizesToSlots(ci, ids, slots);
  else sizesToIds(ci, ids, slots);
}

/** Slot-ordered sizes for the kernels from here on (gathered from the id-ordered `ids` once). */
function sizesToSlots(ci: ClusterIndex, ids: Float32Array, slots: number): void {
  if (ci.sizesInSlots) return;
  const slotId = ci.slotId, out = ci.sizesS;
  for (let s = 0; s < slots; s++) out[s] = ids[slotId[s]];
  ci.sizesInSlots = true; ci.idsFresh = true;
  clearSizesDirty(ci);
}

function clearSizesDirty(ci: ClusterIndex): void {
  const dirty = ci.sizesDirty as Uint8Array, list = ci.sizesDirtyList;
  for (let k = 0; k < ci.sizesDirtyCount; k++) dirty[list[k]] = 0;
  ci.sizesDirtyCount = 0; ci.sizesAllDirty = false;
}

/** Id-ordered sizes from here on (another path runs). */
export function sizesToIds(ci: ClusterIndex, ids: Float32Array, slots: number): void {
  if (!ci.sizesInSlots) return;
  freshIds(ci, ids, slots);
  ci.sizesInSlots = false;
}

/** The id-ordered `ids` brought up to date from `sizesS` when a frame wrote sizes in slot order. */
export function freshIds(ci: ClusterIndex, ids: Float32Array, slots: number): void {
  settleOwed(ci, ids); // values rankQuota / budget left to be computed when read
  if (!ci.sizesInSlots || ci.idsFresh) return;
  const slotId = ci.slotId, from = ci.sizesS;
  if (ci.sizesAllDirty) {
    for (let s = 0; s < slots; s++) ids[slotId[s]] = from[s];
  } else {
    const list = ci.sizesDirtyList, start = ci.start, end = ci.end;
    for (let k = 0; k < ci.sizesDirtyCount; k++) {
      const c = list[k];
      for (let s = start[c], e = end[c]; s < e; s++) ids[slotId[s]] = from[s];
    }
  }
  clearSizesDirty(ci);
  ci.idsFresh = true;
}
