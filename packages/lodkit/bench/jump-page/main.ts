/// <reference lib="dom" />
/**
 * Page of bench/jump.browser.bench.ts: the startup scene's `?n=` (default 100k) instances
 * (bench/startupScene.ts) drawn by three's `WebGLRenderer` while the camera jumps between two spots
 * 1.2 km apart each frame (≈ 67k instances change level at 100k: every level mesh refills thousands
 * of scattered slots), or with `?path=walk` dollies 2 m and turns 0.2° a frame. Per frame:
 * `InstancedLOD.update`, then `renderer.render` with a 1-pixel `readPixels` after it (so the
 * frame's commands, its uploads included, have run), and the
 * `bufferSubData` calls the renderer made. The levels draw nothing (draw range 0): the frame is
 * the renderer's scene walk and the uploads, not the rasterizer. Writes `window.jumpResult`, sets
 * `document.body.dataset.ready = '1'`.
 */
import { BufferGeometry, Float32BufferAttribute, MeshBasicMaterial, WebGLRenderer } from 'three';
import { InstancedLOD } from '../../src/adapters/three/index.js';
import { startupScene } from '../startupScene.js';

const FRAMES = 40, WARM_UP = 8;
const params = new URLSearchParams(location.search);
const N = Number(params.get('n') ?? 100_000);
const WALK = params.get('path') === 'walk';
const { matrices, camera, options } = startupScene(N);

/** A fan of `t` triangles in the unit square (a level that costs almost nothing to draw). */
function fan(t: number): BufferGeometry {
  const p: number[] = [];
  for (let k = 0; k < t; k++) {
    const a = (k / t) * Math.PI * 2, b = ((k + 1) / t) * Math.PI * 2;
    p.push(0, 0, 0, Math.cos(a) * 0.5, Math.sin(a) * 0.5, 0, Math.cos(b) * 0.5, Math.sin(b) * 0.5, 0);
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(p, 3));
  g.computeBoundingSphere();
  // Nothing drawn: three still uploads the instance attributes of every visible level mesh
  // (WebGLObjects.update, while it walks the scene), then skips the empty draw.
  g.setDrawRange(0, 0);
  return g;
}

const canvas = document.createElement('canvas');
document.body.appendChild(canvas);
const renderer = new WebGLRenderer({ canvas, antialias: false });
renderer.setSize(64, 36, false);
const gl = renderer.getContext();
let calls = 0;
const bufferSubData = gl.bufferSubData.bind(gl) as (...a: unknown[]) => void;
(gl as { bufferSubData: unknown }).bufferSubData = (...a: unknown[]) => { calls++; bufferSubData(...a); };
const pixel = new Uint8Array(4);

const material = new MeshBasicMaterial();
const levels = [fan(4), fan(2), fan(1)].map((geometry) => ({ geometry, material }));
const lod = new InstancedLOD({ ...options, levels });
lod.addInstances(matrices);
const scene = lod; // (an Object3D: rendered as the scene root)
const a = camera.clone(), b = camera.clone();
b.position.set(600, 2, 0); b.lookAt(500, 2, -30); b.updateMatrixWorld(true);
/** `?path=walk`: the camera dollies 2 m and turns 0.2° a frame (scattered writes, few per level). */
function walk(f: number): typeof camera {
  a.position.set(-600 + 2 * f, 2, 0);
  a.rotation.set(0, -0.3 - f * 0.2 * Math.PI / 180, 0);
  a.updateMatrixWorld(true);
  return a;
}

const update: number[] = [], render: number[] = [], uploads: number[] = [], changes: number[] = [];
for (let f = 0; f < FRAMES + WARM_UP; f++) {
  const cam = WALK ? walk(f) : f % 2 === 0 ? a : b;
  const t0 = performance.now();
  const stats = lod.update(cam);
  const t1 = performance.now();
  calls = 0;
  renderer.render(scene, cam);
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  const t2 = performance.now();
  if (f >= WARM_UP) { update.push(t1 - t0); render.push(t2 - t1); uploads.push(calls); changes.push(stats.changes); }
}
Object.assign(window, { jumpResult: { instances: N, update, render, uploads, changes } });
document.body.dataset.ready = '1';
