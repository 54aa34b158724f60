/**
 * lodkit batch benchmark: one process, seeded LCG data, warm-up, medians.
 *
 *   npm run bench            # markdown table
 *   npm run bench -- --json  # JSON
 *   npm run bench -- --quick # fewer samples (smoke run)
 *
 * Rows (all in this process, so ratios are comparable even on a noisy machine):
 * (a) read floor: four accumulators over the same 1M-sphere Float32Array the set stores;
 * (b) LodSet.update, thresholds + hysteresis + blend, 1M spheres, camera moving every frame;
 * (c) LodSet.update, budget and rankQuota, 1M spheres, 4 levels;
 * (b2) (b) split over 2 threads (worker mode);
 * (d) three.js LOD.update on 100k THREE.LOD objects (4 levels) and Babylon getLOD on 20k meshes
 *     (NullEngine, 4 levels), per object.
 *
 * Contributor notes: samples alternate between the rows (round-robin), so a burst of load from
 * other processes hits every row alike; the median of each row is reported.
 */
import { performance } from 'node:perf_hooks';
import * as THREE from 'three';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { LodSet, type LodUpdateOptions, type LodView } from '../src/batch/lodSet.js';
import { Frustum } from '../src/metrics/frustum.js';
import { lookAtRotation } from '../src/metrics/vector.js';

const args = new Set(process.argv.slice(2));
const JSON_OUT = args.has('--json');
const QUICK = args.has('--quick');
const SAMPLES = QUICK ? 5 : 21;
const WARM_UP = QUICK ? 3 : 8;

function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

function spheres(n: number, seed: number): Float32Array {
  const rand = lcg(seed);
  const out = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    out[i * 4] = (rand() * 2 - 1) * 500;
    out[i * 4 + 1] = rand() * 20;
    out[i * 4 + 2] = (rand() * 2 - 1) * 500;
    out[i * 4 + 3] = 0.5 + rand() * 4;
  }
  return out;
}

