/**
 * Worker-thread mode loads on demand (issue 27): `setThreads(n > 1)` stays synchronous, and the
 * worker-thread code (src/batch/threadMode.ts, drivers/threads.ts) arrives by a dynamic `import()`
 * (workerMode.ts). Until it has arrived, frames run on the calling thread with the same results;
 * on arrival the sets that still want workers start them, and a `dispose()` or `setThreads(1)` that
 * came first drops the load's result: no worker starts for them. Once the code is there, starts are
 * synchronous again. Where there are no worker threads (a browser), `setThreads(n > 1)` throws before
 * changing the set.
 *
 * The first test must run before anything in this file loads the thread code (vitest gives every
 * test file its own module graph): it checks that the load is still pending where it relies on it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { engineOf, setThreadSchedule, threadModeLoaded } from '../../src/batch/engineSeam.js';
import { assertFreshDist } from '../helpers/dist.js';
import { camera, randomSpheres } from './helpers.js';

const PROFILE = { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [50, 20, 5, 1] } as const;
const OPTIONS: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.05 };
const DATA = randomSpheres(20_000, 41, 250, 0.3, 6);
const fill = (set: LodSet) => { set.addMany(DATA, set.addProfile(PROFILE)); return set; };
const view = (f: number): LodView => ({ frustum: camera([f * 2, 6, 0], [60, 0, 150], 60), viewportHeight: 1080 });

function expectSameFrame(a: LodSet, b: LodSet, label: string): void {
  const n = b.count;
  expect(Array.from(a.levels.subarray(0, n)), label).toEqual(Array.from(b.levels.subarray(0, n)));
  expect(Array.from(a.blend.subarray(0, n)), label).toEqual(Array.from(b.blend.subarray(0, n)));
  expect(Array.from(a.changed.subarray(0, a.changedCount)).sort((x, y) => x - y), label)
    .toEqual(Array.from(b.changed.subarray(0, b.changedCount)).sort((x, y) => x - y));
}

describe('worker-thread mode loaded on demand', () => {
  beforeAll(() => assertFreshDist()); // the workers run dist's worker module (threads.ts threadWorkerUrl)

  it('before the code arrives frames run on the calling thread; on arrival only the sets that still want workers start them', async () => {
    const one = fill(new LodSet(1024));
    const wanting = fill(new LodSet(1024)), disposed = fill(new LodSet(1024)), single = fill(new LodSet(1024));
    const again = fill(new LodSet(1024)), empty = new LodSet(1024);
    const sets = [wanting, disposed, single, again, empty];
    try {
      for (const s of sets) s.setThreads(2);
      setThreadSchedule(wanting, 'threaded', 'first'); // pinned before the workers exist: applies once they do
      // The load is pending (nothing in this file loaded the thread code before): no workers yet.
      for (const s of sets) {
        expect(engineOf(s).threadLoad).not.toBeNull();
        expect(engineOf(s).threads).toBeNull();
      }
      for (let f = 0; f < 3; f++) {
        one.update(view(f), OPTIONS);
        wanting.update(view(f), OPTIONS);
        expect(wanting.threadStats.threaded, `frame ${f}`).toBe(false); // the calling thread alone
        expectSameFrame(wanting, one, `frame ${f} before the thread code`);
      }
      disposed.dispose(); // before the code arrives: nothing to end, and nothing may start later
      single.setThreads(1);
      again.setThreads(1); again.setThreads(2); // the last word wants workers
      await Promise.all(sets.map((s) => threadModeLoaded(s)));
      for (const s of sets) expect(engineOf(s).threadLoad).toBeNull();
      expect(engineOf(disposed).threads).toBeNull();
      expect(engineOf(single).threads).toBeNull();
      expect(engineOf(again).threads?.workers).toHaveLength(1);
      expect(engineOf(wanting).threads?.workers).toHaveLength(1);
      expect(engineOf(empty).threads).toBeNull(); // no profile yet: its first addProfile starts them
      fill(empty);
      expect(engineOf(empty).threads?.workers).toHaveLength(1);
      expect(engineOf(wanting).threadMode?.forced).toBe(2); // the schedule pinned before arrival
      for (let f = 3; f < 6; f++) {
        one.update(view(f), OPTIONS);
        wanting.update(view(f), OPTIONS);
        expect(wanting.threadStats.threaded, `frame ${f}`).toBe(true);
        expect(wanting.threadStats.callingThreadChunks, `frame ${f}`).toBeLessThan(wanting.threadStats.chunks); // the worker took part
        expectSameFrame(wanting, one, `frame ${f} with the worker`);
      }
      // The disposed and single-thread sets go on on the calling thread.
      for (const s of [disposed, single]) {
        s.update(view(6), OPTIONS);
        expect(s.threadStats.threaded).toBe(false);
      }
    } finally {
      for (const s of sets) s.dispose();
    }
  });

  it('once the code has arrived, setThreads starts the workers at once, and dispose ends them', async () => {
    const first = new LodSet(16);
    first.setThreads(2);
    await threadModeLoaded(first); // (loaded already by the test above when run in order)
    first.dispose();
    const set = fill(new LodSet(1024));
    set.setThreads(3);
    const e = engineOf(set);
    expect(e.threadLoad).toBeNull();
    expect(e.threads?.workers).toHaveLength(2);
    set.dispose();
    expect(e.threads).toBeNull();
    await threadModeLoaded(set); // nothing pending: settles at once
    expect(e.threads).toBeNull();
  });

  it('without worker threads (a browser) setThreads(n > 1) throws a RangeError and leaves the set as it was', () => {
    const p = process as { getBuiltinModule?: unknown };
    const getBuiltinModule = p.getBuiltinModule;
    const set = fill(new LodSet(1024));
    try {
      p.getBuiltinModule = undefined;
      expect(() => set.setThreads(2)).toThrow(/worker threads need Node\.js/);
    } finally {
      p.getBuiltinModule = getBuiltinModule;
    }
    expect(set.spheres.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(engineOf(set).threadCount).toBe(1);
    expect(engineOf(set).threadLoad).toBeNull();
    set.setThreads(1); // one thread needs nothing
  });
});
