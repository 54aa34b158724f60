/**
 * Blends a thresholds frame changed in slot order only and copies to the public id-ordered `blend`
 * when they can be observed ("owed").
 *
 * In a clustered thresholds frame (sizes in slot order; the calling thread's kernel, also for the
 * chunks it takes in worker-thread mode) and in the first pass of a clustered hybrid frame the
 * fused kernel decides the steady slots 4 at a time; ≈ 15,000 objects of the 1M tree field and
 * ≈ 30,000 of the 1M random-order spheres change their blend in a frame (bench/probes.ts
 * `blend-read`). Storing each at its id scatters over a 4 MB array (ids follow creation order,
 * slots the spatial order). The kernel instead keeps the value in the slot copy
 * (`ClusterIndex.blendS`, which every cluster path reads and writes), marks the slot in
 * `blendOwedS` and lists it once in `blendOwedList`. Every other writer keeps both copies equal
 * (the JavaScript kernels, the workers' too, and the hybrid and budget passes write `blendS` and
 * `blend` together, or clear both when `blendS` is not 0),
 * so "not owed ⇒ `blend[slotId[s]] === blendS[s]`" holds, and copying `blendS` of the listed
 * slots gives exactly the values the frame would have stored. The copy runs, in `settleBlends`:
 * - on a read of `LodSet.blend`;
 * - at the start of every update that is not such a frame (other policies, `clusters: false`:
 *   they read or write `blend` by id) — a run of thresholds frames keeps adding to the same list,
 *   each slot at most once;
 * - before an edit that copies id → slot (`remove`, `setHidden`, `setForcedLevel`: `mirror`) and
 *   before the set grows (the slot arrays move), or the kernel is dropped. `setSphere` and the
 *   additions need none: they touch no blend, or write both copies of a new or reused slot (0).
 * A renderer that reads `blend` every frame pays about what the frame saved (one scattered store
 * per owed slot, in the read instead of the frame); one that does not blend never pays it.
 *
 * @module
 */
import type { ClusterIndex } from '../spatial/clusters.js';
import { OWED_BLEND_COUNT } from '../wasm/wasmKernels.js';

/** Copies the owed blends of `ci` to `blend` (the public id-ordered array) and clears the list. */
export function settleBlends(ci: ClusterIndex, blend: Float32Array): void {
  const f = ci.wasm === null ? null : ci.wasm.fused;
  if (f === null) return;
  const q = f.i32, n = q[OWED_BLEND_COUNT];
  if (n === 0) return;
  const list = ci.blendOwedList, owed = ci.blendOwedS, slotId = ci.slotId, blendS = ci.blendS;
  for (let i = 0; i < n; i++) {
    const s = list[i];
    owed[s] = 0;
    blend[slotId[s]] = blendS[s];
  }
  q[OWED_BLEND_COUNT] = 0;
}

/** How many slots of `ci` owe their blend now (0 without the fused kernel). For tests and the bench. */
export function owedBlendCount(ci: ClusterIndex): number {
  const f = ci.wasm === null ? null : ci.wasm.fused;
  return f === null ? 0 : f.i32[OWED_BLEND_COUNT];
}
