/**
 * A frame-time target for the budget policies: `budget: { frameMs: 16.7 }`. Nobody knows their
 * triangle budget, everybody knows their frame time. The governor learns online what a frame
 * costs and turns the target into the triangle budget of the next frame.
 *
 * **Cost model** (recursive least squares with exponential forgetting, factor `forgetting`):
 *
 *     ms ≈ overheadMs + msPerTriangle · triangles + msPerDraw · draws
 *
 * fitted on the frames seen so far (features scaled to millions of triangles and thousands of
 * draws so the 3 × 3 covariance stays well conditioned).
 *
 * **Controller** (a damped Newton step on the measured frame):
 *
 *     budget(k + 1) = from + gain · (targetMs − ms(k)) / slope,   capped at 1.5 · triangles(k) + (targetMs − ms(k))⁺ / slope
 *
 * The error inside a dead zone of ±7 % of the target counts as 0 (measurement noise; chasing it
 * moved the budget every frame and popped levels at its edge: 4.4 pops/s on motogp with a ±4 %
 * zone, 2.6 with this one), outside it the zone's edge is subtracted. The zone lies inside the
 * ±10 % "on target" band, so with a few % of noise a held budget stays on target. `from` is the previous budget, or the triangles drawn when the frame was over target and drew
 * less than its budget (an overload is answered at once).
 * where `slope` is the model's ms per triangle, clamped to `[0.5, 1] × ms(k) / triangles(k)`.
 * With the true slope `a` and an estimate `â = r·a`, the distance to the fixed point shrinks by
 * `|1 − gain / r|` per frame: with the default gain 0.5 and the clamp (`r ≥ 0.5`) that factor is
 * in `[0, 0.5)` for `r ≤ 1` and below 1 for any `r`, so the loop never rings (no sign-alternating
 * overshoot) and a sudden 2× load (`r` = 0.5 at first) is absorbed in about one frame.
 * The cap is the anti-windup: a scene that needs less than the target does not inflate the budget
 * without bound (a cut to a heavier shot then costs at most 1.5 × the previous frame's triangles).
 *
 * Contributor notes:
 * - Per-profile coefficients (ms per triangle of a tree vs of a bike) are not estimated: with one
 *   frame time per frame and a steady mix of profiles they are not identifiable (the regressors
 *   are collinear). The model is per set; give each material class its own `LodSet` and governor
 *   if their costs differ a lot.
 * - A measurement that is not a finite number > 0 is ignored and counted in `rejected`.
 * - Measured GPU times may arrive a few frames late (timer queries). `observe` pairs a time with
 *   the cost noted by the last `noteFrame`; with late results pass the matching cost explicitly.
 *
 * @module
 */

/** Options of {@link FrameTimeGovernor}. @category Policies */
export interface FrameTimeGovernorOptions {
  /** Target frame time in ms (e.g. 16.7 for 60 fps). */
  targetMs: number;
  /** Fraction of the measured error corrected per frame, in (0, 1]. Default 0.5. */
  gain?: number;
  /** RLS forgetting factor in (0, 1]: weight of a frame `k` frames old is `forgetting^k`. Default 0.95. */
  forgetting?: number;
  /** Budget before the first measurement. Default `Infinity` (the first frame draws what the policy wants). */
  initialBudget?: number;
  /** Dead zone `d`: the budget is held while the frame time is within target·(1 ± d), d in [0, 0.5). Default 0.07. */
  deadband?: number;
  /** Smallest budget ever returned. Default 0. */
  minBudget?: number;
  /** Largest budget ever returned. Default `Infinity`. */
  maxBudget?: number;
}

/** Defaults of {@link FrameTimeGovernorOptions}. @category Policies */
export const FRAME_TIME_GOVERNOR_DEFAULTS = {
  gain: 0.5, deadband: 0.07, forgetting: 0.95, initialBudget: Number.POSITIVE_INFINITY, minBudget: 0, maxBudget: Number.POSITIVE_INFINITY,
} as const;

