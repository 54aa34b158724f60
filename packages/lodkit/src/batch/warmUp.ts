/**
 * A one-time JIT warm-up of the clustered thresholds path, run once per process by the first
 * `LodSet` constructed (and once more if the WebAssembly kernels arrive after it: see
 * {@link warmUpClusteredPath}): two private 288-object sets (a screen metric and distance) go through
 * {@link WARM_UP_FRAMES} frames that reach every branch the real frames take — skipped clusters,
 * culled clusters already hidden, clusters of visible (blended) objects culled as a whole, a
 * second `addMany` batch (mostly culled), objects leaving and entering the view, hysteresis and `minFramesBetweenChanges` holds, forced and hidden
 * objects, moved spheres (refits) — so that the functions V8 optimises during the real first frame
 * are optimised with the type feedback of every later frame.
 *
 * What it costs is running cold code, per frame more than per object (issue 27, startup): the
 * type feedback needs each branch once, so a cluster has 16 objects (32 in the near one) in its own
 * `addMany` batch — the same 17 clusters and 2 blocks as the groups of 64 had — each set runs 8
 * frames, and the 5 cameras are computed once: about a third of the 16 frames of 1,088 objects.
 * Checked with `node --trace-deopt` on both bench scenes (60 frames after the warm-up): none with
 * WebAssembly, and without it only the frame-1 one the larger warm-up had too. With 6 frames
 * the random scene deoptimised `hideCluster`/`clusterChunk` in frame 17 and `uniformLevel` in
 * frame 1; with 4, `hideBlock` in frame 2; a near cluster of 16 deoptimised
 * `decideDescendingSingle` in frame 2 without WebAssembly ("lost precision").
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
 *   did not get these small functions optimised and cost 3 × the time (16 were run, 8 now).
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
import { FRUSTUM_PLANE_INPUTS, writeFrustumPlanes } from '../metrics/frustumPlanes.js';
import type { LodProfileOptions } from './core/profiles.js';
import { kernelsCompiled, kernelsReady } from './wasm/wasmKernels.js';
import type { EngineView, LodUpdateOptions, LodViewFrustum } from './core/updateOptions.js';

/** What the warm-up needs of a set (`LodSet` has it; named here so this module does not import it). */
export interface WarmUpSet {
  addProfile(options: LodProfileOptions): number;
  addMany(spheres: Float32Array, profile: number): number;
  setSphere(id: number, x: number, y: number, z: number, radius: number): void;
  setForcedLevel(id: number, level: number | null): void;
  setHidden(id: number, hidden: boolean): void;
  update(views: EngineView | readonly EngineView[], options: LodUpdateOptions): unknown;
}

/**
 * Frames per private set: one look-back (frame 6), the second half with
 * `minFramesBetweenChanges` (checked with `node --trace-deopt` on Node 20 / V8 11.3: no
 * deoptimisation in 60 real frames of either bench scene, bench/coldStart.ts).
 */
export const WARM_UP_FRAMES = 8;

/** Objects per cluster of the private sets (one `addMany` batch each). */
const GROUP = 16;
/** Objects of the near cluster (evaluated per object; its levels and blends change). */
const NEAR = 32;

/** The paths warmed so far: 1 with the JavaScript kernels, 2 with the WebAssembly kernels attached. */
let ran = 0;
let ms = 0;

/** Milliseconds the process's warm-up took, both runs when it ran twice (0 before it ran). */
export function warmUpMs(): number {
  return ms;
}

/** How many times the warm-up has run in this process (0, 1 or 2), for tests. @internal */
export function warmUpRuns(): number {
  return (ran & 1) + (ran >> 1);
}

/**
 * Runs the warm-up once per process (later calls return at once) — and, when that was before the
 * WebAssembly kernels compiled, once more when they arrive, in the task that settles them (in a
 * page, usually idle time before its next frame), not inside a set's frame: frames with the kernels
 * attached take other functions (the fused pass and its drivers), which the first run never
 * reached. Without that second run a set built before the kernels arrived (a page's usual order)
 * ran its frames 2–11 at up to 1.6–3.1 × its steady frame at 1M (bench:cold `--kernels late`,
 * issue 27). The second run is scheduled when the first set is built, so a caller's
 * `await kernelsReady()` that starts later resumes after it.
 */
export function warmUpClusteredPath(Set: new (capacity: number) => WarmUpSet): void {
  if (ran !== 0) return;
  const kernels = kernelsCompiled();
  runOnce(Set, kernels ? 2 : 1);
  if (!kernels) void kernelsReady().then((ok) => { if (ok) runOnce(Set, 2); });
}

function runOnce(Set: new (capacity: number) => WarmUpSet, path: number): void {
  if ((ran & path) !== 0) return;
  ran |= path;
  const t0 = performance.now();
  runWarmUp(Set);
  ms += performance.now() - t0;
}

