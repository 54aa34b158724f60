/**
 * The order in which a batch of spheres enters the clusters (`ClusterIndex.addBatch`, and the
 * WebGPU selector's clusters): radius band, then Morton order; small batches by insertion sort.
 *
 * @module
 */
/**
 * The order of `n` spheres for clustering: by radius band (factor-2 bands above the batch's smallest
 * radius, 4 bands), then Morton order (10 bits per axis over the batch's bounding cube of finite
 * centres). Returns the permutation `order[k]` = index of the k-th sphere. Two 16-bit radix passes.
 *
 * Why radius bands: a cluster's size interval spans its radius ratio; trees of 2–6 m in one cluster
 * straddle a threshold at almost every distance and must be evaluated per object, while clusters of
 * one band are twice as wide but span at most a factor 2 (tree field, walking camera: evaluated
 * objects per frame measured in bench/RESULTS.md).
 */
export function mortonOrder(spheres: Float32Array, n: number): Uint32Array {
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  let minR = Infinity;
  for (let i = 0; i < n; i++) {
    const x = spheres[i * 4], y = spheres[i * 4 + 1], z = spheres[i * 4 + 2], r = spheres[i * 4 + 3];
    if (x - x !== 0 || y - y !== 0 || z - z !== 0) continue;
    if (r > 0 && r < minR) minR = r;
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
    if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
  }
  const keys = new Uint32Array(n);
  // One scale for the three axes (cubic cells): a flat field keeps its height bits at zero and is
  // ordered in 2D, instead of spending a third of the bits on a few metres of height.
  const extent = Math.max(maxX - minX, maxY - minY, maxZ - minZ);
  const sx = extent > 0 ? 1023.999 / extent : 0, sy = sx, sz = sx;
  for (let i = 0; i < n; i++) {
    const x = spheres[i * 4], y = spheres[i * 4 + 1], z = spheres[i * 4 + 2];
    if (x - x !== 0 || y - y !== 0 || z - z !== 0) { keys[i] = 0; continue; }
    const r = spheres[i * 4 + 3];
    let band = 0; // radius band: [r0, 2 r0), [2 r0, 4 r0), [4 r0, 8 r0), ≥ 8 r0 (r0 = the batch's smallest radius)
    if (r >= 2 * minR) band = r >= 8 * minR ? 3 : r >= 4 * minR ? 2 : 1;
    keys[i] = ((band << 30) | spread((x - minX) * sx) | (spread((y - minY) * sy) << 1) | (spread((z - minZ) * sz) << 2)) >>> 0;
  }
  let order = new Uint32Array(n), tmp = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n <= SMALL_BATCH) return insertionOrder(keys, order, n);
  const counts = new Uint32Array(65536);
  for (let pass = 0; pass < 2; pass++) {
    const shift = pass * 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(keys[order[i]] >>> shift) & 65535]++;
    let sum = 0;
    for (let b = 0; b < 65536; b++) { const c = counts[b]; counts[b] = sum; sum += c; }
    for (let i = 0; i < n; i++) { const j = order[i]; tmp[counts[(keys[j] >>> shift) & 65535]++] = j; }
    const t = order; order = tmp; tmp = t;
  }
  return order;
}

/**
 * Batches up to this size are ordered by a stable insertion sort: the radix passes clear and scan
 * 2 × 65,536 counters whatever the batch size (most of a small `addMany`, and of the warm-up's).
 */
const SMALL_BATCH = 256;

/** Stable sort of `order` (the identity) by `keys`: the permutation the stable radix passes give. */
function insertionOrder(keys: Uint32Array, order: Uint32Array, n: number): Uint32Array {
  for (let i = 1; i < n; i++) {
    const j = order[i], key = keys[j];
    let k = i - 1;
    while (k >= 0 && keys[order[k]] > key) { order[k + 1] = order[k]; k--; }
    order[k + 1] = j;
  }
  return order;
}

/** Spreads the 10 low bits of `v` (a value in [0, 1024)) to every third bit. */
function spread(v: number): number {
  let x = (v | 0) & 1023;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x;
}
