/**
 * Which regime a budget frame starts in (issue 28, "a budget is a cap"): while the thresholds'
 * selection fits the budget, the budget policy draws it — levels, blend and sizes of a thresholds
 * frame — and only when it does not fit, the least screen-space error that fits (the knapsack),
 * below the minimum cost every object at its coarsest allowed level. A frame knows which only after
 * the thresholds' pass (hybrid's first pass); running that pass before every knapsack would cost a
 * second pass in every binding frame, so a frame starts with it when
 *
 * - the last budget frame drew the thresholds' selection (the first frame of a set too), or
 * - the last knapsack bought every step it offered (the budget did not bind the solver) and the
 *   budget covers the thresholds' cost the last try measured, or
 * - the wait after the last try that did not fit has passed: 1, 2, 4, 8, then every 16 knapsack
 *   frames. (Under the stability band a binding knapsack buys every step it offers every other
 *   frame or so; and an error model that asks for finer levels than the thresholds, explicit
 *   `errors`, can bind the knapsack while the thresholds' selection fits.)
 *
 * So the thresholds' selection is drawn at most 17 frames after it starts to fit — the frame after
 * the knapsack bought everything when the budget rose above the thresholds' cost — and a binding
 * stretch pays the thresholds' pass in one frame of 17. With `trimOverdraw` the knapsack runs every
 * frame.
 *
 * @module
 */
import type { ScreenSpaceScratch } from './screenSpacePasses.js';
import type { FrameState } from '../core/frameState.js';

/** Longest wait (knapsack frames that bought every step) between two tries that did not fit. */
export const MAX_RETRY_GAP = 16;

/** True when this budget frame starts with the thresholds' selection. */
export function startsWithThresholds(sc: ScreenSpaceScratch, trimOverdraw: boolean): boolean {
  return !trimOverdraw && sc.tryThresholds;
}

/**
 * True when a budget frame that does not start with the thresholds' selection writes every size by
 * id (clusterDrivers.ts): below the minimum last frame, or no incremental pass (hold frames, no band
 * or no price). Read before the frame (the band may still narrow on a still frame: then the answer
 * is only less exact, never wrong).
 */
export function takesFullPath(st: FrameState, sc: ScreenSpaceScratch): boolean {
  return sc.regime === 2 || !(st.minFrames === 0 && sc.band > 0 && sc.lambda > 0);
}

/** After the thresholds' pass of a budget frame: its selection's cost, and whether it fitted the budget. */
export function noteThresholdsTry(sc: ScreenSpaceScratch, cost: number, fits: boolean): void {
  if (fits) {
    sc.retryGap = 0; sc.retryIn = 0; sc.tryThresholds = true; sc.regime = 0;
  } else {
    const gap = sc.retryGap * 2;
    sc.retryGap = gap < 1 ? 1 : gap > MAX_RETRY_GAP ? MAX_RETRY_GAP : gap;
    sc.retryIn = sc.retryGap; sc.tryThresholds = false;
    sc.failedCost = cost;
  }
}

/** After a budget frame's knapsack (`sc.boughtAll`: it bought every step it offered) under `budget`. */
export function noteKnapsack(sc: ScreenSpaceScratch, budget: number): void {
  if (sc.retryIn > 0) sc.retryIn--;
  sc.tryThresholds = sc.retryIn === 0 || (sc.boughtAll && budget >= sc.failedCost);
}
