/**
 * Hybrid's binding frames one by one (issue 28, bench/RESULTS.md "Budget regimes"): the 100k tree
 * field walked back (or forward, `--forward`), the budget halfway between the minimum and the
 * thresholds' cost as in bench/regimes.ts, 2 passes over the 40 poses with the second printed. Per
 * frame: its time beside a thresholds frame of the same pose, how many objects the budget kernel
 * left to JavaScript (chains for the solve), whether the solve cut the protected tier, the band's
 * price after the frame and the floor factor the frame's stable rows used, and the level changes.
 * It shows what a median hides: walking back, the listed objects swing from a few hundred to
 * thousands a frame as the price alternates after the cuts.
 *
 *   npm run bench:hybrid-frames -w lodkit [-- --forward]
 */
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { LodSet } from '../src/batch/lodSet.js';
import { hybridPolicy } from '../src/batch/policyModules.js';
import { engineOf } from '../src/batch/engineSeam.js';
import { hybridBindingOf } from '../src/batch/passes/hybridBinding.js';
import { hybridStateOf } from '../src/batch/passes/hybridIncremental.js';
import { BENCH_PROFILE, treeField, walkPoses } from './scenes.js';
import { kernelsReady } from '../src/batch/wasm/wasmKernels.js';

await kernelsReady();
const forward = process.argv.includes('--forward');
const data = treeField(316, 632, 5);
const views = forward ? walkPoses(40) : walkPoses(40).reverse();

function makeSet(): LodSet {
  const s = new LodSet(data.length >> 2);
  s.addMany(data, s.addProfile(BENCH_PROFILE));
  return s;
}
const thresholds = { policy: 'thresholds', hysteresis: 0.1 } as const;
const probe = makeSet().update(views[0], thresholds);
const budget = Math.round(probe.minimumCost + (probe.totalCost - probe.minimumCost) * 0.5);
const options = { policy: hybridPolicy, budget, hysteresis: 0.1 };
const set = makeSet(), reference = makeSet(), engine = engineOf(set);

console.log(`hybrid over budget, 100k trees walked ${forward ? 'forward' : 'back'}; ${cpus()[0]?.model.trim() ?? 'unknown'}, load ${loadavg()[0].toFixed(2)}`);
console.log('| frame | thresholds ms | hybrid ms | binding pass | listed | cut | λ after | floor factor | changes |\n|---:|---:|---:|---|---:|---:|---:|---:|---:|');
for (let pass = 0; pass < 2; pass++) {
  for (let k = 0; k < views.length; k++) {
    const t0 = performance.now();
    reference.update(views[k], thresholds);
    const t1 = performance.now();
    const hb = hybridBindingOf(engine.ci), hy = hybridStateOf(engine.ci);
    const framesBefore = hb.frames, fallbacksBefore = hb.fallbacks, cutsBefore = hy.cuts;
    const t2 = performance.now();
    set.update(views[k], options);
    const t3 = performance.now();
    if (pass === 0) continue;
    const ran = hb.frames > framesBefore, path = !ran ? 'no' : hb.fallbacks > fallbacksBefore ? 'collected again' : 'yes';
    console.log(`| ${k} | ${(t1 - t0).toFixed(3)} | ${(t3 - t2).toFixed(3)} | ${path} | ${ran ? hb.listCount : '–'} | ${hy.cuts - cutsBefore} | `
      + `${engine.sse.lambda.toExponential(2)} | ${hy.ranges.floorFactor.toFixed(2)} | ${set.changedCount} |`);
  }
}
set.dispose(); reference.dispose();
