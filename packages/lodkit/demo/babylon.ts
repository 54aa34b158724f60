/**
 * The Babylon.js demo page (babylon.html): a WebGL2 `Engine`, 315 spheres with three coloured
 * levels switched by one `BabylonLodManager` (pixels policy), and a 4,000-tree thin-instance forest
 * by `BabylonThinInstanceLod` on the same manager. The camera dollies in and out; `window.lodkitBabylon`
 * pins its distance and reports the levels (used by test/e2e/babylonDemo.test.ts).
 */
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js';
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import { BabylonLodManager, BabylonThinInstanceLod } from '../src/adapters/babylon/index.js';

/** Level colours (the footer's swatches): green, blue, red. */
const LEVEL_COLORS = ['#35d07f', '#4c8df2', '#eb5757'] as const;
const GRID_X = 10, GRID_Z = 7, SPACING = 4, TREES = 4000;

const canvas = document.getElementById('view') as HTMLCanvasElement;
const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: false });
const scene = new Scene(engine);
scene.clearColor = new Color4(0.06, 0.07, 0.09, 1);
scene.skipPointerMovePicking = true;

// Looks at the centre sphere (the origin) from above, so the canvas centre shows that sphere.
const camera = new ArcRotateCamera('camera', -Math.PI / 2, 0.95, 30, Vector3.Zero(), scene);
camera.minZ = 0.1; camera.maxZ = 2000; camera.lowerRadiusLimit = 4; camera.upperRadiusLimit = 400;
camera.attachControl(canvas, true);

const materials = LEVEL_COLORS.map((hex, i) => {
  const m = new StandardMaterial(`level${i}`, scene);
  m.disableLighting = true;
  m.emissiveColor = Color3.FromHexString(hex);
  m.freeze();
  return m;
});
const treeMaterials = LEVEL_COLORS.map((hex, i) => {
  const m = new StandardMaterial(`tree${i}`, scene);
  m.disableLighting = true;
  m.emissiveColor = Color3.FromHexString(hex).scale(0.7);
  m.freeze();
  return m;
});

const manager = new BabylonLodManager(scene);

// The spheres: level 0 has 32 segments, level 1 8, level 2 3; each level in its colour.
const handles: number[] = [];
let centre = -1;
const SEGMENTS = [32, 8, 3];
for (let x = -GRID_X; x <= GRID_X; x++) {
  for (let z = -GRID_Z; z <= GRID_Z; z++) {
    const levels = SEGMENTS.map((segments, l) => {
      const m = CreateSphere(`s${x},${z}/${l}`, { diameter: 2, segments }, scene);
      m.position.set(x * SPACING, 0, z * SPACING);
      m.material = materials[l];
      m.isPickable = false;
      return m;
    });
    const h = manager.add(levels, { metric: 'pixels', thresholds: [80, 25] });
    handles.push(h);
    if (x === 0 && z === 0) centre = h;
  }
}

// The forest: cones in a ring 70–220 m from the centre, one thin-instance mesh per level.
const treeLevels: Mesh[] = [24, 8, 3].map((tessellation, l) => {
  const m = CreateCylinder(`tree${l}`, { height: 6, diameterTop: 0, diameterBottom: 2.4, tessellation }, scene);
  m.material = treeMaterials[l];
  m.isPickable = false;
  return m;
});
const forest = new BabylonThinInstanceLod(manager, treeLevels, { metric: 'pixels', thresholds: [60, 15], capacity: TREES });
let seed = 2026;
const rand = (): number => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
for (let i = 0; i < TREES; i++) {
  const a = rand() * Math.PI * 2, r = 70 + rand() * 150, s = 0.6 + rand() * 0.9;
  forest.add(Matrix.Scaling(s, s, s).multiply(Matrix.Translation(Math.cos(a) * r, 3 * s, Math.sin(a) * r)).m);
}

// Controls and stats.
const slider = document.getElementById('distance') as HTMLInputElement;
const sliderOut = document.getElementById('distance-out')!;
const auto = document.getElementById('auto') as HTMLInputElement;
const levelStats = document.getElementById('level-stats')!;
const thinStats = document.getElementById('thin-stats')!;
const lodkitMs = document.getElementById('lodkit-ms')!;
const changed = document.getElementById('changed')!;
document.getElementById('webgl')!.textContent = String(engine.webGLVersion);

function setDistance(d: number): void {
  camera.radius = d;
  slider.value = String(Math.round(d));
  sliderOut.textContent = `${Math.round(d)} m`;
}
slider.addEventListener('input', () => { auto.checked = false; setDistance(Number(slider.value)); });

/** Spheres per level (index 3: culled or hidden). */
function meshLevels(): number[] {
  const out = [0, 0, 0, 0];
  for (const h of handles) { const l = manager.set.levels[h]; out[l < 3 ? l : 3]++; }
  return out;
}

let cpu = 0;
const before = scene.onBeforeRenderObservable;
let t0 = 0;
// The manager's own observer was added first; these two bracket it (lodkit CPU per frame).
before.add(() => { t0 = performance.now(); }, -1, true);
before.add(() => { cpu = performance.now() - t0; });

let time = 0, frames = 0;
engine.runRenderLoop(() => {
  const dt = Math.min(engine.getDeltaTime(), 100) / 1000;
  if (auto.checked) { time += dt; setDistance(10 + 170 * (0.5 - 0.5 * Math.cos(time * 0.25))); camera.alpha += dt * 0.05; }
  scene.render();
  frames++;
  document.body.dataset.frames = String(frames);
  if (frames % 5 === 1) {
    const m = meshLevels();
    levelStats.textContent = `spheres: ${m[0]} · ${m[1]} · ${m[2]} (LOD 0 · 1 · 2), ${m[3]} culled`;
    thinStats.textContent = `trees: ${forest.countOf(0)} · ${forest.countOf(1)} · ${forest.countOf(2)} thin instances`;
    lodkitMs.textContent = `${cpu.toFixed(2)} ms`;
    changed.textContent = String(manager.touched);
  }
});
window.addEventListener('resize', () => engine.resize());

/** Test and console hook: pin the camera distance, read the levels. */
(window as unknown as { lodkitBabylon: unknown }).lodkitBabylon = {
  setDistance(d: number): void { auto.checked = false; setDistance(d); },
  state: () => ({
    webgl: engine.webGLVersion, distance: camera.radius, frames, centreLevel: manager.set.levels[centre],
    meshLevels: meshLevels(), thinLevels: [0, 1, 2].map((l) => forest.countOf(l)), objects: manager.count,
  }),
  manager, forest, scene,
};
