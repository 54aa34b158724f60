/**
 * Camera jumps in Node: the startup scene's 100k instances (bench/startupScene.ts), the camera
 * jumping 1.2 km between two spots every frame (≈ 67k level changes a frame), 100 frames after the
 * first update; after each `InstancedLOD.update` the level meshes' update ranges are cleared, as a
 * renderer's upload does. Prints the median and slowest frame, the frames over 25 ms, and the
 * ranges handed to three a frame. The same page in Chromium: bench/jump.browser.bench.ts.
 *
 *   npm run bench:jump -w lodkit [-- --runs 3]
 */
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { startupScene } from './startupScene.js';
import { InstancedLOD } from '../src/adapters/three/index.js';
import { kernelsReady } from '../src/batch/wasm/wasmKernels.js';

await kernelsReady();
const at = process.argv.indexOf('--runs');
const RUNS = at >= 0 ? Number(process.argv[at + 1]) : 3, FRAMES = 100, SKIP = 6;

const median = (v: number[]): number => v.slice().sort((a, b) => a - b)[v.length >> 1];
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' / ');
console.log(`camera jumps over 100,000 instances, ${RUNS} runs of ${FRAMES} frames (the first ${SKIP} not counted)`);
console.log(`_Machine: ${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores, Node ${process.version}; load average ${load()} at start._\n`);
console.log('| run | median ms | slowest ms | frames over 25 ms | ranges a frame (median) |\n|---:|---:|---:|---:|---:|');
for (let r = 0; r < RUNS; r++) {
  const { matrices, camera, options } = startupScene(100_000);
  const lod = new InstancedLOD(options);
  lod.addInstances(matrices);
  lod.update(camera);
  const a = camera.clone(), b = camera.clone();
  b.position.set(600, 2, 0); b.lookAt(500, 2, -30); b.updateMatrixWorld(true);
  const times: number[] = [], ranges: number[] = [];
  for (let f = 0; f < FRAMES; f++) {
    const before = lod.uploadStats.ranges, t0 = performance.now();
    lod.update(f % 2 === 0 ? b : a);
    const dt = performance.now() - t0;
    for (const mesh of [...lod.levelMeshes, lod.shadowMesh]) { mesh.instanceMatrix.clearUpdateRanges(); mesh.instanceColor?.clearUpdateRanges(); }
    if (f >= SKIP) { times.push(dt); ranges.push(lod.uploadStats.ranges - before); }
  }
  console.log(`| ${r + 1} | ${median(times).toFixed(2)} | ${Math.max(...times).toFixed(1)} | ${times.filter((t) => t > 25).length} | ${median(ranges)} |`);
  lod.dispose();
}
console.log(`\n_load average ${load()} at end._`);
