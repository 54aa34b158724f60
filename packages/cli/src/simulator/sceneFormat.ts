/**
 * The `lodkit simulate` scene file: objects and instanced groups with bounding spheres (or
 * extents), LOD profiles, a keyframed camera path, and the policies to compare. JSON, validated
 * with zod; every error names the JSON path and what was expected (`camera.keyframes[2].fovY:
 * expected a number in (0, 180)`).
 *
 * Contributor notes:
 * - Objects are strict (`z.strictObject`): a misspelt key (`treshold`) is an error naming the key,
 *   not a silently ignored field — the commonest mistake when a scene is written by hand.
 * - Cross-field rules (per-level arrays one longer than the thresholds, threshold order per metric,
 *   profile names that exist, non-decreasing keyframe times, exactly one of `target`/`rotation`)
 *   live in `superRefine` so they report the same `path: message` form as shape errors.
 * - Instanced groups store spheres as one flat `[x, y, z, r, …]` array: 200k trees validate in
 *   ~100 ms that way, against several seconds for 200k small objects.
 * - Every list and every coordinate has a ceiling from `SIMULATE_LIMITS` (limits.ts), so a file
 *   cannot make the simulator allocate or loop without bound; the error names the field.
 *
 * @module
 */
import * as z from 'zod';
import { SIMULATE_LIMITS as L } from './limits.js';

/** Current scene format version. @category Simulator */
export const SCENE_FORMAT_VERSION = 1;

const C = L.coordinate;
const tooLarge = { message: `expected a value within ±${C} (the coordinate ceiling, SIMULATE_LIMITS.coordinate)` };
const finite = z.number();
/** A coordinate, radius, time or clip distance: finite and within ±{@link SIMULATE_LIMITS.coordinate}. */
const coordinate = z.number().min(-C, tooLarge).max(C, tooLarge);
const positive = z.number().positive();
const positiveCoordinate = z.number().positive().max(C, tooLarge);
const nonNegative = z.number().nonnegative();
const vec3 = z.tuple([coordinate, coordinate, coordinate]);
const atMost = (what: string, n: number) => ({ message: `expected at most ${n} ${what} (SIMULATE_LIMITS)` });
/**
 * A name the outputs echo (scene, profile, policy, object, group, shot): at most
 * `SIMULATE_LIMITS.nameLength` characters, so a 60 MB name cannot become 360 MB of report.
 */
const name = z.string().max(L.nameLength, { message: `expected at most ${L.nameLength} characters (SIMULATE_LIMITS.nameLength)` });
/** Free text the report shows once (description, a parameter's value). */
const text = z.string().max(L.textLength, { message: `expected at most ${L.textLength} characters (SIMULATE_LIMITS.textLength)` });

/** A name quoted for a message, cut after SIMULATE_LIMITS.nameLength characters (refinements still run on a too-long one). */
function quoted(value: string): string {
  return value.length > L.nameLength ? `${JSON.stringify(value.slice(0, 32))}… (${value.length} characters)` : JSON.stringify(value);
}
const METRICS = ['distance', 'pixels', 'screenHeight', 'screenArea'] as const;
const SCREEN_METRICS = ['pixels', 'screenHeight', 'screenArea'] as const;
const POLICY_KINDS = ['thresholds', 'rankQuota', 'budget', 'hybrid'] as const;

const rule = z.strictObject({
  metric: z.enum(METRICS),
  thresholds: z.array(nonNegative).min(1).max(L.thresholds, atMost('thresholds (255 levels)', L.thresholds)),
  blendThresholds: z.array(nonNegative).optional(),
});

const qualityRule = z.strictObject({
  metric: z.enum(SCREEN_METRICS),
  thresholds: z.array(nonNegative).min(1).max(L.thresholds, atMost('thresholds (255 levels)', L.thresholds)),
});

