/**
 * Worker-thread mode with a worker that lags: dynamic chunk claiming (threads.ts) must let the
 * calling thread finish a clustered frame alone when the worker is asleep, await only a chunk the
 * worker holds, and stay correct when a worker that woke for an old frame joins a later one. The
 * reference is a one-thread set fed the same edits and cameras.
 */
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import type { ThreadModeChooser } from '../../src/batch/threadChooser.js';
import type { LodThreads } from '../../src/batch/threads.js';
import { camera, randomSpheres } from './helpers.js';

function make(threads: number): LodSet {
  const set = new LodSet(64);
  if (threads > 1) set.setThreads(threads);
  const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [50, 20, 5, 1] });
  const q = set.addProfile({ metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100], costs: [80, 20, 5, 1] });
  set.addMany(randomSpheres(40_000, 31, 250, 0.3, 6), p);
  set.addMany(randomSpheres(30_000, 32, 250, 0.3, 6), q);
  for (let i = 0; i < 100; i++) set.setForcedLevel(i * 97, 2);
  for (let i = 0; i < 100; i++) set.setHidden(i * 89 + 5, true);
  set.setSphere(9, Number.NaN, 0, 0, 1);
  return set;
}

interface Inner { threadMode: ThreadModeChooser; threads: LodThreads }


function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  for (let i = 0; i < n; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** One frame on both sets (the threaded one forced onto its threaded path); returns its chunk split. */
function step(one: LodSet, two: LodSet, frame: number): { chunks: number; main: number } {
  const inner = two as unknown as Inner;
  inner.threadMode.forced = 2; // every frame threaded
  inner.threads.lastChunks = 0;
  if (frame % 7 === 3) for (const s of [one, two]) { s.setHidden(frame * 13, (frame & 8) === 0); s.setSphere(frame * 17, frame, 0, 30, 2); }
  const views: LodView[] = [{ frustum: camera([frame * 0.7, 6, frame * 0.3], [60, 0, 150], 60), viewportHeight: 1080 }];
  const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.05, minFramesBetweenChanges: frame & 1 };
  const s1 = { ...one.update(views, options) };
  const l1 = Array.from(s1.levelCounts);
  const s2 = two.update(views, options);
  const n = one.count;
  expect(firstDifference(two.levels, one.levels, n)).toBe(-1);
  expect(firstDifference(two.blend, one.blend, n)).toBe(-1);
  expect(firstDifference(two.sizes, one.sizes, n)).toBe(-1);
  expect(two.changedCount).toBe(one.changedCount);
  // Chunks are compacted in chunk order, which is the one-thread (cluster) order.
  expect(Array.from(two.changed.subarray(0, two.changedCount))).toEqual(Array.from(one.changed.subarray(0, one.changedCount)));
  expect(s2.totalCost).toBe(s1.totalCost);
  expect(s2.minimumCost).toBe(s1.minimumCost);
  expect(s2.hidden).toBe(s1.hidden);
  expect(s2.invalid).toBe(s1.invalid);
  expect(Array.from(s2.levelCounts)).toEqual(l1);
  expect(two.clusterStats.culled).toBe(one.clusterStats.culled);
  expect(two.clusterStats.skipped).toBe(one.clusterStats.skipped);
  expect(two.clusterStats.evaluated).toBe(one.clusterStats.evaluated);
  const t = inner.threads;
  expect(t.lastChunks).toBeGreaterThan(1); // the frame did run threaded
  return { chunks: t.lastChunks, main: t.lastMainChunks };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('worker-thread mode with a lagging worker (dynamic chunk claiming)', () => {
  it('a sleeping worker: the calling thread does every chunk, results equal one thread; a late worker joins correctly', async () => {
    const one = make(1), two = make(2);
    const threads = (two as unknown as Inner).threads;
    try {
      let frame = 0;
      // Warm frames with a live worker.
      for (; frame < 4; frame++) step(one, two, frame);
      // The worker sleeps 1.5 s before its first claim of each frame it wakes for: main must not
      // wait for it (it would hang here for 1.5 s per frame and the worker would take chunks).
      threads.stallWorkers(1500, 0);
      // One frame unchecked, then a pause: a worker still inside an earlier frame's claim loop (woken
      // before the stall was set, on a loaded machine) may take chunks of it, and claims on until the
      // chunks run out; after the pause it waits for the next frame, and stalls when that wakes it.
      step(one, two, frame++);
      await sleep(50);
      for (let k = 0; k < 6; k++, frame++) {
        const { chunks, main } = step(one, two, frame);
        expect(main).toBe(chunks);
      }
      threads.stallWorkers(0, 0);
      // The worker wakes up in whatever frame is live then, with the parameters of the frame it woke
      // for long gone: its claims must still produce the live frame's results. Run frames until it
      // has taken part (it sleeps at most 1.5 s more).
      let joined = 0;
      const until = Date.now() + 6000;
      while (joined < 3 && Date.now() < until) {
        const { chunks, main } = step(one, two, frame++);
        if (main < chunks) joined++;
        await sleep(5);
      }
      expect(joined).toBe(3);
    } finally {
      two.dispose();
    }
  }, 20_000);

  it('a worker descheduled while holding a chunk: the frame awaits that chunk only and stays identical', async () => {
    const one = make(1), two = make(2);
    const threads = (two as unknown as Inner).threads;
    try {
      let frame = 0;
      for (; frame < 4; frame++) step(one, two, frame);
      threads.stallWorkers(0, 25); // sleeps 25 ms inside its first chunk of each frame
      let held = 0;
      for (let k = 0; k < 40 && held < 3; k++, frame++) {
        const { chunks, main } = step(one, two, frame);
        if (main < chunks) held++;
        await sleep(2); // lets the worker reach its wait between frames
      }
      expect(held).toBe(3); // frames in which the worker's held chunk was awaited and merged
    } finally {
      two.dispose();
    }
  }, 20_000);
});
