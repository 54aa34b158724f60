/**
 * Spatial clusters of a {@link LodSet}: a permutation that keeps objects internally in a spatially
 * coherent order (Morton order of each `addMany` batch, appends for `add`), cut into clusters of
 * at most {@link CLUSTER_SIZE} consecutive slots of one profile, each with a conservative bounding
 * sphere and the range of its objects' radii.
 *
 * Contributor notes:
 * - Public ids never move. `slotId[slot]` / `idSlot[id]` is the permutation; `sp` holds the spheres
 *   again in slot order so the per-cluster kernels read them sequentially (the id-ordered copy stays
 *   the public `LodSet.spheres`). A removed id keeps its slot; `add` reusing it writes the new
 *   object into that slot and refits the cluster (which may grow; a later `addMany` is not affected).
 * - Bounds are conservative: the radius is the exact enclosing radius over the live objects, grown
 *   by a relative 1e-7 plus 1e-9 × the coordinates' magnitude, so "the cluster is wholly outside
 *   (inside) a plane" implies the same for every object as the per-object kernels compute it in
 *   double precision. A cluster with a NaN/∞ coordinate or a negative radius gets a NaN radius and
 *   is never culled or skipped as a whole.
 * - `state[c]`: {@link STATE_MIXED} (unknown: run the per-object kernel), {@link STATE_HIDDEN} (every
 *   live object has level 255, blend 0, size NaN), or a level L (every live object has level L and
 *   blend 0, each decided freely outside every blend window before clamping). Written by the clustered thresholds pass only; any other writer of `levels` (the other
 *   policies, the reference path, `setHidden`, `setForcedLevel`, `remove`, `add`) resets it.
 *   Hybrid's finalize also writes {@link STATE_COARSENED} (its own record; mixed to every other pass).
 * - Edits are O(1): they only set flags (`refit`, `state`); refits run at the start of the next
 *   update, once per touched cluster.
 * - With the WebAssembly kernels, `sp`, `workS`, `slotId` and the slot copies (`flagsS`,
 *   `forcedS`, `levelsS`, `blendS`) are views of the kernel instance's memory (layout:
 *   wasmKernels.ts), and so are the set's public `sizes` and `blend` and its scratch `next` /
 *   `fixed` once `placeOutputs` moved them there, so the fused kernel reads and updates them in
 *   place; growing the memory detaches every view, and `growSlots` (its only caller) copies them
 *   out first and re-creates them (`LodSet.grow` then calls `placeOutputs`).
 *
 * @module
 */

import { attachKernels, newKernelMemory, OWED_BLEND_COUNT, remapFused, resolvedKernels, SP_OFFSET, type HeightKernel } from '../wasm/wasmKernels.js';
import { OwedSizes } from './owedSizesTable.js';
import { SuperClusters } from './blocks.js';
import { mortonOrder } from './mortonOrder.js';

/** Objects per cluster (at most). */
export const CLUSTER_SIZE = 64;
/** Cluster state: unknown, run the per-object kernel. */
export const STATE_MIXED = 254;
/**
 * Cluster state written by hybrid (passes/hybridFinalize.ts): every live object adjustable, displayed at
 * one level coarser than the one it preferred, blend 0 — the levels are in `HybridIncremental`
 * (`clevel`, `cpref`). Every other pass treats it as {@link STATE_MIXED}.
 */
export const STATE_COARSENED = 253;
/** Cluster state: every live object hidden. */
export const STATE_HIDDEN = 255;
/** `profile[c]` of a cluster whose objects have different profiles. */
export const MIXED_PROFILE = 0xffff;

/** Cluster bounds layout: centre x, y, z, radius R, smallest and largest object radius. */
export const B_STRIDE = 6;

