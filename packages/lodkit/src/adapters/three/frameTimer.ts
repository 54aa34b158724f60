/**
 * Measured frame times for `budget: { frameMs }` in lodkit/three: GPU time from WebGL2 timer
 * queries (`EXT_disjoint_timer_query_webgl2`) where the context has them, else the interval
 * between two `LodManager.update` calls. Each measurement is handed to the `LodSet`'s
 * {@link FrameTimeGovernor} together with the triangles and draws of the frame it measured.
 *
 * How it measures:
 * - **GPU**: one `TIME_ELAPSED` query runs from one `update` to the next, so it spans every GPU
 *   command of the frame drawn with the levels that `update` chose (the render call, plus whatever
 *   else the app draws). Results arrive a few frames later; a ring of {@link FRAME_TIMER_QUERIES}
 *   queries keeps the stats each one belongs to. A result during which the GPU was disjoint
 *   (`GPU_DISJOINT_EXT`: power state change, context switch) is dropped.
 * - **Intervals**: `performance.now()` between consecutive updates, paired with the previous
 *   update's stats. With vsync on, an interval cannot be shorter than the refresh period, so
 *   intervals tell the governor when it is over the target but not how much room is left: set the
 *   target a little below the refresh period (e.g. 15.5 ms at 60 Hz) or prefer a context with timer
 *   queries.
 *
 * @module
 */
import type { LodFrameStats, LodSet } from '../../batch/lodSet.js';

/** Queries in flight at most (results are read up to this many frames late). @category three.js */
export const FRAME_TIMER_QUERIES = 4;

/** The parts of a WebGL2 context the timer uses. @category three.js */
export interface TimerQueryContext {
  /** `WebGL2RenderingContext.getExtension` (the timer asks for `EXT_disjoint_timer_query_webgl2`). */
  getExtension(name: string): unknown;
  /** `WebGL2RenderingContext.createQuery`. */
  createQuery(): unknown;
  /** `WebGL2RenderingContext.beginQuery`. */
  beginQuery(target: number, query: unknown): void;
  /** `WebGL2RenderingContext.endQuery`. */
  endQuery(target: number): void;
  /** `WebGL2RenderingContext.getQueryParameter` (result and availability of a query). */
  getQueryParameter(query: unknown, pname: number): unknown;
  /** `WebGL2RenderingContext.getParameter` (the extension's `GPU_DISJOINT_EXT` flag). */
  getParameter(pname: number): unknown;
  /** `WebGL2RenderingContext.deleteQuery`; optional. */
  deleteQuery?(query: unknown): void;
  readonly QUERY_RESULT: number;
  readonly QUERY_RESULT_AVAILABLE: number;
}

interface TimerExtension { TIME_ELAPSED_EXT: number; GPU_DISJOINT_EXT: number }

/**
 * Feeds a `LodSet`'s frame-time governor with measured frame times; call {@link FrameTimer.afterUpdate}
 * right after each `LodSet.update` (LodManager does this when `budget` is `{ frameMs }`).
 * @example
 * ```ts
 * const timer = new FrameTimer(renderer.getContext());
 * const stats = set.update(views, { policy: hybridPolicy, budget: { frameMs: 16.7 } }); // hybridPolicy from 'lodkit'
 * timer.afterUpdate(set, stats);
 * ```
 * @category three.js
 */
export class FrameTimer {
  /** `'gpu'` with timer queries, `'interval'` otherwise. */
  readonly source: 'gpu' | 'interval';
  /** Measurements handed to the governor. */
  measured = 0;
  /** GPU results dropped because the GPU was disjoint. */
  disjoint = 0;
  private readonly gl: TimerQueryContext | null;
  private readonly ext: TimerExtension | null;
  private readonly queries: unknown[] = [];
  private readonly triangles = new Float64Array(FRAME_TIMER_QUERIES);
  private readonly draws = new Float64Array(FRAME_TIMER_QUERIES);
  private readonly pending = new Uint8Array(FRAME_TIMER_QUERIES);
  private head = 0;
  private active = -1;
  private lastTime = Number.NaN;
  private lastTriangles = 0;
  private lastDraws = 0;
  private readonly now: () => number;

