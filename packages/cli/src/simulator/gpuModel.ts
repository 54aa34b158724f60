/**
 * The synthetic GPU of `lodkit simulate`: what a frame would take to draw, so that a policy with a
 * frame-time target (`budget: { frameMs }`) can be run and judged without a GPU.
 *
 *     ms = (overheadMs + msPerTriangle · triangles + msPerDraw · draws) · load(t) · (1 + noise · z)
 *
 * - `z` is a standard normal variate (Box–Muller on a seeded 32-bit LCG), clamped to ±3, drawn
 *   once per frame: every policy of a run sees the same noise sequence, so they compare fairly.
 * - `load(t)` is 1 except inside `spikes` (e.g. another application, a shader warm-up, thermal
 *   throttling): `factor` from `start` to `end` seconds of scene time.
 *
 * Defaults ({@link GPU_MODEL_DEFAULTS}): 2 ms overhead, 25 ns per triangle (40 M shaded triangles/s,
 * a mid-range GPU), 10 µs per draw, 3 % noise, and a 2× load from 50 % to 75 % of the run.
 *
 * @module
 */
import { lcg } from './scenarios/random.js';

/** A load change of the synthetic GPU: `factor` × from `start` to `end` (seconds of scene time). @category Simulator */
export interface GpuSpike {
  start: number;
  end: number;
  factor: number;
}

/** The synthetic GPU's parameters (scene field `gpu`). @category Simulator */
export interface GpuModelOptions {
  overheadMs?: number;
  msPerTriangle?: number;
  msPerDraw?: number;
  /** Relative standard deviation of the per-frame noise. */
  noise?: number;
  /** Load changes; default: one 2× spike from 50 % to 75 % of the run. */
  spikes?: GpuSpike[];
  /** Seed of the noise. */
  seed?: number;
}

/** Defaults of {@link GpuModelOptions} (spikes: see the module comment). @category Simulator */
export const GPU_MODEL_DEFAULTS = { overheadMs: 2, msPerTriangle: 25e-6, msPerDraw: 0.01, noise: 0.03, seed: 60 } as const;

/**
 * The synthetic GPU for one run: call {@link GpuModel.beginFrame} once per frame, then
 * {@link GpuModel.frameMs} for each policy.
 * @example
 * ```ts
 * const gpu = new GpuModel({}, startTime, duration);
 * gpu.beginFrame(t);
 * const ms = gpu.frameMs(stats.totalCost, drawn);
 * ```
 * @category Simulator
 */
export class GpuModel {
  readonly overheadMs: number;
  readonly msPerTriangle: number;
  readonly msPerDraw: number;
  readonly noise: number;
  readonly spikes: readonly GpuSpike[];
  private readonly random: () => number;
  private factor = 1;

  constructor(options: GpuModelOptions, startTime: number, duration: number) {
    const d = GPU_MODEL_DEFAULTS;
    this.overheadMs = options.overheadMs ?? d.overheadMs;
    this.msPerTriangle = options.msPerTriangle ?? d.msPerTriangle;
    this.msPerDraw = options.msPerDraw ?? d.msPerDraw;
    this.noise = options.noise ?? d.noise;
    this.spikes = options.spikes ?? [{ start: startTime + duration * 0.5, end: startTime + duration * 0.75, factor: 2 }];
    this.random = lcg(options.seed ?? d.seed);
  }

  /** Load factor at scene time `t`. */
  loadAt(t: number): number {
    let f = 1;
    for (const s of this.spikes) if (t >= s.start && t < s.end) f *= s.factor;
    return f;
  }

  /** Draws this frame's noise and load. */
  beginFrame(t: number): void {
    const u1 = Math.max(this.random(), 1e-12), u2 = this.random();
    let z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    if (z > 3) z = 3; else if (z < -3) z = -3;
    this.factor = this.loadAt(t) * (1 + this.noise * z);
  }

  /** Frame time (ms) of a frame drawing `triangles` in `draws` draw calls, this frame. */
  frameMs(triangles: number, draws: number): number {
    return (this.overheadMs + this.msPerTriangle * triangles + this.msPerDraw * draws) * this.factor;
  }
}