/** The permutation and the cluster arrays of one set. */
export class ClusterIndex {
  // Per slot.
  slotId: Uint32Array = new Uint32Array(0);
  idSlot: Uint32Array = new Uint32Array(0);
  clusterOf: Uint32Array = new Uint32Array(0);
  /** Spheres in slot order. */
  sp: Float32Array = new Float32Array(0);
  /** Profile ids in slot order (for mixed-profile clusters). */
  profS: Uint16Array = new Uint16Array(0);
  /** Metric values in slot order (scratch of the per-cluster kernels). */
  workS: Float64Array = new Float64Array(0);
  /** Slot-ordered copies of `flags`, `forced`, `levels`, `blend` (see mappedKernels.ts). */
  flagsS: Uint8Array = new Uint8Array(0);
  forcedS: Uint8Array = new Uint8Array(0);
  levelsS: Uint8Array = new Uint8Array(0);
  blendS: Float32Array = new Float32Array(0);
  /**
   * With the fused kernel: per slot 1 while its blend changed in `blendS` only (owedBlends.ts),
   * and those slots, each once, in `blendOwedList` (the count is in the kernel's frame block).
   */
  blendOwedS: Uint8Array = new Uint8Array(0);
  blendOwedList: Uint32Array = new Uint32Array(0);
  /**
   * With the fused kernel: `sizes` in slot order, where the clustered thresholds frames keep them
   * (`sizesInSlots`): the kernel's stores are sequential instead of scattered over the id-ordered
   * array (random ids: ≈ 0.6 ms of a 1M frame, and frames 2–4 of a new set up to 2 × slower).
   * The public id-ordered `sizes` is refreshed from it when read and takes over when another path
   * runs (slotSizes.ts). Empty without the kernel.
   */
  sizesS: Float32Array = new Float32Array(0);
  /** The latest sizes live in `sizesS` (else in the id-ordered array). */
  sizesInSlots = false;
  /** With `sizesInSlots`: the id-ordered array equals `sizesS` (no frame wrote sizes since it was refreshed). */
  idsFresh = true;
  /**
   * Per cluster 1 when a frame may have written its sizes in slot order since the last refresh,
   * and those clusters in `sizesDirtyList` (slotSizes.ts `freshIds` copies only them); `sizesAllDirty` when
   * worker threads wrote some (they do not mark). Null in the workers' copy of the index.
   */
  sizesDirty: Uint8Array | null = new Uint8Array(0);
  sizesDirtyList: Uint32Array = new Uint32Array(0);
  sizesDirtyCount = 0;
  sizesAllDirty = false;
  /** Clusters whose sizes rankQuota / budget proved but left to be computed when observed (owedSizes.ts). */
  owed = new OwedSizes();
  /** Blocks of 16 clusters with one bounding sphere each, culled whole (blocks.ts, blockCulling.ts). */
  supers = new SuperClusters();
  /** False when another path wrote `levels`/`blend` since the copies were last gathered. */
  synced = true;
  /** Policy frames: the visible slots and the culled clusters (clusterPolicyPasses.ts). */
  visible: Uint32Array = new Uint32Array(0);
  visibleCount = 0;
  culledList: Uint32Array = new Uint32Array(0);
  culledCount = 0;
  /** Hybrid frames: the clusters not culled as a whole. */
  visibleClusters: Uint32Array = new Uint32Array(0);
  visibleClusterCount = 0;
  /** Which kernels the set runs, resolved when it was built (wasmKernels.ts `chooseKernels`). */
  kernels = resolvedKernels();
  /**
   * The kernels' memory, which holds `sp`, `workS` and the other slot arrays from the set's
   * construction on whenever it may run the WebAssembly kernels; null: plain arrays.
   */
  memory = newKernelMemory(this.kernels, false);
  /** The WebAssembly kernels on `memory`, or null (JavaScript kernels: not compiled yet, held, or none). */
  wasm: HeightKernel | null = this.memory === null || this.kernels.held === true ? null : attachKernels(this.memory, false, this.kernels);
  /** Byte offset of `workS` in the kernel's memory. */
  workOffset = 0;
  /** The kernel's per-view parameter blocks (32 doubles per view), or an empty array. */
  wasmParams: Float64Array = new Float64Array(0);

