/**
 * The float32 CPU reference of the GPU selection passes: the same operations in the same order as
 * {@link SELECT_WGSL} (and, with a budget, {@link BUDGET_CUT_WGSL} via budgetReference.ts), every
 * intermediate rounded with `Math.fround`, reading the same packed frame and profile bytes and
 * updating the same object records. Tests compare the GPU's levels, blend, stats and changed ids
 * against it.
 *
 * The exactness rule (docs/webgpu.md): WGSL allows a few ulps of error on `sqrt` and division (2.5
 * ulp for `/`) and lets a compiler fuse multiply-adds, so a GPU value can differ from this reference
 * by a few float32 ulps. Levels must be equal for every object except the near-threshold ones, which
 * this reference flags: an object is near when a value the decision compares lies within a relative
 * `NEAR_EPSILON` (2^-19, 16 ulps at 1.0) of what it is compared with — a plane test `a·x+b·y+c·z+d`
 * vs `−r` (relative to the sum of the magnitudes), the eye-inside test `d` vs `r`, a value the
 * OpenUSD rule reads (the metric, `v·(1±h)` when hysteresis is evaluated, the held size) vs a
 * threshold or blend threshold, a fractional index within `2^-16` of a rounding midpoint, or
 * (budget) an upgrade step that could fall on the other side of the cut (budgetReference.ts
 * `chainFloat32`). Blend must be within {@link BLEND_TOLERANCE} of this reference for every object
 * that is not near.
 *
 * Semantics follow `LodSet`'s thresholds policy (`cull` on or off; and, with a budget, its hybrid
 * policy, bucketed and with the stability band's keep bonus only — budgetReference.ts): culled in every view →
 * `HIDDEN_LEVEL` (255); a NaN/±∞ coordinate or a negative radius → the coarsest allowed level;
 * OpenUSD blend fraction, clamped to `[minLevel, maxLevel]`; hysteresis is the relative band `h`
 * (keep the previous level `Lp` when `Lp` lies between the levels of `v·(1+h)` and `v·(1−h)`, with
 * the blend of the previous size); `minFramesBetweenChanges` holds `Lp` while fewer frames than that
 * have passed since its last change; neither applies after a hidden or invalid frame.
 *
 * @module
 */
import { BUDGET_BUCKETS, BUDGET_SUB_BUCKETS, FrameFlag, NO_REFERENCE, OBJECT_WORDS, PROFILE_BYTES, ProfileWord, viewOffset } from './layout.js';
import { chainFloat32, cutFloat32, suffixCut } from './budgetReference.js';
import { NEAR_EPSILON, type ProfileView } from './referenceTolerance.js';

const fr = Math.fround;
const PI32 = fr(Math.PI);
/** Largest finite float32 (the eye-inside size). */
export const MAXF = fr(3.4028234663852886e38);

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
/** Float32 bits of `x`. */
export function bitsOf(x: number): number { f32[0] = x; return u32[0]; }
/** The float32 whose bits are `b`. */
export function floatOf(b: number): number { u32[0] = b; return f32[0]; }


/** OpenUSD's fractional index at `x`, clamped to `[lo, hi]` (kernel `lodIndex`). */
export function lodIndexF32(pv: ProfileView, desc: boolean, x: number, lo: number, hi: number): number {
  const { pu, pt, o } = pv;
  const n = pu[o + ProfileWord.count], nb = pu[o + ProfileWord.blendCount];
  const t = o + ProfileWord.thresholds, b = o + ProfileWord.blend;
  let lod = 0;
  for (let j = 0; j < n; j++) lod += desc ? +!(x > pt[t + j]) : +!(x < pt[t + j]);
  let f = lod;
  if (nb !== 0) {
    let bi = 0;
    for (let j = 0; j < nb; j++) bi += desc ? +!(x > pt[b + j]) : +!(x < pt[b + j]);
    if (bi > lod) bi = lod;
    if (lod > 0 && bi < lod - 1) bi = lod - 1;
    if (bi !== lod && bi < nb) {
      const a = pt[t + bi];
      let e = pt[b + bi];
      if (desc) {
        if (lod < n && pt[t + lod] > e) e = pt[t + lod];
        if (a >= x && x > e) f = fr(bi + fr(fr(x - a) / fr(e - a)));
      } else {
        if (lod < n && pt[t + lod] < e) e = pt[t + lod];
        if (a <= x && x < e) f = fr(bi + fr(fr(x - a) / fr(e - a)));
      }
    }
  }
  return f < lo ? lo : f > hi ? hi : f;
}

