/**
 * Blocks of {@link SUPER_SIZE} consecutive clusters (a spatial block in Morton order): the data a
 * `ClusterIndex` keeps per block — one bounding sphere and which blocks need a refit. The
 * refit and the culling that read it live in blockCulling.ts.
 *
 * @module
 */
/** Clusters per block. */
export const SUPER_SIZE = 16;
/** log2 of {@link SUPER_SIZE}: block `s` holds clusters `[s << SUPER_SHIFT, (s + 1) << SUPER_SHIFT)`. */
export const SUPER_SHIFT = 4;

/** The blocks' bounding spheres (centre x, y, z, radius per block) and which need a refit. */
export class SuperClusters {
  bounds: Float64Array = new Float64Array(0);
  dirty: Uint8Array = new Uint8Array(0);
  list: Uint32Array = new Uint32Array(0);
  count = 0;
  /** Scratch of `cullBlocks` (blockCulling.ts): cluster ranges `[runs[2k], runs[2k + 1])` outside culled blocks. */
  runs: Uint32Array = new Uint32Array(0);

  /** Sizes the arrays for `clusters` clusters (keeps the bounds and the dirty marks). */
  ensure(clusters: number): void {
    const n = (clusters + SUPER_SIZE - 1) >> SUPER_SHIFT;
    if (this.dirty.length >= n) return;
    const b = new Float64Array(n * 4), d = new Uint8Array(n), l = new Uint32Array(n);
    b.set(this.bounds); d.set(this.dirty); l.set(this.list.subarray(0, this.count));
    this.bounds = b; this.dirty = d; this.list = l;
  }

  /** Cluster `c` was refitted: its block's sphere is recomputed before the next frame's tests. */
  mark(c: number): void {
    const s = c >> SUPER_SHIFT;
    if (s >= this.dirty.length) this.ensure((s + 1) << SUPER_SHIFT);
    if (this.dirty[s] === 0) { this.dirty[s] = 1; this.list[this.count++] = s; }
  }
}

