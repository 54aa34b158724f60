/**
 * `LevelSlots`: one level of an `InstancedLOD` — a stock `InstancedMesh` whose first `count` slots
 * hold, compacted, the matrices (and colours) of the instances drawn at that level, plus the slot →
 * instance map. Only the slots written in a frame are marked for upload (`addUpdateRange`).
 *
 * Contributor notes:
 * - Why compacted per-level buffers and not per-level index lists into one shared matrix texture
 *   (indirect instancing, as `@three.ez/instanced-mesh` does): a stock `InstancedMesh` keeps every
 *   three.js path working unchanged — WebGL and WebGPU renderers, every built-in and node material,
 *   depth/distance materials of the shadow pass, per-instance colour, `InstancedMesh.raycast` —
 *   while indirect instancing needs a vertex-shader patch per material, per depth material and per
 *   renderer. The price is upload bytes: a written slot costs 64 B of matrix (+ 12 B of colour)
 *   instead of 4 B of index. Measured in bench/instanced-lod.bench.ts (RESULTS-instanced.md).
 * - A frame is three steps (driven by `InstancedLOD.update`): `leave` punches holes, `enter` fills
 *   holes first and appends after the last slot otherwise, `compact` fills the remaining holes from
 *   the tail. So a level that loses and gains instances in the same frame writes max(in, out) slots,
 *   not in + out, and every written slot is marked once.
 * - Dirty slots become update ranges as they are written: consecutive slots extend the open range
 *   (appends are consecutive), anything else closes it. three sorts and merges the ranges again at
 *   upload time; `bytes`/`ranges` count what was marked, before that merge (an upper bound).
 * - Growth: capacity grows by 1.5× (never shrinks); the mesh is disposed (three frees the GPU
 *   buffers of its instance attributes on `dispose`) and gets new attributes, uploaded whole once,
 *   counted in `growthBytes`.
 *
 * @module
 */
import { DynamicDrawUsage, InstancedBufferAttribute, InstancedMesh, type BufferGeometry, type Material } from 'three';

/** Per-slot float counts of the two instance attributes. */
const MATRIX = 16, COLOR = 3;

export class LevelSlots {
  readonly mesh: InstancedMesh;
  /** Instance id drawn in each slot (−1 for a hole during a frame). */
  owners: Int32Array;
  /** Live slots (the first `count` slots, holes excepted during a frame). */
  count = 0;
  capacity: number;
  /** Bytes / ranges marked for upload (cumulative) and bytes uploaded whole after growth. */
  bytes = 0;
  ranges = 0;
  growthBytes = 0;
  private holes: Int32Array;
  private holeCount = 0;
  private openStart = -1;
  private openEnd = -1;
  private hasColor = false;

  constructor(geometry: BufferGeometry, material: Material | Material[], capacity: number) {
    this.capacity = Math.max(16, capacity);
    this.mesh = new InstancedMesh(geometry, material, this.capacity);
    this.mesh.instanceMatrix.setUsage(DynamicDrawUsage);
    this.mesh.count = 0;
    this.owners = new Int32Array(this.capacity).fill(-1);
    this.holes = new Int32Array(16);
  }

  /** Adds per-slot colours (white), filled from `colors` for the live slots; uploaded whole once. */
  enableColor(colors: Float32Array): void {
    if (this.hasColor) return;
    this.hasColor = true;
    const arr = new Float32Array(this.capacity * COLOR).fill(1);
    for (let s = 0; s < this.count; s++) {
      const id = this.owners[s];
      if (id >= 0) { const a = id * 3, b = s * 3; arr[b] = colors[a]; arr[b + 1] = colors[a + 1]; arr[b + 2] = colors[a + 2]; }
    }
    this.mesh.instanceColor = new InstancedBufferAttribute(arr, COLOR).setUsage(DynamicDrawUsage);
    this.growthBytes += arr.byteLength;
  }

  /** Takes instance `id`'s slot out (leaves a hole until `enter` or `compact` fills it). */
  leave(slot: number): void {
    this.owners[slot] = -1;
    if (this.holeCount === this.holes.length) { const h = new Int32Array(this.holes.length * 2); h.set(this.holes); this.holes = h; }
    this.holes[this.holeCount++] = slot;
  }

