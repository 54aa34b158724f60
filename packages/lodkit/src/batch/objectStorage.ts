/**
 * Storage of `LodSet`'s objects: growing the structure-of-arrays object arrays of a
 * {@link FrameState} (over `SharedArrayBuffer`s in worker-thread mode, so the workers see the same
 * memory), resetting the per-object state of fresh ids, and sizing the policies' scratch arrays.
 *
 * Contributor notes:
 * - Runs at `add`/`addMany`/`setThreads` and on the first update of a policy, never in a
 *   steady-state frame: `ensureScratch` only allocates when capacity or the profile stride grew
 *   (test/batch/allocation.test.ts).
 *
 * @module
 */
import { HIDDEN_LEVEL, NO_FORCED_LEVEL, type FrameState } from './core/frameState.js';
import type { ProfileTable } from './core/profiles.js';
import type { ScreenSpaceScratch } from './passes/screenSpacePasses.js';
import type { LodPolicy } from './core/updateOptions.js';

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
