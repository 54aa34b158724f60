/**
 * Policies as importable objects (batch/policyModules.ts, policyRegistry.ts): an app that
 * registered nothing runs thresholds and the policy objects it passes; the string names of the
 * other policies fail at the API boundary with what to import; registration makes them work; the
 * object and the string give the same frames. The suite's set-up registers every policy, so the
 * unregistered app is run through the engine seam's withoutRegisteredPolicies.
 */
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { allPolicies, budgetPolicy, hybridPolicy, rankQuotaPolicy } from '../../src/batch/policyModules.js';
import { registeredPolicies, registerPolicies } from '../../src/batch/policyRegistry.js';
import { withoutRegisteredPolicies } from '../../src/batch/engineSeam.js';
import * as lodkit from '../../src/index.js';
import { camera, randomSpheres } from './helpers.js';

function scene(): { set: LodSet; view: LodView } {
  const set = new LodSet(64);
  set.addProfile({ metric: 'screenHeight', thresholds: [0.2, 0.05], costs: [900, 200, 20] });
  set.addMany(randomSpheres(3000, 11, 300, 0.5, 6), 0);
  return { set, view: { frustum: camera([0, 30, -10], [40, 0, 120]), viewportHeight: 1080 } };
}

const FRAMES: { options: LodUpdateOptions; clusters: boolean }[] = [
  { options: { policy: 'rankQuota', quotas: [40, 400] }, clusters: true },
  { options: { policy: 'budget', budget: 150_000 }, clusters: true },
  { options: { policy: 'hybrid', budget: 150_000 }, clusters: false },
  { options: { policy: 'budget', budget: 90_000 }, clusters: false },
  { options: { policy: 'hybrid', budget: 120_000 }, clusters: true },
];
const OBJECT = { rankQuota: rankQuotaPolicy, budget: budgetPolicy, hybrid: hybridPolicy } as const;

