/**
 * Worker-thread mode with a worker that lags: dynamic chunk claiming (threads.ts) must let the
 * calling thread finish a frame (clustered, or per object with `clusters: false`) alone when the
 * worker is asleep — or never started: one that failed to load used to hang a per-object frame — await only a chunk the
 * worker holds, and stay correct when a worker that woke for an old frame joins a later one. The
 * reference is a one-thread set fed the same edits and cameras.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { threadModeLoaded } from '../../src/batch/engineSeam.js';
import { assertFreshDist } from '../helpers/dist.js';
import { camera, randomSpheres } from './helpers.js';

/** A set of 70k objects on `threads` threads, its workers started (the worker-thread code arrives by a dynamic import). */
async function make(threads: number): Promise<LodSet> {
  const set = new LodSet(64);
  if (threads > 1) set.setThreads(threads);
  const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [50, 20, 5, 1] });
  const q = set.addProfile({ metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100], costs: [80, 20, 5, 1] });
  set.addMany(randomSpheres(40_000, 31, 250, 0.3, 6), p);
  set.addMany(randomSpheres(30_000, 32, 250, 0.3, 6), q);
  for (let i = 0; i < 100; i++) set.setForcedLevel(i * 97, 2);
  for (let i = 0; i < 100; i++) set.setHidden(i * 89 + 5, true);
  set.setSphere(9, Number.NaN, 0, 0, 1);
  await threadModeLoaded(set);
  return set;
}

function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  for (let i = 0; i < n; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** One frame on both sets (the threaded one on its threaded path); returns its chunk split. */
function step(one: LodSet, two: LodSet, frame: number, clusters = true): { chunks: number; main: number } {
  if (frame % 7 === 3) for (const s of [one, two]) { s.setHidden(frame * 13, (frame & 8) === 0); s.setSphere(frame * 17, frame, 0, 30, 2); }
  const views: LodView[] = [{ frustum: camera([frame * 0.7, 6, frame * 0.3], [60, 0, 150], 60), viewportHeight: 1080 }];
  const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.05, minFramesBetweenChanges: frame & 1, clusters };
  const s1 = { ...one.update(views, options) };
  const l1 = Array.from(s1.levelCounts);
  const s2 = two.update(views, options);
  const n = one.count;
  expect(firstDifference(two.levels, one.levels, n)).toBe(-1);
  expect(firstDifference(two.blend, one.blend, n)).toBe(-1);
  expect(firstDifference(two.sizes, one.sizes, n)).toBe(-1);
  expect(two.changedCount).toBe(one.changedCount);
  // Chunks are compacted in chunk order, which is the one-thread (cluster) order; per object with
  // two metrics one thread lists each metric's ids in turn, chunks their ids chunk by chunk: a set.
  const ids = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount));
  if (clusters) expect(ids(two)).toEqual(ids(one));
  else expect(ids(two).sort((a, b) => a - b)).toEqual(ids(one).sort((a, b) => a - b));
  expect(s2.totalCost).toBe(s1.totalCost);
  expect(s2.minimumCost).toBe(s1.minimumCost);
  expect(s2.hidden).toBe(s1.hidden);
  expect(s2.invalid).toBe(s1.invalid);
  expect(Array.from(s2.levelCounts)).toEqual(l1);
  expect(two.clusterStats.culled).toBe(one.clusterStats.culled);
  expect(two.clusterStats.skipped).toBe(one.clusterStats.skipped);
  expect(two.clusterStats.evaluated).toBe(one.clusterStats.evaluated);
  const t = two.threadStats;
  expect(t.threaded).toBe(true); // the frame did run threaded
  expect(t.chunks).toBeGreaterThan(1);
  return { chunks: t.chunks, main: t.callingThreadChunks };
}

describe('worker-thread mode with a lagging worker (dynamic chunk claiming)', () => {
  beforeAll(() => assertFreshDist()); // the workers run dist's worker module (threads.ts threadWorkerUrl)
  // The worker's lateness is made exact with the worker seam (LodSet.setThreadSchedule, threads.ts
  // setWorkerSchedule): no sleep, no race, the same chunk split on every run.
  it('an absent worker: the calling thread does every chunk, results equal one thread; a worker late by frames joins correctly', async () => {
    const one = await make(1), two = await make(2);
    try {
      let frame = 0;
      two.setThreadSchedule('threaded', 'first'); // warm frames in which the worker takes part
      for (; frame < 4; frame++) expect(step(one, two, frame).main).toBeLessThan(two.threadStats.chunks);
      // The worker is woken for each frame but stopped before its first claim: the calling thread
      // must not wait for it (it would hang here) and does every chunk.
      two.setThreadSchedule('threaded', 'absent');
      for (let k = 0; k < 6; k++, frame++) {
        const { chunks, main } = step(one, two, frame);
        expect(main).toBe(chunks);
      }
      // The worker goes on inside the frame it woke for six frames ago, whose parameters are long
      // gone: its claims must produce the live frame's results (the calling thread waits for its
      // first claim, so it does take part).
      two.setThreadSchedule('threaded', 'first');
      for (let k = 0; k < 3; k++, frame++) {
        const { chunks, main } = step(one, two, frame);
        expect(main).toBeLessThan(chunks);
      }
    } finally {
      two.dispose();
    }
  });

  it('per-object frames (clusters: false) claim chunks of ids too: an absent worker costs nothing, a held chunk is awaited alone', async () => {
    const one = await make(1), two = await make(2);
    try {
      let frame = 0;
      two.setThreadSchedule('threaded', 'first');
      for (; frame < 3; frame++) expect(step(one, two, frame, false).main).toBeLessThan(two.threadStats.chunks);
      // Before chunks, this frame waited for every worker's id range: a worker that never ran hung it.
      two.setThreadSchedule('threaded', 'absent');
      for (let k = 0; k < 4; k++, frame++) {
        const { chunks, main } = step(one, two, frame, false);
        expect(chunks).toBe(Math.ceil(one.count / 2048));
        expect(main).toBe(chunks);
      }
      two.setThreadSchedule('threaded', 'holdFirst');
      for (let k = 0; k < 4; k++, frame++) expect(step(one, two, frame, false).main).toBe(two.threadStats.chunks - 1);
      // Clustered and per-object frames interleaved keep one claim word and one set of done flags.
      two.setThreadSchedule('threaded', 'first');
      for (let k = 0; k < 6; k++, frame++) step(one, two, frame, (k & 1) === 0);
    } finally {
      two.dispose();
    }
  });

  it('a worker descheduled while holding a chunk: the frame awaits that chunk only and stays identical', async () => {
    const one = await make(1), two = await make(2);
    try {
      let frame = 0;
      two.setThreadSchedule('threaded', 'first');
      for (; frame < 4; frame++) step(one, two, frame);
      // The worker holds its first chunk until the calling thread has claimed every other one.
      two.setThreadSchedule('threaded', 'holdFirst');
      for (let k = 0; k < 6; k++, frame++) {
        const { chunks, main } = step(one, two, frame);
        expect(main).toBe(chunks - 1); // exactly the held chunk was the worker's, awaited and merged
      }
    } finally {
      two.dispose();
    }
  });
});
