/**
 * The engine side of the policy objects (internal; policyRegistry.ts is the public side): what a
 * policy object's `engine` holds, and how an update finds the object of its `policy` option.
 *
 * Contributor notes:
 * - Kept apart from policyRegistry.ts so that the public declarations (`registerPolicies`, the
 *   policy objects) do not name `SetEngine`: its types reach `node:worker_threads`, which a
 *   browser app's TypeScript does not know.
 *
 * @module
 */
import type { FrameTimeGovernor, FrameTimeGovernorOptions } from '../policies/frameTimeGovernor.js';
import type { LodPolicy, LodPolicyModule, LodUpdateOptions, EngineView } from './core/updateOptions.js';
import { isPolicyModule, POLICY_OBJECT_NAMES, registeredPolicy, registeredPolicyObjects } from './policyRegistry.js';
import type { SetEngine } from './setEngine.js';

/**
 * The engine side of a policy object (its `engine` field): one frame after validation, set-up and
 * the deferred outputs (frameDispatch.ts), and the governor behind `budget: { frameMs }`.
 * @internal
 */
export interface PolicyEngine {
  frame(e: SetEngine, views: EngineView | readonly EngineView[], single: boolean, viewCount: number, cull: boolean,
    clustered: boolean, exactSizes: boolean, budget: number, options: LodUpdateOptions): void;
  /**
   * True when this frame rewrites the `sizes` of every drawn object, so the sizes last frame left
   * owed are dropped instead of computed (owedSizes.ts); asked before the frame.
   */
  overwritesSizes(e: SetEngine, options: LodUpdateOptions): boolean;
  /**
   * True when this frame, over the clusters, starts with the thresholds' pass, which may leave
   * changed blends owed (outputs/owedBlends.ts) instead of writing them by id; asked before the frame.
   */
  owesBlends(e: SetEngine, options: LodUpdateOptions): boolean;
  /**
   * True when this frame, over the clusters, writes `sizes` by id only (the budget's full and
   * below-the-minimum paths), so they are not first put in slot order (outputs/slotSizes.ts);
   * asked before the frame. Either answer gives the same sizes; this one saves two copies.
   */
  writesSizesById(e: SetEngine, options: LodUpdateOptions): boolean;
  /** Creates the frame-time governor (budget and hybrid; null for rankQuota). */
  readonly governor: ((options: FrameTimeGovernorOptions) => FrameTimeGovernor) | null;
}

/**
 * The policy object of `policy` (null for thresholds). Throws a RangeError that says how to load
 * a known policy that is not registered, and names the value for anything else.
 * @internal
 */
export function resolvePolicy(policy: LodPolicy, method: string): LodPolicyModule | null {
  if (policy === 'thresholds') return null;
  if (typeof policy === 'string') {
    const m = registeredPolicy(policy);
    if (m !== undefined) return m;
    if ((POLICY_OBJECT_NAMES as readonly string[]).includes(policy)) {
      throw new RangeError(`${method}: policy '${policy}' is not loaded: pass the object (import { ${policy}Policy } from 'lodkit'; { policy: ${policy}Policy }) `
        + `or register it once (registerPolicies([${policy}Policy]), or registerPolicies(allPolicies) for every policy)`);
    }
  } else if (isPolicyModule(policy)) {
    return policy;
  }
  throw new RangeError(`${method}: policy must be one of 'thresholds', 'rankQuota', 'budget', 'hybrid' or a policy object (rankQuotaPolicy, budgetPolicy, hybridPolicy), got ${String(policy)}`);
}

/** The engine of a policy object resolvePolicy returned. @internal */
export function policyEngine(m: LodPolicyModule): PolicyEngine {
  return m.engine as PolicyEngine;
}

/**
 * The governor factory for `budget: { frameMs }` in a frame of `policy`: the policy's own, or —
 * for thresholds and rankQuota, which only report `budgetMet` — a registered budget policy's.
 * @internal
 */
export function governorFactory(policy: LodPolicyModule | null): PolicyEngine['governor'] {
  if (policy !== null && policyEngine(policy).governor !== null) return policyEngine(policy).governor;
  for (const m of registeredPolicyObjects()) {
    const g = policyEngine(m).governor;
    if (g !== null) return g;
  }
  return null;
}
