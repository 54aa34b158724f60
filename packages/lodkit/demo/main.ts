/**
 * lodkit three.js demo: the simulator's `motogp` scene (its bikes' motion, track and camera
 * positions) drawn with real meshes, levels chosen by `LodManager` under a switchable policy.
 */
import {
  AmbientLight, Color, DirectionalLight, DoubleSide, Fog, HemisphereLight, Mesh, MeshLambertMaterial, MeshStandardMaterial,
  OrthographicCamera, PerspectiveCamera, PlaneGeometry, Scene, WebGLRenderer, type Camera,
} from 'three';
import { heightToArea } from '../src/metrics/conversions.js';
import type { LodFrameStats, LodUpdateOptions } from '../src/batch/lodSet.js';
import { motogpScene } from '../../cli/src/simulator/scenarios/motogp.js';
import { LodDebugHelper, LodManager, LodStatsPanel, ScreenSizeLOD } from '../src/adapters/three/index.js';
import { bikeGeometry, LAP, SECTORS, sectorGeometry, STRAIGHT, TURN_RADIUS } from './models.js';
import { createForest, TREE_COUNT, type Forest } from './forest.js';
import { allPolicies } from '../src/batch/policyModules.js';
import { registerPolicies } from '../src/batch/policyRegistry.js';

registerPolicies(allPolicies); // the demo switches between every policy by name

