/**
 * Still frames of the budget policies (issue 28, "a still camera converges"): the stability band
 * damps level changes while the camera moves, but it also held a still picture below what fits —
 * an object keeps its level unless a change beats `band × its error`, whatever budget is left. A
 * budget or hybrid frame whose inputs equal the last frame's (the same views, no edit of the set,
 * the same budget and options) narrows the band linearly, to 0 after {@link SETTLE_FRAMES} such
 * frames: the selection then is the one without history (band 0), reached a few levels a frame.
 *
 * Contributor notes:
 * - The views are compared by what the kernels read (planes, eye, window, projection, viewport
 *   height), written into one growing array as they are compared: no allocation in a steady frame.
 * - Edits are counted by `LodSet`'s editing methods (`SetEngine.edits`).
 *
 * @module
 */
import type { LodUpdateOptions, EngineView } from './core/updateOptions.js';

/** Still frames until the band is 0. */
export const SETTLE_FRAMES = 8;
/** Numbers kept per view: planes 24, eye 3, window min 2 / max 2, perspective 1, viewport height 1. */
const PER_VIEW = 33;

/** The last budget or hybrid frame's inputs, and how many frames in a row repeated them. @internal */
export class StillFrames {
  values = new Float64Array(PER_VIEW);
  viewCount = -1;
  edits = -1;
  policy = '';
  budget = 0.5; bias = 0.5; tolerance = 0.5; band = 0.5; hysteresis = 0.5;
  minLevel = -1; maxLevel = -1; cull = false; trim = false;
  /** Frames in a row with the same inputs (0: this frame's differ from the last one's). */
  frames = 0;
}

/** Writes `x` at `values[k]`; true when it was there already. */
function same(values: Float64Array, k: number, x: number): boolean {
  const before = values[k];
  values[k] = x;
  return before === x;
}

/**
 * Records this frame's inputs in `s` and returns the factor of its stability band: 1 after any
 * change, then `1 − k / SETTLE_FRAMES` on the k-th frame in a row with the same inputs (0 from
 * `SETTLE_FRAMES` on).
 */
export function stillBandFactor(s: StillFrames, policy: string, views: EngineView | readonly EngineView[], single: boolean, viewCount: number,
  edits: number, budget: number, options: LodUpdateOptions): number {
  let still = s.viewCount === viewCount && s.edits === edits && s.policy === policy;
  if (s.values.length < viewCount * PER_VIEW) { s.values = new Float64Array(viewCount * PER_VIEW); still = false; }
  const values = s.values;
  for (let v = 0; v < viewCount; v++) {
    const view = single ? (views as EngineView) : (views as readonly EngineView[])[v];
    const f = view.frustum, p = f.planes, o = v * PER_VIEW;
    for (let j = 0; j < 24; j++) if (!same(values, o + j, p[j])) still = false;
    for (let j = 0; j < 3; j++) if (!same(values, o + 24 + j, f.position[j])) still = false;
    if (!same(values, o + 27, f.windowMin[0])) still = false;
    if (!same(values, o + 28, f.windowMin[1])) still = false;
    if (!same(values, o + 29, f.windowMax[0])) still = false;
    if (!same(values, o + 30, f.windowMax[1])) still = false;
    if (!same(values, o + 31, f.isPerspective ? 1 : 0)) still = false;
    if (!same(values, o + 32, view.viewportHeight ?? -1)) still = false;
  }
  const bias = options.bias ?? 1, tolerance = options.tolerance ?? -1, band = options.stabilityBand ?? -1;
  const hysteresis = options.hysteresis ?? 0, minLevel = options.minLevel ?? 0, maxLevel = options.maxLevel ?? 255, cull = options.cull ?? true;
  const trim = options.trimOverdraw === true;
  if (s.budget !== budget || s.bias !== bias || s.tolerance !== tolerance || s.band !== band || s.hysteresis !== hysteresis
    || s.minLevel !== minLevel || s.maxLevel !== maxLevel || s.cull !== cull || s.trim !== trim) still = false;
  s.viewCount = viewCount; s.edits = edits; s.policy = policy;
  s.budget = budget; s.bias = bias; s.tolerance = tolerance; s.band = band; s.hysteresis = hysteresis;
  s.minLevel = minLevel; s.maxLevel = maxLevel; s.cull = cull; s.trim = trim;
  s.frames = still ? s.frames + 1 : 0;
  return s.frames >= SETTLE_FRAMES ? 0 : 1 - s.frames / SETTLE_FRAMES;
}
