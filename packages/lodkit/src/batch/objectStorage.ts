/**
 * Storage of `LodSet`'s objects: ids (a LIFO free list, then growth), growing the set (the
 * structure-of-arrays object arrays of its {@link FrameState} — over `SharedArrayBuffer`s in
 * worker-thread mode, so the workers see the same memory — and the cluster slots), resetting the
 * per-object state of fresh ids, and sizing the policies' scratch arrays.
 *
 * Contributor notes:
 * - Runs at `add`/`addMany`/`setThreads` and on the first update of a policy, never in a
 *   steady-state frame: `ensureScratch` only allocates when capacity or the profile stride grew
 *   (test/batch/allocation.test.ts).
 * - Growth settles the deferred outputs first (owed sizes and blends, sizes kept in slot order):
 *   the arrays they would be written to are replaced.
 *
 * @module
 */
import { HIDDEN_LEVEL, NO_FORCED_LEVEL, type FrameState } from './core/frameState.js';
import type { ProfileTable } from './core/profiles.js';
import type { ScreenSpaceScratch } from './passes/screenSpacePasses.js';
import type { LodPolicy } from './core/updateOptions.js';
import { settleOwed } from './outputs/owedSizes.js';
import { settleBlends } from './outputs/owedBlends.js';
import { sizesToIds } from './outputs/slotSizes.js';
import type { SetEngine } from './setEngine.js';
import { restartThreads } from './workerMode.js';

/**
 * Most objects a set can hold: 2²⁸ (`LodSet.MAX_CAPACITY`). The packed spheres take 16 bytes per
 * object and one typed array holds at most 4 GiB in Node 20 / V8.
 */
export const MAX_CAPACITY = 2 ** 28;

/** A fresh id: the last one freed by `remove`, else `used` (growing the set when full). */
export function allocateId(e: SetEngine): number {
  if (e.freeCount > 0) return e.freeIds[--e.freeCount];
  if (e.used >= e.capacity) growSet(e, grownCapacity(e, e.used + 1, 'add'));
  return e.used++;
}

/** Doubled capacity for `needed` objects, at most MAX_CAPACITY (a RangeError naming the method beyond). */
export function grownCapacity(e: SetEngine, needed: number, method: string): number {
  if (needed > MAX_CAPACITY) {
    throw new RangeError(`LodSet.${method}: ${needed} objects would be more than the maximum capacity ${MAX_CAPACITY} (LodSet.MAX_CAPACITY)`);
  }
  return Math.min(MAX_CAPACITY, Math.max(needed, e.capacity * 2));
}

/** Writes object `id`'s sphere and profile and resets its state (fresh id). */
export function writeObject(e: SetEngine, id: number, x: number, y: number, z: number, radius: number, profile: number): void {
  const st = e.st, o = id * 4;
  st.spheres[o] = x; st.spheres[o + 1] = y; st.spheres[o + 2] = z; st.spheres[o + 3] = radius;
  st.profileIds[id] = profile;
  resetState(st, id, id + 1);
}

/** Re-allocates the set for `capacity` objects (also at the same capacity: shared or plain buffers after `setThreads`). */
export function growSet(e: SetEngine, capacity: number): void {
  const old = e.capacity;
  settleOwed(e.ci, e.st.sizes); // (owedSizes.ts; the arrays are re-allocated below)
  settleBlends(e.ci, e.st.blend); // (owedBlends.ts)
  // Without the kernel memory (dropped after a frame with more views than it takes) the grown slot
  // arrays keep no sizes: those still in slot order go to their ids first (slotSizes.ts).
  if (e.ci.memory === null) sizesToIds(e.ci, e.st.sizes, e.used);
  // Shared buffers in worker-thread mode (the workers see the same memory), plain ones otherwise.
  growObjectArrays(e.st, capacity, old, e.threadCount > 1);
  const free = new Uint32Array(capacity); free.set(e.freeIds.subarray(0, e.freeCount)); e.freeIds = free;
  e.ci.growSlots(capacity, old);
  e.ci.placeOutputs(e.st); // the fused kernel writes sizes and blend in place
  e.capacity = capacity;
  restartThreads(e);
}

