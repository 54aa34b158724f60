/**
 * Issue 25's bench row: 10,000 `<ScreenSizeDetailed>` under one `<LodManager>` against 10,000 drei
 * `<Detailed>`, the LOD work of a frame measured in one process on the same camera path.
 *
 * - Each scene is an r3f root (@react-three/test-renderer, Node) of 10,000 objects with three
 *   levels (shared geometries and materials) on a seeded 400 × 400 m field; the camera flies along
 *   it at 10 m height, so levels change every frame.
 * - The LOD work of a frame is what r3f runs per frame for it: every `useFrame` subscriber of the
 *   root, called as r3f's loop calls them (drei: one `THREE.LOD.update(camera)` per object; ours: the
 *   manager's one batch update), and what three's renderer adds to its scene walk for LODs. drei's
 *   `<Detailed>` keeps `autoUpdate` on, so `WebGLRenderer.render` calls `update(camera)` on each of
 *   them a second time (three's `projectObject`); ours are off. That share is measured as a
 *   difference: a walk of the scene that visits every object as `projectObject` does (visible,
 *   layers, children) and updates the `autoUpdate` LODs, against the same walk without the updates,
 *   each right after the frame's `useFrame` work, on alternate frames; the table gives both
 *   ratios (`useFrame` alone, and the frame's whole LOD work). The walk also leaves the caches as a
 *   drawn frame does: drei's `useFrame` work measured 0.8–1.0 ms a frame without the walks, 2.1–2.8
 *   ms with them (RESULTS.md, 2026-12-03). Scene matrices are brought up to date once, untimed, as
 *   the renderer would.
 * - Rows alternate frame by frame (drei, distance, pixels, drei …) so load on the shared machine hits
 *   all of them alike; 200 warm-up frames (the measured path flown again and again), then 41
 *   measured frames; median and min–max per row. Warm-up matters: the manager's code runs once a
 *   frame and drei's 10,000 times, so after 15 frames V8 had optimised drei's path and not yet the
 *   manager's (15 warm-up frames measured 4.8–6.7×, see RESULTS.md). `LODKIT_BENCH_WARMUP=n` sets it.
 * Run: `flock /tmp/lodkit-bench.lock npm run bench -w @lodkit/react` (prints the table).
 */
import { Detailed } from '@react-three/drei/core/Detailed.js';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import type { RootState } from '@react-three/fiber';
import { useThree } from '@react-three/fiber';
import { readFileSync } from 'node:fs';
import { BufferGeometry, Material, MeshBasicMaterial, SphereGeometry, type LOD, type Object3D, type PerspectiveCamera } from 'three';
import { expect, it } from 'vitest';
import { kernelsReady, LodSet } from 'lodkit';
import { LodManager as ThreeLodManager } from 'lodkit/three';
import { LodManager, ScreenSizeDetailed, type LodRuntime } from '../src/index.js';

await kernelsReady(); // (lodkit's WebAssembly kernels compile asynchronously; frames before would time its JavaScript kernels)

const N = Number(process.env.LODKIT_BENCH_N ?? 10_000);
const WARMUP = Number(process.env.LODKIT_BENCH_WARMUP ?? 200), FRAMES = 41;
const geometries: BufferGeometry[] = [new SphereGeometry(1, 32, 16), new SphereGeometry(1, 12, 6), new SphereGeometry(1, 4, 2)];
const material: Material = new MeshBasicMaterial();

