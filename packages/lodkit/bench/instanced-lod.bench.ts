/**
 * `InstancedLOD` vs `@three.ez/instanced-mesh`'s `InstancedMesh2` at 1M instances, in ONE process:
 * the same seeded instances (a 2 km square), the same 3 level geometries with distance levels at
 * 50 / 200 m, the same camera path (dolly 2 m and yaw 0.2° per frame), per-instance frustum culling.
 * - lodkit: `InstancedLOD.update(camera)` — LodSet selection + moving the changed instances between
 *   the compacted level buffers (and the update ranges).
 * - peer: `InstancedMesh2.performFrustumCulling(camera)` — what its `onBeforeRender` runs each frame
 *   (linear culling + distance LOD into its per-level index lists), with a stub renderer (it needs
 *   a WebGL context only to create its index buffer).
 * Also: upload bytes per frame (lodkit: bytes in its update ranges, cleared each frame as a renderer
 * does, and the upload calls three would make of them; peer: its per-level index
 * lists, re-marked whole every frame), memory per instance for both (heap + array buffers after GC,
 * geometry excluded), and the pixel/budget policies for context. 15 warm-up frames, median of 41,
 * both variants interleaved frame by frame. Writes bench/RESULTS-instanced.md.
 *
 * Run: `npm run bench:instanced`
 * (`LODKIT_BENCH_N` to change the instance count).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { it } from 'vitest';
import { BoxGeometry, Matrix4, MeshBasicMaterial, PerspectiveCamera } from 'three';
import { InstancedMesh2 } from '@three.ez/instanced-mesh';
import { InstancedLOD } from '../src/adapters/three/instancedLOD.js';
import { CameraFrustumCache } from '../src/adapters/three/frustumFromCamera.js';
import { LodSet } from '../src/batch/lodSet.js';
import { allPolicies } from '../src/batch/policyModules.js';
import { registerPolicies } from '../src/batch/policyRegistry.js';

registerPolicies(allPolicies); // the rows name every policy by its string

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const N = Number(process.env.LODKIT_BENCH_N ?? 1_000_000);
const WARMUP = 15, FRAMES = 41, AREA = 2000;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

function cameraAt(camera: PerspectiveCamera, f: number): void {
  const yaw = 0.3 + f * 0.0035;
  camera.position.set(-600 + f * 2, 2, 0);
  camera.lookAt(camera.position.x + Math.cos(yaw) * 100, 2, Math.sin(yaw) * 100);
  camera.updateMatrixWorld(true);
}

const median = (v: number[]): number => { const s = v.slice().sort((a, b) => a - b); return s[s.length >> 1]; };

/**
 * What the renderer does with a frame's update ranges (headless here): uploads them — one call per
 * range after merging touching ones, three's WebGLAttributes rule (src/renderers/webgl/
 * WebGLAttributes.js, `updateBuffer`), counted for the instance matrices — and clears them.
 */
function upload(lod: InstancedLOD): number {
  let n = 0;
  for (const mesh of [...lod.levelMeshes, lod.shadowMesh]) {
    const r = mesh.instanceMatrix.updateRanges.map((x) => ({ ...x })).sort((a, b) => a.start - b.start);
    let m = r.length === 0 ? -1 : 0;
    for (let i = 1; i < r.length; i++) {
      if (r[i].start <= r[m].start + r[m].count + 1) r[m].count = Math.max(r[m].count, r[i].start + r[i].count - r[m].start);
      else r[++m] = r[i];
    }
    n += m + 1;
    mesh.instanceMatrix.clearUpdateRanges(); mesh.instanceColor?.clearUpdateRanges();
  }
  return n;
}