/**
 * Re-allocates the object arrays of `st` for `capacity` objects, keeping the first `old` entries of
 * the persistent ones (spheres, blend, sizes, flags, forced, levels, profile ids, last change); the
 * scratch arrays are fresh. `shared`: `SharedArrayBuffer` storage for worker-thread mode.
 */
export function growObjectArrays(st: FrameState, capacity: number, old: number, shared: boolean): void {
  const buffer = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const f32 = (a: Float32Array, k = 1) => { const b = new Float32Array(buffer(4 * capacity * k)); b.set(a.subarray(0, old * k)); return b; };
  st.spheres = f32(st.spheres, 4);
  st.blend = f32(st.blend);
  st.sizes = f32(st.sizes);
  const u8 = (a: Uint8Array) => { const b = new Uint8Array(buffer(capacity)); b.set(a.subarray(0, old)); return b; };
  st.flags = u8(st.flags);
  st.forced = u8(st.forced);
  st.levels = u8(st.levels);
  const p = new Uint16Array(buffer(2 * capacity)); p.set(st.profileIds.subarray(0, old)); st.profileIds = p;
  const lc = new Int32Array(buffer(4 * capacity)); lc.set(st.lastChange.subarray(0, old)); st.lastChange = lc;
  st.changed = new Uint32Array(buffer(4 * capacity));
  st.work = new Float64Array(buffer(8 * capacity));
  st.next = new Uint8Array(capacity);
  st.fixed = new Uint8Array(capacity);
  if (st.weights.length > 0) st.weights = new Float64Array(capacity);
}

/** (Re)allocates the per-profile level ranges `st.lo` / `st.hi` for `n` profiles, shared when `shared` (worker-thread mode). */
export function shareProfileRanges(st: FrameState, n: number, shared: boolean): void {
  st.lo = shared ? new Uint8Array(new SharedArrayBuffer(n)) : new Uint8Array(n);
  st.hi = shared ? new Uint8Array(new SharedArrayBuffer(n)) : new Uint8Array(n);
}

/** The state of fresh ids `[from, to)`: visible, not forced, hidden level until the next update, no blend, size NaN. */
export function resetState(st: FrameState, from: number, to: number): void {
  st.flags.fill(0, from, to);
  st.forced.fill(NO_FORCED_LEVEL, from, to);
  st.levels.fill(HIDDEN_LEVEL, from, to);
  st.blend.fill(0, from, to);
  st.sizes.fill(NaN, from, to);
  st.lastChange.fill(-0x40000000, from, to);
}

/** Sizes the scratch arrays `policy` needs for `cap` objects (no-op when large enough). */
export function ensureScratch(st: FrameState, table: ProfileTable, sse: ScreenSpaceScratch, cap: number, policy: LodPolicy): void {
  if (policy === 'rankQuota') {
    if (st.candidates.length < cap) st.candidates = new Uint32Array(cap);
    if (st.ranks.length < cap) st.ranks = new Uint8Array(cap);
  } else if (policy === 'budget' || policy === 'hybrid') {
    const perObject = Math.max(1, table.stride - 1);
    if (st.keys.length < cap * perObject) {
      st.keys = new Float64Array(cap * perObject);
      st.items = new Uint32Array(cap * perObject);
    }
    if (st.chainOf.length < cap) st.chainOf = new Uint32Array(cap);
    if (policy === 'hybrid' && st.preferred.length < cap) st.preferred = new Uint8Array(cap);
    if (policy === 'hybrid' && st.weights.length < cap) st.weights = new Float64Array(cap);
    sse.ensure(cap, table.stride); // issue 14
  }
}
