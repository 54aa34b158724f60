/**
 * `InstancedLOD`'s shadow copies (`shadowLOD: 'all'`): every drawn, visible caster inside the
 * light's frustum has one copy at the shadow level in a pool of its own (drawn on the shadow
 * layer), so the level meshes leave the shadow pass to it. The owner decides which instances want a
 * copy; this module keeps the pool and the id → copy-slot map in step.
 *
 * @module
 */
import type { BufferGeometry, InstancedMesh, Material } from 'three';
import { LevelSlots } from './levelSlots.js';

/** The copies' pool and which slot holds each instance's copy (−1: none). */
export class ShadowCopies {
  readonly pool: LevelSlots;
  /** Slot of instance `id`'s copy, or −1. Sized by {@link grow} (4 B per instance). */
  copyOf = new Int32Array(0);

  constructor(geometry: BufferGeometry, material: Material | Material[]) {
    this.pool = new LevelSlots(geometry, material, 16);
  }

  /** The pool's mesh. */
  get mesh(): InstancedMesh { return this.pool.mesh!; }

  /** Room for instance ids below `capacity` (new ids have no copy). */
  grow(capacity: number): void {
    if (this.copyOf.length >= capacity) return;
    const c = new Int32Array(capacity).fill(-1); c.set(this.copyOf); this.copyOf = c;
  }

  /**
   * Brings instance `id`'s copy in line with `want`: a new copy from `(from, slot)`, its matrix
   * copied again when `flush` (an edit), or the copy dropped. `flush`: upload the pool now.
   */
  sync(id: number, want: boolean, from: LevelSlots, slot: number, flush: boolean): void {
    const have = this.copyOf[id] >= 0;
    if (want && !have) this.copyOf[id] = this.pool.enterFrom(id, from, slot);
    else if (want && have && flush) this.pool.setMatrix(this.copyOf[id], from.matrices, slot * 16);
    else if (!want && have) this.drop(id, false);
    if (flush) this.flush();
  }

  /** Drops instance `id`'s copy (it has one). */
  drop(id: number, flush: boolean): void {
    this.pool.leave(this.copyOf[id]);
    this.copyOf[id] = -1;
    if (flush) this.flush();
  }

  /** Drops every copy (shadows went off). */
  clear(): void {
    for (let s = 0; s < this.pool.count; s++) { const id = this.pool.owners[s]; if (id >= 0) this.drop(id, false); }
  }

  /** Sets the colour of instance `id`'s copy, if it has one. */
  setColor(id: number, r: number, g: number, b: number): void {
    const copy = this.copyOf[id];
    if (copy >= 0) { this.pool.setColor(copy, r, g, b); this.pool.flush(); }
  }

  /** Closes the pool's holes and uploads what changed. */
  flush(): void {
    this.pool.compact(this.copyOf); this.pool.flush();
  }

  /** Bytes of CPU memory: the pool and the slot map. */
  get byteLength(): number { return this.pool.byteLength + this.copyOf.byteLength; }
}