function median(values: number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

const N = 1_000_000;
const data = spheres(N, 1);

// 16 camera poses along a path (a wide 75° view from 10 m up), reused round-robin.
const frusta: Frustum[] = [];
for (let k = 0; k < 16; k++) {
  const eye = [k * 2, 10, -k];
  frusta.push(Frustum.perspective({ fovY: 75, aspect: 16 / 9, near: 0.1, far: 2000, position: eye, rotation: lookAtRotation(eye, [k * 2 + 100, 0, 300]) }));
}
const views: LodView[] = frusta.map((frustum) => ({ frustum, viewportHeight: 1080 }));

function makeSet(): LodSet {
  const set = new LodSet(N);
  const p = set.addProfile({
    metric: 'screenHeight', thresholds: [0.2, 0.06, 0.015], blendThresholds: [0.17, 0.05, 0.012],
    costs: [20000, 5000, 1200, 150],
  });
  set.addMany(data, p);
  return set;
}

const setB = makeSet();
const setThreaded = makeSet();
setThreaded.setThreads(2);
const setBudget = makeSet();
const setRank = makeSet();
const thresholdsOptions: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
const rankOptions: LodUpdateOptions = { policy: 'rankQuota', quotas: [1000, 10000, 100000] };
// A budget between the minimum and the thresholds' cost, so the solver has work to do.
const probe = setBudget.update(views[0], thresholdsOptions);
const budgetOptions: LodUpdateOptions = { policy: 'budget', budget: Math.round(probe.minimumCost + (probe.totalCost - probe.minimumCost) * 0.5) };

let sink = 0;
function readFloor(): void {
  let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const d = data;
  for (let i = 0; i < d.length; i += 4) { a0 += d[i]; a1 += d[i + 1]; a2 += d[i + 2]; a3 += d[i + 3]; }
  sink += a0 + a1 + a2 + a3;
}

let frame = 0;
const rows: { name: string; objects: number; run: () => void; times: number[] }[] = [
  { name: '(a) read floor, 4 accumulators, 1M spheres', objects: N, run: readFloor, times: [] },
  { name: '(b) update thresholds + hysteresis + blend, 1M', objects: N, run: () => { setB.update(views[frame++ & 15], thresholdsOptions); }, times: [] },
  { name: '(b2) same as (b), 2 threads (SharedArrayBuffer workers)', objects: N, run: () => { setThreaded.update(views[frame++ & 15], thresholdsOptions); }, times: [] },
  { name: '(c) update budget, 1M, 4 levels', objects: N, run: () => { setBudget.update(views[frame++ & 15], budgetOptions); }, times: [] },
  { name: '(c) update rankQuota [1k, 10k, 100k], 1M, 4 levels', objects: N, run: () => { setRank.update(views[frame++ & 15], rankOptions); }, times: [] },
];

// (d) three.js: 100k THREE.LOD objects with 4 levels each.
const THREE_N = QUICK ? 20_000 : 100_000;
const threeCamera = new THREE.PerspectiveCamera(75, 16 / 9, 0.1, 2000);
const threeLods: THREE.LOD[] = [];
{
  const rand = lcg(2);
  for (let i = 0; i < THREE_N; i++) {
    const lod = new THREE.LOD();
    lod.addLevel(new THREE.Object3D(), 0);
    lod.addLevel(new THREE.Object3D(), 50);
    lod.addLevel(new THREE.Object3D(), 150);
    lod.addLevel(new THREE.Object3D(), 400);
    lod.position.set((rand() * 2 - 1) * 500, rand() * 20, (rand() * 2 - 1) * 500);
    lod.updateMatrixWorld(true);
    threeLods.push(lod);
  }
}
rows.push({
  name: `(d) three.js LOD.update, ${THREE_N / 1000}k objects`, objects: THREE_N, times: [],
  run: () => {
    const k = frame++ & 15;
    threeCamera.position.set(k * 2, 10, -k);
    threeCamera.updateMatrixWorld(true);
    for (let i = 0; i < threeLods.length; i++) threeLods[i].update(threeCamera);
  },
});

// (d) Babylon: 20k meshes with 3 LOD meshes each (4 levels), NullEngine.
const BABYLON_N = QUICK ? 5_000 : 20_000;
Logger.LogLevels = Logger.NoneLogLevel; // keep stdout clean for --json
const engine = new NullEngine();
const scene = new Scene(engine);
const babylonCamera = new FreeCamera('camera', new Vector3(0, 10, 0), scene);
scene.activeCamera = babylonCamera;
const babylonMeshes: Mesh[] = [];
{
  const rand = lcg(3);
  for (let i = 0; i < BABYLON_N; i++) {
    const mesh = new Mesh(`m${i}`, scene);
    mesh.position.set((rand() * 2 - 1) * 500, rand() * 20, (rand() * 2 - 1) * 500);
    mesh.addLODLevel(50, new Mesh(`m${i}l1`, scene));
    mesh.addLODLevel(150, new Mesh(`m${i}l2`, scene));
    mesh.addLODLevel(400, new Mesh(`m${i}l3`, scene));
    mesh.computeWorldMatrix(true);
    babylonMeshes.push(mesh);
  }
}
rows.push({
  name: `(d) Babylon getLOD, ${BABYLON_N / 1000}k meshes`, objects: BABYLON_N, times: [],
  run: () => {
    const k = frame++ & 15;
    babylonCamera.position.set(k * 2, 10, -k);
    babylonCamera.computeWorldMatrix();
    let found = 0;
    for (let i = 0; i < babylonMeshes.length; i++) if (babylonMeshes[i].getLOD(babylonCamera)) found++;
    sink += found;
  },
});

// (a2) The least a screen-height update must compute: six plane tests, a square root and a division
// per sphere, branch-free, one output store; no decision, no hysteresis, no bookkeeping. It shows how
// far above the read floor the arithmetic alone sits on this machine (the (b) ÷ (a) target's context).
const minimalOut = new Float64Array(N);
const minimalPlanes = frusta[0].planes;
function minimalMetric(): void {
  const pl = minimalPlanes, sp = data, out = minimalOut;
  const ex = frusta[0].position[0], ey = frusta[0].position[1], ez = frusta[0].position[2], wh = frusta[0].windowHeight;
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
}
rows.push({ name: '(a2) minimal metric loop: 6 plane tests + sqrt + divide, branch-free, 1M', objects: N, run: minimalMetric, times: [] });

for (let w = 0; w < WARM_UP; w++) for (const row of rows) row.run();
for (let s = 0; s < SAMPLES; s++) {
  for (const row of rows) {
    const t0 = performance.now();
    row.run();
    row.times.push(performance.now() - t0);
  }
}

const results = rows.map((row) => {
  const ms = median(row.times);
  return { name: row.name, objects: row.objects, medianMs: ms, nsPerObject: (ms * 1e6) / row.objects, minMs: Math.min(...row.times) };
});
const byPrefix = (p: string) => results.find((r) => r.name.startsWith(p))!;
const floor = results[0], thresholds = results[1], threaded = results[2], budget = results[3], rank = results[4];
const three = byPrefix('(d) three'), babylon = byPrefix('(d) Babylon');
const ratios = {
  thresholdsOverFloor: thresholds.medianMs / floor.medianMs,
  budgetOverThresholds: budget.medianMs / thresholds.medianMs,
  rankQuotaOverThresholds: rank.medianMs / thresholds.medianMs,
  threeOverLodkitPerObject: three.nsPerObject / thresholds.nsPerObject,
  babylonOverLodkitPerObject: babylon.nsPerObject / thresholds.nsPerObject,
  twoThreadSpeedUp: thresholds.medianMs / threaded.medianMs,
  minimalMetricOverFloor: byPrefix('(a2)').medianMs / floor.medianMs,
};
const targets = {
  thresholdsOverFloor: '≤ 2.0', budgetOverThresholds: '≤ 3', rankQuotaOverThresholds: '≤ 3',
  threeOverLodkitPerObject: '≥ 100', babylonOverLodkitPerObject: '≥ 400', twoThreadSpeedUp: '≥ 1.7',
  minimalMetricOverFloor: '(context, no target)',
};
const machine = { node: process.version, platform: `${process.platform} ${process.arch}`, cpus: (await import('node:os')).cpus().length, samples: SAMPLES };

if (JSON_OUT) {
  console.log(JSON.stringify({ machine, results, ratios, targets, sink: sink > 0 }, null, 2));
} else {
  console.log(`Node ${machine.node}, ${machine.platform}, ${machine.cpus} CPUs, median of ${SAMPLES} samples after ${WARM_UP} warm-up rounds\n`);
  console.log('| row | objects | median ms | ns / object |');
  console.log('|---|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.name} | ${r.objects.toLocaleString('en-US')} | ${r.medianMs.toFixed(2)} | ${r.nsPerObject.toFixed(2)} |`);
  console.log('\n| ratio | measured | target |');
  console.log('|---|---:|---|');
  for (const [k, v] of Object.entries(ratios)) console.log(`| ${k} | ${v.toFixed(2)} | ${targets[k as keyof typeof targets]} |`);
  if (sink === 0) console.log('(sink)');
}
setThreaded.dispose();
