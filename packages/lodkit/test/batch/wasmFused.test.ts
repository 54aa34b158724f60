/**
 * The fused WebAssembly kernel (src/batch/wasm/fusedKernel.wat, fusedPass.ts) against two
 * references: the same clustered set without WebAssembly (JavaScript kernels) and the per-object
 * path (`clusters: false`). Three sets get the same objects, camera paths and edits; after every
 * frame levels and blend are byte-identical, sizes are byte-identical between the two clustered
 * sets (and NaN-alike with the per-object path), the changed ids equal as a set and the stats
 * equal. Adversarial scenes place spheres on frustum planes (the float32 plane test must hand them
 * to its float64 re-check, counted), and metric values exactly on thresholds, blend-window edges
 * and rounding midpoints (decided on float64 values in the kernel, so no margin applies there: the
 * test checks that the reference really met those edges).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { engineOf, newLodSet } from '../../src/batch/engineSeam.js';
import { fusedCounters } from '../../src/batch/passes/fusedPass.js';
import { Frustum } from '../../src/metrics/frustum.js';
import { lookAtRotation } from '../../src/metrics/vector.js';
import { lcg, randomSpheres, yawView } from './helpers.js';

type Metric = 'screenHeight' | 'distance' | 'pixels' | 'screenArea';
const PROFILES: { metric: Metric; thresholds: number[]; blendThresholds?: number[]; costs: number[] }[] = [
  { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [5000, 1200, 300, 40] },
  { metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100], costs: [8000, 2000, 500, 60] },
  { metric: 'pixels', thresholds: [80, 20, 6], blendThresholds: [70, 15, 5], costs: [900, 300, 60, 8] },
  { metric: 'screenArea', thresholds: [0.01, 0.001, 0.0001], costs: [100, 20, 3, 1] },
];

const ciOf = (s: LodSet) => engineOf(s).ci;

/** Fused (WebAssembly), clustered JavaScript, per-object reference. */
function triple(capacity: number): [LodSet, LodSet, LodSet] {
  const f = newLodSet(capacity, { wasm: true });
  const j = newLodSet(capacity, { wasm: false });
  const r = newLodSet(capacity, { wasm: true });
  expect(ciOf(f).wasm?.fused).toBeTruthy();
  expect(ciOf(j).wasm).toBeNull();
  return [f, j, r];
}

type Stats = { levelCounts: Uint32Array; totalCost: number; minimumCost: number; hidden: number; invalid: number; changes: number };
function frame(sets: [LodSet, LodSet, LodSet], views: LodView | LodView[], options: LodUpdateOptions): Stats[] {
  return sets.map((s, k) => {
    const r = s.update(views, k === 2 ? { ...options, clusters: false } : options);
    return { levelCounts: Uint32Array.from(r.levelCounts), totalCost: r.totalCost, minimumCost: r.minimumCost, hidden: r.hidden, invalid: r.invalid, changes: r.changes };
  });
}

function expectIdentical(sets: [LodSet, LodSet, LodSet], stats: Stats[], label: string): void {
  const [f, j, r] = sets, n = f.count;
  for (let i = 0; i < n; i++) {
    if (f.levels[i] !== j.levels[i] || f.levels[i] !== r.levels[i]) throw new Error(`${label}: id ${i} level ${f.levels[i]} / ${j.levels[i]} / ${r.levels[i]}`);
    if (!Object.is(f.blend[i], j.blend[i]) || !Object.is(f.blend[i], r.blend[i])) throw new Error(`${label}: id ${i} blend ${f.blend[i]} / ${j.blend[i]} / ${r.blend[i]}`);
    if (!Object.is(f.sizes[i], j.sizes[i])) throw new Error(`${label}: id ${i} size ${f.sizes[i]} / ${j.sizes[i]}`);
    if (Number.isNaN(f.sizes[i]) !== Number.isNaN(r.sizes[i])) throw new Error(`${label}: id ${i} size NaN-ness ${f.sizes[i]} / ${r.sizes[i]}`);
  }
  const changed = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
  const cf = changed(f);
  expect(changed(j), label).toEqual(cf);
  expect(changed(r), label).toEqual(cf);
  for (const s of [stats[1], stats[2]]) {
    expect(s.totalCost, label).toBe(stats[0].totalCost);
    expect(s.minimumCost, label).toBe(stats[0].minimumCost);
    expect(s.hidden, label).toBe(stats[0].hidden);
    expect(s.invalid, label).toBe(stats[0].invalid);
    expect(s.changes, label).toBe(stats[0].changes);
    expect(Array.from(s.levelCounts), label).toEqual(Array.from(stats[0].levelCounts));
  }
}

