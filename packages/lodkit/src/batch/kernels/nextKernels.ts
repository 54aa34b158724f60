/**
 * The hybrid policy's first pass over the clusters: the threshold decision of thresholdKernels.ts
 * with `track = false` (preferred levels into `st.next`, marks into `st.fixed` — both indexed by
 * SLOT in the clustered hybrid frame, hybridIncremental.ts — blend, sizes and the preferred stats), reading the metric from the slot-ordered scratch and keeping `blendS` in
 * step. Same rule, same order of operations per object as the reference: generated
 * (nextKernels.generated.ts) from the rule's one template, scripts/templates/decide.template.ts.
 *
 * @module
 */
export { decideAscendingNext, decideDescendingNext, NO_LIST } from './nextKernels.generated.js';