const roundIndex = (f: number): number => Math.floor(fr(f + 0.5));

/** True when `x` is within `NEAR_EPSILON` of a (blend) threshold, or its index within 2^-16 of a rounding midpoint. */
function nearIndex(pv: ProfileView, desc: boolean, x: number, lo: number, hi: number): boolean {
  const { pu, pt, o } = pv;
  const n = pu[o + ProfileWord.count], nb = pu[o + ProfileWord.blendCount];
  for (let j = 0; j < n; j++) { const t = pt[o + ProfileWord.thresholds + j]; if (Math.abs(x - t) <= NEAR_EPSILON * Math.max(Math.abs(t), 1e-30)) return true; }
  for (let j = 0; j < nb; j++) { const t = pt[o + ProfileWord.blend + j]; if (Math.abs(x - t) <= NEAR_EPSILON * Math.max(Math.abs(t), 1e-30)) return true; }
  if (nb === 0) return false;
  const f = lodIndexF32(pv, desc, x, lo, hi);
  return Math.abs(f - Math.floor(f) - 0.5) <= 2 ** -16;
}

/** What {@link referenceFrame} returns (cost sums in cost units). @category WebGPU */
export interface ReferenceStats {
  totalUnits: number; preferredUnits: number; minimumUnits: number;
  mode: number; cut: number; hidden: number; invalid: number; held: number;
  levelCounts: number[];
  /** Ids whose level changed (ascending). */
  changed: number[];
}

/**
 * Runs one frame for objects `[0, count)` in float32 arithmetic. `objects` holds the previous
 * frame's object records (layout.ts; `OBJECT_WORDS` per object) and is overwritten with this
 * frame's; `blend[i]` receives the blend fraction; `near[i]` is set to 1 for near-threshold objects
 * (see the module notes), else 0.
 * @example
 * ```ts
 * const stats = referenceFrame(sel.frameBytes, sel.profileBytes, spheres, profileIds, n, records, blend, near);
 * const level0 = records[0] & 0xff;
 * ```
 * @category WebGPU
 */
