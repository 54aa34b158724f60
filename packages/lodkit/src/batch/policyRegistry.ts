/**
 * Which policies a set can run: `'thresholds'` is built in; rankQuota, budget and hybrid are
 * objects (policyModules.ts) that an app imports — so an app that never names them does not bundle
 * their solvers — and passes as `policy`, or registers once so that their names work as strings.
 *
 * Contributor notes:
 * - The registry is module state on purpose: registering is what an app does once at start-up,
 *   like three.js's loaders; `LodSet` reads it once per update (a lookup, no allocation).
 * - Nothing here imports a policy: the objects import the drivers, this module only their type;
 *   how an update finds its policy's engine is policyEngine.ts (internal).
 *
 * @module
 */
import type { LodPolicyModule } from './core/updateOptions.js';

/** The names of the policies that are objects (everything but 'thresholds'). @internal */
export const POLICY_OBJECT_NAMES = ['rankQuota', 'budget', 'hybrid'] as const;
const registered = new Map<string, LodPolicyModule>();

/** A policy object exported by lodkit (its name, and an engine with a frame function). @internal */
export function isPolicyModule(value: unknown): value is LodPolicyModule {
  if (value === null || typeof value !== 'object') return false;
  const m = value as Partial<LodPolicyModule>;
  return (POLICY_OBJECT_NAMES as readonly unknown[]).includes(m.name) && m.engine !== null && typeof m.engine === 'object'
    && typeof (m.engine as { frame?: unknown }).frame === 'function';
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

/** The policy names that work as strings now: `'thresholds'`, then the registered ones in registration order. @category Batch */
export function registeredPolicies(): string[] {
  return ['thresholds', ...registered.keys()];
}

/** Removes every registration and returns them (the engine seam's `withoutRegisteredPolicies`). @internal */
export function clearPolicies(): LodPolicyModule[] {
  const before = [...registered.values()];
  registered.clear();
  return before;
}

/** The object registered under `name`, if any. @internal */
export function registeredPolicy(name: string): LodPolicyModule | undefined {
  return registered.get(name);
}

/** The registered objects, in registration order. @internal */
export function registeredPolicyObjects(): IterableIterator<LodPolicyModule> {
  return registered.values();
}
