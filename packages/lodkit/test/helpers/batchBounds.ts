/**
 * The batch bounds the Morton order starts from (src/batch/spatial/mortonOrder.ts `BATCH_BOUNDS`),
 * computed here from their definition: min x, y, z and max x, y, z over the spheres whose centre is
 * finite, and the smallest positive radius among them — strict comparisons, as the module's own
 * pass (of −0 and +0 the first seen stays).
 */
export function referenceBatchBounds(spheres: Float32Array, n: number): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity, Infinity];
  for (let i = 0; i < n; i++) {
    const [x, y, z, r] = spheres.subarray(i * 4, i * 4 + 4);
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
    [x, y, z].forEach((v, a) => { if (v < b[a]) b[a] = v; if (v > b[a + 3]) b[a + 3] = v; });
    if (r > 0 && r < b[6]) b[6] = r;
  }
  return b;
}