  /** Puts instance `id` into a slot (a hole first, else appended); copies its data; returns the slot. */
  enter(id: number, matrices: Float32Array, colors: Float32Array | null): number {
    let slot: number;
    if (this.holeCount > 0) slot = this.holes[--this.holeCount];
    else {
      if (this.count === this.capacity) this.grow(this.count + 1);
      slot = this.count++;
    }
    this.owners[slot] = id;
    this.write(slot, id, matrices, colors);
    return slot;
  }

  /**
   * Fills the remaining holes with the last live slots; `slotOf` gets the moved instances' new
   * slots. Afterwards slots `[0, count)` are exactly the live ones.
   */
  compact(matrices: Float32Array, colors: Float32Array | null, slotOf: Int32Array): void {
    const owners = this.owners;
    while (this.holeCount > 0) {
      const hole = this.holes[--this.holeCount];
      while (this.count > 0 && owners[this.count - 1] < 0) this.count--;
      if (hole >= this.count) continue; // the hole was in the tail that was just trimmed
      const last = --this.count, id = owners[last];
      owners[hole] = id; owners[last] = -1;
      slotOf[id] = hole;
      this.write(hole, id, matrices, colors);
    }
    while (this.count > 0 && owners[this.count - 1] < 0) this.count--;
    this.mesh.count = this.count;
  }

  /** Copies instance `id`'s matrix (and colour) into `slot` and marks the slot for upload. */
  write(slot: number, id: number, matrices: Float32Array, colors: Float32Array | null): void {
    const dst = this.mesh.instanceMatrix.array as Float32Array, a = id * MATRIX, b = slot * MATRIX;
    for (let k = 0; k < MATRIX; k++) dst[b + k] = matrices[a + k];
    if (this.hasColor && colors !== null) {
      const c = this.mesh.instanceColor!.array as Float32Array, ca = id * COLOR, cb = slot * COLOR;
      c[cb] = colors[ca]; c[cb + 1] = colors[ca + 1]; c[cb + 2] = colors[ca + 2];
    }
    this.mark(slot);
  }

  /** Marks one slot dirty: extends the open range when consecutive, else opens a new one. */
  private mark(slot: number): void {
    if (slot === this.openEnd) { this.openEnd++; return; }
    if (slot >= this.openStart && slot < this.openEnd) return;
    this.flush();
    this.openStart = slot; this.openEnd = slot + 1;
  }

  /** Turns the open dirty range into three update ranges. Call after a batch of writes. */
  flush(): void {
    const n = this.openEnd - this.openStart;
    if (n <= 0) return;
    const m = this.mesh.instanceMatrix;
    m.addUpdateRange(this.openStart * MATRIX, n * MATRIX);
    m.needsUpdate = true;
    this.bytes += n * MATRIX * 4;
    this.ranges++;
    if (this.hasColor) {
      const c = this.mesh.instanceColor!;
      c.addUpdateRange(this.openStart * COLOR, n * COLOR);
      c.needsUpdate = true;
      this.bytes += n * COLOR * 4;
      this.ranges++;
    }
    this.openStart = -1; this.openEnd = -1;
  }

  /** Bytes held by this level (instance attributes, slot map, hole list). */
  get byteLength(): number {
    return this.mesh.instanceMatrix.array.byteLength + (this.mesh.instanceColor?.array.byteLength ?? 0) + this.owners.byteLength + this.holes.byteLength;
  }

  private grow(need: number): void {
    this.flush();
    const cap = Math.max(need, Math.ceil(this.capacity * 1.5));
    const mesh = this.mesh;
    // `dispose` makes WebGLRenderer free the GPU buffers of the old instance attributes.
    mesh.dispose();
    const m = new Float32Array(cap * MATRIX);
    m.set((mesh.instanceMatrix.array as Float32Array).subarray(0, this.count * MATRIX));
    mesh.instanceMatrix = new InstancedBufferAttribute(m, MATRIX).setUsage(DynamicDrawUsage);
    this.growthBytes += m.byteLength;
    if (this.hasColor) {
      const c = new Float32Array(cap * COLOR).fill(1);
      c.set((mesh.instanceColor!.array as Float32Array).subarray(0, this.count * COLOR));
      mesh.instanceColor = new InstancedBufferAttribute(c, COLOR).setUsage(DynamicDrawUsage);
      this.growthBytes += c.byteLength;
    }
    const o = new Int32Array(cap).fill(-1);
    o.set(this.owners.subarray(0, this.count));
    this.owners = o;
    this.capacity = cap;
  }
}