const T_SCALE = 1e-6; // triangles → millions
const D_SCALE = 1e-3; // draws → thousands
const P0 = 1e4; // initial covariance (uninformative prior)

function requireNumber(value: unknown, field: string, ok: (v: number) => boolean, expected: string): number {
  if (typeof value !== 'number' || !ok(value)) throw new RangeError(`FrameTimeGovernor: ${field} must be ${expected}, got ${String(value)}`);
  return value;
}

/**
 * Turns a frame-time target into a triangle budget, learning the cost of a frame online.
 * @example
 * ```ts
 * const governor = new FrameTimeGovernor({ targetMs: 16.7 });
 * function frame(ms: number) {              // ms: the last frame's measured time
 *   governor.observe(ms);
 *   const stats = set.update(view, { policy: hybridPolicy, budget: governor.budget }); // hybridPolicy from 'lodkit'
 *   governor.noteFrame(stats.totalCost, drawCount);
 * }
 * ```
 * @category Policies
 */
export class FrameTimeGovernor {
  readonly targetMs: number;
  readonly gain: number;
  readonly forgetting: number;
  readonly deadband: number;
  readonly minBudget: number;
  readonly maxBudget: number;
  /** Triangle budget for the next frame. */
  budget: number;
  /** Measurements ignored (not a finite number > 0). */
  rejected = 0;
  /** Measurements used. */
  observed = 0;
  private triangles = 0;
  private draws = 0;
  private noted = false;
  // RLS state: θ = [overhead ms, ms per 1e6 triangles, ms per 1e3 draws], P (3×3, row-major).
  private readonly theta = new Float64Array(3);
  private readonly p = new Float64Array(9);
  private readonly x = new Float64Array(3);
  private readonly px = new Float64Array(3);

  constructor(options: FrameTimeGovernorOptions) {
    if (options == null || typeof options !== 'object') throw new TypeError('FrameTimeGovernor: options must be an object');
    this.targetMs = requireNumber(options.targetMs, 'targetMs', (v) => Number.isFinite(v) && v > 0, 'a finite number > 0');
    const d = FRAME_TIME_GOVERNOR_DEFAULTS;
    this.gain = requireNumber(options.gain ?? d.gain, 'gain', (v) => v > 0 && v <= 1, 'a number in (0, 1]');
    this.forgetting = requireNumber(options.forgetting ?? d.forgetting, 'forgetting', (v) => v > 0 && v <= 1, 'a number in (0, 1]');
    this.deadband = requireNumber(options.deadband ?? d.deadband, 'deadband', (v) => v >= 0 && v < 0.5, 'a number in [0, 0.5)');
    this.minBudget = requireNumber(options.minBudget ?? d.minBudget, 'minBudget', (v) => v >= 0, 'a number ≥ 0');
    this.maxBudget = requireNumber(options.maxBudget ?? d.maxBudget, 'maxBudget', (v) => v >= this.minBudget, `a number ≥ minBudget (${this.minBudget})`);
    const initial = requireNumber(options.initialBudget ?? d.initialBudget, 'initialBudget', (v) => v >= 0, 'a number ≥ 0');
    this.budget = Math.min(this.maxBudget, Math.max(this.minBudget, initial));
    this.reset();
  }

  /** Forgets the learned model (keeps the budget). */
  reset(): void {
    this.theta.fill(0);
    this.p.fill(0);
    this.p[0] = P0; this.p[4] = P0; this.p[8] = P0;
    this.observed = 0;
  }

  /** Model estimate: ms per triangle. */
  get msPerTriangle(): number { return this.theta[1] * T_SCALE; }
  /** Model estimate: ms per draw. */
  get msPerDraw(): number { return this.theta[2] * D_SCALE; }
  /** Model estimate: fixed ms per frame. */
  get overheadMs(): number { return this.theta[0]; }

