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
 * - `sync()` leaves every member's world matrix as `lod.updateWorldMatrix(true, false)` would (the
 *   parent's chain, then the object), but updates a parent once for a run of members that share it
 *   (updating an up-to-date parent again changes nothing, and updating a member never changes its
 *   parent), and a member only when its inputs changed: its position, quaternion and scale, or its
 *   parent's world matrix (a stamp per parent, new whenever that matrix differs from the last one
 *   seen, so members of the same parent in different runs all see the move). Equal inputs give the
 *   same matrix, so an unmoved member's is up to date already. (Recomposing 10,000 matrices a frame
 *   cost 2.5–3.2 ms in bench/detailed.bench.tsx; comparing the inputs ≈ 1 ms: bench/RESULTS.md.) A
 *   member with `matrixAutoUpdate` or `matrixWorldAutoUpdate` off is updated and compared every
 *   frame, as before.
 * - Members are swap-removed; the order of the dense array is not the `Set`'s order (nothing reads
 *   it: each member's sphere is independent of the others').
 *
 * @module
 */
import type { Object3D } from 'three';
import type { ScreenSizeLOD } from 'lodkit/three';

/**
 * Doubles kept per member: world matrix (16), local sphere centre and radius (4) — its last read —
 * and what its world matrix was last computed from: position, quaternion, scale (10), parent stamp.
 */
const STRIDE = 31, SPHERE = 16, INPUTS = 20, STAMP = 30;

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

  /** The world matrix last seen per parent, and its stamp (a new one whenever that matrix changed). */
  private readonly parents = new WeakMap<Object3D, { world: Float64Array; stamp: number }>();
  private nextStamp = 1;

  /**
   * Brings every member's world matrix up to date (as `updateWorldMatrix(true, false)`) and calls
   * `reread` for each member whose world matrix or local bounding sphere changed since its last
   * read (every member at its first sync). Returns how many were re-read.
   */
  sync(reread: (lod: ScreenSizeLOD) => void): number {
    const list = this.list, seen = this.seen;
    let parent: Object3D | null | undefined, stamp = 0, count = 0;
    for (let i = 0; i < list.length; i++) {
      const lod = list[i], p = lod.parent, o = i * STRIDE;
      if (p !== parent) { parent = p; stamp = p === null ? 0 : this.parentStamp(p); }
      if (!this.inputsChanged(lod, o, stamp) && sameSphere(seen, o + SPHERE, lod.boundingSphere)) continue;
      lod.updateWorldMatrix(false, false);
      const e = lod.matrixWorld.elements;
      let same = sameSphere(seen, o + SPHERE, lod.boundingSphere);
      for (let k = 0; k < 16; k++) if (seen[o + k] !== e[k]) { same = false; seen[o + k] = e[k]; }
      if (same) continue;
      reread(lod);
      count++;
      const read = lod.boundingSphere; // the re-read computes it when it was null
      seen[o + SPHERE] = read === null ? Number.NaN : read.center.x; seen[o + SPHERE + 1] = read === null ? Number.NaN : read.center.y;
      seen[o + SPHERE + 2] = read === null ? Number.NaN : read.center.z; seen[o + SPHERE + 3] = read === null ? Number.NaN : read.radius;
    }
    return count;
  }

  /** Updates `p`'s chain (as `updateWorldMatrix(true, false)`) and returns the stamp of its world matrix. */
  private parentStamp(p: Object3D): number {
    p.updateWorldMatrix(true, false);
    let rec = this.parents.get(p);
    if (rec === undefined) { rec = { world: new Float64Array(16).fill(Number.NaN), stamp: 0 }; this.parents.set(p, rec); }
    const e = p.matrixWorld.elements, w = rec.world;
    let moved = false;
    for (let k = 0; k < 16; k++) if (w[k] !== e[k]) { moved = true; w[k] = e[k]; }
    if (moved) rec.stamp = this.nextStamp++;
    return rec.stamp;
  }

  /** True (recording the new inputs) when what the member's world matrix is computed from changed since the last sync. */
  private inputsChanged(lod: ScreenSizeLOD, o: number, stamp: number): boolean {
    const seen = this.seen, q = o + INPUTS;
    if (!lod.matrixAutoUpdate || !lod.matrixWorldAutoUpdate) return true;
    const t = lod.position, r = lod.quaternion, k = lod.scale;
    if (seen[o + STAMP] === stamp && seen[q] === t.x && seen[q + 1] === t.y && seen[q + 2] === t.z && seen[q + 3] === r.x && seen[q + 4] === r.y
      && seen[q + 5] === r.z && seen[q + 6] === r.w && seen[q + 7] === k.x && seen[q + 8] === k.y && seen[q + 9] === k.z) return false;
    seen[o + STAMP] = stamp;
    seen[q] = t.x; seen[q + 1] = t.y; seen[q + 2] = t.z; seen[q + 3] = r.x; seen[q + 4] = r.y; seen[q + 5] = r.z; seen[q + 6] = r.w;
    seen[q + 7] = k.x; seen[q + 8] = k.y; seen[q + 9] = k.z;
    return true;
  }
}

/** True when `s` is the sphere recorded at `seen[o…o + 3]`. */
function sameSphere(seen: Float64Array, o: number, s: { center: { x: number; y: number; z: number }; radius: number } | null): boolean {
  return s !== null && seen[o] === s.center.x && seen[o + 1] === s.center.y && seen[o + 2] === s.center.z && seen[o + 3] === s.radius;
}
