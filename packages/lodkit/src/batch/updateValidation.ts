/**
 * Validation of `LodSet`'s arguments: `update`'s, once per frame before any kernel runs, and the
 * profile and object ids of the other methods. Every error is a `RangeError`/`TypeError` naming
 * the method, the field and what was wrong.
 *
 * @module
 */
import type { LodPolicyName, LodUpdateOptions, EngineView, LodViewFrustum } from './core/updateOptions.js';
import { MetricCode, type ProfileTable } from './core/profiles.js';
import { FLAG_REMOVED, type FrameState } from './core/frameState.js';
import { SCREEN_SPACE_DEFAULTS } from './passes/screenSpacePasses.js';

function requireInteger(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`LodSet.update: ${field} must be an integer in [${min}, ${max}], got ${String(value)}`);
  }
  return value;
}

/** Throws naming the field when `f` lacks what `LodSet.update` reads (LodViewFrustum). Runs every frame: no allocation. */
function checkViewFrustum(f: LodViewFrustum, v: number): void {
  checkArray(f.planes, 24, 'planes', v);
  checkArray(f.position, 3, 'position', v);
  checkArray(f.windowMin, 2, 'windowMin', v);
  checkArray(f.windowMax, 2, 'windowMax', v);
  if (typeof f.isPerspective !== 'boolean') throw new TypeError(`LodSet.update: views[${v}].frustum.isPerspective must be a boolean, got ${typeof f.isPerspective}`);
}

function checkArray(a: unknown, length: number, key: string, v: number): void {
  if (!(a instanceof Float64Array) || a.length < length) {
    throw new TypeError(`LodSet.update: views[${v}].frustum.${key} must be a Float64Array of ${length} values, got ${a instanceof Float64Array ? `${a.length} values` : typeof a}`);
  }
}

/**
 * Throws when `views` or `options` are invalid for a set with `table` and `used` ids; `policy` is
 * the name of `options.policy`, which policyRegistry.ts `resolvePolicy` checked.
 */
