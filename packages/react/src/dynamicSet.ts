/**
 * The `dynamic` objects of a {@link LodRuntime}: a `Set` (its public type, so `runtime.dynamic.add`
 * keeps working) that also keeps its members in a dense array with, per member, the world matrix and
 * local bounding sphere its world sphere was last read from.
 *
 * Contributor notes:
 * - Why: re-reading every dynamic object every frame cost a `Map` lookup, a sphere transform and a
 *   `LodSet.setSphere` per object, and each `setSphere` makes its cluster refit and lose its
 *   "every object keeps its level" state, so no cluster of dynamic objects was ever skipped
 *   (bench/RESULTS.md: 10,000 dynamic objects, 1 % moving, 0.2 × drei). Now an object is re-read
 *   only when its world matrix or local sphere differs from the last read, bit for bit: the same
 *   spheres reach the engine, so the same levels.
 * - `sync()` does what `lod.updateWorldMatrix(true, false)` does for each member (the parent's chain,
 *   then the object), but updates a parent once for a run of members that share it: updating an
 *   up-to-date parent again changes nothing, and updating a member never changes its parent.
 * - Members are swap-removed; the order of the dense array is not the `Set`'s order (nothing reads
 *   it: each member's sphere is independent of the others').
 *
 * @module
 */
import type { Object3D } from 'three';
import type { ScreenSizeLOD } from 'lodkit/three';

/** Doubles kept per member: world matrix (16), local sphere centre and radius (4). */
const STRIDE = 20;

/** The dynamic objects of a runtime; `sync` brings their world matrices up to date and re-reads the moved ones. */
export class DynamicSet extends Set<ScreenSizeLOD> {
  private readonly list: ScreenSizeLOD[] = [];
  private readonly slotOf = new Map<ScreenSizeLOD, number>();
  private seen = new Float64Array(0);

  override add(lod: ScreenSizeLOD): this {
    if (super.has(lod)) return this;
    super.add(lod);
    const i = this.list.length;
    if (this.seen.length < (i + 1) * STRIDE) {
      const grown = new Float64Array(Math.max(64, 2 * (i + 1)) * STRIDE);
      grown.set(this.seen);
      this.seen = grown;
    }
    this.seen.fill(Number.NaN, i * STRIDE, (i + 1) * STRIDE); // NaN equals nothing: read at the next sync
    this.slotOf.set(lod, i);
    this.list.push(lod);
    return this;
  }

  override delete(lod: ScreenSizeLOD): boolean {
    if (!super.delete(lod)) return false;
    const i = this.slotOf.get(lod)!, last = this.list.length - 1;
    if (i !== last) {
      const moved = this.list[last];
      this.list[i] = moved;
      this.slotOf.set(moved, i);
      this.seen.copyWithin(i * STRIDE, last * STRIDE, (last + 1) * STRIDE);
    }
    this.list.pop();
    this.slotOf.delete(lod);
    return true;
  }

  override clear(): void {
    super.clear();
    this.list.length = 0;
    this.slotOf.clear();
  }

  /**
   * Brings every member's world matrix up to date (as `updateWorldMatrix(true, false)`) and calls
   * `reread` for each member whose world matrix or local bounding sphere changed since its last
   * read (every member at its first sync). Returns how many were re-read.
   */
  sync(reread: (lod: ScreenSizeLOD) => void): number {
    const list = this.list, seen = this.seen;
    let parent: Object3D | null = null, count = 0;
    for (let i = 0; i < list.length; i++) {
      const lod = list[i], p = lod.parent;
      if (p !== null && p !== parent) p.updateWorldMatrix(true, false);
      parent = p;
      lod.updateWorldMatrix(false, false);
      const e = lod.matrixWorld.elements, o = i * STRIDE, s = lod.boundingSphere;
      let same = s !== null && seen[o + 16] === s.center.x && seen[o + 17] === s.center.y && seen[o + 18] === s.center.z && seen[o + 19] === s.radius;
      for (let k = 0; k < 16; k++) if (seen[o + k] !== e[k]) { same = false; seen[o + k] = e[k]; }
      if (same) continue;
      reread(lod);
      count++;
      const read = lod.boundingSphere; // the re-read computes it when it was null
      seen[o + 16] = read === null ? Number.NaN : read.center.x; seen[o + 17] = read === null ? Number.NaN : read.center.y;
      seen[o + 18] = read === null ? Number.NaN : read.center.z; seen[o + 19] = read === null ? Number.NaN : read.radius;
    }
    return count;
  }
}