  /** `gl`: the renderer's context (`renderer.getContext()`), or null for frame intervals; `now`: the clock (ms). */
  constructor(gl: TimerQueryContext | null, now: () => number = () => performance.now()) {
    this.now = now;
    const ext = gl !== null && typeof gl.createQuery === 'function'
      ? (gl.getExtension('EXT_disjoint_timer_query_webgl2') as TimerExtension | null) : null;
    this.gl = ext ? gl : null;
    this.ext = ext ?? null;
    this.source = ext ? 'gpu' : 'interval';
    if (this.gl !== null) for (let q = 0; q < FRAME_TIMER_QUERIES; q++) this.queries.push(this.gl.createQuery());
  }

  /** Ends the running measurement, starts the next one for this update's selection, and feeds finished results. */
  afterUpdate(set: LodSet, stats: LodFrameStats): void {
    const governor = set.frameTimeGovernor;
    const drawn = drawnObjects(stats);
    if (this.gl === null || this.ext === null) {
      const t = this.now();
      if (governor !== null && this.lastTime === this.lastTime) {
        governor.observe(t - this.lastTime, this.lastTriangles, this.lastDraws);
        this.measured++;
      }
      this.lastTime = t;
      this.lastTriangles = stats.totalCost;
      this.lastDraws = drawn;
      return;
    }
    const gl = this.gl, ext = this.ext;
    if (this.active >= 0) { gl.endQuery(ext.TIME_ELAPSED_EXT); this.pending[this.active] = 1; this.active = -1; }
    // Read finished results oldest first; a result is only valid if the GPU was not disjoint meanwhile.
    const disjoint = gl.getParameter(ext.GPU_DISJOINT_EXT) === true;
    for (let k = 1; k <= FRAME_TIMER_QUERIES; k++) {
      const slot = (this.head + k) % FRAME_TIMER_QUERIES;
      if (this.pending[slot] === 0) continue;
      if (gl.getQueryParameter(this.queries[slot], gl.QUERY_RESULT_AVAILABLE) !== true) break;
      this.pending[slot] = 0;
      if (disjoint) { this.disjoint++; continue; }
      const ns = gl.getQueryParameter(this.queries[slot], gl.QUERY_RESULT) as number;
      if (governor !== null) { governor.observe(ns / 1e6, this.triangles[slot], this.draws[slot]); this.measured++; }
    }
    const next = (this.head + 1) % FRAME_TIMER_QUERIES;
    if (this.pending[next] === 1) return; // every query still in flight: skip measuring this frame
    this.head = next;
    this.triangles[next] = stats.totalCost;
    this.draws[next] = drawn;
    gl.beginQuery(ext.TIME_ELAPSED_EXT, this.queries[next]);
    this.active = next;
  }

  /** Stops a running query and frees the queries. */
  dispose(): void {
    if (this.gl === null || this.ext === null) return;
    if (this.active >= 0) { this.gl.endQuery(this.ext.TIME_ELAPSED_EXT); this.active = -1; }
    for (const q of this.queries) this.gl.deleteQuery?.(q);
    this.queries.length = 0;
  }
}

/**
 * The WebGL context of a three.js renderer (`renderer.getContext()`), or null when it has none.
 * @example
 * ```ts
 * const timer = new FrameTimer(webglContextOf(renderer));
 * ```
 * @category three.js
 */
export function webglContextOf(renderer: unknown): TimerQueryContext | null {
  const r = renderer as { getContext?: () => unknown } | null;
  if (r === null || typeof r !== 'object' || typeof r.getContext !== 'function') return null;
  const gl = r.getContext() as TimerQueryContext | null;
  return gl !== null && typeof gl === 'object' && typeof gl.getExtension === 'function' ? gl : null;
}

/** Draw calls of a frame, approximated by the objects drawn (one draw each; instancing draws fewer). */
function drawnObjects(stats: LodFrameStats): number {
  let n = 0;
  const counts = stats.levelCounts;
  for (let l = 0; l < counts.length; l++) n += counts[l];
  return n;
}
