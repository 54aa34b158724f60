/**
 * Every generated variant of the threshold decision rule (scripts/templates/decide.template.ts →
 * src/batch/kernels/*.generated.ts) against the readable rule: OpenUSD's fractional index from
 * heuristics/lodIndex.ts (`computeLodDescending` / `computeLodAscending`), then the clamp to
 * [lo, hi], the rounding to a level and the two holds as the kernels' contract states them
 * (thresholdKernels.ts). Never one variant against another. Random profiles (ties, blend windows,
 * values exactly on a threshold or blend threshold, one float32 step either side, NaN), bias,
 * hysteresis (the frame's band and profiles' own per-boundary bands), minFramesBetweenChanges, previous levels and sizes, forced, hidden, culled and
 * removed objects, the metric filter, slot permutations and both homes of `sizes`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeLodAscending, computeLodDescending } from '../../src/heuristics/lodIndex.js';
import { FrameState } from '../../src/batch/core/frameState.js';
import type { ClusterIndex } from '../../src/batch/spatial/clusters.js';
import { decideAscending, decideDescending } from '../../src/batch/kernels/thresholdKernels.js';
import { decideAscendingMapped, decideDescendingMapped } from '../../src/batch/kernels/mappedKernels.js';
import { decideDescendingSingle } from '../../src/batch/kernels/singleKernels.js';
import { decideAscendingNext, decideDescendingNext } from '../../src/batch/kernels/nextKernels.js';

const FRAME = 10, STRIDE = 8, EMPTY = new Float32Array(0);

interface Profile { t: Float32Array; b: Float32Array; lo: number; hi: number; costs: number[]; code: number; bands: number[] | null }
type Kind = 'normal' | 'hidden' | 'culled' | 'nan' | 'removed';
interface Obj { profile: number; kind: Kind; v: number; forced: number; old: number; oldBlend: number; prev: number; lastChange: number }
interface Case { desc: boolean; profiles: Profile[]; objs: Obj[]; bias: number; h: number; minFrames: number; filter: boolean; code: number; perm: number[]; bySlot: boolean }

/** What the readable rule says about one object. */
interface Expected { skip: boolean; hidden: boolean; invalid: boolean; level: number; blend: number; size: number; mark: number; inWindow: boolean }

function expectedOf(c: Case, o: Obj): Expected {
  const pr = c.profiles[o.profile];
  const none = { skip: false, hidden: false, invalid: false, level: 0, blend: 0, size: Number.NaN, mark: 0, inWindow: false };
  if (o.kind === 'removed' || (c.filter && pr.code !== c.code)) return { ...none, skip: true };
  if (o.kind === 'hidden' || o.kind === 'culled') return { ...none, hidden: true, level: 255, mark: 2 };
  if (o.kind === 'nan' || Number.isNaN(o.v)) return { ...none, invalid: true, level: pr.hi, mark: 1 };
  const v = o.v, lc = pr.t.length + 1;
  if (o.forced !== 255) return { ...none, level: o.forced < lc ? o.forced : lc - 1, size: Math.fround(v), mark: 1 };
  const lod = (x: number) => (c.desc ? computeLodDescending : computeLodAscending)(pr.t, pr.b, x);
  const clamped = (x: number) => Math.min(Math.max(lod(x), pr.lo), pr.hi);
  const raw = lod(v), scan = (c.desc ? computeLodDescending : computeLodAscending)(pr.t, EMPTY, v);
  const f = clamped(v);
  let level = Math.floor(f + 0.5), frac = f - Math.floor(f), size = v, mark = 0;
  // Holds (thresholdKernels.ts): only when the level would change from a previous level inside
  // [lo, hi] with a known previous size; minFramesBetweenChanges first, then the hysteresis band.
  // The band: the profile's own for the boundary the level would leave across, else the frame's.
  const anyBands = c.profiles.some((q) => q.bands !== null);
  if ((c.h > 0 || c.minFrames > 0 || anyBands) && level !== o.old && o.old >= pr.lo && o.old <= pr.hi && !Number.isNaN(o.prev)) {
    let hold = c.minFrames > 0 && FRAME - o.lastChange < c.minFrames;
    const h = pr.bands === null ? c.h : pr.bands[level > o.old ? o.old : o.old - 1];
    if (!hold && h > 0) {
      const la = Math.floor(clamped(v * (1 + h)) + 0.5), lb = Math.floor(clamped(v * (1 - h)) + 0.5);
      hold = Math.min(la, lb) <= o.old && o.old <= Math.max(la, lb);
    }
    if (hold) {
      const fp = clamped(o.prev);
      frac = Math.floor(fp + 0.5) === o.old ? fp - Math.floor(fp) : 0;
      level = o.old; size = o.prev; mark = 1;
    }
  }
  return { skip: false, hidden: false, invalid: false, level, blend: Math.fround(frac), size: Math.fround(size), mark, inWindow: raw !== scan || mark === 1 };
}