/** Seeded positions (mulberry32) on a 400 × 400 m field. */
function field(n: number): [number, number, number][] {
  let s = 20261202;
  const rand = () => { s |= 0; s = (s + 0x6d2b79f5) | 0; let t = Math.imul(s ^ (s >>> 15), 1 | s); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  return Array.from({ length: n }, () => [rand() * 400 - 200, 0, rand() * 400 - 200]);
}

const levelMeshes = () => geometries.map((g, i) => <mesh key={i} geometry={g} material={material} />);

function Capture({ into }: { into: { get?: () => RootState } }): null {
  into.get = useThree((s) => s.get);
  return null;
}

interface Scene {
  name: string; state: () => RootState; unmount: () => Promise<void>;
  times: number[]; setTimes: number[]; managerTimes: number[];
  /** The renderer-like walk with the LOD updates (even frames) and without (odd frames), ms. */
  walkWith: number[]; walkWithout: number[];
}

/**
 * Milliseconds spent inside `LodSet.update` (the batch engine's share) and inside lodkit's three.js
 * `LodManager.update` (the engine, the camera → frustum step and applying the changed levels to the
 * `ScreenSizeLOD`s) since the last reset; the frame minus the manager's update is @lodkit/react's
 * own share. Four `performance.now()` calls a frame, well under 1 µs.
 */
let setMs = 0, managerMs = 0;
const update = LodSet.prototype.update;
LodSet.prototype.update = function timed(this: LodSet, views, options) {
  const t0 = performance.now();
  try { return update.call(this, views, options); } finally { setMs += performance.now() - t0; }
};
const managerUpdate = ThreeLodManager.prototype.update;
ThreeLodManager.prototype.update = function timed(this: ThreeLodManager, camera, options) {
  const t0 = performance.now();
  try { return managerUpdate.call(this, camera, options); } finally { managerMs += performance.now() - t0; }
};

async function mount(name: string, body: React.ReactNode): Promise<Scene> {
  const into: { get?: () => RootState } = {};
  const r = await ReactThreeTestRenderer.create(<><Capture into={into} />{body}</>, { width: 1280, height: 720, size: { width: 1280, height: 720, top: 0, left: 0 }, dpr: 1 } as never);
  const state = () => into.get!();
  const camera = state().camera as PerspectiveCamera;
  camera.fov = 50; camera.far = 2000; camera.updateProjectionMatrix();
  state().scene.updateMatrixWorld(true);
  return { name, state, unmount: () => r.unmount(), times: [], setTimes: [], managerTimes: [], walkWith: [], walkWithout: [] };
}

/** One r3f frame's subscribers, as r3f's loop runs them; returns milliseconds. */
function frame(scene: Scene, t: number): number {
  const state = scene.state();
  const camera = state.camera as PerspectiveCamera;
  const z = 200 - ((t * 1.5) % 400); // 1.5 m a frame (90 m/s at 60 fps), swaying sideways
  camera.position.set(Math.sin(t * 0.05) * 40, 10, z);
  camera.lookAt(camera.position.x, 5, z - 100);
  camera.updateMatrixWorld();
  const subscribers = state.internal.subscribers;
  setMs = 0; managerMs = 0;
  const start = performance.now();
  for (let i = 0; i < subscribers.length; i++) subscribers[i].ref.current(state, 1 / 60);
  return performance.now() - start;
}

/** LODs in a scene that three's renderer updates while drawing (`isLOD` with `autoUpdate`). */
function autoLods(s: Scene): number {
  let n = 0;
  s.state().scene.traverse((o) => { if ((o as LOD).isLOD === true && (o as LOD).autoUpdate) n++; });
  return n;
}

/**
 * The renderer's share of a scene's LOD work per frame (ms): the walk with the LOD updates minus
 * without; 0 for a scene the renderer updates no LOD of (its two walks run the same code, and their
 * difference, ± 0.05 ms here, is noise).
 */
const rendererLodMs = (s: Scene) => (autoLods(s) === 0 ? 0 : median(s.walkWith) - median(s.walkWithout));

/** Prints the table of one comparison (the first scene is drei's). */
function report(title: string, scenes: Scene[], changes: number): void {
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown';
  const load = readFileSync('/proc/loadavg', 'utf8').trim();
  const drei = median(scenes[0].times), dreiFrame = drei + rendererLodMs(scenes[0]);
  console.log(`\n${title}, ${FRAMES} frames after ${WARMUP} warm-up; ${cpu}; loadavg ${load}; ~${(changes / FRAMES).toFixed(0)} level changes per frame (first lodkit row)`);
  // Medians of each frame's parts (the parts' medians need not add up to the frame's median).
  console.log('| variant | useFrame ms (median) | min–max ms | renderer LOD pass ms | frame LOD work ms | ns / object | drei ÷ this, useFrame | drei ÷ this, frame | LodSet.update ms | rest of lodkit LodManager.update ms | @lodkit/react ms |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of scenes) {
    const m = median(s.times), r = rendererLodMs(s), whole = m + r;
    const ours = s.managerTimes.some((t) => t > 0);
    const parts = ours
      ? `${median(s.setTimes).toFixed(3)} | ${median(s.managerTimes.map((t, i) => t - s.setTimes[i])).toFixed(3)} | ${median(s.times.map((t, i) => t - s.managerTimes[i])).toFixed(3)}`
      : '— | — | —';
    console.log(`| ${s.name} | ${m.toFixed(3)} | ${Math.min(...s.times).toFixed(3)}–${Math.max(...s.times).toFixed(3)} | ${r.toFixed(3)} | ${whole.toFixed(3)} | ${((whole * 1e6) / N).toFixed(0)} | ${(drei / m).toFixed(1)}× | ${(dreiFrame / whole).toFixed(1)}× | ${parts} |`);
  }
}

/**
 * What three's `WebGLRenderer` does to a scene's objects while walking it for a frame as far as LODs
 * are concerned (`projectObject`: skip invisible subtrees, test layers, `update(camera)` an LOD with
 * `autoUpdate`, recurse); drawing itself is left out. `updates` false: the same walk, checks
 * included, without the `update` calls, so the difference is the renderer's LOD work. Returns ms.
 */
function rendererWalk(scene: Scene, updates: boolean): number {
  const state = scene.state(), camera = state.camera;
  const visit = (object: Object3D): void => {
    if (!object.visible) return;
    // (the type checks and the autoUpdate read are the walk's own, with or without the updates)
    if (object.layers.test(camera.layers) && (object as LOD).isLOD === true && (object as LOD).autoUpdate && updates) (object as LOD).update(camera);
    const children = object.children;
    for (let i = 0; i < children.length; i++) visit(children[i]);
  };
  const start = performance.now();
  visit(state.scene);
  return performance.now() - start;
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };

it(`${N} <ScreenSizeDetailed> under one <LodManager> vs ${N} drei <Detailed>: LOD work per frame`, async () => {
  const positions = field(N);
  let distanceRuntime: LodRuntime | null = null, pixelsRuntime: LodRuntime | null = null;
  const scenes: Scene[] = [
    await mount('drei <Detailed distances={[0, 30, 120]}> (THREE.LOD.update per object in useFrame)', positions.map((p, i) => <Detailed key={i} distances={[0, 30, 120]} position={p}>{levelMeshes()}</Detailed>)),
    await mount('<LodManager> + <ScreenSizeDetailed distances={[0, 30, 120]}> (one batch update)', <LodManager ref={(r) => { distanceRuntime = r; }} capacity={N}>{positions.map((p, i) => <ScreenSizeDetailed key={i} distances={[0, 30, 120]} position={p}>{levelMeshes()}</ScreenSizeDetailed>)}</LodManager>),
    await mount('<LodManager> + <ScreenSizeDetailed metric="pixels" thresholds={[80, 20]}>', <LodManager ref={(r) => { pixelsRuntime = r; }} capacity={N}>{positions.map((p, i) => <ScreenSizeDetailed key={i} metric="pixels" thresholds={[80, 20]} position={p}>{levelMeshes()}</ScreenSizeDetailed>)}</LodManager>),
  ];
  expect(distanceRuntime!.registered).toBe(N);
  expect(pixelsRuntime!.registered).toBe(N);
  expect(scenes[0].state().internal.subscribers.length).toBe(N);
  expect(scenes[1].state().internal.subscribers.length).toBe(1);
  // The renderer updates drei's LODs a second time while drawing; ours it leaves alone.
  expect(scenes.map(autoLods)).toEqual([N, 0, 0]);
  let changes = 0;
  const clusters = [[0, 0, 0], [0, 0, 0]];
  for (let f = 0; f < WARMUP + FRAMES; f++) {
    for (const s of scenes) {
      // Warm-up frames fly the measured path over and over, so the measured frames are the same
      // stretch of field (z 200 → 140, the field ahead) whatever the warm-up length.
      const ms = frame(s, f < WARMUP ? f % FRAMES : f - WARMUP);
      if (f >= WARMUP) { s.times.push(ms); s.setTimes.push(setMs); s.managerTimes.push(managerMs); }
      const walk = rendererWalk(s, f % 2 === 0);
      if (f >= WARMUP) (f % 2 === 0 ? s.walkWith : s.walkWithout).push(walk);
    }
    if (f >= WARMUP) {
      changes += distanceRuntime!.manager.set.changedCount;
      for (const [k, rt] of [distanceRuntime!, pixelsRuntime!].entries()) {
        const c = rt.manager.set.clusterStats;
        clusters[k][0] += c.culled; clusters[k][1] += c.skipped; clusters[k][2] += c.evaluated;
      }
    }
  }
  report(`${N} objects`, scenes, changes);
  // How much the engine could decide per cluster (clusters culled or skipped whole; objects through the per-object kernel).
  for (const [k, name] of ['distance', 'pixels'].entries()) {
    const [culled, skipped, evaluated] = clusters[k].map((v) => (v / FRAMES).toFixed(0));
    console.log(`${name}: ${distanceRuntime!.manager.set.clusterStats.clusters} clusters, per frame ${culled} culled, ${skipped} skipped, ${evaluated} objects evaluated`);
  }
  for (const s of scenes) await s.unmount();
});

/**
 * Moving objects: the same field, every object `dynamic`, 1 % of them moved a frame (object i at
 * frames f ≡ i mod 100, seeded). The moves are the app's work, untimed; drei's moved objects get
 * their world matrices untimed too (the renderer's `updateMatrixWorld` of the previous frame),
 * while the manager's frame brings every dynamic object's matrix up to date itself (timed).
 */
it(`${N} dynamic <ScreenSizeDetailed>, 1 % moving a frame, vs ${N} drei <Detailed>`, async () => {
  const positions = field(N);
  const dreiRefs: (Object3D | null)[] = [], ourRefs: (Object3D | null)[] = [];
  let runtime: LodRuntime | null = null;
  const scenes: Scene[] = [
    await mount('drei <Detailed distances={[0, 30, 120]}>, moving', positions.map((p, i) => <Detailed key={i} ref={(o) => { dreiRefs[i] = o; }} distances={[0, 30, 120]} position={p}>{levelMeshes()}</Detailed>)),
    await mount('<LodManager> + <ScreenSizeDetailed dynamic metric="pixels" thresholds={[80, 20]}>, moving', <LodManager ref={(r) => { runtime = r; }} capacity={N}>{positions.map((p, i) => <ScreenSizeDetailed key={i} ref={(o) => { ourRefs[i] = o; }} dynamic metric="pixels" thresholds={[80, 20]} position={p}>{levelMeshes()}</ScreenSizeDetailed>)}</LodManager>),
  ];
  expect(runtime!.dynamic.size).toBe(N);
  let changes = 0;
  for (let f = 0; f < WARMUP + FRAMES; f++) {
    for (let i = f % 100; i < N; i += 100) {
      const dx = Math.sin(f * 0.37 + i) * 0.5;
      dreiRefs[i]!.position.x = positions[i][0] + dx; dreiRefs[i]!.updateMatrixWorld();
      ourRefs[i]!.position.x = positions[i][0] + dx;
    }
    for (const s of scenes) {
      const ms = frame(s, f < WARMUP ? f % FRAMES : f - WARMUP);
      if (f >= WARMUP) { s.times.push(ms); s.setTimes.push(setMs); s.managerTimes.push(managerMs); }
      const walk = rendererWalk(s, f % 2 === 0);
      if (f >= WARMUP) (f % 2 === 0 ? s.walkWith : s.walkWithout).push(walk);
    }
    if (f >= WARMUP) changes += runtime!.manager.set.changedCount;
  }
  report(`${N} dynamic objects, ${N / 100} moved a frame`, scenes, changes);
  for (const s of scenes) await s.unmount();
});
