/**
 * The float32 CPU reference of the GPU selection kernel: the same operations in the same order as
 * {@link SELECT_WGSL}, every intermediate rounded with `Math.fround`, reading the same packed frame
 * and profile bytes. Tests compare the GPU's levels against it.
 *
 * The exactness rule (docs/webgpu.md): WGSL allows a few ulps of error on `sqrt` and division (2.5
 * ulp for `/`) and lets a compiler fuse multiply-adds, so the GPU value of a metric can differ from
 * this reference by a few float32 ulps. Levels must be equal for every object except the
 * near-threshold ones, which this reference flags: an object is near when, in some view, a value the
 * decision compares lies within a relative `NEAR_EPSILON` (2^-19, 16 ulps at 1.0) of what it is
 * compared with — a plane test `a·x+b·y+c·z+d` vs `−r` (relative to the sum of the magnitudes), the
 * eye-inside test `d` vs `r`, or the final metric (and its hysteresis values `v·(1±h)`) vs a threshold.
 *
 * Semantics follow `LodSet`'s thresholds policy with `cull: true`, no blend thresholds, no min/max
 * level, no `minFramesBetweenChanges`: culled in every view → `HIDDEN_LEVEL` (255); a NaN/±∞
 * coordinate or a negative radius → the coarsest level; hysteresis is the relative band `h` (keep the
 * previous level `Lp` when `Lp` lies between the levels of `v·(1+h)` and `v·(1−h)`), with no reference
 * after a hidden or invalid frame.
 *
 * @module
 */
import { NO_REFERENCE, PROFILE_BYTES, viewOffset } from './layout.js';

/** Relative distance to a compared value under which an object counts as near-threshold. @category WebGPU */
export const NEAR_EPSILON = 2 ** -19;

const fr = Math.fround;
const PI32 = fr(Math.PI);
const MAXF = fr(3.4028234663852886e38);

function levelOf(pt: Float32Array, po: number, n: number, metric: number, x: number): number {
  let lod = 0;
  if (metric === 0) { for (let j = 0; j < n; j++) lod += +!(x < pt[po + j]); } else { for (let j = 0; j < n; j++) lod += +!(x > pt[po + j]); }
  return lod;
}

function nearAny(pt: Float32Array, po: number, n: number, x: number): boolean {
  for (let j = 0; j < n; j++) { const t = pt[po + j]; if (Math.abs(x - t) <= NEAR_EPSILON * Math.max(Math.abs(t), 1e-30)) return true; }
  return false;
}

/**
 * Selects levels for objects `[0, count)` in float32 arithmetic. `state` holds the previous frame's
 * state words (level in the low 8 bits, `NO_REFERENCE` bit) and is overwritten with this frame's;
 * `near[i]` is set to 1 for near-threshold objects (see the module notes), else 0.
 * @example
 * ```ts
 * selectLevelsFloat32(frame, profiles, spheres, profileIds, count, state, near);
 * const level0 = state[0] & 0xff;
 * ```
 * @category WebGPU
 */
export function selectLevelsFloat32(frame: ArrayBuffer, profiles: ArrayBuffer, spheres: Float32Array, profileIds: Uint32Array,
  count: number, state: Uint32Array, near: Uint8Array): void {
  const f = new Float32Array(frame), u = new Uint32Array(frame);
  const pu = new Uint32Array(profiles), pt = new Float32Array(profiles), w = PROFILE_BYTES / 4;
  const viewCount = u[1], bias = f[2], h = f[3];
  const up = fr(1 + h), down = fr(1 - h);
  for (let i = 0; i < count; i++) {
    const x = spheres[4 * i], y = spheres[4 * i + 1], z = spheres[4 * i + 2], r = spheres[4 * i + 3];
    const p = profileIds[i], metric = pu[p * w], n = pu[p * w + 1], levels = pu[p * w + 2], po = p * w + 4;
    let isNear = false;
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z) || !Number.isFinite(r) || r < 0) {
      state[i] = (levels - 1) | NO_REFERENCE; near[i] = 0; continue;
    }
    let visible = false, inside = false, acc = metric === 0 ? MAXF : 0;
    for (let v = 0; v < viewCount; v++) {
      const o = viewOffset(v);
      let culled = false;
      for (let k = 0; k < 6; k++) {
        const a = fr(f[o + 4 * k] * x), b = fr(f[o + 4 * k + 1] * y), c = fr(f[o + 4 * k + 2] * z), d = f[o + 4 * k + 3];
        const s = fr(fr(fr(a + b) + c) + d);
        if (Math.abs(s + r) <= NEAR_EPSILON * (Math.abs(a) + Math.abs(b) + Math.abs(c) + Math.abs(d) + r)) isNear = true;
        if (s < -r) culled = true;
      }
      if (culled) continue;
      visible = true;
      const persp = f[o + 27] !== 0, wh = f[o + 28], wa = f[o + 29], scale = metric === 1 ? f[o + 30] : 1;
      let dist = 0;
      if (metric === 0 || persp) {
        const dx = fr(x - f[o + 24]), dy = fr(y - f[o + 25]), dz = fr(z - f[o + 26]);
        dist = fr(Math.sqrt(fr(fr(fr(dx * dx) + fr(dy * dy)) + fr(dz * dz))));
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
        if (Math.abs(dist - r) <= NEAR_EPSILON * dist) isNear = true;
        if (dist <= r) { inside = true; continue; }
        const val = fr(fr(fr(2 * r) / fr(dist * wh)) * scale);
        if (val > acc) acc = val;
      } else {
        const val = fr(fr(fr(2 * r) / wh) * scale);
        if (val > acc) acc = val;
      }
    }
    if (!visible) { state[i] = 255 | NO_REFERENCE; near[i] = isNear ? 1 : 0; continue; }
    const prev = state[i], old = prev & 0xff, hasRef = (prev & NO_REFERENCE) === 0;
    let level: number;
    if (inside) {
      level = levelOf(pt, po, n, metric, MAXF);
    } else {
      const xv = metric === 0 ? fr(acc / bias) : fr(acc * bias);
      level = levelOf(pt, po, n, metric, xv);
      if (nearAny(pt, po, n, xv)) isNear = true;
      if (h > 0 && level !== old && hasRef && old < levels) {
        const xa = fr(xv * up), xb = fr(xv * down);
        if (nearAny(pt, po, n, xa) || nearAny(pt, po, n, xb)) isNear = true;
        const la = levelOf(pt, po, n, metric, xa), lb = levelOf(pt, po, n, metric, xb);
        if (la <= lb ? la <= old && old <= lb : lb <= old && old <= la) level = old;
      }
    }
    state[i] = level;
    near[i] = isNear ? 1 : 0;
  }
}
