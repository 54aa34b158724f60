/**
 * `LevelSlots`: one pool of an `InstancedLOD` — a level (a stock `InstancedMesh` whose first
 * `count` slots hold, compacted, the matrices and colours of the instances drawn at that level),
 * the shadow-only casters (another mesh), or the CPU-only pool of instances drawn nowhere. Every
 * live instance lives in exactly one pool, so its matrix is stored once. Only the slots written in
 * a frame are marked for upload (`addUpdateRange`).
 *
 * Contributor notes:
 * - Why compacted per-level buffers and not per-level index lists into one shared matrix texture
 *   (indirect instancing, as `@three.ez/instanced-mesh` does): a stock `InstancedMesh` keeps every
 *   three.js path working unchanged — WebGL and WebGPU renderers, every built-in and node material,
 *   depth/distance materials of the shadow pass, per-instance colour, `InstancedMesh.raycast` —
 *   while indirect instancing needs a vertex-shader patch per material, per depth material and per
 *   renderer. The price is upload bytes: a written slot costs 64 B of matrix (+ 12 B of colour)
 *   instead of 4 B of index. Measured in bench/instanced-lod.bench.ts (RESULTS-instanced.md).
 * - A frame (driven by `InstancedLOD.update`): each changed instance is copied from its old pool's
 *   slot into the new pool (`enterFrom`: a hole first, else appended) and then leaves the old pool
 *   (a hole). Copy-then-leave means a hole is refilled only after its data moved, so no staging
 *   copy is needed. `compact` fills a mesh pool's remaining holes from the tail. A level that loses
 *   and gains instances in one frame writes max(in, out) slots, not in + out.
 * - Dirty slots become ranges as they are written: consecutive slots extend the open range
 *   (appends are consecutive), anything else closes it. `flush` hands them to three as update
 *   ranges; past 64 per attribute the closest (at most 4 slots apart) are merged (dirtyRanges.ts:
 *   each range is one upload call); three merges touching ones again. `bytes`/`ranges` count what
 *   was handed over.
 * - Growth: by `growth` (1.5 for meshes, 1.25 for the CPU pool); a mesh is disposed (three frees
 *   the GPU buffers of its instance attributes on `dispose`) and gets new attributes, uploaded
 *   whole once (`growthBytes`). Mesh pools never shrink.
 * - The CPU-only pool is drawn by no one: its holes stay, as free slots taken before it appends
 *   (`compact` fills none). Filling them cost the first update of 100k instances, which moves the
 *   visible 45 % out, one random 64 B copy per leaver (bench/startup.ts, 20 fresh processes each,
 *   with batchMoves.ts's copies: first update median 82 → 74 ms). A batch that only empties it into
 *   the levels (that first update) is copied in its slot order (`moveAllOut`). It shrinks once
 *   `SHRINK_AFTER` batches of writes in a row (an update is one, a removal one; each ends with
 *   `compact`) held under 80 % of its capacity at their peak (entrants come in before leavers go
 *   out: a camera jump over 100k instances briefly holds both), to 1.1 × the most any of them
 *   held, its holes filled first: memory follows the
 *   instances, and a camera that jumps back and forth does not make it shrink and grow again (when
 *   it shrank to 1.1 × the last count: 3 copies, 37 ms in one jump frame at 100k). The first update
 *   after a large add does not pay a fresh copy of the rest (a new buffer's first touches cost
 *   ≈ 3–11 µs a 4 kB page on the bench machine: startup).
 *
 * @module
 */
import { DynamicDrawUsage, InstancedBufferAttribute, InstancedMesh, type BufferGeometry, type Material } from 'three';
import { HIDDEN_LEVEL } from '../../batch/lodSet.js';
import { DirtyRanges } from './dirtyRanges.js';

/** Per-slot float counts of the two instance attributes. */
const MATRIX = 16, COLOR = 3;
/** Compactions in a row under 80 % of capacity before the CPU pool shrinks. */
const SHRINK_AFTER = 32;

