/**
 * The ceilings of `lodkit simulate`: every size a scene file or a flag can make large, checked
 * before anything is allocated, each with an error that names the field (exit code 2 in the CLI).
 * The table in docs/simulate.md lists the same numbers.
 *
 * Contributor notes:
 * - Why ceilings and not "whatever fits": `--frames 100000000` used to run ~70 s and die of V8's
 *   out-of-memory crash (exit 134); `fps = duration = 1e6` asked for a 10¹²-element typed array.
 *   A clear refusal in microseconds is better than either.
 * - The values are far above every built-in scenario and the documented use (the forest scenario:
 *   ~10⁵ trees, hundreds of frames); raise them here if a real scene needs more.
 * - Work, not only counts (issue 24): a 1.5 KB scene of 32 policies × 100,000 frames passed every
 *   count and built a 1.8 GB result before `JSON.stringify` died with `Invalid string length`. The
 *   products that drive memory — frame records, histogram entries, the output's estimated size —
 *   have ceilings of their own, checked before the first frame ({@link checkSimulationSize}).
 * - Coordinates: the engine stores spheres as float32, and a radius of 1e308 became Infinity there
 *   and was only counted (`invalidObjectFrames`). 1e9 world units (a million km in metres) keeps
 *   squared distances well inside float64 and values finite in float32.
 *
 * @module
 */

/** Ceilings of a simulation. @category Simulator */
export const SIMULATE_LIMITS = Object.freeze({
  /** Frames of one run (`--frames`, or `fps × duration` of the scene). */
  frames: 100_000,
  /** Frames per second of a scene. */
  fps: 1_000,
  /** Seconds simulated (`duration`, or the camera path's span). */
  duration: 86_400,
  /** Objects in all: single objects plus every group's instances. */
  objects: 2_000_000,
  /** LOD profiles of a scene (the engine indexes them with 16 bits). */
  profiles: 65_535,
  /** Thresholds of one profile or rule (so at most 255 levels: levels are bytes in the engine). */
  thresholds: 254,
  /** Policies compared in one run. */
  policies: 32,
  /** Camera keyframes. */
  keyframes: 100_000,
  /** Motion keys of all moving objects together. */
  motionKeys: 1_000_000,
  /**
   * objects × policies: each policy runs its own engine sets, ~330 bytes of state per object
   * (measured, 1M objects in one set), so 2.5 M is ~0.8 GB; the forest (210k trees × 6 policies) is 1.26 M.
   */
  objectRuns: 2_500_000,
  /** frames × objects × policies: the work of one run (about 10 minutes at the engine's speed on a laptop). */
  work: 20_000_000_000,
  /** Absolute value of any coordinate, radius, extent, camera height or clip distance, in world units. */
  coordinate: 1e9,
  /** Bytes of a scene file. */
  sceneFileBytes: 256 * 1024 * 1024,
  /** Copies of each LOD group of a glTF scene (`--instances`). */
  instances: 100_000,
  /**
   * frames × policies: the per-frame records a run keeps (one per frame and policy, ~0.5 KB of heap
   * each) and the report's per-frame series. No per-frame per-object record is kept, so objects do
   * not multiply memory; they multiply time (`work`).
   */
  frameRecords: 400_000,
  /** frames × policies × levels: entries of the per-frame level histograms (the widest profile's level count). */
  histogramEntries: 10_000_000,
  /**
   * Estimated characters of the largest output (the `--json` document, `result.json` or
   * `index.html`; {@link estimateOutputChars}). V8 cannot build a string past ~512 M characters
   * (`Invalid string length`); 128 M keeps one output and the run's records well inside 1 GB.
   */
  outputChars: 128 * 1024 * 1024,
  /** Characters of a name the outputs echo: scene, profile, policy, object and group names, shot labels, parameter keys. */
  nameLength: 256,
  /** Characters of the description and of a parameter's text value. */
  textLength: 4_096,
  /** Entries of the scene's free-form `parameters`. */
  parameters: 256,
});

/** Frames a scene asks for without `--frames`: `round(duration × fps)`, at least 1. @category Simulator */
export function sceneFrameCount(duration: number, fps: number): number {
  return Math.max(1, Math.round(duration * fps));
}

/** Characters per frame record in the `--json` document besides its shot label and histogram (measured ~175; numbers can be longer). */
const RECORD_CHARS = 260;
/** Characters per number in the outputs' per-profile lists (thresholds, triangles, errors): `0.12345678901234567,`. */
const NUMBER_CHARS = 24;

