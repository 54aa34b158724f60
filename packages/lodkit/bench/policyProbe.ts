/**
 * Profiling aid for the policy rows of run.ts (their quoted numbers come from run.ts): one scene,
 * thresholds against rankQuota / budget / hybrid side by side in one process, 40 poses (8 warm-up),
 * medians, plus the incremental paths' counters (windows held / missed, stable objects, fallbacks)
 * and, since the process is fresh, frames 2–11 against the steady median (cold start).
 *
 *   npx tsc -p tsconfig.bench.json && node .bench-build/bench/policyProbe.js [all|rank|budget|hybrid] [trees|random]
 *   node --cpu-prof .bench-build/bench/policyProbe.js hybrid     # where the time goes
 */
import { performance } from 'node:perf_hooks';
import { LodSet, type LodUpdateOptions, type LodView } from '../src/batch/lodSet.js';
import { engineOf } from '../src/batch/engineSeam.js';
import { rankCutsOf } from '../src/batch/passes/rankCuts.js';
import { budgetStateOf } from '../src/batch/passes/budgetIncremental.js';
import { hybridStateOf } from '../src/batch/passes/hybridIncremental.js';
import { BENCH_PROFILE, randomScenePoses, randomSpheres, treeField, walkPoses } from './scenes.js';
import { kernelsReady } from '../src/batch/wasm/wasmKernels.js';

await kernelsReady(); // (compiled asynchronously: until then a set's frames would time the JavaScript kernels)

const which = process.argv[2] ?? 'all';
const randomScene = process.argv[3] === 'random';
const ROUNDS = 40, WARM_UP = 8;
const data = randomScene ? randomSpheres(1_000_000, 1) : treeField(1000, 2000, 5);
const views = randomScene ? Array.from({ length: ROUNDS }, (_, k) => randomScenePoses()[k % 16]) : walkPoses(ROUNDS);

function makeSet(): LodSet {
  const s = new LodSet(data.length >> 2);
  s.addMany(data, s.addProfile(BENCH_PROFILE));
  return s;
}

const thresholds: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
const probe = makeSet().update(views[0], thresholds);
const budget = Math.round(probe.minimumCost + (probe.totalCost - probe.minimumCost) * 0.5); // as run.ts
const rows: [string, LodSet, LodUpdateOptions][] = [['thresholds', makeSet(), thresholds]];
if (which === 'all' || which === 'rank') rows.push(['rankQuota', makeSet(), { policy: 'rankQuota', quotas: [1000, 10000, 100000] }]);
if (which === 'all' || which === 'budget') rows.push(['budget', makeSet(), { policy: 'budget', budget }]);
if (which === 'all' || which === 'hybrid') rows.push(['hybrid', makeSet(), { policy: 'hybrid', budget, hysteresis: 0.1 }]);

const times = rows.map(() => [] as number[]), all = rows.map(() => [] as number[]);
for (let k = 0; k < ROUNDS; k++) {
  for (let r = 0; r < rows.length; r++) {
    const t = performance.now();
    rows[r][1].update(views[k] as LodView, rows[r][2]);
    const dt = performance.now() - t;
    all[r].push(dt);
    if (k >= WARM_UP) times[r].push(dt);
  }
}
const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const ci = (s: LodSet) => engineOf(s).ci;
console.log(`${randomScene ? 'random' : 'trees'} scene, ${ROUNDS - WARM_UP} frames after ${WARM_UP} warm-up, median ms (÷ thresholds):`);
for (let r = 0; r < rows.length; r++) {
  const [name, set] = rows[r];
  let info = '';
  if (name === 'rankQuota') { const c = rankCutsOf(ci(set)); info = `windows held ${c.hits}, missed ${c.misses}`; }
  if (name === 'budget') { const b = budgetStateOf(ci(set)); info = `stable objects / frame ${(b.stableTotal / b.frames).toFixed(0)}, full-path frames ${b.fallbacks}`; }
  if (name === 'hybrid') {
    const h = hybridStateOf(ci(set));
    info = `one-level objects / frame ${(h.uniformTotal / h.frames).toFixed(0)}, stable / frame ${(h.stableTotal / h.frames).toFixed(0)}, re-collected ${h.fallbacks}`;
  }
  const steady = median(times[r]), cold = all[r].slice(1, 11);
  const coldInfo = `frames 2–11 ÷ steady: median ${(median(cold) / steady).toFixed(2)}, max ${(Math.max(...cold) / steady).toFixed(2)}`;
  const cs = set.clusterStats; // of the last frame
  const clusterInfo = `last frame: ${cs.culled} clusters culled, ${cs.skipped} skipped whole, ${cs.evaluated} objects evaluated per object`;
  console.log(`  ${name}: ${steady.toFixed(2)} (${(steady / median(times[0])).toFixed(2)} ×) ${info}; ${coldInfo}; ${clusterInfo}`);
}
