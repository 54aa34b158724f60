/**
 * Per-frame LOD cost in Babylon.js (`NullEngine`, no GPU), every row in ONE process, interleaved
 * frame by frame so that load from other processes hits all rows alike:
 * - 20,000 meshes, 3 levels (distance 50 / 200 m), the same `Mesh` objects for every row:
 *   (1) Babylon `mesh.getLOD(camera)` × 20k — Babylon's built-in LOD selection (levels added with
 *   `addLODLevel`): eye-to-bounding-sphere distance, no culling, switches nothing (the renderer
 *   draws the returned mesh); (2) the same plus `isInFrustum(planes)` per mesh (the culling test
 *   Babylon's active-mesh pass runs before `getLOD`; planes built per frame); (3)
 *   `BabylonLodManager.update()` (distance 50 / 200 m): frustum from the camera, `LodSet`
 *   thresholds with culling, `setEnabled` on the changed meshes only; (4) the same with the pixels
 *   metric (80 / 20 px at 1080 px).
 * - 100,000 thin instances, 3 level meshes: (5) `BabylonThinInstanceLod` via
 *   `BabylonLodManager.update()` (distance 50 / 200 m, culling, changed instances moved between the
 *   level buffers, partial uploads); (6) context: a naive per-frame rebuild (distance per instance,
 *   all matrices copied into the level buffers, `thinInstanceSetBuffer` per level; no culling).
 * Seeded LCG positions in a 2 km square, a camera dollying 2 m and turning 0.2° per frame (levels
 * change every frame), 15 warm-up frames, median and range (min–max) of 41 measured frames.
 *
 * Run: `npm run bench:babylon` (`LODKIT_BENCH_N` / `LODKIT_BENCH_THIN` change the counts).
 */
import { it } from 'vitest';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Frustum as BabylonFrustum } from '@babylonjs/core/Maths/math.frustum.js';
import { Plane } from '@babylonjs/core/Maths/math.plane.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { BoundingInfo } from '@babylonjs/core/Culling/boundingInfo.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { BabylonLodManager, BabylonThinInstanceLod } from '../src/adapters/babylon/index.js';

const N = Number(process.env.LODKIT_BENCH_N ?? 20_000);
const THIN = Number(process.env.LODKIT_BENCH_THIN ?? 100_000);
const WARMUP = 15, FRAMES = 41, AREA = 2000;
const DISTANCES = [50, 200];

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

const thousands = (n: number): string => `${n / 1000}k`;
const sorted = (v: number[]): number[] => v.slice().sort((a, b) => a - b);

interface Row { name: string; objects: number; frame: () => number | void }
interface Result { name: string; objects: number; ms: number; min: number; max: number; changes: number | null }

