/**
 * lodkit's one quality model: **screen-space error** (SSE), as 3D Tiles measures it. Each level
 * `l` of a profile has a geometric error `errors[l]`, a fraction of the object's bounding-sphere
 * diameter (how far its surface may lie from the full-detail surface). Drawn at a projected
 * diameter of `D` pixels, level `l` shows `sse = errors[l] · D` pixels of error. Errors below the
 * tolerance `τ` (default 1 px) are invisible, so an object's **quality loss** is
 *
 *     loss(l) = max(0, errors[l] · D − τ)      (px)
 *
 * and a frame's loss the sum over visible objects. The budget and hybrid policies minimise exactly
 * this sum under the cost budget, and `lodkit simulate` reports exactly this sum.
 *
 * Where a profile's errors come from, in order:
 * 1. `errors` given with the profile (e.g. measured by `lodkit gltf lod`, which records each
 *    level's deviation in `extras.LODKIT_geometricError`; the simulator divides it by the diameter);
 * 2. for a screen-metric profile, its thresholds ({@link defaultLevelErrors}): the author says
 *    level `l + 1` is good enough below size `t[l]`, i.e. its error reaches τ = 1 px there, so
 *    `errors[l + 1] = 1 px / t[l]` in pixels; the finest level follows the triangle-count law;
 * 3. otherwise triangle counts: a smooth closed surface drawn with `n` triangles deviates from its
 *    limit surface by about `π / (√3 · n)` of its diameter (equilateral triangles on a sphere:
 *    sagitta of an edge), so `errors[l] = 1.8138 / triangles[l]`.
 *
 * Contributor notes:
 * - With thresholds-derived errors, "coarsest level whose SSE ≤ τ" is the profile's own
 *   screen-size rule, so that rule scores zero loss, and budgets trade exactly the pixels of error
 *   the rule would have avoided.
 * - `screenHeight` thresholds are converted at a reference viewport of 1080 px, `screenArea` ones
 *   at 1080 px and a 16:9 window (the area of a disc of diameter `h` screen heights is
 *   `π h² / (4 · aspect)` of the window). Only the scale between profiles depends on this.
 * - The loss is not linear in `D` (the tolerance kinks it), so the knapsack's upgrade chains are
 *   built per object per frame ({@link buildObjectChain}, at most `levels − 1` steps), not per
 *   profile as the v0.1 benefit model allowed.
 * - Temporal stability (`band`, relative, default 0.4): an object keeps its previous level unless
 *   a change improves its `loss + λ·cost` by more than `band × max(sse, tolerance)` px and, at the
 *   budget's edge, by more than `band × λ × |Δcost|` (λ: last frame's price per unit of cost, risen by at most (1 + band) / (1 − band) a frame). The
 *   first is the thresholds policy's hysteresis in screen-space-error terms, the second the same
 *   hysteresis on the price. The budget constraint is untouched (never exceeded); the stated
 *   optimality gap is in {@link buildObjectChain}.
 *
 * @module
 */
import { walkUpperHull } from './budget.js';

/** Reference viewport height (px) for converting screen-fraction thresholds into errors. @category Policies */
export const REFERENCE_VIEWPORT_HEIGHT = 1080;
/** Reference aspect ratio for `screenArea` thresholds. @category Policies */
export const REFERENCE_ASPECT = 16 / 9;
/** `π / √3`: relative chordal error × triangle count of a sphere tessellated with equilateral triangles. @category Policies */
export const SPHERE_ERROR_CONSTANT = Math.PI / Math.sqrt(3);
/** Largest default error (a level with 0 triangles or a 0 threshold): 1000 diameters. @category Policies */
export const MAX_DEFAULT_ERROR = 1000;

/**
 * Default per-level errors (fractions of the bounding diameter) for a profile without `errors`;
 * see the module comment for the rules.
 *
 * @example
 * ```ts
 * defaultLevelErrors('pixels', [80, 20], [60000, 12000, 2000]);
 * // [0.0025, 0.0125, 0.05]: level 1 shows 1 px of error at 80 px, level 2 at 20 px;
 * // level 0 has 1/5 of level 1's error (5× its triangles)
 * ```
 * @category Policies
 */
export function defaultLevelErrors(metric: string, thresholds: ArrayLike<number>, costs: ArrayLike<number>): Float64Array {
  const levels = costs.length;
  const out = new Float64Array(levels);
  const byTriangles = (n: number) => (n > 0 ? Math.min(MAX_DEFAULT_ERROR, SPHERE_ERROR_CONSTANT / n) : MAX_DEFAULT_ERROR);
  if (metric === 'distance' || thresholds.length !== levels - 1) {
    for (let l = 0; l < levels; l++) out[l] = byTriangles(costs[l]);
  } else {
    for (let l = 1; l < levels; l++) {
      const t = thresholds[l - 1];
      let px: number;
      if (metric === 'pixels') px = t;
      else if (metric === 'screenHeight') px = t * REFERENCE_VIEWPORT_HEIGHT;
      else px = Math.sqrt((4 * REFERENCE_ASPECT * t) / Math.PI) * REFERENCE_VIEWPORT_HEIGHT;
      out[l] = px > 1 / MAX_DEFAULT_ERROR ? 1 / px : MAX_DEFAULT_ERROR;
    }
    // The finest level has no threshold above it: scale level 1's error by the triangle ratio.
    out[0] = costs[0] > 0 && costs[1] > 0 ? out[1] * Math.min(1, costs[1] / costs[0]) : out[1];
  }
  // Errors must not decrease toward coarser levels.
  for (let l = 1; l < levels; l++) if (out[l] < out[l - 1]) out[l] = out[l - 1];
  return out;
}

