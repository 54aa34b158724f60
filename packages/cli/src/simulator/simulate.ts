/**
 * The simulation loop behind `lodkit simulate`: replays a scene's camera path frame by frame,
 * runs every policy through the batch engine ({@link LodSet}), and records per frame the triangle
 * cost, whether it is over budget, the quality loss, the visible level changes (pops) and a level
 * histogram.
 *
 * The result ({@link SimulationResult}) is deterministic: two runs of the same scene give the same
 * JSON. Selection times are measured separately ({@link SimulationTimings}) because they are not.
 *
 * Definitions (also in `docs/simulate.md`):
 * - `cost` — total triangles drawn (the engine's `totalCost`; culled and hidden objects cost 0).
 * - `overBudget` — `cost > budget`, where budget is the policy's own budget, else the scene's
 *   (the report's budget line); always false when there is no budget.
 * - `qualityLoss` — see {@link QualityReference}: Σ clamped pixel diameter × levels coarser than the
 *   screen-size rule wants.
 * - `screenSpaceLoss` — Σ max(0, errors[level] × clamped pixel diameter − tolerance) px: the
 *   budgets' own objective (lodkit's policies/screenSpaceError.ts), with the same `errors` the
 *   engine is given ({@link profileErrors}).
 * - `gpuMs` — the frame on the synthetic GPU (gpuModel.ts); a `frameMs` policy reports it to its
 *   set's governor, whose budget (`budget`) the next frame uses.
 * - `changes` — objects visible in both this and the previous frame whose level changed (pops).
 *   0 on the first frame and on a camera cut (the whole picture changes; nothing visibly pops).
 * - `levelsHistogram[l]` — visible objects drawn at level `l`; `hidden` — objects culled.
 *
 * Contributor notes:
 * - Policies run interleaved frame by frame (not one after another) so the quality reference is
 *   computed once per frame and shared, and every policy sees the same camera state.
 * - `rankQuota` ranks each profile separately by default (`quotaScope: 'profile'`): MotoGP gave
 *   its quotas to track sectors and to bikes, not to one mixed list where near sectors would eat
 *   the bikes' quota. Each profile then gets its own `LodSet`; costs add up.
 * - Timing covers `setSphere` for movers plus `update` — what a renderer would pay per frame.
 * - Measured (Node 20, 2 busy cores): motogp (48 objects, 780 frames, 5 policies) runs in ~0.6 s;
 *   forest (210k objects, 6 policies) costs ~0.7 s of set-up (one `addMany` per profile run) and
 *   ~180 ms a frame, of which ~11 ms is this module (quality reference + per-object bookkeeping)
 *   and the rest the engine's `update` (20–40 ms per policy). With one set per policy the
 *   bookkeeping reads `levels[i]` directly instead of going through `setOf`/`localId`.
 *
 * @module
 */
import {
  budgetPolicy, defaultLevelErrors, Frustum, hybridPolicy, LodSet, rankQuotaPolicy, SCREEN_SPACE_DEFAULTS,
  type LodPolicy, type LodPolicyName, type LodUpdateOptions,
} from 'lodkit';

/** A scene names its policies; the simulator runs every one, so it passes lodkit's policy objects. */
const POLICY_OF: Record<LodPolicyName, LodPolicy> = { thresholds: 'thresholds', rankQuota: rankQuotaPolicy, budget: budgetPolicy, hybrid: hybridPolicy };
import { CameraPath } from './cameraPath.js';
import { checkSimulationSize, SIMULATE_LIMITS, sceneFrameCount, type SimulationSize } from './limits.js';
import { compileScene, sampleMotion, type CompiledScene } from './compiledScene.js';
import { frameTimeSummary } from './frameTimeStats.js';
import { GpuModel } from './gpuModel.js';
import { QualityReference } from './qualityReference.js';
import { formatJsonPath, SceneValidationError, type Scene, type ScenePolicy } from './sceneFormat.js';
import {
  SIMULATION_FORMAT, SIMULATION_FORMAT_VERSION,
  type PolicyResult, type PolicySummary, type SimulationResult, type SimulationTimings,
} from './simulationResult.js';

export {
  SIMULATION_FORMAT, SIMULATION_FORMAT_VERSION,
  type FrameRecord, type PolicyResult, type PolicySummary, type SimulationResult, type SimulationTimings,
} from './simulationResult.js';