describe('policies as objects and registered names', () => {
  it('without registration: thresholds and policy objects run; the other names throw a RangeError that says what to import', () => {
    withoutRegisteredPolicies(() => {
      expect(registeredPolicies()).toEqual(['thresholds']);
      const { set, view } = scene();
      expect(() => set.update(view, { policy: 'thresholds' })).not.toThrow();
      for (const name of ['rankQuota', 'budget', 'hybrid'] as const) {
        const options = { policy: name, quotas: [4, 6], budget: 1000 } as LodUpdateOptions;
        expect(() => set.update(view, options)).toThrow(RangeError);
        expect(() => set.update(view, options)).toThrow(new RegExp(`policy '${name}' is not loaded.*${name}Policy.*registerPolicies`));
        expect(() => set.update(view, { ...options, policy: OBJECT[name] })).not.toThrow();
      }
      // A frame-time budget needs the governor, which comes with budgetPolicy / hybridPolicy.
      expect(() => set.update(view, { policy: 'thresholds', budget: { frameMs: 16.7 } })).toThrow(/frameMs.*budgetPolicy/);
      expect(() => set.update(view, { policy: budgetPolicy, budget: { frameMs: 16.7 } })).not.toThrow();
      expect(set.frameTimeGovernor?.targetMs).toBe(16.7);
    });
    expect(registeredPolicies()).toEqual(['thresholds', 'rankQuota', 'budget', 'hybrid']); // restored
  });

  it('a failed lookup changes nothing: the next frame equals a set that never saw it', () => {
    const a = scene(), b = scene();
    a.set.update(a.view, { policy: 'thresholds' });
    b.set.update(b.view, { policy: 'thresholds' });
    withoutRegisteredPolicies(() => {
      expect(() => a.set.update(a.view, { policy: 'budget', budget: 10 })).toThrow(RangeError);
      expect(() => a.set.update(a.view, { policy: 'thresholds', budget: { frameMs: 10 } })).toThrow(RangeError);
    });
    const sa = a.set.update(a.view, { policy: 'budget', budget: 100_000 });
    const sb = b.set.update(b.view, { policy: 'budget', budget: 100_000 });
    expect(sa.totalCost).toBe(sb.totalCost);
    expect(Array.from(a.set.levels)).toEqual(Array.from(b.set.levels));
    expect(a.set.frameTimeGovernor).toBeNull();
  });

  it('the object and the registered name give the same frames (levels, blend, sizes, changed, stats)', () => {
    const a = scene(), b = scene();
    for (const f of FRAMES) {
      const name = f.options.policy as keyof typeof OBJECT;
      const sa = a.set.update(a.view, { ...f.options, clusters: f.clusters });
      const ta = { ...sa, levelCounts: Array.from(sa.levelCounts) };
      const sb = b.set.update(b.view, { ...f.options, policy: OBJECT[name], clusters: f.clusters });
      expect({ ...sb, levelCounts: Array.from(sb.levelCounts) }).toEqual(ta);
      expect(Array.from(b.set.levels)).toEqual(Array.from(a.set.levels));
      expect(Array.from(b.set.blend)).toEqual(Array.from(a.set.blend));
      expect(Array.from(b.set.sizes)).toEqual(Array.from(a.set.sizes));
      expect(new Set(b.set.changed.subarray(0, b.set.changedCount))).toEqual(new Set(a.set.changed.subarray(0, a.set.changedCount)));
      expect(b.set.budgetPrice).toBe(a.set.budgetPrice);
    }
  });

  it('registration: registerPolicies(allPolicies) enables every name; bad arguments are TypeErrors naming the entry', () => {
    withoutRegisteredPolicies(() => {
      registerPolicies([budgetPolicy]);
      expect(registeredPolicies()).toEqual(['thresholds', 'budget']);
      const { set, view } = scene();
      expect(() => set.update(view, { policy: 'budget', budget: 5000 })).not.toThrow();
      expect(() => set.update(view, { policy: 'hybrid', budget: 5000 })).toThrow(/'hybrid' is not loaded/);
      registerPolicies(allPolicies);
      registerPolicies(allPolicies); // idempotent
      expect(registeredPolicies()).toEqual(['thresholds', 'budget', 'rankQuota', 'hybrid']);
      expect(() => set.update(view, { policy: 'hybrid', budget: 5000 })).not.toThrow();
    });
    expect(() => registerPolicies(budgetPolicy as never)).toThrow(TypeError);
    expect(() => registerPolicies([budgetPolicy, { name: 'budget', engine: {} } as never])).toThrow(/policies\[1\] must be a policy object/);
    expect(() => registerPolicies(['budget' as never])).toThrow(/policies\[0\]/);
  });

  it('a frame-time budget on a thresholds frame takes the governor of a registered budget policy (budgetMet against it)', () => {
    const { set, view } = scene();
    const stats = set.update(view, { policy: 'thresholds', budget: { frameMs: 16.7 } });
    const g = set.frameTimeGovernor;
    expect(g?.targetMs).toBe(16.7);
    expect(stats.budgetMet).toBe(stats.totalCost <= (g?.budget ?? Number.NaN));
    withoutRegisteredPolicies(() => {
      registerPolicies([rankQuotaPolicy]); // (no governor: rankQuota only reports budgetMet)
      const fresh = scene();
      expect(() => fresh.set.update(fresh.view, { policy: 'thresholds', budget: { frameMs: 16.7 } })).toThrow(/frameMs.*budgetPolicy/);
    });
  });

  it('anything else is a RangeError naming the value', () => {
    const { set, view } = scene();
    expect(() => set.update(view, { policy: 'fastest' as never })).toThrow(/policy must be one of 'thresholds', 'rankQuota', 'budget', 'hybrid' or a policy object.*got fastest/);
    expect(() => set.update(view, { policy: { name: 'budget', engine: {} } as never })).toThrow(RangeError);
    expect(() => set.update(view, { policy: undefined as never })).toThrow(/got undefined/);
  });

  it("the package root exports the objects and the registry (the README's import)", () => {
    expect(lodkit.budgetPolicy).toBe(budgetPolicy);
    expect(lodkit.allPolicies).toEqual([rankQuotaPolicy, budgetPolicy, hybridPolicy]);
    expect(lodkit.registerPolicies).toBe(registerPolicies);
  });
});
