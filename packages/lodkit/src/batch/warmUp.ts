/**
 * A one-time JIT warm-up of the clustered thresholds path, run by the first clustered update in a
 * process: two private 320-object sets (a screen metric and distance) go through eight frames that
 * reach the branches a first real frame never takes — skipped clusters, culled clusters already
 * hidden, objects leaving the view, hysteresis and `minFramesBetweenChanges` holds.
 *
 * Why: in a fresh process V8 optimises the per-cluster functions during the first frame, when every
 * cluster is still evaluated per object and every previous level is hidden, so the optimised code
 * has no type feedback for those branches. The second frame then deoptimised `clusterChunk` and the
 * decision kernels ("insufficient type feedback") and ran partly in the interpreter: 25–60 ms
 * against a 5 ms steady frame (bench/coldStart.ts). Costs a few milliseconds once; results are
 * discarded.
 *
 * @module
 */
import { Frustum } from '../metrics/frustum.js';
import { lookAtRotation } from '../metrics/vector.js';
import type { LodSet } from './lodSet.js';

let done = false;

/** Runs the warm-up once per process (later calls return at once). */
export function warmUpClusteredPath(Set: new (capacity: number) => LodSet): void {
  if (done) return;
  done = true;
  for (let kind = 0; kind < 2; kind++) {
    const set = new Set(320);
    const p = set.addProfile(kind === 0
      ? { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02] }
      : { metric: 'distance', thresholds: [20, 60, 150], blendThresholds: [25, 70] });
    // Five tight groups of 64 along the view axis (−z): near (per object), mid, far (skipped), behind (culled).
    const s = new Float32Array(320 * 4);
    const depth = [6, 40, 400, 900, -60];
    for (let i = 0; i < 320; i++) {
      s[i * 4] = ((i & 7) - 3.5) * 0.6; s[i * 4 + 1] = ((i >> 3) & 7) * 0.3; s[i * 4 + 3] = 1;
      s[i * 4 + 2] = i < 64 ? -(3 + i * 0.5) : -depth[i >> 6]; // the near group spans 3–35 m: levels change
    }
    set.addMany(s, p);
    const frustum = Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.1, far: 2000 });
    for (let f = 0; f < 8; f++) {
      // Back and forth (level changes, some held by hysteresis) and turning (objects leave the view).
      frustum.position[2] = (f & 1) * 2.5 - f * 0.2;
      lookAtRotation(frustum.position, [(f % 3) * 12, 0, frustum.position[2] - 20], [0, 1, 0], frustum.rotation);
      frustum.update();
      set.update({ frustum }, { policy: 'thresholds', hysteresis: 0.1, minFramesBetweenChanges: f < 4 ? 0 : 2 });
    }
  }
}