/** Options for {@link simulate}. @category Simulator */
export interface SimulateOptions {
  /** Only these policies (by name or by kind: `thresholds`, `rankQuota`, `budget`, `hybrid`). Default all. */
  policies?: readonly string[];
  /** Overrides the scene budget and every policy's triangle budget (not a `frameMs` target). */
  budget?: number;
  /** Number of frames, spread evenly over the duration (default `duration × fps`). */
  frames?: number;
  /** Called after each frame. */
  onProgress?: (framesDone: number, frameCount: number) => void;
}

/** Defaults of {@link SimulateOptions}. @category Simulator */
export const SIMULATE_DEFAULTS: Readonly<Required<Pick<SimulateOptions, 'policies'>>> = Object.freeze({ policies: [] });

interface PolicyRun {
  spec: ScenePolicy;
  result: PolicyResult;
  sets: LodSet[];
  /**
   * Per scene object: which set. 16 bits because `quotaScope: 'profile'` makes one set per profile
   * and a scene may have 65,535 profiles: a `Uint8Array` wrapped set 256 to set 0 and read another
   * profile's levels without a word (issue 24).
   */
  setOf: Uint16Array;
  /** Per scene object: id in its set. */
  localId: Uint32Array;
  updateOptions: LodUpdateOptions;
  budget: number;
  frameMs: number | null;
  /** Per scene object: last frame's level, or NOT_VISIBLE (levels are < 255, see limits.ts `thresholds`). */
  previous: Uint8Array;
  times: Float64Array;
}

const NOT_VISIBLE = 255;

function matchesFilter(p: ScenePolicy, filter: readonly string[]): boolean {
  return filter.length === 0 || filter.includes(p.name) || filter.includes(p.policy);
}

/**
 * Selects the scene's policies named (or of the kinds) in `filter`; throws `RangeError` listing
 * the available names when one matches nothing.
 * @example
 * ```ts
 * selectPolicies(scene, ['budget']); // every budget policy of the scene
 * ```
 * @category Simulator
 */
