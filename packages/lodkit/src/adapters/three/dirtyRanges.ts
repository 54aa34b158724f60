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
/** Packing of a range into one float64: start × SPAN + length, so a numeric sort orders by start. */
const SPAN = 2 ** 26;

export class DirtyRanges {
  /** Ranges (packed) since the last flush, and how many. */
  private keys = new Float64Array(MAX_RANGES);
  private count = 0;
  /** Bytes and ranges handed to three (cumulative; a range merged again is counted once). */
  bytes = 0;
  ranges = 0;

  /** Slots `[start, end)` were written. */
  add(start: number, end: number): void {
    if (this.count === this.keys.length) { const k = new Float64Array(this.count * 2); k.set(this.keys); this.keys = k; }
    this.keys[this.count++] = start * SPAN + (end - start);
  }

  /** Forgets the pending ranges (the attributes were replaced: three uploads them whole). */
  clear(): void { this.count = 0; }

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
      n = mergeClosest(this.keys, this.count);
    }
    this.count = 0;
    const keys = this.keys;
    for (let k = 0; k < n; k++) {
      const key = keys[k], length = key % SPAN, start = (key - length) / SPAN;
      matrix.addUpdateRange(start * 16, length * 16);
      color?.addUpdateRange(start * 3, length * 3);
      this.bytes += length * perSlot; this.ranges += sets;
    }
    matrix.needsUpdate = true;
    if (color !== null) color.needsUpdate = true;
  }
}

/**
 * Sorts the `n` packed ranges of `keys` by start, merges overlapping and touching ones, then merges
 * across the smallest gaps (a gap bound that doubles up to {@link MAX_GAP}) until at most
 * {@link MAX_RANGES} are left; writes them to the front of `keys` and returns how many.
 */
export function mergeClosest(keys: Float64Array, n: number): number {
  keys.fill(Infinity, n).sort(); // (the whole array: a subarray view would be an object per call)
  let gap = 0, m = n;
  for (;;) {
    m = 0;
    for (let k = 0; k < n; k++) {
      const key = keys[k], length = key % SPAN, start = (key - length) / SPAN;
      if (m > 0) {
        const last = keys[m - 1], lastLength = last % SPAN, lastStart = (last - lastLength) / SPAN, lastEnd = lastStart + lastLength;
        if (start <= lastEnd + gap) {
          const end = Math.max(lastEnd, start + length);
          keys[m - 1] = lastStart * SPAN + (end - lastStart);
          continue;
        }
      }
      keys[m++] = key;
    }
    if (m <= MAX_RANGES || gap === MAX_GAP) return m;
    n = m;
    gap = gap === 0 ? 1 : gap * 2;
  }
}
