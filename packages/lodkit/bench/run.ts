/**
 * lodkit batch benchmark: one process, seeded data, warm-up, medians, ratios of rows measured side
 * by side.
 *
 *   npm run bench            # markdown tables
 *   npm run bench -- --json  # JSON
 *   npm run bench -- --quick # SMOKE RUN: 3 samples, smaller peers; labelled as such, never quoted
 *
 * Scenes (bench/scenes.ts):
 * - random: 1M spheres in random order (x, z ±500 m, y 0–20 m, r 0.5–4.5 m), a 75° camera 10 m up
 *   moving 2 m per frame (16 poses), or standing still (pose 0);
 * - trees: a 1,000 × 1,000 tree field over 2 km (jittered grid, ids in creation order), a ground
 *   camera 2 m high walking 0.5 m and turning 0.05° per frame.
 * Both use one screenHeight profile with 4 levels, blend windows, integer costs, hysteresis 0.1.
 *
 * Besides each row's median ms the tables give what does not move with memory bandwidth: ns per
 * object and ns per visible object (objects − hidden, the median over the sampled frames), for
 * every clustered row the share of clusters culled / skipped whole / evaluated per object (mean
 * over the sampled frames), and two floors: (a) reading the sphere array once (memory-bound) and
 * (a2) the compute floor, the least a screen-size decision costs per object (compute-bound). A
 * ratio to (a) moves with the machine's memory bandwidth, a ratio to (a2) much less. Each table is
 * printed with the run's machine: CPU model, cores, load average at start and end, Node version.
 *
 * Contributor notes:
 * - Samples alternate between the rows (round-robin), so a burst of load from other processes hits
 *   every row alike; the median of each row is reported.
 * - Fair poses: round `k` (warm-up or sample) gives EVERY row of a scene the same camera pose `k`
 *   (mod 16 for the random scene). An earlier version advanced one shared counter per row call, so
 *   some rows only ever saw even poses and others odd ones, and the 2-thread ratio compared
 *   different frames.
 * - Peers (three.js, Babylon) run on the first 100k / 20k spheres of the SAME data with the SAME
 *   camera poses, but do less work: distance LOD with 4 levels (thresholds = the screen-height ones
 *   at the mean radius), no culling, no blend, no hysteresis, no changed list. Each row's `work`
 *   column says what it does.
 */
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { LodSet, type LodFrameStats, type LodUpdateOptions, type LodView } from '../src/batch/lodSet.js';
import { kernelsReady, setFusedKernel, setWasmKernels } from '../src/batch/wasm/wasmKernels.js';
import { fusedCounters } from '../src/batch/passes/fusedPass.js';
import { engineOf, threadModeLoaded } from '../src/batch/engineSeam.js';
import { allPolicies } from '../src/batch/policyModules.js';
import { registerPolicies } from '../src/batch/policyRegistry.js';
import { threePeer } from './threePeer.js';
import { BENCH_PROFILE, peerDistances, randomScenePoses, randomSpheres, treeField, walkPoses } from './scenes.js';

await kernelsReady(); // (compiled asynchronously: until then a set's frames would time the JavaScript kernels)

registerPolicies(allPolicies); // the rows name every policy by its string

const LOAD_AT_START = loadavg().map((x) => +x.toFixed(2));
const args = new Set(process.argv.slice(2));
const JSON_OUT = args.has('--json');
const QUICK = args.has('--quick');
const SAMPLES = QUICK ? 3 : 21;
const WARM_UP = QUICK ? 3 : 8;
const ROUNDS = WARM_UP + SAMPLES;

const N = 1_000_000;
const randomData = randomSpheres(N, 1);
const treeData = treeField(1000, 2000, 5);
const randomViews = randomScenePoses();
const walkViews = walkPoses(ROUNDS);
const pose = (views: LodView[], k: number): LodView => views[k % views.length];

