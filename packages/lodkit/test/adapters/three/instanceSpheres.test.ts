/**
 * `InstanceSpheres.batch` (addInstances' one loop, startup issue 27) gives, bit for bit, what
 * `inWorld` and `inObject` + `growBounds` give one instance at a time: world spheres (float32, as the
 * set stores them; a NaN is any NaN — three's matrices are JS arrays, which store one NaN pattern)
 * and the grown bounds, for identity and other world matrices, with ±0, NaN, infinite and
 * projective entries (fast-check, fixed seed) — and the batch's bounds for the Morton order, equal
 * to those computed here from the float32 spheres (min / max of the finite centres, smallest
 * positive radius among them: mortonOrder.ts `BATCH_BOUNDS`), so that `addInstances` gives the set
 * the slot order and clusters `LodSet.addMany` gives the same spheres.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { BoxGeometry, Matrix4, MeshBasicMaterial, Sphere, Vector3 } from 'three';
import { InstanceSpheres } from '../../../src/adapters/three/instanceSpheres.js';
import { InstancedLOD } from '../../../src/adapters/three/instancedLOD.js';
import { LodSet } from '../../../src/batch/lodSet.js';
import { engineOf } from '../../../src/batch/engineSeam.js';
import { referenceBatchBounds } from '../../helpers/batchBounds.js';
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
  let finiteCentres = 0;
  fc.assert(fc.property(fc.array(matrix, { minLength: 1, maxLength: 40 }), world, local, (list, w, [cx, cy, cz, r]) => {
    const n = list.length, src = new Float32Array(list.flat()), worldMatrix = new Matrix4().fromArray(w);
    const spheres = new InstanceSpheres(new Sphere(new Vector3(cx, cy, cz), r));
    const got = new Float32Array(n * 4), bounds = new Sphere().makeEmpty(), centres = new Float64Array(7).fill(42);
    spheres.batch(worldMatrix, src, n, got, bounds, centres);
    const want = new Float32Array(n * 4), wantBounds = new Sphere().makeEmpty(), s = new Sphere();
    for (let i = 0; i < n; i++) {
      spheres.inWorld(worldMatrix, src, i * 16, s);
      want.set([s.center.x, s.center.y, s.center.z, s.radius], i * 4);
      growBounds(wantBounds, spheres.inObject(src, i * 16, s));
    }
    const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer), (b, k) => (Number.isNaN(a[k]) ? 'NaN' : b));
    expect(bits(got)).toEqual(bits(want));
    expect([bounds.center.x, bounds.center.y, bounds.center.z, bounds.radius]).toEqual([wantBounds.center.x, wantBounds.center.y, wantBounds.center.z, wantBounds.radius]);
    const wantCentres = referenceBatchBounds(want, n);
    expect(Array.from(centres)).toEqual(wantCentres);
    if (wantCentres[0] !== Infinity) finiteCentres++;
  }), { seed: 0x27c0, numRuns: 400 });
  expect(finiteCentres).toBeGreaterThan(200);
});

it('addInstances hands the set its bounds: the same slot order and clusters as LodSet.addMany of the same spheres', () => {
  const geometry = new BoxGeometry(), material = new MeshBasicMaterial();
  const m = new Matrix4();
  let seed = 27;
  const next = (): number => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
  for (const moved of [false, true]) {
    const lod = new InstancedLOD({ levels: [{ geometry, material }, { geometry, material }], metric: 'distance', thresholds: [50] });
    if (moved) { lod.position.set(3, -1, 7); lod.rotation.y = 0.3; lod.updateMatrixWorld(true); }
    const batches = [700, 3_000, 1];
    for (const n of batches) {
      const matrices = new Float32Array(n * 16);
      for (let i = 0; i < n; i++) m.makeTranslation((next() - 0.5) * 800, next() * 5, (next() - 0.5) * 800).toArray(matrices, i * 16);
      if (n > 1) matrices[5 * 16 + 12] = Number.NaN; // a non-finite centre: left out of the bounds
      lod.addInstances(matrices);
    }
    const plain = new LodSet(16), profile = plain.addProfile({ metric: 'distance', thresholds: [50] });
    let first = 0;
    for (const n of batches) { plain.addMany(lod.set.spheres.slice(first * 4, (first + n) * 4), profile); first += n; }
    const a = engineOf(lod.set).ci, b = engineOf(plain).ci;
    expect(a.count).toBe(b.count);
    expect(Array.from(a.slotId.subarray(0, first))).toEqual(Array.from(b.slotId.subarray(0, first)));
    expect(Array.from(a.start.subarray(0, a.count))).toEqual(Array.from(b.start.subarray(0, b.count)));
    lod.dispose(); plain.dispose();
  }
});