export function selectPolicies(scene: Scene, filter: readonly string[]): ScenePolicy[] {
  for (const f of filter) {
    if (!scene.policies.some((p) => p.name === f || p.policy === f)) {
      throw new RangeError(`unknown policy "${f}"; the scene has ${scene.policies.map((p) => `"${p.name}" (${p.policy})`).join(', ')}`);
    }
  }
  return scene.policies.filter((p) => matchesFilter(p, filter));
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Per-level errors of every profile, as the simulator scores them and the engine is given them:
 * the profile's `errors`, else lodkit's default from its quality rule (or own rule) and triangles.
 * @example
 * ```ts
 * const errors = profileErrors(scene); // errors.bike: Float64Array
 * ```
 * @category Simulator
 */
export function profileErrors(scene: Scene): Record<string, Float64Array> {
  const out: Record<string, Float64Array> = {};
  for (const [name, p] of Object.entries(scene.profiles)) {
    const q = p.quality ?? p;
    out[name] = p.errors ? Float64Array.from(p.errors) : defaultLevelErrors(q.metric, q.thresholds, p.triangles);
  }
  return out;
}

function createRun(compiled: CompiledScene, spec: ScenePolicy, budgetOverride: number | undefined, frameCount: number,
  errors: Record<string, Float64Array>): PolicyRun {
  const scene = compiled.scene;
  const frameMs = spec.frameMs ?? null;
  const budget = frameMs !== null ? undefined : (budgetOverride ?? spec.budget ?? scene.budget);
  const quotaScope = spec.policy === 'rankQuota' ? (spec.quotaScope ?? 'profile') : null;
  const partitioned = quotaScope === 'profile';
  const setCount = partitioned ? compiled.profileNames.length : 1;
  const sets: LodSet[] = [];
  const profiles: PolicyResult['options']['profiles'] = {};
  for (const name of compiled.profileNames) {
    const p = scene.profiles[name];
    const r = spec.profiles?.[name];
    const metric = r?.metric ?? p.metric;
    const thresholds = r?.thresholds ?? p.thresholds;
    const blendThresholds = r ? (r.blendThresholds ?? []) : (p.blendThresholds ?? []);
    profiles[name] = { metric, thresholds, blendThresholds };
  }
  const policyIndex = scene.policies.indexOf(spec);
  const addProfile = (set: LodSet, name: string): void => {
    const p = scene.profiles[name];
    // The schema mirrors the engine's rules; this names the scene path should one slip through.
    const path = spec.profiles?.[name] ? ['policies', policyIndex, 'profiles', name] : ['profiles', name];
    engineCall(path, () => set.addProfile({
      metric: profiles[name].metric as LodSetMetric,
      thresholds: profiles[name].thresholds,
      blendThresholds: profiles[name].blendThresholds,
      costs: p.triangles,
      errors: errors[name],
      ...(p.qualityFloor !== undefined ? { qualityFloor: p.qualityFloor } : {}),
    }));
  };
  for (let s = 0; s < setCount; s++) {
    const set = new LodSet(partitioned ? compiled.objectsPerProfile[s] : compiled.count);
    // A per-profile set holds only its own profile (as id 0): adding all P profiles to each of P
    // sets was P² work — 8 s for 300 profiles, ~4·10⁹ calls for the 65,535 a scene may have.
    if (partitioned) addProfile(set, compiled.profileNames[s]);
    else for (const name of compiled.profileNames) addProfile(set, name);
    sets.push(set);
  }
  const setOf = new Uint16Array(compiled.count);
  const localId = new Uint32Array(compiled.count);
  // Runs of consecutive objects with one profile go in with one addMany each (ids are consecutive
  // in a fresh set); per-object `add` made the forest's set-up ~1.7× slower (1.2 s vs 0.7 s).
  const profileOf = compiled.profileOf;
  for (let start = 0; start < compiled.count;) {
    const profile = profileOf[start];
    let end = start + 1;
    while (end < compiled.count && profileOf[end] === profile) end++;
    const s = partitioned ? profile : 0;
    const first = sets[s].addMany(compiled.spheres.subarray(start * 4, end * 4), partitioned ? 0 : profile);
    for (let i = start; i < end; i++) { setOf[i] = s; localId[i] = first + (i - start); }
    start = end;
  }
  const updateOptions: LodUpdateOptions = { policy: POLICY_OF[spec.policy] };
  if (spec.bias !== undefined) updateOptions.bias = spec.bias;
  if (spec.hysteresis !== undefined) updateOptions.hysteresis = spec.hysteresis;
  if (spec.minFramesBetweenChanges !== undefined) updateOptions.minFramesBetweenChanges = spec.minFramesBetweenChanges;
  if (spec.minLevel !== undefined) updateOptions.minLevel = spec.minLevel;
  if (spec.maxLevel !== undefined) updateOptions.maxLevel = spec.maxLevel;
  if (spec.quotas !== undefined) updateOptions.quotas = spec.quotas;
  if ((spec.policy === 'budget' || spec.policy === 'hybrid') && budget !== undefined) updateOptions.budget = budget;
  if (frameMs !== null) updateOptions.budget = { frameMs };
  if (spec.stabilityBand !== undefined) updateOptions.stabilityBand = spec.stabilityBand;
  if (spec.trimOverdraw !== undefined) updateOptions.trimOverdraw = spec.trimOverdraw;
  if (scene.tolerance !== undefined) updateOptions.tolerance = scene.tolerance;
  const result: PolicyResult = {
    name: spec.name,
    policy: spec.policy,
    options: {
      bias: spec.bias ?? 1, hysteresis: spec.hysteresis ?? 0, minFramesBetweenChanges: spec.minFramesBetweenChanges ?? 0,
      budget: budget ?? null, quotas: spec.quotas ?? null, quotaScope,
      minLevel: spec.minLevel ?? 0, maxLevel: spec.maxLevel ?? 255, profiles,
      frameMs, stabilityBand: spec.stabilityBand ?? SCREEN_SPACE_DEFAULTS.band, trimOverdraw: spec.trimOverdraw ?? false,
    },
    summary: undefined as unknown as PolicySummary,
    frames: [],
  };
  return {
    spec, result, sets, setOf, localId, updateOptions, budget: budget ?? Infinity, frameMs,
    previous: new Uint8Array(compiled.count).fill(NOT_VISIBLE), times: new Float64Array(frameCount),
  };
}

/**
 * The sizes that bound a run's memory and outputs ({@link checkSimulationSize}), read from the
 * validated scene before anything is compiled.
 * @example
 * ```ts
 * checkSimulationSize(simulationSize(scene, 780, 5, 48));
 * ```
 * @category Simulator
 */
export function simulationSize(scene: Scene, frames: number, policies: number, objects: number): SimulationSize {
  let maxLevels = 1, profileLevels = 0, profileNameChars = 0, shotChars = 0;
  for (const [name, p] of Object.entries(scene.profiles)) {
    const levels = p.thresholds.length + 1;
    maxLevels = Math.max(maxLevels, levels);
    profileLevels += levels;
    profileNameChars += JSON.stringify(name).length;
  }
  // Unnamed shots get a generated label (cameraPath.ts): "shot 12" and the like.
  for (const k of scene.camera.keyframes) shotChars = Math.max(shotChars, JSON.stringify(k.shot ?? 'shot 100000').length);
  return { frames, policies, objects, maxLevels, profileLevels, profileNameChars, shotChars };
}

type LodSetMetric = 'distance' | 'pixels' | 'screenHeight' | 'screenArea';

/** Engine option names that the scene file spells differently. */
const SCENE_FIELD: Readonly<Record<string, string>> = { costs: 'triangles' };

/**
 * Re-raises an engine `RangeError`/`TypeError` (`LodSet.update: hysteresis must be …`) as a
 * {@link SceneValidationError} naming the scene path (`policies[0].hysteresis: … must be …`), so a
 * rule the schema does not mirror yet still points at the line of the file to fix.
 */
function sceneErrorFrom(error: unknown, path: (string | number)[]): unknown {
  if (!(error instanceof RangeError || error instanceof TypeError)) return error;
  const message = error.message.replace(/^LodSet(\.\w+)?: /, '');
  const field = /^([A-Za-z]+)((?:\[\d+\])*)(?=[ .=])/.exec(message);
  const full = [...path];
  if (field) {
    full.push(SCENE_FIELD[field[1]] ?? field[1]);
    for (const index of field[2].matchAll(/\[(\d+)\]/g)) full.push(Number(index[1]));
  }
  return new SceneValidationError([`${formatJsonPath(full)}: ${message} (the engine's rule)`]);
}

function engineCall<T>(path: (string | number)[], call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw sceneErrorFrom(error, path);
  }
}

