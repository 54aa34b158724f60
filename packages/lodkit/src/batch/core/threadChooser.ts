/**
 * The choice between the threaded and the single-thread clustered frame in worker mode
 * (`LodSet.setThreads`), from the frames' own times.
 *
 * Rule: frames 0–15 run threaded, untimed (they warm the worker up); frames 16–23 alternate the two
 * modes, timed; from then on a frame runs threaded when the median of the last {@link SAMPLES} threaded frames is below the
 * median of the last {@link SAMPLES} single-thread frames, and every {@link PROBE_EVERY}th frame
 * runs the other mode to keep its samples fresh. A frame more than {@link RESET_BELOW} × faster
 * than its mode's median drops that mode's older samples (they describe a state that has passed:
 * a cold worker, a busy core that is free again).
 *
 * Why medians of a few recent frames: the first version kept exponential averages (weight 0.25) and
 * took threads when they were within 10 % of one thread. Slow threaded frames of the start-up (a cold
 * worker, a descheduled one holding a chunk) then outweighed later fast ones for dozens of probes:
 * in bench/run.ts the set ran threaded in 5 of 21 frames while the same set pinned to threads was
 * 1.70 × faster than one thread (bench/RESULTS.md). A median of 5 ignores up to two outliers either
 * way; comparing without a margin keeps the rule "never slower than one thread" on the typical
 * frame. The reset makes a start-up measured cold switch at the first warm probe (one lucky fast
 * frame costs at most two frames in the wrong mode before the median takes over again).
 *
 * Why threaded warm-up frames: a worker's first ≈ 15 frames are 2–4 × slower than its later ones
 * (its JIT is cold; bench/RESULTS.md, "Worker threads"), and when the start-up alternated from
 * frame 0, half of them fell into the timed frames, so one thread looked faster and the worker,
 * then run only on probes, stayed cold for over a hundred frames.
 *
 * @module
 */

/**
 * How the workers take part in threaded clustered frames (the worker seam, threads.ts
 * `LodThreads.setWorkerSchedule`): 'free' as in use, or a fixed split for tests and the bench.
 * @internal
 */
export type WorkerSchedule = 'free' | 'absent' | 'first' | 'holdFirst';

/** Samples kept per mode. */
export const SAMPLES = 5;
/** Every this many frames the mode not chosen runs once. */
export const PROBE_EVERY = 16;
/** Start-up frames run threaded, not timed. */
export const WARM_FRAMES = 16;
/** Then this many frames alternate the modes (odd frames threaded), timed. */
export const ALTERNATE_FRAMES = 8;
/** A frame below this share of its mode's median restarts the mode's samples. */
export const RESET_BELOW = 0.8;

/** Per-set state of the choice. @internal */
export class ThreadModeChooser {
  /** 0: adaptive; 1: always one thread; 2: always threaded (tests and the bench). */
  forced = 0;
  /** Frames chosen so far. */
  frames = 0;
  private readonly single = new Float64Array(SAMPLES);
  private readonly threaded = new Float64Array(SAMPLES);
  private singleCount = 0;
  private threadedCount = 0;
  private readonly scratch = new Float64Array(SAMPLES);

  /** Forgets every sample (new thread count). */
  reset(): void {
    this.frames = 0; this.singleCount = 0; this.threadedCount = 0;
  }

  /** Whether the next frame runs threaded. */
  next(): boolean {
    if (this.forced !== 0) return this.forced === 2;
    const k = this.frames;
    if (k < WARM_FRAMES) return true;
    if (k < WARM_FRAMES + ALTERNATE_FRAMES || this.singleCount === 0 || this.threadedCount === 0) return (k & 1) === 1;
    const better = this.threadedFaster();
    return k % PROBE_EVERY === 0 ? !better : better;
  }

  /** The time of the frame just run, in ms, for {@link record} (a field: a double argument would be boxed). */
  ms = 0.5;

  /** Records {@link ms} as the time of the frame {@link next} chose (`threaded`). */
  record(threaded: boolean): void {
    const k = this.frames++, ms = this.ms;
    if (this.forced !== 0 || k < WARM_FRAMES || !(ms >= 0)) return;
    if (threaded) {
      if (this.threadedCount > 0 && ms < RESET_BELOW * this.medianOf(this.threaded, this.threadedCount)) this.threadedCount = 0;
      this.threaded[this.threadedCount++ % SAMPLES] = ms;
    } else {
      if (this.singleCount > 0 && ms < RESET_BELOW * this.medianOf(this.single, this.singleCount)) this.singleCount = 0;
      this.single[this.singleCount++ % SAMPLES] = ms;
    }
  }

  /** Median of the threaded samples < median of the single-thread ones. */
  private threadedFaster(): boolean {
    return this.medianOf(this.threaded, this.threadedCount) < this.medianOf(this.single, this.singleCount);
  }

  /** Median of a mode's samples (small enough for V8 to inline, so the double is not boxed). */
  private medianOf(samples: Float64Array, count: number): number {
    sortInto(samples, count, this.scratch);
    const n = count < SAMPLES ? count : SAMPLES, s = this.scratch;
    return n % 2 === 1 ? s[n >> 1] : (s[(n >> 1) - 1] + s[n >> 1]) * 0.5;
  }
}

/** The first min(count, SAMPLES) samples, sorted, into `out` (insertion sort of ≤ 5 values). */
function sortInto(samples: Float64Array, count: number, out: Float64Array): void {
  const n = count < SAMPLES ? count : SAMPLES;
  for (let i = 0; i < n; i++) {
    const x = samples[i];
    let j = i - 1;
    while (j >= 0 && out[j] > x) { out[j + 1] = out[j]; j--; }
    out[j + 1] = x;
  }
}