const profile = z.strictObject({
  /** Which metric the thresholds are in. */
  metric: z.enum(METRICS),
  /** Descending for screen metrics, ascending for distance; `n` thresholds → `n + 1` levels. */
  thresholds: z.array(nonNegative).min(1).max(L.thresholds, atMost('thresholds (255 levels)', L.thresholds)),
  blendThresholds: z.array(nonNegative).optional(),
  /** Triangles per level, finest first (the cost the budgets count). */
  triangles: z.array(nonNegative),
  /**
   * Per-level geometric error, a fraction of the bounding diameter (the quality model: screen-space
   * error = error × projected diameter in px). Default: lodkit's `defaultLevelErrors` from the
   * quality rule's thresholds (else the triangle counts).
   */
  errors: z.array(nonNegative).optional(),
  /** Hybrid policy: never coarser than this level. */
  qualityFloor: z.number().int().nonnegative().optional(),
  /**
   * The screen-size rule quality loss is measured against (default: this profile's own rule).
   */
  quality: qualityRule.optional(),
});

const extent = z.strictObject({ min: vec3, max: vec3 });

const motionKey = z.strictObject({ time: coordinate, center: vec3 });

const object = z.strictObject({
  name: name.optional(),
  profile: name,
  center: vec3.optional(),
  radius: positiveCoordinate.optional(),
  extent: extent.optional(),
  /** Keyframed centre (linear between keys, held before the first and after the last). */
  motion: z.array(motionKey).min(1).optional(),
});

const group = z.strictObject({
  name: name.optional(),
  profile: name,
  /** Flat `[x, y, z, radius, x, y, z, radius, …]`. */
  spheres: z.array(coordinate).max(L.objects * 4, atMost('values (4 per sphere)', L.objects * 4)).optional(),
  extents: z.array(extent).max(L.objects, atMost('extents', L.objects)).optional(),
});

const keyframe = z.strictObject({
  time: coordinate,
  position: vec3,
  target: vec3.optional(),
  /** Unit quaternion `[x, y, z, w]`; the camera looks down its local −Z. */
  rotation: z.tuple([finite, finite, finite, finite]).optional(),
  up: vec3.optional(),
  fovY: z.number().gt(0).lt(180).optional(),
  /** Orthographic view height in world units. */
  height: positiveCoordinate.optional(),
  /** `[width, height]` in pixels. */
  viewport: z.tuple([z.number().int().positive().max(65_536), z.number().int().positive().max(65_536)]),
  /** Shot label shown in the report (e.g. `"telephoto"`). */
  shot: name.optional(),
  /** Jump to this keyframe at its time instead of interpolating from the previous one. */
  cut: z.boolean().optional(),
});

const camera = z.strictObject({
  near: positiveCoordinate.default(0.1),
  far: positiveCoordinate.default(10_000),
  keyframes: z.array(keyframe).min(1).max(L.keyframes, atMost('keyframes', L.keyframes)),
});

const policy = z.strictObject({
  name: name.min(1),
  policy: z.enum(POLICY_KINDS),
  bias: positive.optional(),
  /** Relative band in [0, 1) (the engine's `LodSet.update` rule). */
  hysteresis: z.number().min(0).lt(1, { message: 'expected a number in [0, 1) (a relative band; 1 would never switch)' }).optional(),
  /** At most 2³⁰ − 1, the engine's counter width. */
  minFramesBetweenChanges: z.number().int().nonnegative().max(0x3fffffff, { message: `expected at most ${0x3fffffff} frames (2³⁰ − 1, the engine's counter)` }).optional(),
  budget: positive.optional(),
  /** budget / hybrid: a frame-time target (ms) instead of a triangle budget, run on the scene's synthetic GPU. */
  frameMs: positive.optional(),
  /** budget / hybrid: relative stability band in [0, 1) (lodkit's `stabilityBand`; default 0.4). */
  stabilityBand: z.number().min(0).lt(1).optional(),
  /** budget: the knapsack's own least-error selection also when the thresholds' fits (lodkit's `trimOverdraw`; default false). */
  trimOverdraw: z.boolean().optional(),
  /** At most 254 entries (one per level boundary; the engine's rule). */
  quotas: z.array(z.number().int().nonnegative()).min(1).max(254, { message: 'expected at most 254 quotas (one per level boundary, 255 levels)' }).optional(),
  /** rankQuota: rank each profile separately (`'profile'`, default, MotoGP) or all objects together. */
  quotaScope: z.enum(['profile', 'scene']).optional(),
  /** At most 254: level 255 is the engine's "hidden". */
  minLevel: z.number().int().nonnegative().max(254, { message: 'expected a level in [0, 254] (255 means hidden)' }).optional(),
  maxLevel: z.number().int().nonnegative().max(255).optional(),
  /** Per-profile rule replacements for this policy only (e.g. a distance rule). */
  profiles: z.record(name, rule).optional(),
});