/**
 * Runs a scene: every frame, every selected policy. Returns the deterministic result and the
 * measured timings. Throws `RangeError` for bad options (unknown policy, non-positive frames).
 *
 * @example
 * ```ts
 * import { simulate, builtInScene } from '@lodkit/cli';
 * const { result, timings } = simulate(builtInScene('motogp'), { frames: 120 });
 * for (const p of result.policies) console.log(p.name, p.summary.worstCost);
 * ```
 * @category Simulator
 */
export function simulate(scene: Scene, options: SimulateOptions = {}): { result: SimulationResult; timings: SimulationTimings } {
  const filter = options.policies ?? SIMULATE_DEFAULTS.policies;
  const specs = selectPolicies(scene, filter);
  if (options.budget !== undefined && !(options.budget > 0 && Number.isFinite(options.budget))) {
    throw new RangeError(`budget must be a positive number, got ${options.budget}`);
  }
  const path = new CameraPath(scene.camera);
  const startTime = path.startTime;
  const duration = scene.duration ?? Math.max(path.endTime - path.startTime, 1 / scene.fps);
  let frameCount = sceneFrameCount(duration, scene.fps);
  if (options.frames !== undefined) {
    if (!(Number.isInteger(options.frames) && options.frames > 0)) throw new RangeError(`frames must be a positive integer, got ${options.frames}`);
    if (options.frames > SIMULATE_LIMITS.frames) throw new RangeError(`frames: ${options.frames} is more than the limit of ${SIMULATE_LIMITS.frames} (SIMULATE_LIMITS.frames)`);
    frameCount = options.frames;
  } else if (frameCount > SIMULATE_LIMITS.frames) {
    throw new RangeError(`fps × duration: ${scene.fps} × ${duration} s = ${frameCount} frames, more than the limit of ${SIMULATE_LIMITS.frames} (SIMULATE_LIMITS.frames); lower the scene's fps or duration, or pass frames (--frames)`);
  }
  // Checked before compiling: the work of a run is bounded, not only its memory.
  let objectCount = scene.objects.length;
  for (const g of scene.groups) objectCount += g.spheres ? g.spheres.length / 4 : g.extents?.length ?? 0;
  checkSimulationSize(simulationSize(scene, frameCount, specs.length, objectCount), options.frames !== undefined ? 'frames' : 'fps × duration');
  const work = frameCount * objectCount * specs.length;
  if (work > SIMULATE_LIMITS.work) {
    throw new RangeError(`frames × objects × policies: ${frameCount} × ${objectCount} × ${specs.length} = ${work.toExponential(2)}, more than the limit of ${SIMULATE_LIMITS.work.toExponential(0)} (SIMULATE_LIMITS.work); use fewer frames (--frames), objects or policies (--policy)`);
  }
  const compiled = compileScene(scene);
  const dt = duration / frameCount;
  const budgetLine = options.budget ?? scene.budget;
  const errors = profileErrors(scene);
  const runs = specs.map((spec) => createRun(compiled, spec, options.budget, frameCount, errors));
  const reference = new QualityReference(compiled);
  const errorsOf = compiled.profileNames.map((n) => errors[n]);
  const tolerance = scene.tolerance ?? 1;
  const gpu = new GpuModel(scene.gpu ?? {}, startTime, duration);
  const frustum = new Frustum();
  const spheres = compiled.spheres.slice();
  const center = new Float64Array(3);
  const maxLevels = compiled.maxLevels;
  const levelCountOf = compiled.profileNames.map((n) => scene.profiles[n].thresholds.length + 1);
  const shots: Array<{ shot: string; startTime: number }> = [];
  const keys = scene.camera.keyframes;
  let previousKey = -1;
  const hist = new Uint32Array(maxLevels);
  const infeasible = new Uint32Array(runs.length);
  const invalid = new Uint32Array(runs.length);

  for (let f = 0; f < frameCount; f++) {
    const t = startTime + f * dt;
    const camera = path.sample(t, frustum);
    let cut = f === 0;
    if (camera.keyframe !== previousKey) {
      for (let k = Math.max(previousKey + 1, 1); k <= camera.keyframe; k++) if (keys[k].cut) cut = true;
      if (shots.length === 0 || shots[shots.length - 1].shot !== camera.shot) shots.push({ shot: camera.shot, startTime: t });
      previousKey = camera.keyframe;
    }
    for (let m = 0; m < compiled.movers.length; m++) {
      const id = compiled.movers[m];
      sampleMotion(compiled, m, t, center);
      spheres[id * 4] = center[0]; spheres[id * 4 + 1] = center[1]; spheres[id * 4 + 2] = center[2];
    }
    reference.update(frustum, camera.viewportHeight, spheres);
    gpu.beginFrame(t);
    const view = { frustum, viewportHeight: camera.viewportHeight };
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r];
      const t0 = performance.now();
      for (let m = 0; m < compiled.movers.length; m++) {
        const id = compiled.movers[m];
        const o = id * 4;
        run.sets[run.setOf[id]].setSphere(run.localId[id], spheres[o], spheres[o + 1], spheres[o + 2], spheres[o + 3]);
      }
      let cost = 0;
      const frameBudget = run.frameMs !== null ? (run.sets[0].frameTimeGovernor?.budget ?? Infinity) : run.budget;
      for (const set of run.sets) {
        let stats;
        try {
          stats = set.update(view, run.updateOptions);
        } catch (error) {
          throw sceneErrorFrom(error, ['policies', scene.policies.indexOf(run.spec)]);
        }
        cost += stats.totalCost;
        if (!stats.budgetMet && run.updateOptions.budget !== undefined) infeasible[r]++;
        invalid[r] += stats.invalid;
      }
      run.times[f] = performance.now() - t0;
      // Per-object bookkeeping (not timed): histogram, pops, quality loss.
      hist.fill(0);
      let hidden = 0, changes = 0, loss = 0, sse = 0;
      const weights = reference.weights, wanted = reference.wanted, previous = run.previous;
      const profileOf = compiled.profileOf, setOf = run.setOf, localId = run.localId;
      const single = run.sets.length === 1;
      const levelsOfSingle = run.sets[0].levels;
      for (let i = 0; i < compiled.count; i++) {
        // One set: ids are scene ids (added in order); per-profile sets map through setOf/localId.
        const level = single ? levelsOfSingle[i] : run.sets[setOf[i]].levels[localId[i]];
        const visible = level < levelCountOf[profileOf[i]];
        const now = visible ? level : NOT_VISIBLE;
        if (visible) {
          hist[level]++;
          const coarser = level - wanted[i];
          if (coarser > 0) loss += weights[i] * coarser;
          const e = errorsOf[profileOf[i]][level] * weights[i] - tolerance;
          if (e > 0) sse += e;
          if (!cut && previous[i] !== NOT_VISIBLE && previous[i] !== level) changes++;
        } else {
          hidden++;
        }
        previous[i] = now;
      }
      const ms = gpu.frameMs(cost, compiled.count - hidden);
      if (run.frameMs !== null) run.sets[0].reportFrameTime(ms);
      run.result.frames.push({
        frame: f, time: round3(t), shot: camera.shot, cost, overBudget: cost > frameBudget,
        qualityLoss: round3(loss), screenSpaceLoss: round3(sse), gpuMs: round3(ms),
        budget: Number.isFinite(frameBudget) ? Math.round(frameBudget) : null,
        changes, levelsHistogram: Array.from(hist), hidden,
      });
    }
    options.onProgress?.(f + 1, frameCount);
  }

  let maxStep = 0;
  for (const name of compiled.profileNames) {
    const t = scene.profiles[name].triangles;
    maxStep = Math.max(maxStep, t[0] - t[t.length - 1]);
  }
  const timings: SimulationTimings = {};
  runs.forEach((run, r) => {
    const frames = run.result.frames;
    let sumCost = 0, worstCost = -1, worstCostFrame = 0, sumLoss = 0, worstLoss = -1, worstLossFrame = 0, over = 0, changes = 0;
    let sumSse = 0, worstSse = 0, sumMs = 0, worstMs = 0;
    for (const fr of frames) {
      sumSse += fr.screenSpaceLoss; if (fr.screenSpaceLoss > worstSse) worstSse = fr.screenSpaceLoss;
      sumMs += fr.gpuMs; if (fr.gpuMs > worstMs) worstMs = fr.gpuMs;
      sumCost += fr.cost;
      if (fr.cost > worstCost) { worstCost = fr.cost; worstCostFrame = fr.frame; }
      sumLoss += fr.qualityLoss;
      if (fr.qualityLoss > worstLoss) { worstLoss = fr.qualityLoss; worstLossFrame = fr.frame; }
      if (fr.overBudget) over++;
      changes += fr.changes;
    }
    run.result.summary = {
      meanCost: round3(sumCost / frames.length),
      worstCost, worstCostFrame, worstCostShot: frames[worstCostFrame].shot,
      framesOverBudget: Number.isFinite(run.budget) || run.frameMs !== null ? over : null,
      qualityLossMean: round3(sumLoss / frames.length),
      qualityLossWorst: worstLoss, qualityLossWorstFrame: worstLossFrame,
      screenSpaceLossMean: round3(sumSse / frames.length), screenSpaceLossWorst: worstSse,
      gpuMsMean: round3(sumMs / frames.length), gpuMsWorst: worstMs,
      frameTime: run.frameMs === null ? null : frameTimeSummary(frames.map((fr) => fr.gpuMs), frames.map((fr) => fr.time), frames.map((fr) => fr.cost), frames.map((fr) => fr.budget), maxStep, run.frameMs, gpu.spikes, startTime),
      totalChanges: changes,
      popsPerSecond: round3(changes / duration),
      framesBudgetInfeasible: infeasible[r],
      invalidObjectFrames: invalid[r],
    };
    const sorted = Array.from(run.times).sort((a, b) => a - b);
    let total = 0;
    for (const x of sorted) total += x;
    timings[run.spec.name] = {
      meanMs: total / sorted.length, worstMs: sorted[sorted.length - 1], totalMs: total,
      perObjectNs: (total / sorted.length / Math.max(1, compiled.count)) * 1e6,
    };
  });

  const profiles: SimulationResult['scene']['profiles'] = {};
  compiled.profileNames.forEach((name, i) => {
    const p = scene.profiles[name];
    const q = p.quality ?? p;
    profiles[name] = {
      objects: compiled.objectsPerProfile[i], metric: p.metric, thresholds: p.thresholds, triangles: p.triangles,
      errors: Array.from(errors[name]),
      quality: { metric: q.metric, thresholds: q.thresholds },
    };
  });
  const result: SimulationResult = {
    format: SIMULATION_FORMAT,
    version: SIMULATION_FORMAT_VERSION,
    scene: {
      name: scene.name, description: scene.description ?? '', seed: scene.seed ?? null, objects: compiled.count,
      profiles, parameters: scene.parameters ?? {}, startTime, duration, frames: frameCount,
      fps: round3(frameCount / duration), budget: budgetLine ?? null, shots: shots.map((s) => ({ shot: s.shot, startTime: round3(s.startTime) })),
      tolerance,
      gpu: { overheadMs: gpu.overheadMs, msPerTriangle: gpu.msPerTriangle, msPerDraw: gpu.msPerDraw, noise: gpu.noise, spikes: gpu.spikes.map((x) => ({ ...x })) },
    },
    qualityLossUnit: 'px·levels',
    screenSpaceLossUnit: 'px',
    policies: runs.map((r) => r.result),
  };
  return { result, timings };
}