/**
 * The warm-up's frames, without the once-per-process guard (exported for the test that checks it
 * leaves no trace in another set).
 */
export function runWarmUp(Set: new (capacity: number) => WarmUpSet): void {
  const frusta = warmUpFrusta(), G = GROUP;
  for (let kind = 0; kind < 2; kind++) {
    const set = new Set(NEAR + 16 * G);
    const p = set.addProfile(kind === 0
      ? { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02] }
      : { metric: 'distance', thresholds: [20, 60, 150], blendThresholds: [25, 70] });
    // Five tight groups along the view axis (−z): near (per object), mid, far (skipped), behind (culled).
    const s = new Float32Array((NEAR + 4 * G) * 4);
    const depth = [6, 40, 400, 900, -60];
    for (let i = 0; i < NEAR + 4 * G; i++) {
      const g = i < NEAR ? 0 : 1 + Math.floor((i - NEAR) / G), k = i < NEAR ? i : (i - NEAR) % G;
      s[i * 4] = ((k & 7) - 3.5) * 0.6; s[i * 4 + 1] = (k >> 3) * 0.3; s[i * 4 + 3] = 1;
      s[i * 4 + 2] = g === 0 ? -(3 + k * (32 / NEAR)) : -depth[g]; // the near group spans 3–35 m: levels change
    }
    set.addMany(s.subarray(0, NEAR * 4), p);
    for (let g = 0; g < 4; g++) set.addMany(s.subarray((NEAR + g * G) * 4, (NEAR + (g + 1) * G) * 4), p);
    // Twelve clusters behind (+z), culled while the camera looks forward — the first block of 16
    // clusters mixed, the second (one cluster) culled whole; with them the first real frame of the
    // trees took 37–47 ms instead of 53–64 (bench:cold, 19:49–19:52 UTC).
    const behind = new Float32Array(12 * G * 4);
    for (let i = 0; i < 12 * G; i++) {
      behind[i * 4] = ((i % G) - 7.5) * 4; behind[i * 4 + 1] = 1; behind[i * 4 + 2] = 300 + Math.floor(i / G) * 4; behind[i * 4 + 3] = 1;
    }
    for (let g = 0; g < 12; g++) set.addMany(behind.subarray(g * G * 4, (g + 1) * G * 4), p);
    for (let f = 0; f < WARM_UP_FRAMES; f++) {
      // Edits between frames: a moved sphere in the near group (refit), a hidden and a forced object.
      const m = f % NEAR;
      set.setSphere(m, s[m * 4] + (f & 1) * 0.1, s[m * 4 + 1], s[m * 4 + 2], 1);
      if (f % 5 === 2) set.setHidden(NEAR + 6, true); else if (f % 5 === 3) set.setHidden(NEAR + 6, false);
      if (f % 7 === 3) set.setForcedLevel(8, 1); else if (f % 7 === 4) set.setForcedLevel(8, null);
      // Back and forth and turning (levels change, some held by hysteresis; objects leave the view);
      // frame 6 looks back (+z): the visible, blended groups are culled as a whole and the clusters
      // behind appear; frame 7 looks forward again.
      const view = { frustum: frusta[f === 6 ? 4 : f & 3] };
      set.update(view, { policy: 'thresholds', hysteresis: 0.1, minFramesBetweenChanges: f < WARM_UP_FRAMES / 2 ? 0 : 2 });
    }
  }
}

/** Four cameras looking forward (−z: moved back and forth, turned) and one looking back. */
function warmUpFrusta(): LodViewFrustum[] {
  // Built with the planes' own construction (no `Frustum`: it would pull OpenUSD's rotation math
  // into every bundle with a `LodSet`): 60° × 1.5, near 0.1, far 2000.
  const t = Math.tan(Math.PI / 6), input = new Float64Array(FRUSTUM_PLANE_INPUTS.length), out: LodViewFrustum[] = [];
  input.set([-1.5 * t, 1.5 * t, -t, t, 0.1, 2000], FRUSTUM_PLANE_INPUTS.window);
  for (let k = 0; k < 5; k++) {
    const z = (k & 1) * 2.5 - k * 0.2;
    // Axes of a camera at (0, 0, z) looking at the target, y up: back = eye − target, right = up × back.
    let bx = -((k % 3) * 12), bz = k === 4 ? -20 : 20;
    const bl = Math.hypot(bx, bz);
    bx /= bl; bz /= bl;
    input.set([bz, 0, -bx, 0, 1, 0, bx, 0, bz, 0, 0, z], FRUSTUM_PLANE_INPUTS.axes);
    const planes = new Float64Array(24);
    writeFrustumPlanes(input, true, planes);
    out.push({ planes, position: Float64Array.of(0, 0, z), windowMin: Float64Array.of(-1.5 * t, -t), windowMax: Float64Array.of(1.5 * t, t), isPerspective: true });
  }
  return out;
}
