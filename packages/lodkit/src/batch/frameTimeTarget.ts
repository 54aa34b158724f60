/**
 * `budget: { frameMs }` (issue 14): a frame-time target turned into a cost budget by a
 * {@link FrameTimeGovernor} per set, which `LodSet.reportFrameTime` feeds with measured times.
 *
 * Contributor notes:
 * - The governor is created by the first update with such a budget and replaced (keeping its
 *   budget) when the target or the gain changes; a numeric budget leaves it alone.
 * - The governor's class comes with the budget and hybrid policy objects (policyEngine.ts
 *   `governorFactory`), so an app that uses neither does not bundle it.
 *
 * @module
 */
import type { LodPolicyModule, LodUpdateOptions } from './core/updateOptions.js';
import { governorFactory } from './policyEngine.js';
import type { SetEngine } from './setEngine.js';

/** The cost budget of this frame: ∞ without one, the number given, or the governor's budget. */
export function resolveBudget(e: SetEngine, options: LodUpdateOptions, policy: LodPolicyModule | null): number {
  const b = options.budget;
  if (b === undefined) return Number.POSITIVE_INFINITY;
  if (typeof b === 'number') return b;
  const g = e.governor;
  if (g === null || g.targetMs !== b.frameMs || g.gain !== (b.gain ?? g.gain)) {
    const create = governorFactory(policy);
    if (create === null) {
      throw new RangeError("LodSet.update: budget: { frameMs } needs the frame-time governor, which comes with budgetPolicy and hybridPolicy: pass one as policy or register it (registerPolicies([budgetPolicy]))");
    }
    const next = create({ targetMs: b.frameMs, gain: b.gain, initialBudget: g?.budget });
    e.governor = next;
    return next.budget;
  }
  return g.budget;
}

/** After a frame: what the governor's next measurement will be paired with (the cost and the draws). */
export function noteFrameCost(e: SetEngine, options: LodUpdateOptions, draws: number): void {
  e.lastDraws = draws;
  if (e.governor !== null && typeof options.budget === 'object') e.governor.noteFrame(e.st.totalCost, draws);
}
