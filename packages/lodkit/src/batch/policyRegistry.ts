/**
 * Which policies a set can run: `'thresholds'` is built in; rankQuota, budget and hybrid are
 * objects (policyModules.ts) that an app imports — so an app that never names them does not bundle
 * their solvers — and passes as `policy`, or registers once so that their names work as strings.
 *
 * Contributor notes:
 * - The registry is module state on purpose: registering is what an app does once at start-up,
 *   like three.js's loaders; `LodSet` reads it once per update (a lookup, no allocation).
 * - Nothing here imports a policy: the objects import the drivers, this module only their type.
 *
 * @module
 */
import type { FrameTimeGovernor, FrameTimeGovernorOptions } from '../policies/frameTimeGovernor.js';
import type { LodPolicy, LodPolicyModule, LodUpdateOptions, LodView } from './core/updateOptions.js';
import type { SetEngine } from './setEngine.js';

/**
 * The engine side of a policy object (its `engine` field): one frame after validation, set-up and
 * the deferred outputs (frameDispatch.ts), and the governor behind `budget: { frameMs }`.
 * @internal
 */
export interface PolicyEngine {
  frame(e: SetEngine, views: LodView | readonly LodView[], single: boolean, viewCount: number, cull: boolean,
    clustered: boolean, exactSizes: boolean, budget: number, options: LodUpdateOptions): void;
  /** Creates the frame-time governor (budget and hybrid; null for rankQuota). */
  readonly governor: ((options: FrameTimeGovernorOptions) => FrameTimeGovernor) | null;
}

const NAMES = ['rankQuota', 'budget', 'hybrid'] as const;
const registered = new Map<string, LodPolicyModule>();

function isPolicyModule(value: unknown): value is LodPolicyModule {
  if (value === null || typeof value !== 'object') return false;
  const m = value as Partial<LodPolicyModule>;
  return (NAMES as readonly unknown[]).includes(m.name) && m.engine !== null && typeof m.engine === 'object'
    && typeof (m.engine as Partial<PolicyEngine>).frame === 'function';
}

/**
 * Registers policy objects so that their names work as `policy` strings in every `LodSet`,
 * `InstancedLOD`, `LodManager`… of the app (idempotent). Importing a policy costs its solver's
 * weight in the bundle (see the README's bundle table); `'thresholds'` needs nothing.
 * @example
 * ```ts
 * import { allPolicies, registerPolicies } from 'lodkit';
 * registerPolicies(allPolicies); // 'rankQuota', 'budget' and 'hybrid' as strings from now on
 * ```
 * @category Batch
 */
export function registerPolicies(policies: readonly LodPolicyModule[]): void {
  if (!Array.isArray(policies)) throw new TypeError('registerPolicies: policies must be an array of policy objects');
  policies.forEach((p, i) => {
    if (!isPolicyModule(p)) throw new TypeError(`registerPolicies: policies[${i}] must be a policy object exported by lodkit (rankQuotaPolicy, budgetPolicy, hybridPolicy), got ${String(p)}`);
  });
  for (const p of policies) registered.set(p.name, p);
}

/** The names registered now, in registration order. @category Batch */
export function registeredPolicies(): string[] {
  return ['thresholds', ...registered.keys()];
}

/** Removes every registration (the engine seam's `withoutPolicies`). @internal */
export function clearPolicies(): LodPolicyModule[] {
  const before = [...registered.values()];
  registered.clear();
  return before;
}

/**
 * The policy object of `policy` (null for thresholds). Throws a RangeError that says how to load
 * a known policy that is not registered, and names the value for anything else.
 * @internal
 */
export function resolvePolicy(policy: LodPolicy, method: string): LodPolicyModule | null {
  if (policy === 'thresholds') return null;
  if (typeof policy === 'string') {
    const m = registered.get(policy);
    if (m !== undefined) return m;
    if ((NAMES as readonly string[]).includes(policy)) {
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
  for (const m of registered.values()) {
    const g = policyEngine(m).governor;
    if (g !== null) return g;
  }
  return null;
}
