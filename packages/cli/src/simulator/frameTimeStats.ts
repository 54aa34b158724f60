/**
 * How well a frame-time policy held its target, from its per-frame synthetic-GPU times.
 *
 * Definitions (also in docs/simulate.md):
 * - `error(k) = ms(k) / target − 1`; a frame is **on target** when `|error| ≤ 0.1` (±10 %).
 * - **Load changes** are the start and end of every GPU spike. **Settled** frames are those at
 *   least {@link SETTLE_FRAMES} frames after the first frame and after every load change.
 * - **Idle** frames have nothing left worth drawing: the policy left at least `maxStep` (the
 *   largest finest-minus-coarsest cost of any profile) of its budget unspent, so the governor's
 *   budget did not limit it. Being under the target then is right, not a miss; idle frames are
 *   counted apart and left out of `withinBand` and of the autocorrelation. A frame more than 10 %
 *   over target is never idle.
 * - `recoveryFrames`: per load change, frames from the first frame at or after it until the first
 *   frame that starts a run of {@link HOLD_FRAMES} on-target frames (back and staying back).
 * - `autocorrelation[k − 1]` (k = 1 … 30): the sample autocorrelation of `error` at lag `k` over
 *   pairs of settled, non-idle frames with every frame between them settled and non-idle. A
 *   sustained oscillation of period `P ≤ 60` frames shows a negative `ρ(P/2)`: −A²/2 ÷ (A²/2 + σ²)
 *   for amplitude `A` over noise `σ`; white noise gives `|ρ| ≲ 2/√n`; slow drift (demand changing
 *   with the shot) gives positive `ρ`, which is not oscillation. The documented test: **no
 *   sustained oscillation ⇔ every `ρ(k) > −0.3`** (an oscillation carrying less than 43 % of the
 *   noise's power passes).
 *
 * @module
 */

/** Frames excluded after the start and after each load change. @category Simulator */
export const SETTLE_FRAMES = 30;
/** Consecutive on-target frames that count as "back". @category Simulator */
export const HOLD_FRAMES = 5;
/** Relative band of "on target". @category Simulator */
export const ON_TARGET_BAND = 0.1;

/** Summary of a frame-time policy. @category Simulator */
export interface FrameTimeSummary {
  targetMs: number;
  settledFrames: number;
  /** Settled frames with nothing left worth drawing (budget − cost ≥ maxStep, not over target). */
  idleFrames: number;
  /** Fraction of settled, non-idle frames within ±10 % of the target. */
  withinBand: number;
  /** Fraction of all settled frames more than 10 % above the target. */
  overBand: number;
  /** Per load change (time, s): frames until back within ±10 % (null: never). */
  recovery: Array<{ time: number; frames: number | null }>;
  /** Sample autocorrelation of the settled, non-idle relative error at lags 1 … 30. */
  autocorrelation: number[];
  /** Smallest autocorrelation (the oscillation test: > −0.3). */
  minAutocorrelation: number;
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/**
 * Computes the {@link FrameTimeSummary} of one policy.
 * @example
 * ```ts
 * const s = frameTimeSummary(frames.map((f) => f.gpuMs), frames.map((f) => f.time), frames.map((f) => f.cost), frames.map((f) => f.budget), 58_000, 16.7, spikes, 0);
 * s.withinBand; // e.g. 0.98
 * ```
 * @category Simulator
 */
export function frameTimeSummary(
  ms: readonly number[], times: readonly number[], costs: readonly number[], budgets: ReadonlyArray<number | null>, maxStep: number, targetMs: number,
  spikes: ReadonlyArray<{ start: number; end: number }>, startTime: number,
): FrameTimeSummary {
  const n = ms.length;
  const error = ms.map((m) => m / targetMs - 1);
  const on = error.map((e) => Math.abs(e) <= ON_TARGET_BAND);
  const changes = spikes.flatMap((s) => [s.start, s.end]).filter((t) => t > startTime).sort((a, b) => a - b);
  const changeFrames = changes.map((t) => times.findIndex((x) => x >= t)).filter((k) => k >= 0);
  const settled = new Array<boolean>(n).fill(true);
  for (let k = 0; k < Math.min(n, SETTLE_FRAMES); k++) settled[k] = false;
  for (const c of changeFrames) for (let k = c; k < Math.min(n, c + SETTLE_FRAMES); k++) settled[k] = false;
  const idle = error.map((e, k) => {
    const b = budgets[k];
    return e <= ON_TARGET_BAND && (b === null || b - costs[k] >= maxStep);
  });
  let count = 0, idleCount = 0, within = 0, over = 0;
  for (let k = 0; k < n; k++) {
    if (!settled[k]) continue;
    count++;
    if (error[k] > ON_TARGET_BAND) over++;
    if (idle[k]) { idleCount++; continue; }
    if (on[k]) within++;
  }
  const controlled = settled.map((s, k) => s && !idle[k]);
  const recovery = changes.map((time, c) => {
    const k0 = changeFrames[c];
    if (k0 === undefined || k0 < 0) return { time, frames: null };
    for (let r = 0; k0 + r < n; r++) {
      let ok = true;
      for (let h = 0; h < HOLD_FRAMES && k0 + r + h < n; h++) if (!on[k0 + r + h] && !idle[k0 + r + h]) { ok = false; break; }
      if (ok) return { time, frames: r };
    }
    return { time, frames: null };
  });
  let mean = 0, used = 0;
  for (let k = 0; k < n; k++) if (controlled[k]) { mean += error[k]; used++; }
  mean = used > 0 ? mean / used : 0;
  let variance = 0;
  for (let k = 0; k < n; k++) if (controlled[k]) variance += (error[k] - mean) ** 2;
  const autocorrelation: number[] = [];
  for (let lag = 1; lag <= 30; lag++) {
    let sum = 0;
    for (let k = 0; k + lag < n; k++) {
      let stretch = true;
      for (let j = k; j <= k + lag; j++) if (!controlled[j]) { stretch = false; break; }
      if (stretch) sum += (error[k] - mean) * (error[k + lag] - mean);
    }
    autocorrelation.push(variance > 0 ? round4(sum / variance) : 0);
  }
  return {
    targetMs, settledFrames: count, idleFrames: idleCount,
    withinBand: count - idleCount > 0 ? round4(within / (count - idleCount)) : 1,
    overBand: count > 0 ? round4(over / count) : 0,
    recovery,
    autocorrelation,
    minAutocorrelation: Math.min(0, ...autocorrelation),
  };
}