it(`Babylon LOD per frame: ${N} meshes, ${THIN} thin instances`, () => {
  Logger.LogLevels = Logger.NoneLogLevel;
  const engine = new NullEngine({ renderWidth: 1920, renderHeight: 1080, textureSize: 256, deterministicLockstep: false, lockstepMaxSteps: 1 });
  const scene = new Scene(engine);
  const camera = new FreeCamera('camera', new Vector3(-600, 2, 0), scene);
  camera.minZ = 0.1; camera.maxZ = 5000; camera.fov = 0.8;
  scene.activeCamera = camera;
  const poseAt = (f: number): void => {
    const yaw = 0.3 + f * 0.0035;
    camera.position.set(-600 + f * 2, 2, 0);
    camera.setTarget(new Vector3(camera.position.x + Math.cos(yaw) * 100, 2, Math.sin(yaw) * 100));
    camera.getViewMatrix(true); camera.getProjectionMatrix(true);
  };

  // --- 20k meshes: level 0 carries Babylon's LOD levels and is lodkit's level 0 ------------------
  const r = lcg(20262);
  const box = (): BoundingInfo => new BoundingInfo(new Vector3(-1, -1, -1), new Vector3(1, 1, 1));
  const meshes: Mesh[][] = [];
  for (let i = 0; i < N; i++) {
    const x = (r() - 0.5) * AREA, y = r() * 4, z = (r() - 0.5) * AREA;
    const levels = [0, 1, 2].map((l) => {
      const m = new Mesh(`m${i}/${l}`, scene);
      m.setBoundingInfo(box());
      m.position.set(x, y, z);
      m.computeWorldMatrix(true);
      return m;
    });
    levels[0].addLODLevel(DISTANCES[0], levels[1]).addLODLevel(DISTANCES[1], levels[2]);
    meshes.push(levels);
  }
  const costs = [12_000, 2_500, 300];
  const managerFor = (): BabylonLodManager =>
    new BabylonLodManager(scene, { capacity: N, autoUpdate: false, cameras: [camera], viewportHeight: 1080, update: { policy: 'thresholds' } });
  const distance = managerFor(), pixels = managerFor();
  for (const levels of meshes) {
    const p = levels[0].position, sphere = { center: [p.x, p.y, p.z], radius: Math.sqrt(3) };
    distance.add(levels, { metric: 'distance', thresholds: DISTANCES, costs, sphere });
  }
  // The pixels manager switches its own copies of the level nodes (two managers must not share nodes).
  for (const levels of meshes) {
    const p = levels[0].position, sphere = { center: [p.x, p.y, p.z], radius: Math.sqrt(3) };
    const own = [0, 1, 2].map((l) => { const m = new Mesh(`p${levels[0].name}/${l}`, scene); m.position.copyFrom(p); return m; });
    pixels.add(own, { metric: 'pixels', thresholds: [80, 20], costs, sphere });
  }
  const planes = [0, 1, 2, 3, 4, 5].map(() => new Plane(0, 0, 0, 0));

  // --- 100k thin instances -----------------------------------------------------------------------
  const levelMeshes = (tag: string): Mesh[] => [16, 6, 2].map((segments, l) => CreateSphere(`${tag}${l}`, { diameter: 2, segments }, scene));
  const thinManager = new BabylonLodManager(scene, { capacity: THIN, autoUpdate: false, cameras: [camera] });
  const thin = new BabylonThinInstanceLod(thinManager, levelMeshes('lodkit'), { metric: 'distance', thresholds: DISTANCES, capacity: THIN });
  const naiveMeshes = levelMeshes('naive');
  const naiveBuffers = naiveMeshes.map(() => new Float32Array(THIN * 16));
  const tr = lcg(20263);
  const pos = new Float64Array(THIN * 3);
  const matrix = new Float32Array(16);
  for (let i = 0; i < THIN; i++) {
    const x = (tr() - 0.5) * AREA, y = tr() * 4, z = (tr() - 0.5) * AREA;
    pos[i * 3] = x; pos[i * 3 + 1] = y; pos[i * 3 + 2] = z;
    matrix.fill(0); matrix[0] = matrix[5] = matrix[10] = matrix[15] = 1; matrix[12] = x; matrix[13] = y; matrix[14] = z;
    thin.add(matrix);
  }
  const d0sq = DISTANCES[0] ** 2, d1sq = DISTANCES[1] ** 2;
  const naive = (): number => {
    const e = camera.globalPosition, counts = [0, 0, 0];
    for (let i = 0; i < THIN; i++) {
      const dx = pos[i * 3] - e.x, dy = pos[i * 3 + 1] - e.y, dz = pos[i * 3 + 2] - e.z, d2 = dx * dx + dy * dy + dz * dz;
      const l = d2 < d0sq ? 0 : d2 < d1sq ? 1 : 2, b = naiveBuffers[l], o = counts[l]++ * 16;
      b.fill(0, o, o + 16); b[o] = b[o + 5] = b[o + 10] = b[o + 15] = 1; b[o + 12] = pos[i * 3]; b[o + 13] = pos[i * 3 + 1]; b[o + 14] = pos[i * 3 + 2];
    }
    for (let l = 0; l < 3; l++) naiveMeshes[l].thinInstanceSetBuffer('matrix', naiveBuffers[l].subarray(0, counts[l] * 16), 16, false);
    return THIN;
  };

  let sink = 0, uploaded = 0;
  const rows: Row[] = [
    { name: `(1) Babylon getLOD × ${thousands(N)} (distance 50/200 m, no culling, no switch)`, objects: N, frame: () => {
      for (let i = 0; i < N; i++) if (meshes[i][0].getLOD(camera) !== null) sink++;
    } },
    { name: `(2) Babylon isInFrustum + getLOD × ${thousands(N)}`, objects: N, frame: () => {
      BabylonFrustum.GetPlanesToRef(camera.getTransformationMatrix(), planes);
      for (let i = 0; i < N; i++) { const m = meshes[i][0]; if (m.isInFrustum(planes) && m.getLOD(camera) !== null) sink++; }
    } },
    { name: `(3) BabylonLodManager.update, ${thousands(N)} meshes (distance 50/200 m)`, objects: N, frame: () => { distance.update(); return distance.touched; } },
    { name: `(4) BabylonLodManager.update, ${thousands(N)} meshes (pixels 80/20 px)`, objects: N, frame: () => { pixels.update(); return pixels.touched; } },
    { name: `(5) BabylonThinInstanceLod, ${thousands(THIN)} thin instances (distance 50/200 m)`, objects: THIN, frame: () => { thinManager.update(); uploaded += thin.uploadedSlots; return thinManager.touched; } },
    { name: `(6) naive thin-instance rebuild, ${thousands(THIN)} (distance, no culling)`, objects: THIN, frame: naive },
  ];

  const times = rows.map(() => [] as number[]);
  const changes = rows.map(() => 0);
  for (let f = 0; f < WARMUP + FRAMES; f++) {
    poseAt(f);
    if (f === WARMUP) uploaded = 0;
    for (let k = 0; k < rows.length; k++) {
      const t0 = performance.now();
      const c = rows[k].frame();
      const dt = performance.now() - t0;
      if (f >= WARMUP) { times[k].push(dt); if (typeof c === 'number') changes[k] += c; }
    }
  }
  const results: Result[] = rows.map((row, k) => {
    const s = sorted(times[k]);
    return { name: row.name, objects: row.objects, ms: s[s.length >> 1], min: s[0], max: s[s.length - 1], changes: k >= 2 && k <= 4 ? Math.round(changes[k] / FRAMES) : null };
  });
  const ns = (x: Result): number => (x.ms * 1e6) / x.objects;
  const [getLod, getLodCull, mgr, mgrPx, thinRow, naiveRow] = results;
  const lines = [
    `Babylon.js LOD per frame (bench/babylon.bench.ts): Node ${process.version} (${process.platform}/${process.arch}), @babylonjs/core NullEngine,`,
    `median and range (min–max) of ${FRAMES} frames after ${WARMUP} warm-up frames, rows interleaved frame by frame in one process.`,
    '',
    '| row | objects | ms / frame, median (min–max) | ns / object | changes / frame |',
    '|---|---:|---:|---:|---:|',
    ...results.map((x) => `| ${x.name} | ${x.objects.toLocaleString('en-US')} | ${x.ms.toFixed(2)} (${x.min.toFixed(2)}–${x.max.toFixed(2)}) | ${ns(x).toFixed(1)} | ${x.changes ?? '—'} |`),
    '',
    `- getLOD ÷ BabylonLodManager (distance), per frame: ${(getLod.ms / mgr.ms).toFixed(2)}× (${ns(getLod).toFixed(1)} vs ${ns(mgr).toFixed(1)} ns / mesh)`,
    `- isInFrustum + getLOD ÷ BabylonLodManager (distance): ${(getLodCull.ms / mgr.ms).toFixed(2)}× (${ns(getLodCull).toFixed(1)} vs ${ns(mgr).toFixed(1)} ns / mesh)`,
    `- isInFrustum + getLOD ÷ BabylonLodManager (pixels): ${(getLodCull.ms / mgrPx.ms).toFixed(2)}× (${ns(getLodCull).toFixed(1)} vs ${ns(mgrPx).toFixed(1)} ns / mesh)`,
    `- naive rebuild ÷ BabylonThinInstanceLod: ${(naiveRow.ms / thinRow.ms).toFixed(2)}× (${ns(naiveRow).toFixed(1)} vs ${ns(thinRow).toFixed(1)} ns / instance);`
      + ` lodkit uploaded ${Math.round(uploaded / FRAMES)} instance slots per frame, the rebuild ${THIN.toLocaleString('en-US')}`,
    `(sink ${sink})`,
  ];
  console.log(lines.join('\n'));
  engine.dispose();
});
