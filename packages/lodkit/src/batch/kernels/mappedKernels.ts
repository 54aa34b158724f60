/**
 * The threshold decision kernels of the clustered path: the same rule as thresholdKernels.ts (both
 * generated from one template and tested against heuristics/lodIndex.ts), reading the metric and the per-object state from
 * slot-ordered copies (`ClusterIndex.flagsS`, `forcedS`, `levelsS`, `blendS`, `profS`), writing
 * the id-ordered public arrays only where a value changes (`levels`, `blend`) plus `sizes`, always
 * tracking changes, and reporting the range of levels (and whether any blend is non-zero) it
 * wrote, which becomes the cluster's state. With ids in random spatial order, reading the state
 * through the slot → id map cost ~5 cache misses per object (the clustered frame was 1.75× slower
 * than the per-object path on 1M random-order spheres); the slot-ordered copies leave one
 * scattered store (`sizes`), gone too where the clustered frames keep sizes in slot order
 * (`ClusterIndex.sizesS`: the kernels take `sizesS` and the slot index then).
 *
 * Contributor notes:
 * - Generated (mappedKernels.generated.ts) from the rule's one template,
 *   scripts/templates/decide.template.ts, as its own monomorphic function rather than a shared
 *   generic: an extra indirection (or a `map === null` test) in the loop costs time, and V8 does not
 *   specialise a function per argument type. Edit the template, then `npm run generate`.
 * - `st.uMin`/`st.uMax`/`st.uFrac` accumulate over the calls of one cluster (reset by the caller);
 *   a hidden object counts as level 255.
 *
 * @module
 */
export { decideAscendingMapped, decideDescendingMapped } from './mappedKernels.generated.js';
