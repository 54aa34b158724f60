/**
 * A/B of the fused WebAssembly kernel against the metric-only WebAssembly kernel (the path before
 * it: f64x2 metric, JavaScript decision) and the JavaScript kernels, on the tree field of run.ts,
 * in ONE process with nothing else between the frames: `--sets N` pairs of 1M-object sets (default
 * 1), the variants alternating frame by frame on the same camera poses; 10 warm-up frames, then
 * percentiles of 70 frames per variant.
 *
 *   npx tsc -p tsconfig.bench.json && node .bench-build/bench/fusedAb.js [--sets 4] [--scene random]
 *
 * Why next to run.ts: in run.ts the same rows run between budget/hybrid/rankQuota frames of
 * 30–150 ms that evict the caches, and there the fused kernel measured no faster than the
 * metric-only one (bench/RESULTS.md); this isolates the per-frame cost of the kernels themselves.
 * On a shared machine the 10th percentile is the steadiest figure (other jobs only add time).
 */
import { LodSet, type LodUpdateOptions } from '../src/batch/lodSet.js';
import { kernelsReady, setFusedKernel, setWasmKernels } from '../src/batch/wasm/wasmKernels.js';
import { BENCH_PROFILE, randomScenePoses, randomSpheres, treeField, walkPoses } from './scenes.js';

await kernelsReady(); // (compiled asynchronously: until then a set's frames would time the JavaScript kernels)

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const sets = Number(opt('--sets', '1'));
const scene = opt('--scene', 'trees');
const FRAMES = 80, WARM = 10;
const data = scene === 'random' ? randomSpheres(1_000_000, 1) : treeField(1000, 2000, 5);
const views = scene === 'random' ? randomScenePoses() : walkPoses(FRAMES);
const make = () => { const s = new LodSet(data.length >> 2); s.addMany(data, s.addProfile(BENCH_PROFILE)); return s; };

const variants: { name: string; sets: LodSet[]; times: number[] }[] = [
  { name: 'fused kernel', sets: [], times: [] },
  { name: 'WebAssembly metric only', sets: [], times: [] },
  { name: 'JavaScript kernels', sets: [], times: [] },
];
for (let i = 0; i < sets; i++) {
  variants[0].sets.push(make());
  setFusedKernel(false); variants[1].sets.push(make()); setFusedKernel(true);
  setWasmKernels(false); variants[2].sets.push(make()); setWasmKernels(true);
}
const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
for (let k = 0; k < FRAMES; k++) {
  for (let i = 0; i < sets; i++) {
    for (let v = 0; v < variants.length; v++) {
      const row = variants[(v + k) % variants.length]; // rotating order
      const t0 = performance.now();
      row.sets[i].update(views[k % views.length], options);
      if (k >= WARM) row.times.push(performance.now() - t0);
    }
  }
}
const pct = (t: number[], p: number) => t.slice().sort((a, b) => a - b)[Math.floor((t.length - 1) * p)];
console.log(`fused A/B, scene ${scene}, ${sets} set(s) per variant, ${FRAMES - WARM} frames each after ${WARM}, ${process.version}`);
console.log('| variant | p10 ms | median ms | p90 ms | p10 ÷ fused | median ÷ fused |');
console.log('|---|---:|---:|---:|---:|---:|');
const base = pct(variants[0].times, 0.5), base10 = pct(variants[0].times, 0.1);
for (const v of variants) {
  console.log(`| ${v.name} | ${pct(v.times, 0.1).toFixed(2)} | ${pct(v.times, 0.5).toFixed(2)} | ${pct(v.times, 0.9).toFixed(2)} | ${(pct(v.times, 0.1) / base10).toFixed(2)} | ${(pct(v.times, 0.5) / base).toFixed(2)} |`);
}
