/**
 * Per-frame LOD selection cost for 100k objects in three.js, all variants in ONE process:
 * - `THREE.LOD.update(camera)` on 100k `THREE.LOD`s (three's built-in, origin distance);
 * - `ScreenSizeLOD.update(camera)` on 100k objects (lodkit per-object, bounding-sphere metric);
 * - `LodManager.update(camera, …)` with the same 100k `ScreenSizeLOD`s registered (one batch call,
 *   touching only changed objects), for the thresholds (distance and pixels) and budget policies;
 * - `LodManager.update` with 100k `InstancedMesh` instances (one mesh per level).
 * Seeded LCG positions, a camera dollying 2 m per frame (so levels change every frame), 15 warm-up
 * frames, median of 41 measured frames. Writes bench/RESULTS-three.md.
 *
 * Run: `npm run bench:three`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { BoxGeometry, InstancedMesh, LOD, Matrix4, MeshBasicMaterial, Object3D, PerspectiveCamera, Sphere, Vector3 } from 'three';
import { LodManager } from '../src/adapters/three/lodManager.js';
import { ScreenSizeLOD } from '../src/adapters/three/screenSizeLOD.js';
import type { LodUpdateOptions } from '../src/batch/lodSet.js';

const N = Number(process.env.LODKIT_BENCH_N ?? 100_000);
const WARMUP = 15;
const FRAMES = 41;
const AREA = 2000;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

function positions(seed: number): Float64Array {
  const r = lcg(seed), out = new Float64Array(N * 3);
  for (let i = 0; i < N; i++) { out[i * 3] = (r() - 0.5) * AREA; out[i * 3 + 1] = r() * 4; out[i * 3 + 2] = (r() - 0.5) * AREA; }
  return out;
}

function cameraAt(camera: PerspectiveCamera, frame: number): void {
  camera.position.set(-600 + frame * 2, 2, 0);
  camera.lookAt(camera.position.x + 100, 2, 30);
  camera.updateMatrixWorld(true);
}

function median(values: number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

function measure(name: string, frame: (camera: PerspectiveCamera) => void): { name: string; ms: number; nsPerObject: number } {
  const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 5000);
  const times: number[] = [];
  for (let f = 0; f < WARMUP + FRAMES; f++) {
    cameraAt(camera, f);
    const t0 = performance.now();
    frame(camera);
    const dt = performance.now() - t0;
    if (f >= WARMUP) times.push(dt);
  }
  const ms = median(times);
  return { name, ms, nsPerObject: (ms * 1e6) / N };
}

function threeLods(p: Float64Array): LOD[] {
  const lods: LOD[] = [];
  for (let i = 0; i < N; i++) {
    const lod = new LOD();
    lod.addLevel(new Object3D(), 0).addLevel(new Object3D(), 50).addLevel(new Object3D(), 200);
    lod.position.set(p[i * 3], p[i * 3 + 1], p[i * 3 + 2]);
    lod.updateMatrixWorld(true);
    lods.push(lod);
  }
  return lods;
}

function screenSizeLods(p: Float64Array): ScreenSizeLOD[] {
  const lods: ScreenSizeLOD[] = [];
  const sphere = new Sphere(new Vector3(), 1);
  for (let i = 0; i < N; i++) {
    const lod = new ScreenSizeLOD({ metric: 'distance' });
    lod.addLevel(new Object3D(), 0).addLevel(new Object3D(), 50).addLevel(new Object3D(), 200);
    lod.setBoundingSphere(sphere);
    lod.position.set(p[i * 3], p[i * 3 + 1], p[i * 3 + 2]);
    lod.updateMatrixWorld(true);
    lods.push(lod);
  }
  return lods;
}

it(`LOD selection per frame, ${N} objects`, () => {
  const p = positions(20260);
  const rows: { name: string; ms: number; nsPerObject: number; changes?: number }[] = [];

  let lods: LOD[] | null = threeLods(p);
  const baseline = measure('THREE.LOD.update × N (distance from origin)', (camera) => {
    const l = lods!;
    for (let i = 0; i < l.length; i++) l[i].update(camera);
  });
  rows.push(baseline);
  lods = null;

  const ss = screenSizeLods(p);
  rows.push(measure('ScreenSizeLOD.update × N (distance to bounding sphere)', (camera) => {
    for (let i = 0; i < ss.length; i++) ss[i].update(camera);
  }));

  const manager = new LodManager({ capacity: N, viewportHeight: 1080 });
  const costs = { costs: [12_000, 2_500, 300] };
  for (const lod of ss) manager.add(lod, costs);
  const variants: [string, LodUpdateOptions][] = [
    ['LodManager.update, thresholds (distance 50/200 m)', { policy: 'thresholds' }],
    ['LodManager.update, thresholds + hysteresis 0.1', { policy: 'thresholds', hysteresis: 0.1 }],
    ['LodManager.update, budget 20M triangles', { policy: 'budget', budget: 20_000_000 }],
  ];
  for (const [name, options] of variants) {
    let changes = 0;
    const r = measure(name, (camera) => { changes = manager.update(camera, options).changes; });
    rows.push({ ...r, changes });
  }

  const pixels = new LodManager({ capacity: N, viewportHeight: 1080 });
  for (const lod of ss) pixels.add(lod, { ...costs, metric: 'pixels', thresholds: [80, 20] });
  let pxChanges = 0;
  rows.push({ ...measure('LodManager.update, thresholds (pixels 80/20)', (camera) => { pxChanges = pixels.update(camera, { policy: 'thresholds' }).changes; }), changes: pxChanges });

  const material = new MeshBasicMaterial();
  const meshes = [new BoxGeometry(1, 1, 1, 8, 8, 8), new BoxGeometry(1, 1, 1, 2, 2, 2), new BoxGeometry()].map((g) => new InstancedMesh(g, material, N));
  const matrices = new Float32Array(N * 16);
  const m = new Matrix4();
  for (let i = 0; i < N; i++) m.makeTranslation(p[i * 3], p[i * 3 + 1], p[i * 3 + 2]).toArray(matrices, i * 16);
  const instanced = new LodManager({ capacity: N, viewportHeight: 1080 });
  instanced.addInstanced(meshes, matrices, { metric: 'distance', thresholds: [50, 200] });
  let inChanges = 0;
  rows.push({ ...measure('LodManager.update, InstancedMesh levels (distance 50/200 m)', (camera) => { inChanges = instanced.update(camera, { policy: 'thresholds' }).changes; }), changes: inChanges });

  const lines = [
    '# three.js LOD selection per frame (bench/three-manager.bench.ts)',
    '',
    `${N.toLocaleString('en-US')} objects with 3 levels, seeded LCG positions in a ${AREA} m square, camera dollying 2 m per frame;`,
    `median of ${FRAMES} frames after ${WARMUP} warm-up frames, all variants in one Node ${process.version} process`,
    `(${process.platform}/${process.arch}). Ratio = THREE.LOD.update time ÷ variant time (higher is faster).`,
    '',
    '| variant | ms / frame | ns / object | changes / frame | ratio vs THREE.LOD |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.ms.toFixed(2)} | ${r.nsPerObject.toFixed(1)} | ${r.changes ?? '—'} | ${(baseline.ms / r.ms).toFixed(2)}× |`),
    '',
    'Notes: `THREE.LOD.update` measures the distance to the object origin only; the lodkit variants measure',
    'the bounding sphere (and cull against the frustum in the manager). The manager rows include building',
    'the frustum from the camera, the batch engine and applying visibility to the changed objects only.',
    '`ScreenSizeLOD.update` per object pays for a camera-change check, the core sphere metric and the',
    'threshold rule on every call; it is the drop-in path, `LodManager` is the path for large scenes.',
    'Absolute times depend on machine load (compare the ratios, which come from one process).',
    '',
  ];
  const text = lines.join('\n');
  writeFileSync(join(import.meta.dirname, 'RESULTS-three.md'), text);
  console.log(text);
});
