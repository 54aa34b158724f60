/**
 * A one-time JIT warm-up of the clustered thresholds path, run once per process by the first
 * `LodSet` constructed: two private 1,088-object sets (a screen metric and distance) go through
 * {@link WARM_UP_FRAMES} frames that reach every branch the real frames take — skipped clusters,
 * culled clusters already hidden, clusters of visible (blended) objects culled as a whole, a
 * second `addMany` batch (mostly culled), objects leaving and entering the view, hysteresis and `minFramesBetweenChanges` holds, forced and hidden
 * objects, moved spheres (refits) — so that the functions V8 optimises during the real first frame
 * are optimised with the type feedback of every later frame.
 *
 * Why (bench/coldStart.ts, `node --trace-opt --trace-deopt`):
 * - V8 optimises the per-cluster functions during the first real frame, when every cluster is
 *   still evaluated per object and every previous level is hidden. Without the warm-up that code
 *   had no type feedback for the skip and hold branches, and frame 2 deoptimised `clusterChunk` and
 *   the decision kernels ("insufficient type feedback"): 25–60 ms against a 5 ms steady frame.
 * - With a warm-up of 8 frames that never culled a cluster of visible objects, `hideCluster` and
 *   `clusterChunk` still deoptimised ("generic keyed access") on the first frame that did (frame 17
 *   of the random scene, 26 ms), and the once-per-frame functions (`refitPending`, `uniformLevel`,
 *   `clusteredThresholds`) were compiled by TurboFan in real frames 2 and 47 — on a busy 2-core
 *   machine the concurrent compile of `refitPending` alone cost frame 2 about 1 ms. `addMany` now
 *   refits its clusters itself (lodSet.ts), so that compile happens in frame 1; 48 warm-up frames
 *   did not get these small functions optimised and cost 3 × the time, so 16 are run.
 *   `clusteredThresholds` (one call per frame) is still compiled around frame 45.
 * - A representation change of a ClusterIndex field in the first frame (an id-span sum that left
 *   the small-integer range at 1M random ids) changed the class's map and deoptimised every
 *   clustered function ("wrong map"); a warm-up cannot reach that. The field is gone (it served
 *   only a routing rule no policy uses now); a new numeric field that can grow past 2^30 must
 *   start as a heap number (e.g. `-0`).
 *
 * Results are discarded and leave no trace in other sets (test/batch/warmUp.test.ts). The cost is
 * measured: {@link warmUpMs}.
 *
 * @module
 */
import { Frustum } from '../metrics/frustum.js';
import { lookAtRotation } from '../metrics/vector.js';
import type { LodProfileOptions } from './core/profiles.js';
import type { LodUpdateOptions, LodView } from './core/updateOptions.js';

/** What the warm-up needs of a set (`LodSet` has it; named here so this module does not import it). */
export interface WarmUpSet {
  addProfile(options: LodProfileOptions): number;
  addMany(spheres: Float32Array, profile: number): number;
  setSphere(id: number, x: number, y: number, z: number, radius: number): void;
  setForcedLevel(id: number, level: number | null): void;
  setHidden(id: number, hidden: boolean): void;
  update(views: LodView | readonly LodView[], options: LodUpdateOptions): unknown;
}

/**
 * Frames per private set: two look-back cycles (every eighth frame), the second half with
 * `minFramesBetweenChanges` (checked with `--trace-opt --trace-deopt` on Node 20 / V8 11.3: no
 * deoptimisation in 60 real frames of either bench scene).
 */
export const WARM_UP_FRAMES = 16;

let done = false;
let ms = 0;

/** Milliseconds the process's warm-up took (0 before it ran). */
export function warmUpMs(): number {
  return ms;
}

/** Runs the warm-up once per process (later calls return at once). */
export function warmUpClusteredPath(Set: new (capacity: number) => WarmUpSet): void {
  if (done) return;
  done = true;
  const t0 = performance.now();
  runWarmUp(Set);
  ms = performance.now() - t0;
}

/**
 * The warm-up's frames, without the once-per-process guard (exported for the test that checks it
 * leaves no trace in another set).
 */
export function runWarmUp(Set: new (capacity: number) => WarmUpSet): void {
  const target = [0, 0, 0];
  for (let kind = 0; kind < 2; kind++) {
    const set = new Set(1088);
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
    // A second batch of 12 clusters behind (+z), culled while the camera looks forward: with it the
    // first real frame of the trees took 37–47 ms instead of 53–64 (bench:cold, 19:49–19:52 UTC).
    const behind = new Float32Array(768 * 4);
    for (let i = 0; i < 768; i++) {
      behind[i * 4] = ((i & 31) - 15.5) * 2; behind[i * 4 + 1] = 1; behind[i * 4 + 2] = 300 + (i >> 5) * 2; behind[i * 4 + 3] = 1;
    }
    set.addMany(behind, p);
    const frustum = Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.1, far: 2000 });
    for (let f = 0; f < WARM_UP_FRAMES; f++) {
      // Back and forth (level changes, some held by hysteresis) and turning (objects leave the
      // view); every eighth frame looks back (+z): the visible, blended groups are culled as a
      // whole and the group behind appears; the frame after looks forward again.
      const z = (f & 1) * 2.5 - (f & 7) * 0.2;
      frustum.position[2] = z;
      target[0] = (f % 3) * 12; target[1] = 0; target[2] = (f & 7) === 6 ? z + 20 : z - 20;
      lookAtRotation(frustum.position, target, [0, 1, 0], frustum.rotation);
      frustum.update();
      // Edits between frames: a moved sphere in the near group (refit), a hidden and a forced object.
      const m = f & 63;
      set.setSphere(m, s[m * 4] + (f & 1) * 0.1, s[m * 4 + 1], s[m * 4 + 2], 1);
      if (f % 5 === 2) set.setHidden(70, true); else if (f % 5 === 3) set.setHidden(70, false);
      if (f % 7 === 3) set.setForcedLevel(8, 1); else if (f % 7 === 4) set.setForcedLevel(8, null);
      set.update({ frustum }, { policy: 'thresholds', hysteresis: 0.1, minFramesBetweenChanges: f < WARM_UP_FRAMES / 2 ? 0 : 2 });
    }
  }
}
