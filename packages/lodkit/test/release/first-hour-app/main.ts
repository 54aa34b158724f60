/**
 * The "first hour" app of issue 29 (test/release/firstHour.full.test.ts copies this folder into a
 * fresh project that installs the packed tarballs, type-checks it with strict TypeScript 5.9 and
 * builds it with Vite). Written only from the built docs: README.md, docs/three.md, docs/gltf.md
 * and docs/defaults.md; each part names the snippet it comes from. Default options everywhere
 * except what a snippet itself sets (metric, thresholds, renderer).
 *
 * Scene: three objects in a row at z = 0 seen by a camera on +z looking down −z, every level in
 * its own unlit colour so a screenshot tells the levels apart:
 *  - left (x = −3): a ScreenSizeLOD of three spheres (README "three.js", 80 / 20 px);
 *  - centre (x = 0): `public/out.glb`, written by the packed CLI's `lodkit gltf lod model.glb
 *    public/out.glb` (defaults) and loaded with GLTFLoader + MSFTLodLoaderPlugin (docs/three.md);
 *  - right, on the floor: an InstancedLOD of 300 small spheres in rows going away from the camera
 *    (docs/three.md "Many instances").
 * Hooks for the test: `window.setDistance(d)` moves the camera to z = d (and waits for two
 * rendered frames), `window.levels()` reports the levels drawn.
 */