/**
 * Quality loss of one object drawn at a level with relative error `error` and projected
 * diameter `diameterPx`: `max(0, error · diameterPx − tolerance)` pixels.
 * @example
 * ```ts
 * screenSpaceLoss(0.05, 120, 1); // 5: a 120 px object at 5 % error shows 6 px, 5 above tolerance
 * ```
 * @category Policies
 */
export function screenSpaceLoss(error: number, diameterPx: number, tolerance: number): number {
  const e = error * diameterPx - tolerance;
  return e > 0 ? e : 0;
}

/**
 * Builds one object's upgrade chain for the knapsack between `coarsest` and `finest` (levels of
 * profile `p`, costs/errors at `p·stride + level`). The benefit of level `l` is
 *
 *     −loss(l) − price · |cost(l) − cost(previous)| + (l === previous ? keep : 0)
 *
 * with `loss` as in the module comment, `keep = band · max(sse(previous), tolerance)` — except
 * when the previous level is finer than needed by the band's margin (its next coarser level shows
 * at most `(1 − band) · tolerance`), where `keep = 0` so an idle budget does not ratchet objects
 * up — and `price = band · λ`, λ the budget's marginal ratio of the previous frame (0 when the
 * budget did not bind). So with an idle budget an object changes level like the thresholds policy
 * with hysteresis `band`, and at the budget's edge only when its step's ratio moves more than
 * `band` away from λ. `previous` outside `[finest, coarsest]` (e.g. hidden last frame) gives no
 * terms at all.
 *
 * Walks the upper hull of `(cost, benefit)` from the coarsest level (or the best level of equal
 * cost) toward `finest`, always to the finer level of largest Δbenefit/Δcost (ties: the finer),
 * stopping when no step has a positive slope (or, with `keepFlat`, a zero one: the hybrid policy
 * buys loss-free steps back toward its preferred level, last). Writes each step's level, Δcost and slope at
 * `out… + outOffset` and returns `(steps << 8) | startLevel`. No allocation.
 *
 * Gap: the greedy buys a prefix of all steps by slope — the LP relaxation's solution cut at its
 * one fractional step — so in true loss the result is within
 * `Σᵢ (keepᵢ + price · (cost(finest) − cost(coarsest))ᵢ) + (one step's modified benefit)` of the
 * LP optimum, itself a bound on the integer optimum (test/policies/screenSpaceBudget.test.ts).
 *
 * @example
 * ```ts
 * params[0] = px; params[1] = 1; params[2] = 0.4; params[3] = 0; // diameter, tolerance, band, λ
 * const packed = buildObjectChain(costs, errors, p * stride, 2, 0, prev, false, params, lv, dc, sl, i * stride);
 * const start = packed & 255, steps = packed >>> 8;
 * ```
 * @category Policies
 */
export function buildObjectChain(
  costs: Float64Array, errors: Float64Array, profileOffset: number, coarsest: number, finest: number,
  previous: number, keepFlat: boolean, params: Float64Array,
  outLevel: Uint8Array, outDeltaCost: Float64Array, outSlope: Float64Array, outOffset: number,
): number {
  // Doubles come in through `params` (diameter px, tolerance, band, λ), not as arguments: passed as
  // arguments to a call V8 did not inline, they were boxed — 12 B of garbage per object per frame.
  const diameterPx = params[0], tolerance = params[1], band = params[2], lambda = params[3];
  const benefit = benefitScratch;
  for (let l = finest; l <= coarsest; l++) {
    const e = errors[profileOffset + l] * diameterPx - tolerance;
    benefit[l] = e > 0 ? -e : 0;
  }
  if (previous >= finest && previous <= coarsest && band > 0) {
    const prevCost = costs[profileOffset + previous];
    const price = band * lambda;
    const sse = errors[profileOffset + previous] * diameterPx;
    const coarserSse = previous < coarsest ? errors[profileOffset + previous + 1] * diameterPx : Number.POSITIVE_INFINITY;
    if (coarserSse > (1 - band) * tolerance) benefit[previous] += band * (sse > tolerance ? sse : tolerance);
    if (price > 0) {
      for (let l = finest; l <= coarsest; l++) {
        if (l === previous) continue;
        const d = costs[profileOffset + l] - prevCost;
        benefit[l] -= price * (d > 0 ? d : -d);
      }
    }
  }
  // Start: among the levels costing as little as the coarsest, the one of largest benefit.
  const c0 = costs[profileOffset + coarsest];
  let current = coarsest;
  for (let l = coarsest - 1; l >= finest && costs[profileOffset + l] === c0; l--) {
    if (benefit[l] >= benefit[current]) current = l;
  }
  return walkUpperHull(costs, benefit, profileOffset, current, finest, keepFlat, outLevel, outDeltaCost, outSlope, outOffset);
}

const benefitScratch = new Float64Array(256);
