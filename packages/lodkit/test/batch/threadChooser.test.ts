/**
 * The worker-mode choice (src/batch/threadChooser.ts) on synthetic frame times: the expected mode
 * of every frame is derived here from the rule as documented (alternate for 16 frames, then the
 * lower median of the last 5 timed frames per mode, the other mode every 16th frame).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FIRST_TIMED, PROBE_EVERY, SAMPLES, START_FRAMES, ThreadModeChooser } from '../../src/batch/threadChooser.js';

function median(values: number[]): number {
  const s = values.slice().sort((a, b) => a - b), n = s.length;
  return n % 2 === 1 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Runs `frames` frames; `time(threaded, k)` gives frame k's time. Returns the modes chosen. */
function run(frames: number, time: (threaded: boolean, k: number) => number): boolean[] {
  const c = new ThreadModeChooser(), modes: boolean[] = [];
  for (let k = 0; k < frames; k++) {
    const threaded = c.next();
    modes.push(threaded);
    c.ms = time(threaded, k);
    c.record(threaded);
  }
  return modes;
}

describe('ThreadModeChooser', () => {
  it('follows the documented rule frame by frame (fast-check: random frame times)', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0.1, max: 50, noNaN: true }), { minLength: 120, maxLength: 120 }),
      fc.array(fc.double({ min: 0.1, max: 50, noNaN: true }), { minLength: 120, maxLength: 120 }), (single, threadedTimes) => {
        const t: number[] = [], s: number[] = [];
        const modes = run(120, (threaded, k) => (threaded ? threadedTimes[k] : single[k]));
        for (let k = 0; k < 120; k++) {
          let expected: boolean;
          if (k < START_FRAMES) expected = (k & 1) === 1;
          else {
            const better = median(t.slice(-SAMPLES)) < median(s.slice(-SAMPLES));
            expected = k % PROBE_EVERY === 0 ? !better : better;
          }
          expect(modes[k]).toBe(expected);
          if (k >= FIRST_TIMED) (expected ? t : s).push(expected ? threadedTimes[k] : single[k]);
        }
      }), { numRuns: 200 });
  });

  it('a slow start-up (cold worker) does not keep it on one thread once threads are faster', () => {
    // Threaded frames 8–15 take 10 ms (cold), later 2 ms; one thread 3.5 ms (the bench's trees ratio).
    const modes = run(100, (threaded, k) => (threaded ? (k < 16 ? 10 : 2) : 3.5));
    // Frame 16 is a probe of the mode not preferred: the start-up says one thread, so it runs threaded.
    const after = modes.slice(50);
    const threadedShare = after.filter(Boolean).length / after.length;
    expect(threadedShare).toBeGreaterThan(0.9);
    // and it switched within the first probes: by frame 16 + 3 probes (3 fresh threaded samples)
    const firstRun = modes.findIndex((m, k) => k >= 16 && m && modes[k + 1]);
    expect(firstRun).toBeGreaterThan(0);
    expect(firstRun).toBeLessThanOrEqual(16 + 3 * PROBE_EVERY);
  });

  it('stays on one thread when threaded frames are slower, whatever a few outliers say', () => {
    // Threaded 5 ms with every 7th frame 0.5 ms (an outlier), one thread 4 ms with every 5th 40 ms.
    const modes = run(200, (threaded, k) => (threaded ? (k % 7 === 0 ? 0.5 : 5) : k % 5 === 0 ? 40 : 4));
    const after = modes.slice(48);
    const probes = after.filter((_, i) => (i + 48) % PROBE_EVERY === 0);
    expect(probes.every(Boolean)).toBe(true); // the probes are the threaded frames
    expect(after.filter(Boolean).length).toBe(probes.length);
  });

  it('forced modes ignore the times', () => {
    const c = new ThreadModeChooser();
    c.forced = 2;
    for (let k = 0; k < 40; k++) { expect(c.next()).toBe(true); c.ms = 100; c.record(true); }
    c.forced = 1;
    for (let k = 0; k < 40; k++) { expect(c.next()).toBe(false); c.ms = 0.001; c.record(false); }
  });
});
