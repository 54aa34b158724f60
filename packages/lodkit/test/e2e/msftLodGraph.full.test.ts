/**
 * MSFTLodLoaderPlugin in Debian's headless Chromium on issue 24's large `MSFT_lod` graphs (the
 * 4,000-node chain blocked a page for 22 s before the checks were linear): the page builds each
 * file, parses it with three's GLTFLoader on its main thread and reports the plugin's counted
 * work. The work is asserted (≤ a constant × nodes + ids, as in the Node test
 * gltfLodPluginGraph.test.ts); the elapsed time is only printed. `npm run test:full` only; skips
 * with a notice when /usr/bin/chromium is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumOrNotice, collectErrors, openSite, waitForReady, type Site } from './browserHarness.js';

/** Steps allowed per node and id (see gltfLodPluginGraph.test.ts). */
const C = 32;

type Loaded = { ms: number; plainMs: number; graphWork: number; size: number; codes: Record<string, number>; groups: number; levels: number };

describe.skipIf(!chromiumOrNotice('MSFT_lod graph test (Chromium)'))('MSFTLodLoaderPlugin on large graphs in Chromium', () => {
  let site: Site;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    site = await openSite('test/e2e/msft-lod-graph-fixture/vite.config.ts', 'msft-lod-graph-dist');
    page = await site.browser.newPage();
    collectErrors(page, errors);
    await page.goto(site.server.url);
    await waitForReady(page, 30_000);
  }, 120_000);

  afterAll(async () => {
    await site?.close();
  });

  const load = (shape: string, n: number, width = 0): Promise<Loaded> =>
    page.evaluate(([s, count, w]) => (window as unknown as { loadGraph: (a: string, b: number, c: number) => Promise<Loaded> }).loadGraph(s, count, w), [shape, n, width] as [string, number, number]);

  it('the 4,000-node chain: refused past the depth ceiling (nodes 0…2974), work linear', async () => {
    const r = await load('chain', 4000);
    console.log(`Chromium, 4,000-node chain: ${r.ms.toFixed(0)} ms with the plugin, ${r.plainMs.toFixed(0)} ms without, graphWork ${r.graphWork} for ${r.size} nodes + ids`); // record only
    expect(r.codes).toEqual({ 'too-deep': 2975 });
    expect(r.graphWork).toBeLessThanOrEqual(C * r.size);
    expect(errors).toEqual([]);
  }, 120_000);

  it('the 4,000-node cycle and the 600 × 254-id DAG: work linear, the DAG built as one 255-level LOD', async () => {
    const cycle = await load('cycle', 4000);
    console.log(`Chromium, 4,000-node cycle: ${cycle.ms.toFixed(0)} ms with the plugin, ${cycle.plainMs.toFixed(0)} ms without, graphWork ${cycle.graphWork} for ${cycle.size}`);
    expect(cycle.codes).toEqual({ cycle: 4000 });
    expect(cycle.graphWork).toBeLessThanOrEqual(C * cycle.size);
    const dag = await load('band', 600, 254);
    console.log(`Chromium, 600 × 254 DAG: ${dag.ms.toFixed(0)} ms with the plugin, ${dag.plainMs.toFixed(0)} ms without, graphWork ${dag.graphWork} for ${dag.size}`);
    expect(dag.codes).toEqual({});
    expect(dag.groups).toBe(1);
    expect(dag.levels).toBe(255);
    expect(dag.graphWork).toBeLessThanOrEqual(C * dag.size);
    expect(errors).toEqual([]);
  }, 120_000);
});
