// Frame-by-frame digests of LodSet over a seeded scene, for proving that an engine change keeps the
// same frames: levels, blend (bits), the changed set, sizes (bits) and stats of every frame, for
// every policy, with and without WebAssembly, the clustered and the per-object path, one thread and
// forced worker threads. Plain JavaScript on the built package, so the same file runs against any
// build (an older commit's dist included):
//
//   npm run build -w lodkit && node packages/lodkit/bench/replay.mjs [lodkit package dir] [--objects N] [--frames F]
//
// It prints one line per (mode, policy) with the digest of all its frames; two builds with the same
// frames print the same lines (diff them). Not timed: the numbers are the frames, not speed.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const flag = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : fallback; };
const dir = resolve(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? join(import.meta.dirname, '..'));
const N = flag('--objects', 1_000_000);
const FRAMES = flag('--frames', 8);
const load = (rel) => import(pathToFileURL(join(dir, 'dist', rel)).href);
const lodkit = await load('index.js');
const { LodSet, Frustum, lookAtRotation } = lodkit;
// Builds with importable policies run every policy by name once they are registered.
if (lodkit.registerPolicies) lodkit.registerPolicies(lodkit.allPolicies);

// The WebAssembly switch moved with the engine's layout; whichever this build has.
const wasmModule = ['batch/wasm/wasmKernels.js', 'batch/wasmKernels.js'].find((p) => existsSync(join(dir, 'dist', p)));
const { setWasmKernels, kernelsReady } = await load(wasmModule);
if (kernelsReady !== undefined) await kernelsReady(); // (builds whose kernels compile asynchronously)
// Builds that load the worker-thread code on demand: awaited before a 2-thread row's frames.
const seam = existsSync(join(dir, 'dist', 'batch', 'engineSeam.js')) ? await load('batch/engineSeam.js') : {};

/** Mulberry32: the scene is the same in every build. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over 32-bit words. */
class Digest {
  h = 0x811c9dc5;
  word(w) { this.h = Math.imul(this.h ^ (w >>> 0), 0x01000193) >>> 0; }
  bytes(a) { for (let i = 0; i < a.length; i++) this.word(a[i]); }
  floats(a) { const u = new Uint32Array(a.buffer, a.byteOffset, a.length); for (let i = 0; i < u.length; i++) this.word(u[i]); }
  number(x) { const f = new Float64Array([x]); this.floats(new Float32Array(f.buffer)); }
  hex() { return this.h.toString(16).padStart(8, '0'); }
}

function buildSet() {
  const set = new LodSet(N);
  const r = rng(20261202);
  const profiles = [
    set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [4000, 1000, 250, 60] }),
    set.addProfile({ metric: 'distance', thresholds: [30, 90, 250], blendThresholds: [35, 100] }),
    set.addProfile({ metric: 'pixels', thresholds: [120, 40, 12, 4], costs: [20000, 5000, 1200, 300, 80] }),
  ];
  // Clumps (forests) and scattered objects, in two addMany batches per profile.
  const per = Math.floor(N / 6);
  for (let b = 0; b < 6; b++) {
    const count = b === 5 ? N - 5 * per : per;
    const s = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) {
      const clump = b & 1;
      const cx = clump ? (Math.floor(r() * 20) - 10) * 100 : 0, cz = clump ? (Math.floor(r() * 20) - 10) * 100 : 0;
      s[i * 4] = cx + (r() - 0.5) * (clump ? 60 : 2000);
      s[i * 4 + 1] = r() * 4;
      s[i * 4 + 2] = cz + (r() - 0.5) * (clump ? 60 : 2000);
      s[i * 4 + 3] = 0.5 + r() * 3;
    }
    if (b === 4) s[7] = Number.NaN; // one invalid object
    set.addMany(s, profiles[b % 3]);
  }
  for (let id = 0; id < N; id += 9973) set.setHidden(id, true);
  for (let id = 5; id < N; id += 7919) set.setForcedLevel(id, 1);
  return set;
}

const POLICIES = [
  ['thresholds', { policy: 'thresholds' }],
  ['thresholds-h', { policy: 'thresholds', hysteresis: 0.1, minFramesBetweenChanges: 2, bias: 1.3 }],
  ['thresholds-exact', { policy: 'thresholds', exactSizes: true, maxLevel: 2 }],
  ['rankQuota', { policy: 'rankQuota', quotas: [40, 400, 4000] }],
  ['budget-binding', { policy: 'budget', budget: 1.2e6 * (N / 1e6) }],
  ['budget-loose', { policy: 'budget', budget: 1e12 }],
  ['budget-infeasible', { policy: 'budget', budget: 10 }],
  ['hybrid', { policy: 'hybrid', budget: 1.5e6 * (N / 1e6), hysteresis: 0.05 }],
  ['hybrid-loose', { policy: 'hybrid', budget: 1e12 }],
];

function replay(set, options, clusters) {
  const d = new Digest();
  let threaded = 0;
  const frustum = Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 3000 });
  const target = [0, 0, 0];
  for (let f = 0; f < FRAMES; f++) {
    frustum.position[0] = -400 + f * 37; frustum.position[1] = 2 + (f % 3); frustum.position[2] = 300 - f * 53;
    target[0] = frustum.position[0] + Math.cos(f * 0.7) * 100; target[1] = 1; target[2] = frustum.position[2] - Math.sin(f * 0.7 + 1) * 100;
    lookAtRotation(frustum.position, target, [0, 1, 0], frustum.rotation);
    frustum.update();
    if (f === 3) set.setSphere(12, 5, 1, -20, 2); // an edit between frames
    const stats = set.update({ frustum, viewportHeight: 1080 }, { ...options, clusters });
    if (set.threadStats?.threaded) threaded++; // (older builds have no threadStats)
    d.bytes(set.levels.subarray(0, set.count));
    d.floats(set.blend.subarray(0, set.count));
    d.floats(set.sizes.subarray(0, set.count));
    const changed = Array.from(set.changed.subarray(0, set.changedCount)).sort((a, b) => a - b);
    d.bytes(changed);
    d.number(stats.totalCost); d.number(stats.minimumCost); d.word(stats.changes); d.word(stats.budgetMet ? 1 : 0);
    d.word(stats.invalid); d.word(stats.hidden); d.bytes(stats.levelCounts);
  }
  return `${d.hex()}${threaded > 0 ? ` (${threaded} of ${FRAMES} frames over worker threads)` : ''}`;
}

const modes = [];
for (const wasm of [true, false]) for (const clusters of [true, false]) for (const threads of [1, 2]) {
  modes.push({ wasm, clusters, threads });
}
for (const m of modes) {
  setWasmKernels(m.wasm);
  for (const [name, options] of POLICIES) {
    if (m.threads === 2 && options.policy !== 'thresholds') continue; // (the other policies run on one thread)
    const set = buildSet();
    if (m.threads === 2) { set.setThreads(2); set.setThreadSchedule?.('threaded'); await seam.threadModeLoaded?.(set); } // (older builds: their own choice)
    const digest = replay(set, options, m.clusters);
    set.dispose();
    console.log(`wasm=${m.wasm ? 'on ' : 'off'} clusters=${m.clusters ? 'on ' : 'off'} threads=${m.threads} ${name.padEnd(18)} ${digest}`);
  }
}