// ---- random cases ----

const step = (x: number, up: boolean) => { // one float32 step
  const a = new Float32Array([x]), u = new Uint32Array(a.buffer);
  if (x === 0) return up ? 1e-45 : -1e-45;
  u[0] += (x > 0) === up ? 1 : -1;
  return a[0];
};

function profileArb(desc: boolean, maxN: number, code: number): fc.Arbitrary<Profile> {
  return fc.integer({ min: 0, max: maxN }).chain((n) => fc.record({
    raw: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: n, maxLength: n }),
    nb: fc.integer({ min: 0, max: n }), inner: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    lo: fc.integer({ min: 0, max: n }), span: fc.integer({ min: 0, max: n }),
    costs: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: STRIDE, maxLength: STRIDE }),
    bands: fc.option(fc.array(fc.constantFrom(0, 0.1, 0.25, 0.5), { minLength: n, maxLength: n }), { freq: 2 }),
  }).map(({ raw, nb, inner, lo, span, costs, bands }) => {
    const t = Float32Array.from(raw.map((x) => x / 8).sort((a, b) => (desc ? b - a : a - b)));
    const b: number[] = [];
    for (let i = 0; i < nb; i++) { // b[i] in (t[i+1], t[i]] (descending) or [t[i], t[i+1]) (ascending)
      const next = i + 1 < n ? t[i + 1] : desc ? 0 : t[i] * 2;
      if (next === t[i]) break;
      b.push(inner[i] ? Math.fround((t[i] + next) / 2) : t[i]);
    }
    return { t, b: Float32Array.from(b), lo, hi: Math.min(n, lo + span), costs, code, bands };
  }));
}

function objArb(profiles: Profile[], single: boolean, h: number, desc: boolean): fc.Arbitrary<Obj> {
  return fc.record({
    profile: single ? fc.constant(0) : fc.integer({ min: 0, max: profiles.length - 1 }),
    kind: fc.constantFrom<Kind>('normal', 'normal', 'normal', 'normal', 'normal', 'normal', 'normal', 'normal', 'hidden', 'culled', 'nan', 'removed'),
    pick: fc.nat(), pickPrev: fc.nat(), nudge: fc.constantFrom(0, 0, 1, -1), free: fc.double({ min: 0, max: 80, noNaN: true }),
    forced: fc.constantFrom(255, 255, 255, 255, 255, 255, 255, 255, 0, 1, 3, 9), old: fc.constantFrom(-1, -1, -1, -1, 255, 0, 1, 2, 3, 4, 5),
    oldBlend: fc.constantFrom(0, 0.5), prevKind: fc.constantFrom('pool', 'pool', 'pool', 'pool', 'pool', 'nan'), lastChange: fc.integer({ min: 0, max: FRAME }),
  }).map((r) => {
    const pr = profiles[r.profile];
    // thresholds, blend thresholds, mid-window values, the edges of the hysteresis bands t/(1+h), t/(1−h)
    const bandOf = (k: number) => (pr.bands === null ? h : pr.bands[k]);
    const edges = [...pr.t].flatMap((x, k) => (bandOf(k) > 0 ? [x / (1 + bandOf(k)), x / (1 - bandOf(k))] : []));
    const pool = [...pr.t, ...pr.b, ...[...pr.b].map((x, i) => (x + pr.t[i]) / 2), ...edges, 0, 1000, r.free];
    let v = pool[r.pick % pool.length];
    if (r.nudge !== 0) v = step(v, r.nudge > 0);
    if (v < 0) v = 0;
    const prev = r.prevKind === 'nan' ? Number.NaN : Math.fround(pool[r.pickPrev % pool.length]);
    // old −1: the level the previous size gave (last frame's decision), else the value itself
    const lodPrev = (desc ? computeLodDescending : computeLodAscending)(pr.t, pr.b, prev);
    const old = r.old >= 0 ? r.old : Number.isNaN(prev) ? 255 : Math.floor(Math.min(Math.max(lodPrev, pr.lo), pr.hi) + 0.5);
    return { profile: r.profile, kind: r.kind, v, forced: r.forced, old, oldBlend: r.oldBlend, prev, lastChange: r.lastChange };
  });
}

