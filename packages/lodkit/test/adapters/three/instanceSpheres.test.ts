/**
 * `InstanceSpheres.batch` (addInstances' one loop, startup issue 27) gives, bit for bit, what
 * `inWorld` and `inObject` + `growBounds` give one instance at a time: world spheres (float32, as the
 * set stores them; a NaN is any NaN — three's matrices are JS arrays, which store one NaN pattern)
 * and the grown bounds, for identity and other world matrices, with ±0, NaN, infinite and
 * projective entries (fast-check, fixed seed).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { Matrix4, Sphere, Vector3 } from 'three';
import { InstanceSpheres } from '../../../src/adapters/three/instanceSpheres.js';
import { growBounds } from '../../../src/adapters/three/instanceBounds.js';

const special = fc.constantFrom(0, -0, 1, -1, 0.5, Number.NaN, Infinity, -Infinity, 1e-30, 3e38);
const entry = fc.oneof({ weight: 6, arbitrary: fc.double({ min: -1e4, max: 1e4, noNaN: true }) }, { weight: 2, arbitrary: special });
/** Mostly affine matrices (translation, rotation, scale), some with special entries anywhere. */
const matrix = fc.oneof(
  fc.tuple(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.double({ min: -1e3, max: 1e3, noNaN: true }),
    fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), fc.double({ min: 0.01, max: 10, noNaN: true }), fc.constantFrom(0, -0, 2))
    .map(([x, y, z, a, s, t]) => new Matrix4().makeRotationY(a).scale(new Vector3(s, s, s)).setPosition(t === 2 ? x : t, y, t === 2 ? z : t).elements),
  fc.array(entry, { minLength: 16, maxLength: 16 }),
);

it('batch equals inWorld and inObject + growBounds, instance by instance', () => {
  const world = fc.oneof(fc.constant(new Matrix4().elements), fc.constant([1, -0, 0, -0, 0, 1, -0, 0, -0, 0, 1, 0, 0, -0, 0, 1]), matrix);
  const local = fc.tuple(fc.constantFrom(0, -0, 0.25, -3), fc.constantFrom(0, 0.5), fc.constantFrom(0, -0, 1e-3), fc.constantFrom(0.866, 2, 0));
  fc.assert(fc.property(fc.array(matrix, { minLength: 1, maxLength: 40 }), world, local, (list, w, [cx, cy, cz, r]) => {
    const n = list.length, src = new Float32Array(list.flat()), worldMatrix = new Matrix4().fromArray(w);
    const spheres = new InstanceSpheres(new Sphere(new Vector3(cx, cy, cz), r));
    const got = new Float32Array(n * 4), bounds = new Sphere().makeEmpty();
    spheres.batch(worldMatrix, src, n, got, bounds);
    const want = new Float32Array(n * 4), wantBounds = new Sphere().makeEmpty(), s = new Sphere();
    for (let i = 0; i < n; i++) {
      spheres.inWorld(worldMatrix, src, i * 16, s);
      want.set([s.center.x, s.center.y, s.center.z, s.radius], i * 4);
      growBounds(wantBounds, spheres.inObject(src, i * 16, s));
    }
    const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer), (b, k) => (Number.isNaN(a[k]) ? 'NaN' : b));
    expect(bits(got)).toEqual(bits(want));
    expect([bounds.center.x, bounds.center.y, bounds.center.z, bounds.radius]).toEqual([wantBounds.center.x, wantBounds.center.y, wantBounds.center.z, wantBounds.radius]);
  }), { seed: 0x27c0, numRuns: 400 });
});