export function referenceFrame(frame: ArrayBuffer, profiles: ArrayBuffer, spheres: Float32Array, profileIds: Uint32Array,
  count: number, objects: Uint32Array, blend: Float32Array, near: Uint8Array): ReferenceStats {
  const f = new Float32Array(frame), u = new Uint32Array(frame);
  const pu = new Uint32Array(profiles), pt = new Float32Array(profiles), w = PROFILE_BYTES / 4;
  const viewCount = u[1], bias = f[2], h = f[3], minFrames = u[7], minLevel = u[8], maxLevel = u[9];
  const band = f[16];
  const hasBudget = (u[10] & FrameFlag.budget) !== 0, cullOn = (u[10] & FrameFlag.noCull) === 0, tol = f[11], vmax = f[14];
  const up = fr(1 + h), down = fr(1 - h);
  const pv: ProfileView = { pu, pt, o: 0 };
  const hist = new Float64Array(BUDGET_BUCKETS);
  let prefUnits = 0, minUnits = 0;
  for (let i = 0; i < count; i++) {
    const x = spheres[4 * i], y = spheres[4 * i + 1], z = spheres[4 * i + 2], r = spheres[4 * i + 3];
    const p = profileIds[i], o = p * w, metric = pu[o], levels = pu[o + ProfileWord.levels], desc = metric !== 0;
    pv.o = o;
    const hi = Math.min(maxLevel, levels - 1), lo = Math.min(minLevel, hi);
    const st = objects[OBJECT_WORDS * i];
    let isNear = false;
    const rec = (size: number, work: number, weight: number) => {
      objects[OBJECT_WORDS * i + 1] = size; objects[OBJECT_WORDS * i + 2] = work; objects[OBJECT_WORDS * i + 3] = weight;
    };
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z) || !Number.isFinite(r) || r < 0) {
      rec(0, hi | (1 << 8) | (1 << 10) | (1 << 11), 0); blend[i] = 0; near[i] = 0;
      if (hasBudget) { prefUnits += pu[o + ProfileWord.costs + hi]; minUnits += pu[o + ProfileWord.costs + hi]; }
      continue;
    }
    let visible = false, inside = false, insidePx = false, acc = metric === 0 ? MAXF : 0, px = 0;
    for (let v = 0; v < viewCount; v++) {
      const vo = viewOffset(v);
      let culled = false;
      for (let k = 0; k < 6; k++) {
        const a = fr(f[vo + 4 * k] * x), b = fr(f[vo + 4 * k + 1] * y), c = fr(f[vo + 4 * k + 2] * z), d = f[vo + 4 * k + 3];
        const s = fr(fr(fr(a + b) + c) + d);
        if (Math.abs(s + r) <= NEAR_EPSILON * (Math.abs(a) + Math.abs(b) + Math.abs(c) + Math.abs(d) + r)) isNear = true;
        if (s < -r) culled = true;
      }
      if (culled && cullOn) continue;
      visible = true;
      if (culled && metric !== 0) continue; // cull off: a screen size of 0, a no-op in the max
      const persp = f[vo + 27] !== 0, wh = f[vo + 28], wa = f[vo + 29], vp = f[vo + 30], scale = metric === 1 ? vp : 1;
      let dist = 0;
      if (metric === 0 || persp) {
        const dx = fr(x - f[vo + 24]), dy = fr(y - f[vo + 25]), dz = fr(z - f[vo + 26]);
        dist = fr(Math.sqrt(fr(fr(fr(dx * dx) + fr(dy * dy)) + fr(dz * dz))));
      }
      if (persp && Math.abs(dist - r) <= NEAR_EPSILON * dist && (metric === 1 || metric === 2 || hasBudget)) isNear = true;
      if (culled) {
        // cull off, distance metric: no weight from this view
      } else if (persp) {
        if (dist <= r) insidePx = true;
        else { const val = fr(fr(fr(2 * r) / fr(dist * wh)) * vp); if (val > px) px = val; }
      } else {
        const val = fr(fr(fr(2 * r) / wh) * vp); if (val > px) px = val;
      }
      if (metric === 0) {
        const dv = fr(dist - r), val = dv > 0 ? dv : 0;
        if (val < acc) acc = val;
      } else if (metric === 3) {
        if (persp) {
          if (dist === 0) { inside = true; continue; }
          const rr = fr(r / dist);
          const val = fr(fr(fr(PI32 * rr) * rr) / wa);
          if (val > acc) acc = val;
        } else {
          const val = fr(fr(fr(PI32 * r) * r) / wa);
          if (val > acc) acc = val;
        }
      } else if (persp) {
        if (dist <= r) { inside = true; continue; }
        const val = fr(fr(fr(2 * r) / fr(dist * wh)) * scale);
        if (val > acc) acc = val;
      } else {
        const val = fr(fr(fr(2 * r) / wh) * scale);
        if (val > acc) acc = val;
      }
    }
    if (!visible) { rec(0, 255 | (2 << 8) | (1 << 11), 0); blend[i] = 0; near[i] = isNear ? 1 : 0; continue; }
    const xv = inside ? MAXF : metric === 0 ? fr(acc / bias) : fr(acc * bias);
    let fi = lodIndexF32(pv, desc, xv, lo, hi);
    if (!inside && nearIndex(pv, desc, xv, lo, hi)) isNear = true;
    let level = roundIndex(fi), frac = fr(fi - Math.floor(fi)), used = xv, mark = 0;
    const old = st & 0xff, hasRef = (st & NO_REFERENCE) === 0;
    if ((h > 0 || minFrames > 0) && level !== old && hasRef && old >= lo && old <= hi) {
      let hold = minFrames > 0 && (st >>> 16) + 1 < minFrames;
      if (!hold && h > 0) {
        const xa = xv === MAXF ? MAXF : fr(xv * up), xb = xv === MAXF ? MAXF : fr(xv * down);
        if ((xa !== MAXF && nearIndex(pv, desc, xa, lo, hi)) || (xb !== MAXF && nearIndex(pv, desc, xb, lo, hi))) isNear = true;
        const la = roundIndex(lodIndexF32(pv, desc, xa, lo, hi)), lb = roundIndex(lodIndexF32(pv, desc, xb, lo, hi));
        hold = la <= lb ? la <= old && old <= lb : lb <= old && old <= la;
      }
      if (hold) {
        const prev = floatOf(objects[OBJECT_WORDS * i + 1]);
        if (prev !== MAXF && nearIndex(pv, desc, prev, lo, hi)) isNear = true;
        const fp = lodIndexF32(pv, desc, prev, lo, hi);
        frac = roundIndex(fp) === old ? fr(fp - Math.floor(fp)) : 0;
        level = old; used = prev; mark = 1;
      }
    }
    const weight = insidePx ? vmax : Math.min(fr(px * bias), vmax);
    const work = level | (mark << 8);
    rec(bitsOf(used), work, bitsOf(weight));
    blend[i] = frac;
    if (hasBudget) {
      const cost = (l: number) => pu[o + ProfileWord.costs + l];
      prefUnits += cost(level);
      const fl = Math.min(Math.max(pu[o + ProfileWord.floor], lo), hi);
      if (mark === 1 || level >= fl) minUnits += cost(level);
      else {
        const c = chainFloat32(pv, i, count, level, fl, weight, tol, 0, hist, 0, st & 0xff, band);
        minUnits += cost(c.start);
        if (c.near) isNear = true;
      }
    }
    near[i] = isNear ? 1 : 0;
  }
  // Cuts (budgetReference.ts): buckets, then the partial bucket's sub-buckets; then compaction.
  let mode = 0, thr = 0;
  if (hasBudget) {
    const c = cutFloat32(u[12] + u[13] * 2 ** 32, prefUnits, minUnits, hist);
    mode = c.mode;
    thr = mode === 2 ? BUDGET_BUCKETS * 256 : c.cut * 256;
    if (mode === 1 && c.partial < BUDGET_BUCKETS) {
      const sub = new Float64Array(BUDGET_SUB_BUCKETS);
      for (let i = 0; i < count; i++) {
        const b = OBJECT_WORDS * i, work = objects[b + 2], pref = work & 0xff;
        if (((work >>> 8) & 3) !== 0) continue;
        const o = profileIds[i] * w, levels = pu[o + ProfileWord.levels], hi = Math.min(maxLevel, levels - 1), lo = Math.min(minLevel, hi);
        const fl = Math.min(Math.max(pu[o + ProfileWord.floor], lo), hi);
        pv.o = o;
        if (pref < fl) chainFloat32(pv, i, count, pref, fl, floatOf(objects[b + 3]), tol, 1, sub, c.partial, objects[b] & 0xff, band);
      }
      thr = c.partial * 256 + suffixCut(sub, BUDGET_SUB_BUCKETS, c.left).cut;
    }
  }
  const cut = { mode, cut: thr };
  const stats: ReferenceStats = {
    totalUnits: 0, preferredUnits: hasBudget ? prefUnits : 0, minimumUnits: hasBudget ? minUnits : 0, mode, cut: thr,
    hidden: 0, invalid: 0, held: 0, levelCounts: new Array(16).fill(0), changed: [],
  };
  for (let i = 0; i < count; i++) {
    const b = OBJECT_WORDS * i, st = objects[b], work = objects[b + 2], pref = work & 0xff, mark = (work >>> 8) & 3;
    const p = profileIds[i], o = p * w;
    pv.o = o;
    let level = pref;
    if (mark === 0 && cut.mode !== 0) {
      const levels = pu[o + ProfileWord.levels], hi = Math.min(maxLevel, levels - 1), lo = Math.min(minLevel, hi);
      const fl = Math.min(Math.max(pu[o + ProfileWord.floor], lo), hi);
      if (pref < fl) {
        const c = chainFloat32(pv, i, count, pref, fl, floatOf(objects[b + 3]), tol, 2, null, cut.cut, st & 0xff, band);
        level = c.level;
        if (c.near) near[i] = 1;
      }
    }
    const old = st & 0xff, changed = level !== old;
    const since = changed ? 0 : Math.min((st >>> 16) + 1, 0xffff);
    objects[b] = (level | ((work & (1 << 11)) !== 0 ? NO_REFERENCE : 0) | (since << 16)) >>> 0;
    if (level !== pref) blend[i] = 0;
    if (level < 16) { stats.totalUnits += pu[o + ProfileWord.costs + level]; stats.levelCounts[level]++; }
    if (mark === 2) stats.hidden++;
    if (work & (1 << 10)) stats.invalid++;
    else if (mark === 1) stats.held++;
    if (changed) stats.changed.push(i);
  }
  return stats;
}