function caseArb(desc: boolean, single: boolean): fc.Arbitrary<Case> {
  const maxN = single ? 4 : 6;
  return fc.tuple(profileArb(desc, maxN, desc ? 2 : 0), profileArb(desc, maxN, desc ? 1 : 0), fc.constantFrom(0, 0, 0.1, 0.25, 0.5)).chain(([p0, p1, h]) => { const profiles = [p0, p1]; return fc.record({
    objs: fc.array(objArb(profiles, single, h, desc), { minLength: 1, maxLength: 40 }),
    bias: fc.constantFrom(1, 0.5, 2, 4), h: fc.constant(h), minFrames: fc.constantFrom(0, 0, 2, 5),
    filter: single ? fc.constant(false) : fc.boolean(), code: fc.constantFrom(profiles[0].code, profiles[1].code),
    seed: fc.nat(), bySlot: fc.boolean(),
  }).map(({ objs, bias, h, minFrames, filter, code, seed, bySlot }) => {
    const perm = objs.map((_, i) => i); // a deterministic shuffle: slot k holds id perm[k]
    for (let i = perm.length - 1, s = seed; i > 0; i--) { s = (s * 1103515245 + 12345) >>> 0; const j = s % (i + 1); [perm[i], perm[j]] = [perm[j], perm[i]]; }
    return { desc, profiles, objs, bias, h, minFrames, filter, code, perm, bySlot };
  }); });
}

// ---- inputs in the kernels' layouts ----

function frameState(c: Case): FrameState {
  const st = new FrameState(), n = c.objs.length, P = c.profiles.length;
  st.stride = STRIDE;
  st.thresholds = new Float32Array(P * STRIDE); st.blendThresholds = new Float32Array(P * STRIDE);
  st.thresholds4 = new Float32Array(P * 4).fill(Number.NEGATIVE_INFINITY); st.blendThresholds4 = new Float32Array(P * 4).fill(Number.NEGATIVE_INFINITY);
  st.thresholdCount = new Uint8Array(P); st.blendCount = new Uint8Array(P); st.levelCount = new Uint8Array(P);
  st.bands = new Float64Array(P * STRIDE); st.banded = new Uint8Array(P); st.anyBands = false;
  st.metricCode = new Uint8Array(P); st.lo = new Uint8Array(P); st.hi = new Uint8Array(P); st.costs = new Float64Array(P * STRIDE);
  c.profiles.forEach((pr, p) => {
    st.thresholds.set(pr.t, p * STRIDE); st.blendThresholds.set(pr.b, p * STRIDE);
    st.thresholds4.set(pr.t.subarray(0, 4), p * 4); st.blendThresholds4.set(pr.b.subarray(0, 4), p * 4);
    st.thresholdCount[p] = pr.t.length; st.blendCount[p] = pr.b.length; st.levelCount[p] = pr.t.length + 1;
    st.metricCode[p] = pr.code; st.lo[p] = pr.lo; st.hi[p] = pr.hi; st.costs.set(pr.costs, p * STRIDE);
    if (pr.bands !== null) { st.bands.set(pr.bands, p * STRIDE); st.banded[p] = 1; st.anyBands = true; }
  });
  st.work = new Float64Array(n); st.flags = new Uint8Array(n); st.profileIds = new Uint16Array(n); st.forced = new Uint8Array(n);
  st.levels = new Uint8Array(n); st.blend = new Float32Array(n); st.sizes = new Float32Array(n); st.lastChange = new Int32Array(n);
  st.changed = new Uint32Array(n); st.fixed = new Uint8Array(n).fill(7); st.next = new Uint8Array(n).fill(7);
  st.levelCounts = new Uint32Array(STRIDE); st.countScratch = new Uint32Array(STRIDE);
  st.bias = c.bias; st.hysteresis = c.h; st.minFrames = c.minFrames; st.frame = FRAME; st.code = c.code; st.filter = c.filter;
  st.changedCount = 0; st.totalCost = 0; st.minimumCost = 0; st.invalid = 0; st.hidden = 0;
  st.uMin = 256; st.uMax = -1; st.uFrac = 0;
  c.objs.forEach((o, i) => {
    st.work[i] = metricOf(c, o); st.flags[i] = o.kind === 'removed' ? 2 : o.kind === 'hidden' ? 1 : 0;
    st.profileIds[i] = o.profile; st.forced[i] = o.forced; st.levels[i] = o.old; st.blend[i] = o.oldBlend;
    st.sizes[i] = o.prev; st.lastChange[i] = o.lastChange;
  });
  return st;
}

