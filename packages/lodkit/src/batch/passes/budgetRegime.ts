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
import type { FrameState } from '../core/frameState.js';

/** Longest wait (knapsack frames that bought every step) between two tries that did not fit. */
export const MAX_RETRY_GAP = 16;

/** The regime state of one set's budget frames (`ScreenSpaceScratch.regime`). @category Batch */
export class BudgetRegime {
  /** What the last frame drew: 0 the thresholds' selection, 1 the knapsack's, 2 every object at its coarsest (below the minimum). */
  drawn = 0;
  /** The last solve bought every step it offered (the budget did not bind it); the solves write it. */
  boughtAll = false;
  /** The next frame starts with the thresholds' selection. */
  tryThresholds = true;
  /** The wait after the last try that did not fit, the knapsack frames of it left, and that try's cost. */
  retryGap = 0;
  retryIn = 0;
  failedCost = 0.5;

  constructor() {
    this.failedCost = 0; // declared 0.5 above only for V8's double field representation
  }
}

/** True when this budget frame starts with the thresholds' selection. */
export function startsWithThresholds(r: BudgetRegime, trimOverdraw: boolean): boolean {
  return !trimOverdraw && r.tryThresholds;
}

/**
 * True when a budget frame that does not start with the thresholds' selection writes every size by
 * id (clusterDrivers.ts): below the minimum last frame, or no incremental pass (hold frames, no band
 * or no price). Read before the frame (the band may still narrow on a still frame: then the answer
 * is only less exact, never wrong). `sc`: the set's ScreenSpaceScratch (screenSpacePasses.ts).
 */
export function takesFullPath(st: FrameState, sc: { readonly regime: BudgetRegime; band: number; lambda: number }): boolean {
  return sc.regime.drawn === 2 || !(st.minFrames === 0 && sc.band > 0 && sc.lambda > 0);
}

/** After the thresholds' pass of a budget frame: its selection's cost, and whether it fitted the budget. */
export function noteThresholdsTry(r: BudgetRegime, cost: number, fits: boolean): void {
  if (fits) {
    r.retryGap = 0; r.retryIn = 0; r.tryThresholds = true; r.drawn = 0;
  } else {
    const gap = r.retryGap * 2;
    r.retryGap = gap < 1 ? 1 : gap > MAX_RETRY_GAP ? MAX_RETRY_GAP : gap;
    r.retryIn = r.retryGap; r.tryThresholds = false;
    r.failedCost = cost;
  }
}

/** After a budget frame's knapsack (`boughtAll`: it bought every step it offered) under `budget`. */
export function noteKnapsack(r: BudgetRegime, budget: number): void {
  if (r.retryIn > 0) r.retryIn--;
  r.tryThresholds = r.retryIn === 0 || (r.boughtAll && budget >= r.failedCost);
}
