/** Shared test helpers: a seeded LCG and random scenes. */
import { Frustum } from '../../src/metrics/frustum.js';
import { lookAtRotation } from '../../src/metrics/vector.js';
import { expect } from 'vitest';
import type { LodSet, LodView } from '../../src/batch/lodSet.js';
import { engineOf } from '../../src/batch/engineSeam.js';
import { budgetStateOf } from '../../src/batch/passes/budgetIncremental.js';
import { hybridStateOf } from '../../src/batch/passes/hybridIncremental.js';

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

/** The stats of a frame the identity tests compare (`levelCounts` as a plain array). */
export interface FrameStats { totalCost: number; minimumCost: number; hidden: number; invalid: number; budgetMet: boolean; levelCounts: ArrayLike<number> }

/**
 * Asserts two sets ran the same budget/hybrid frame: levels, blend and sizes per id (`Object.is`),
 * the changed ids as a set, the stats and the budget price.
 */
export function expectSameBudgetFrame(a: LodSet, b: LodSet, sa: FrameStats, sb: FrameStats, label: string,
  staleSizeOk?: (id: number, size: number, referenceSize: number) => boolean): number {
  let stale = 0;
  for (let i = 0; i < a.count; i++) {
    const sameSize = Object.is(a.sizes[i], b.sizes[i]) || (staleSizeOk !== undefined && a.blend[i] === 0 && staleSizeOk(i, a.sizes[i], b.sizes[i]) && ++stale > 0);
    if (a.levels[i] !== b.levels[i] || !Object.is(a.blend[i], b.blend[i]) || !sameSize) {
      throw new Error(`${label}: id ${i} level ${a.levels[i]} / ${b.levels[i]} size ${a.sizes[i]} / ${b.sizes[i]}`);
    }
  }
  const changed = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
  expect(changed(a), label).toEqual(changed(b));
  expect(sa.totalCost, label).toBe(sb.totalCost);
  expect(sa.minimumCost, label).toBe(sb.minimumCost);
  expect(sa.hidden, label).toBe(sb.hidden);
  expect(sa.invalid, label).toBe(sb.invalid);
  expect(sa.budgetMet, label).toBe(sb.budgetMet);
  expect(Array.from(sa.levelCounts), label).toEqual(Array.from(sb.levelCounts));
  expect(Object.is(a.budgetPrice, b.budgetPrice), `${label}: price ${a.budgetPrice} / ${b.budgetPrice}`).toBe(true);
  return stale;
}

/**
 * Whether a size kept from an earlier frame is one the `sizes` contract allows for an object of a
 * cluster skipped whole (LodSet's `sizes`): a finite value outside every blend window `(b_j, t_j]`
 * that a descending screen-metric profile maps to the same level as the reference's size —
 * OpenUSD's rule written out here: the index counts the thresholds the float32 size does not
 * exceed, clamped to `maxLevel`. (For an object held at a coarser level by hysteresis both are its
 * preferred level's values, not its displayed level's.)
 */
export function sizeMapsLike(size: number, referenceSize: number, thresholds: readonly number[], blendThresholds: readonly number[], maxLevel: number): boolean {
  if (!Number.isFinite(size) || !Number.isFinite(referenceSize)) return false;
  const index = (v: number) => { const x = Math.fround(v); let k = 0; for (const t of thresholds) if (!(x > t)) k++; return Math.min(k, maxLevel); };
  for (let j = 0; j < blendThresholds.length; j++) if (size > blendThresholds[j] && size <= thresholds[j]) return false;
  return index(size) === index(referenceSize);
}

/** Edit `kind` of the identity paths on object `id`: 1 hide, 2 force level 0, 3 move 10 m, 4 invalid sphere, 5 remove, 6 unforce. */
export function applyEdit(s: LodSet, kind: number, id: number): void {
  if (kind === 1) s.setHidden(id, true);
  if (kind === 2) s.setForcedLevel(id, 0);
  if (kind === 3) { const p = s.spheres; s.setSphere(id, p[id * 4] + 10, p[id * 4 + 1], p[id * 4 + 2], p[id * 4 + 3]); }
  if (kind === 4) s.setSphere(id, Number.NaN, 0, 0, 1);
  if (kind === 5) s.remove(id);
  if (kind === 6) s.setForcedLevel(id, null);
}

