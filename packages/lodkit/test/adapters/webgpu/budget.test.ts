/**
 * The GPU path's CPU side, without a GPU: the float32 reference (src/adapters/webgpu/reference.ts)
 * against `LodSet` (float64) for blend, min/max level, hysteresis and minFramesBetweenChanges; the
 * budget math (bucket rule, cut, chains vs `buildObjectChain`); and the measured gap between the
 * GPU's bucketed budget (as its reference computes it) and `LodSet`'s hybrid policy.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Frustum } from '../../../src/metrics/frustum.js';
import type { LodView } from '../../../src/batch/lodSet.js';
import { validateLodProfile, type LodProfileOptions } from '../../../src/batch/core/profiles.js';
import { buildObjectChain } from '../../../src/policies/screenSpaceError.js';
import {
  BUDGET_BUCKETS, bucketOfKey, costScaleOf, keyCodeOf, cutFloat32, FRAME_BYTES, FRESH_STATE, OBJECT_WORDS, packFrame, packProfiles, referenceFrame,
} from '../../../src/adapters/webgpu/index.js';
import { chainFloat32, suffixCut } from '../../../src/adapters/webgpu/budgetReference.js';
import { profileScene } from './scenes.js';

const PROFILES: LodProfileOptions[] = [
  { metric: 'distance', thresholds: [20, 60, 150, 400], blendThresholds: [26, 75, 180, 460], costs: [1000, 400, 100, 20, 4] },
  { metric: 'pixels', thresholds: [300, 100, 30, 10], blendThresholds: [250, 80, 24, 8], costs: [2000, 500, 120, 30, 6], qualityFloor: 3 },
  { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03, 0.01], blendThresholds: [0.25, 0.08, 0.025] },
  { metric: 'screenArea', thresholds: [0.05, 0.005, 0.0005], costs: [900, 300, 60, 9] },
];

const scene = (seed: number, per: number) => profileScene(seed, per, PROFILES);

const yaw = (a: number) => [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
function cameraPath(frames: number): LodView[][] {
  const path: LodView[][] = [];
  for (let k = 0; k < frames - 2; k++) {
    path.push([{ frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 2000, position: [0, 10, 300 - 3 * k], rotation: yaw(0.01 * k) }), viewportHeight: 1080 }]);
  }
  path.push([{ frustum: Frustum.orthographic({ height: 400, aspect: 1.5, near: 0.1, far: 3000, position: [0, 20, 600], rotation: yaw(0.3) }), viewportHeight: 720 }]);
  path.push([
    { frustum: Frustum.perspective({ fovY: 50, aspect: 1, near: 0.1, far: 1500, position: [100, 5, 100], rotation: yaw(1.2) }), viewportHeight: 900 },
    { frustum: Frustum.perspective({ fovY: 70, aspect: 2, near: 0.1, far: 800, position: [-200, 15, -50], rotation: yaw(-2) }), viewportHeight: 600 },
  ]);
  return path;
}

function freshRecords(n: number): Uint32Array {
  const r = new Uint32Array(n * OBJECT_WORDS);
  for (let i = 0; i < n; i++) r[i * OBJECT_WORDS] = FRESH_STATE;
  return r;
}

describe('float32 reference vs LodSet: blend, min/max level, hysteresis, minFramesBetweenChanges', () => {
  it('equal levels and blend (within 2^-16) except counted near-threshold objects', () => {
    const { spheres, ids, set } = scene(11, 4000);
    const n = ids.length;
    const profiles = PROFILES.map((p) => validateLodProfile(p));
    const pb = packProfiles(profiles, 'test');
    const records = freshRecords(n), blend = new Float32Array(n), near = new Uint8Array(n), diverged = new Uint8Array(n);
    const frame = new ArrayBuffer(FRAME_BYTES);
    let nearCount = 0, compared = 0, blended = 0, held = 0;
    const opts = { hysteresis: 0.05, minLevel: 1, maxLevel: 3, minFramesBetweenChanges: 3 };
    for (const [k, views] of cameraPath(8).entries()) {
      packFrame(frame, views, n, 64, 5, 1, opts.hysteresis, { frame: k + 1, minFrames: opts.minFramesBetweenChanges, minLevel: opts.minLevel, maxLevel: opts.maxLevel });
      const st = referenceFrame(frame, pb, spheres, ids, n, records, blend, near);
      held += st.held;
      set.update(views, { policy: 'thresholds', clusters: false, ...opts });
      let bad = 0;
      for (let i = 0; i < n; i++) {
        if (near[i]) { nearCount++; diverged[i] = 1; } // a near case may hold different state afterwards
        if (diverged[i]) continue;
        compared++;
        const mine = records[i * OBJECT_WORDS] & 0xff;
        if (mine !== set.levels[i] || Math.abs(blend[i] - set.blend[i]) > 2 ** -16) bad++;
        if (blend[i] > 0) blended++;
      }
      expect(bad, `frame ${k}`).toBe(0);
    }
    console.info(`[webgpu reference] blend/min/max/minFrames vs LodSet: 8 frames × ${n}, compared ${compared}, blended ${blended}, held ${held}, near ${nearCount}`);
    expect(blended).toBeGreaterThan(1000);
    expect(held).toBeGreaterThan(100);
    expect(nearCount).toBeLessThan(40);
  });
});

describe('float32 reference vs LodSet: cull: false', () => {
  it('every object drawn; equal levels except counted near-threshold objects', () => {
    const { spheres, ids, set } = scene(13, 3000);
    const n = ids.length;
    const pb = packProfiles(PROFILES.map((p) => validateLodProfile(p)), 'test');
    const records = freshRecords(n), blend = new Float32Array(n), near = new Uint8Array(n), diverged = new Uint8Array(n);
    const frame = new ArrayBuffer(FRAME_BYTES);
    let nearCount = 0;
    for (const [k, views] of cameraPath(6).entries()) {
      packFrame(frame, views, n, 64, 5, 1, 0.1, { frame: k + 1, cull: false });
      const st = referenceFrame(frame, pb, spheres, ids, n, records, blend, near);
      set.update(views, { policy: 'thresholds', clusters: false, hysteresis: 0.1, cull: false });
      expect(st.hidden, `frame ${k}`).toBe(0);
      let bad = 0;
      for (let i = 0; i < n; i++) {
        if (near[i]) { nearCount++; diverged[i] = 1; }
        if (!diverged[i] && ((records[i * OBJECT_WORDS] & 0xff) !== set.levels[i] || Math.abs(blend[i] - set.blend[i]) > 2 ** -16)) bad++;
      }
      expect(bad, `frame ${k}`).toBe(0);
    }
    expect(nearCount).toBeLessThan(30);
  });
});

describe('budget math', () => {
  it('keyCodeOf: bucket = bucketOfKey, monotone in the key; key 0 by id range, lower ids first', () => {
    expect(keyCodeOf(1, 0, 10) >>> 8).toBe(bucketOfKey(1));
    expect(keyCodeOf(0, 0, 1000)).toBe(255);
    expect(keyCodeOf(0, 999, 1000)).toBe(255 - Math.floor(999 / 4));
    fc.assert(fc.property(fc.float({ min: Math.fround(1e-15), max: Math.fround(1e15), noNaN: true }), fc.float({ min: Math.fround(1e-15), max: Math.fround(1e15), noNaN: true }), (a, b) => {
      const [x, y] = a <= b ? [a, b] : [b, a];
      expect(keyCodeOf(x, 0, 1)).toBeLessThanOrEqual(keyCodeOf(y, 0, 1));
      expect(keyCodeOf(x, 0, 1) >>> 8).toBe(bucketOfKey(x));
    }), { numRuns: 300 });
  });

  it('bucketOfKey is monotone, 16 buckets per octave, bucket 0 only for keys ≤ 0', () => {
    expect(bucketOfKey(0)).toBe(0);
    expect(bucketOfKey(-1)).toBe(0);
    expect(bucketOfKey(1)).toBe(1024);
    expect(bucketOfKey(2)).toBe(1040);
    expect(bucketOfKey(1e-30)).toBe(1);
    expect(bucketOfKey(1e30)).toBe(BUDGET_BUCKETS - 1);
    fc.assert(fc.property(fc.float({ min: Math.fround(1e-25), max: Math.fround(1e25), noNaN: true }), fc.float({ min: Math.fround(1e-25), max: Math.fround(1e25), noNaN: true }), (a, b) => {
      const [x, y] = a <= b ? [a, b] : [b, a];
      expect(bucketOfKey(x)).toBeLessThanOrEqual(bucketOfKey(y));
      if (y < x * 1.04) expect(bucketOfKey(y) - bucketOfKey(x)).toBeLessThanOrEqual(1); // 2^(1/16) ≈ 1.044
    }), { numRuns: 300 });
  });

  it('cut: the smallest bucket whose suffix sum fits; modes 0 (fits) and 2 (over at the floor)', () => {
    const hist = new Float64Array(BUDGET_BUCKETS);
    hist[1000] = 30; hist[900] = 50; hist[10] = 40; // suffix sums: 30, 80, 120
    expect(cutFloat32(200, 150, 30, hist)).toMatchObject({ mode: 0, cut: 0, bought: 0 });
    expect(cutFloat32(20, 150, 30, hist)).toMatchObject({ mode: 2, cut: BUDGET_BUCKETS, bought: 0 });
    // 80 ≤ 80 < 120: buckets ≥ 11 bought whole, bucket 10 (cost 40) left to refine with 0 left.
    expect(cutFloat32(110, 150, 30, hist)).toEqual({ mode: 1, cut: 11, bought: 80, partial: 10, left: 0 });
    // Not even 30 fits in 29: nothing bought whole; bucket 1000 refined with 29 left.
    expect(cutFloat32(59, 150, 30, hist)).toEqual({ mode: 1, cut: 1001, bought: 0, partial: 1000, left: 29 });
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 5, maxLength: 5 }), fc.integer({ min: 0, max: 4000 }), (costs, room) => {
      const h = new Float64Array(BUDGET_BUCKETS);
      costs.forEach((c, k) => { h[k * 400 + 3] = c; });
      const r = suffixCut(h, BUDGET_BUCKETS, room);
      let bought = 0;
      for (let b = r.cut; b < BUDGET_BUCKETS; b++) bought += h[b];
      expect(bought).toBe(r.bought);
      expect(bought).toBeLessThanOrEqual(room); // never over
      if (r.cut > 0) expect(bought + h[r.cut - 1]).toBeGreaterThan(room); // maximal: one more bucket would not fit
    }), { numRuns: 200 });
  });

  it('chains equal buildObjectChain (keepFlat; band 0, or band 0.4 with λ = 0: the keep bonus) in start, levels and step costs', () => {
    const profiles = PROFILES.map((p) => validateLodProfile(p));
    const pb = packProfiles(profiles, 'test', costScaleOf(profiles));
    const pv = { pu: new Uint32Array(pb), pt: new Float32Array(pb), o: 0 };
    const s = profiles[0].levelCount;
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), fc.float({ min: Math.fround(0.5), max: Math.fround(1080), noNaN: true }), fc.integer({ min: 0, max: 3 }),
      fc.constantFrom(0, 0.4), fc.constantFrom(0, 1, 2, 3, 4, 255), (p, w, pref, band, prev) => {
        const pr = profiles[p], fl = pr.qualityFloor;
        if (pref >= fl) return;
        pv.o = p * 72;
        const hist = new Float64Array(BUDGET_BUCKETS);
        const mine = chainFloat32(pv, 0, 1, pref, fl, w, 1, 0, hist, 0, prev, band);
        if (mine.near) return; // a float32 tie or kink: the float64 chain may take the other branch
        const costs = new Float64Array(s), errors = new Float64Array(s);
        costs.set(pr.costs); errors.set(Float32Array.from(pr.errors)); // the GPU's float32 errors
        const lv = new Uint8Array(16), dc = new Float64Array(16), sl = new Float64Array(16);
        const packed = buildObjectChain(costs, errors, 0, fl, pref, prev, true, new Float64Array([w, 1, band, 0]), lv, dc, sl, 0);
        expect(mine.start).toBe(packed & 255);
        // The histogram holds every step's Δcost (units = cost × scale).
        let units = 0;
        for (let b = 0; b < BUDGET_BUCKETS; b++) units += hist[b];
        const steps = packed >>> 8;
        let cpuUnits = 0;
        for (let j = 0; j < steps; j++) cpuUnits += dc[j];
        expect(units).toBe(cpuUnits * costScaleOf(profiles));
        // Walking with cut 0 reaches the CPU chain's last level.
        expect(chainFloat32(pv, 0, 1, pref, fl, w, 1, 2, null, 0, prev, band).level).toBe(steps > 0 ? lv[steps - 1] : packed & 255);
      }), { numRuns: 400 });
  });
});

/** Σ max(0, error · D − τ) over drawn objects, D = the weight (projected px) the reference recorded. */
function loss(levels: ArrayLike<number>, ids: Uint32Array, records: Uint32Array, tol: number): number {
  const f = new Float32Array(records.buffer, records.byteOffset, records.length);
  const profiles = PROFILES.map((p) => validateLodProfile(p));
  let sum = 0;
  for (let i = 0; i < ids.length; i++) {
    const l = levels[i];
    if (l === 255) continue;
    const e = profiles[ids[i]].errors[l] * f[i * OBJECT_WORDS + 3] - tol;
    if (e > 0) sum += e;
  }
  return sum;
}

