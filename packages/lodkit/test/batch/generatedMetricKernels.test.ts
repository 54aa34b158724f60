/**
 * Every generated metric kernel (scripts/templates/metric.template.ts →
 * src/batch/kernels/metricKernels.generated.ts) against the readable formulas of
 * src/metrics/sphereMetrics.ts, bit for bit (same operations in the same order): one view, random
 * perspective and orthographic frustums, spheres inside, outside, across planes, around the eye
 * (eye inside, on the surface, at the centre) and invalid ones (NaN, ±∞, negative radius), culling on and off,
 * the write / max / min combinations and the metric filter, as metricKernels.ts's contract states.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Frustum } from '../../src/metrics/frustum.js';
import { lookAtRotation } from '../../src/metrics/vector.js';
import { sphereDistance, sphereScreenArea, sphereScreenHeight } from '../../src/metrics/sphereMetrics.js';
import {
  areaOrthographicKernel, areaPerspectiveKernel, distanceKernel, heightOrthographicKernel, heightPerspectiveKernel, type CombineMode,
} from '../../src/batch/kernels/metricKernels.js';
import { VIEW_EYE, VIEW_PARAMS, VIEW_SCALE, VIEW_WINDOW_MAX, VIEW_WINDOW_MIN } from '../../src/batch/core/layout.js';

type Kernel = typeof distanceKernel;
// on a grid of 1/8 (float32-exact: the eye can be a sphere centre, or on a sphere's surface) or any double
const coord = fc.oneof(fc.integer({ min: -480, max: 480 }).map((k) => k / 8), fc.double({ min: -60, max: 60, noNaN: true }));

const frustumArb = (perspective: boolean) => fc.record({ eye: fc.tuple(coord, coord, coord), target: fc.tuple(coord, coord, coord), fov: fc.double({ min: 20, max: 120, noNaN: true }), aspect: fc.constantFrom(1, 1.5, 0.5) })
  .filter(({ eye, target }) => Math.hypot(eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]) > 1)
  .map(({ eye, target, fov, aspect }) => {
    const pose = { position: eye, rotation: lookAtRotation(eye, target) };
    return perspective ? Frustum.perspective({ fovY: fov, aspect, near: 0.1, far: 150, ...pose }) : Frustum.orthographic({ height: fov / 2, aspect, near: 0.1, far: 150, ...pose });
  });

/** A sphere: random, around the eye (inside; at the centre) or invalid. */
const sphereArb = fc.record({ c: fc.tuple(coord, coord, coord), r: fc.double({ min: 0, max: 20, noNaN: true }), kind: fc.constantFrom('free', 'free', 'free', 'eyeInside', 'eyeCentre', 'eyeOnSurface', 'nan', 'inf', 'negative') });

function spheresOf(list: { c: [number, number, number]; r: number; kind: string }[], eye: Float64Array): Float32Array {
  const sp = new Float32Array(list.length * 4);
  list.forEach(({ c, r, kind }, i) => {
    const centre = kind === 'eyeInside' ? [eye[0] + 0.5, eye[1], eye[2]] : kind === 'eyeCentre' ? [...eye] : kind === 'eyeOnSurface' ? [eye[0] + 2, eye[1], eye[2]] : c;
    sp.set([centre[0], centre[1], centre[2], kind === 'negative' ? -1 - r : kind === 'eyeInside' ? 2 + r : kind === 'eyeOnSurface' ? 2 : r], i * 4);
    if (kind === 'nan') sp[i * 4 + 1] = Number.NaN;
    if (kind === 'inf') sp[i * 4 + 2] = Number.NEGATIVE_INFINITY;
  });
  return sp;
}

/**
 * The kernel's value of sphere i from sphereMetrics.ts: NaN for an invalid sphere; a culled one
 * (wholly outside a plane) gives −1 with culling on and the reference's 0 with it off for screen
 * metrics, +∞ with culling on for distance (which tests no plane with culling off).
 */
function reference(kind: string, f: Frustum, sp: Float32Array, i: number, cull: boolean, px: number): number {
  const x = sp[i * 4], y = sp[i * 4 + 1], z = sp[i * 4 + 2], r = sp[i * 4 + 3];
  if (!Number.isFinite(x + y + z + r) || r < 0) return Number.NaN;
  if (kind === 'distance') return cull && f.cullsSphere(x, y, z, r) ? Number.POSITIVE_INFINITY : sphereDistance(f, x, y, z, r);
  if (cull && f.cullsSphere(x, y, z, r)) return -1;
  return kind.startsWith('height') ? sphereScreenHeight(f, x, y, z, r) * px : sphereScreenArea(f, x, y, z, r);
}

const KERNELS: [string, Kernel, boolean][] = [
  ['distance', distanceKernel, true], ['distance', distanceKernel, false],
  ['heightPerspective', heightPerspectiveKernel, true], ['heightOrthographic', heightOrthographicKernel, false],
  ['areaPerspective', areaPerspectiveKernel, true], ['areaOrthographic', areaOrthographicKernel, false],
];

describe('generated metric kernels against metrics/sphereMetrics.ts (fast-check)', () => {
  for (const [kind, kernel, perspective] of KERNELS) {
    it(`${kernel.name} (${perspective ? 'perspective' : 'orthographic'})`, () => {
      fc.assert(fc.property(frustumArb(perspective), fc.array(sphereArb, { minLength: 1, maxLength: 30 }), fc.boolean(), fc.constantFrom<CombineMode>(0, 1, 2),
        fc.array(fc.constantFrom(0.25, 2, 1e9, -1, Number.NaN, Number.POSITIVE_INFINITY), { minLength: 30, maxLength: 30 }), fc.boolean(), fc.constantFrom(1, 720),
        (f, list, cull, mode0, before, filter, px) => {
          const mode: CombineMode = kind === 'distance' ? (mode0 === 0 ? 0 : 2) : mode0 === 0 ? 0 : 1;
          const kv = new Float64Array(VIEW_PARAMS);
          kv.set(f.position, VIEW_EYE); kv.set(f.windowMin, VIEW_WINDOW_MIN); kv.set(f.windowMax, VIEW_WINDOW_MAX); kv[VIEW_SCALE] = kind.startsWith('height') ? px : 1;
          const sp = spheresOf(list, f.position), n = list.length;
          const out = Float64Array.from(before.slice(0, n));
          const profileIds = Uint16Array.from(list, (_, i) => i % 2), profileMetric = Uint8Array.from([3, 1]);
          kernel(sp, 0, n, out, mode, f.planes, kv, cull, profileIds, profileMetric, 1, filter);
          for (let i = 0; i < n; i++) {
            const old = before[i];
            if (filter && profileIds[i] !== 1) { expect(out[i]).toBe(old); continue; }
            const value = reference(kind, f, sp, i, cull, kv[VIEW_SCALE]);
            // write; or combine: max for sizes, min for distances (an invalid sphere leaves a combined value;
            // the eye inside / at the centre stores +∞ (height) / MAX_VALUE (area), which no combination
            // changes — an area formula's own +∞, an overflow, is combined like any value)
            let expected = value;
            if (mode !== 0) {
              if (Number.isNaN(value)) expected = old;
              else if (value === Number.POSITIVE_INFINITY && kind.startsWith('height')) expected = value;
              else if (value === Number.MAX_VALUE && kind === 'areaPerspective') expected = value;
              else expected = (mode === 1 ? value > old : value < old) ? value : old;
            }
            expect([i, out[i]]).toEqual([i, expected]);
          }
        }), { numRuns: 200 });
    });
  }
});
