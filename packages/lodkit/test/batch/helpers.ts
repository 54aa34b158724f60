/** Shared test helpers: a seeded LCG and random scenes. */
import { Frustum } from '../../src/metrics/frustum.js';
import { lookAtRotation } from '../../src/metrics/vector.js';
import type { LodView } from '../../src/batch/lodSet.js';

/** Park–Miller-style LCG in [0, 1). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** `n` spheres in a box of half-size `extent` around the origin, radii in [rMin, rMax]. */
export function randomSpheres(n: number, seed: number, extent = 200, rMin = 0.2, rMax = 8): Float32Array {
  const rand = lcg(seed);
  const out = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    out[i * 4] = (rand() * 2 - 1) * extent;
    out[i * 4 + 1] = (rand() * 2 - 1) * extent * 0.2;
    out[i * 4 + 2] = (rand() * 2 - 1) * extent;
    out[i * 4 + 3] = rMin + rand() * (rMax - rMin);
  }
  return out;
}

/** A perspective camera at `eye` looking at `target`. */
export function camera(eye: number[], target: number[], fovY = 60, aspect = 16 / 9): Frustum {
  return Frustum.perspective({ fovY, aspect, near: 0.1, far: 1000, position: eye, rotation: lookAtRotation(eye, target) });
}

/**
 * A view at `eye` looking 50 m ahead along `yaw` and 3 m down: perspective (far 900 m) or orthographic
 * (120 m high, near −400 m), 1080 px high. The camera of the clusters and fused-kernel paths.
 */
export function yawView(eye: number[], yaw: number, ortho: boolean, fovY = 60): LodView {
  const target = [eye[0] + Math.cos(yaw) * 50, eye[1] - 3, eye[2] + Math.sin(yaw) * 50];
  const rotation = lookAtRotation(eye, target);
  const frustum = ortho
    ? Frustum.orthographic({ height: 120, aspect: 1.5, near: -400, far: 600, position: eye, rotation })
    : Frustum.perspective({ fovY, aspect: 16 / 9, near: 0.1, far: 900, position: eye, rotation });
  return { frustum, viewportHeight: 1080 };
}
