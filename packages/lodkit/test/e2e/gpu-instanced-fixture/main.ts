/// <reference types="@webgpu/types" />
/**
 * Fixture for test/e2e/gpuInstanced.test.ts: a `GpuInstancedLOD` of flat squares (level 0 red,
 * 1 green, 2 blue) on a grid seen from straight above by an orthographic camera, rendered by
 * `WebGPURenderer` (`?backend=webgpu`) or its WebGL 2 backend (`?backend=webgl`, the CPU fallback).
 * The page only renders and reads back; the test computes every expected value from the scene
 * parameters it passes in.
 */
import { Color, MeshBasicNodeMaterial, MeshNormalNodeMaterial, OrthographicCamera, PlaneGeometry, RenderTarget, Scene, WebGPURenderer } from 'three/webgpu';
import { float, vec3 } from 'three/tsl';
import { GpuInstancedLOD } from '../../../src/adapters/three/webgpu.js';
import { knownKernelErrors } from '../../helpers/knownKernel.js';

export interface SceneParams { n: number; spacing: number; side: number; height: number; half: number; thresholds: number[]; offView: number }

const SIZE = 384;
const backendWanted = new URLSearchParams(location.search).get('backend') ?? 'webgpu';
const renderer = new WebGPURenderer({ antialias: false, forceWebGL: backendWanted === 'webgl' });
renderer.setPixelRatio(1);
renderer.setSize(SIZE, SIZE);
document.body.appendChild(renderer.domElement);
const target = new RenderTarget(SIZE, SIZE);
const scene = new Scene();
scene.background = new Color(0, 0, 0);
let lod: GpuInstancedLOD | null = null;
let camera: OrthographicCamera | null = null;
let height = 100;

