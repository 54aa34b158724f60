/**
 * End-to-end test of the three.js demo in Debian's Chromium (headless, SwiftShader WebGL): builds
 * the demo with Vite, serves it from 127.0.0.1 and drives it with playwright-core. Skips with a
 * notice when /usr/bin/chromium is not installed (`.ci/run` installs it). The full-size scenes (the
 * 1M-tree forest, every policy × camera) are in threeDemo.full.test.ts (`npm run test:full`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARTIFACTS, chromiumOrNotice, ROOT, type Site } from './browserHarness.js';
import { decodePng } from './png.js';
import { CAMERAS, forestScenario, frames as framesOf, openDemo, policies, policyCameraSweep, triangles as trianglesOf } from './threeDemoScenarios.js';

describe.skipIf(!chromiumOrNotice('three.js demo test'))('three.js demo in Chromium', () => {
  let site: Site;
  let page: Page;
  const errors: string[] = [];

  const frames = (n: number): Promise<void> => framesOf(page, n);
  const triangles = (): Promise<number> => trianglesOf(page);

  beforeAll(async () => {
    ({ site, page } = await openDemo('demo-dist', errors));
  }, 90_000);

  afterAll(async () => {
    await site?.close();
  });

  it('loads without console errors and draws a non-blank canvas', async () => {
    const shot = decodePng(await page.locator('[data-testid=canvas]').screenshot());
    // Count distinct colours (quantised to 5 bits) and the share of the most common one.
    const counts = new Map<number, number>();
    for (let i = 0; i < shot.data.length; i += shot.channels) {
      const key = ((shot.data[i] >> 3) << 10) | ((shot.data[i + 1] >> 3) << 5) | (shot.data[i + 2] >> 3);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const pixels = shot.width * shot.height;
    const top = Math.max(...counts.values());
    expect(counts.size).toBeGreaterThan(50);
    expect(top / pixels).toBeLessThan(0.7); // not a cleared canvas (sky alone is < 50 % of the chase shot)
    expect(await triangles()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  }, 90_000);

  it('the TV telephoto camera with the screen-size policy raises the triangle count', async () => {
    await page.selectOption('[data-testid=policy-select]', 'pixels');
    await page.check('[data-testid=pause-toggle]');
    await page.click('[data-testid=camera-chase]');
    await page.fill('[data-testid=time-slider]', '4');
    await frames(2);
    const chase = await triangles();
    await page.click('[data-testid=camera-telephoto]');
    await page.fill('[data-testid=time-slider]', '22');
    await frames(2);
    const telephoto = await triangles();
    expect(await page.textContent('[data-testid=shot-name]')).toMatch(/telephoto/i);
    expect(telephoto).toBeGreaterThan(chase * 1.5);
    await page.screenshot({ path: join(ARTIFACTS, 'three-demo-telephoto.png') });
    if (process.env.LODKIT_UPDATE_SCREENSHOT === '1') writeFileSync(join(ROOT, '../../docs/three-demo.png'), await page.screenshot());
    expect(errors).toEqual([]);
  }, 90_000);

  it('the budget policy keeps the triangle count under the slider value', async () => {
    await page.selectOption('[data-testid=policy-select]', 'budget');
    for (const budget of ['30000', '80000']) {
      await page.fill('[data-testid=budget-slider]', budget);
      await frames(2);
      const count = await triangles();
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(Number(budget));
    }
    // The unconstrained screen-size policy on the same shot is above the 30k budget: the budget binds.
    await page.fill('[data-testid=budget-slider]', '30000');
    await page.selectOption('[data-testid=policy-select]', 'pixels');
    await frames(2);
    expect(await triangles()).toBeGreaterThan(30_000);
    await page.selectOption('[data-testid=policy-select]', 'budget');
    await page.check('[data-testid=debug-toggle]');
    await frames(2);
    expect(await triangles()).toBeLessThanOrEqual(30_000);
    await page.screenshot({ path: join(ARTIFACTS, 'three-demo-budget.png') });
    expect(errors).toEqual([]);
  }, 90_000);

  it('cross-fade: the dither-patched materials compile and render without errors', async () => {
    await page.check('[data-testid=fade-toggle]');
    // Software WebGL frames can take longer than the 0.3 s fade: stretch it so it is still running.
    await page.evaluate(() => {
      const demo = (window as unknown as { lodkitDemo: { bikes: { fadeDuration: number }[]; sectors: { fadeDuration: number }[] } }).lodkitDemo;
      for (const lod of [...demo.bikes, ...demo.sectors]) lod.fadeDuration = 60;
    });
    // Switching policy re-applies every level: objects whose level differs start a fade.
    await page.selectOption('[data-testid=policy-select]', 'distance');
    await frames(1);
    const fading = await page.evaluate(() => {
      type Lods = { levels: { object: { material: { userData: Record<string, unknown> } } }[] }[];
      const demo = (window as unknown as { lodkitDemo: { bikes: Lods; sectors: Lods } }).lodkitDemo;
      let n = 0;
      for (const lod of [...demo.bikes, ...demo.sectors]) for (const l of lod.levels) if (l.object.material.userData.lodkitFadeSource !== undefined) n++;
      return n;
    });
    expect(fading).toBeGreaterThan(0);
    await frames(2);
    await page.screenshot({ path: join(ARTIFACTS, 'three-demo-fade.png') });
    expect(errors).toEqual([]);
  }, 90_000);

  it('each policy once and each camera once in the MotoGP scene, with no console error (rank quotas included)', async () => {
    // The whole policy × camera product, through playwright's clicks, is in threeDemo.full.test.ts;
    // here policy k gets camera k mod 4 and the controls' events are dispatched in the page.
    const all = await policies(page);
    expect(all).toContain('rankQuota');
    expect(all.length).toBeGreaterThanOrEqual(CAMERAS.length);
    await policyCameraSweep(page, errors, all.map((policy, k) => [policy, CAMERAS[k % CAMERAS.length]] as const), 'events');
  }, 120_000);

  it('a 50k-tree forest: InstancedLOD draws, shadows on, FPS shown, and a smaller budget draws fewer triangles', async () => {
    // The demo's 1M-tree forest is in threeDemo.full.test.ts. At 50k trees its headroom above the
    // floor is a few thousand triangles: the budgets are set exactly, not on the slider's steps.
    // The MotoGP page is done with: closed, so that its frame loop does not slow the forest's.
    await page.close();
    await forestScenario(site.browser, site.server.url, errors, { trees: 50_000, exactBudgets: true, frameTimeout: 45_000 }, 'three-demo-forest-50k.png');
  }, 120_000);
});
