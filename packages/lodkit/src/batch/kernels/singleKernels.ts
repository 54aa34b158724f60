/**
 * The decision kernel of a single-profile cluster with at most four thresholds and four blend
 * thresholds (the common case): {@link decideDescendingMapped} with the profile hoisted out of the
 * loop (thresholds in registers, padded with −∞, no per-object profile look-up, unrolled counts)
 * and the level histogram and costs summed per level at the end instead of per object.
 *
 * Contributor notes:
 * - Generated (singleKernels.generated.ts) from the rule's one template,
 *   scripts/templates/decide.template.ts; same rule and same results as the other variants
 *   (test/batch/clusters.test.ts compares every frame, generatedKernels.test.ts checks it against
 *   heuristics/lodIndex.ts); `totalCost`/`minimumCost` are `count × cost` per level, which equals the per-object
 *   sum for integer costs and may differ in the last bits for others (as any summation order).
 * - Profiling the tree-field frame: the generic mapped decision kernel was ~46 % of the frame.
 *
 * @module
 */
export { decideDescendingSingle } from './singleKernels.generated.js';