/** The metric value before bias (bias is a power of two: `v` is recovered exactly). */
function metricOf(c: Case, o: Obj): number {
  if (o.kind === 'culled') return c.desc ? -1 : Number.POSITIVE_INFINITY;
  if (o.kind === 'nan') return Number.NaN;
  return c.desc ? o.v / c.bias : o.v * c.bias;
}

/** The slot-ordered copies of a ClusterIndex (the fields the kernels read), slot k holding id perm[k]. */
function clusterIndex(c: Case, st: FrameState): ClusterIndex {
  const n = c.objs.length, at = (f: (i: number) => number) => c.perm.map((i) => f(i));
  const fields = {
    slotId: Uint32Array.from(c.perm), workS: Float64Array.from(at((i) => st.work[i])), flagsS: Uint8Array.from(at((i) => st.flags[i])),
    profS: Uint16Array.from(at((i) => st.profileIds[i])), forcedS: Uint8Array.from(at((i) => st.forced[i])),
    levelsS: Uint8Array.from(at((i) => st.levels[i])), blendS: Float32Array.from(at((i) => st.blend[i])),
    sizesS: c.bySlot ? Float32Array.from(at((i) => st.sizes[i])) : new Float32Array(n), sizesInSlots: c.bySlot,
  };
  return fields as unknown as ClusterIndex; // (only what the decision kernels read)
}

// ---- checks ----

interface Totals { counts: number[]; total: number; minimum: number; invalid: number; hidden: number; changed: number[]; uMin: number; uMax: number; uFrac: number }

function expectedTotals(c: Case, order: number[], changesOnly: boolean): Totals {
  const r: Totals = { counts: new Array(STRIDE).fill(0), total: 0, minimum: 0, invalid: 0, hidden: 0, changed: [], uMin: 256, uMax: -1, uFrac: 0 };
  for (const i of order) {
    const o = c.objs[i], e = expectedOf(c, o), pr = c.profiles[o.profile];
    if (e.skip) continue;
    if (e.level !== o.old || !changesOnly) r.changed.push(i);
    r.uMin = Math.min(r.uMin, e.level); r.uMax = Math.max(r.uMax, e.level);
    if (e.hidden) { r.hidden++; continue; }
    if (e.invalid) r.invalid++;
    r.counts[e.level]++;
    r.total += pr.costs[e.level];
    r.minimum += pr.costs[e.mark === 0 ? pr.hi : e.level];
    if (e.inWindow || e.blend !== 0) r.uFrac = 1;
  }
  return r;
}

function checkStats(st: FrameState, t: Totals, track: boolean): void {
  expect(Array.from(st.levelCounts)).toEqual(t.counts);
  expect(st.totalCost).toBe(t.total);
  expect(st.minimumCost).toBe(t.minimum);
  expect(st.invalid).toBe(t.invalid);
  expect(st.hidden).toBe(t.hidden);
  if (track) expect(Array.from(st.changed.subarray(0, st.changedCount))).toEqual(t.changed);
}

