/**
 * BabylonLodManager in Babylon's NullEngine: along a camera path, every object enables exactly the
 * level of the rule computed here from Babylon's camera parameters (expected.ts), in left- and
 * right-handed scenes, perspective (vertical and horizontal fovMode) and orthographic (asymmetric
 * extents), for each metric, with two active cameras, and under the budget policy.
 */
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { Camera } from '@babylonjs/core/Cameras/camera.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Viewport } from '@babylonjs/core/Maths/math.viewport.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import { CreatePlane } from '@babylonjs/core/Meshes/Builders/planeBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BabylonLodManager } from '../../../src/adapters/babylon/index.js';
import { lcg } from '../../helpers/random.js';
import { levelFor, sizeOf, type CameraModel, type Metric } from './expected.js';

const W = 960, H = 540;
let engine: NullEngine;
beforeAll(() => {
  Logger.LogLevels = Logger.NoneLogLevel;
  engine = new NullEngine({ renderWidth: W, renderHeight: H, textureSize: 256, deterministicLockstep: false, lockstepMaxSteps: 1 });
});
afterAll(() => engine.dispose());

interface Obj { levels: (Mesh | null)[]; center: number[]; radius: number; handle: number }

/** Boxes of size 2 scaled by s (bounding sphere radius √3·s) with 3 levels and a culling level, spread in front of the path. */
function populate(scene: Scene, manager: BabylonLodManager, metric: Metric, thresholds: number[], count: number, seed: number): Obj[] {
  const rand = lcg(seed);
  const out: Obj[] = [];
  for (let i = 0; i < count; i++) {
    const center = [(rand() - 0.5) * 120, (rand() - 0.5) * 30, 5 + rand() * 250];
    const s = 0.3 + 2.7 * rand();
    const levels = [0, 1, 2].map((l) => {
      // Level 0 a box (12 triangles, Babylon's sphere radius √3), the coarser levels quads (2).
      const b = l === 0 ? CreateBox(`b${i}-${l}`, { size: 2 }, scene) : CreatePlane(`b${i}-${l}`, { size: 2 }, scene);
      b.position.set(center[0], center[1], center[2]);
      b.scaling.set(s, s, s);
      return b;
    });
    const handle = manager.add([...levels, null], { metric, thresholds });
    out.push({ levels: [...levels, null], center, radius: R * s, handle });
  }
  return out;
}

function enabledLevel(o: Obj): number {
  const on = o.levels.map((m) => m !== null && m.isEnabled(false));
  const n = on.filter(Boolean).length;
  return n === 0 ? 255 : n === 1 ? on.indexOf(true) : -1;
}

interface Case { name: string; rightHanded: boolean; ortho?: CameraModel['ortho']; horizontal?: boolean; metric: Metric; thresholds: number[] }

const R = Math.sqrt(3);
const CASES: Case[] = [
  { name: 'LH perspective vertical, pixels', rightHanded: false, metric: 'pixels', thresholds: [120, 40, 12] },
  { name: 'RH perspective vertical, pixels', rightHanded: true, metric: 'pixels', thresholds: [120, 40, 12] },
  { name: 'LH perspective horizontal, screenHeight', rightHanded: false, horizontal: true, metric: 'screenHeight', thresholds: [0.2, 0.07, 0.02] },
  { name: 'RH perspective horizontal, screenArea', rightHanded: true, horizontal: true, metric: 'screenArea', thresholds: [0.01, 0.001, 0.0001] },
  { name: 'LH orthographic asymmetric, pixels', rightHanded: false, ortho: { left: -10, right: 50, bottom: -8, top: 20 }, metric: 'pixels', thresholds: [60, 40, 30] },
  { name: 'RH orthographic asymmetric, screenArea', rightHanded: true, ortho: { left: -50, right: 10, bottom: -20, top: 8 }, metric: 'screenArea', thresholds: [0.01, 0.005, 0.003] },
  { name: 'RH perspective, distance', rightHanded: true, metric: 'distance', thresholds: [30, 80, 160] },
];