export class LevelSlots {
  /** The level (or shadow) mesh; null for the CPU-only pool. */
  readonly mesh: InstancedMesh | null;
  /** Instance id in each slot (−1 for a hole during a frame). */
  owners: Int32Array;
  /** Slots in use (`[0, count)`, holes excepted during a frame). */
  count = 0;
  capacity: number;
  /** Bytes uploaded whole after growth (cumulative). */
  growthBytes = 0;
  private cpuMatrices: Float32Array;
  private cpuColors: Float32Array | null = null;
  private hasColor = false;
  private holes = new Int32Array(16);
  private holeCount = 0;
  private openStart = -1;
  private openEnd = -1;
  /** Closed dirty ranges not yet handed to three (mesh pools). */
  private readonly dirty = new DirtyRanges();
  private lowCompactions = 0;
  /** The most instances the batches of writes before those compactions held (the shrink keeps room for it). */
  private lowPeak = 0;
  /** The most instances held since the last `compact` (the CPU-only pool's shrink rule). */
  private peakLive = 0;
  private readonly growth: number;

  constructor(geometry: BufferGeometry | null, material: Material | Material[] | null, capacity: number) {
    this.capacity = Math.max(16, capacity);
    if (geometry !== null && material !== null) {
      // Built empty, then given its slots: three's constructor writes an identity matrix into each
      // slot (1024 per level by default), which no drawn slot keeps (grown slots start at zero too).
      this.mesh = new InstancedMesh(geometry, material, 0);
      this.mesh.instanceMatrix = new InstancedBufferAttribute(new Float32Array(this.capacity * MATRIX), MATRIX).setUsage(DynamicDrawUsage);
      this.cpuMatrices = new Float32Array(0);
      this.growth = 1.5;
    } else {
      this.mesh = null;
      this.cpuMatrices = new Float32Array(this.capacity * MATRIX);
      this.growth = 1.25;
    }
    this.owners = new Int32Array(this.capacity).fill(-1);
  }

  /** The slots' matrices (16 floats each); re-read after anything that can grow the pool. */
  get matrices(): Float32Array {
    return this.mesh !== null ? this.mesh.instanceMatrix.array as Float32Array : this.cpuMatrices;
  }

  /** The slots' colours (3 floats each), or null before colours were enabled. */
  get colors(): Float32Array | null {
    if (!this.hasColor) return null;
    return this.mesh !== null ? this.mesh.instanceColor!.array as Float32Array : this.cpuColors;
  }

  /** Adds per-slot colours, white (every instance is white until its first `setColorAt`). */
  enableColor(): void {
    if (this.hasColor) return;
    this.hasColor = true;
    const arr = new Float32Array(this.capacity * COLOR).fill(1);
    if (this.mesh !== null) {
      this.mesh.instanceColor = new InstancedBufferAttribute(arr, COLOR).setUsage(DynamicDrawUsage);
      this.growthBytes += arr.byteLength;
    } else {
      this.cpuColors = arr;
    }
  }

  /** Takes `slot` out (a hole until `enterFrom`/`enterMatrix` or `compact` fills it). */
  leave(slot: number): void {
    this.owners[slot] = -1;
    if (this.holeCount === this.holes.length) { const h = new Int32Array(this.holes.length * 2); h.set(this.holes); this.holes = h; }
    this.holes[this.holeCount++] = slot;
  }

  /** Puts instance `id` into a slot, copying matrix and colour from `src`'s slot `srcSlot`; returns the slot. */
  enterFrom(id: number, src: LevelSlots, srcSlot: number): number {
    const slot = this.claim(id);
    copyFloats(src.matrices, srcSlot * MATRIX, this.matrices, slot * MATRIX, MATRIX);
    const cf = src.colors, ct = this.colors;
    if (cf !== null && ct !== null) copyFloats(cf, srcSlot * COLOR, ct, slot * COLOR, COLOR);
    return slot;
  }

  /** The slot `enterFrom` gives instance `id` (a hole first, else appended), marked, nothing copied (batchMoves.ts copies). */
  claim(id: number): number {
    const slot = this.take(id);
    this.mark(slot);
    return slot;
  }

