/**
 * `DirtyRanges`: the slot ranges a pool of `InstancedLOD` wrote since its last flush, handed to
 * three as update ranges — merged where they are close, without an object per range written.
 *
 * Why: three's renderers upload each update range of an attribute with one call
 * (`gl.bufferSubData`, WebGPU `writeBuffer`) after merging the ranges that touch. Written one by
 * one, a camera jump over 100k instances (the startup scene) handed three ≈ 19k ranges a frame —
 * ≈ 19k `{ start, count }` objects for three to sort and merge into ≈ 100 calls — and the
 * 1M-instance bench's smooth path, whose writes are scattered, 631 calls a frame
 * (bench/RESULTS-instanced.md). Up to {@link MAX_RANGES} ranges per attribute are passed on as
 * written (smooth frames of small scenes: bytes as marked); beyond that, the pending ranges — this
 * flush's and any the renderer has not uploaded yet — are sorted, and those closest together merged
 * across gaps of at most {@link MAX_GAP} slots until at most {@link MAX_RANGES} are left. Ranges
 * live in a typed array; it grows only when a flush has more ranges than any before.
 *
 * @module
 */
import type { InstancedBufferAttribute } from 'three';

/** Update ranges per attribute above which pending ranges are merged. */
export const MAX_RANGES = 64;
/**
 * The widest gap merged to save an upload call, in slots (256 B of matrices): wider gaps saved
 * more calls but broke the upload budget of ≤ 100 B per changed instance (bench/RESULTS-instanced.md:
 * at 1M instances 631 → 342 calls a frame, 58.5 → 78 B per change; 16 slots: 231 calls, 113 B).
 */
export const MAX_GAP = 4;

export class DirtyRanges {
  /** Ranges `[starts[k], ends[k])` since the last flush, and how many. */
  private starts = new Int32Array(MAX_RANGES);
  private ends = new Int32Array(MAX_RANGES);
  private count = 0;
  /** Bytes and ranges handed to three (cumulative; a range merged again is counted once). */
  bytes = 0;
  ranges = 0;

  /** Slots `[start, end)` were written. */
  add(start: number, end: number): void {
    if (this.count === this.starts.length) {
      const s = new Int32Array(this.count * 2), e = new Int32Array(this.count * 2);
      s.set(this.starts); e.set(this.ends); this.starts = s; this.ends = e;
    }
    this.starts[this.count] = start; this.ends[this.count++] = end;
  }

  /**
   * Hands the pending ranges to `matrix` (16 floats a slot) and `color` (3, or null) and marks them
   * for upload. Both attributes are written through this object only, with the same slot ranges.
   */
  flush(matrix: InstancedBufferAttribute, color: InstancedBufferAttribute | null): void {
    if (this.count === 0) return;
    const perSlot = (16 + (color !== null ? 3 : 0)) * 4, sets = color !== null ? 2 : 1;
    const pending = matrix.updateRanges;
    let n = this.count;
    if (pending.length + n > MAX_RANGES) {
      // Take back what three still holds (its ranges are ours: slots × 16 floats), then merge.
      for (const r of pending) {
        this.add(r.start / 16, (r.start + r.count) / 16);
        this.bytes -= (r.count / 16) * perSlot; this.ranges -= sets;
      }
      matrix.clearUpdateRanges(); color?.clearUpdateRanges();
      n = mergeClosest(this.starts, this.ends, this.count);
    }
    this.count = 0;
    const starts = this.starts, ends = this.ends;
    for (let k = 0; k < n; k++) {
      const start = starts[k], length = ends[k] - start;
      matrix.addUpdateRange(start * 16, length * 16);
      color?.addUpdateRange(start * 3, length * 3);
      this.bytes += length * perSlot; this.ranges += sets;
    }
    matrix.needsUpdate = true;
    if (color !== null) color.needsUpdate = true;
  }
}

/** Radix digit of the sort by start (11 bits: 2,048 counters). */
const DIGIT = 2048;
const counts = new Int32Array(DIGIT);
let orderA = new Int32Array(0), orderB = new Int32Array(0), sortedStarts = new Int32Array(0), sortedEnds = new Int32Array(0);

/**
 * Sorts the `n` ranges `[starts[k], ends[k])` by start, merges overlapping and touching ones, then
 * merges across the smallest gaps (a gap bound that doubles up to {@link MAX_GAP}) until at most
 * {@link MAX_RANGES} are left; writes them to the front of `starts`/`ends` and returns how many.
 * The sort is a stable LSD radix sort of the starts (11-bit digits): a frame's ≈ 19k ranges in
 * ≈ 0.2 ms, where `Float64Array.prototype.sort` of packed keys took 2 ms (Node 20).
 */
export function mergeClosest(starts: Int32Array, ends: Int32Array, n: number): number {
  if (orderA.length < n) {
    orderA = new Int32Array(n); orderB = new Int32Array(n); sortedStarts = new Int32Array(n); sortedEnds = new Int32Array(n);
  }
  let max = 0;
  for (let k = 0; k < n; k++) { orderA[k] = k; if (starts[k] > max) max = starts[k]; }
  let src = orderA, dst = orderB;
  for (let shift = 0; shift === 0 || max >>> shift > 0; shift += 11) {
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[(starts[src[k]] >>> shift) & (DIGIT - 1)]++;
    for (let d = 0, sum = 0; d < DIGIT; d++) { const c = counts[d]; counts[d] = sum; sum += c; }
    for (let k = 0; k < n; k++) { const j = src[k]; dst[counts[(starts[j] >>> shift) & (DIGIT - 1)]++] = j; }
    const t = src; src = dst; dst = t;
  }
  const s = sortedStarts, e = sortedEnds;
  for (let k = 0; k < n; k++) { const j = src[k]; s[k] = starts[j]; e[k] = ends[j]; }
  let gap = 0, m = n;
  for (;;) {
    m = 0;
    for (let k = 0; k < n; k++) {
      if (m > 0 && s[k] <= e[m - 1] + gap) { if (e[k] > e[m - 1]) e[m - 1] = e[k]; continue; }
      s[m] = s[k]; e[m] = e[k]; m++;
    }
    if (m <= MAX_RANGES || gap === MAX_GAP) break;
    n = m;
    gap = gap === 0 ? 1 : gap * 2;
  }
  for (let k = 0; k < m; k++) { starts[k] = s[k]; ends[k] = e[k]; }
  return m;
}