  // Per cluster.
  count = 0;
  start: Uint32Array = new Uint32Array(0);
  end: Uint32Array = new Uint32Array(0);
  profile: Uint16Array = new Uint16Array(0);
  bounds: Float64Array = new Float64Array(0);
  live: Uint32Array = new Uint32Array(0);
  forcedCount: Uint32Array = new Uint32Array(0);
  state: Uint8Array = new Uint8Array(0);
  /**
   * Per cluster: 1 when an edit (or another path's levels) touched it since a policy last cleared
   * it — the incremental budget trusts a whole-stable cluster of its previous frame only at 0.
   */
  edited: Uint8Array = new Uint8Array(0);
  refit: Uint8Array = new Uint8Array(0);
  refitList: Uint32Array = new Uint32Array(0);
  refitCount = 0;

  /**
   * Worker-thread mode: the arrays the workers read and write live in `SharedArrayBuffer`s (the
   * WebAssembly kernel's slot arrays in its shared memory). `generation` counts re-allocations, so
   * the owner knows when the workers must be given the new arrays.
   */
  shared = false;
  generation = 0;

  private buffer(bytes: number): ArrayBuffer | SharedArrayBuffer {
    return this.shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  }

  /**
   * Moves every array the workers use into shared memory (worker-thread mode). The WebAssembly
   * kernel moves to an instance with a shared memory (sharedWasm.ts) where the engine has one: the
   * calling thread keeps it, the workers run the JavaScript kernels on the same slot arrays.
   */
  makeShared(capacity: number): void {
    if (this.shared) return;
    const hadMemory = this.memory !== null, now = resolvedKernels();
    this.shared = true;
    this.kernels = { wasm: now.wasm, fused: now.fused, held: this.kernels.held }; // (a set without a choice of its own: the defaults of this moment)
    this.memory = hadMemory ? newKernelMemory(this.kernels, true) : null;
    this.wasm = null;
    this.wasmParams = new Float64Array(0);
    this.growSlots(capacity, capacity);
    this.reallocClusters(this.start.length);
    this.attachKernel();
  }

  /**
   * Attaches the WebAssembly kernels to `memory` once they are compiled (wasmKernels.ts): the
   * slot arrays already live there, so nothing moves. Called at the start of each frame while the
   * set runs the JavaScript kernels on a kernel memory (no owed blend exists then: only the fused
   * kernel owes them).
   */
  attachKernel(): void {
    const memory = this.memory;
    if (this.wasm !== null || memory === null || this.kernels.held === true) return;
    const k = attachKernels(memory, this.shared, this.kernels);
    if (k === null) return;
    this.wasm = k;
    if (this.bound !== null) this.bindKernel(k, this.bound);
  }

  /** Lets a set built with a held choice attach its kernels at its next frame (engineSeam.ts `releaseKernels`). */
  releaseKernels(): void {
    if (this.kernels.held === true) this.kernels = { wasm: this.kernels.wasm, fused: this.kernels.fused };
  }

  /** Byte offsets of the slot arrays in `memory` (growSlots), for the fused kernel's bindings. */
  private bound: number[] | null = null;

  private bindKernel(wasm: HeightKernel, at: number[]): void {
    remapFused(wasm);
    const f = wasm.fused;
    if (f === null) return;
    f.bind(at[0], at[1], at[2], at[3]); f.bindIds(at[4], at[5], at[6]); f.bindNext(at[7], at[8]);
    f.bindSizes(at[9]); f.bindOwed(at[10], at[11]);
    f.i32[OWED_BLEND_COUNT] = 0;
  }

