/**
 * Options, level records and once-per-page warnings of {@link ScreenSizeLOD}, kept apart from the
 * class so that modules needing only the types (`LodManager`'s and `InstancedLOD`'s options) do not
 * pull in the class.
 *
 * @module
 */
import type { Object3D, Vector2 } from 'three';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';

/** The metrics a {@link ScreenSizeLOD} accepts. @category three.js */
export const SCREEN_SIZE_LOD_METRICS: readonly SphereMetric[] = ['distance', 'pixels', 'screenHeight', 'screenArea'];

/** One level of a {@link ScreenSizeLOD}; `distance` mirrors `threshold` for `THREE.LOD` code. @category three.js */
export interface ScreenSizeLODLevel {
  object: Object3D;
  /** Metric value where this level starts (distance) or ends (screen sizes); see {@link ScreenSizeLOD.addLevel}. */
  threshold: number;
  /** Same value as `threshold` (the field name `THREE.LOD` code reads). */
  distance: number;
  /** Relative hysteresis band of this level's threshold, in [0, 1). */
  hysteresis: number;
}

/** Something that knows the drawing-buffer size (a `WebGLRenderer` or `WebGPURenderer`). @category three.js */
export interface ViewportSource {
  /** Writes the drawing-buffer size in physical pixels into `target` and returns it (as three's renderers do). */
  getDrawingBufferSize(target: Vector2): Vector2;
}

/** Options of {@link ScreenSizeLOD}. @category three.js */
export interface ScreenSizeLODOptions {
  /** Metric of the thresholds. Default `'distance'` (so `THREE.LOD` code keeps working). */
  metric?: SphereMetric;
  /** Viewport height in pixels for the `'pixels'` metric (else read from `renderer`). */
  viewportHeight?: number | null;
  /** Renderer to read the drawing-buffer height from for the `'pixels'` metric. */
  renderer?: ViewportSource | null;
  /** Multiplies sizes / divides distances (Unity's lodBias). Default 1. */
  bias?: number;
  /** Seconds of the time-based cross-fade used when no blend thresholds are set; 0 = off. Default 0. */
  fadeDuration?: number;
  /** Draw both levels of a blend window with a screen-door dither. Default true. */
  crossFade?: boolean;
}

/** Defaults of {@link ScreenSizeLODOptions}. @category three.js */
export const SCREEN_SIZE_LOD_DEFAULTS = {
  metric: 'distance' as SphereMetric,
  viewportHeight: null as number | null,
  renderer: null as ViewportSource | null,
  bias: 1,
  fadeDuration: 0,
  crossFade: true,
};

/** `value` when it is a finite number in [min, max]; else a RangeError naming `field`. */
export function requireFiniteNumber(value: unknown, field: string, min: number, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`ScreenSizeLOD: ${field} must be a finite number in [${min}, ${max}], got ${String(value)}`);
  }
  return value;
}


/** Adapters that already warned about a missing viewport on this page (one warning per adapter class). */
const warnedNoViewport = new Set<string>();

/**
 * The one rule of every lodkit three.js adapter (docs/defaults.md): a `'pixels'` metric with
 * neither `viewportHeight` nor `renderer` cannot measure anything. It is not an error at the API
 * boundary (the renderer may be set later, or a `LodManager` may supply it), so `update` keeps
 * every level, counts the frame (`skippedUpdates` / `skippedFrames`) and warns once per page and
 * adapter class (not once per object: a scene has thousands).
 */
export function warnNoViewport(name: string, adapter = 'ScreenSizeLOD', fix = 'set lod.renderer or lod.viewportHeight (or register it with a LodManager)', counter = 'skippedUpdates'): void {
  if (warnedNoViewport.has(adapter)) return;
  warnedNoViewport.add(adapter);
  console.warn(`lodkit ${adapter}${name ? ` "${name}"` : ''}: the 'pixels' metric needs the viewport height; ${fix}. Its levels do not change until then (counted in ${counter}; further ${adapter}s are not reported).`);
}

/** Lets the three.js adapters warn again about a missing viewport (for tests). @category three.js */
export function resetScreenSizeLODWarnings(): void {
  warnedNoViewport.clear();
}