const sceneShape = z.strictObject({
  format: z.literal('lodkit-scene'),
  version: z.literal(SCENE_FORMAT_VERSION),
  name: name.min(1),
  description: text.optional(),
  /** Seed the scene was generated with (recorded, not used by the simulator). */
  seed: z.number().int().optional(),
  /** Frames per second of the simulation. */
  fps: positive.max(L.fps, atMost('frames per second', L.fps)).default(30),
  /** Seconds simulated from the first keyframe (default: up to the last keyframe). */
  duration: positive.max(L.duration, atMost('seconds', L.duration)).optional(),
  /** Default triangle budget for `budget`/`hybrid` policies and the report's budget line. */
  budget: positive.optional(),
  /** Screen-space error (px) below which a level counts as lossless (3D Tiles' maximum SSE). Default 1. */
  tolerance: nonNegative.optional(),
  /** The synthetic GPU behind frame times (see gpuModel.ts); defaults apply when omitted. */
  gpu: z.strictObject({
    overheadMs: nonNegative.optional(),
    msPerTriangle: nonNegative.optional(),
    msPerDraw: nonNegative.optional(),
    noise: z.number().min(0).max(0.3).optional(),
    spikes: z.array(z.strictObject({ start: finite, end: finite, factor: positive })).optional(),
    seed: z.number().int().optional(),
  }).optional(),
  profiles: z.record(name, profile),
  objects: z.array(object).max(L.objects, atMost('objects', L.objects)).default([]),
  groups: z.array(group).max(L.objects, atMost('groups', L.objects)).default([]),
  camera,
  policies: z.array(policy).min(1).max(L.policies, atMost('policies', L.policies)),
  /** Free-form scenario parameters shown in the report. */
  parameters: z.record(name, z.union([text, z.number(), z.boolean()])).optional(),
});

type Ctx = z.core.$RefinementCtx<z.output<typeof sceneShape>>;

function checkOrder(ctx: Ctx, values: readonly number[], descending: boolean, path: (string | number)[]): void {
  for (let i = 1; i < values.length; i++) {
    const ok = descending ? values[i] < values[i - 1] : values[i] > values[i - 1];
    if (!ok) {
      ctx.addIssue({
        code: 'custom', path: [...path, i],
        message: `expected ${descending ? 'strictly descending' : 'strictly ascending'} thresholds (${descending ? 'screen metrics shrink with distance' : 'distances grow'}), got ${values[i]} after ${values[i - 1]}`,
      });
      return;
    }
  }
}