function makeSet(data: Float32Array): LodSet {
  const set = new LodSet(data.length >> 2);
  set.addMany(data, set.addProfile(BENCH_PROFILE));
  return set;
}

const clusterSets: { scene: string; set: LodSet }[] = [];
/**
 * One timed row. `run` may return the frame's stats (LodSet rows); read after the timer stops, they
 * give the visible objects and, with `set`, the clusters.
 */
interface Row {
  name: string; scene: string; work: string; objects: number; run: (k: number) => LodFrameStats | void; times: number[];
  /** Visible objects of the last frame, counted after the timer stopped (the compute floor). */
  countVisible?: () => number;
  /** The row's set, for its `clusterStats` after each sampled frame (clustered rows). */
  set?: LodSet;
  /** Per sampled frame: visible objects (objects − hidden), and the cluster counts of `set`. */
  visible?: number[]; culled?: number[]; skipped?: number[]; evaluated?: number[]; clusters?: number;
}
const rows: Row[] = [];
let sink = 0;

function readFloor(data: Float32Array): () => void {
  return () => {
    let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const d = data;
    for (let i = 0; i < d.length; i += 4) { a0 += d[i]; a1 += d[i + 1]; a2 += d[i + 2]; a3 += d[i + 3]; }
    sink += a0 + a1 + a2 + a3;
  };
}

const READ_FLOOR_WORK = 'memory-read floor: sum of the 1M-sphere Float32Array (memory-bound)';

/**
 * (a2) The compute floor: the least a screen-height decision must compute per sphere — six plane
 * tests, a square root and a division, branch-free, one output store; no level decision, no
 * hysteresis, no bookkeeping (a lower bound). Compute-bound, unlike the read floor (a).
 */
function computeFloor(scene: string, data: Float32Array, views: LodView[]): Row {
  const out = new Float64Array(N);
  return {
    name: `${scene}: (a2) compute floor, minimal metric loop`, scene, objects: N, times: [],
    work: 'compute floor: 6 plane tests + sqrt + divide per sphere, branch-free, one store (no level decision)',
    run: (k) => {
      const f = pose(views, k).frustum, pl = f.planes, sp = data;
      const ex = f.position[0], ey = f.position[1], ez = f.position[2], wh = f.windowHeight;
      const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
      const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
      const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
      for (let i = 0; i < N; i++) {
        const o = i << 2;
        const x = sp[o], y = sp[o + 1], z = sp[o + 2], r = sp[o + 3], nr = -r;
        const culled = +(p0 * x + p1 * y + p2 * z + p3 < nr) | +(p4 * x + p5 * y + p6 * z + p7 < nr)
          | +(p8 * x + p9 * y + p10 * z + p11 < nr) | +(p12 * x + p13 * y + p14 * z + p15 < nr)
          | +(p16 * x + p17 * y + p18 * z + p19 < nr) | +(p20 * x + p21 * y + p22 * z + p23 < nr);
        const dx = x - ex, dy = y - ey, dz = z - ez;
        out[i] = culled !== 0 ? -1 : (2 * r) / (Math.sqrt(dx * dx + dy * dy + dz * dz) * wh);
      }
      sink += out[N >> 1];
    },
    countVisible: () => {
      let v = 0;
      for (let i = 0; i < N; i++) if (out[i] >= 0) v++;
      return v;
    },
  };
}

const thresholdsOptions: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
const referenceOptions: LodUpdateOptions = { ...thresholdsOptions, clusters: false };
const rankOptions: LodUpdateOptions = { policy: 'rankQuota', quotas: [1000, 10000, 100000] };
const LODSET_WORK = '6-plane cull, screen height, USD index + blend, hysteresis 0.1, changed list, stats';

