// Cost of Frustum.set() per camera update: identity rotation (no trig), a real rotation (GfRotation
// axis-angle with correctly rounded acos/sin/cos) and the 'openusd' input mode (GfFrustum's corner
// planes too). One process, interleaved rounds, warm-up, medians. Run after `npm run build`:
//   node bench/frustum-set.mjs
import { Frustum } from '../dist/index.js';

const f = new Frustum();
const inits = {
  identity: { position: [0, 1.5, 0], rotation: [0, 0, 0, 1], near: 0.1, far: 500 },
  rotated: { position: [0, 1.5, 0], rotation: [0.1825742, 0.3651484, 0.5477226, 0.7302967], near: 0.1, far: 500 },
  // A camera that turns every frame: the GfRotation quaternion is recomputed each time.
  turning: { position: [0, 1.5, 0], rotation: [0.1825742, 0.3651484, 0.5477226, 0.7302967], near: 0.1, far: 500 },
  openusdInput: { position: [0, 1.5, 0], rotation: [0.1825742, 0.3651484, 0.5477226, 0.7302967], near: 0.1, far: 500, input: 'openusd' },
};
const N = 200_000;
function run(init) {
  const t0 = process.hrtime.bigint();
  const turning = init === inits.turning, q = init.rotation;
  for (let i = 0; i < N; i++) {
    init.position[2] = i * 1e-3;
    if (turning) { const a = (i & 1023) * 1e-4; q[0] = Math.sin(a); q[3] = Math.cos(a); q[1] = 0; q[2] = 0; }
    f.set(init);
  }
  return Number(process.hrtime.bigint() - t0) / N; // ns per set()
}
const samples = Object.fromEntries(Object.keys(inits).map((k) => [k, []]));
for (let round = 0; round < 15; round++) {
  for (const [k, init] of Object.entries(inits)) { const ns = run(init); if (round >= 3) samples[k].push(ns); }
}
const median = (a) => a.sort((x, y) => x - y)[a.length >> 1];
const base = median(samples.identity);
for (const [k, a] of Object.entries(samples)) console.log(`${k.padEnd(13)} ${median(a).toFixed(0).padStart(6)} ns/set  ×${(median(a) / base).toFixed(2)}`);