function memory(): number {
  gc(); gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Just enough of a WebGLRenderer for InstancedMesh2's constructor (it creates its index buffer with it). */
function stubRenderer(): unknown {
  const gl = { UNSIGNED_INT: 5125, ARRAY_BUFFER: 34962, DYNAMIC_DRAW: 35048, createBuffer: () => ({}), bindBuffer: () => undefined, bufferData: () => undefined, bufferSubData: () => undefined };
  return { getContext: () => gl, info: { render: { frame: 0 } } };
}

it(`InstancedLOD vs InstancedMesh2, ${N} instances`, () => {
  const r = lcg(20261);
  const pos = new Float32Array(N * 3);
  for (let i = 0; i < N; i++) { pos[i * 3] = (r() - 0.5) * AREA; pos[i * 3 + 1] = r() * 4; pos[i * 3 + 2] = (r() - 0.5) * AREA; }
  const geometries = [new BoxGeometry(1, 1, 1, 8, 8, 8), new BoxGeometry(1, 1, 1, 2, 2, 2), new BoxGeometry()];
  geometries.forEach((g) => g.computeBoundingSphere());
  const material = new MeshBasicMaterial();

  // --- lodkit -------------------------------------------------------------------------------------
  let m0 = memory();
  const matrices = new Float32Array(N * 16);
  const m = new Matrix4();
  for (let i = 0; i < N; i++) m.makeTranslation(pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2]).toArray(matrices, i * 16);
  const lod = new InstancedLOD({ levels: geometries.map((geometry) => ({ geometry, material })), metric: 'distance', thresholds: [50, 200], capacity: N });
  lod.addInstances(matrices);
  const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 5000);
  // Level buffers grow to their working size during the first frames: measure after them.
  for (let f = 0; f < WARMUP; f++) { cameraAt(camera, f); lod.update(camera); }
  const lodBuild = memory() - m0;
  // The input array is the caller's; the object holds its own copy.
  const lodMem = lodBuild - matrices.byteLength;

  // --- peer ---------------------------------------------------------------------------------------
  m0 = memory();
  const peer = new InstancedMesh2(geometries[0], material, { capacity: N, renderer: stubRenderer() as never });
  peer.addInstances(N, (o, i) => { o.position.set(pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2]); });
  peer.addLOD(geometries[1], material, 50);
  peer.addLOD(geometries[2], material, 200);
  peer.updateMatrixWorld(true);
  for (let f = 0; f < WARMUP; f++) { cameraAt(camera, f); peer.performFrustumCulling(camera); }
  const peerMem = memory() - m0;

  const pixels = new InstancedLOD({ levels: geometries.map((geometry) => ({ geometry, material })), metric: 'pixels', thresholds: [60, 15], viewportHeight: 1080, capacity: N });
  pixels.addInstances(matrices);
  const budget = new InstancedLOD({ levels: geometries.map((geometry) => ({ geometry, material })), metric: 'pixels', thresholds: [60, 15], viewportHeight: 1080, capacity: N });
  budget.addInstances(matrices);

  // The batch engine alone on the same spheres and profile: the part of InstancedLOD.update that is LodSet.
  const bare = new LodSet(N);
  const profile = bare.addProfile({ metric: 'distance', thresholds: [50, 200], costs: [768, 48, 12] });
  bare.addMany(new Float32Array(lod.set.spheres.subarray(0, N * 4)), profile);
  const bareCache = new CameraFrustumCache();
  const bareView = { frustum: bareCache.frusta[0] };

  const levels = peer.LODinfo!.render.levels;
  const names = ['InstancedLOD.update (distance 50/200 m)', 'InstancedMesh2.performFrustumCulling (distance 50/200 m)',
    'InstancedLOD.update (pixels 60/15, context)', 'InstancedLOD.update (budget 20M triangles, context)',
    'of which: LodSet.update alone (same spheres, distance 50/200 m)'];
  const run: (() => void)[] = [
    () => { lod.update(camera); },
    () => { peer.performFrustumCulling(camera); },
    () => { pixels.update(camera); },
    () => { budget.update(camera, { policy: 'budget', budget: 20_000_000 }); },
    () => { bareCache.update(camera); bareView.frustum = bareCache.frusta[0]; bare.update(bareView, { policy: 'thresholds' }); },
  ];
  const times = run.map(() => [] as number[]);
  const uploads: number[] = [], calls: number[] = [], changes: number[] = [], peerUploads: number[] = [], drawn: number[] = [], peerDrawn: number[] = [];
  for (let f = 0; f < WARMUP + FRAMES; f++) {
    cameraAt(camera, f);
    for (let v = 0; v < run.length; v++) {
      const before = v === 0 ? lod.uploadStats.bytes : 0;
      const t0 = performance.now();
      run[v]();
      const dt = performance.now() - t0;
      const uploadCalls = v === 0 ? upload(lod) : v === 2 ? upload(pixels) : v === 3 ? upload(budget) : 0; // (the renderer's part)
      if (f < WARMUP) continue;
      times[v].push(dt);
      if (v === 0) {
        uploads.push(lod.uploadStats.bytes - before);
        calls.push(uploadCalls);
        changes.push(lod.set.changedCount);
        drawn.push(lod.levelMeshes.reduce((a, x) => a + x.count, 0));
      } else if (v === 1) {
        const c = levels.reduce((a, l) => a + l.object.count, 0);
        peerDrawn.push(c); peerUploads.push(c * 4);
      }
    }
  }
  const ms = times.map(median);
  const ratio = ms[0] / ms[1];
  const perChange = uploads.map((b, i) => (changes[i] > 0 ? b / changes[i] : 0));
  const worstOver = Math.max(...uploads.map((b, i) => b - 100 * changes[i]));
  const lines = [
    '# InstancedLOD vs InstancedMesh2 (bench/instanced-lod.bench.ts)',
    '',
    `${N.toLocaleString('en-US')} instances in a ${AREA} m square, 3 box levels (768 / 48 / 12 triangles), distance levels 50 / 200 m,`,
    `camera dollying 2 m and turning 0.2° per frame; median of ${FRAMES} frames after ${WARMUP} warm-up frames, variants`,
    `interleaved frame by frame in one Node ${process.version} process (${process.platform}/${process.arch}), shared 2-core machine.`,
    '',
    '| variant | ms / frame (median) |',
    '|---|---:|',
    ...names.map((n, i) => `| ${n} | ${ms[i].toFixed(2)} |`),
    '',
    `**InstancedLOD ÷ InstancedMesh2 time: ${ratio.toFixed(2)}** (target ≤ 0.20).`,
    `Drawn instances per frame (median): InstancedLOD ${median(drawn).toLocaleString('en-US')}, InstancedMesh2 ${median(peerDrawn).toLocaleString('en-US')}`,
    '(lodkit tests spheres against the frustum, the peer its own sphere test; the counts are close, not equal).',
    '',
    '| upload per frame (median) | bytes |',
    '|---|---:|',
    `| InstancedLOD: update ranges handed to three (matrix slots written, small gaps merged) | ${median(uploads).toLocaleString('en-US')} |`,
    `| InstancedLOD: upload calls (\`bufferSubData\`, after three's own merge) | ${median(calls).toLocaleString('en-US')} |`,
    `| InstancedLOD: instances changed | ${median(changes).toLocaleString('en-US')} |`,
    `| InstancedLOD: bytes per changed instance | ${median(perChange).toFixed(1)} (worst frame: ${Math.max(...perChange).toFixed(1)}) |`,
    `| InstancedLOD: worst frame of bytes − 100 B × changes | ${worstOver.toLocaleString('en-US')} |`,
    `| the same ranges as index lists (indirect instancing, 4 B per slot) | ${(median(uploads) / 16).toLocaleString('en-US')} |`,
    `| InstancedMesh2: per-level index lists, rewritten whole each frame | ${median(peerUploads).toLocaleString('en-US')} |`,
    '',
    '| memory per instance (heap + array buffers after GC, geometry excluded) | bytes |',
    '|---|---:|',
    `| InstancedLOD (instance pools, slot maps, LodSet) | ${(lodMem / N).toFixed(1)} |`,
    `| InstancedLOD, its own arrays only (\`byteLength\`, LodSet excluded) | ${(lod.byteLength / N).toFixed(1)} |`,
    `| InstancedMesh2 (matrix texture, index lists, BVH off) | ${(peerMem / N).toFixed(1)} |`,
    '',
  ];
  const text = lines.join('\n');
  writeFileSync(join(import.meta.dirname, 'RESULTS-instanced.md'), text);
  console.log(text);
});