/** Per thread row over the sampled frames: how many ran threaded, and the calling thread's share of their chunks. */
interface ThreadInfo { scene: string; label: string; frames: number; threadedFrames: number; mainShare: number }
const threadInfo: ThreadInfo[] = [];
function noteThreads(info: ThreadInfo, set: LodSet, k: number): void {
  if (k < WARM_UP) return;
  info.frames++;
  const t = set.threadStats;
  if (t.threaded) { info.threadedFrames++; info.mainShare += t.callingThreadChunks / t.chunks; }
}

/** The LodSet rows of one scene: thresholds (moving), budget, hybrid, rankQuota. */
function lodSetRows(scene: string, data: Float32Array, views: LodView[]): void {
  const set = makeSet(data);
  rows.push({ name: `${scene}: (b) thresholds`, scene, work: `${LODSET_WORK}; spatial clusters`, objects: N, run: (k) => set.update(pose(views, k), thresholdsOptions), times: [], set });
  setWasmKernels(false);
  const jsSet = makeSet(data);
  setWasmKernels(true);
  rows.push({ name: `${scene}: (b-js) thresholds, JavaScript kernels only`, scene, work: `${LODSET_WORK}; spatial clusters, no WebAssembly`, objects: N, run: (k) => jsSet.update(pose(views, k), thresholdsOptions), times: [], set: jsSet });
  setFusedKernel(false);
  const metricSet = makeSet(data);
  setFusedKernel(true);
  rows.push({ name: `${scene}: (b-metric) thresholds, WebAssembly metric only`, scene, work: `${LODSET_WORK}; spatial clusters, f64x2 metric kernel + JavaScript decision (before the fused kernel)`, objects: N, run: (k) => metricSet.update(pose(views, k), thresholdsOptions), times: [], set: metricSet });
  const refSet = makeSet(data);
  rows.push({ name: `${scene}: (b-ref) thresholds, clusters: false`, scene, work: `${LODSET_WORK}; every object every frame (v0.1 path)`, objects: N, run: (k) => refSet.update(pose(views, k), referenceOptions), times: [], set: refSet });
  // A budget between the minimum and the thresholds' cost, so the solvers have work to do.
  const probeSet = makeSet(data);
  const probe = probeSet.update(views[0], thresholdsOptions);
  const budget = Math.round(probe.minimumCost + (probe.totalCost - probe.minimumCost) * 0.5);
  const budgetSet = makeSet(data), hybridSet = makeSet(data), rankSet = makeSet(data);
  const budgetOptions: LodUpdateOptions = { policy: 'budget', budget };
  const hybridOptions: LodUpdateOptions = { policy: 'hybrid', budget, hysteresis: 0.1 };
  rows.push({ name: `${scene}: (c) budget`, scene, work: 'knapsack over screen-space error (issue 14, stability band 0.4), 50 % between min and thresholds cost; culled clusters skipped, chains only for objects outside a stable range', objects: N, run: (k) => budgetSet.update(pose(views, k), budgetOptions), times: [], set: budgetSet });
  rows.push({ name: `${scene}: (c) hybrid`, scene, work: 'thresholds coarsened to the same budget (screen-space error); culled clusters skipped, one-level clusters decided whole, stable coarsening chains skipped', objects: N, run: (k) => hybridSet.update(pose(views, k), hybridOptions), times: [], set: hybridSet });
  // Issue 28's regimes beside the binding one: a budget 10 × the thresholds' cost (never binds) and
  // half the minimum cost (every object at its coarsest is already over it).
  const looseSet = makeSet(data), infeasibleSet = makeSet(data);
  const looseOptions: LodUpdateOptions = { policy: 'budget', budget: probe.totalCost * 10 };
  const infeasibleOptions: LodUpdateOptions = { policy: 'budget', budget: Math.round(probe.minimumCost * 0.5) };
  rows.push({ name: `${scene}: (c) budget, never binds`, scene, work: 'as (c) budget, 10 × the thresholds\' cost (issue 28: should cost about a thresholds frame)', objects: N, run: (k) => looseSet.update(pose(views, k), looseOptions), times: [], set: looseSet });
  rows.push({ name: `${scene}: (c) budget, below the minimum`, scene, work: 'as (c) budget, half the minimum cost: all coarsest (issue 28: should cost about a thresholds frame)', objects: N, run: (k) => infeasibleSet.update(pose(views, k), infeasibleOptions), times: [], set: infeasibleSet });
  rows.push({ name: `${scene}: (c) rankQuota [1k, 10k, 100k]`, scene, work: 'three quota selections by eye distance; culled clusters skipped, selections only near last frame\'s cuts', objects: N, run: (k) => rankSet.update(pose(views, k), rankOptions), times: [], set: rankSet });
  const budgetRef = makeSet(data), rankRef = makeSet(data);
  rows.push({ name: `${scene}: (c-ref) budget, clusters: false`, scene, work: 'as (c) budget, every object (v0.1 path)', objects: N, run: (k) => budgetRef.update(pose(views, k), { ...budgetOptions, clusters: false }), times: [], set: budgetRef });
  const hybridRef = makeSet(data);
  rows.push({ name: `${scene}: (c-ref) hybrid, clusters: false`, scene, work: 'as (c) hybrid, every object (v0.1 path)', objects: N, run: (k) => hybridRef.update(pose(views, k), { ...hybridOptions, clusters: false }), times: [], set: hybridRef });
  rows.push({ name: `${scene}: (c-ref) rankQuota, clusters: false`, scene, work: 'as (c) rankQuota, every object (v0.1 path)', objects: N, run: (k) => rankRef.update(pose(views, k), { ...rankOptions, clusters: false }), times: [], set: rankRef });
  clusterSets.push({ scene, set });
  const threadedSet = makeSet(data);
  threadedSet.setThreads(2);
  process.on('exit', () => threadedSet.dispose());
  const tInfo: ThreadInfo = { scene, label: '(b2c)', frames: 0, threadedFrames: 0, mainShare: 0 };
  threadInfo.push(tInfo);
  rows.push({ name: `${scene}: (b2c) thresholds, 2 threads, clusters`, scene, work: `${LODSET_WORK}; chunks of clusters claimed by 2 threads, falls back to 1 when slower`, objects: N, run: (k) => {
    const stats = threadedSet.update(pose(views, k), thresholdsOptions);
    noteThreads(tInfo, threadedSet, k);
    return stats;
  }, times: [], set: threadedSet });
  // The same with the adaptive choice pinned to threaded frames (the set's thread seam): what
  // dynamic claiming alone gives (or loses).
  const alwaysSet = makeSet(data);
  alwaysSet.setThreads(2);
  alwaysSet.setThreadSchedule('threaded');
  process.on('exit', () => alwaysSet.dispose());
  const aInfo: ThreadInfo = { scene, label: '(b2c-always)', frames: 0, threadedFrames: 0, mainShare: 0 };
  threadInfo.push(aInfo);
  rows.push({ name: `${scene}: (b2c-always) thresholds, 2 threads every frame`, scene, work: `${LODSET_WORK}; chunks of clusters claimed by 2 threads, no fallback`, objects: N, run: (k) => {
    const stats = alwaysSet.update(pose(views, k), thresholdsOptions);
    noteThreads(aInfo, alwaysSet, k);
    return stats;
  }, times: [], set: alwaysSet });
}