  /** Grows the per-slot arrays to `capacity` slots (keeping content). */
  growSlots(capacity: number, old: number): void {
    this.generation++;
    const u32 = (a: Uint32Array) => { const b = new Uint32Array(this.buffer(4 * capacity)); b.set(a.subarray(0, old)); return b; };
    this.slotId = u32(this.slotId);
    this.idSlot = u32(this.idSlot);
    this.clusterOf = u32(this.clusterOf);
    const pr = new Uint16Array(this.buffer(2 * capacity)); pr.set(this.profS.subarray(0, old)); this.profS = pr;
    const memory = this.memory;
    if (memory !== null) {
      // Spheres stay at SP_OFFSET (growing the memory keeps them); the rest moves behind them, each
      // array padded by 4 slots (the fused kernel's groups of 4, see wasmKernels.ts).
      const keep = this.sp.slice(0, old * 4), f = this.flagsS.slice(0, old), fo = this.forcedS.slice(0, old);
      const l = this.levelsS.slice(0, old), bl = this.blendS.slice(0, old), sid = this.slotId.slice(0, old);
      const pad = capacity + 4;
      const work = SP_OFFSET + pad * 16, flags = work + pad * 8, forced = flags + pad, levels = forced + pad;
      const blend = (levels + pad + 15) & ~15;
      // The permutation and the public id-ordered sizes and blend, which the fused kernel writes (placeOutputs).
      const slotIds = blend + pad * 4, sizesAt = slotIds + pad * 4, blendIds = sizesAt + pad * 4;
      const nextAt = blendIds + pad * 4, fixedAt = nextAt + pad; // hybrid's slot-ordered next / fixed
      const sizesSAt = (fixedAt + pad + 15) & ~15, owedAt = sizesSAt + pad * 4, owedListAt = (owedAt + pad + 15) & ~15;
      const bytes = owedListAt + pad * 4;
      const sz = this.sizesS.slice(0, old);
      const pages = Math.ceil(bytes / 65536) - memory.buffer.byteLength / 65536;
      if (pages > 0) memory.grow(pages);
      const buffer = memory.buffer;
      this.sp = new Float32Array(buffer, SP_OFFSET, capacity * 4);
      this.sp.set(keep);
      this.workS = new Float64Array(buffer, work, capacity);
      this.workOffset = work;
      this.wasmParams = new Float64Array(buffer, 0, 2048);
      this.flagsS = new Uint8Array(buffer, flags, capacity); this.flagsS.set(f);
      this.forcedS = new Uint8Array(buffer, forced, capacity); this.forcedS.set(fo);
      this.levelsS = new Uint8Array(buffer, levels, capacity); this.levelsS.set(l);
      this.blendS = new Float32Array(buffer, blend, capacity); this.blendS.set(bl);
      this.slotId = new Uint32Array(buffer, slotIds, capacity); this.slotId.set(sid);
      this.sizesS = new Float32Array(buffer, sizesSAt, capacity); this.sizesS.set(sz);
      // (LodSet settled the owed blends before growing: none is owed in the new layout)
      this.blendOwedS = new Uint8Array(buffer, owedAt, pad); this.blendOwedS.fill(0);
      this.blendOwedList = new Uint32Array(buffer, owedListAt, capacity);
      this.idOutputs = [sizesAt, blendIds, capacity, nextAt, fixedAt];
      this.bound = [flags, forced, levels, blend, slotIds, sizesAt, blendIds, nextAt, fixedAt, sizesSAt, owedAt, owedListAt];
      if (this.wasm !== null) this.bindKernel(this.wasm, this.bound);
    } else {
      const sp = new Float32Array(this.buffer(16 * capacity)); sp.set(this.sp.subarray(0, old * 4)); this.sp = sp;
      this.workS = new Float64Array(this.buffer(8 * capacity));
      const u8 = (a: Uint8Array) => { const b = new Uint8Array(this.buffer(capacity)); b.set(a.subarray(0, old)); return b; };
      this.flagsS = u8(this.flagsS); this.forcedS = u8(this.forcedS); this.levelsS = u8(this.levelsS);
      const bl = new Float32Array(this.buffer(4 * capacity)); bl.set(this.blendS.subarray(0, old)); this.blendS = bl;
      this.sizesS = new Float32Array(0); this.sizesInSlots = false; // (no kernel memory: sizes by id; LodSet moved them there first)
    }
    this.visible = new Uint32Array(capacity);
  }

