/**
 * Seeded scenes and camera paths shared by the batch benchmarks (run.ts, coldStart.ts). Everything
 * is deterministic: a seeded LCG, fixed poses precomputed before any timing.
 */
import { Frustum } from '../src/metrics/frustum.js';
import { lookAtRotation } from '../src/metrics/vector.js';
import type { LodView } from '../src/batch/lodSet.js';

export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

/** 1M-style random spheres: x, z in ±500 m, y in 0–20 m, radius 0.5–4.5 m; ids in random spatial order. */
export function randomSpheres(n: number, seed: number): Float32Array {
  const rand = lcg(seed);
  const out = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    out[i * 4] = (rand() * 2 - 1) * 500;
    out[i * 4 + 1] = rand() * 20;
    out[i * 4 + 2] = (rand() * 2 - 1) * 500;
    out[i * 4 + 3] = 0.5 + rand() * 4;
  }
  return out;
}

/**
 * A tree field: `side × side` trees on a grid over `extent` metres (2 m spacing for 1000 × 1000 over
 * 2 km), each jittered by up to ±40 % of the spacing, ids in creation order (row by row). A tree is a
 * sphere around its crown: height 4–12 m, centre at half the height, radius half the height.
 */
export function treeField(side: number, extent: number, seed: number): Float32Array {
  const rand = lcg(seed);
  const out = new Float32Array(side * side * 4);
  const step = extent / side;
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) {
      const i = row * side + col;
      const h = 4 + rand() * 8;
      out[i * 4] = -extent / 2 + (col + 0.5) * step + (rand() * 2 - 1) * 0.4 * step;
      out[i * 4 + 1] = h / 2;
      out[i * 4 + 2] = -extent / 2 + (row + 0.5) * step + (rand() * 2 - 1) * 0.4 * step;
      out[i * 4 + 3] = h / 2;
    }
  }
  return out;
}

/** The random-sphere camera: 16 poses of a 75° camera 10 m up moving 2 m per frame (as in v0.1's bench). */
export function randomScenePoses(): LodView[] {
  const views: LodView[] = [];
  for (let k = 0; k < 16; k++) {
    const eye = [k * 2, 10, -k];
    const frustum = Frustum.perspective({ fovY: 75, aspect: 16 / 9, near: 0.1, far: 2000, position: eye, rotation: lookAtRotation(eye, [k * 2 + 100, 0, 300]) });
    views.push({ frustum, viewportHeight: 1080 });
  }
  return views;
}

/**
 * The ground camera of the tree field: 2 m high, walking 0.5 m per frame along its heading and
 * turning 0.05° per frame, starting near the centre of the field; `count` consecutive poses.
 */
export function walkPoses(count: number): LodView[] {
  const views: LodView[] = [];
  let x = -3, z = 1, heading = 20; // degrees from +x toward +z
  for (let k = 0; k < count; k++) {
    const a = (heading * Math.PI) / 180;
    const eye = [x, 2, z];
    const target = [x + Math.cos(a) * 100, 2, z + Math.sin(a) * 100];
    const frustum = Frustum.perspective({ fovY: 75, aspect: 16 / 9, near: 0.1, far: 3000, position: eye, rotation: lookAtRotation(eye, target) });
    views.push({ frustum, viewportHeight: 1080 });
    x += Math.cos(a) * 0.5; z += Math.sin(a) * 0.5; heading += 0.05;
  }
  return views;
}

/** The LOD profile of every benchmark: screen height, 4 levels with blend windows, integer costs. */
export const BENCH_PROFILE = {
  metric: 'screenHeight' as const, thresholds: [0.2, 0.06, 0.015], blendThresholds: [0.17, 0.05, 0.012],
  costs: [20000, 5000, 1200, 150],
};

/** Distance thresholds for the peers: the screen-height thresholds at the mean radius (2.5 m) of a 75° camera. */
export function peerDistances(meanRadius: number): number[] {
  const wh = 2 * Math.tan((75 * Math.PI) / 360);
  return BENCH_PROFILE.thresholds.map((t) => (2 * meanRadius) / (t * wh));
}
