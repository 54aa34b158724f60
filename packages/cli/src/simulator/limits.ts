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
  /** frames × objects × policies: the work of one run (about 10 minutes at the engine's speed on a laptop). */
  work: 20_000_000_000,
  /** Absolute value of any coordinate, radius, extent, camera height or clip distance, in world units. */
  coordinate: 1e9,
  /** Bytes of a scene file. */
  sceneFileBytes: 256 * 1024 * 1024,
  /** Copies of each LOD group of a glTF scene (`--instances`). */
  instances: 100_000,
});

/** Frames a scene asks for without `--frames`: `round(duration × fps)`, at least 1. @category Simulator */
export function sceneFrameCount(duration: number, fps: number): number {
  return Math.max(1, Math.round(duration * fps));
}