function checkRule(ctx: Ctx, r: { metric: string; thresholds: number[]; blendThresholds?: number[] }, path: (string | number)[]): void {
  const descending = r.metric !== 'distance';
  checkOrder(ctx, r.thresholds, descending, [...path, 'thresholds']);
  const b = r.blendThresholds;
  if (b && b.length > r.thresholds.length) {
    ctx.addIssue({ code: 'custom', path: [...path, 'blendThresholds'], message: `expected at most ${r.thresholds.length} values (one per threshold), got ${b.length}` });
    return;
  }
  // The engine's rule (lodkit's validateThresholds), compared in float32 as the engine stores them:
  // a blend threshold starts at its threshold and stops short of the next one.
  const t = r.thresholds.map(Math.fround);
  for (let i = 0; b && i < b.length; i++) {
    const v = Math.fround(b[i]);
    const hasNext = i + 1 < t.length;
    const ok = descending ? v <= t[i] && (!hasNext || v > t[i + 1]) : v >= t[i] && (!hasNext || v < t[i + 1]);
    if (!ok) {
      const range = descending ? `(${hasNext ? r.thresholds[i + 1] : '-∞'}, ${r.thresholds[i]}]` : `[${r.thresholds[i]}, ${hasNext ? r.thresholds[i + 1] : '∞'})`;
      ctx.addIssue({ code: 'custom', path: [...path, 'blendThresholds', i], message: `expected a value in ${range} (between threshold ${i} and the next), got ${b[i]}` });
      return;
    }
  }
}

function vecLength(v: readonly number[]): number {
  return Math.hypot(...v);
}

/**
 * The zod schema of a scene file (format `lodkit-scene`, version 1). Prefer {@link parseScene},
 * which formats errors.
 * @example
 * ```ts
 * const result = sceneSchema.safeParse(JSON.parse(text));
 * ```
 * @category Simulator
 */
