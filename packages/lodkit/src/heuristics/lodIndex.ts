/**
 * The threshold → fractional LOD index rules of OpenUSD's `ComputeLOD(double)`, and its two
 * hysteresis rules. Shared by the heuristics, {@link LodThresholds} and the batch engine.
 *
 * Contributor notes:
 * - Thresholds are stored as `Float32Array` because OpenUSD stores them as `VtFloatArray`; the
 *   screen-size scan compares `float(size) > threshold` (OpenUSD's `std::greater<float>`), while the
 *   blend window test and the distance scan compare in double. `Math.fround` reproduces every
 *   float rounding OpenUSD does, so our indices are bit-identical to its `float` results.
 * - A linear scan replaces OpenUSD's `std::upper_bound`; on validated (sorted) thresholds both find
 *   the same index, and with ≤ 8 levels the scan is faster than a binary search.
 * - NaN sizes fall through every comparison and give the coarsest level, a safe result.
 * - Each rule also exists as `write…(…, out, offset)`: V8 boxes a double returned from a call it
 *   does not inline (its inlining budget runs out inside the heuristics' larger methods), so code
 *   that must not allocate writes the result into a typed array instead.
 *
 * @module
 */

const lodScratch = new Float64Array(1);

/**
 * Fractional LOD index for a screen size against DESCENDING thresholds (OpenUSD's
 * `UsdLodScreenSizeHeuristicQuery::ComputeLOD`): LOD j while `size > thresholds[j]`; inside a blend
 * window `thresholds[i] ≥ size > max(blendThresholds[i], thresholds[i+1])` the result is
 * `i + (size − a) / (b − a)`. Allocation-free.
 * @category Heuristics
 */
export function computeLodDescending(thresholds: Float32Array, blendThresholds: Float32Array, size: number): number {
  writeLodDescending(thresholds, blendThresholds, size, lodScratch, 0);
  return lodScratch[0];
}

/** {@link computeLodDescending} writing its result to `out[offset]`. @category Heuristics */
export function writeLodDescending(thresholds: Float32Array, blendThresholds: Float32Array, size: number, out: Float64Array | Float32Array, offset: number): void {
  const n = thresholds.length;
  const sizeF = Math.fround(size);
  let lod = 0;
  while (lod < n && !(sizeF > thresholds[lod])) lod++;
  const nb = blendThresholds.length;
  if (nb === 0) { out[offset] = lod; return; }
  let blend = 0;
  while (blend < nb && !(sizeF > blendThresholds[blend])) blend++;
  if (blend > lod) blend = lod;
  if (blend < lod - 1) blend = lod - 1;
  if (blend === lod || blend >= nb) { out[offset] = lod; return; }
  const a = thresholds[blend];
  let b = blendThresholds[blend];
  if (lod < n && thresholds[lod] > b) b = thresholds[lod];
  if (a >= size && size > b) {
    const fraction = Math.fround((size - a) / Math.fround(b - a));
    out[offset] = Math.fround(blend + fraction);
    return;
  }
  out[offset] = lod;
}

/**
 * Fractional LOD index for a distance against ASCENDING thresholds (OpenUSD's
 * `UsdLodDistanceHeuristicQuery::ComputeLOD`): LOD j while `distance < thresholds[j]`; inside a
 * blend window `thresholds[i] ≤ d < min(blendThresholds[i], thresholds[i+1])` the result is
 * `i + (d − a) / (b − a)`. Allocation-free.
 * @category Heuristics
 */
export function computeLodAscending(thresholds: Float32Array, blendThresholds: Float32Array, distance: number): number {
  writeLodAscending(thresholds, blendThresholds, distance, lodScratch, 0);
  return lodScratch[0];
}

/** {@link computeLodAscending} writing its result to `out[offset]`. @category Heuristics */
export function writeLodAscending(thresholds: Float32Array, blendThresholds: Float32Array, distance: number, out: Float64Array | Float32Array, offset: number): void {
  const n = thresholds.length;
  let lod = 0;
  while (lod < n && !(distance < thresholds[lod])) lod++;
  const nb = blendThresholds.length;
  if (nb === 0) { out[offset] = lod; return; }
  let blend = 0;
  while (blend < nb && !(distance < blendThresholds[blend])) blend++;
  if (blend > lod) blend = lod;
  if (blend < lod - 1) blend = lod - 1;
  if (blend === lod || blend >= nb) { out[offset] = lod; return; }
  const a = thresholds[blend];
  let b = blendThresholds[blend];
  if (lod < n && thresholds[lod] < b) b = thresholds[lod];
  if (a <= distance && distance < b) {
    const fraction = Math.fround((distance - a) / Math.fround(b - a));
    out[offset] = Math.fround(blend + fraction);
    return;
  }
  out[offset] = lod;
}

/** Which hysteresis rule a heuristic applies. @category Heuristics */
export type HysteresisSemantics = 'documented' | 'openusd';

/**
 * OpenUSD's DOCUMENTED hysteresis: keep `previous` while `|value − previous| < band`, else take
 * `value`. Switches in one jump once the band is exceeded.
 * @category Heuristics
 */
