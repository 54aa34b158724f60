/**
 * lodkit's thresholds frame against three.js `LOD.update` with nothing else in the process, and
 * what runs between two frames does to lodkit's: the tree field of run.ts (1M trees, the walking
 * camera), one `LodSet`, 8 warm-up rounds, medians of 41.
 *
 *   npx tsc -p tsconfig.bench.json && node .bench-build/bench/threeAb.js [--between MODE]
 *
 * MODE `three` (default): 100k `THREE.LOD`s on the first 100k trees, updated after every lodkit
 * frame on the same pose (the A/B: both rows timed, ratio per object). Other modes time lodkit
 * alone with, before every frame: `none` (frames back to back), `sleep` (the thread waits 27 ms,
 * like a frame loop waiting for the next vsync), `spin` (27 ms of arithmetic), `sweep` (reads
 * 256 MiB: no cache holds the set's data), `garbage` (allocates 300k small objects).
 *
 * Why next to run.ts: there some thirty other rows run between two frames of a row, and lodkit's
 * trees frame measured ≈ 1.3 × its back-to-back time (bench/RESULTS.md, "Between frames").
 */
import { LodSet, type LodUpdateOptions } from '../src/batch/lodSet.js';
import { BENCH_PROFILE, treeField, walkPoses } from './scenes.js';
import { threePeer, type ThreePeer } from './threePeer.js';
import { kernelsReady } from '../src/batch/wasm/wasmKernels.js';

await kernelsReady(); // (compiled asynchronously: until then a set's frames would time the JavaScript kernels)

const at = process.argv.indexOf('--between');
const mode = at >= 0 ? process.argv[at + 1] : 'three';
if (!['three', 'none', 'sleep', 'spin', 'sweep', 'garbage'].includes(mode)) throw new Error(`--between: unknown mode ${mode}`);
const WARM = 8, SAMPLES = 41, N = 1_000_000, PEER = 100_000;
const data = treeField(1000, 2000, 5);
const views = walkPoses(WARM + SAMPLES);
const set = new LodSet(N);
set.addMany(data, set.addProfile(BENCH_PROFILE));
const peer: ThreePeer | null = mode === 'three' ? threePeer(data, PEER, 4) : null;
const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
const big = new Float64Array(mode === 'sweep' ? 32 << 20 : 0), sleeper = new Int32Array(new SharedArrayBuffer(4));
let sink = 0;
function between(): void {
  if (mode === 'sleep') Atomics.wait(sleeper, 0, 0, 27);
  else if (mode === 'spin') { const end = performance.now() + 27; let x = 1; while (performance.now() < end) x = (x * 1.000001) % 7; sink += x; }
  else if (mode === 'sweep') { for (let i = 0; i < big.length; i += 8) sink += big[i]; }
  else if (mode === 'garbage') { const a: { x: number }[] = []; for (let i = 0; i < 300_000; i++) a.push({ x: i }); sink += a.length; }
}
const lod: number[] = [], three: number[] = [];
for (let k = 0; k < WARM + SAMPLES; k++) {
  between();
  let t = performance.now();
  set.update(views[k], options);
  const a = performance.now() - t;
  let b = 0;
  if (peer !== null) { t = performance.now(); peer.update(views[k]); b = performance.now() - t; }
  if (k >= WARM) { lod.push(a); three.push(b); }
}
const median = (x: number[]) => x.slice().sort((p, q) => p - q)[x.length >> 1];
const ml = median(lod), mt = median(three);
console.log(`tree field, between frames: ${mode}, ${process.version}, median of ${SAMPLES} after ${WARM}${sink === -1 ? '' : ''}`);
console.log(`| row | median ms | ns / object |\n|---|---:|---:|`);
console.log(`| lodkit thresholds, 1M | ${ml.toFixed(2)} | ${(ml * 1e6 / N).toFixed(2)} |`);
if (peer !== null) {
  console.log(`| three.js LOD.update, 100k | ${mt.toFixed(2)} | ${(mt * 1e6 / PEER).toFixed(1)} |`);
  console.log(`per object: three.js ÷ lodkit = ${((mt / PEER) / (ml / N)).toFixed(1)} ×`);
}