export const sceneSchema = sceneShape.superRefine((scene, ctx) => {
  const profileNames = Object.keys(scene.profiles);
  if (profileNames.length === 0) ctx.addIssue({ code: 'custom', path: ['profiles'], message: 'expected at least one profile' });
  if (profileNames.length > L.profiles) ctx.addIssue({ code: 'custom', path: ['profiles'], message: `expected at most ${L.profiles} profiles (SIMULATE_LIMITS), got ${profileNames.length}` });
  let objectCount = scene.objects.length;
  for (const g of scene.groups) objectCount += g.spheres ? Math.floor(g.spheres.length / 4) : g.extents?.length ?? 0;
  if (objectCount > L.objects) ctx.addIssue({ code: 'custom', path: ['groups'], message: `expected at most ${L.objects} objects in all (objects + group instances, SIMULATE_LIMITS), got ${objectCount}` });
  let motionKeys = 0;
  for (const o of scene.objects) motionKeys += o.motion?.length ?? 0;
  if (motionKeys > L.motionKeys) ctx.addIssue({ code: 'custom', path: ['objects'], message: `expected at most ${L.motionKeys} motion keys in all (SIMULATE_LIMITS), got ${motionKeys}` });
  const keys = scene.camera.keyframes;
  const span = scene.duration ?? Math.max(keys[keys.length - 1].time - keys[0].time, 1 / scene.fps);
  if (span > L.duration) {
    ctx.addIssue({ code: 'custom', path: ['camera', 'keyframes', keys.length - 1, 'time'], message: `expected the camera path to span at most ${L.duration} s (SIMULATE_LIMITS.duration), got ${span} s; set duration to simulate part of it` });
  }
  for (const name of profileNames) {
    const p = scene.profiles[name];
    const path = ['profiles', name];
    checkRule(ctx, p, path);
    const levels = p.thresholds.length + 1;
    if (p.triangles.length !== levels) {
      ctx.addIssue({ code: 'custom', path: [...path, 'triangles'], message: `expected ${levels} values (one per level: thresholds.length + 1), got ${p.triangles.length}` });
    }
    for (let l = 1; l < p.triangles.length; l++) {
      if (p.triangles[l] > p.triangles[l - 1]) {
        ctx.addIssue({ code: 'custom', path: [...path, 'triangles', l], message: `expected triangle counts not increasing toward coarser levels, got ${p.triangles[l]} after ${p.triangles[l - 1]}` });
        break;
      }
    }
    if (p.errors && p.errors.length !== levels) {
      ctx.addIssue({ code: 'custom', path: [...path, 'errors'], message: `expected ${levels} values (one per level: thresholds.length + 1), got ${p.errors.length}` });
    } else if (p.errors) {
      for (let l = 1; l < p.errors.length; l++) {
        if (p.errors[l] < p.errors[l - 1]) {
          ctx.addIssue({ code: 'custom', path: [...path, 'errors', l], message: `expected errors not decreasing toward coarser levels, got ${p.errors[l]} after ${p.errors[l - 1]}` });
          break;
        }
      }
    }
    if (p.qualityFloor !== undefined && p.qualityFloor >= levels) {
      ctx.addIssue({ code: 'custom', path: [...path, 'qualityFloor'], message: `expected a level in [0, ${levels - 1}], got ${p.qualityFloor}` });
    }
    if (p.quality) {
      checkOrder(ctx, p.quality.thresholds, true, [...path, 'quality', 'thresholds']);
      if (p.quality.thresholds.length !== levels - 1) {
        ctx.addIssue({ code: 'custom', path: [...path, 'quality', 'thresholds'], message: `expected ${levels - 1} thresholds (same level count as the profile), got ${p.quality.thresholds.length}` });
      }
    }
  }
  // At most ten names in the message: a scene may have 65,535 profiles, once per bad reference.
  const known = profileNames.slice(0, 10).map(quoted).join(', ') + (profileNames.length > 10 ? `, … (${profileNames.length} in all)` : '');
  const checkProfileRef = (name: string, path: (string | number)[]): void => {
    if (!Object.hasOwn(scene.profiles, name)) {
      ctx.addIssue({ code: 'custom', path, message: `expected the name of a profile (${known || 'none defined'}), got ${quoted(name)}` });
    }
  };
  const parameterCount = Object.keys(scene.parameters ?? {}).length;
  if (parameterCount > L.parameters) {
    ctx.addIssue({ code: 'custom', path: ['parameters'], message: `expected at most ${L.parameters} parameters (SIMULATE_LIMITS.parameters), got ${parameterCount}` });
  }
  scene.objects.forEach((o, i) => {
    const path = ['objects', i];
    checkProfileRef(o.profile, [...path, 'profile']);
    const hasSphere = o.radius !== undefined;
    const hasExtent = o.extent !== undefined;
    if (hasSphere === hasExtent) {
      ctx.addIssue({ code: 'custom', path, message: 'expected either a bounding sphere (center + radius, or motion + radius) or an extent, not both or neither' });
    }
    if (hasSphere && o.center === undefined && o.motion === undefined) {
      ctx.addIssue({ code: 'custom', path: [...path, 'center'], message: 'expected a center (or a motion) with radius' });
    }
    if (hasExtent && o.motion !== undefined) {
      ctx.addIssue({ code: 'custom', path: [...path, 'motion'], message: 'expected motion only with a bounding sphere (center + radius)' });
    }
    if (o.extent) {
      for (let a = 0; a < 3; a++) {
        if (!(o.extent.max[a] >= o.extent.min[a])) {
          ctx.addIssue({ code: 'custom', path: [...path, 'extent', 'max', a], message: `expected max >= min on axis ${a}, got ${o.extent.max[a]} < ${o.extent.min[a]}` });
        }
      }
    }
    if (o.motion) {
      for (let k = 1; k < o.motion.length; k++) {
        if (!(o.motion[k].time > o.motion[k - 1].time)) {
          ctx.addIssue({ code: 'custom', path: [...path, 'motion', k, 'time'], message: `expected times strictly increasing, got ${o.motion[k].time} after ${o.motion[k - 1].time}` });
          break;
        }
      }
    }
  });
  scene.groups.forEach((g, i) => {
    const path = ['groups', i];
    checkProfileRef(g.profile, [...path, 'profile']);
    if ((g.spheres === undefined) === (g.extents === undefined)) {
      ctx.addIssue({ code: 'custom', path, message: 'expected either spheres ([x, y, z, r, …]) or extents, not both or neither' });
    }
    if (g.spheres) {
      if (g.spheres.length % 4 !== 0) {
        ctx.addIssue({ code: 'custom', path: [...path, 'spheres'], message: `expected a flat list of [x, y, z, radius] quadruples (length a multiple of 4), got length ${g.spheres.length}` });
      } else {
        for (let s = 3; s < g.spheres.length; s += 4) {
          if (!(g.spheres[s] > 0)) {
            ctx.addIssue({ code: 'custom', path: [...path, 'spheres', s], message: `expected a radius > 0 (sphere ${(s - 3) / 4}), got ${g.spheres[s]}` });
            break;
          }
        }
      }
    }
    g.extents?.forEach((e, k) => {
      for (let a = 0; a < 3; a++) {
        if (!(e.max[a] >= e.min[a])) {
          ctx.addIssue({ code: 'custom', path: [...path, 'extents', k, 'max', a], message: `expected max >= min on axis ${a}, got ${e.max[a]} < ${e.min[a]}` });
          return;
        }
      }
    });
  });
  if (!(scene.camera.far > scene.camera.near)) {
    ctx.addIssue({ code: 'custom', path: ['camera', 'far'], message: `expected far > near (${scene.camera.near}), got ${scene.camera.far}` });
  }
  scene.camera.keyframes.forEach((k, i) => {
    const path = ['camera', 'keyframes', i];
    if ((k.target === undefined) === (k.rotation === undefined)) {
      ctx.addIssue({ code: 'custom', path, message: 'expected exactly one of target (a point to look at) or rotation (a quaternion)' });
    }
    if ((k.fovY === undefined) === (k.height === undefined)) {
      ctx.addIssue({ code: 'custom', path, message: 'expected exactly one of fovY (perspective, degrees) or height (orthographic, world units)' });
    }
    if (k.target && vecLength([k.target[0] - k.position[0], k.target[1] - k.position[1], k.target[2] - k.position[2]]) === 0) {
      ctx.addIssue({ code: 'custom', path: [...path, 'target'], message: 'expected a target different from the position' });
    }
    if (k.rotation && Math.abs(vecLength(k.rotation) - 1) > 1e-3) {
      ctx.addIssue({ code: 'custom', path: [...path, 'rotation'], message: `expected a unit quaternion [x, y, z, w], got length ${vecLength(k.rotation).toFixed(4)}` });
    }
    if (i > 0) {
      const prev = scene.camera.keyframes[i - 1];
      if (k.time < prev.time || (k.time === prev.time && !k.cut)) {
        ctx.addIssue({ code: 'custom', path: [...path, 'time'], message: `expected times increasing (equal only on a cut), got ${k.time} after ${prev.time}` });
      }
      if (!k.cut && (k.fovY === undefined) !== (prev.fovY === undefined)) {
        ctx.addIssue({ code: 'custom', path: [...path, 'cut'], message: 'expected cut: true to switch between perspective and orthographic (they cannot be interpolated)' });
      }
    }
  });
  const names = new Set<string>();
  scene.policies.forEach((p, i) => {
    const path = ['policies', i];
    if (names.has(p.name)) ctx.addIssue({ code: 'custom', path: [...path, 'name'], message: `expected a unique policy name, ${quoted(p.name)} is used twice` });
    names.add(p.name);
    if (p.frameMs !== undefined && p.policy !== 'budget' && p.policy !== 'hybrid') {
      ctx.addIssue({ code: 'custom', path: [...path, 'frameMs'], message: `expected frameMs only on a budget or hybrid policy, got policy ${p.policy}` });
    }
    if ((p.policy === 'budget' || p.policy === 'hybrid') && p.budget === undefined && scene.budget === undefined && p.frameMs === undefined) {
      ctx.addIssue({ code: 'custom', path: [...path, 'budget'], message: `expected a budget (here or at the scene's top level) for the ${p.policy} policy` });
    }
    if (p.policy === 'rankQuota' && p.quotas === undefined) {
      ctx.addIssue({ code: 'custom', path: [...path, 'quotas'], message: 'expected quotas (objects per level, closest first, e.g. [4, 6]) for the rankQuota policy' });
    }
    if (p.minLevel !== undefined && p.maxLevel !== undefined && p.minLevel > p.maxLevel) {
      ctx.addIssue({ code: 'custom', path: [...path, 'maxLevel'], message: `expected maxLevel >= minLevel (${p.minLevel}), got ${p.maxLevel}` });
    }
    for (const [name, r] of Object.entries(p.profiles ?? {})) {
      checkProfileRef(name, [...path, 'profiles', name]);
      if (!Object.hasOwn(scene.profiles, name)) continue;
      checkRule(ctx, r, [...path, 'profiles', name]);
      const want = scene.profiles[name].thresholds.length;
      if (r.thresholds.length !== want) {
        ctx.addIssue({ code: 'custom', path: [...path, 'profiles', name, 'thresholds'], message: `expected ${want} thresholds (the profile has ${want + 1} levels), got ${r.thresholds.length}` });
      }
    }
  });
});

