/**
 * The demo's forest scene: 1,000,000 trees in one `InstancedLOD` (three levels: ~230, ~40 and 6
 * triangles), a sun with shadows that follows the camera, per-tree colours, and a camera flying
 * over the canopy. Levels come from lodkit's pixel thresholds or from a triangle budget.
 */
import {
  BufferGeometry, Color, ConeGeometry, CylinderGeometry, DirectionalLight, Float32BufferAttribute, Fog, HemisphereLight,
  Matrix4, Mesh, MeshLambertMaterial, PerspectiveCamera, PlaneGeometry, Quaternion, Scene, Vector3, type WebGLRenderer,
} from 'three';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import type { LodFrameStats, LodUpdateOptions } from '../src/batch/lodSet.js';
import { InstancedLOD } from '../src/adapters/three/index.js';

export const TREE_COUNT = 1_000_000;
const SIDE = 4000; // metres; 4 m between trees on average

function paint(g: BufferGeometry, hex: string): BufferGeometry {
  const c = new Color(hex), n = g.getAttribute('position').count, a = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) { a[i * 3] = c.r; a[i * 3 + 1] = c.g; a[i * 3 + 2] = c.b; }
  g.setAttribute('color', new Float32BufferAttribute(a, 3));
  return g;
}

/** A tree at one of three levels: trunk + stacked cones (finest), trunk + one cone, a bare pyramid. */
function treeGeometry(level: 0 | 1 | 2): BufferGeometry {
  const parts: BufferGeometry[] = [];
  if (level === 0) {
    parts.push(paint(new CylinderGeometry(0.25, 0.35, 3, 8, 1).translate(0, 1.5, 0), '#6b4a2b'));
    [[2.4, 4, 3.5], [1.9, 3.4, 5.6], [1.3, 2.8, 7.4]].forEach(([r, h, y]) => parts.push(paint(new ConeGeometry(r, h, 16, 2).translate(0, y, 0), '#ffffff')));
  } else if (level === 1) {
    parts.push(paint(new CylinderGeometry(0.3, 0.3, 2.5, 5, 1, true).translate(0, 1.25, 0), '#6b4a2b'));
    parts.push(paint(new ConeGeometry(2.3, 7, 8, 1).translate(0, 5, 0), '#ffffff'));
  } else {
    parts.push(paint(new ConeGeometry(2.2, 9, 4, 1, true).translate(0, 4.5, 0), '#ffffff'));
  }
  const g = mergeGeometries(parts.map((p) => p.toNonIndexed()))!;
  g.computeBoundingSphere();
  return g;
}

export interface Forest {
  scene: Scene;
  camera: PerspectiveCamera;
  trees: InstancedLOD;
  /** Moves the camera (time in seconds) and runs lodkit; returns the frame stats. */
  update(time: number, options: LodUpdateOptions): LodFrameStats;
  resize(aspect: number): void;
}

/** Builds the forest of `count` trees (≈ 1 s for the default million matrices and colours). */
export function createForest(renderer: WebGLRenderer, count = TREE_COUNT): Forest {
  const scene = new Scene();
  scene.background = new Color('#a9c8e8');
  scene.fog = new Fog('#a9c8e8', 300, 1300);
  scene.add(new HemisphereLight('#e8f2ff', '#3b4a2a', 1.3));
  const sun = new DirectionalLight('#fff1d6', 2.4);
  sun.castShadow = true;
  sun.shadow.mapSize.set(2048, 2048);
  Object.assign(sun.shadow.camera, { left: -160, right: 160, top: 160, bottom: -160, near: 1, far: 900 });
  sun.shadow.camera.updateProjectionMatrix();
  sun.shadow.bias = -0.0005;
  scene.add(sun, sun.target);
  const ground = new Mesh(new PlaneGeometry(SIDE + 400, SIDE + 400, 64, 64), new MeshLambertMaterial({ color: '#4d6b35' }));
  ground.rotation.x = -Math.PI / 2;
  ground.receiveShadow = true;
  scene.add(ground);

  const material = new MeshLambertMaterial({ vertexColors: true });
  const trees = new InstancedLOD({
    levels: [treeGeometry(0), treeGeometry(1), treeGeometry(2)].map((geometry) => ({ geometry, material })),
    metric: 'pixels', thresholds: [90, 22], renderer, shadowLight: sun, capacity: count,
  });
  trees.castShadow = true;
  trees.receiveShadow = true;
  // Seeded layout: a jittered grid (4 m at the default million trees), random yaw and 0.7–1.4× scale.
  let seed = 20260;
  const rand = (): number => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
  const side = Math.round(Math.sqrt(count)), step = SIDE / side;
  const matrices = new Float32Array(count * 16);
  const m = new Matrix4(), q = new Quaternion(), p = new Vector3(), s = new Vector3(), up = new Vector3(0, 1, 0);
  for (let i = 0; i < count; i++) {
    p.set((i % side) * step - SIDE / 2 + rand() * step, 0, Math.floor(i / side) * step - SIDE / 2 + rand() * step);
    const k = 0.7 + rand() * 0.7;
    m.compose(p, q.setFromAxisAngle(up, rand() * Math.PI * 2), s.set(k, k * (0.85 + rand() * 0.3), k)).toArray(matrices, i * 16);
  }
  const first = trees.addInstances(matrices);
  const c = new Color();
  for (let i = 0; i < count; i++) trees.setColorAt(first + i, c.setHSL(0.22 + rand() * 0.12, 0.45 + rand() * 0.3, 0.28 + rand() * 0.14));
  scene.add(trees);

  // Far plane at the end of the fog: nothing beyond it is visible, so lodkit culls it.
  const camera = new PerspectiveCamera(60, 1, 0.5, 1300);
  const target = new Vector3();
  return {
    scene, camera, trees,
    update(time: number, options: LodUpdateOptions): LodFrameStats {
      // A slow loop over the forest at canopy height, looking ahead and slightly down.
      const a = time * 0.03;
      camera.position.set(Math.cos(a) * 900, 28 + Math.sin(time * 0.2) * 6, Math.sin(a) * 900);
      target.set(Math.cos(a + 0.08) * 900, 4, Math.sin(a + 0.08) * 900);
      camera.lookAt(target);
      camera.updateMatrixWorld(true);
      // The sun follows the camera in 40 m steps, so its shadow frustum (and lodkit's caster pass) changes rarely.
      const sx = Math.round(target.x / 40) * 40, sz = Math.round(target.z / 40) * 40;
      sun.target.position.set(sx, 0, sz);
      sun.position.set(sx + 200, 400, sz + 120);
      return trees.update(camera, options);
    },
    resize(aspect: number): void { camera.aspect = aspect; camera.updateProjectionMatrix(); },
  };
}
