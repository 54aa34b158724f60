// Issue 27, "light on the web": worker-thread mode (`LodSet.setThreads(n)`, Node only) is loaded by
// a dynamic `import()` when an app first asks for threads, so a browser bundle keeps its code
// (src/batch/threadMode.ts, drivers/threads.ts, drivers/threadedDrivers.ts, the thread chooser) in a
// chunk of its own that the page never loads. Bundles the built package as an app would (Vite,
// minified, three external) and looks for strings only that code has.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry, type Bundle } from '../helpers/bundle.js';
import { assertFreshDist, PACKAGE_ROOT } from '../helpers/dist.js';

let work = '';

const bundle = (name: string, source: string): Promise<Bundle> => bundleEntry(work, name, source, (id: string) => id === 'three' || id.startsWith('three/'));
const distUrl = (path: string) => JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist', path)).href);

/** Strings of the worker-thread code alone: the worker module's file name, the workers' tag, the start-up error of a script bundle. */
const THREAD_ONLY = ['threadWorker.js', 'lodkit.threadWorker/1', 'worker threads need lodkit loaded as ES modules'];

/**
 * The entry chunk has none of the worker-thread code, and a chunk it loads only by a dynamic
 * `import()` does. (A library-mode build keeps the entry's exports as written, so the modules the
 * entry and that chunk share go to a third chunk that the entry imports statically: loaded with the
 * page, also in `lazy`. The thread chunk is the one the entry does not import statically but names.)
 */
function expectThreadsLazy(b: Bundle, label: string): void {
  for (const s of THREAD_ONLY) expect(b.code, `${label}: entry chunk has "${s}"`).not.toContain(s);
  // (The other chunk behind a dynamic import: the WebAssembly kernels' bytes, bundle.test.ts.)
  const dynamic = b.lazy.filter((c) => !b.imports.includes(c.fileName) && b.code.includes(c.fileName) && THREAD_ONLY.some((s) => c.code.includes(s)));
  expect(dynamic.map((c) => c.fileName), `${label}: no thread chunk behind a dynamic import`).toHaveLength(1);
  // The thread code itself (≈ 7.5 kB when this was written), not a sliver left over beside it in
  // the statically imported shared chunk.
  expect(dynamic[0].bytes, label).toBeGreaterThan(5_000);
}

describe('worker-thread mode is a chunk of its own in browser bundles (vite build, minified, three external)', () => {
  beforeAll(() => {
    assertFreshDist();
    work = mkdtempSync(join(tmpdir(), 'lodkit-threads-chunk-'));
  });
  afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

  it('an InstancedLOD app that uses thresholds only: the entry chunk has no worker-thread code', async () => {
    const app = 'export function forest(levels, camera) {\n  const lod = new InstancedLOD({ levels, thresholds: [120, 30] });\n  lod.update(camera, OPTIONS);\n  return lod;\n}\n';
    const b = await bundle('lean', `import { InstancedLOD } from ${distUrl('adapters/three/index.js')};\nconst OPTIONS = { policy: 'thresholds' };\n${app}`);
    console.log(`InstancedLOD (thresholds): entry ${b.bytes} bytes, lazy ${b.lazy.map((c) => `${c.fileName} ${c.bytes}`).join(', ')}`);
    expect(b.imports).toContain('three');
    expectThreadsLazy(b, 'InstancedLOD');
  });

  it('export { LodSet }: the entry chunk has no worker-thread code', async () => {
    const b = await bundle('lodset', `export { LodSet } from ${distUrl('index.js')};\n`);
    console.log(`LodSet: entry ${b.bytes} bytes, lazy ${b.lazy.map((c) => `${c.fileName} ${c.bytes}`).join(', ')}`);
    expectThreadsLazy(b, 'LodSet');
  });
});
