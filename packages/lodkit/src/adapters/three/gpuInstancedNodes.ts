/**
 * How a `GpuInstancedLOD` instance is placed: the TSL vertex stage of the GPU path and the matching
 * matrices of the CPU path. An instance is its level geometry scaled by `s = r / R` and moved so
 * that its local bounding sphere (centre `c`, radius `R`) becomes its sphere (`x, y, z, r`),
 * optionally turned by a unit quaternion `q` about that centre: `p ↦ centre + s·q(p − c)`. Both
 * paths compute the same map, so they draw the same picture (test/e2e/gpuInstanced.test.ts).
 *
 * @module
 */
import type { Sphere } from 'three';
import { cross, float, Fn, materialColor, normalLocal, positionLocal, vec3, vec4 } from 'three/tsl';

// TSL's generic node typings do not follow storage elements through swizzles; the graph is checked
// by the Chromium WebGPU test instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type N = any;

/** `q·v·q⁻¹` for a unit quaternion `q` (TSL): `v + 2·q.xyz × (q.xyz × v + q.w·v)`. */
function rotate(q: N, v: N): N {
  return v.add(cross(q.xyz, cross(q.xyz, v).add(v.mul(q.w))).mul(2));
}

/**
 * The `positionNode` of one level: reads the sphere (and quaternion) of instance `id` and maps
 * `positionLocal`; with a quaternion it also turns `normalLocal` (a rotation keeps normals unit and
 * orthogonal; the uniform scale does not change their direction).
 * @category three.js
 */
export function placementNode(spheres: N, rotations: N | null, id: N, center: { x: number; y: number; z: number }, invRadius: number): N {
  return Fn(() => {
    const s: N = spheres.element(id);
    let p: N = positionLocal.sub(vec3(center.x, center.y, center.z));
    if (rotations !== null) {
      const q: N = rotations.element(id);
      p = rotate(q, p);
      normalLocal.assign(rotate(q, normalLocal));
    }
    return p.mul(s.w.mul(invRadius)).add(s.xyz);
  })();
}

/** `n` identity quaternions (x, y, z, w). @category three.js */
export function identityQuaternions(n: number): Float32Array {
  const a = new Float32Array(n * 4);
  for (let i = 3; i < a.length; i += 4) a[i] = 1;
  return a;
}

/**
 * The CPU path's instance matrices (16 floats each, column-major): linear part `s·R(q)` (identity
 * `R` without `rotations`), translation `centre − s·R·c`. `rotations` must hold unit quaternions.
 * @category three.js
 */
export function instanceMatrices(spheres: Float32Array, rotations: Float32Array | null, count: number, local: Sphere): Float32Array {
  const c = local.center, invR = 1 / local.radius;
  const m = new Float32Array(count * 16);
  for (let i = 0; i < count; i++) {
    const s = spheres[i * 4 + 3] * invR, o = i * 16;
    let r00 = 1, r01 = 0, r02 = 0, r10 = 0, r11 = 1, r12 = 0, r20 = 0, r21 = 0, r22 = 1;
    if (rotations !== null) {
      const x = rotations[i * 4], y = rotations[i * 4 + 1], z = rotations[i * 4 + 2], w = rotations[i * 4 + 3];
      r00 = 1 - 2 * (y * y + z * z); r01 = 2 * (x * y - w * z); r02 = 2 * (x * z + w * y);
      r10 = 2 * (x * y + w * z); r11 = 1 - 2 * (x * x + z * z); r12 = 2 * (y * z - w * x);
      r20 = 2 * (x * z - w * y); r21 = 2 * (y * z + w * x); r22 = 1 - 2 * (x * x + y * y);
    }
    m[o] = s * r00; m[o + 1] = s * r10; m[o + 2] = s * r20;
    m[o + 4] = s * r01; m[o + 5] = s * r11; m[o + 6] = s * r21;
    m[o + 8] = s * r02; m[o + 9] = s * r12; m[o + 10] = s * r22;
    m[o + 12] = spheres[i * 4] - s * (r00 * c.x + r01 * c.y + r02 * c.z);
    m[o + 13] = spheres[i * 4 + 1] - s * (r10 * c.x + r11 * c.y + r12 * c.z);
    m[o + 14] = spheres[i * 4 + 2] - s * (r20 * c.x + r21 * c.y + r22 * c.z);
    m[o + 15] = 1;
  }
  return m;
}

/**
 * A colour node tinted by instance `id`'s packed RGBA8 colour: `vec4(base ?? material colour) ×
 * (r, g, b, 1)`, channels unpacked as `byte / 255`.
 * @category three.js
 */
export function tintNode(base: N | null, colors: N, id: N): N {
  const c: N = colors.element(id);
  const rgb: N = vec3(float(c.bitAnd(255)), float(c.shiftRight(8).bitAnd(255)), float(c.shiftRight(16).bitAnd(255))).div(255);
  return vec4(base ?? materialColor).mul(vec4(rgb, 1));
}

/**
 * Packs `count` linear RGB colours (white where `src` is undefined) into RGBA8 words (r in the low
 * byte), into `out` when given. Channels are clamped to [0, 1] and rounded; NaN becomes 0.
 * @category three.js
 */
export function packColors(src: Float32Array | undefined, count: number, out?: Uint32Array): Uint32Array {
  const a = out ?? new Uint32Array(count);
  const byte = (v: number): number => (v > 0 ? (v < 1 ? Math.round(v * 255) : 255) : 0);
  for (let i = 0; i < count; i++) {
    a[i] = src === undefined ? 0xffffffff : (byte(src[i * 3]) | (byte(src[i * 3 + 1]) << 8) | (byte(src[i * 3 + 2]) << 16) | 0xff000000) >>> 0;
  }
  return a;
}
