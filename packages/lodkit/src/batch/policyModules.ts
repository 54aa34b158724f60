/**
 * The rankQuota, budget and hybrid policies as importable objects: each names the frame drivers of
 * its policy (over the clusters, or per object with `clusters: false`), so a bundler keeps a
 * policy's solvers only when the app imports its object. Thresholds frames need none of them.
 *
 * Contributor notes:
 * - Plain object literals with no call at module level: unused ones are dropped by tree-shaking.
 * - The per-object drivers are the readable order of each policy; the clustered drivers are the
 *   incremental versions with the same chains, solvers and price (drivers/clusterDrivers.ts).
 *
 * @module
 */
import { FrameTimeGovernor, type FrameTimeGovernorOptions } from '../policies/frameTimeGovernor.js';
import type { LodPolicyModule } from './core/updateOptions.js';
import { clusteredBudget, clusteredHybrid, clusteredRankQuota } from './drivers/clusterDrivers.js';
import {
  budgetPolicy as budgetPerObject, hybridPolicy as hybridPerObject, rankQuotaPolicy as rankQuotaPerObject,
} from './drivers/policyDrivers.js';
import type { PolicyEngine } from './policyEngine.js';
import { stillBandFactor } from './stillFrames.js';
import { startsWithThresholds, takesFullPath } from './passes/budgetRegime.js';

const newGovernor = (options: FrameTimeGovernorOptions): FrameTimeGovernor => new FrameTimeGovernor(options);

const RANK_QUOTA: PolicyEngine = {
  frame(e, views, single, viewCount, cull, clustered, _exactSizes, _budget, options) {
    const quotas = options.quotas as ArrayLike<number>;
    if (clustered) clusteredRankQuota(e.st, e.ci, e.cv, e.table, e.used, views, single, viewCount, cull, quotas);
    else rankQuotaPerObject(e.st, views, single, viewCount, cull, quotas, e.used);
  },
  overwritesSizes: () => true,
  owesBlends: () => false,
  writesSizesById: () => false,
  governor: null,
};

const BUDGET: PolicyEngine = {
  frame(e, views, single, viewCount, cull, clustered, exactSizes, budget, options) {
    // (still frames narrow the stability band toward 0: a still picture converges, stillFrames.ts)
    e.sse.band *= stillBandFactor(e.still, 'budget', views, single, viewCount, e.edits, budget, options);
    // (while the thresholds' selection fits, it is drawn: budgetRegime.ts)
    const first = startsWithThresholds(e.sse.regime, options.trimOverdraw === true);
    if (clustered) clusteredBudget(e.st, e.ci, e.cv, e.table, e.sse, e.used, views, single, viewCount, cull, budget, exactSizes, first);
    else budgetPerObject(e.st, e.table, e.sse, views, single, viewCount, cull, budget, e.used, first);
  },
  overwritesSizes: (e, options) => !startsWithThresholds(e.sse.regime, options.trimOverdraw === true),
  owesBlends: (e, options) => startsWithThresholds(e.sse.regime, options.trimOverdraw === true),
  writesSizesById: (e, options) => !startsWithThresholds(e.sse.regime, options.trimOverdraw === true) && takesFullPath(e.st, e.sse),
  governor: newGovernor,
};

const HYBRID: PolicyEngine = {
  frame(e, views, single, viewCount, cull, clustered, exactSizes, budget, options) {
    e.sse.band *= stillBandFactor(e.still, 'hybrid', views, single, viewCount, e.edits, budget, options);
    if (clustered) clusteredHybrid(e.st, e.ci, e.cv, e.table, e.sse, e.used, views, single, viewCount, cull, budget, exactSizes);
    else hybridPerObject(e.st, e.table, e.sse, views, single, viewCount, cull, budget, e.used);
  },
  overwritesSizes: () => false,
  owesBlends: () => true,
  writesSizesById: () => false,
  governor: newGovernor,
};

/**
 * MotoGP's rank quota: objects sorted by distance, the first `quotas[0]` at level 0, the next
 * `quotas[1]` at level 1, the rest coarsest (`quotas` option required).
 * @example
 * ```ts
 * import { rankQuotaPolicy } from 'lodkit';
 * set.update(view, { policy: rankQuotaPolicy, quotas: [4, 6] });
 * ```
 * @category Batch
 */
export const rankQuotaPolicy: LodPolicyModule = { name: 'rankQuota', engine: RANK_QUOTA };

/**
 * A budget as a cap: the thresholds' selection while it fits `budget` (a cost, or `{ frameMs }`);
 * when it does not, the least screen-space error that fits, levels bought by screen-space error per
 * unit of cost; below the minimum cost every object at its coarsest allowed level.
 * @example
 * ```ts
 * import { budgetPolicy } from 'lodkit';
 * set.update(view, { policy: budgetPolicy, budget: 2_000_000 });
 * ```
 * @category Batch
 */
export const budgetPolicy: LodPolicyModule = { name: 'budget', engine: BUDGET };

/**
 * Thresholds first, coarsened toward each profile's quality floor only while over `budget`.
 * @example
 * ```ts
 * import { hybridPolicy } from 'lodkit';
 * set.update(view, { policy: hybridPolicy, budget: { frameMs: 16.7 } });
 * ```
 * @category Batch
 */
export const hybridPolicy: LodPolicyModule = { name: 'hybrid', engine: HYBRID };

/**
 * Every policy object, for `registerPolicies(allPolicies)`: the string names of every policy work
 * from then on, and the bundle holds every solver.
 * @category Batch
 */
export const allPolicies: readonly LodPolicyModule[] = [rankQuotaPolicy, budgetPolicy, hybridPolicy];