  /**
   * Appends `n` slots at once to a pool without holes (a mesh pool between batches), marked, their
   * owners left to the caller; returns the first. The slots, capacity and dirty range `n` `claim`s
   * after `reserve(count + n)` give.
   */
  appendRun(n: number): number {
    const first = this.count;
    this.reserve(first + n);
    this.markRange(first, first + n);
    this.count = first + n;
    if (this.live > this.peakLive) this.peakLive = this.live;
    return first;
  }

  /**
   * The moves of a batch in which every change takes an instance out of this pool (the CPU-only
   * pool) into a level pool without holes — the first update after a large `addInstances`. Ends as
   * `reserveForMoves` + `enterFrom` / `leave` in `changed` order do (slots, holes in their order,
   * dirty ranges, capacities), but copies in this pool's slot order: the reads run forward through
   * memory the last batch may have left cold, and only the writes land where `changed` (the
   * engine's spatial order) puts them (bench/startup.ts, first update; 100k instances, 45k moves).
   * `levels` holds the new codes, `levelOf` the current ones (updated here, with `slotOf`);
   * `next` has room for one entry per level pool `slots[0 … levelCount)`.
   */
  moveAllOut(slots: readonly LevelSlots[], levelCount: number, changed: Uint32Array, cc: number,
    levels: Uint8Array, levelOf: Uint8Array, slotOf: Int32Array, next: Int32Array): void {
    // Three loops in three functions: each is on-stack-replaced alone in a fresh process (one
    // function's optimised loop deoptimised on reaching the next loop, which had no feedback yet).
    const moving = countEntrants(changed, cc, levels, levelOf, next, levelCount);
    for (let l = 0; l < levelCount; l++) next[l] = slots[l].appendRun(next[l]);
    let cap = this.holes.length;
    while (cap < this.holeCount + moving) cap *= 2; // (the size `leave`'s doubling reaches)
    if (cap !== this.holes.length) { const h = new Int32Array(cap); h.set(this.holes.subarray(0, this.holeCount)); this.holes = h; }
    this.holeCount = assignSlots(slots, changed, cc, levels, levelOf, slotOf, next, this.holes, this.holeCount);
    copyOut(this, slots, levelCount, levelOf, slotOf);
  }

  /** Puts instance `id` into a slot with the matrix at `src[offset …]` and a white colour; returns the slot. */
  enterMatrix(id: number, src: ArrayLike<number>, offset: number): number {
    const slot = this.take(id);
    this.setMatrix(slot, src, offset);
    const c = this.colors;
    if (c !== null) c.fill(1, slot * COLOR, slot * COLOR + COLOR);
    return slot;
  }

  /**
   * Puts instances `firstId … firstId + n − 1` into slots with the matrices `src[16 i …]` and white
   * colours, writing each one's slot into `slotOf`: holes first (as `enterMatrix` would), the rest
   * appended with one reservation and one block copy — the same slots as `n` calls of `enterMatrix`.
   */
  enterMatrices(firstId: number, src: Float32Array, n: number, slotOf: Int32Array): void {
    let i = 0;
    for (; i < n && this.holeCount > 0; i++) slotOf[firstId + i] = this.enterMatrix(firstId + i, src, i * MATRIX);
    const rest = n - i;
    if (rest <= 0) return;
    this.reserve(this.count + rest);
    const start = this.count, owners = this.owners;
    this.matrices.set(src.subarray(i * MATRIX, n * MATRIX), start * MATRIX);
    const c = this.colors;
    if (c !== null) c.fill(1, start * COLOR, (start + rest) * COLOR);
    for (let k = 0; k < rest; k++) { const id = firstId + i + k; owners[start + k] = id; slotOf[id] = start + k; }
    this.count += rest;
    if (this.live > this.peakLive) this.peakLive = this.live;
    this.markRange(start, start + rest);
  }

