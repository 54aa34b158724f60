/// <reference types="@webgpu/types" />
/**
 * Seeded scenes and camera paths for checking `GpuLodSelector` against the float32 reference on any
 * `GPUDevice` (used by the Node/Dawn test's child process). Returns counts only; the test asserts.
 *
 * Per frame: GPU levels vs `referenceFrame` (started from the GPU's previous state words, so one
 * counted near-threshold case cannot cascade into later frames), the near-threshold objects the
 * reference flags, hysteresis holds (objects whose level the band kept), indirect `instanceCount` vs
 * the number of objects the GPU put at each level, each instance list vs the levels (every id at its
 * level exactly once), and the mesh ranges in the arguments.
 */
import { Frustum } from '../../src/metrics/frustum.js';
import type { LodView } from '../../src/batch/lodSet.js';
import type { LodProfileOptions } from '../../src/batch/core/profiles.js';
import { FRESH_STATE, GpuLodSelector, OBJECT_WORDS, referenceFrame, type GpuLevelMesh } from '../../src/adapters/webgpu/index.js';
import { lcg } from './random.js';

/** One frame of a camera path. */
export interface PathFrame { label: string; views: LodView[]; bias: number }

/** Counts of one checked frame. */
export interface FrameCheck {
  label: string;
  visible: number;
  /** Objects the reference flags near-threshold. */
  near: number;
  /** GPU ≠ reference on an object not flagged near (must be 0). */
  mismatches: number;
  /** GPU ≠ reference on a flagged object (allowed, counted). */
  nearMismatches: number;
  /** Objects whose reference level differs from the same frame without hysteresis. */
  holds: number;
  countErrors: number;
  listErrors: number;
  argErrors: number;
  /** GPU objects per level (from the levels, not from the arguments). */
  perLevel: number[];
}

export const SCENE_MESHES: GpuLevelMesh[] = [
  { indexCount: 5400 }, { indexCount: 2100, firstIndex: 5400 }, { indexCount: 720, firstIndex: 7500, baseVertex: 11 },
  { indexCount: 150, firstIndex: 8220 }, { indexCount: 36, firstIndex: 8370, baseVertex: 3 },
];

export const SCENE_PROFILES: LodProfileOptions[] = [
  { metric: 'pixels', thresholds: [400, 120, 40, 12] },
  { metric: 'distance', thresholds: [25, 80, 200, 500] },
  { metric: 'screenArea', thresholds: [0.02, 0.002, 0.0002, 0.00002] },
  { metric: 'screenHeight', thresholds: [0.25, 0.08, 0.025] },
];

/**
 * `n` spheres: a third in a dense band along the walk (so the hysteresis band is crossed between
 * frames), the rest spread over a 1400 × 80 × 1400 box; profile ids cycle pseudo-randomly; a few bad
 * spheres (NaN, −∞, negative radius) and zero radii.
 */
export function makeScene(seed: number, n: number): { spheres: Float32Array; ids: Uint32Array } {
  const rnd = lcg(seed);
  const spheres = new Float32Array(n * 4), ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const band = i % 3 === 0;
    spheres[4 * i] = band ? (rnd() - 0.5) * 120 : (rnd() - 0.5) * 1400;
    spheres[4 * i + 1] = rnd() * (band ? 20 : 80);
    spheres[4 * i + 2] = band ? 150 - rnd() * 400 : (rnd() - 0.5) * 1400;
    spheres[4 * i + 3] = 0.25 + rnd() * rnd() * 8;
    ids[i] = Math.floor(rnd() * SCENE_PROFILES.length);
  }
  if (n > 40) {
    spheres[4 * 5 + 1] = Number.NaN; spheres[4 * 17] = Number.NEGATIVE_INFINITY; spheres[4 * 23 + 3] = -2;
    spheres[4 * 31 + 3] = 0; spheres[4 * 37 + 3] = 0;
  }
  return { spheres, ids };
}

const yaw = (a: number): number[] => [0, Math.sin(a / 2), 0, Math.cos(a / 2)];

/**
 * A camera path: 5 perspective frames walking down −z with a slow turn, a frame with `bias` 1.5, two
 * orthographic frames (the second panned), two frames of two views (split screen), one of three views,
 * then the walk again (the hysteresis reference survives the view changes).
 */
