/**
 * A keyframed camera: samples a scene's camera path at any time into a reusable {@link Frustum}.
 *
 * Contributor notes:
 * - Between two keyframes that both have a `target`, position and target are interpolated
 *   linearly and the rotation is rebuilt with `lookAtRotation` (a tracking shot keeps its subject
 *   centred); otherwise both rotations are slerped (shortest arc).
 * - Field of view is interpolated in log(tan(fovY / 2)) and orthographic height in log(height):
 *   a zoom then changes magnification by the same ratio per second, which is what a zoom lens
 *   looks like; linear fovY makes telephoto zooms crawl and then jump.
 * - The viewport size and shot label are held from the earlier keyframe (they change on cuts).
 *   A keyframe with `cut: true` is a hard cut: the previous keyframe is held until its time.
 * - The frustum is updated in place with `Frustum.perspective/orthographic(…, out)`; the small
 *   init objects they allocate are per frame, not per object, and cost nothing measurable here.
 *
 * @module
 */
import { Frustum, lookAtRotation } from 'lodkit';
import type { Scene } from './sceneFormat.js';

/** What {@link CameraPath.sample} reports besides the frustum. @category Simulator */
export interface CameraSample {
  /** Viewport width in pixels. */
  viewportWidth: number;
  /** Viewport height in pixels (the `pixels` metric's scale). */
  viewportHeight: number;
  /** Shot label of the segment (the keyframe's `shot`, or `shot N`). */
  shot: string;
  /** Index of the keyframe the segment starts at. */
  keyframe: number;
}

const DEFAULT_UP = [0, 1, 0];

/**
 * A scene's camera path, ready to sample.
 *
 * @example
 * ```ts
 * const path = new CameraPath(scene.camera);
 * const frustum = new Frustum();
 * const info = path.sample(2.5, frustum); // frustum now holds the camera at t = 2.5 s
 * ```
 * @category Simulator
 */
export class CameraPath {
  /** Time of the first keyframe. */
  readonly startTime: number;
  /** Time of the last keyframe. */
  readonly endTime: number;
  private readonly camera: Scene['camera'];
  private readonly rotations: Float64Array[];
  private readonly q = new Float64Array(4);
  private readonly pos = new Float64Array(3);
  private readonly tgt = new Float64Array(3);
  private readonly upv = new Float64Array(3);

  constructor(camera: Scene['camera']) {
    this.camera = camera;
    const keys = camera.keyframes;
    this.startTime = keys[0].time;
    this.endTime = keys[keys.length - 1].time;
    this.rotations = keys.map((k) => (k.rotation ? Float64Array.from(k.rotation) : lookAtRotation(k.position, k.target!, k.up ?? DEFAULT_UP)));
  }

  /** Index of the segment's start keyframe for time `t` (the last keyframe with time ≤ t, or 0); binary search. */
  segmentAt(t: number): number {
    const keys = this.camera.keyframes;
    let lo = 0, hi = keys.length - 1;
    if (t < keys[0].time) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (keys[mid].time <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  /** Samples the camera at time `t` into `frustum` and returns the viewport and shot. */
  sample(t: number, frustum: Frustum): CameraSample {
    const keys = this.camera.keyframes;
    const i = this.segmentAt(t);
    const k0 = keys[i];
    const k1 = i + 1 < keys.length ? keys[i + 1] : k0;
    const interpolate = k1 !== k0 && !k1.cut && t > k0.time;
    const s = interpolate ? Math.min(1, (t - k0.time) / (k1.time - k0.time)) : 0;
    const pos = this.pos, q = this.q;
    for (let a = 0; a < 3; a++) pos[a] = k0.position[a] + (k1.position[a] - k0.position[a]) * s;
    let rotationDone = false;
    if (interpolate && k0.target && k1.target) {
      const tgt = this.tgt, up = this.upv;
      const u0 = k0.up ?? DEFAULT_UP, u1 = k1.up ?? DEFAULT_UP;
      for (let a = 0; a < 3; a++) {
        tgt[a] = k0.target[a] + (k1.target[a] - k0.target[a]) * s;
        up[a] = u0[a] + (u1[a] - u0[a]) * s;
      }
      if (Math.hypot(tgt[0] - pos[0], tgt[1] - pos[1], tgt[2] - pos[2]) > 0) {
        lookAtRotation(pos, tgt, up, q);
        rotationDone = true;
      }
    }
    if (!rotationDone) slerp(this.rotations[i], this.rotations[interpolate ? i + 1 : i], s, q);
    const aspect = k0.viewport[0] / k0.viewport[1];
    const near = this.camera.near, far = this.camera.far;
    if (k0.fovY !== undefined) {
      let fovY = k0.fovY;
      if (interpolate && k1.fovY !== undefined && k1.fovY !== fovY) {
        const l0 = Math.log(Math.tan((k0.fovY * Math.PI) / 360)), l1 = Math.log(Math.tan((k1.fovY * Math.PI) / 360));
        fovY = (Math.atan(Math.exp(l0 + (l1 - l0) * s)) * 360) / Math.PI;
      }
      Frustum.perspective({ fovY, aspect, near, far, position: pos, rotation: q }, frustum);
    } else {
      let height = k0.height!;
      if (interpolate && k1.height !== undefined && k1.height !== height) {
        height = Math.exp(Math.log(height) + (Math.log(k1.height) - Math.log(height)) * s);
      }
      Frustum.orthographic({ height, aspect, near, far, position: pos, rotation: q }, frustum);
    }
    return { viewportWidth: k0.viewport[0], viewportHeight: k0.viewport[1], shot: k0.shot ?? `shot ${i}`, keyframe: i };
  }
}

/**
 * Shortest-arc spherical interpolation of unit quaternions `[x, y, z, w]` into `out` (normalised;
 * linear when the two are within ~1.8° of each other).
 * @example
 * ```ts
 * const s = Math.SQRT1_2;
 * slerp([0, 0, 0, 1], [0, s, 0, s], 0.5, new Float64Array(4)); // 45° about +y
 * ```
 * @category Simulator
 */
export function slerp(a: ArrayLike<number>, b: ArrayLike<number>, s: number, out: Float64Array): Float64Array {
  let bx = b[0], by = b[1], bz = b[2], bw = b[3];
  let cos = a[0] * bx + a[1] * by + a[2] * bz + a[3] * bw;
  if (cos < 0) { cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw; }
  let wa: number, wb: number;
  if (cos > 0.9995) {
    wa = 1 - s; wb = s;
  } else {
    const theta = Math.acos(cos), sin = Math.sin(theta);
    wa = Math.sin((1 - s) * theta) / sin; wb = Math.sin(s * theta) / sin;
  }
  const x = wa * a[0] + wb * bx, y = wa * a[1] + wb * by, z = wa * a[2] + wb * bz, w = wa * a[3] + wb * bw;
  const n = Math.hypot(x, y, z, w);
  out[0] = x / n; out[1] = y / n; out[2] = z / n; out[3] = w / n;
  return out;
}