  /**
   * Reserves what `enterMatrices` of `n` instances will take and returns `floats` floats of the free
   * tail its appended matrices will overwrite, as the caller's scratch until then (null when that
   * part is smaller). Why (startup, issue 27): `addInstances`' 16 B of spheres per instance, which
   * `LodSet.addMany` copies, then touch no page of their own (a new page's first write costs microseconds).
   */
  scratchTail(n: number, floats: number): Float32Array | null {
    const rest = n - Math.min(n, this.holeCount);
    if (floats > rest * MATRIX) return null;
    this.reserve(this.count + rest);
    return this.matrices.subarray(this.count * MATRIX, this.count * MATRIX + floats);
  }

  /**
   * Makes room for `n` slots with ONE reallocation: the capacity that growing slot by slot would
   * have reached (the same `growth` steps), without the intermediate copies. No-op when they fit.
   */
  reserve(n: number): void {
    if (n <= this.capacity) return;
    let cap = this.capacity;
    while (cap < n) cap = Math.max(cap + 1, Math.ceil(cap * this.growth));
    this.resize(cap);
  }

  /** Writes a slot's matrix and marks it. */
  setMatrix(slot: number, src: ArrayLike<number>, offset: number): void {
    const to = this.matrices, b = slot * MATRIX;
    for (let k = 0; k < MATRIX; k++) to[b + k] = src[offset + k];
    this.mark(slot);
  }

  /** Writes a slot's colour and marks it. */
  setColor(slot: number, r: number, g: number, b: number): void {
    const c = this.colors!, o = slot * COLOR;
    c[o] = r; c[o + 1] = g; c[o + 2] = b;
    this.mark(slot);
  }

  /** Instances in the pool: `count` less the holes (the CPU-only pool keeps its holes between batches). */
  get live(): number { return this.count - this.holeCount; }
  /** Holes in `[0, count)`: free slots, taken before the pool appends. */
  get freeSlots(): number { return this.holeCount; }

  /**
   * Ends a batch of writes. A mesh pool fills its remaining holes with its last live slots (`slotOf`
   * gets the moved instances' new slots): afterwards slots `[0, count)` are exactly the drawn ones.
   * The CPU-only pool, drawn by no one, keeps its holes as free slots for later entrants (filling
   * them cost the first update at 100k a random 64 B copy per leaver: startup) and only checks
   * whether to shrink.
   */
  compact(slotOf: Int32Array): void {
    if (this.mesh === null) { this.endCpuBatch(slotOf); return; }
    this.fillHoles(slotOf);
    this.mesh.count = this.count;
  }

  /**
   * The CPU-only pool's end of a batch: it shrinks once `SHRINK_AFTER` batches in a row held under
   * 80 % of its capacity at their peak, to 1.1 × the most any of them held (filling its holes first).
   */
  private endCpuBatch(slotOf: Int32Array): void {
    const peak = this.peakLive;
    this.peakLive = this.live;
    if (!(this.capacity > 4096 && peak < this.capacity * 0.8)) { this.lowCompactions = 0; this.lowPeak = 0; return; }
    if (peak > this.lowPeak) this.lowPeak = peak;
    if (++this.lowCompactions < SHRINK_AFTER) return;
    this.fillHoles(slotOf);
    this.resize(Math.max(16, Math.ceil(this.lowPeak * 1.1)));
  }

  /** Fills the holes with the last live slots (`slotOf` gets the moved instances' new slots) and trims the tail. */
  private fillHoles(slotOf: Int32Array): void {
    const owners = this.owners;
    while (this.holeCount > 0) {
      const hole = this.holes[--this.holeCount];
      while (this.count > 0 && owners[this.count - 1] < 0) this.count--;
      if (hole >= this.count) continue; // the hole was in the tail that was just trimmed
      const last = --this.count, id = owners[last];
      owners[hole] = id; owners[last] = -1;
      slotOf[id] = hole;
      const m = this.matrices, a = last * MATRIX, b = hole * MATRIX;
      for (let k = 0; k < MATRIX; k++) m[b + k] = m[a + k];
      const c = this.colors;
      if (c !== null) { const ca = last * COLOR, cb = hole * COLOR; c[cb] = c[ca]; c[cb + 1] = c[ca + 1]; c[cb + 2] = c[ca + 2]; }
      this.mark(hole);
    }
    while (this.count > 0 && owners[this.count - 1] < 0) this.count--;
  }