  /** Where the kernel's memory holds the id-ordered sizes and blend: byte offsets and capacity (null without it). */
  private idOutputs: [number, number, number, number, number] | null = null;

  /**
   * With the WebAssembly kernel, moves `st.sizes` and `st.blend` (the public id-ordered arrays)
   * and the scratch `st.next` / `st.fixed` into its memory, where the fused kernel stores them;
   * call after every {@link growSlots}.
   */
  placeOutputs(st: { sizes: Float32Array; blend: Float32Array; next: Uint8Array; fixed: Uint8Array }): void {
    const memory = this.memory, at = this.idOutputs;
    if (memory === null || at === null) return;
    const buffer = memory.buffer, n = Math.min(at[2], st.sizes.length);
    const sizes = new Float32Array(buffer, at[0], at[2]), blend = new Float32Array(buffer, at[1], at[2]);
    if (sizes.buffer !== st.sizes.buffer) { sizes.set(st.sizes.subarray(0, n)); st.sizes = sizes; }
    if (blend.buffer !== st.blend.buffer) { blend.set(st.blend.subarray(0, n)); st.blend = blend; }
    st.next = new Uint8Array(buffer, at[3], at[2]); st.fixed = new Uint8Array(buffer, at[4], at[2]);
  }

  /** Copies object `id`'s flags, forced level, level and blend into its slot (after an edit). */
  mirror(id: number, flags: Uint8Array, forced: Uint8Array, levels: Uint8Array, blend: Float32Array): void {
    const s = this.idSlot[id];
    this.flagsS[s] = flags[id]; this.forcedS[s] = forced[id]; this.levelsS[s] = levels[id]; this.blendS[s] = blend[id];
  }

  /** A frame is writing cluster `c`'s sizes (in slot order when they live there): slotSizes.ts `freshIds` copies it. */
  markSizes(c: number): void {
    const dirty = this.sizesDirty;
    if (this.sizesInSlots && dirty !== null && dirty[c] === 0) { dirty[c] = 1; this.sizesDirtyList[this.sizesDirtyCount++] = c; }
  }

  /** Object `id`'s size became NaN (removed): in slot order too when that is where sizes live. */
  clearSize(id: number): void {
    if (this.sizesInSlots) this.sizesS[this.idSlot[id]] = Number.NaN;
  }

  /** Gathers `levels` and `blend` into slot order when another path wrote them. */
  sync(levels: Uint8Array, blend: Float32Array, slots: number): void {
    if (this.synced) return;
    const slotId = this.slotId, ls = this.levelsS, bs = this.blendS;
    for (let s = 0; s < slots; s++) { const id = slotId[s]; ls[s] = levels[id]; bs[s] = blend[id]; }
    this.synced = true;
  }

  private ensureClusters(needed: number): void {
    if (needed <= this.start.length) return;
    this.reallocClusters(Math.max(needed, this.start.length * 2, 16));
  }

  private reallocClusters(cap: number): void {
    this.generation++;
    const old = this.count;
    const u32 = (a: Uint32Array) => { const b = new Uint32Array(this.buffer(4 * cap)); b.set(a.subarray(0, old)); return b; };
    const u8 = (a: Uint8Array) => { const b = new Uint8Array(this.buffer(cap)); b.set(a.subarray(0, old)); return b; };
    this.start = u32(this.start); this.end = u32(this.end);
    this.live = u32(this.live); this.forcedCount = u32(this.forcedCount);
    const p = new Uint16Array(this.buffer(2 * cap)); p.set(this.profile.subarray(0, old)); this.profile = p;
    const b = new Float64Array(this.buffer(8 * cap * B_STRIDE)); b.set(this.bounds.subarray(0, old * B_STRIDE)); this.bounds = b;
    this.state = u8(this.state); this.refit = u8(this.refit); this.edited = u8(this.edited);
    this.refitList = u32(this.refitList);
    this.culledList = new Uint32Array(cap);
    this.visibleClusters = new Uint32Array(cap);
    const dirty = new Uint8Array(cap), list = new Uint32Array(cap);
    if (this.sizesDirty !== null) { dirty.set(this.sizesDirty.subarray(0, old)); list.set(this.sizesDirtyList.subarray(0, this.sizesDirtyCount)); }
    this.sizesDirty = dirty; this.sizesDirtyList = list;
    this.owed.ensure(cap);
    this.supers.ensure(cap);
  }