export function cameraPath(): PathFrame[] {
  const path: PathFrame[] = [];
  const walk = (k: number): LodView[] => [{
    frustum: Frustum.perspective({ fovY: 55, aspect: 16 / 9, near: 0.2, far: 1500, position: [2 * Math.sin(k), 8, 200 - 2.5 * k], rotation: yaw(0.015 * k) }),
    viewportHeight: 1080,
  }];
  for (let k = 0; k < 5; k++) path.push({ label: `walk ${k}`, views: walk(k), bias: 1 });
  path.push({ label: 'walk, bias 1.5', views: walk(5), bias: 1.5 });
  for (let k = 0; k < 2; k++) {
    path.push({ label: `ortho ${k}`, views: [{ frustum: Frustum.orthographic({ height: 300, aspect: 4 / 3, near: 0.1, far: 4000, position: [20 * k, 30, 700], rotation: yaw(0.2) }), viewportHeight: 768 }], bias: 1 });
  }
  for (let k = 0; k < 2; k++) {
    path.push({ label: `two views ${k}`, bias: 1, views: [
      { frustum: Frustum.perspective({ fovY: 45, aspect: 1, near: 0.1, far: 1200, position: [80, 6, 40 - 3 * k], rotation: yaw(0.9) }), viewportHeight: 900 },
      { frustum: Frustum.perspective({ fovY: 75, aspect: 2, near: 0.1, far: 700, position: [-150, 12, -80], rotation: yaw(-2.2 + 0.02 * k) }), viewportHeight: 540 },
    ] });
  }
  path.push({ label: 'three views', bias: 1, views: [
    { frustum: Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.1, far: 1000, position: [0, 10, 150], rotation: yaw(0) }), viewportHeight: 1000 },
    { frustum: Frustum.orthographic({ height: 200, aspect: 1, near: 0.1, far: 3000, position: [0, 500, 0], rotation: [-Math.SQRT1_2, 0, 0, Math.SQRT1_2] }), viewportHeight: 600 },
    { frustum: Frustum.perspective({ fovY: 90, aspect: 1, near: 0.1, far: 400, position: [300, 20, -300], rotation: yaw(2.4) }), viewportHeight: 720 },
  ] });
  for (let k = 5; k < 8; k++) path.push({ label: `walk ${k}`, views: walk(k), bias: 1 });
  return path;
}

/**
 * Runs {@link cameraPath} (its first `frames` frames when given) over {@link makeScene}`(seed, n)` on
 * `device` with hysteresis `h`; one {@link FrameCheck} per frame.
 */
export async function checkScene(device: GPUDevice, seed: number, n: number, h: number, frames?: number): Promise<FrameCheck[]> {
  const { spheres, ids } = makeScene(seed, n);
  const sel = new GpuLodSelector(device, { capacity: n, profiles: SCENE_PROFILES, levels: SCENE_MESHES });
  sel.setObjects(spheres, ids);
  const out: FrameCheck[] = [];
  let prev = new Uint32Array(n * OBJECT_WORDS);
  for (let i = 0; i < n; i++) prev[i * OBJECT_WORDS] = FRESH_STATE;
  const ref = new Uint32Array(n * OBJECT_WORDS), noHold = new Uint32Array(n * OBJECT_WORDS);
  const near = new Uint8Array(n), near0 = new Uint8Array(n), seen = new Uint8Array(n), blend = new Float32Array(n), blend0 = new Float32Array(n);
  for (const frame of cameraPath().slice(0, frames)) {
    sel.update(frame.views, { hysteresis: h, bias: frame.bias });
    const rb = await sel.readback();
    ref.set(prev); noHold.set(prev);
    referenceFrame(sel.frameBytes, sel.profileBytes, spheres, ids, n, ref, blend, near);
    const f0 = sel.frameBytes.slice(0);
    new Float32Array(f0)[3] = 0;
    referenceFrame(f0, sel.profileBytes, spheres, ids, n, noHold, blend0, near0);
    const r: FrameCheck = { label: frame.label, visible: 0, near: 0, mismatches: 0, nearMismatches: 0, holds: 0, countErrors: 0, listErrors: 0, argErrors: 0, perLevel: new Array(SCENE_MESHES.length).fill(0) };
    for (let i = 0; i < n; i++) {
      const g = rb.levels[i], e = ref[i * OBJECT_WORDS] & 0xff;
      if (g !== 255) { r.visible++; r.perLevel[g]++; }
      if (near[i]) r.near++;
      if (g !== e) { if (near[i]) r.nearMismatches++; else r.mismatches++; }
      if ((noHold[i * OBJECT_WORDS] & 0xff) !== e) r.holds++;
    }
    for (let l = 0; l < SCENE_MESHES.length; l++) {
      const a = rb.indirect.subarray(5 * l, 5 * l + 5), m = SCENE_MESHES[l];
      if (a[0] !== m.indexCount || a[2] !== (m.firstIndex ?? 0) || a[3] !== (m.baseVertex ?? 0) || a[4] !== 0) r.argErrors++;
      if (a[1] !== r.perLevel[l]) r.countErrors++;
      seen.fill(0);
      for (let k = 0; k < Math.min(a[1], sel.stride); k++) {
        const id = rb.instances[l * sel.stride + k];
        if (id >= n || seen[id] || rb.levels[id] !== l) r.listErrors++; else seen[id] = 1;
      }
    }
    out.push(r);
    prev = rb.state.slice(0);
  }
  sel.destroy();
  return out;
}