/** three.js `LOD.update` on the first `count` spheres of `data`, the scene's camera poses (bench/threePeer.ts). */
function threeRow(scene: string, data: Float32Array, views: LodView[], count: number, meanRadius: number): void {
  const peer = threePeer(data, count, meanRadius);
  rows.push({
    name: `${scene}: (d) three.js LOD.update, ${count / 1000}k`, scene, objects: count, times: [],
    work: `distance LOD, 4 levels (${peer.distances.map((x) => x.toFixed(0)).join(', ')} m), no cull/blend/hysteresis`,
    run: (k) => { peer.update(pose(views, k)); },
  });
}

/** Babylon `getLOD` on the first `count` spheres of `data`, the scene's eye positions. */
function babylonRow(scene: string, data: Float32Array, views: LodView[], count: number, meanRadius: number): void {
  Logger.LogLevels = Logger.NoneLogLevel; // keep stdout clean for --json
  const engine = new NullEngine();
  const bscene = new Scene(engine);
  const camera = new FreeCamera('camera', new Vector3(0, 10, 0), bscene);
  bscene.activeCamera = camera;
  const d = peerDistances(meanRadius);
  const meshes: Mesh[] = [];
  for (let i = 0; i < count; i++) {
    const mesh = new Mesh(`m${i}`, bscene);
    mesh.position.set(data[i * 4], data[i * 4 + 1], data[i * 4 + 2]);
    for (let l = 0; l < d.length; l++) mesh.addLODLevel(d[l], new Mesh(`m${i}l${l}`, bscene));
    mesh.computeWorldMatrix(true);
    meshes.push(mesh);
  }
  rows.push({
    name: `${scene}: (d) Babylon getLOD, ${count / 1000}k`, scene, objects: count, times: [],
    work: 'distance LOD, 4 levels (same distances), eye position only, no cull/blend/hysteresis',
    run: (k) => {
      const f = pose(views, k).frustum;
      camera.position.set(f.position[0], f.position[1], f.position[2]);
      camera.computeWorldMatrix();
      let found = 0;
      for (let i = 0; i < meshes.length; i++) if (meshes[i].getLOD(camera)) found++;
      sink += found;
    },
  });
}