  private newCluster(from: number, to: number, profile: number): number {
    this.ensureClusters(this.count + 1);
    const c = this.count++;
    this.start[c] = from; this.end[c] = to; this.profile[c] = profile;
    this.state[c] = STATE_MIXED; this.refit[c] = 0; this.edited[c] = 1;
    for (let s = from; s < to; s++) this.clusterOf[s] = c;
    this.markRefit(c);
    return c;
  }

  /**
   * Adds the objects with ids `[first, first + n)` (slots `[first, first + n)` too: slots are
   * allocated in id order), whose spheres are `spheres`, all of profile `profile`: sorts them in
   * Morton order of their centres within the batch's bounding box and cuts clusters. `bounds`: the
   * batch's bounds when the caller has them (mortonOrder.ts `BATCH_BOUNDS`).
   */
  addBatch(first: number, n: number, spheres: Float32Array, profile: number, bounds: Float64Array | null = null): void {
    if (n === 0) return;
    const order = mortonOrder(spheres, n, bounds);
    const sp = this.sp;
    for (let k = 0; k < n; k++) {
      const j = order[k], slot = first + k, id = first + j;
      this.slotId[slot] = id; this.idSlot[id] = slot;
      sp[slot * 4] = spheres[j * 4]; sp[slot * 4 + 1] = spheres[j * 4 + 1];
      sp[slot * 4 + 2] = spheres[j * 4 + 2]; sp[slot * 4 + 3] = spheres[j * 4 + 3];
      this.profS[slot] = profile;
    }
    this.flagsS.fill(0, first, first + n); this.forcedS.fill(255, first, first + n);
    this.levelsS.fill(255, first, first + n); this.blendS.fill(0, first, first + n);
    if (this.sizesInSlots) this.sizesS.fill(Number.NaN, first, first + n);
    for (let s = first; s < first + n; s += CLUSTER_SIZE) {
      const e = Math.min(s + CLUSTER_SIZE, first + n);
      this.newCluster(s, e, profile);
    }
  }

  /** Adds one new object (id = slot = `id`): appended to the last cluster when it has room and the same profile. */
  addOne(id: number, x: number, y: number, z: number, r: number, profile: number): void {
    this.slotId[id] = id; this.idSlot[id] = id;
    this.writeSlot(id, x, y, z, r, profile);
    const last = this.count - 1;
    if (last >= 0 && this.end[last] === id && this.end[last] - this.start[last] < CLUSTER_SIZE && this.profile[last] === profile) {
      this.end[last] = id + 1;
      this.clusterOf[id] = last;
      this.state[last] = STATE_MIXED; this.edited[last] = 1;
      this.markRefit(last);
    } else {
      this.newCluster(id, id + 1, profile);
    }
  }

  /** Writes object `id` (live, reused or moved) into its slot and marks its cluster for a refit. */
  setObject(id: number, x: number, y: number, z: number, r: number, profile: number): void {
    const slot = this.idSlot[id];
    this.writeSlot(slot, x, y, z, r, profile);
    this.markRefit(this.clusterOf[slot]);
  }

  /** Moves object `id` (refit at the next update; the cluster's state stays valid, see the notes). */
  setSphere(id: number, x: number, y: number, z: number, r: number): void {
    const slot = this.idSlot[id], o = slot * 4, sp = this.sp;
    sp[o] = x; sp[o + 1] = y; sp[o + 2] = z; sp[o + 3] = r;
    this.markRefit(this.clusterOf[slot]);
  }