function makeCamera(scene: Scene, c: Case, name = 'cam'): FreeCamera {
  const camera = new FreeCamera(name, new Vector3(0, 0, 0), scene);
  camera.fov = 0.9; camera.minZ = 0.5; camera.maxZ = 400;
  if (c.horizontal) camera.fovMode = Camera.FOVMODE_HORIZONTAL_FIXED;
  if (c.ortho) {
    camera.mode = Camera.ORTHOGRAPHIC_CAMERA;
    camera.orthoLeft = c.ortho.left; camera.orthoRight = c.ortho.right; camera.orthoBottom = c.ortho.bottom; camera.orthoTop = c.ortho.top;
  }
  return camera;
}

function model(c: Case, camera: FreeCamera, target: number[], width = W, height = H): CameraModel {
  const p = camera.position;
  return { eye: [p.x, p.y, p.z], target, rightHanded: c.rightHanded, ortho: c.ortho, fov: 0.9, horizontal: c.horizontal, width, height, near: 0.5, far: 400 };
}

/** The expected level from the largest size over the views (smallest distance), null when too close to call. */
function expectedLevel(models: CameraModel[], c: Case, center: number[], radius: number): number | null {
  let best: number | null = c.metric === 'distance' ? Infinity : 0;
  let anyIn = false;
  for (const m of models) {
    const s = sizeOf(m, c.metric, center, radius);
    if (s === null) return null;
    if (s === 'culled') continue;
    anyIn = true;
    best = c.metric === 'distance' ? Math.min(best!, s) : Math.max(best!, s);
  }
  if (!anyIn) return 255;
  return levelFor(c.metric, c.thresholds, best!);
}