describe('GPU budget (float32 reference of the kernels) vs LodSet hybrid', () => {
  it('never over; cost and screen-space loss within the measured gap of the CPU hybrid (band 0 and 0.4)', () => {
    const { spheres, ids, set } = scene(5, 5000);
    const n = ids.length;
    const profiles = PROFILES.map((p) => validateLodProfile(p));
    const scale = costScaleOf(profiles);
    const pb = packProfiles(profiles, 'test', scale);
    const set2 = scene(5, 5000).set; // stabilityBand 0.4 (default) on the same scene
    const records = freshRecords(n), records4 = freshRecords(n), probe = freshRecords(n);
    const blend = new Float32Array(n), near = new Uint8Array(n);
    const frame = new ArrayBuffer(FRAME_BYTES);
    const rows: string[] = [];
    let worstLossRatio = 0, worstUnspent = 0, changes0 = 0, changes4 = 0, cpuChanges4 = 0;
    for (const fraction of [0.2, 0.5, 0.8]) {
      for (const [k, views] of cameraPath(6).entries()) {
        // Budget between the minimum and the preferred cost of this frame.
        packFrame(frame, views, n, 64, 5, 1, 0.1, { frame: k + 1, budgetUnits: 0 });
        probe.set(records);
        const p0 = referenceFrame(frame, pb, spheres, ids, n, probe, blend, near);
        const budget = Math.floor((p0.minimumUnits + fraction * (p0.preferredUnits - p0.minimumUnits)) / scale);
        packFrame(frame, views, n, 64, 5, 1, 0.1, { frame: k + 1, budgetUnits: Math.floor(budget * scale) });
        const st = referenceFrame(frame, pb, spheres, ids, n, records, blend, near);
        packFrame(frame, views, n, 64, 5, 1, 0.1, { frame: k + 1, budgetUnits: Math.floor(budget * scale), stabilityBand: 0.4 });
        const st4 = referenceFrame(frame, pb, spheres, ids, n, records4, blend, near);
        const gpuCost = st.totalUnits / scale, gpuCost4 = st4.totalUnits / scale;
        expect(gpuCost, `fraction ${fraction} frame ${k}`).toBeLessThanOrEqual(budget);
        expect(gpuCost4, `fraction ${fraction} frame ${k}, band 0.4`).toBeLessThanOrEqual(budget);
        const cpu = set.update(views, { policy: 'hybrid', budget, hysteresis: 0.1, stabilityBand: 0, tolerance: 1, clusters: false });
        const cpuBand = set2.update(views, { policy: 'hybrid', budget, hysteresis: 0.1, tolerance: 1, clusters: false });
        if (k > 0) { changes0 += st.changed.length; changes4 += st4.changed.length; cpuChanges4 += cpuBand.changes; }
        const gpuLevels = Array.from({ length: n }, (_, i) => records[i * OBJECT_WORDS] & 0xff);
        const gpuLevels4 = Array.from({ length: n }, (_, i) => records4[i * OBJECT_WORDS] & 0xff);
        const lg = loss(gpuLevels, ids, records, 1), lg4 = loss(gpuLevels4, ids, records4, 1);
        const lc = loss(set.levels, ids, records, 1), lb = loss(set2.levels, ids, records, 1);
        const headroom = budget - p0.minimumUnits / scale;
        const unspent = headroom > 0 ? (budget - gpuCost) / headroom : 0;
        worstUnspent = Math.max(worstUnspent, unspent);
        worstLossRatio = Math.max(worstLossRatio, lg / Math.max(lc, 1e-9));
        rows.push(`f=${fraction} frame ${k}: budget ${budget} | GPU band 0 cost ${gpuCost} loss ${lg.toFixed(0)} changes ${st.changed.length} | CPU band 0 cost ${cpu.totalCost} loss ${lc.toFixed(0)} | GPU band 0.4 cost ${gpuCost4} loss ${lg4.toFixed(0)} changes ${st4.changed.length} | CPU band 0.4 cost ${cpuBand.totalCost} loss ${lb.toFixed(0)} changes ${cpuBand.changes}`);
      }
    }
    console.info(`[webgpu budget gap] ${n} objects, hysteresis 0.1, tolerance 1 px\n${rows.join('\n')}\nworst GPU/CPU(band 0) loss ratio ${worstLossRatio.toFixed(5)}, worst unspent headroom ${(100 * worstUnspent).toFixed(2)} %; level changes on frames ≥ 1: GPU band 0 ${changes0}, GPU band 0.4 ${changes4}, CPU band 0.4 ${cpuChanges4}`);
    expect(worstUnspent).toBeLessThan(0.01);
    expect(worstLossRatio).toBeLessThan(1.1);
  });
});
