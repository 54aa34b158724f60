/**
 * lodkit GPU-driven LOD demo: up to 10 million rocks in one `GpuInstancedLOD`. Each frame a WebGPU
 * compute pass (`GpuLodSelector`) culls every rock, picks its level from its on-screen size and
 * compacts the ids into per-level lists with `drawIndexedIndirect` arguments; `WebGPURenderer` draws
 * the four level meshes from those buffers. Without WebGPU the same object runs the CPU engine on
 * WebGL 2 (capped at 200k rocks). `?n=` sets the count, `?backend=webgl` forces the fallback.
 */
import {
  Color, DirectionalLight, HemisphereLight, IcosahedronGeometry, Mesh, MeshLambertNodeMaterial, OctahedronGeometry,
  PerspectiveCamera, PlaneGeometry, RenderTarget, Scene, TetrahedronGeometry, Vector2, Vector3, WebGPURenderer, type BufferGeometry,
} from 'three/webgpu';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GpuInstancedLOD, gpuInstancedCapacity } from '../src/adapters/three/webgpu.js';
import { LEVEL_COLORS } from '../src/adapters/three/debug.js';

const CPU_CAP = 200_000;
const THRESHOLDS = [48, 16, 5];
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const canvas = $<HTMLCanvasElement>('view');
const params = new URLSearchParams(location.search);
const requested = Math.max(1, Math.floor(Number(params.get('n') ?? 10_000_000)) || 10_000_000);
const countSelect = $<HTMLSelectElement>('count');
if (![...countSelect.options].some((o) => Number(o.value) === requested)) countSelect.add(new Option(`${requested.toLocaleString('en-US')} rocks`, String(requested)));
countSelect.value = String(requested);
countSelect.addEventListener('change', () => { params.set('n', countSelect.value); location.search = `?${params.toString()}`; });
const fmt = (v: number): string => Math.round(v).toLocaleString('en-US');
const setText = (id: string, text: string): void => { $(id).textContent = text; };

/** Asks for the adapter's own storage limits: 10M spheres are 160 MB, over the 128 MiB default binding. */
async function createRenderer(): Promise<WebGPURenderer> {
  if (params.get('backend') === 'webgl') {
    setText('device', 'WebGL 2 backend (forced by ?backend=webgl).');
    const r = new WebGPURenderer({ canvas, antialias: false, forceWebGL: true });
    await r.init();
    return r;
  }
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  const adapter = gpu ? await gpu.requestAdapter({ powerPreference: 'high-performance' }) : null;
  if (adapter !== null) {
    const info = adapter.info;
    setText('device', `WebGPU adapter: ${[info?.vendor, info?.architecture, info?.description].filter(Boolean).join(' ') || 'unnamed'} · max storage binding ${fmt(adapter.limits.maxStorageBufferBindingSize / 2 ** 20)} MiB`);
    try {
      const r = new WebGPURenderer({
        canvas, antialias: false, powerPreference: 'high-performance',
        requiredLimits: { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, maxBufferSize: adapter.limits.maxBufferSize },
      });
      await r.init();
      return r;
    } catch (e) {
      console.warn(`lodkit demo: WebGPU device with the adapter's limits failed (${String(e)}); default limits`);
    }
  } else {
    setText('device', 'No WebGPU adapter: WebGL 2 fallback.');
  }
  const r = new WebGPURenderer({ canvas, antialias: false, powerPreference: 'high-performance' });
  await r.init();
  return r;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` rocks on a square field (about 2.2 m apart), half sunk into the ground, each turned at random: spheres (x, y, z, r) and quaternions. */
function rocks(n: number, side: number): { spheres: Float32Array; rotations: Float32Array } {
  const rand = mulberry32(20251);
  const spheres = new Float32Array(n * 4), rotations = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const r = 0.35 + 1.3 * rand() * rand();
    spheres[i * 4] = (rand() - 0.5) * side;
    spheres[i * 4 + 1] = 0.4 * r;
    spheres[i * 4 + 2] = (rand() - 0.5) * side;
    spheres[i * 4 + 3] = r;
    // A random unit quaternion (Shoemake's uniform method).
    const u1 = rand(), u2 = 2 * Math.PI * rand(), u3 = 2 * Math.PI * rand();
    const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
    rotations.set([a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)], i * 4);
  }
  return { spheres, rotations };
}

const renderer = await createRenderer();
renderer.setPixelRatio(Math.min(window.devicePixelRatio, 1.5));
const gpuBackend = (renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend === true;
let n = requested;
const notices: string[] = [];
if (gpuBackend) {
  const device = (renderer.backend as unknown as { device: GPUDevice }).device;
  const cap = gpuInstancedCapacity(device.limits, 4);
  if (n > cap) { notices.push(`This device's storage limit holds ${fmt(cap)} rocks (${fmt(n)} asked).`); n = cap; }
} else if (n > CPU_CAP) {
  notices.push(`WebGL 2 fallback (CPU engine): capped at ${fmt(CPU_CAP)} rocks.`);
  n = CPU_CAP;
}
setText('notice', notices.join(' '));