/** A validated scene (defaults filled in). @category Simulator */
export type Scene = z.output<typeof sceneSchema>;
/** A scene as written in a file (defaults optional). @category Simulator */
export type SceneInput = z.input<typeof sceneSchema>;
/** One LOD profile of a scene. @category Simulator */
export type SceneProfile = Scene['profiles'][string];
/** One policy entry of a scene. @category Simulator */
export type ScenePolicy = Scene['policies'][number];
/** One camera keyframe. @category Simulator */
export type CameraKeyframe = Scene['camera']['keyframes'][number];

/**
 * Formats a zod issue path as a JSON path: `camera.keyframes[2].fovY`; the root is `(root)`.
 * @example
 * ```ts
 * formatJsonPath(['profiles', 'bike', 'thresholds', 1]); // 'profiles.bike.thresholds[1]'
 * ```
 * @category Simulator
 */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else {
      // A key longer than any valid name is cut: a 60 MB profile name must not become the message.
      const full = String(key);
      const s = full.length > L.nameLength ? `${full.slice(0, 32)}… (${full.length} characters)` : full;
      out += /^[A-Za-z_$][\w$]*$/.test(s) ? (out ? `.${s}` : s) : `[${JSON.stringify(s)}]`;
    }
  }
  return out || '(root)';
}