  /** Predicted frame time of a frame with `triangles` and `draws`, by the current model. */
  predict(triangles: number, draws: number): number {
    const t = this.theta;
    return t[0] + t[1] * triangles * T_SCALE + t[2] * draws * D_SCALE;
  }

  /** Records what the frame just selected costs (its triangles and draw calls); call after each update. */
  noteFrame(triangles: number, draws: number): void {
    this.triangles = triangles >= 0 ? triangles : 0;
    this.draws = draws >= 0 ? draws : 0;
    this.noted = true;
  }

  /**
   * Feeds the measured time of the frame noted last (or of `triangles`/`draws` when given), updates
   * the model and the budget, and returns the new budget. Bad measurements are ignored (counted).
   */
  observe(ms: number, triangles?: number, draws?: number): number {
    if (triangles !== undefined) this.noteFrame(triangles, draws ?? 0);
    if (!(typeof ms === 'number' && ms > 0 && ms < Number.POSITIVE_INFINITY) || !this.noted) {
      this.rejected++;
      return this.budget;
    }
    const tris = this.triangles;
    this.learn(ms, tris, this.draws);
    this.observed++;
    // Newton step from the cost drawn, with the slope clamped to [0.5, 1] × the average ms per triangle.
    const average = tris > 0 ? ms / tris : 0;
    let slope = this.msPerTriangle;
    if (!(slope >= 0.5 * average)) slope = 0.5 * average;
    if (slope > average) slope = average;
    // Dead zone target·(1 ± d): inside it the measured error is noise; chasing it would move the
    // budget (and pop levels at the budget's edge) every frame for nothing.
    const raw = this.targetMs - ms, db = this.deadband * this.targetMs;
    const error = raw > db ? raw - db : raw < -db ? raw + db : 0;
    let next: number;
    if (slope > 0) {
      // Integrate on the budget (a knapsack rarely spends all of it: the first upgrade that does not
      // fit ends the purchase), but over target start from what was drawn, so an overload is
      // answered at once even after a stretch of unused budget.
      const from = error >= 0 || this.budget < tris ? this.budget : tris;
      next = (Number.isFinite(from) ? from : tris) + (this.gain * error) / slope;
      // Anti-windup: a scene that needs less than the target does not inflate the budget beyond
      // 1.5 × what it drew plus the full Newton step.
      const cap = 1.5 * tris + (error > 0 ? error / slope : 0);
      if (next > cap) next = cap;
    } else {
      next = ms <= this.targetMs ? Math.max(Number.isFinite(this.budget) ? this.budget : 1, 1) * 2 : this.budget * 0.5; // nothing drawn yet
    }
    if (!(next >= this.minBudget)) next = this.minBudget;
    if (next > this.maxBudget) next = this.maxBudget;
    this.budget = next;
    return next;
  }

  private learn(ms: number, triangles: number, draws: number): void {
    const x = this.x, p = this.p, px = this.px, theta = this.theta, lambda = this.forgetting;
    x[0] = 1; x[1] = triangles * T_SCALE; x[2] = draws * D_SCALE;
    let denominator = lambda;
    for (let r = 0; r < 3; r++) {
      px[r] = p[r * 3] * x[0] + p[r * 3 + 1] * x[1] + p[r * 3 + 2] * x[2];
      denominator += x[r] * px[r];
    }
    const error = ms - (theta[0] * x[0] + theta[1] * x[1] + theta[2] * x[2]);
    for (let r = 0; r < 3; r++) theta[r] += (px[r] / denominator) * error;
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        let v = (p[r * 3 + c] - (px[r] * px[c]) / denominator) / lambda;
        // Bounded covariance: with a steady operating point forgetting alone would let P grow without limit.
        if (r === c && v > P0) v = P0;
        p[r * 3 + c] = v;
      }
    }
    // Physical signs: no negative costs.
    for (let r = 0; r < 3; r++) if (theta[r] < 0) theta[r] = 0;
  }
}