// Upload accounting: bytes written with queue.writeBuffer and bytes of buffers created, so the test
// can check that a frame moves nothing per instance.
const uploads = { written: 0, created: 0 };
if (typeof GPUQueue !== 'undefined') {
  const write = GPUQueue.prototype.writeBuffer;
  GPUQueue.prototype.writeBuffer = function (this: GPUQueue, buffer: GPUBuffer, offset: number, data: BufferSource | SharedArrayBuffer, dataOffset?: number, size?: number) {
    // Typed arrays count dataOffset and size in elements, other sources in bytes.
    const unit = ArrayBuffer.isView(data) ? ((data as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1) : 1;
    const bytes = size !== undefined ? size * unit : data.byteLength - (dataOffset ?? 0) * unit;
    uploads.written += bytes;
    return write.call(this, buffer, offset, data as BufferSource, dataOffset, size);
  } as typeof write;
  const create = GPUDevice.prototype.createBuffer;
  GPUDevice.prototype.createBuffer = function (this: GPUDevice, descriptor: GPUBufferDescriptor) {
    uploads.created += descriptor.size;
    return create.call(this, descriptor);
  };
}

/** Finds an adapter and proves it computes (a known kernel), so an adapter that computes nothing never passes. */
async function probe(): Promise<{ ok: boolean; reason: string }> {
  if (!('gpu' in navigator)) return { ok: false, reason: 'navigator.gpu is missing' };
  const adapter = await navigator.gpu.requestAdapter();
  if (adapter == null) return { ok: false, reason: 'requestAdapter() returned null' };
  const device = await adapter.requestDevice();
  const bad = await knownKernelErrors(device);
  device.destroy();
  return bad > 0 ? { ok: false, reason: `adapter computes nothing useful (${bad}/4096 wrong in a known kernel)` } : { ok: true, reason: '' };
}

/** Builds the grid (ids row by row) plus `offView` instances far to the side of every view. */
function setup(p: SceneParams): { mode: string; backend: string } {
  const squares = new PlaneGeometry(1, 1).rotateX(-Math.PI / 2); // faces +y, toward the camera
  const colors = ['#ff0000', '#00ff00', '#0000ff'];
  lod = new GpuInstancedLOD(renderer, {
    levels: colors.map((c) => ({ geometry: squares, material: new MeshBasicNodeMaterial({ color: c }) })),
    metric: 'distance', thresholds: p.thresholds, capacity: p.n * p.n + p.offView,
  });
  const r = p.side * Math.SQRT1_2; // the unit square's local sphere has radius √½
  const spheres = new Float32Array((p.n * p.n + p.offView) * 4);
  const x0 = -((p.n - 1) / 2) * p.spacing;
  for (let j = 0; j < p.n; j++) {
    for (let i = 0; i < p.n; i++) spheres.set([x0 + i * p.spacing, 0, x0 + j * p.spacing, r], (j * p.n + i) * 4);
  }
  for (let k = 0; k < p.offView; k++) spheres.set([1000 + k, 0, 0, r], (p.n * p.n + k) * 4);
  lod.setSpheres(spheres);
  scene.add(lod);
  camera = new OrthographicCamera(-p.half, p.half, p.half, -p.half, 1, 1000);
  height = p.height;
  const backend = (renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend === true ? 'webgpu' : 'webgl2';
  return { mode: lod.mode, backend };
}

async function read(): Promise<Uint8Array> {
  renderer.setRenderTarget(target);
  await renderer.renderAsync(scene, camera!);
  return readTarget();
}

async function readTarget(): Promise<Uint8Array> {
  const px = await renderer.readRenderTargetPixelsAsync(target, 0, 0, SIZE, SIZE) as Uint8Array;
  renderer.setRenderTarget(null);
  return px;
}

/** RGBA bytes as base64 (a much smaller reply than a JSON array). */
function base64(px: Uint8Array): string {
  let s = '';
  for (let i = 0; i < px.length; i += 0x8000) s += String.fromCharCode(...px.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * One frame with the camera above (cx, height, 0) looking straight down (relative hysteresis band `hysteresis`): the picture, the drawn
 * counts, and the bytes written / buffers created by the update and render alone.
 */
async function frame(cx: number, hysteresis = 0): Promise<{ pixels: string; counts: number[]; shared: boolean; written: number; created: number }> {
  camera!.position.set(cx, height, 0);
  camera!.up.set(0, 0, -1);
  camera!.lookAt(cx, 0, 0);
  camera!.updateMatrixWorld();
  const w0 = uploads.written, c0 = uploads.created;
  lod!.update(camera!, { hysteresis });
  renderer.setRenderTarget(target);
  await renderer.renderAsync(scene, camera!);
  const written = uploads.written - w0, created = uploads.created - c0;
  const pixels = base64(await readTarget());
  const counts = Array.from(await lod!.readLevelCounts());
  return { pixels, counts, shared: lod!.sharedBuffers, written, created };
}

/**
 * GPU path: the selector's own readback (level histogram, indirect instance counts), then a render
 * where each square's colour encodes (id + 1, level + 1): the distinct ids seen per level are the
 * instances three actually drew.
 */
async function idPass(): Promise<{ histogram: number[]; indirect: number[]; seen: number[]; seenTwice: number; seenIds: number; maxId: number }> {
  const rb = await lod!.selector!.readback();
  const histogram = [0, 0, 0];
  for (const l of rb.levels) if (l < 3) histogram[l]++;
  const indirect = [0, 1, 2].map((l) => rb.indirect[l * 5 + 1]);
  const saved = lod!.levelMeshes.map((m) => (m.material as MeshBasicNodeMaterial).colorNode);
  lod!.levelMeshes.forEach((m, l) => {
    const mat = m.material as MeshBasicNodeMaterial;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const id: any = lod!.instanceIdNodes[l].add(1);
    mat.colorNode = vec3(float(id.bitAnd(255)).div(255), float(id.shiftRight(8).bitAnd(255)).div(255), (l + 1) / 255);
    mat.needsUpdate = true;
  });
  const px = await read();
  lod!.levelMeshes.forEach((m, l) => { (m.material as MeshBasicNodeMaterial).colorNode = saved[l]; (m.material as MeshBasicNodeMaterial).needsUpdate = true; });
  const levelOf = new Map<number, number>();
  let seenTwice = 0, maxId = -1;
  for (let i = 0; i < px.length; i += 4) {
    const id = px[i] + 256 * px[i + 1] - 1, level = px[i + 2] - 1;
    if (id < 0 || level < 0) continue;
    maxId = Math.max(maxId, id);
    const prev = levelOf.get(id);
    if (prev === undefined) levelOf.set(id, level); else if (prev !== level) seenTwice++;
  }
  const seen = [0, 0, 0];
  for (const l of levelOf.values()) if (l >= 0 && l < 3) seen[l]++;
  return { histogram, indirect, seen, seenTwice, seenIds: levelOf.size, maxId };
}

/**
 * Rotations: an n × n grid of upright squares (facing +z, edge-on to a camera straight above) drawn
 * with normal colours; instances with (i + j) even get a −90° turn about x (their face turns up,
 * their normal to +y), the others the identity. Returns the picture seen from above.
 */
async function rotated(n: number, spacing: number, side: number, half: number): Promise<string> {
  const upright = new PlaneGeometry(1, 1);
  const lodR = new GpuInstancedLOD(renderer, {
    levels: [0, 1].map(() => ({ geometry: upright, material: new MeshNormalNodeMaterial() })),
    metric: 'distance', thresholds: [1e6], capacity: n * n, rotations: true,
  });
  const spheres = new Float32Array(n * n * 4), quats = new Float32Array(n * n * 4);
  const x0 = -((n - 1) / 2) * spacing, turn = Math.SQRT1_2;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const k = j * n + i;
      spheres.set([x0 + i * spacing, 0, x0 + j * spacing, side * Math.SQRT1_2], k * 4);
      quats.set((i + j) % 2 === 0 ? [-turn, 0, 0, turn] : [0, 0, 0, 1], k * 4);
    }
  }
  lodR.setSpheres(spheres, n * n, { rotations: quats });
  const sceneR = new Scene();
  sceneR.background = new Color(0, 0, 0);
  sceneR.add(lodR);
  const cam = new OrthographicCamera(-half, half, half, -half, 1, 1000);
  cam.position.set(0, 100, 0);
  cam.up.set(0, 0, -1);
  cam.lookAt(0, 0, 0);
  cam.updateMatrixWorld();
  lodR.update(cam);
  renderer.setRenderTarget(target);
  await renderer.renderAsync(sceneR, cam);
  const px = await readTarget();
  lodR.dispose();
  return base64(px);
}

/**
 * Colours: an n × n grid of face-up squares in a white material, instance (i, j) tinted
 * (i / (n − 1), |j − m| / m, 0.25) with m = (n − 1) / 2. Returns the picture seen from above.
 */
async function colored(n: number, spacing: number, side: number, half: number): Promise<string> {
  const flat = new PlaneGeometry(1, 1).rotateX(-Math.PI / 2);
  const lodC = new GpuInstancedLOD(renderer, {
    levels: [0, 1].map(() => ({ geometry: flat, material: new MeshBasicNodeMaterial({ color: '#ffffff' }) })),
    metric: 'distance', thresholds: [1e6], capacity: n * n, colors: true,
  });
  const spheres = new Float32Array(n * n * 4), colors = new Float32Array(n * n * 3);
  const x0 = -((n - 1) / 2) * spacing, m = (n - 1) / 2;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const k = j * n + i;
      spheres.set([x0 + i * spacing, 0, x0 + j * spacing, side * Math.SQRT1_2], k * 4);
      colors.set([i / (n - 1), Math.abs(j - m) / m, 0.25], k * 3);
    }
  }
  lodC.setSpheres(spheres, n * n, { colors });
  const sceneC = new Scene();
  sceneC.background = new Color(0, 0, 0);
  sceneC.add(lodC);
  const cam = new OrthographicCamera(-half, half, half, -half, 1, 1000);
  cam.position.set(0, 100, 0);
  cam.up.set(0, 0, -1);
  cam.lookAt(0, 0, 0);
  cam.updateMatrixWorld();
  lodC.update(cam);
  renderer.setRenderTarget(target);
  await renderer.renderAsync(sceneC, cam);
  const px = await readTarget();
  lodC.dispose();
  return base64(px);
}

await renderer.init();
(window as unknown as { fixture: object }).fixture = { probe, setup, frame, idPass, rotated, colored };
document.body.dataset.ready = '1';