const view = yawView;

type Op =
  | { kind: 'add'; x: number; z: number; r: number; p: number }
  | { kind: 'move'; k: number; dx: number; dz: number; dr: number }
  | { kind: 'hide'; k: number; on: boolean }
  | { kind: 'force'; k: number; level: number | null }
  | { kind: 'remove'; k: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), x: fc.double({ min: -400, max: 400, noNaN: true }), z: fc.double({ min: -400, max: 400, noNaN: true }), r: fc.double({ min: 0.1, max: 9, noNaN: true }), p: fc.nat(3) }),
  fc.record({ kind: fc.constant('move' as const), k: fc.nat(), dx: fc.double({ min: -20, max: 20, noNaN: true }), dz: fc.double({ min: -20, max: 20, noNaN: true }), dr: fc.double({ min: 0.5, max: 2, noNaN: true }) }),
  fc.record({ kind: fc.constant('hide' as const), k: fc.nat(), on: fc.boolean() }),
  fc.record({ kind: fc.constant('force' as const), k: fc.nat(), level: fc.option(fc.nat(4), { nil: null }) }),
  fc.record({ kind: fc.constant('remove' as const), k: fc.nat() }),
);

describe('fused WebAssembly kernel = JavaScript kernels = per-object reference', () => {
  it('camera paths with objects added, moved, hidden, forced and removed, every metric, perspective and orthographic, 1–2 views (fast-check)', () => {
    let lanes = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }),
      fc.record({
        metrics: fc.subarray([0, 1, 2, 3], { minLength: 1 }), hysteresis: fc.constantFrom(0, 0.1), minFrames: fc.constantFrom(0, 0, 2),
        bias: fc.constantFrom(1, 1.5), maxLevel: fc.constantFrom(255, 2), minLevel: fc.constantFrom(0, 1), cull: fc.constantFrom(true, true, false),
        ortho: fc.boolean(), views: fc.constantFrom(1, 2),
      }),
      fc.array(fc.record({ dx: fc.double({ min: -3, max: 3, noNaN: true }), dz: fc.double({ min: -3, max: 3, noNaN: true }), dyaw: fc.double({ min: -0.05, max: 0.05, noNaN: true }), ops: fc.array(opArb, { maxLength: 8 }) }), { minLength: 3, maxLength: 8 }),
      (seed, o, frames) => {
        const sets = triple(64);
        const ids: number[] = [], removed = new Set<number>();
        o.metrics.forEach((m, p) => {
          for (const s of sets) s.addProfile(PROFILES[m]);
          const spheres = randomSpheres(700, seed + p, 400, 0.3, 8);
          let first = -1;
          for (const s of sets) first = s.addMany(spheres, p);
          for (let i = 0; i < 700; i++) ids.push(first + i);
        });
        let eye = [0, 6, 0], yaw = 0.4;
        const before = fusedCounters(ciOf(sets[0])).lanes;
        for (let fr = 0; fr < frames.length; fr++) {
          const step = frames[fr];
          eye = [eye[0] + step.dx, 6, eye[2] + step.dz]; yaw += step.dyaw;
          const views = [view(eye, yaw, o.ortho)];
          if (o.views === 2) views.push(view([eye[0] + 2, 7, eye[2] - 1], yaw + 0.3, false, 40));
          const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: o.hysteresis, minFramesBetweenChanges: o.minFrames, bias: o.bias, maxLevel: o.maxLevel, minLevel: o.minLevel, cull: o.cull };
          expectIdentical(sets, frame(sets, views, options), `seed ${seed} frame ${fr}`);
          const alive = ids.filter((x) => !removed.has(x));
          for (const op of step.ops) {
            if (op.kind === 'add') {
              const obj = { center: [op.x, 0, op.z], radius: op.r, profile: op.p % o.metrics.length };
              const got = sets.map((s) => s.add(obj));
              expect(got[1]).toBe(got[0]); expect(got[2]).toBe(got[0]);
              removed.delete(got[0]);
              if (!ids.includes(got[0])) ids.push(got[0]);
              continue;
            }
            const id = alive.length > 0 ? alive[op.k % alive.length] : -1;
            if (id < 0 || removed.has(id)) continue;
            for (const s of sets) {
              if (op.kind === 'move') { const q = id * 4, sp = s.spheres; s.setSphere(id, sp[q] + op.dx, sp[q + 1], sp[q + 2] + op.dz, Math.abs(sp[q + 3] * op.dr)); }
              else if (op.kind === 'hide') s.setHidden(id, op.on);
              else if (op.kind === 'force') s.setForcedLevel(id, op.level);
              else s.remove(id);
            }
            if (op.kind === 'remove') removed.add(id);
          }
        }
        lanes += fusedCounters(ciOf(sets[0])).lanes - before;
      }), { numRuns: 60 });
    expect(lanes).toBeGreaterThan(10_000); // the fused kernel ran (not only the skip and cull paths)
  });

  it('spheres placed on the frustum planes: identical, and the float32 plane test re-checks them in float64', () => {
    const n = 6000, rand = lcg(5), spheres = new Float32Array(n * 4);
    const eye = [3, 5, -2];
    const f0 = Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.5, far: 400, position: eye, rotation: lookAtRotation(eye, [40, 0, 90]) });
    const pl = f0.planes;
    for (let i = 0; i < n; i++) {
      // A point in front of the camera, projected onto plane j, then moved to d + r ≈ 0 (tangent).
      const j = i % 6, q = j * 4;
      const t = 5 + rand() * 300;
      let x = eye[0] + (40 - eye[0]) * t / 100 + (rand() - 0.5) * 60, y = eye[1] + (rand() - 0.5) * 30, z = eye[2] + (90 - eye[2]) * t / 100 + (rand() - 0.5) * 60;
      const d = pl[q] * x + pl[q + 1] * y + pl[q + 2] * z + pl[q + 3];
      const r = 0.2 + rand() * 3, off = -r + (i % 3 - 1) * 1e-9;
      x += (off - d) * pl[q]; y += (off - d) * pl[q + 1]; z += (off - d) * pl[q + 2];
      spheres[i * 4] = x; spheres[i * 4 + 1] = y; spheres[i * 4 + 2] = z; spheres[i * 4 + 3] = r;
    }
    // Non-vacuity, computed here: many stored spheres are within 1e-4 of tangency in float64.
    let tangent = 0;
    for (let i = 0; i < n; i++) {
      const q = (i % 6) * 4, x = spheres[i * 4], y = spheres[i * 4 + 1], z = spheres[i * 4 + 2], r = spheres[i * 4 + 3];
      if (Math.abs(pl[q] * x + pl[q + 1] * y + pl[q + 2] * z + pl[q + 3] + r) < 1e-4) tangent++;
    }
    expect(tangent).toBeGreaterThan(n * 0.9);
    for (const metric of [0, 1, 2, 3]) {
      const sets = triple(64);
      for (const s of sets) { s.addProfile(PROFILES[metric]); s.addMany(spheres, 0); }
      const before = fusedCounters(ciOf(sets[0]));
      for (let k = 0; k < 4; k++) {
        const views: LodView[] = [{ frustum: f0, viewportHeight: 1080 }];
        if (k >= 2) views.push({ frustum: Frustum.perspective({ fovY: 30, aspect: 1, near: 0.5, far: 100, position: [0, 5, 0], rotation: lookAtRotation([0, 5, 0], [-30, 0, 40]) }), viewportHeight: 720 });
        expectIdentical(sets, frame(sets, views, { policy: 'thresholds', hysteresis: k & 1 ? 0.1 : 0, cull: k !== 3 || metric !== 0 }), `metric ${metric} frame ${k}`);
      }
      const after = fusedCounters(ciOf(sets[0]));
      expect(after.lanes - before.lanes).toBeGreaterThan(n);
      expect(after.rechecked - before.rechecked).toBeGreaterThan(100);
    }
  });

  it('metric values exactly on thresholds, blend-window edges and rounding midpoints (orthographic heights, axis distances): identical', () => {
    // Orthographic, window height 2: screenHeight = 2r / 2 = r exactly. Dyadic thresholds, so the
    // edges t, b, the midpoints (t + b) / 2 and the values v·(1 ± h) are exact float32 values.
    const heights = { metric: 'screenHeight' as const, thresholds: [0.5, 0.25, 0.125], blendThresholds: [0.375, 0.1875, 0.09375], costs: [64, 16, 4, 1] };
    const distances = { metric: 'distance' as const, thresholds: [8, 16, 32], blendThresholds: [12, 24], costs: [64, 16, 4, 1] };
    const edgesH = [0.5, 0.375, 0.4375, 0.25, 0.1875, 0.21875, 0.125, 0.09375, 0.109375, 0.5 / 1.25, 0.5 * 0.75, Math.fround(0.5 + 2 ** -25), 0.75, 0.01];
    const edgesD = [8, 12, 10, 16, 24, 20, 32, 4, 40, 8 * 1.25, 16 * 0.75];
    for (const [profile, edges, ortho] of [[heights, edgesH, true], [distances, edgesD, true], [distances, edgesD, false]] as const) {
      const n = 1024, sets = triple(64), spheres = new Float32Array(n * 4);
      for (let i = 0; i < n; i++) {
        const e = edges[i % edges.length];
        if (profile.metric === 'screenHeight') {
          spheres[i * 4] = ((i % 32) - 16) * 0.05; spheres[i * 4 + 1] = (((i >> 5) % 32) - 16) * 0.05; spheres[i * 4 + 2] = -10; spheres[i * 4 + 3] = e;
        } else { // on the view axis: distance = |z| − r exactly
          spheres[i * 4 + 2] = -(e + 0.5); spheres[i * 4 + 3] = 0.5;
        }
      }
      for (const s of sets) { s.addProfile(profile); s.addMany(spheres, 0); }
      const frustum = ortho
        ? Frustum.orthographic({ height: 2, aspect: 1, near: -100, far: 100 })
        : Frustum.perspective({ fovY: 60, aspect: 1, near: 0.1, far: 1000 });
      let halves = 0, edgeHits = 0;
      for (let k = 0; k < 12; k++) {
        const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: k % 3 === 2 ? 0 : 0.25, minLevel: k === 7 ? 1 : 0, maxLevel: k === 8 ? 2 : 255, bias: k === 9 ? 2 : 1 };
        expectIdentical(sets, frame(sets, { frustum }, options), `${profile.metric} ${ortho ? 'ortho' : 'persp'} frame ${k}`);
        for (let i = 0; i < n; i++) { if (sets[2].blend[i] === 0.5) halves++; if (edges.includes(sets[2].sizes[i])) edgeHits++; }
        // Between frames: every object moves to the next edge value (levels change, holds apply).
        for (const s of sets) {
          for (let i = 0; i < n; i++) {
            const e = edges[(i + k + 1) % edges.length], q = i * 4;
            if (profile.metric === 'screenHeight') s.setSphere(i, spheres[q], spheres[q + 1], spheres[q + 2], e);
            else s.setSphere(i, 0, 0, -(e + 0.5), 0.5);
          }
        }
      }
      // The reference met the edges: exact edge sizes and blends of exactly one half (midpoints).
      expect(edgeHits).toBeGreaterThan(n);
      expect(halves).toBeGreaterThan(0);
      expect(fusedCounters(ciOf(sets[0])).lanes).toBeGreaterThan(n * 6);
    }
  });
});