const ids = (c: Case) => c.objs.map((_, i) => i);

function checkPlain(c: Case, track: boolean): void {
  const st = frameState(c), out = track ? st.levels : st.next;
  (c.desc ? decideDescending : decideAscending)(st, 0, c.objs.length, out, track);
  c.objs.forEach((o, i) => {
    const e = expectedOf(c, o);
    if (e.skip) { expect(out[i]).toBe(track ? o.old : 7); return; }
    expect([i, out[i], st.blend[i], st.sizes[i]]).toEqual([i, e.level, e.blend, e.size]);
    if (track) expect(st.lastChange[i]).toBe(e.level !== o.old ? FRAME : o.lastChange);
    else expect(st.fixed[i]).toBe(e.mark);
  });
  checkStats(st, expectedTotals(c, ids(c), true), track);
}

function checkMapped(c: Case, single: boolean): void {
  const st = frameState(c), ci = clusterIndex(c, st);
  if (single) decideDescendingSingle(st, ci, 0, c.objs.length, 0);
  else (c.desc ? decideDescendingMapped : decideAscendingMapped)(st, ci, 0, c.objs.length);
  c.perm.forEach((i, k) => {
    const o = c.objs[i], e = expectedOf(c, o);
    if (e.skip) { expect([st.levels[i], ci.levelsS[k]]).toEqual([o.old, o.old]); return; }
    const size = c.bySlot ? ci.sizesS[k] : st.sizes[i];
    expect([i, st.levels[i], ci.levelsS[k], st.blend[i], ci.blendS[k], size]).toEqual([i, e.level, e.level, e.blend, e.blend, e.size]);
    expect(st.lastChange[i]).toBe(e.level !== o.old ? FRAME : o.lastChange);
  });
  const t = expectedTotals(c, c.perm, true);
  checkStats(st, t, true);
  expect([st.uMin, st.uMax, st.uFrac]).toEqual([t.uMin, t.uMax, t.uFrac]);
  expect(Array.from(st.countScratch)).toEqual(new Array(STRIDE).fill(0));
}

function checkNext(c: Case, useList: boolean): void {
  const st = frameState(c), ci = clusterIndex(c, st);
  // with a list: every other slot, relative to base 1 (the fused kernel's left-over slots)
  const list = Int32Array.from(c.perm.map((_, k) => k).filter((k) => k >= 1 && k % 2 === 1).map((k) => k - 1));
  if (useList) (c.desc ? decideDescendingNext : decideAscendingNext)(st, ci, 0, list.length, list, 1);
  else (c.desc ? decideDescendingNext : decideAscendingNext)(st, ci, 0, c.objs.length);
  const run = useList ? Array.from(list, (r) => r + 1) : c.perm.map((_, k) => k);
  c.perm.forEach((i, k) => {
    const o = c.objs[i], e = expectedOf(c, o);
    if (e.skip || !run.includes(k)) { expect([st.next[k], st.fixed[k], st.levels[i]]).toEqual([7, 7, o.old]); return; }
    const size = c.bySlot ? ci.sizesS[k] : st.sizes[i];
    expect([i, st.next[k], st.fixed[k], st.blend[i], ci.blendS[k], size, st.levels[i]]).toEqual([i, e.level, e.mark, e.blend, e.blend, e.size, o.old]);
  });
  checkStats(st, expectedTotals(c, run.map((k) => c.perm[k]), true), false);
}

