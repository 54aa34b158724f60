/**
 * The budget policies in their three regimes beside a thresholds frame of the same scene (issue 28,
 * "one cost in every regime"): a budget halfway between the minimum and the thresholds' cost
 * (binds), 10 × the thresholds' cost (never binds) and half the minimum cost (below the minimum:
 * every object at its coarsest is already over it) — for `budgetPolicy` and `hybridPolicy`, at 100k
 * and 1M objects, clustered (tree field, ids in row order; the walk forward and backward) and random order. One process, rows
 * interleaved frame by frame, seeded scenes, 8 warm-up frames, medians of 32.
 *
 *   npm run bench:regimes -w lodkit [-- --json]
 *
 * Prints ms per frame, ns per object and the ratio to the thresholds row of the same scene — of the
 * medians, and of the means beside them: a budget frame that retries the thresholds' selection (one
 * binding frame in 16, budgetRegime.ts) costs about two, which a median does not show.
 */
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { LodSet, type LodUpdateOptions, type LodView } from '../src/batch/lodSet.js';
import { budgetPolicy, hybridPolicy } from '../src/batch/policyModules.js';
import { BENCH_PROFILE, randomScenePoses, randomSpheres, treeField, walkPoses } from './scenes.js';
import { kernelsReady } from '../src/batch/wasm/wasmKernels.js';

await kernelsReady(); // (compiled asynchronously: until then a set's frames would time the JavaScript kernels)

const ROUNDS = 40, WARM_UP = 8;
const json = process.argv.includes('--json');

interface Row { name: string; set: LodSet; options: LodUpdateOptions; views: LodView[]; times: number[] }

function makeSet(data: Float32Array): LodSet {
  const s = new LodSet(data.length >> 2);
  s.addMany(data, s.addProfile(BENCH_PROFILE));
  return s;
}

function sceneRows(scene: string, data: Float32Array): Row[] {
  // (trees: the walk, or the same poses backwards — objects then enter the view close to the camera,
  // at fine levels, where a binding budget must take triangles from the objects already shown)
  const views = scene.startsWith('trees') ? (scene.endsWith('back') ? walkPoses(ROUNDS).reverse() : walkPoses(ROUNDS)) : randomScenePoses();
  const thresholds: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
  const probe = makeSet(data).update(views[0], thresholds);
  const regimes: [string, number][] = [
    ['binds', Math.round(probe.minimumCost + (probe.totalCost - probe.minimumCost) * 0.5)],
    ['never binds', probe.totalCost * 10],
    ['below the minimum', Math.round(probe.minimumCost * 0.5)],
  ];
  const rows: Row[] = [{ name: 'thresholds', set: makeSet(data), options: thresholds, views, times: [] }];
  for (const [policy, module] of [['budget', budgetPolicy], ['hybrid', hybridPolicy]] as const) {
    for (const [regime, budget] of regimes) {
      rows.push({ name: `${policy}, ${regime}`, set: makeSet(data), options: { policy: module, budget, hysteresis: 0.1 }, views, times: [] });
    }
  }
  return rows;
}

const scenes: [string, () => Float32Array][] = [
  ['trees 100k', () => treeField(316, 632, 5)],
  ['trees 100k, walking back', () => treeField(316, 632, 5)],
  ['random 100k', () => randomSpheres(100_000, 1)],
  ['trees 1M', () => treeField(1000, 2000, 5)],
  ['trees 1M, walking back', () => treeField(1000, 2000, 5)],
  ['random 1M', () => randomSpheres(1_000_000, 1)],
];
const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
const out: { scene: string; row: string; ms: number; nsPerObject: number; ratio: number; meanMs: number; meanRatio: number }[] = [];
for (const [scene, make] of scenes) {
  const data = make();
  const n = data.length >> 2;
  const rows = sceneRows(scene, data);
  for (let k = 0; k < ROUNDS; k++) {
    for (const r of rows) {
      const t = performance.now();
      r.set.update(r.views[k % r.views.length], r.options);
      const dt = performance.now() - t;
      if (k >= WARM_UP) r.times.push(dt);
    }
  }
  const base = median(rows[0].times), baseMean = mean(rows[0].times);
  for (const r of rows) {
    const ms = median(r.times), meanMs = mean(r.times);
    out.push({ scene, row: r.name, ms, nsPerObject: (ms * 1e6) / n, ratio: ms / base, meanMs, meanRatio: meanMs / baseMean });
  }
  for (const r of rows) r.set.dispose();
}
if (json) {
  console.log(JSON.stringify({ cpu: cpus()[0]?.model, load: loadavg()[0], rows: out }));
} else {
  console.log(`${cpus()[0]?.model}, ${cpus().length} CPUs, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log('| scene | row | median ms / frame | ns / object | ÷ thresholds | mean ms | mean ÷ thresholds mean |\n|---|---|---:|---:|---:|---:|---:|');
  for (const o of out) console.log(`| ${o.scene} | ${o.row} | ${o.ms.toFixed(2)} | ${o.nsPerObject.toFixed(1)} | ${o.ratio.toFixed(2)} | ${o.meanMs.toFixed(2)} | ${o.meanRatio.toFixed(2)} |`);
}
