/**
 * Startup of 100k instances in ONE fresh Node process (issue 27, "Must show"): `new InstancedLOD`,
 * `addInstances` of 100k matrices, the first `update`, each timed on its own. bench/coldStart.ts
 * runs this file in several fresh processes and prints the range; run alone it prints one JSON line.
 *
 *   node .bench-build/bench/startup.js [--instances 100000] [--capacity]   # --capacity: `capacity: instances`
 *
 * The scene is the `InstancedLOD` doc example's: three box levels, metric 'pixels', thresholds
 * [120, 30], the thresholds policy (`update(camera)`), default capacity (the set grows in
 * `addInstances`), a 1080-px viewport (no renderer in Node); 100k seeded instances in a 2 km square,
 * a ground camera. What the app builds anyway (geometries, matrices, camera) is not timed.
 * lodkit's modules are imported dynamically so that the import (module evaluation, from the
 * compiled bench build; no bundler) is measured apart (`import ms`).
 * Also, for context: a SECOND InstancedLOD in the same process (what is one-time warm-up and what is
 * per instance), and the engine's own warm-up inside the first `new LodSet` (`warm-up ms`).
 */
import { performance } from 'node:perf_hooks';
import { startupScene } from './startupScene.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--instances');
const N = at >= 0 ? Number(argv[at + 1]) : 100_000;
const CAPACITY = argv.includes('--capacity');
const { matrices, camera, options } = startupScene(N, CAPACITY); // what the app has before lodkit runs (not timed)

// --- lodkit ---------------------------------------------------------------------------------------
const i0 = performance.now();
const { InstancedLOD } = await import('../src/adapters/three/index.js');
const importMs = performance.now() - i0;

/** CPU time of the process (user + system, ms): on a loaded machine it says what the wall time lost to other processes. */
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

function phases(): { construct: number; add: number; update: number; cpu: [number, number, number]; visible: number } {
  const c0 = cpuMs(), t0 = performance.now();
  const lod = new InstancedLOD(options);
  const c1 = cpuMs(), t1 = performance.now();
  lod.addInstances(matrices);
  const c2 = cpuMs(), t2 = performance.now();
  const stats = lod.update(camera);
  const c3 = cpuMs(), t3 = performance.now();
  return { construct: t1 - t0, add: t2 - t1, update: t3 - t2, cpu: [c1 - c0, c2 - c1, c3 - c2], visible: N - stats.hidden };
}

// The engine's one-time warm-up (inside the first `new LodSet`), if the module still reports it:
// loaded before the phases and read right after them, before the event loop turns (when the
// WebAssembly kernels settle later, the warm-up runs once more: warmUp.ts; not counted here).
const warmUpPath = '../src/batch/warmUp.js';
const warmUpModule = await import(warmUpPath).catch(() => null) as { warmUpMs?: () => number } | null;
const first = phases();
const second = phases();
const warmUp = warmUpModule?.warmUpMs ? warmUpModule.warmUpMs() : null;
process.stdout.write(JSON.stringify({ instances: N, importMs, first, second, warmUp }) + '\n');