/** A jittered `side × side` grid of trees, 4 m apart from `x0`, radius 1–3 m, ids row by row (the owed-values tests). */
export function treeGrid(side: number, seed: number, x0 = 0): Float32Array {
  const rand = lcg(seed), out = new Float32Array(side * side * 4);
  for (let i = 0; i < side * side; i++) {
    out[i * 4] = x0 + ((i % side) - side / 2) * 4 + rand() * 2;
    out[i * 4 + 1] = 2;
    out[i * 4 + 2] = (Math.floor(i / side) - side / 2) * 4 + rand() * 2;
    out[i * 4 + 3] = 1 + rand() * 2;
  }
  return out;
}

/**
 * Edit `kind` of the owed-values tests on object `id` near the camera at `eye`: 1 hide, 2 force level
 * 1, 3 move and grow, 4 invalid sphere, 5 remove, 6 remove and add one (profile `profiles[0]`, reusing
 * the id), 7 show, 8 add one (profile `profiles[1]`), 9 unforce. Kinds 1–7 and 9 need a live `id`.
 */
export function applyOwedEdit(s: LodSet, kind: number, id: number, eye: number[], profiles: readonly [number, number]): void {
  if (kind === 1) s.setHidden(id, true);
  if (kind === 2) s.setForcedLevel(id, 1);
  if (kind === 3) { const p = s.spheres; s.setSphere(id, p[id * 4] + 9, p[id * 4 + 1], p[id * 4 + 2] - 5, p[id * 4 + 3] * 1.5); }
  if (kind === 4) s.setSphere(id, Number.NaN, 0, 0, 1);
  if (kind === 5) s.remove(id);
  if (kind === 6) { s.remove(id); s.add({ center: [eye[0] + 3, 2, eye[2] + 20], radius: 1, profile: profiles[0] }); }
  if (kind === 7) s.setHidden(id, false);
  if (kind === 8) s.add({ center: [eye[0] - 4, 2, eye[2] + 30], radius: 2, profile: profiles[1] });
  if (kind === 9) s.setForcedLevel(id, null);
}

/**
 * Follows the stable floor of a set's budget or hybrid frames (budgetStable.ts raiseFloor): the cuts
 * each frame notes — their key `sse.cutAt` and its ratio to the frame's λ; for a redone frame the key
 * at which `reference`, the per-object path drawing the same frames, cut the protected tier (its full
 * item list: the list the redone frame builds), or the frame's λ where it cut none — and for each frame
 * that stood with stable objects, checks the floor factor against `κ / λ + band / 8` within
 * `[1 − band, 1 − band / 4]` (κ the largest key of the last 32 frames' cuts) computed here, and counts
 * the frames where it lies below the factor at the cuts' ratios to their own frame's λ (`lowered`) and
 * the redone frames whose key was a cut's (`redoneCuts`).
 */
export class FloorTracker {
  checked = 0;
  lowered = 0;
  redoneCuts = 0;
  private readonly noted: { f: number; key: number; ratio: number }[] = [];
  constructor(private readonly set: LodSet, private readonly policy: 'budget' | 'hybrid', private readonly band: number,
    private readonly reference: LodSet) {}

  state() {
    return this.policy === 'budget' ? budgetStateOf(engineOf(this.set).ci) : hybridStateOf(engineOf(this.set).ci);
  }

  /** Frame `f`: `update` runs the set's update (and whatever the test checks). */
  frame(f: number, update: () => void): void {
    const sse = engineOf(this.set).sse, lambda = sse.lambda, band = this.band, before = this.state();
    const cuts = before.cuts, redone = before.reruns + before.fallbacks + before.raised;
    update();
    const after = this.state(), window = this.noted.filter((n) => f - n.f <= 32);
    if (after.reruns + after.fallbacks + after.raised > redone) {
      const cut = engineOf(this.reference).sse.cutKey, key = cut >= 0 ? cut : lambda;
      if (cut >= 0) this.redoneCuts++;
      this.noted.push({ f, key, ratio: key / lambda });
      return;
    }
    if (after.stableObjects > 0 && lambda > 0) {
      const clamp = (x: number) => Math.min(1 - band / 4, Math.max(1 - band, x));
      const byKey = window.length === 0 ? 1 - band : clamp(Math.max(...window.map((n) => n.key)) / lambda + band / 8);
      const byRatio = window.length === 0 ? 1 - band : clamp(Math.max(...window.map((n) => n.ratio)) + band / 8);
      expect(after.ranges.floorFactor).toBeCloseTo(byKey, 12);
      this.checked++;
      if (byKey < byRatio - 1e-9) this.lowered++;
    }
    if (after.cuts > cuts) this.noted.push({ f, key: sse.cutAt, ratio: sse.cutAt / lambda });
  }
}