export function validateUpdate(table: ProfileTable, used: number, views: EngineView | readonly EngineView[], single: boolean, viewCount: number,
  options: LodUpdateOptions, policy: LodPolicyName): void {
  if (viewCount < 1 || (!single && !Array.isArray(views))) {
    throw new TypeError('LodSet.update: views must be a view {frustum, viewportHeight?} or a non-empty array of them');
  }
  const needsPixels = (table.metricMask & (1 << MetricCode.pixels)) !== 0 && policy !== 'rankQuota' && policy !== 'budget';
  for (let v = 0; v < viewCount; v++) {
    const view = single ? (views as EngineView) : (views as readonly EngineView[])[v];
    if (view == null || typeof view !== 'object' || view.frustum == null || typeof view.frustum !== 'object') {
      throw new TypeError(`LodSet.update: views[${v}].frustum must be a Frustum (or a LodViewFrustum such as lodkit/three's CameraView)`);
    }
    checkViewFrustum(view.frustum, v);
    const vp = view.viewportHeight;
    if (vp !== undefined && (typeof vp !== 'number' || !Number.isFinite(vp) || !(vp > 0))) {
      throw new RangeError(`LodSet.update: views[${v}].viewportHeight must be a finite number > 0, got ${String(vp)}`);
    }
    if (needsPixels && vp === undefined) {
      throw new RangeError(`LodSet.update: views[${v}].viewportHeight is required because a profile uses the 'pixels' metric`);
    }
  }
  const bias = options.bias;
  if (bias !== undefined && (typeof bias !== 'number' || !Number.isFinite(bias) || !(bias > 0))) {
    throw new RangeError(`LodSet.update: bias must be a finite number > 0, got ${String(bias)}`);
  }
  const minLevel = options.minLevel === undefined ? 0 : requireInteger(options.minLevel, 'minLevel', 0, 254);
  const maxLevel = options.maxLevel === undefined ? 255 : requireInteger(options.maxLevel, 'maxLevel', 0, 255);
  if (minLevel > maxLevel) throw new RangeError(`LodSet.update: minLevel (${minLevel}) must be ≤ maxLevel (${maxLevel})`);
  const h = options.hysteresis;
  if (h !== undefined && (typeof h !== 'number' || !(h >= 0 && h < 1))) {
    throw new RangeError(`LodSet.update: hysteresis must be a number in [0, 1), got ${String(h)}`);
  }
  if (options.minFramesBetweenChanges !== undefined) {
    requireInteger(options.minFramesBetweenChanges, 'minFramesBetweenChanges', 0, 0x3fffffff);
  }
  if (options.cull !== undefined && typeof options.cull !== 'boolean') {
    throw new TypeError(`LodSet.update: cull must be a boolean, got ${String(options.cull)}`);
  }
  if (options.clusters !== undefined && typeof options.clusters !== 'boolean') {
    throw new TypeError(`LodSet.update: clusters must be a boolean, got ${String(options.clusters)}`);
  }
  if (options.exactSizes !== undefined && typeof options.exactSizes !== 'boolean') {
    throw new TypeError(`LodSet.update: exactSizes must be a boolean, got ${String(options.exactSizes)}`);
  }
  if (options.trimOverdraw !== undefined && typeof options.trimOverdraw !== 'boolean') {
    throw new TypeError(`LodSet.update: trimOverdraw must be a boolean, got ${String(options.trimOverdraw)}`);
  }
  const budget = options.budget;
  // --- issue 14: frame-time budgets, tolerance, stability band ---
  if (budget !== null && typeof budget === 'object') {
    const ms = budget.frameMs;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || !(ms > 0)) {
      throw new RangeError(`LodSet.update: budget.frameMs must be a finite number > 0, got ${String(ms)}`);
    }
    const g = budget.gain;
    if (g !== undefined && (typeof g !== 'number' || !(g > 0 && g <= 1))) {
      throw new RangeError(`LodSet.update: budget.gain must be a number in (0, 1], got ${String(g)}`);
    }
  } else if (budget !== undefined && (typeof budget !== 'number' || Number.isNaN(budget) || budget < 0)) {
    throw new RangeError(`LodSet.update: budget must be a number ≥ 0 or { frameMs }, got ${String(budget)}`);
  }
  const tolerance = options.tolerance ?? SCREEN_SPACE_DEFAULTS.tolerance;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(`LodSet.update: tolerance must be a finite number ≥ 0 (px), got ${String(tolerance)}`);
  }
  const band = options.stabilityBand ?? SCREEN_SPACE_DEFAULTS.band;
  if (typeof band !== 'number' || !(band >= 0 && band < 1)) {
    throw new RangeError(`LodSet.update: stabilityBand must be a number in [0, 1), got ${String(band)}`);
  }
  // --- end issue 14 ---
  if ((policy === 'budget' || policy === 'hybrid') && budget === undefined) {
    throw new RangeError(`LodSet.update: budget is required by the '${policy}' policy`);
  }
  if (policy === 'rankQuota') {
    const q = options.quotas;
    if (q == null || typeof q !== 'object' || typeof q.length !== 'number') {
      throw new RangeError("LodSet.update: quotas (objects per level, closest first) is required by the 'rankQuota' policy");
    }
    if (q.length > 254) throw new RangeError(`LodSet.update: quotas has ${q.length} entries; at most 254`);
    for (let g = 0; g < q.length; g++) {
      const k = q[g];
      if (typeof k !== 'number' || !(k >= 0) || !(Number.isInteger(k) || k === Infinity)) {
        throw new RangeError(`LodSet.update: quotas[${g}] must be an integer ≥ 0, got ${String(k)}`);
      }
    }
  }
  if (table.count === 0 && used > 0) throw new RangeError('LodSet.update: no profile was added');
  if ((policy === 'budget' || policy === 'hybrid') && used > 0) {
    let shift = 1;
    while ((1 << shift) < table.stride) shift++;
    if (used > 2 ** (32 - shift)) {
      throw new RangeError(`LodSet.update: the budget policies support at most ${2 ** (32 - shift)} objects with ${table.stride} levels`);
    }
  }
}

/** Throws unless `profile` is an id `addProfile` returned (`method` names the caller). */
export function checkProfile(table: ProfileTable, profile: number, method: string): void {
  if (typeof profile !== 'number' || !Number.isInteger(profile) || profile < 0 || profile >= table.count) {
    throw new RangeError(`LodSet.${method}: profile must be an id returned by addProfile (0 … ${table.count - 1}), got ${String(profile)}`);
  }
}

/** Throws unless `id` is a live object id of a set with `used` ids (`method` names the caller). */
export function checkId(st: FrameState, used: number, id: number, method: string): void {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= used || (st.flags[id] & FLAG_REMOVED)) {
    throw new RangeError(`LodSet.${method}: id must be a live object id in [0, ${used}), got ${String(id)}`);
  }
}
