/**
 * Fixture for test/e2e/webgpuFade.test.ts: two full-screen quads (level 0 red, level 1 green) in one
 * `ScreenSizeLOD`, rendered by `WebGPURenderer`. The test sets a blend and reads the canvas back.
 * `?nodeFade=0` leaves the TSL dither off (the old behaviour: both levels fully drawn).
 */
import { AmbientLight, Matrix4, Mesh, MeshBasicMaterial, MeshStandardMaterial, OrthographicCamera, PlaneGeometry, RenderTarget, Scene, WebGPURenderer } from 'three/webgpu';
import { InstancedLOD } from '../../../src/adapters/three/instancedLOD.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { enableNodeCrossFade } from '../../../src/adapters/three/crossFadeNode.js';

const params = new URLSearchParams(location.search);
if (params.get('nodeFade') !== '0') enableNodeCrossFade();
const renderer = new WebGPURenderer({ antialias: false });
renderer.setPixelRatio(1);
renderer.setSize(128, 128);
document.body.appendChild(renderer.domElement);
const scene = new Scene();
scene.add(new AmbientLight('#ffffff', 3));
const camera = new OrthographicCamera(-1, 1, 1, -1, 0.1, 10);
camera.position.z = 5;
const quad = new PlaneGeometry(2, 2);
// Level 0 a node-less plain material (converted by WebGPURenderer), level 1 a lit standard one.
const red = new Mesh(quad, new MeshBasicMaterial({ color: '#ff0000' }));
const green = new Mesh(quad, new MeshStandardMaterial({ color: '#00ff00', roughness: 1, metalness: 0, emissive: '#00ff00' }));
const lod = new ScreenSizeLOD({ metric: 'distance' });
lod.addLevel(red, 0).addLevel(green, 10);
lod.autoUpdate = false;
scene.add(lod);

const target = new RenderTarget(128, 128);

// An InstancedLOD under WebGPURenderer: level 0 red, level 1 green quads; distance levels at 10 m.
const instancedScene = new Scene();
const instanced = new InstancedLOD({
  levels: [{ geometry: new PlaneGeometry(1, 2), material: new MeshBasicMaterial({ color: '#ff0000' }) }, { geometry: new PlaneGeometry(1, 2), material: new MeshBasicMaterial({ color: '#00ff00' }) }],
  metric: 'distance', thresholds: [10],
});
const near = instanced.addInstance(new Matrix4().makeTranslation(-0.5, 0, -5)); // left half, 5 m: level 0
instanced.addInstance(new Matrix4().makeTranslation(0.5, 0, -20));              // right half, 20 m: level 1
instancedScene.add(instanced);
const instancedCamera = new OrthographicCamera(-1, 1, 1, -1, 0.1, 100);

async function instancedFrame(nearDepth: number): Promise<{ red: number; green: number; both: number; other: number }> {
  instanced.setMatrixAt(near, new Matrix4().makeTranslation(-0.5, 0, -nearDepth));
  instanced.update(instancedCamera);
  return read(instancedScene, instancedCamera);
}

async function frame(level: number, blend: number): Promise<{ red: number; green: number; both: number; other: number }> {
  lod.setLevel(level, blend);
  return read(scene, camera);
}

async function read(scene: Scene, camera: OrthographicCamera): Promise<{ red: number; green: number; both: number; other: number }> {
  // A WebGPU canvas is not preserved after presenting: render into a target and read it back.
  renderer.setRenderTarget(target);
  await renderer.renderAsync(scene, camera);
  const px = await renderer.readRenderTargetPixelsAsync(target, 0, 0, 128, 128) as Uint8Array;
  renderer.setRenderTarget(null);
  const out = { red: 0, green: 0, both: 0, other: 0 };
  for (let i = 0; i < px.length; i += 4) {
    const r = px[i] > 128, g = px[i + 1] > 128;
    if (r && g) out.both++; else if (r) out.red++; else if (g) out.green++; else out.other++;
  }
  return out;
}

await renderer.init();
(window as unknown as { fixture: object }).fixture = {
  backend: (renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend === true ? 'webgpu' : 'webgl2',
  frame,
  instancedFrame,
};
document.body.dataset.ready = '1';