type CameraName = 'chase' | 'trackside' | 'telephoto' | 'map';
type PolicyName = 'distance' | 'pixels' | 'screenHeight' | 'screenArea' | 'rankQuota' | 'budget' | 'hybrid';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const canvas = $<HTMLCanvasElement>('view');
// The GPU-driven page needs WebGPU for its 10M instances (it falls back to 200k on WebGL 2).
if (!('gpu' in navigator)) $('gpu-link').textContent = 'GPU-driven LOD (needs WebGPU; opens a 200k-rock WebGL fallback here) →';
const renderer = new WebGLRenderer({ canvas, antialias: true, powerPreference: 'high-performance', preserveDrawingBuffer: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
// The forest casts shadows (the MotoGP scene has no casters, so its shadow pass is empty).
renderer.shadowMap.enabled = true;

// --- The scenario -----------------------------------------------------------------------------
const scenario = motogpScene();
const DURATION = scenario.duration as number;
const bikeObjects = scenario.objects!.filter((o) => o.motion !== undefined);
const SHOTS: Record<CameraName, [number, number]> = { chase: [0, 9], trackside: [9, 18], telephoto: [18, DURATION], map: [0, DURATION] };
const TEAM_COLORS = ['#d7262e', '#1f5fbf', '#f2c94c', '#35d07f', '#ff7a00', '#8e44ad', '#00a3a3', '#e84393', '#2d3436', '#c0c0c0'];

const scene = new Scene();
scene.background = new Color('#9cc3e6');
scene.fog = new Fog('#9cc3e6', 900, 3200);
scene.add(new HemisphereLight('#dfefff', '#3d5a2a', 1.4));
scene.add(new AmbientLight('#ffffff', 0.3));
const sun = new DirectionalLight('#fff4e0', 2.2);
sun.position.set(300, 600, 200);
scene.add(sun);
// Subdivided and pushed back in depth: one huge quad loses depth precision (software rasterisers)
// and would show through the asphalt a few centimetres above it.
const ground = new Mesh(new PlaneGeometry(6000, 4000, 120, 80), new MeshLambertMaterial({ color: '#5d9b4a', polygonOffset: true, polygonOffsetFactor: 4, polygonOffsetUnits: 4 }));
ground.rotation.x = -Math.PI / 2;
ground.position.y = -0.15;
scene.add(ground);

// Bikes: one ScreenSizeLOD each, three levels (finest first); the thresholds given to addLevel
// are the pixel ones, each policy registers its own profile with the manager.
const bikeLevels = [bikeGeometry(0), bikeGeometry(1), bikeGeometry(2)];
const bikes: ScreenSizeLOD[] = bikeObjects.map((_, b) => {
  const color = TEAM_COLORS[b % TEAM_COLORS.length];
  const lod = new ScreenSizeLOD({ metric: 'pixels', renderer });
  [80, 20, 0].forEach((px, level) => {
    const material = new MeshStandardMaterial({ color, vertexColors: true, roughness: 0.45, metalness: 0.2, flatShading: level > 0 });
    lod.addLevel(new Mesh(bikeLevels[level], material), px);
  });
  lod.name = `bike ${b + 1}`;
  scene.add(lod);
  return lod;
});
const trackMaterials = [0, 1, 2].map((l) => new MeshLambertMaterial({ vertexColors: true, side: DoubleSide, flatShading: l > 0 }));
const sectors: ScreenSizeLOD[] = [];
for (let i = 0; i < SECTORS; i++) {
  const lod = new ScreenSizeLOD({ metric: 'pixels', renderer });
  [600, 150, 0].forEach((px, level) => lod.addLevel(new Mesh(sectorGeometry(i, level as 0 | 1 | 2), trackMaterials[level]), px));
  lod.name = `sector ${i + 1}`;
  scene.add(lod);
  sectors.push(lod);
}

// --- Motion -------------------------------------------------------------------------------------
function bikeState(b: number, t: number, out: { x: number; y: number; z: number; heading: number }): void {
  const keys = bikeObjects[b].motion!;
  const f = Math.min(Math.max(t * 10, 0), keys.length - 1.001);
  const k = Math.floor(f), w = f - k;
  const a = keys[k].center, c = keys[k + 1].center;
  out.x = a[0] + (c[0] - a[0]) * w; out.y = a[1] + (c[1] - a[1]) * w - 0.6; out.z = a[2] + (c[2] - a[2]) * w;
  out.heading = Math.atan2(-(c[2] - a[2]), c[0] - a[0]);
}
const state = { x: 0, y: 0, z: 0, heading: 0 };
function placeBikes(t: number): void {
  bikes.forEach((lod, b) => {
    bikeState(b, t, state);
    lod.position.set(state.x, state.y, state.z);
    lod.rotation.set(0, state.heading, 0);
    lod.updateMatrixWorld(true);
  });
}

// --- Cameras ------------------------------------------------------------------------------------
const perspective = new PerspectiveCamera(55, 1, 0.1, 5000);
const telephoto = new PerspectiveCamera(30, 1, 0.5, 5000);
const map = new OrthographicCamera(-1, 1, 1, -1, 1, 2000);
map.up.set(0, 0, -1);
let cameraName: CameraName = 'chase';
const ZOOM = { telephoto: { min: 1, max: 30, value: 15 }, map: { min: 1, max: 10, value: 1 } };
function activeCamera(): Camera {
  return cameraName === 'telephoto' ? telephoto : cameraName === 'map' ? map : perspective;
}
function aimCamera(t: number): void {
  if (cameraName === 'chase') {
    bikeState(3, t, state);
    const dx = Math.cos(state.heading), dz = -Math.sin(state.heading);
    perspective.fov = 55;
    perspective.position.set(state.x - dx * 6, 2.2, state.z - dz * 6);
    perspective.lookAt(state.x + dx * 25, 0.8, state.z + dz * 25);
  } else if (cameraName === 'trackside') {
    bikeState(9, t, state);
    perspective.fov = 40;
    perspective.position.set(-STRAIGHT / 2 - TURN_RADIUS - 45, 8, -60);
    perspective.lookAt(state.x, 0.8, state.z);
  } else if (cameraName === 'telephoto') {
    bikeState(9, t, state);
    telephoto.position.set(STRAIGHT / 2 + 250, 6, TURN_RADIUS);
    telephoto.lookAt(state.x, 0.8, state.z);
  } else {
    map.position.set(0, 800, 0);
    map.lookAt(0, 0, 0);
  }
  const camera = activeCamera();
  if (camera === perspective) { perspective.zoom = 1; perspective.updateProjectionMatrix(); }
  camera.updateMatrixWorld(true);
}

function resize(): void {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  renderer.setSize(w, h, false);
  const aspect = w / Math.max(1, h);
  forest?.resize(aspect);
  perspective.aspect = aspect; perspective.updateProjectionMatrix();
  telephoto.aspect = aspect; telephoto.zoom = ZOOM.telephoto.value; telephoto.updateProjectionMatrix();
  const halfH = 330, halfW = Math.max(halfH * aspect, STRAIGHT / 2 + TURN_RADIUS + 40);
  const hh = Math.max(halfH, halfW / aspect);
  map.left = -hh * aspect; map.right = hh * aspect; map.top = hh; map.bottom = -hh;
  map.zoom = ZOOM.map.value; map.updateProjectionMatrix();
}
window.addEventListener('resize', resize);

// --- Policies: one set of managers per policy (profiles differ), sharing the LOD objects ---------
const REF_HEIGHT = 1080;
const PX = { bike: [80, 20], sector: [600, 150] };
const toHeight = (px: number[]): number[] => px.map((p) => p / REF_HEIGHT);
const toArea = (px: number[]): number[] => toHeight(px).map((h) => heightToArea(h, 16 / 9));
interface ManagedPolicy { managers: { manager: LodManager; options: LodUpdateOptions; usesBudget: boolean }[]; hint: string }
function makeManager(metric: 'distance' | 'pixels' | 'screenHeight' | 'screenArea', bikeT: number[], sectorT: number[], which: 'all' | 'bikes' | 'sectors'): LodManager {
  const m = new LodManager({ renderer, capacity: 64 });
  if (which !== 'sectors') bikes.forEach((l) => m.add(l, { metric, thresholds: bikeT }));
  if (which !== 'bikes') sectors.forEach((l) => m.add(l, { metric, thresholds: sectorT }));
  return m;
}
const policyCache = new Map<PolicyName, ManagedPolicy>();
function policy(name: PolicyName): ManagedPolicy {
  let p = policyCache.get(name);
  if (p !== undefined) return p;
  const th: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
  switch (name) {
    case 'distance': p = { managers: [{ manager: makeManager('distance', [30, 120], [150, 600], 'all'), options: th, usesBudget: false }], hint: 'Bikes 30 / 120 m, sectors 150 / 600 m from the eye. Blind to the lens: the telephoto shot draws big coarse bikes.' }; break;
    case 'pixels': p = { managers: [{ manager: makeManager('pixels', PX.bike, PX.sector, 'all'), options: th, usesBudget: false }], hint: 'Bikes 80 / 20 px, sectors 600 / 150 px tall on the canvas. Quality is constant, cost is not.' }; break;
    case 'screenHeight': p = { managers: [{ manager: makeManager('screenHeight', toHeight(PX.bike), toHeight(PX.sector), 'all'), options: th, usesBudget: false }], hint: 'Diameter ÷ view height (resolution independent): 80 / 20 px at 1080p.' }; break;
    case 'screenArea': p = { managers: [{ manager: makeManager('screenArea', toArea(PX.bike), toArea(PX.sector), 'all'), options: th, usesBudget: false }], hint: 'OpenUSD projected-sphere area ÷ window area, converted from 80 / 20 px at 16:9.' }; break;
    case 'rankQuota': p = { managers: [
      { manager: makeManager('pixels', PX.bike, PX.sector, 'bikes'), options: { policy: 'rankQuota', quotas: [4, 6] }, usesBudget: false },
      { manager: makeManager('pixels', PX.bike, PX.sector, 'sectors'), options: th, usesBudget: false },
    ], hint: 'MotoGP: the 4 closest bikes at LOD 0, the next 6 at LOD 1, the rest LOD 2 — flat cost, big coarse bikes on the telephoto.' }; break;
    case 'budget': p = { managers: [{ manager: makeManager('pixels', PX.bike, PX.sector, 'all'), options: { policy: 'budget', budget: 60_000 }, usesBudget: true }], hint: 'Most on-screen detail per triangle, never over the budget (multiple-choice knapsack).' }; break;
    default: p = { managers: [{ manager: makeManager('pixels', PX.bike, PX.sector, 'all'), options: { policy: 'hybrid', budget: 60_000, hysteresis: 0.1 }, usesBudget: true }], hint: 'Pixel thresholds first; coarsen where it costs least until the budget fits.' };
  }
  policyCache.set(name, p);
  return p;
}

// --- UI -----------------------------------------------------------------------------------------
let policyName: PolicyName = 'pixels';
let budget = 60_000;
let time = 0;
let paused = false;
let needsResync = true;
const panel = new LodStatsPanel($('panel-host'));
let debugHelper: LodDebugHelper | null = null;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const zoomInput = $<HTMLInputElement>('zoom');
const zoomLabel = zoomInput.parentElement!;

function syncZoomUi(): void {
  const z = cameraName === 'telephoto' ? ZOOM.telephoto : cameraName === 'map' ? ZOOM.map : null;
  zoomLabel.classList.toggle('disabled', z === null);
  zoomInput.disabled = z === null;
  if (z !== null) { zoomInput.min = String(z.min); zoomInput.max = String(z.max); zoomInput.value = String(z.value); }
  $('zoom-out').textContent = z === null ? '—' : `${z.value}×`;
  const fovEff = (2 * Math.atan(Math.tan((30 * Math.PI) / 360) / ZOOM.telephoto.value) * 180) / Math.PI;
  $('camera-hint').textContent = {
    chase: 'Behind bike 4, fovY 55°.',
    trackside: 'Fixed outside the last turn, fovY 40°, panning with the pack.',
    telephoto: `250 m past the main straight, effective fovY ${fovEff.toFixed(1)}° (zoom) — the seed's worst case.`,
    map: 'Orthographic top-down view: screen size is independent of distance.',
  }[cameraName];
}
function setCamera(name: CameraName): void {
  cameraName = name;
  const [a, b] = SHOTS[name];
  if (time < a || time >= b) time = a;
  document.querySelectorAll<HTMLButtonElement>('#cameras button').forEach((btn) => btn.classList.toggle('on', btn.dataset.camera === name));
  $('shot-name').textContent = { chase: 'chase', trackside: 'trackside wide', telephoto: 'TV telephoto', map: 'map (orthographic)' }[name];
  syncZoomUi();
  resize();
}
function setPolicy(name: PolicyName): void {
  policyName = name;
  needsResync = true;
  $('policy-hint').textContent = policy(name).hint;
  const usesBudget = policy(name).managers.some((m) => m.usesBudget);
  $('budget').parentElement!.classList.toggle('disabled', !usesBudget);
  if (debugHelper !== null) { scene.remove(debugHelper); debugHelper.dispose(); debugHelper = null; }
  if (($<HTMLInputElement>('debug')).checked) enableDebug();
}
function enableDebug(): void {
  debugHelper = new LodDebugHelper(policy(policyName).managers.map((m) => m.manager.set), 64);
  scene.add(debugHelper);
}
document.querySelectorAll<HTMLButtonElement>('#cameras button').forEach((btn) => btn.addEventListener('click', () => setCamera(btn.dataset.camera as CameraName)));
$<HTMLSelectElement>('policy').addEventListener('change', (e) => setPolicy((e.target as HTMLSelectElement).value as PolicyName));
zoomInput.addEventListener('input', () => {
  const z = cameraName === 'telephoto' ? ZOOM.telephoto : cameraName === 'map' ? ZOOM.map : null;
  if (z === null) return;
  z.value = Number(zoomInput.value);
  syncZoomUi();
  resize();
});
$<HTMLInputElement>('budget').addEventListener('input', (e) => {
  budget = Number((e.target as HTMLInputElement).value);
  $('budget-out').textContent = fmt(budget);
});
$<HTMLInputElement>('debug').addEventListener('change', (e) => {
  if ((e.target as HTMLInputElement).checked) enableDebug();
  else if (debugHelper !== null) { scene.remove(debugHelper); debugHelper.dispose(); debugHelper = null; }
});
$<HTMLInputElement>('fade').addEventListener('change', (e) => {
  const d = (e.target as HTMLInputElement).checked ? 0.3 : 0;
  for (const l of [...bikes, ...sectors]) l.fadeDuration = d;
});
$<HTMLInputElement>('pause').addEventListener('change', (e) => { paused = (e.target as HTMLInputElement).checked; });
$<HTMLInputElement>('time').addEventListener('input', (e) => {
  time = Number((e.target as HTMLInputElement).value);
  const [a, b] = SHOTS[cameraName];
  if (time < a || time >= b) setCamera(time < 9 ? 'chase' : time < 18 ? 'trackside' : 'telephoto');
});

// --- Forest scene -------------------------------------------------------------------------------
type SceneName = 'motogp' | 'forest';
let sceneName: SceneName = 'motogp';
let forest: Forest | null = null;
let forestBudget = 1_000_000;
// ?trees=N builds the forest with N trees instead of 1,000,000 (the quick e2e test uses a small one).
const forestTrees = Math.max(1, Math.floor(Number(new URLSearchParams(location.search).get('trees') ?? TREE_COUNT)) || TREE_COUNT);
const forestOptions: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
function setForestPolicy(name: string): void {
  forestOptions.policy = name === 'budget' ? 'budget' : name === 'hybrid' ? 'hybrid' : 'thresholds';
  $('forest-budget').parentElement!.classList.toggle('disabled', forestOptions.policy === 'thresholds');
}
function setScene(name: SceneName): void {
  sceneName = name;
  if (name === 'forest' && forest === null) { forest = createForest(renderer, forestTrees); resize(); }
  document.querySelectorAll<HTMLElement>('.motogp-only').forEach((e) => e.classList.toggle('hidden', name !== 'motogp'));
  $('forest-controls').classList.toggle('hidden', name !== 'forest');
  $('shot-name').textContent = name === 'forest' ? 'forest' : $('shot-name').textContent;
  $('scene-blurb').innerHTML = name === 'forest'
    ? `${forestTrees.toLocaleString('en-US')} trees in one <code>InstancedLOD</code>, 3 levels, shadows on, chosen by one <code>update()</code> per frame.`
    : 'MotoGP LOD lab — 20 bikes, 28 track sectors, 3 levels each, chosen by one <code>LodManager.update()</code> per frame.';
  if (name === 'motogp') setCamera(cameraName);
  $<HTMLSelectElement>('scene').value = name;
}
$<HTMLSelectElement>('scene').addEventListener('change', (e) => setScene((e.target as HTMLSelectElement).value as SceneName));
$<HTMLSelectElement>('forest-policy').addEventListener('change', (e) => setForestPolicy((e.target as HTMLSelectElement).value));
$<HTMLInputElement>('forest-budget').addEventListener('input', (e) => {
  forestBudget = Number((e.target as HTMLInputElement).value);
  $('forest-budget-out').textContent = fmt(forestBudget);
});
setForestPolicy('pixels');

// --- Frame loop ---------------------------------------------------------------------------------
const merged: LodFrameStats = { totalCost: 0, levelCounts: new Uint32Array(3), changes: 0, budgetMet: true, minimumCost: 0, invalid: 0, hidden: 0 };
let last = performance.now();
let frames = 0;
let frameMs = 0;
let fpsStart = performance.now(), fpsFrames = 0, lodkitMs = 0;
/** Real frame rate: frames presented over the last full second. */
function countFps(now: number, selectMs: number): void {
  fpsFrames++;
  lodkitMs += (selectMs - lodkitMs) * 0.2;
  if (now - fpsStart >= 1000) {
    $('fps').textContent = (fpsFrames * 1000 / (now - fpsStart)).toFixed(1);
    fpsStart = now; fpsFrames = 0;
  }
  $('lodkit-ms').textContent = `${lodkitMs.toFixed(1)} ms`;
}
let forestTime = 0;
const forestStats = { totalCost: 0, minimumCost: 0, budgetMet: true };
function forestFrame(now: number, dt: number): void {
  if (!paused) forestTime += dt;
  const t0 = performance.now();
  if (forestOptions.policy !== 'thresholds') forestOptions.budget = forestBudget;
  else delete forestOptions.budget;
  const stats = forest!.update(forestTime, forestOptions);
  forestStats.totalCost = stats.totalCost; forestStats.minimumCost = stats.minimumCost; forestStats.budgetMet = stats.budgetMet;
  const selectMs = performance.now() - t0;
  renderer.render(forest!.scene, forest!.camera);
  frames++;
  countFps(now, selectMs);
  frameMs += ((performance.now() - now) - frameMs) * 0.1;
  $('triangle-count').textContent = fmt(stats.totalCost);
  $('triangles-side').textContent = fmt(stats.totalCost);
  $('rendered-triangles').textContent = fmt(renderer.info.render.triangles);
  $('budget-hud').textContent = forestOptions.policy !== 'thresholds' ? `budget ${fmt(forestBudget)} · ${stats.budgetMet ? 'met' : 'over'} · shadow casters ${fmt(forest!.trees.shadowMesh.count)}` : `shadow casters ${fmt(forest!.trees.shadowMesh.count)}`;
  $('frame-ms').textContent = `${frameMs.toFixed(1)} ms`;
  panel.update(stats, { ...(forestOptions.policy !== 'thresholds' ? { budget: forestBudget } : {}), selectMs });
  document.body.dataset.frames = String(frames);
  requestAnimationFrame(frame);
}
function frame(now: number): void {
  const dt = Math.min(0.1, (now - last) / 1000);
  last = now;
  if (sceneName === 'forest') { forestFrame(now, dt); return; }
  if (!paused) {
    time += dt;
    const [a, b] = SHOTS[cameraName];
    if (time >= b) time = a + ((time - a) % (b - a));
  }
  placeBikes(time);
  aimCamera(time);
  const camera = activeCamera();
  const t0 = performance.now();
  const p = policy(policyName);
  merged.totalCost = 0; merged.changes = 0; merged.budgetMet = true; merged.minimumCost = 0; merged.hidden = 0; merged.levelCounts.fill(0);
  for (const { manager, options, usesBudget } of p.managers) {
    // Rank quotas split bikes and sectors over two managers: refresh only the bikes this one holds.
    for (const bike of bikes) if (manager.idFor(bike) >= 0) manager.refresh(bike);
    if (usesBudget) options.budget = budget;
    const stats = manager.update(camera, options);
    if (needsResync) manager.resync();
    merged.totalCost += stats.totalCost; merged.changes += stats.changes; merged.minimumCost += stats.minimumCost; merged.hidden += stats.hidden;
    merged.budgetMet &&= stats.budgetMet;
    for (let l = 0; l < 3; l++) merged.levelCounts[l] += stats.levelCounts[l];
  }
  needsResync = false;
  const selectMs = performance.now() - t0;
  if (debugHelper !== null) debugHelper.update();
  renderer.render(scene, camera);
  frames++;
  countFps(now, selectMs);
  frameMs += ((performance.now() - now) - frameMs) * 0.1;
  const usesBudget = p.managers.some((m) => m.usesBudget);
  $('triangle-count').textContent = fmt(merged.totalCost);
  $('triangles-side').textContent = fmt(merged.totalCost);
  $('rendered-triangles').textContent = fmt(renderer.info.render.triangles);
  $('budget-hud').textContent = usesBudget ? `budget ${fmt(budget)} · ${merged.budgetMet ? 'met' : 'over'}` : '';
  $('frame-ms').textContent = `${frameMs.toFixed(1)} ms`;
  $('race-time').textContent = `${time.toFixed(1)} s`;
  $('time-out').textContent = `${time.toFixed(1)} s`;
  $<HTMLInputElement>('time').value = String(time);
  panel.update(merged, { ...(usesBudget ? { budget } : {}), selectMs });
  document.body.dataset.frames = String(frames);
  requestAnimationFrame(frame);
}

resize();
setCamera('chase');
setPolicy('pixels');
$('budget-out').textContent = fmt(budget);
// ?scene=forest&forestPolicy=budget&forestBudget=150000 opens the forest directly (used by the e2e
// tests: software WebGL needs ~15 s for a frame of the default ~850k-triangle view; add &trees=N
// for a smaller forest).
const query = new URLSearchParams(location.search);
if (query.get('scene') === 'forest') {
  const fp = query.get('forestPolicy'), fb = Number(query.get('forestBudget'));
  if (fp !== null) { $<HTMLSelectElement>('forest-policy').value = fp; setForestPolicy(fp); }
  if (fb > 0) { forestBudget = fb; $<HTMLInputElement>('forest-budget').value = String(fb); $('forest-budget-out').textContent = fmt(fb); }
  setScene('forest');
}
void LAP;
requestAnimationFrame(frame);
// Handle for debugging in the console and for end-to-end tests.
(window as unknown as { lodkitDemo: object }).lodkitDemo = { scene, bikes, sectors, renderer, ground, policy: () => policy(policyName), forest: () => forest, forestStats };
