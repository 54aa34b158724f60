/**
 * Cross-fades under `WebGPURenderer` in Debian's Chromium (SwiftShader's WebGPU adapter through
 * `--enable-unsafe-webgpu`): with `enableNodeCrossFade()` a blend splits the pixels between the two
 * levels in the dither's proportion (each pixel one level); without it both levels are drawn fully
 * (one colour everywhere), the bug this fixes. Skips with a notice when Chromium is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumOrNotice, collectErrors, openSite, waitForReady, type Site } from './browserHarness.js';

interface Counts { red: number; green: number; both: number; other: number }

describe.skipIf(!chromiumOrNotice('WebGPU cross-fade test'))('WebGPURenderer cross-fade in Chromium', () => {
  let site: Site;
  const errors: string[] = [];

  const open = async (query: string): Promise<Page> => {
    const page = await site.browser.newPage();
    collectErrors(page, errors);
    await page.goto(`${site.server.url}?${query}`);
    await waitForReady(page, 45_000);
    return page;
  };
  const frame = (page: Page, level: number, blend: number): Promise<Counts> =>
    page.evaluate(([l, b]) => (window as unknown as { fixture: { frame: (l: number, b: number) => Promise<Counts> } }).fixture.frame(l, b), [level, blend] as const);

  beforeAll(async () => {
    site = await openSite('test/e2e/webgpu-fixture/vite.config.ts', 'webgpu-dist', { disableGpu: true, webgpu: true });
  }, 120_000);

  afterAll(async () => {
    await site?.close();
  });

  it('with enableNodeCrossFade: a blend dithers the two levels in proportion, every pixel one level', async () => {
    const page = await open('nodeFade=1');
    expect(await page.evaluate(() => (window as unknown as { fixture: { backend: string } }).fixture.backend)).toBe('webgpu');
    const total = 128 * 128;
    const plain = await frame(page, 0, 0);
    expect(plain.red).toBe(total); // level 0 alone
    // Index 0.5: level round(0.5) = 1, blend 0.5 — half the pixels each.
    const half = await frame(page, 1, 0.5);
    expect(half.both + half.other).toBe(0);
    expect(half.red).toBe(total / 2);
    expect(half.green).toBe(total / 2);
    // Index 0.25: level 0, blend 0.25 — the coarser level keeps 4 of every 16 pixels.
    const quarter = await frame(page, 0, 0.25);
    expect(quarter.green).toBe(total / 4);
    expect(quarter.red).toBe((3 * total) / 4);
    const after = await frame(page, 1, 0);
    expect(after.green).toBe(total); // back to one level, original material
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('InstancedLOD renders under WebGPURenderer: each instance in the colour of its level, and moves with setMatrixAt', async () => {
    const page = await open('nodeFade=1');
    const run = (depth: number): Promise<Counts> => page.evaluate((d) => (window as unknown as { fixture: { instancedFrame: (d: number) => Promise<Counts> } }).fixture.instancedFrame(d), depth);
    const total = 128 * 128;
    const split = await run(5); // near instance at 5 m: level 0 (red) on the left, far one level 1 (green)
    expect(split.red).toBe(total / 2);
    expect(split.green).toBe(total / 2);
    const far = await run(30); // moved beyond 10 m: both level 1
    expect(far.green).toBe(total);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('without it (the old behaviour) a blend draws both levels fully: one colour covers the canvas', async () => {
    const page = await open('nodeFade=0');
    const half = await frame(page, 1, 0.5);
    expect(Math.max(half.red, half.green)).toBe(128 * 128);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
