/**
 * The order in which a batch of spheres enters the clusters (`ClusterIndex.addBatch`, and the
 * WebGPU selector's clusters): radius band, then Morton order; small batches by insertion sort.
 *
 * @module
 */
/**
 * The order of `n` spheres for clustering: by radius band (factor-2 bands above the batch's smallest
 * radius, 4 bands), then Morton order (10 bits per axis over the batch's bounding cube of finite
 * centres). Returns the permutation `order[k]` = index of the k-th sphere: a stable sort by key
 * (three 11-bit radix passes; batches of ≤ 256 by insertion).
 *
 * Why radius bands: a cluster's size interval spans its radius ratio; trees of 2–6 m in one cluster
 * straddle a threshold at almost every distance and must be evaluated per object, while clusters of
 * one band are twice as wide but span at most a factor 2 (tree field, walking camera: evaluated
 * objects per frame measured in bench/RESULTS.md).
 *
 * `bounds`: the batch's {@link BATCH_BOUNDS} when the caller's own pass over it computed them
 * (`InstancedLOD`'s spheres loop), which spares this function its first pass; they must be what
 * that pass gives (bounds that miss a centre only cost culling: the keys wrap).
 */
export function mortonOrder(spheres: Float32Array, n: number, bounds: Float64Array | null = null): Uint32Array {
  const b = bounds ?? boundsOf(spheres, n);
  // One scale for the three axes (cubic cells): a flat field keeps its height bits at zero and is
  // ordered in 2D, instead of spending a third of the bits on a few metres of height.
  const extent = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
  const scale = extent > 0 ? 1023.999 / extent : 0;
  const small = n <= SMALL_BATCH;
  const keys = new Uint32Array(n), counts = small ? null : new Uint32Array(3 * DIGIT);
  writeKeys(spheres, n, keys, counts, b[0], b[1], b[2], scale, b[6]);
  if (counts === null) {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    return insertionOrder(keys, order, n);
  }
  for (let d = 0; d < 3; d++) prefixSums(counts, d * DIGIT);
  // Three stable 11-bit passes (LSD): the first scatters ids in input order, so no identity array.
  const order = new Uint32Array(n), tmp = new Uint32Array(n);
  scatterFirst(keys, n, counts, tmp);
  scatter(keys, n, counts, DIGIT, 11, tmp, order);
  scatter(keys, n, counts, 2 * DIGIT, 22, order, tmp);
  return tmp;
}

/*
 * Why this shape (startup, issue 27): `addInstances` of 100k orders its batch once, in a process
 * whose code is still cold. V8 runs each loop interpreted (every float read boxed) until an
 * optimised version of its function is ready, and compiles a small function much sooner than a
 * large one: the single function of two 16-bit passes took 28–36 ms at 100k, hot ≈ 3. So: one small
 * function per loop, histograms counted while the keys are written, the bit spreading read from a
 * 1,024-entry table, and 11-bit digits (3 × 2,048 counters, 24 kB) instead of 2 × 65,536 (512 kB
 * of fresh pages and two 65,536-step prefix loops). Same permutation: any stable LSD radix sort of
 * the same keys gives it.
 */

/** Radix digit: 11 bits (the third digit has the keys' top 10). */
const DIGIT = 2048;
const scratchBounds = new Float64Array(7);

/**
 * The 7 numbers the Morton order starts from: min x, y, z and max x, y, z over the finite centres
 * (x, y, z all finite), and the smallest positive radius of those spheres (Infinity / −Infinity
 * when there is none).
 */
export const BATCH_BOUNDS = 7;

/** The {@link BATCH_BOUNDS} of `spheres`' first `n` spheres. */
function boundsOf(spheres: Float32Array, n: number): Float64Array {
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  let minR = Infinity;
  for (let i = 0; i < n; i++) {
    const o = i * 4, x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    if (x - x !== 0 || y - y !== 0 || z - z !== 0) continue;
    if (r > 0 && r < minR) minR = r;
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
    if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
  }
  const b = scratchBounds;
  b[0] = minX; b[1] = minY; b[2] = minZ; b[3] = maxX; b[4] = maxY; b[5] = maxZ; b[6] = minR;
  return b;
}

/** Each sphere's key (radius band, then Morton code; 0 for a non-finite centre); counts its three digits when `counts`. */
function writeKeys(spheres: Float32Array, n: number, keys: Uint32Array, counts: Uint32Array | null, minX: number, minY: number, minZ: number, scale: number, minR: number): void {
  const spread = spreadTable();
  for (let i = 0; i < n; i++) {
    const o = i * 4, x = spheres[o], y = spheres[o + 1], z = spheres[o + 2];
    let key = 0;
    if (x - x === 0 && y - y === 0 && z - z === 0) {
      const r = spheres[o + 3];
      let band = 0; // radius band: [r0, 2 r0), [2 r0, 4 r0), [4 r0, 8 r0), ≥ 8 r0 (r0 = the batch's smallest radius)
      if (r >= 2 * minR) band = r >= 8 * minR ? 3 : r >= 4 * minR ? 2 : 1;
      key = ((band << 30) | spread[((x - minX) * scale | 0) & 1023] | (spread[((y - minY) * scale | 0) & 1023] << 1)
        | (spread[((z - minZ) * scale | 0) & 1023] << 2)) >>> 0;
    }
    keys[i] = key;
    if (counts !== null) { counts[key & 2047]++; counts[DIGIT + ((key >>> 11) & 2047)]++; counts[2 * DIGIT + (key >>> 22)]++; }
  }
}

/** Exclusive prefix sums of one digit's counters. */
function prefixSums(counts: Uint32Array, from: number): void {
  let sum = 0;
  for (let d = from; d < from + DIGIT; d++) { const c = counts[d]; counts[d] = sum; sum += c; }
}

/** The first pass: ids in input order to their places by the low digit. */
function scatterFirst(keys: Uint32Array, n: number, counts: Uint32Array, out: Uint32Array): void {
  for (let i = 0; i < n; i++) out[counts[keys[i] & 2047]++] = i;
}

/** A later pass: the ids of `src`, in order, to their places by the digit at `shift`. */
function scatter(keys: Uint32Array, n: number, counts: Uint32Array, base: number, shift: number, src: Uint32Array, out: Uint32Array): void {
  for (let i = 0; i < n; i++) { const j = src[i]; out[counts[base + ((keys[j] >>> shift) & 2047)]++] = j; }
}

let spreadValues: Uint32Array | null = null;

/** `spread(v)` for v in [0, 1024): the 10 bits of v moved to every third bit (built on first use). */
function spreadTable(): Uint32Array {
  if (spreadValues !== null) return spreadValues;
  const t = new Uint32Array(1024);
  for (let v = 0; v < 1024; v++) t[v] = spread(v);
  return (spreadValues = t);
}

/**
 * Batches up to this size are ordered by a stable insertion sort: the radix passes clear and scan
 * 3 × 2,048 counters whatever the batch size (most of a small `addMany`, and of the warm-up's).
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