const side = Math.sqrt(n) * 2.2;
const scene = new Scene();
scene.background = new Color('#9cc3e6');
scene.add(new HemisphereLight('#dfefff', '#4a5a3a', 1.6));
const sun = new DirectionalLight('#fff4e0', 2);
sun.position.set(300, 600, 200);
scene.add(sun);
const ground = new Mesh(new PlaneGeometry(side + 400, side + 400), new MeshLambertNodeMaterial({ color: '#6d8f55' }));
ground.rotation.x = -Math.PI / 2;
scene.add(ground);

const geometries: BufferGeometry[] = [new IcosahedronGeometry(1, 2), new IcosahedronGeometry(1, 1), new OctahedronGeometry(1), new TetrahedronGeometry(1)];
const triangles = geometries.map((g) => (g.index ? g.index.count : g.attributes.position.count) / 3);
const lod = new GpuInstancedLOD(renderer, {
  levels: geometries.map((geometry, l) => ({ geometry, material: new MeshLambertNodeMaterial({ color: LEVEL_COLORS[l] }) })),
  metric: 'pixels', thresholds: THRESHOLDS, capacity: n, rotations: true,
});
const t0 = performance.now();
const field = rocks(n, side);
lod.setSpheres(field.spheres, n, { rotations: field.rotations });
scene.add(lod);
setText('mode', lod.mode === 'gpu' ? 'GPU-driven (WebGPU)' : 'CPU engine (WebGL 2)');
setText('instances', fmt(n));
if (lod.mode === 'cpu') setText('counts-hint', 'Per-level counts: the CPU engine\'s frame stats (InstancedLOD).');

const camera = new PerspectiveCamera(60, 1, 0.5, 5000);
const controls = new OrbitControls(camera, canvas);
controls.enabled = false;
const flyToggle = $<HTMLInputElement>('fly');
flyToggle.addEventListener('change', () => {
  controls.enabled = !flyToggle.checked;
  if (controls.enabled) { controls.target.copy(camera.getWorldDirection(new Vector3()).multiplyScalar(60).add(camera.position)); controls.update(); }
});
const bias = $<HTMLInputElement>('bias'), hysteresis = $<HTMLInputElement>('hysteresis');
const options = { bias: 1, hysteresis: 0.1 };
const syncOptions = (): void => {
  options.bias = Number(bias.value); options.hysteresis = Number(hysteresis.value);
  setText('bias-out', options.bias.toFixed(2)); setText('hysteresis-out', options.hysteresis.toFixed(2));
};
bias.addEventListener('input', syncOptions);
hysteresis.addEventListener('input', syncOptions);
syncOptions();

// Level rows (swatch, count, bar), filled from the counts readback.
const levelsHost = $('levels');
const rows = geometries.map((_, l) => {
  const row = document.createElement('div');
  row.className = 'lk-row';
  row.innerHTML = `<span class="lk-swatch" style="background:${LEVEL_COLORS[l]}"></span><span>LOD ${l}</span><span class="lk-bar"><span style="background:${LEVEL_COLORS[l]};width:0"></span></span><span class="lk-num" data-testid="level-${l}">0</span>`;
  levelsHost.appendChild(row);
  return { bar: row.querySelector('.lk-bar span') as HTMLElement, num: row.querySelector('.lk-num') as HTMLElement };
});

