/**
 * Groups of `SUPER_SIZE` (blocks.ts) consecutive clusters (Morton order: a spatial block) with one
 * bounding sphere around their clusters' spheres, so that a frame culls a block that lies wholly
 * outside a plane of every view with one test instead of one per cluster ({@link cullBlocks}). On
 * the tree field about 11,000 of the 15,625 clusters are culled in every frame and each cluster
 * test cost ≈ 30 ns. (Threaded thresholds chunks test clusters one by one: any chunk size.)
 *
 * Why the result is the per-cluster one: the block's sphere contains each of its clusters'
 * spheres (centre ± the largest `|c_i − C| + R_i`, grown by a relative 1e-9 and 1e-9 × the
 * coordinates' magnitude, far above the double rounding of the tests), so with unit plane normals
 * `n·C + w < −R_S` implies `n·c_i + w < −R_i`: every cluster of a culled block would have been
 * culled by its own test, and is then handled exactly as the per-cluster path handles a culled
 * cluster. A block with a cluster of NaN bounds (an invalid sphere) gets a NaN radius and is never
 * culled whole; clusters without live objects do not count.
 *
 * @module
 */
import type { ClusterIndex } from './clusters.js';
import type { ClusterViews } from './clusterViews.js';
import { SUPER_SHIFT, SUPER_SIZE } from './blocks.js';
import { PLANE_VALUES, VB, VB_PLANES } from '../core/layout.js';

/** Recomputes the spheres of the blocks marked since the last call (after the clusters' refits). */
export function refitSupers(ci: ClusterIndex): void {
  const sc = ci.supers, list = sc.list, bounds = ci.bounds, live = ci.live, out = sc.bounds;
  for (let k = 0; k < sc.count; k++) {
    const s = list[k], first = s << SUPER_SHIFT, last = Math.min(first + SUPER_SIZE, ci.count);
    sc.dirty[s] = 0;
    let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity, bad = false, any = false;
    for (let c = first; c < last; c++) {
      if (live[c] === 0) continue;
      const o = c * 6, x = bounds[o], y = bounds[o + 1], z = bounds[o + 2];
      if (bounds[o + 3] !== bounds[o + 3]) { bad = true; break; }
      any = true;
      if (x < minX) minX = x; if (x > maxX) maxX = x;
      if (y < minY) minY = y; if (y > maxY) maxY = y;
      if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
    }
    const q = s * 4;
    if (bad || !any) { out[q] = 0; out[q + 1] = 0; out[q + 2] = 0; out[q + 3] = Number.NaN; continue; }
    const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2, cz = (minZ + maxZ) / 2;
    let radius = 0;
    for (let c = first; c < last; c++) {
      if (live[c] === 0) continue;
      const o = c * 6, dx = bounds[o] - cx, dy = bounds[o + 1] - cy, dz = bounds[o + 2] - cz;
      const e = Math.sqrt(dx * dx + dy * dy + dz * dz) + bounds[o + 3];
      if (e > radius) radius = e;
    }
    out[q] = cx; out[q + 1] = cy; out[q + 2] = cz;
    out[q + 3] = radius * (1 + 1e-9) + (Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + radius) * 1e-9;
  }
  sc.count = 0;
}

/** 1 when block `s`'s sphere lies wholly outside some plane of every view (culling on), else 0. */
export function superCulled(ci: ClusterIndex, cv: ClusterViews, s: number): number {
  const b = ci.supers.bounds, q = s * 4;
  if (!(b[q + 3] === b[q + 3])) return 0;
  // Widened by 1e-9 × the eye's magnitude: the planes' offsets grow with the eye's coordinates.
  for (let v = 0; v < cv.count; v++) if (sphereSide(cv, v, b, q, true) !== 1) return 0;
  return 1;
}

/**
 * Where the sphere centre `(b[o], b[o + 1], b[o + 2])`, radius `b[o + 3]` (plus 1e-9 × the eye's
 * magnitude when `widen`) lies against view `v`'s planes: 1 wholly outside one of them, 2 wholly
 * inside all, else 0 (NaN radius: 0). The cluster test (clusterPass.ts `classify`) and the block
 * test; it takes and returns no doubles (V8 boxes them at a call it does not inline).
 */
export function sphereSide(cv: ClusterViews, v: number, b: Float64Array, o: number, widen: boolean): number {
  const block = cv.block, q = v * VB, cx = b[o], cy = b[o + 1], cz = b[o + 2];
  const R = widen ? b[o + 3] + 1e-9 * cv.eyeMagnitude : b[o + 3];
  let m = 1e308;
  for (let j = VB_PLANES; j < VB_PLANES + PLANE_VALUES; j += 4) {
    const d = block[q + j] * cx + block[q + j + 1] * cy + block[q + j + 2] * cz + block[q + j + 3];
    if (d < m) m = d;
  }
  return m < -R ? 1 : m >= R ? 2 : 0;
}

/**
 * For the policy passes, which collect culled clusters in `ci.culledList`: appends the live
 * clusters of every block culled whole there (after `ci.culledCount`) and fills `ci.supers.runs`
 * with the ranges `[from, to)` of the other clusters; returns the number of ranges. Culling off:
 * one range, every cluster.
 */
export function cullBlocks(ci: ClusterIndex, cv: ClusterViews): number {
  const sc = ci.supers, count = ci.count, live = ci.live, culledList = ci.culledList;
  if (sc.runs.length < 2 * sc.dirty.length + 2) sc.runs = new Uint32Array(2 * sc.dirty.length + 2);
  const runs = sc.runs;
  let n = 0, from = 0, q = ci.culledCount;
  if (cv.cull) {
    for (let first = 0; first < count; first += SUPER_SIZE) {
      if (superCulled(ci, cv, first >> SUPER_SHIFT) === 0) continue;
      const last = first + SUPER_SIZE < count ? first + SUPER_SIZE : count;
      if (from < first) { runs[n++] = from; runs[n++] = first; }
      for (let c = first; c < last; c++) if (live[c] !== 0) culledList[q++] = c;
      from = last;
    }
  }
  if (from < count) { runs[n++] = from; runs[n++] = count; }
  ci.culledCount = q;
  return n >> 1;
}