// --- random scene --------------------------------------------------------------------------------
rows.push({ name: 'random: (a) read floor (memory), 4 accumulators', scene: 'random', work: READ_FLOOR_WORK, objects: N, run: readFloor(randomData), times: [] });
rows.push(computeFloor('random', randomData, randomViews));
lodSetRows('random', randomData, randomViews);
{
  const staticSet = makeSet(randomData);
  rows.push({ name: 'random: (b-static) thresholds, camera still', scene: 'random', work: LODSET_WORK, objects: N, run: () => staticSet.update(randomViews[0], thresholdsOptions), times: [], set: staticSet });
  const threaded = makeSet(randomData);
  threaded.setThreads(2);
  rows.push({ name: 'random: (b2) thresholds, 2 threads, clusters: false', scene: 'random', work: `${LODSET_WORK}; per-object path, chunks of ids claimed by 2 threads`, objects: N, run: (k) => threaded.update(pose(randomViews, k), referenceOptions), times: [], set: threaded });
  process.on('exit', () => threaded.dispose());
}
threeRow('random', randomData, randomViews, QUICK ? 20_000 : 100_000, 2.5);
babylonRow('random', randomData, randomViews, QUICK ? 5_000 : 20_000, 2.5);

// --- tree field ----------------------------------------------------------------------------------
rows.push({ name: 'trees: (a) read floor (memory), 4 accumulators', scene: 'trees', work: READ_FLOOR_WORK, objects: N, run: readFloor(treeData), times: [] });
rows.push(computeFloor('trees', treeData, walkViews));
lodSetRows('trees', treeData, walkViews);
threeRow('trees', treeData, walkViews, QUICK ? 20_000 : 100_000, 4);

// --- run -----------------------------------------------------------------------------------------
// The worker-thread code arrives by a dynamic import after setThreads: the thread rows' workers run from here on.
await Promise.all(rows.map((row) => (row.set ? threadModeLoaded(row.set) : undefined)));
for (let k = 0; k < WARM_UP; k++) for (const row of rows) row.run(k);
const fusedAtStart = clusterSets.map(({ set }) => fusedCounters(engineOf(set).ci));
for (let s = 0; s < SAMPLES; s++) {
  const k = WARM_UP + s;
  for (const row of rows) {
    const t0 = performance.now();
    const stats = row.run(k);
    row.times.push(performance.now() - t0);
    noteFrame(row, stats);
  }
}