  /** The cluster of `id` needs per-object work next frame (and a refit when `refit`). */
  touch(id: number, refit: boolean): void {
    const c = this.clusterOf[this.idSlot[id]];
    this.state[c] = STATE_MIXED; this.edited[c] = 1;
    if (refit) this.markRefit(c);
  }

  /** Every cluster needs per-object work (another path wrote `levels`). */
  invalidateAll(): void {
    this.state.fill(STATE_MIXED, 0, this.count); this.edited.fill(1, 0, this.count);
    this.synced = false;
  }

  private writeSlot(slot: number, x: number, y: number, z: number, r: number, profile: number): void {
    const o = slot * 4, sp = this.sp;
    sp[o] = x; sp[o + 1] = y; sp[o + 2] = z; sp[o + 3] = r;
    this.profS[slot] = profile;
    this.flagsS[slot] = 0; this.forcedS[slot] = 255; this.levelsS[slot] = 255; this.blendS[slot] = 0;
    if (this.sizesInSlots) this.sizesS[slot] = Number.NaN;
  }

  private markRefit(c: number): void {
    if (this.refit[c] === 0) { this.refit[c] = 1; this.refitList[this.refitCount++] = c; }
  }

  /** Recomputes the bounds, live and forced counts and profile of every cluster marked since the last call. */
  refitPending(flags: Uint8Array, forced: Uint8Array): void {
    const list = this.refitList;
    for (let k = 0; k < this.refitCount; k++) {
      const c = list[k];
      this.refit[c] = 0;
      refitCluster(this, c, flags, forced);
      this.supers.mark(c);
    }
    this.refitCount = 0;
  }
}

/** Exact bounds of cluster `c` over its live objects, then grown as the module notes say. */
function refitCluster(ci: ClusterIndex, c: number, flags: Uint8Array, forced: Uint8Array): void {
  const sp = ci.sp, slotId = ci.slotId, profS = ci.profS, from = ci.start[c], to = ci.end[c];
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  let rmin = Infinity, rmax = -Infinity, live = 0, forcedCount = 0, bad = false, profile = -1;
  for (let s = from; s < to; s++) {
    const id = slotId[s];
    if (flags[id] & 2) continue;
    live++;
    if (forced[id] !== 255) forcedCount++;
    const p = profS[s];
    profile = profile === -1 || profile === p ? p : 0x10000;
    const o = s * 4, x = sp[o], y = sp[o + 1], z = sp[o + 2], r = sp[o + 3];
    const check = x + y + z + r;
    if (check - check !== 0 || r < 0) { bad = true; continue; }
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
    if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
    if (r < rmin) rmin = r; if (r > rmax) rmax = r;
  }
  const b = ci.bounds, o = c * B_STRIDE;
  ci.live[c] = live;
  ci.forcedCount[c] = forcedCount;
  ci.profile[c] = profile < 0 || profile > 0xfffe ? 0xffff : profile;
  if (bad || live === 0) {
    b[o] = 0; b[o + 1] = 0; b[o + 2] = 0; b[o + 3] = Number.NaN; b[o + 4] = 0; b[o + 5] = 0;
    return;
  }
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2, cz = (minZ + maxZ) / 2;
  let radius = 0;
  for (let s = from; s < to; s++) {
    if (flags[slotId[s]] & 2) continue;
    const q = s * 4;
    const dx = sp[q] - cx, dy = sp[q + 1] - cy, dz = sp[q + 2] - cz;
    const e = Math.sqrt(dx * dx + dy * dy + dz * dz) + sp[q + 3];
    if (e > radius) radius = e;
  }
  const magnitude = Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + radius;
  b[o] = cx; b[o + 1] = cy; b[o + 2] = cz;
  b[o + 3] = radius * (1 + 1e-7) + magnitude * 1e-9;
  b[o + 4] = rmin; b[o + 5] = rmax;
}