import {
  Color, IcosahedronGeometry, Matrix4, Mesh, MeshBasicMaterial, PerspectiveCamera, Scene, SphereGeometry, Vector3, WebGLRenderer,
  type Camera, type Object3D,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { InstancedLOD, MSFTLodLoaderPlugin, ScreenSizeLOD } from 'lodkit/three';

// Level colours, finest first (unlit, so the screenshot shows them exactly), and the canvas size.
import { GLTF_COLOURS, HEIGHT, INSTANCED_COLOURS, SCREEN_SIZE_COLOURS, WIDTH } from './colours.js';

export interface Levels {
  /** ScreenSizeLOD.getCurrentLevel(). */
  screenSize: number;
  /** Instances drawn per level of the InstancedLOD (`levelMeshes[l].count`). */
  instanced: number[];
  /** The glTF LOD's current level (−1 when the file gave no ScreenSizeLOD). */
  gltf: number;
  /** Levels of the glTF LOD, groups and warnings of the plugin. */
  gltfLevels: number; gltfGroups: number; gltfWarnings: string[];
  /** Pixel (x, y from the top left) of the centres of the ScreenSizeLOD and the glTF model. */
  screenSizePixel: [number, number]; gltfPixel: [number, number];
  /** Frames the adapters skipped (no viewport / unusable camera). */
  skipped: number;
}

declare global {
  interface Window {
    setDistance(d: number): Promise<void>;
    levels(): Levels;
  }
}

// Page set-up (ours, not from the docs). preserveDrawingBuffer keeps the last frame for screenshots.
const renderer = new WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(WIDTH, HEIGHT);
document.body.appendChild(renderer.domElement);
const scene = new Scene();
scene.background = new Color('#000000');
const camera = new PerspectiveCamera(50, WIDTH / HEIGHT, 0.1, 1000);
camera.position.set(0, 0, 5);
camera.lookAt(0, 0, 0);

const basic = (hex: string): MeshBasicMaterial => new MeshBasicMaterial({ color: hex });

// --- README.md "three.js", the "After" snippet (docs/three.md "Migrating from THREE.LOD" is the same).
// Our level meshes: unit spheres of falling detail, one colour per level.
const bikeHigh = new Mesh(new SphereGeometry(1, 48, 24), basic(SCREEN_SIZE_COLOURS[0]));
const bikeMedium = new Mesh(new SphereGeometry(1, 16, 8), basic(SCREEN_SIZE_COLOURS[1]));
const bikeLow = new Mesh(new SphereGeometry(1, 6, 4), basic(SCREEN_SIZE_COLOURS[2]));
const lod = new ScreenSizeLOD({ metric: 'pixels', renderer }); // the default metric is 'distance', as THREE.LOD's
lod.addLevel(bikeHigh, 80);         // drawn while taller than 80 px
lod.addLevel(bikeMedium, 20, 0.1);  // 80 … 20 px, ±10 % hysteresis around 20 px
lod.addLevel(bikeLow);              // below 20 px
lod.position.set(-3, 0, 0);         // (ours: its place in the row)
scene.add(lod);                     // updated by WebGLRenderer every frame, like THREE.LOD

// --- docs/three.md "Many instances: InstancedLOD" (three levels; the README's snippet has two).
// Thresholds are ours, for instances 0.5 units across: 40 / 12 px (the snippet's 90 / 22 px
// would need the camera within 3 units of an instance for level 0).
const instanceMaterials = INSTANCED_COLOURS.map(basic);
const forest = new InstancedLOD({
  levels: [
    { geometry: new IcosahedronGeometry(0.25, 3), material: instanceMaterials[0] },
    { geometry: new IcosahedronGeometry(0.25, 1), material: instanceMaterials[1] },
    { geometry: new IcosahedronGeometry(0.25, 0), material: instanceMaterials[2] },
  ],
  metric: 'pixels', thresholds: [40, 12], renderer,   // 'pixels' is the default; written out as docs/defaults.md asks
});
const COLUMNS = 5, ROWS = 60;
const matrices = new Float32Array(COLUMNS * ROWS * 16);
const m = new Matrix4();
for (let row = 0; row < ROWS; row++) {
  for (let column = 0; column < COLUMNS; column++) {
    m.makeTranslation(1.5 + column * 0.75, -1.5, -row * 0.6).toArray(matrices, (row * COLUMNS + column) * 16);
  }
}
forest.addInstances(matrices);  // 16 numbers per instance (Matrix4.elements order)
scene.add(forest);

// --- docs/three.md "Loading MSFT_lod glTF files" (the README's one-liner is the same registration).
let gltfLod: ScreenSizeLOD | undefined;
let lodPlugin: MSFTLodLoaderPlugin | undefined;
async function loadModel(): Promise<void> {
  const loader = new GLTFLoader().register((parser) => (lodPlugin = new MSFTLodLoaderPlugin(parser, { coverage: 'area' })));
  const gltf = await loader.loadAsync('./out.glb');
  scene.add(gltf.scene);              // the renderer updates each ScreenSizeLOD
  console.log(lodPlugin!.groups, lodPlugin!.warnings);
  // Ours: find the LOD the plugin built ("every node with MSFT_lod arrives as a ScreenSizeLOD") and
  // give each level its own colour. docs/three.md: "Material MSFT_lod is not applied, so level 0's
  // materials are used": every level would look the same, so we swap materials after the load.
  gltf.scene.traverse((object: Object3D) => { if (gltfLod === undefined && object instanceof ScreenSizeLOD) gltfLod = object; });
  gltfLod?.levels.forEach((level, i) => {
    const material = basic(GLTF_COLOURS[i % GLTF_COLOURS.length]);
    level.object.traverse((o: Object3D) => { if (o instanceof Mesh) o.material = material; });
  });
}

// --- README.md / docs/three.md: InstancedLOD is updated by the app, ScreenSizeLODs by the renderer.
const frameWaiters: (() => void)[] = [];
renderer.setAnimationLoop(() => {
  forest.update(camera);              // thresholds policy, the default (docs/defaults.md)
  renderer.render(scene, camera);
  frameWaiters.splice(0).forEach((resolve) => resolve());
});

const nextFrame = (): Promise<void> => new Promise((resolve) => frameWaiters.push(resolve));
const projected = new Vector3();
function pixelOf(object: Object3D, view: Camera): [number, number] {
  projected.setFromMatrixPosition(object.matrixWorld).project(view);
  return [Math.round((projected.x + 1) / 2 * WIDTH), Math.round((1 - projected.y) / 2 * HEIGHT)];
}

window.setDistance = async (d: number): Promise<void> => {
  camera.position.set(0, 0, d);
  camera.lookAt(0, 0, 0);
  await nextFrame();
  await nextFrame();
};

window.levels = (): Levels => ({
  screenSize: lod.getCurrentLevel(),
  instanced: forest.levelMeshes.map((mesh) => mesh.count),
  gltf: gltfLod?.getCurrentLevel() ?? -1,
  gltfLevels: gltfLod?.levels.length ?? 0,
  gltfGroups: lodPlugin?.groups.length ?? 0,
  gltfWarnings: (lodPlugin?.warnings ?? []).map((w) => JSON.stringify(w)),
  screenSizePixel: pixelOf(lod, camera),
  gltfPixel: gltfLod === undefined ? [-1, -1] : pixelOf(gltfLod, camera),
  skipped: lod.skippedUpdates + forest.skippedFrames + (gltfLod?.skippedUpdates ?? 0),
});

loadModel().then(
  async () => { await nextFrame(); document.body.dataset.ready = '1'; },
  (error: unknown) => { console.error('loading out.glb failed', error); document.body.dataset.ready = 'error'; },
);