/** After the timer: the frame's visible objects and, for a clustered set, its cluster counts. */
function noteFrame(row: Row, stats: LodFrameStats | void): void {
  const visible = stats ? row.objects - stats.hidden : row.countVisible ? row.countVisible() : -1;
  if (visible >= 0) (row.visible ??= []).push(visible);
  if (row.set === undefined) return;
  const c = row.set.clusterStats;
  if (c.culled + c.skipped + c.evaluated === 0) return; // the per-object path: no clusters
  row.clusters = c.clusters;
  (row.culled ??= []).push(c.culled);
  (row.skipped ??= []).push(c.skipped);
  (row.evaluated ??= []).push(c.evaluated);
}

function median(values: number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const results = rows.map((row) => {
  const ms = median(row.times);
  const visible = row.visible ? median(row.visible) : null;
  // Shares of the set's clusters per sampled frame (mean): culled whole, skipped whole (every
  // object provably kept its level), and the rest, whose objects ran the per-object kernels.
  const clusters = row.culled && row.skipped && row.evaluated && row.clusters ? {
    clusters: row.clusters, culledShare: mean(row.culled) / row.clusters, skippedShare: mean(row.skipped) / row.clusters,
    evaluatedShare: 1 - (mean(row.culled) + mean(row.skipped)) / row.clusters, objectsEvaluated: Math.round(mean(row.evaluated)),
  } : null;
  return {
    name: row.name, work: row.work, objects: row.objects, medianMs: ms, nsPerObject: (ms * 1e6) / row.objects,
    visible, nsPerVisible: visible ? (ms * 1e6) / visible : null, clusters, minMs: Math.min(...row.times),
  };
});
const get = (name: string) => {
  const r = results.find((x) => x.name.startsWith(name));
  if (!r) throw new Error(`no row ${name}`);
  return r;
};
/** A ratio of two rows' medians, with both rows' ns per object beside it (what travels between machines). */
interface Ratio { name: string; value: number; target: string; nsPerObject: [number, number] }
const ratios: Ratio[] = [];
const ratio = (name: string, num: string, den: string, target: string, perObject = false) => {
  const a = get(num), b = get(den);
  ratios.push({ name, value: perObject ? a.nsPerObject / b.nsPerObject : a.medianMs / b.medianMs, target, nsPerObject: [a.nsPerObject, b.nsPerObject] });
};
ratio('trees: thresholds ÷ read floor', 'trees: (b) thresholds', 'trees: (a) read floor', '≤ 1.0 (moves with memory bandwidth)');
ratio('trees: thresholds ÷ compute floor', 'trees: (b) thresholds', 'trees: (a2)', '(context: compute-bound ÷ compute-bound)');
ratio('trees: compute floor ÷ read floor', 'trees: (a2)', 'trees: (a) read floor', '(context: the machine\'s compute ÷ bandwidth)');
ratio('trees: three.js ÷ thresholds, per object', 'trees: (d) three.js', 'trees: (b) thresholds', '≥ 100', true);
ratio('trees: per-object reference ÷ clustered', 'trees: (b-ref)', 'trees: (b) thresholds', '(speed-up)');
ratio('trees: JavaScript-only ÷ with WebAssembly', 'trees: (b-js)', 'trees: (b) thresholds', '(speed-up)');
ratio('trees: WebAssembly metric only ÷ fused kernel', 'trees: (b-metric)', 'trees: (b) thresholds', '(speed-up)');
ratio('trees: 1 thread ÷ 2 threads (clusters)', 'trees: (b) thresholds', 'trees: (b2c)', '≥ 1 (never slower)');
ratio('trees: 1 thread ÷ 2 threads every frame (clusters)', 'trees: (b) thresholds', 'trees: (b2c-always)', '(context: no fallback)');
ratio('trees: 1 thread JavaScript kernels ÷ 2 threads (clusters)', 'trees: (b-js)', 'trees: (b2c)', '(context: same kernels)');
ratio('trees: three.js ÷ 2-thread clustered, per object', 'trees: (d) three.js', 'trees: (b2c)', '(context)', true);
ratio('trees: budget per-object ÷ clustered', 'trees: (c-ref) budget', 'trees: (c) budget', '(speed-up)');
ratio('trees: hybrid per-object ÷ clustered', 'trees: (c-ref) hybrid', 'trees: (c) hybrid', '(speed-up)');
ratio('trees: rankQuota per-object ÷ clustered', 'trees: (c-ref) rankQuota', 'trees: (c) rankQuota', '(speed-up)');
ratio('trees: budget ÷ thresholds', 'trees: (c) budget', 'trees: (b) thresholds', '≤ 1.5');
ratio('trees: hybrid ÷ thresholds', 'trees: (c) hybrid', 'trees: (b) thresholds', '≤ 1.5');
ratio('trees: rankQuota ÷ thresholds', 'trees: (c) rankQuota', 'trees: (b) thresholds', '≤ 1.5');
ratio('random: thresholds (moving) ÷ read floor', 'random: (b) thresholds', 'random: (a) read floor', '≤ 3 (moves with memory bandwidth)');
ratio('random: thresholds (moving) ÷ compute floor', 'random: (b) thresholds', 'random: (a2)', '(context: compute-bound ÷ compute-bound)');
ratio('random: thresholds (still) ÷ read floor', 'random: (b-static)', 'random: (a) read floor', '≤ 3');
ratio('random: per-object reference ÷ clustered', 'random: (b-ref)', 'random: (b) thresholds', '(speed-up)');
ratio('random: JavaScript-only ÷ with WebAssembly', 'random: (b-js)', 'random: (b) thresholds', '(speed-up)');
ratio('random: WebAssembly metric only ÷ fused kernel', 'random: (b-metric)', 'random: (b) thresholds', '(speed-up)');
ratio('random: compute floor ÷ read floor', 'random: (a2)', 'random: (a) read floor', '(context: the machine\'s compute ÷ bandwidth)');
ratio('random: budget per-object ÷ clustered', 'random: (c-ref) budget', 'random: (c) budget', '(speed-up)');
ratio('random: hybrid per-object ÷ clustered', 'random: (c-ref) hybrid', 'random: (c) hybrid', '(speed-up)');
ratio('random: rankQuota per-object ÷ clustered', 'random: (c-ref) rankQuota', 'random: (c) rankQuota', '(speed-up)');
ratio('random: budget ÷ thresholds', 'random: (c) budget', 'random: (b) thresholds', '≤ 1.5');
ratio('random: hybrid ÷ thresholds', 'random: (c) hybrid', 'random: (b) thresholds', '≤ 1.5');
ratio('random: rankQuota ÷ thresholds', 'random: (c) rankQuota', 'random: (b) thresholds', '≤ 1.5');
ratio('random: 1 thread ÷ 2 threads (clusters)', 'random: (b) thresholds', 'random: (b2c)', '≥ 1 (never slower)');
ratio('random: 1 thread ÷ 2 threads every frame (clusters)', 'random: (b) thresholds', 'random: (b2c-always)', '(context: no fallback)');
ratio('random: 1 thread JavaScript kernels ÷ 2 threads (clusters)', 'random: (b-js)', 'random: (b2c)', '(context: same kernels)');
ratio('random: per-object 1 thread ÷ 2 threads (speed-up)', 'random: (b-ref)', 'random: (b2)', '(context)');
ratio('random: three.js ÷ thresholds, per object', 'random: (d) three.js', 'random: (b) thresholds', '(context: the ≥ 100 target is on the trees)', true);
ratio('random: Babylon ÷ thresholds, per object', 'random: (d) Babylon', 'random: (b) thresholds', '(context)', true);

const machine = {
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown', cores: cpus().length, node: process.version, platform: `${process.platform} ${process.arch}`,
  loadAtStart: LOAD_AT_START, loadAtEnd: loadavg().map((x) => +x.toFixed(2)), samples: SAMPLES, warmUp: WARM_UP, smokeRun: QUICK,
};
if (JSON_OUT) {
  console.log(JSON.stringify({ machine, results, ratios, threadInfo, sink: sink > 0 }, null, 2));
} else {
  // The machine beside every table: ratios to the memory-read floor move with memory bandwidth.
  const machineLine = `_Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.platform}, Node ${machine.node}; load average (1, 5, 15 min) ${machine.loadAtStart.join(' / ')} at start, ${machine.loadAtEnd.join(' / ')} at end; median of ${SAMPLES} samples after ${WARM_UP} warm-up rounds._`;
  const fmt = (x: number | null, digits = 2) => (x === null ? '–' : x.toFixed(digits));
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  if (QUICK) console.log('**SMOKE RUN (--quick): 3 samples, smaller peers. Not a measurement; do not quote.**\n');
  console.log(machineLine + '\n');
  console.log('| row | work | objects | visible (median) | median ms | ns / object | ns / visible object |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.work} | ${r.objects.toLocaleString('en-US')} | ${r.visible === null ? '–' : r.visible.toLocaleString('en-US')} | ${r.medianMs.toFixed(2)} | ${r.nsPerObject.toFixed(2)} | ${fmt(r.nsPerVisible)} |`);
  }
  console.log('\n' + machineLine + '\n');
  console.log('| ratio | measured | ns / object (numerator ÷ denominator) | target |');
  console.log('|---|---:|---:|---|');
  for (const r of ratios) console.log(`| ${r.name} | ${r.value.toFixed(2)} | ${r.nsPerObject[0].toFixed(2)} ÷ ${r.nsPerObject[1].toFixed(2)} | ${r.target} |`);
  console.log('\n' + machineLine + '\n');
  console.log('Clusters of each clustered row per sampled frame (mean): culled whole, skipped whole (no per-object work), evaluated (their objects ran the per-object kernels):\n');
  console.log('| row | clusters | culled | skipped | evaluated | objects evaluated / frame |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    if (r.clusters === null) continue;
    const c = r.clusters;
    console.log(`| ${r.name} | ${c.clusters.toLocaleString('en-US')} | ${pct(c.culledShare)} | ${pct(c.skippedShare)} | ${pct(c.evaluatedShare)} | ${c.objectsEvaluated.toLocaleString('en-US')} |`);
  }
  console.log('\nFused WebAssembly kernel of each (b) set, per sampled frame (mean):');
  for (let q = 0; q < clusterSets.length; q++) {
    const { scene, set } = clusterSets[q], a = fusedCounters(engineOf(set).ci), b = fusedAtStart[q], frames = SAMPLES;
    const k = { lanes: a.lanes - b.lanes, exact: a.exact - b.exact, redone: a.redone - b.redone, rechecked: a.rechecked - b.rechecked };
    const per = (x: number) => Math.round(x / frames).toLocaleString('en-US');
    console.log(`- ${scene}: ${per(k.lanes)} slots, ${per(k.exact)} on the scalar exact path, ${per(k.redone)} redone in JavaScript, ${(k.rechecked / frames).toFixed(1)} plane tests re-checked in float64`);
  }
  console.log('\nWorker-thread rows over the sampled frames: frames run threaded, calling thread\'s mean share of their chunks:');
  for (const t of threadInfo) {
    const share = t.threadedFrames > 0 ? `${((100 * t.mainShare) / t.threadedFrames).toFixed(0)} %` : '–';
    console.log(`- ${t.scene} ${t.label}: ${t.threadedFrames} of ${t.frames} threaded, calling thread did ${share} of the chunks`);
  }
  if (sink === 0) console.log('(sink)');
}