  /** Bytes / update ranges handed to three for upload (cumulative; dirtyRanges.ts). */
  get bytes(): number { return this.dirty.bytes; }
  get ranges(): number { return this.dirty.ranges; }

  /** Turns the dirty slots into three update ranges (mesh pools; few, dirtyRanges.ts). Call after a batch of writes. */
  flush(): void {
    this.closeOpen();
    const mesh = this.mesh;
    if (mesh !== null) this.dirty.flush(mesh.instanceMatrix, this.hasColor ? mesh.instanceColor : null);
  }

  /** Bytes held by this pool (instance data, slot map, hole list). */
  get byteLength(): number {
    return this.matrices.byteLength + (this.colors?.byteLength ?? 0) + this.owners.byteLength + this.holes.byteLength;
  }

  /** Closes the open dirty range (mesh pools). */
  private closeOpen(): void {
    if (this.openEnd > this.openStart && this.mesh !== null) this.dirty.add(this.openStart, this.openEnd);
    this.openStart = -1; this.openEnd = -1;
  }

  private take(id: number): number {
    let slot: number;
    if (this.holeCount > 0) slot = this.holes[--this.holeCount];
    else {
      if (this.count === this.capacity) this.resize(Math.max(this.count + 1, Math.ceil(this.capacity * this.growth)));
      slot = this.count++;
    }
    this.owners[slot] = id;
    if (this.live > this.peakLive) this.peakLive = this.live;
    return slot;
  }

  /** Marks one slot dirty (mesh pools): extends the open range when consecutive, else opens a new one. */
  private mark(slot: number): void {
    if (this.mesh === null) return;
    if (slot === this.openEnd) { this.openEnd++; return; }
    if (slot >= this.openStart && slot < this.openEnd) return;
    this.closeOpen();
    this.openStart = slot; this.openEnd = slot + 1;
  }

  /** Marks slots `[from, to)` dirty (mesh pools), like `mark` on each of them in order. */
  private markRange(from: number, to: number): void {
    if (this.mesh === null || from >= to) return;
    if (from !== this.openEnd) this.mark(from);
    if (to > this.openEnd) this.openEnd = to;
  }

  private resize(cap: number): void {
    this.flush();
    const used = this.count;
    const m = new Float32Array(cap * MATRIX);
    m.set(this.matrices.subarray(0, used * MATRIX));
    const old = this.colors;
    let c: Float32Array | null = null;
    if (old !== null) { c = new Float32Array(cap * COLOR).fill(1); c.set(old.subarray(0, used * COLOR)); }
    const mesh = this.mesh;
    if (mesh !== null) {
      // `dispose` makes WebGLRenderer free the GPU buffers of the old instance attributes.
      mesh.dispose();
      mesh.instanceMatrix = new InstancedBufferAttribute(m, MATRIX).setUsage(DynamicDrawUsage);
      this.growthBytes += m.byteLength;
      if (c !== null) { mesh.instanceColor = new InstancedBufferAttribute(c, COLOR).setUsage(DynamicDrawUsage); this.growthBytes += c.byteLength; }
    } else {
      this.cpuMatrices = m;
      this.cpuColors = c;
    }
    const o = new Int32Array(cap).fill(-1);
    o.set(this.owners.subarray(0, used));
    this.owners = o;
    this.capacity = cap;
    this.lowCompactions = 0; this.lowPeak = 0;
  }
}

/**
 * Before many moves (a large batch of changes: the first update, a camera jump): grows each pool
 * once to the most slots the moves will use in it, not once per growth step — the level pools
 * `slots[l]` (l < `levelCount`) and the CPU-only pool `slots[levelCount + 1]` (code `HIDDEN_LEVEL`).
 * Moved in `changed` order, each move fills a hole (the CPU-only pool's kept ones, or its pool's
 * earlier leavers'), else appends: a pool uses its count + the largest excess of entrants over
 * leavers of any prefix of the list less its holes, so it ends at the capacity slot-by-slot growth
 * reaches. (An instance hidden this frame may go to the shadow casters instead: counted in the
 * CPU-only pool all the same.) `levelOf` is each instance's current code, `levels` its new one;
 * `scratch` holds 2 × (`levelCount` + 1) entries.
 */