export function hysteresisDocumented(value: number, previous: number, band: number): number {
  return Math.abs(value - previous) < band ? previous : value;
}

/**
 * OpenUSD 26.08's IMPLEMENTED hysteresis: clamp `previous` into `[value − band, value + band]`, so
 * the kept value trails the true value by at most `band`.
 * @category Heuristics
 */
export function hysteresisOpenUsd(value: number, previous: number, band: number): number {
  if (previous < value - band) return value - band;
  if (previous > value + band) return value + band;
  return previous;
}

/**
 * OpenUSD's `std::upper_bound` over descending thresholds with `std::greater<float>`: the first i
 * (binary search) with `float(size) > t[i]`. On sorted thresholds this is the linear scan of
 * {@link writeLodDescending}; on unsorted ones (which only the `'openusd'` input mode accepts) it
 * is the index OpenUSD finds.
 */
function upperBoundGreater(t: Float32Array, sizeF: number): number {
  let first = 0, len = t.length;
  while (len > 0) {
    const half = len >> 1, middle = first + half;
    if (sizeF > t[middle]) len = half;
    else { first = middle + 1; len = len - half - 1; }
  }
  return first;
}

/** `std::upper_bound` over ascending thresholds with `<` (double against float): the first i with `d < t[i]`. */
function upperBoundLess(t: Float32Array, distance: number): number {
  let first = 0, len = t.length;
  while (len > 0) {
    const half = len >> 1, middle = first + half;
    if (distance < t[middle]) len = half;
    else { first = middle + 1; len = len - half - 1; }
  }
  return first;
}

/**
 * {@link writeLodDescending} for thresholds that may be unsorted or have extra blend thresholds:
 * OpenUSD's `ComputeLOD(double)` step for step (binary searches, the clamp of the blend index, the
 * float32 blend), so any data OpenUSD accepts gives OpenUSD's index. Used by the `'openusd'` input
 * mode of {@link ScreenSizeHeuristic}.
 * @category Heuristics
 */
export function writeLodDescendingUnchecked(thresholds: Float32Array, blendThresholds: Float32Array, size: number, out: Float64Array | Float32Array, offset: number): void {
  const sizeF = Math.fround(size);
  const lod = upperBoundGreater(thresholds, sizeF);
  if (blendThresholds.length === 0) { out[offset] = lod; return; }
  writeBlendUnchecked(thresholds, blendThresholds, lod, upperBoundGreater(blendThresholds, sizeF), size, true, out, offset);
}

/** {@link writeLodAscending} for data OpenUSD accepts unsorted; see {@link writeLodDescendingUnchecked}. @category Heuristics */
export function writeLodAscendingUnchecked(thresholds: Float32Array, blendThresholds: Float32Array, distance: number, out: Float64Array | Float32Array, offset: number): void {
  const lod = upperBoundLess(thresholds, distance);
  if (blendThresholds.length === 0) { out[offset] = lod; return; }
  writeBlendUnchecked(thresholds, blendThresholds, lod, upperBoundLess(blendThresholds, distance), distance, false, out, offset);
}

/**
 * The blend step both unchecked rules share once their binary searches found `lod` and `blend`:
 * OpenUSD clamps the blend index into `[lod − 1, lod]`; inside the window between
 * `thresholds[blend]` and the nearer of `blendThresholds[blend]` and `thresholds[lod]` (sizes
 * descend, distances ascend) the index is `blend + (value − a) / (b − a)` in float32, else `lod`.
 */
function writeBlendUnchecked(
  thresholds: Float32Array, blendThresholds: Float32Array, lod: number, blend: number, value: number, descending: boolean,
  out: Float64Array | Float32Array, offset: number,
): void {
  if (blend > lod) blend = lod;
  if (blend < lod - 1) blend = lod - 1;
  if (blend === lod || blend >= blendThresholds.length) { out[offset] = lod; return; }
  const a = thresholds[blend];
  let b = blendThresholds[blend];
  let inside: boolean;
  if (descending) {
    if (lod < thresholds.length && thresholds[lod] > b) b = thresholds[lod];
    inside = a >= value && value > b;
  } else {
    if (lod < thresholds.length && thresholds[lod] < b) b = thresholds[lod];
    inside = a <= value && value < b;
  }
  out[offset] = inside ? Math.fround(blend + Math.fround((value - a) / Math.fround(b - a))) : lod;
}

/**
 * The fractional LOD index of `value` into `out[offset]`: descending sizes or ascending distances,
 * validated data or OpenUSD's reading of any data (`unchecked`). What both heuristics' `computeLod`
 * and `select` run. @internal
 */
export function writeLod(
  thresholds: Float32Array, blendThresholds: Float32Array, value: number, descending: boolean, unchecked: boolean,
  out: Float64Array, offset: number,
): void {
  if (descending) {
    if (unchecked) writeLodDescendingUnchecked(thresholds, blendThresholds, value, out, offset);
    else writeLodDescending(thresholds, blendThresholds, value, out, offset);
  } else if (unchecked) writeLodAscendingUnchecked(thresholds, blendThresholds, value, out, offset);
  else writeLodAscending(thresholds, blendThresholds, value, out, offset);
}
