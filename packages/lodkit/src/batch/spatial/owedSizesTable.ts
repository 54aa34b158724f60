/**
 * The owed-sizes table of a `ClusterIndex`: which clusters' sizes a frame proved but left to be
 * computed when read, and the numbers computing them needs. Data only — every settle and drop rule
 * is in owedSizes.ts.
 *
 * @module
 */
/** Nothing owed / eye distances (rankQuota) / projected diameters in px (budget). */
export const OWED_NONE = 0, OWED_DISTANCE = 1, OWED_PIXELS = 2;

/** The owed clusters of one set and the numbers their values need. */
export class OwedSizes {
  kind = OWED_NONE;
  /** Eye x, y, z; pixels: height factor `wh`, pixel scale, bias, viewport cap. */
  params: Float64Array = new Float64Array(7);
  /** Per cluster 1 while owed; the owed clusters in `list[0 … count)` (settled ones have flag 0). */
  flag: Uint8Array = new Uint8Array(0);
  list: Uint32Array = new Uint32Array(0);
  count = 0;

  /** Sizes the per-cluster arrays for `clusters` clusters (keeps the debt). */
  ensure(clusters: number): void {
    if (this.flag.length >= clusters) return;
    const flag = new Uint8Array(clusters), list = new Uint32Array(clusters);
    flag.set(this.flag); list.set(this.list.subarray(0, this.count));
    this.flag = flag; this.list = list;
  }
}