describe('generated threshold kernels against heuristics/lodIndex.ts (fast-check)', () => {
  for (const desc of [true, false]) {
    const name = desc ? 'Descending' : 'Ascending';
    it(`decide${name} (track and marks)`, () => {
      fc.assert(fc.property(caseArb(desc, false), fc.boolean(), (c, track) => { checkPlain(c, track); }), { numRuns: 300 });
    });
    it(`decide${name}Mapped`, () => {
      fc.assert(fc.property(caseArb(desc, false), (c) => { checkMapped(c, false); }), { numRuns: 300 });
    });
    it(`decide${name}Next (slots and a slot list)`, () => {
      fc.assert(fc.property(caseArb(desc, false), fc.boolean(), (c, useList) => { checkNext(c, useList); }), { numRuns: 300 });
    });
  }
  it('decideDescendingSingle', () => {
    fc.assert(fc.property(caseArb(true, true), (c) => { checkMapped(c, true); }), { numRuns: 300 });
  });

  it('hand-worked: descending 2 levels, blend window, on the threshold and one step either side', () => {
    // thresholds [0.5], blend [0.25]: level 0 above 0.5; in (0.25, 0.5] the index is (v − 0.5)/(0.25 − 0.5)
    const pr: Profile = { t: new Float32Array([0.5]), b: new Float32Array([0.25]), lo: 0, hi: 1, costs: [10, 1, 0, 0, 0, 0, 0, 0], code: 2, bands: null };
    const obj = (v: number): Obj => ({ profile: 0, kind: 'normal', v, forced: 255, old: 255, oldBlend: 0, prev: Number.NaN, lastChange: 0 });
    const c: Case = { desc: true, profiles: [pr, pr], objs: [obj(0.6), obj(0.5), obj(0.375), obj(0.25), obj(0.1)], bias: 1, h: 0, minFrames: 0, filter: false, code: 2, perm: [0, 1, 2, 3, 4], bySlot: false };
    const st = frameState(c);
    decideDescending(st, 0, 5, st.levels, true);
    // f = 0 (above), 0 (on the threshold: the window's start), 0.5 (mid-window: round half up → 1), 1, 1
    expect(Array.from(st.levels)).toEqual([0, 0, 1, 1, 1]);
    expect(Array.from(st.blend)).toEqual([0, 0, 0.5, 0, 0]);
    expect(Array.from(st.sizes)).toEqual([0.6, 0.5, 0.375, 0.25, 0.1].map(Math.fround));
    expect(st.totalCost).toBe(10 + 10 + 1 + 1 + 1);
  });

  it("hand-worked: a profile's own bands, boundary by boundary, and the frame band not applied to it", () => {
    // thresholds [0.4, 0.1], own bands [0.05, 0.5]; the frame's h = 0.2 would hold the first case.
    const pr: Profile = { t: new Float32Array([0.4, 0.1]), b: new Float32Array(0), lo: 0, hi: 2, costs: [10, 1, 0, 0, 0, 0, 0, 0], code: 2, bands: [0.05, 0.5] };
    const obj = (v: number, old: number, prev: number): Obj => ({ profile: 0, kind: 'normal', v, forced: 255, old, oldBlend: 0, prev, lastChange: 0 });
    const objs = [
      obj(0.39, 0, 0.45), // 0.39·1.05 = 0.4095 > 0.4: held at 0 (boundary 0, band 0.05)
      obj(0.37, 0, 0.45), // 0.37·1.05 = 0.3885: to 1 (the frame's 0.2 would have held it)
      obj(0.07, 1, 0.2),  // 0.07·1.5 = 0.105 > 0.1: held at 1 (boundary 1, band 0.5)
      obj(0.06, 1, 0.2),  // 0.09: to 2
      obj(0.12, 2, 0.05), // finer across boundary 1: 0.12·0.5 = 0.06 maps to 2: held at 2
      obj(0.41, 1, 0.2),  // finer across boundary 0: 0.41·0.95 = 0.3895 maps to 1: held at 1
      obj(0.43, 1, 0.2),  // 0.4085: to 0
    ];
    const c: Case = { desc: true, profiles: [pr, pr], objs, bias: 1, h: 0.2, minFrames: 0, filter: false, code: 2, perm: objs.map((_, i) => i), bySlot: false };
    const st = frameState(c);
    decideDescending(st, 0, objs.length, st.levels, true);
    expect(Array.from(st.levels)).toEqual([0, 1, 1, 2, 2, 1, 0]);
    expect(Array.from(st.sizes)).toEqual([0.45, 0.37, 0.2, 0.06, 0.05, 0.2, 0.43].map(Math.fround));
    expect(Array.from(st.changed.subarray(0, st.changedCount))).toEqual([1, 3, 6]);
  });
});