let frames = 0, lastFps = performance.now(), lastRead = 0, fps = 0, completed = 0;
const queue = gpuBackend ? (renderer.backend as unknown as { device: GPUDevice }).device.queue : null;
const counts = new Uint32Array(geometries.length);
function showCounts(c: Uint32Array): void {
  counts.set(c);
  let drawn = 0, tris = 0;
  for (let l = 0; l < c.length; l++) { drawn += c[l]; tris += c[l] * triangles[l]; }
  for (let l = 0; l < c.length; l++) {
    rows[l].num.textContent = fmt(c[l]);
    rows[l].bar.style.width = `${drawn > 0 ? (100 * c[l]) / drawn : 0}%`;
  }
  setText('drawn', fmt(drawn));
  setText('triangles', fmt(tris));
  setText('drawn-hud', `${fmt(drawn)} of ${fmt(n)} rocks drawn · ${fmt(tris)} triangles`);
}

const scratchSize = new Vector2();
function resize(): void {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  const size = renderer.getSize(scratchSize);
  if (size.x !== w || size.y !== h) {
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
  }
}

/** Circles the field at 5–15 m, looking along the path and 7° down. */
function fly(time: number): void {
  const a = time * 0.00002, rad = side * 0.3; // 0.02 rad/s around the field
  const y = 10 + 5 * Math.sin(a * 3);
  camera.position.set(Math.cos(a) * rad, y, Math.sin(a) * rad);
  camera.lookAt(camera.position.x - Math.sin(a) * 100, y - 12.3, camera.position.z + Math.cos(a) * 100);
}

// `?present=0` draws into an offscreen target instead of the canvas: headless Chromium with
// SwiftShader drops its WebGPU instance when a canvas is presented; the demo's test renders offscreen.
const offscreen = params.get('present') === '0' ? new RenderTarget(640, 480) : null;
if (offscreen !== null) renderer.setRenderTarget(offscreen);

// Frame pacing: at most 2 frames in flight on the GPU. Without it an unthrottled loop (offscreen, or
// a software adapter) queues frames faster than the GPU finishes them and every readback lags.
let inFlight = 0;
renderer.setAnimationLoop((time: number) => {
  if (queue !== null && inFlight >= 2) return;
  resize();
  if (flyToggle.checked) fly(time); else controls.update();
  camera.updateMatrixWorld();
  lod.update(camera, options);
  renderer.render(scene, camera);
  // WebGPU: count a frame when the GPU has finished it (a loop can run ahead of a busy GPU);
  // WebGL: count loop iterations.
  if (queue !== null) { inFlight++; void queue.onSubmittedWorkDone().then(() => { frames++; completed++; inFlight--; }); }
  else { frames++; completed++; }
  const now = performance.now();
  if (now - lastFps >= 1000 && (frames > 0 || now - lastFps >= 5000)) { fps = (frames * 1000) / (now - lastFps); frames = 0; lastFps = now; setText('fps', fps.toFixed(1)); setText('fps-hud', fps.toFixed(0)); }
  if (now - lastRead >= 250) { lastRead = now; lod.readLevelCounts().then(showCounts, (e: unknown) => { setText('notice', `Counts readback failed: ${String(e)}`); }); }
});

console.info(`lodkit GPU demo: ${fmt(n)} rocks, ${lod.mode} path, set up in ${(performance.now() - t0).toFixed(0)} ms`);
(window as unknown as { lodkitGpuDemo: object }).lodkitGpuDemo = {
  lod, renderer, camera, count: n, counts, mode: lod.mode,
  /** Frames finished (WebGPU: by the GPU) since the start, and frames in flight. */
  get frames() { return { completed, inFlight }; },
};
document.body.dataset.ready = '1';