/** What {@link estimateOutputChars} and {@link checkSimulationSize} need to know of a run. */
export interface SimulationSize {
  /** Frames of the run. */
  frames: number;
  /** Policies run. */
  policies: number;
  /** Objects in all. */
  objects: number;
  /** Largest level count of any profile (the histogram's length). */
  maxLevels: number;
  /** Σ over profiles of their level counts: the per-level lists every output repeats. */
  profileLevels: number;
  /** Σ over profiles of their name's characters (each output repeats a name once per policy). */
  profileNameChars: number;
  /** Characters of the longest shot label (every frame record repeats it). */
  shotChars: number;
}

/**
 * An upper estimate of the characters of the largest output of a run: every frame record (its
 * fields, its shot label, its histogram of `maxLevels` counts of up to `digits(objects)` digits)
 * plus the per-profile lists, which the result holds once for the scene and once per policy.
 * @example
 * ```ts
 * estimateOutputChars({ frames: 780, policies: 5, objects: 48, maxLevels: 3, profileLevels: 9, profileNameChars: 20, shotChars: 12 });
 * ```
 * @category Simulator
 */
export function estimateOutputChars(size: SimulationSize): number {
  const records = size.frames * size.policies;
  const countChars = String(Math.max(1, size.objects)).length + 1;
  const perRecord = RECORD_CHARS + size.shotChars + size.maxLevels * countChars;
  // Per profile: thresholds, triangles, errors and quality thresholds once, thresholds and blend
  // thresholds once per policy; the name (plus quotes and punctuation) once plus once per policy.
  const profiles = size.profileLevels * NUMBER_CHARS * (4 + 2 * size.policies) + (size.profileNameChars + 16) * (1 + size.policies);
  return records * perRecord + profiles;
}

/**
 * Throws `RangeError` naming the product and the ceiling when a run would keep too many frame
 * records or histogram entries, or write too large an output; called before anything is
 * allocated. Messages read `fps × duration × policies = …` (or `frames × policies` with
 * `--frames`), so the fields to change are named.
 * @example
 * ```ts
 * checkSimulationSize({ frames: 100_000, policies: 32, objects: 4, maxLevels: 3, profileLevels: 3, profileNameChars: 1, shotChars: 5 }, 'fps × duration');
 * // RangeError: fps × duration × policies = 100,000 × 32 = 3,200,000 frame records exceeds …
 * ```
 * @category Simulator
 */
export function checkSimulationSize(size: SimulationSize, framesFrom = 'frames'): void {
  const n = (x: number): string => x.toLocaleString('en-US');
  const records = size.frames * size.policies;
  const fix = 'use fewer frames (--frames, or the scene\'s fps or duration) or fewer policies (--policy)';
  if (records > SIMULATE_LIMITS.frameRecords) {
    throw new RangeError(`${framesFrom} × policies = ${n(size.frames)} × ${n(size.policies)} = ${n(records)} frame records exceeds the limit of ${n(SIMULATE_LIMITS.frameRecords)} (SIMULATE_LIMITS.frameRecords); ${fix}`);
  }
  const objectRuns = size.objects * size.policies;
  if (objectRuns > SIMULATE_LIMITS.objectRuns) {
    throw new RangeError(`objects × policies = ${n(size.objects)} × ${n(size.policies)} = ${n(objectRuns)} exceeds the limit of ${n(SIMULATE_LIMITS.objectRuns)} (SIMULATE_LIMITS.objectRuns: each policy keeps ~330 bytes per object); use fewer objects or policies (--policy)`);
  }
  const entries = records * size.maxLevels;
  if (entries > SIMULATE_LIMITS.histogramEntries) {
    throw new RangeError(`${framesFrom} × policies × levels = ${n(size.frames)} × ${n(size.policies)} × ${n(size.maxLevels)} = ${n(entries)} histogram entries exceeds the limit of ${n(SIMULATE_LIMITS.histogramEntries)} (SIMULATE_LIMITS.histogramEntries); ${fix}, or profiles with fewer levels`);
  }
  const chars = estimateOutputChars(size);
  if (chars > SIMULATE_LIMITS.outputChars) {
    throw new RangeError(`the report would have about ${n(chars)} characters (${n(records)} frame records with shot labels of ${n(size.shotChars)} characters and ${n(size.maxLevels)}-level histograms, plus the profiles' lists for ${n(size.policies)} policies), more than the limit of ${n(SIMULATE_LIMITS.outputChars)} (SIMULATE_LIMITS.outputChars); ${fix}, or shorter shot labels`);
  }
}