/**
 * Thrown by {@link parseScene} for an invalid scene; `issues` lists every problem as `path: message`.
 * @category Simulator
 */
export class SceneValidationError extends Error {
  readonly issues: readonly string[];
  constructor(issues: readonly string[], source = 'scene') {
    super(`invalid ${source}:\n${issues.map((i) => `  ${i}`).join('\n')}`);
    this.name = 'SceneValidationError';
    this.issues = issues;
  }
}

/**
 * Validates parsed JSON as a scene and returns it with defaults filled in; throws
 * {@link SceneValidationError} listing every issue as `path: message`.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * const scene = parseScene(JSON.parse(readFileSync('scene.json', 'utf8')), 'scene.json');
 * ```
 * @category Simulator
 */
export function parseScene(json: unknown, source = 'scene'): Scene {
  const result = sceneSchema.safeParse(json);
  if (result.success) return result.data;
  // A record key fails only its length rule (JSON keys are strings); zod's own words say just "Invalid key".
  const issues = result.error.issues.map((issue) => `${formatJsonPath(issue.path)}: ${issue.code === 'invalid_key' ? `expected a name of at most ${L.nameLength} characters (SIMULATE_LIMITS.nameLength)` : issue.message}`);
  throw new SceneValidationError(issues, source);
}

/**
 * Parses scene JSON text; a JSON syntax error is reported as a {@link SceneValidationError} too.
 * @example
 * ```ts
 * const scene = parseSceneText('{"format": "lodkit-scene", …}', 'my.json');
 * ```
 * @category Simulator
 */
export function parseSceneText(text: string, source = 'scene'): Scene {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SceneValidationError([`(root): expected valid JSON, ${(error as Error).message}`], source);
  }
  return parseScene(json, source);
}
