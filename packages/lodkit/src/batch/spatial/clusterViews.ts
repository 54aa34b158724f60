/**
 * The per-frame view data of the clustered passes (planes, eyes, metric parameters per view), in
 * plain or, in worker-thread mode, shared memory.
 *
 * @module
 */
import { VB } from '../core/layout.js';

// Slots per view in ClusterViews.block: planes [0, 24), eye [24, 27), wh, wa, pixel scale,
// perspective (core/layout.ts VB, VB_*); re-exported for the passes that index the block.
export { VB };

/** Per-frame view data of the clustered pass, refilled by `LodSet` without allocation. */
export class ClusterViews {
  count = 0;
  cull = true;
  exactSizes = false;
  /** Bit mask of the metric codes in use. */
  mask = 0;
  block: Float64Array = new Float64Array(0);
  /** Per view: its planes (the frustum's own array) and the metric kernels' view parameters. */
  planes: Float64Array[] = [];
  kv: Float64Array[] = [];
  /** Per view: 0 partial, 1 wholly outside, 2 wholly inside (scratch for one cluster). */
  klass: Uint8Array = new Uint8Array(0);
  /** Scratch: [lo, hi] of an interval. */
  scr: Float64Array = new Float64Array(4);
  /** Largest |eye coordinate| sum over the views (for the absolute rounding margin). */
  eyeMagnitude = 0.5;
  /** The profile whose parameters the fused kernel holds this frame (−1: none). */
  fusedProfile = -1;
  /** This frame owes the changed blends of the fused kernel's steady slots (owedBlends.ts; set by LodSet). */
  oweBlends = false;

  /** Worker-thread mode: the per-view data in shared memory for `views` views (see threads.ts). */
  sharedPlanes: Float64Array = new Float64Array(0);
  sharedKv: Float64Array = new Float64Array(0);
  /** Worker-thread mode: exactSizes (0/1), eyeMagnitude, sizes in slot order (0/1). */
  scalars: Float64Array = new Float64Array(3);

  /** Worker-thread mode: the view block the workers read (frames with more views use {@link block} alone). */
  sharedBlock: Float64Array = new Float64Array(0);
  /** The view block of frames the shared one cannot hold (all frames outside worker-thread mode). */
  private plainBlock: Float64Array = new Float64Array(0);

  /**
   * Makes {@link block} hold `views` views: the shared block whenever it is large enough (the
   * workers read that one, so a frame with more views than it holds must not replace it for good),
   * else a plain block kept for such frames.
   */
  ensure(views: number): void {
    if (this.klass.length < views) this.klass = new Uint8Array(views);
    if (this.sharedBlock.length >= views * VB) { this.block = this.sharedBlock; return; }
    if (this.plainBlock.length < views * VB) this.plainBlock = new Float64Array(views * VB);
    this.block = this.plainBlock;
    while (this.kv.length < views) { this.kv.push(new Float64Array(8)); this.planes.push(new Float64Array(24)); }
  }

  /** True once the view data is in shared memory (worker-thread mode). */
  get isShared(): boolean {
    return this.sharedBlock.length > 0;
  }

  /** Allocates the view data of `views` views in `SharedArrayBuffer`s (worker-thread mode). */
  makeShared(views: number): void {
    if (this.sharedPlanes.length >= views * 24) return;
    this.sharedBlock = new Float64Array(new SharedArrayBuffer(8 * views * VB));
    this.block = this.sharedBlock;
    if (this.klass.length < views) this.klass = new Uint8Array(views);
    this.sharedPlanes = new Float64Array(new SharedArrayBuffer(8 * views * 24));
    this.sharedKv = new Float64Array(new SharedArrayBuffer(8 * views * 8));
    this.scalars = new Float64Array(new SharedArrayBuffer(24));
    this.planes = []; this.kv = [];
    for (let v = 0; v < views; v++) {
      this.planes.push(this.sharedPlanes.subarray(v * 24, v * 24 + 24));
      this.kv.push(this.sharedKv.subarray(v * 8, v * 8 + 8));
    }
  }
}