describe('BabylonLodManager', () => {
  for (const c of CASES) {
    it(`${c.name}: every object enables the level of the independent rule along a camera path`, () => {
      const scene = new Scene(engine);
      scene.useRightHandedSystem = c.rightHanded;
      const camera = makeCamera(scene, c);
      const manager = new BabylonLodManager(scene, { update: { policy: 'thresholds', cull: c.metric !== 'distance' } });
      const objs = populate(scene, manager, c.metric, c.thresholds, 150, 11);
      let checked = 0;
      const seen = new Set<number>();
      for (let step = 0; step < 24; step++) {
        const t = step / 23;
        camera.position.set(-20 + 40 * t, 3 + 4 * Math.sin(t * 5), -60 + 200 * t);
        const target = [10 * Math.cos(t * 3), 0, camera.position.z + 50];
        camera.setTarget(new Vector3(target[0], target[1], target[2]));
        scene.render();
        const m = model(c, camera, target);
        for (const o of objs) {
          const want = expectedLevel([m], c, o.center, o.radius);
          if (want === null) continue;
          expect(enabledLevel(o), `step ${step}, object at ${o.center.map((v) => v.toFixed(1))}`).toBe(want === 3 ? 255 : want);
          seen.add(want);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(24 * 150 * 0.9);
      expect(seen.size, `levels seen: ${[...seen]}`).toBeGreaterThanOrEqual(3);
      manager.dispose();
      scene.dispose();
    });
  }

  it('two activeCameras (split screen) are two views: the larger size wins, pixels per viewport height', () => {
    const c: Case = { name: 'split', rightHanded: false, metric: 'pixels', thresholds: [120, 40, 12] };
    const scene = new Scene(engine);
    const left = makeCamera(scene, c, 'left'), right = makeCamera(scene, c, 'right');
    left.viewport = new Viewport(0, 0, 0.5, 1); right.viewport = new Viewport(0.5, 0.3, 0.5, 0.7);
    scene.activeCameras = [left, right];
    const manager = new BabylonLodManager(scene);
    const objs = populate(scene, manager, c.metric, c.thresholds, 120, 5);
    let checked = 0;
    for (let step = 0; step < 10; step++) {
      left.position.set(-30, 2, -40 + 15 * step); right.position.set(30, 5, 100 - 10 * step);
      const tl = [0, 0, left.position.z + 80], tr = [0, 0, right.position.z - 80];
      left.setTarget(new Vector3(tl[0], tl[1], tl[2])); right.setTarget(new Vector3(tr[0], tr[1], tr[2]));
      scene.render();
      const models = [model(c, left, tl, W * 0.5, H), model(c, right, tr, W * 0.5, H * 0.7)];
      for (const o of objs) {
        const want = expectedLevel(models, c, o.center, o.radius);
        if (want === null) continue;
        expect(enabledLevel(o)).toBe(want === 3 ? 255 : want);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
    scene.dispose();
  });

  it('budget policy: drawn triangles stay within the budget, each enabled level is the set\'s level', () => {
    const c: Case = { name: 'budget', rightHanded: true, metric: 'pixels', thresholds: [120, 40, 12] };
    const scene = new Scene(engine);
    scene.useRightHandedSystem = true;
    const camera = makeCamera(scene, c);
    camera.position.set(0, 5, -80);
    camera.setTarget(new Vector3(0, 0, 100));
    const manager = new BabylonLodManager(scene, { update: { policy: 'budget', budget: 400 } });
    const objs = populate(scene, manager, c.metric, c.thresholds, 100, 3);
    scene.render();
    const drawn = objs.reduce((sum, o) => { const l = enabledLevel(o); return sum + (l === 255 ? 0 : o.levels[l]!.getTotalIndices() / 3); }, 0);
    expect(drawn).toBeLessThanOrEqual(400);
    expect(drawn).toBe(manager.lastStats.totalCost);
    for (const o of objs) expect(enabledLevel(o)).toBe(manager.levelOf(o.handle) === 3 ? 255 : manager.levelOf(o.handle));
    scene.dispose();
  });

  it('refresh re-reads a moved object\'s sphere; an explicit sphere replaces it', () => {
    const c: Case = { name: 'refresh', rightHanded: false, metric: 'pixels', thresholds: [120, 40, 12] };
    const scene = new Scene(engine);
    const camera = makeCamera(scene, c);
    camera.setTarget(new Vector3(0, 0, 10));
    const manager = new BabylonLodManager(scene);
    const [o] = populate(scene, manager, c.metric, c.thresholds, 1, 9);
    const m = model(c, camera, [0, 0, 10]);
    scene.render();
    const drawn = (level: number | null) => (level === 3 ? 255 : level);
    expect(enabledLevel(o)).toBe(drawn(expectedLevel([m], c, o.center, o.radius)));
    const levels = new Set<number>();
    for (const z of [8, 30, 120, 260]) {
      o.center = [0, 0, z];
      for (const l of o.levels) l?.position.set(0, 0, z);
      manager.refresh(o.handle);
      scene.render();
      levels.add(enabledLevel(o));
      expect(enabledLevel(o), `z = ${z}`).toBe(drawn(expectedLevel([m], c, o.center, o.radius)));
    }
    expect(levels.size).toBeGreaterThanOrEqual(3);
    manager.refresh(o.handle, { center: [0, 0, 20], radius: 10 });
    scene.render();
    expect(enabledLevel(o)).toBe(drawn(expectedLevel([m], c, [0, 0, 20], 10)));
    scene.dispose();
  });

  it('dispose removes its observers; remove stops switching an object', async () => {
    const scene = new Scene(engine);
    const before = scene.onBeforeRenderObservable.observers.length, disposeBefore = scene.onDisposeObservable.observers.length;
    const camera = makeCamera(scene, { name: 'x', rightHanded: false, metric: 'pixels', thresholds: [1] });
    camera.setTarget(new Vector3(0, 0, 10));
    const manager = new BabylonLodManager(scene);
    const objs = populate(scene, manager, 'pixels', [120, 40, 12], 3, 1);
    expect(scene.onBeforeRenderObservable.observers.length).toBe(before + 1);
    manager.remove(objs[0].handle);
    scene.render();
    expect(enabledLevel(objs[0])).toBe(255);
    expect(enabledLevel(objs[1])).not.toBe(255);
    manager.dispose();
    await new Promise((resolve) => setTimeout(resolve, 0)); // Babylon unregisters observers after a tick
    expect(scene.onBeforeRenderObservable.observers.length).toBe(before);
    expect(scene.onDisposeObservable.observers.length).toBe(disposeBefore);
    const frames = manager.lastStats;
    scene.render();
    expect(manager.lastStats).toBe(frames);
    scene.dispose();
  });
});
