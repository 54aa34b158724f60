/**
 * Per-set state kept beside a {@link ClusterIndex} by the incremental policy paths (rank cuts,
 * budget and hybrid stable ranges): created on a set's first frame of that policy, dropped with the
 * index (a `WeakMap`, so `ClusterIndex` carries no policy fields).
 *
 * @module
 */
import type { ClusterIndex } from './clusters.js';

/** A getter of the `T` attached to a cluster index, made by `create` on first use. */
export function clusterStateGetter<T extends object>(create: () => T): (ci: ClusterIndex) => T {
  const states = new WeakMap<ClusterIndex, T>();
  return (ci) => {
    let state = states.get(ci);
    if (state === undefined) { state = create(); states.set(ci, state); }
    return state;
  };
}
