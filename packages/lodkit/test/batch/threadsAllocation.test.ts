/**
 * Zero allocation per frame in worker-thread mode (the calling thread's heap; the worker's is its
 * own isolate). Same method as allocation.test.ts: young-generation bytes read around each update,
 * median over the frames minus the median of the same two reads with nothing between, 256 B
 * tolerance (a few boxed doubles of per-frame glue while V8 runs it in a lower tier). Warm-up 1,000
 * frames: the merge loop runs once a frame and boxes its doubles (≈ 0.5 kB/frame) until optimised.
 * Threaded clustered frames (chunk claiming, merging) and the adaptive mode's single-thread frames
 * are both measured: the adaptive choice is pinned through the set's private timing fields.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import type { ThreadModeChooser } from '../../src/batch/threadChooser.js';
import type { LodThreads } from '../../src/batch/threads.js';
import { camera, randomSpheres } from './helpers.js';

const FRAMES = 600;
const WARM_UP = 1000;
const PER_FRAME_TOLERANCE = 256;

interface Inner { threadMode: ThreadModeChooser; threads: LodThreads }

function newSpaceUsed(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_used_size;
  throw new Error('no new_space in v8.getHeapSpaceStatistics()');
}

function median(values: number[]): number {
  const sorted = values.slice().sort((x, y) => x - y);
  return sorted[sorted.length >> 1];
}

const VIEWS: LodView[][] = Array.from({ length: 8 }, (_, k) => [
  { frustum: camera([k * 3 - 0.1, 5, k], [40, 0, 120], 60), viewportHeight: 1080 },
  { frustum: camera([k * 3 + 0.1, 5, k], [40, 0, 120], 60), viewportHeight: 1080 },
]);

function measure(set: LodSet, threaded: boolean): number {
  const inner = set as unknown as Inner;
  const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1, minFramesBetweenChanges: 2 };
  const pin = () => { inner.threadMode.forced = threaded ? 2 : 1; };
  for (let f = 0; f < 50; f++) { pin(); set.update(VIEWS[f & 7], options); }
  inner.threads.lastChunks = 0;
  const withUpdate: number[] = [], probeOnly: number[] = [];
  for (let f = 0; f < FRAMES; f++) {
    pin();
    let a = newSpaceUsed();
    set.update(VIEWS[f & 7], options);
    let b = newSpaceUsed();
    if (b >= a) withUpdate.push(b - a);
    a = newSpaceUsed();
    b = newSpaceUsed();
    if (b >= a) probeOnly.push(b - a);
  }
  // The frames did take the path under test.
  if (threaded) expect(inner.threads.lastChunks).toBeGreaterThan(1);
  else expect(inner.threads.lastChunks).toBe(0);
  return median(withUpdate) - median(probeOnly);
}

describe('zero allocation per frame, worker-thread mode (100k objects, 2 views)', () => {
  // One set, both modes in turn.
  it('threaded and single-thread (fallback) clustered frames: ≤ 256 B garbage per frame each', () => {
    const set = new LodSet(1024);
    set.setThreads(2);
    try {
      const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [5000, 1200, 300, 40] });
      set.addMany(randomSpheres(100_000, 11, 250, 0.3, 6), p);
      for (let i = 0; i < 200; i++) set.setHidden(i * 41 + 3, true);
      // Warm-up as in use: the adaptive choice runs both modes (alternating, then a probe every
      // 16th frame). Pinned to one mode for the whole warm-up, V8 deoptimises on the first frame of
      // the other mode and that mode then measured ~220 B/frame (32 B/frame after this warm-up).
      const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1, minFramesBetweenChanges: 2 };
      for (let f = 0; f < WARM_UP; f++) set.update(VIEWS[f & 7], options);
      // Up to 3 measurements per mode, the least kept: with other test files running on the same
      // cores, V8's background compiler can lag so far that a whole measurement runs in a lower
      // tier (seen once: ~7 kB/frame, 64 B/frame when rerun). Real per-frame garbage shows in all 3.
      let threaded = measure(set, true), single = measure(set, false);
      for (let k = 0; k < 2 && threaded > PER_FRAME_TOLERANCE; k++) threaded = Math.min(threaded, measure(set, true));
      for (let k = 0; k < 2 && single > PER_FRAME_TOLERANCE; k++) single = Math.min(single, measure(set, false));
      console.info(`worker mode: median garbage ${threaded} B/frame threaded, ${single} B/frame single-thread`);
      expect(threaded).toBeLessThanOrEqual(PER_FRAME_TOLERANCE);
      expect(single).toBeLessThanOrEqual(PER_FRAME_TOLERANCE);
    } finally {
      set.dispose();
    }
  }, 60_000);
});
