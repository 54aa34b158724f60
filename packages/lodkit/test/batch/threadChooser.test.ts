/**
 * The worker-mode choice (src/batch/threadChooser.ts) on synthetic frame times: the expected mode
 * of every frame is derived here from the rule as documented (alternate for 16 frames, then the
 * threaded warm-up for 16 frames, alternate for 8, then the lower median of the last 5 timed
 * frames per mode, the other mode every 16th frame, a frame below 0.8 × its mode's median
 * restarting that mode's samples).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ALTERNATE_FRAMES, PROBE_EVERY, RESET_BELOW, SAMPLES, ThreadModeChooser, WARM_FRAMES } from '../../src/batch/core/threadChooser.js';

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
          if (k < WARM_FRAMES) expected = true;
          else if (k < WARM_FRAMES + ALTERNATE_FRAMES) expected = (k & 1) === 1;
          else {
            const better = median(t.slice(-SAMPLES)) < median(s.slice(-SAMPLES));
            expected = k % PROBE_EVERY === 0 ? !better : better;
          }
          expect(modes[k]).toBe(expected);
          if (k >= WARM_FRAMES) {
            const samples = expected ? t : s, ms = expected ? threadedTimes[k] : single[k];
            if (samples.length > 0 && ms < RESET_BELOW * median(samples.slice(-SAMPLES))) samples.length = 0;
            samples.push(ms);
          }
        }
      }), { numRuns: 200 });
  });

  it('a slow start-up (cold worker) does not keep it on one thread once threads are faster', () => {
    // Threaded frames take 10 ms while the worker is cold (its first 18 frames), later 2 ms; one
    // thread 3.5 ms (the bench's trees ratio). The warm-up runs threaded; in the alternation the
    // cold frame 17 is timed, then 19 (2 ms < 0.8 × 10 ms) restarts the threaded samples.
    const modes = run(100, (threaded, k) => (threaded ? (k < 18 ? 10 : 2) : 3.5));
    for (let k = 0; k < WARM_FRAMES; k++) expect(modes[k]).toBe(true);
    for (let k = WARM_FRAMES + ALTERNATE_FRAMES; k < 100; k++) expect(modes[k], `frame ${k}`).toBe(k % PROBE_EVERY !== 0);
  });

  it('a worker that starts cold and stays slower: one thread after the start-up', () => {
    const modes = run(100, (threaded, k) => (threaded ? (k < 18 ? 20 : 5) : 3.5));
    for (let k = WARM_FRAMES + ALTERNATE_FRAMES; k < 100; k++) expect(modes[k], `frame ${k}`).toBe(k % PROBE_EVERY === 0);
  });

  it('stays on one thread when threaded frames are slower, whatever a few outliers say', () => {
    // Threaded 5 ms with every 7th frame 0.5 ms (an outlier), one thread 4 ms with every 5th 40 ms.
    const modes = run(200, (threaded, k) => (threaded ? (k % 7 === 0 ? 0.5 : 5) : k % 5 === 0 ? 40 : 4));
    // (the start-up's threaded frames 17, 19, 21, 23 are 5 ms; frame 21 = 3 × 7 is an outlier: 0.5 ms)
    let wrong = 0, luckyProbes = 0;
    for (let k = 48; k < 200; k++) {
      if (k % PROBE_EVERY === 0) { expect(modes[k]).toBe(true); if (k % 7 === 0) luckyProbes++; continue; }
      if (modes[k]) wrong++;
    }
    // A probe that hit an outlier (frame 112) restarts the threaded samples: at most 2 frames follow threaded.
    expect(luckyProbes).toBe(1);
    expect(wrong).toBeLessThanOrEqual(2 * luckyProbes);
    expect(modes.slice(120).filter((m, i) => m && (i + 120) % PROBE_EVERY !== 0)).toEqual([]);
  });

  it('forced modes ignore the times', () => {
    const c = new ThreadModeChooser();
    c.forced = 2;
    for (let k = 0; k < 40; k++) { expect(c.next()).toBe(true); c.ms = 100; c.record(true); }
    c.forced = 1;
    for (let k = 0; k < 40; k++) { expect(c.next()).toBe(false); c.ms = 0.001; c.record(false); }
  });
});
