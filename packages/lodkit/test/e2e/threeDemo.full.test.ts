/**
 * The three.js demo's full-size scenes in Debian's Chromium (`npm run test:full` only; `npm test`
 * runs threeDemo.test.ts, which checks the same at a smaller size): every policy × camera of the
 * MotoGP scene, and the 1M-tree forest (~15 s a frame under software WebGL). Skips with a notice
 * when /usr/bin/chromium is not installed (`.ci/run` installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumOrNotice, type Site } from './browserHarness.js';
import { CAMERAS, forestScenario, frames, openDemo, policies, policyCameraSweep } from './threeDemoScenarios.js';

describe.skipIf(!chromiumOrNotice('three.js demo test (full size)'))('three.js demo in Chromium, full size', () => {
  let site: Site;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    ({ site, page } = await openDemo('demo-full-dist', errors));
  }, 90_000);

  afterAll(async () => {
    await site?.close();
  });

  it('every policy × camera of the MotoGP scene runs with no console error (rank quotas included)', async () => {
    // The demo as threeDemo.test.ts's earlier tests leave it: bounding spheres on, a 30k budget,
    // cross-fade materials patched (a policy switch with the fade on), paused on the telephoto.
    await page.check('[data-testid=debug-toggle]');
    await page.fill('[data-testid=budget-slider]', '30000');
    await page.check('[data-testid=pause-toggle]');
    await page.click('[data-testid=camera-telephoto]');
    await page.fill('[data-testid=time-slider]', '22');
    await page.check('[data-testid=fade-toggle]');
    await page.selectOption('[data-testid=policy-select]', 'distance');
    await frames(page, 2);
    expect(errors).toEqual([]);
    const all = await policies(page);
    expect(all).toContain('rankQuota');
    await policyCameraSweep(page, errors, all.flatMap((policy) => CAMERAS.map((camera) => [policy, camera] as const)), 'pointer');
  }, 300_000);

  it('the 1M-tree forest: InstancedLOD draws, shadows on, FPS shown, and a smaller budget draws fewer triangles', async () => {
    await forestScenario(site.browser, site.server.url, errors, { frameTimeout: 120_000 }, 'three-demo-forest.png');
  }, 400_000);
});