export function reserveForMoves(slots: readonly LevelSlots[], levelCount: number, changed: Uint32Array, cc: number,
  levels: Uint8Array, levelOf: Uint8Array, scratch: Int32Array): void {
  const L = levelCount, run = scratch, top = L + 1; // run[p]: entrants − leavers so far; run[top + p]: its largest value
  scratch.fill(0);
  for (let k = 0; k < cc; k++) {
    const id = changed[k], to = levels[id], from = levelOf[id];
    if (to === from) continue;
    const t = to < L ? to : to === HIDDEN_LEVEL ? L : -1, f = from < L ? from : from === HIDDEN_LEVEL ? L : -1;
    if (t >= 0 && ++run[t] > run[top + t]) run[top + t] = run[t];
    if (f >= 0) run[f]--;
  }
  for (let p = 0; p <= L; p++) {
    const s = slots[p < L ? p : L + 1], appended = run[top + p] - s.freeSlots; // (entrants take the pool's holes first)
    if (appended > 0) s.reserve(s.count + appended);
  }
}

/** `moveAllOut`: the entrants of each level into `next[0 … levelCount)`; returns their sum. */
function countEntrants(changed: Uint32Array, cc: number, levels: Uint8Array, levelOf: Uint8Array, next: Int32Array, levelCount: number): number {
  next.fill(0, 0, levelCount);
  let moving = 0;
  for (let k = 0; k < cc; k++) { const id = changed[k], to = levels[id]; if (to !== levelOf[id]) { next[to]++; moving++; } }
  return moving;
}

/**
 * `moveAllOut`: level slots in `changed` order (from `next`, each level's next slot), the CPU-only
 * pool's holes in leaving order (`holes` from `hc` on; returns the new count); its owners stay until copied.
 */
function assignSlots(slots: readonly LevelSlots[], changed: Uint32Array, cc: number, levels: Uint8Array, levelOf: Uint8Array,
  slotOf: Int32Array, next: Int32Array, holes: Int32Array, hc: number): number {
  for (let k = 0; k < cc; k++) {
    const id = changed[k], to = levels[id];
    if (to === levelOf[id]) continue;
    const d = next[to]++;
    slots[to].owners[d] = id;
    holes[hc++] = slotOf[id];
    slotOf[id] = d; levelOf[id] = to;
  }
  return hc;
}

/** `moveAllOut`: the copies in `cpu`'s slot order — an owner whose code is now a level moved there. */
function copyOut(cpu: LevelSlots, slots: readonly LevelSlots[], levelCount: number, levelOf: Uint8Array, slotOf: Int32Array): void {
  const owners = cpu.owners, src = cpu.matrices, srcColors = cpu.colors, end = cpu.count;
  for (let s = 0; s < end; s++) {
    const id = owners[s];
    if (id < 0) continue;
    const to = levelOf[id];
    if (to >= levelCount) continue;
    const dest = slots[to], d = slotOf[id];
    const m = dest.matrices, a = s * MATRIX, b = d * MATRIX;
    for (let j = 0; j < MATRIX; j++) m[b + j] = src[a + j];
    const c = dest.colors;
    if (srcColors !== null && c !== null) { const ca = s * COLOR, cb = d * COLOR; c[cb] = srcColors[ca]; c[cb + 1] = srcColors[ca + 1]; c[cb + 2] = srcColors[ca + 2]; }
    owners[s] = -1;
  }
}

/** `count` floats from `from[a …]` to `to[b …]`. */
export function copyFloats(from: Float32Array, a: number, to: Float32Array, b: number, count: number): void {
  for (let k = 0; k < count; k++) to[b + k] = from[a + k];
}
