/**
 * End-to-end test of the three.js demo in Debian's Chromium (headless, SwiftShader WebGL): builds
 * the demo with Vite, serves it from 127.0.0.1 and drives it with playwright-core. Skips with a
 * notice when /usr/bin/chromium is not installed (`.ci/run` installs it).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { decodePng } from './png.js';
import { serveDirectory } from './staticServer.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) {
  console.warn(`[e2e] SKIPPED three.js demo test: ${CHROMIUM} not found (install Debian's "chromium" package).`);
}
const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const OUT = join(ARTIFACTS, 'demo-dist');

describe.skipIf(!HAS_CHROMIUM)('three.js demo in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let server: { url: string; close: () => Promise<void> };
  const errors: string[] = [];

  const frames = async (n: number): Promise<void> => {
    const now = Number(await page.evaluate(() => document.body.dataset.frames ?? '0'));
    await page.waitForFunction((target) => Number(document.body.dataset.frames ?? '0') >= target, now + n, { timeout: 45_000 });
  };
  const triangles = async (): Promise<number> => Number((await page.textContent('[data-testid=triangle-count]'))!.replace(/,/g, ''));

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const { build } = await import('vite');
    await build({ configFile: join(ROOT, 'demo/vite.config.ts'), logLevel: 'error', build: { outDir: OUT, emptyOutDir: true } });
    server = await serveDirectory(OUT);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(server.url);
    await frames(3);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
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

  it('every policy × camera of the MotoGP scene runs with no console error (rank quotas included)', async () => {
    await page.uncheck('[data-testid=fade-toggle]');
    await page.uncheck('[data-testid=pause-toggle]');
    const policies = await page.$$eval('[data-testid=policy-select] option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(policies).toContain('rankQuota');
    for (const policy of policies) {
      await page.selectOption('[data-testid=policy-select]', policy);
      for (const camera of ['chase', 'trackside', 'telephoto', 'map']) {
        await page.click(`[data-testid=camera-${camera}]`);
        await frames(2);
        expect(await triangles(), `${policy} × ${camera}`).toBeGreaterThan(0);
        expect(errors, `${policy} × ${camera}`).toEqual([]);
      }
    }
    // The frame loop is still alive after all of them (the rank-quota freeze stopped it for good).
    await frames(3);
    expect(Number(await page.textContent('[data-testid=fps]'))).toBeGreaterThan(0);
  }, 300_000);

  it('the 1M-tree forest: InstancedLOD draws, shadows on, FPS shown, and a smaller budget draws fewer triangles', async () => {
    // A page of its own, opened on the forest with a budget: software WebGL draws ~850k triangles
    // (the unconstrained pixel view, plus its shadow pass) in ~15 s a frame.
    const forest = await browser.newPage({ viewport: { width: 960, height: 540 } });
    forest.on('console', (m) => { if (m.type() === 'error') errors.push(`forest console: ${m.text()}`); });
    forest.on('pageerror', (e) => errors.push(`forest pageerror: ${e.message}`));
    const framesOf = async (n: number): Promise<void> => {
      const now = Number(await forest.evaluate(() => document.body.dataset.frames ?? '0'));
      await forest.waitForFunction((target) => Number(document.body.dataset.frames ?? '0') >= target, now + n, { timeout: 120_000 });
    };
    const trianglesOf = async (): Promise<number> => Number((await forest.textContent('[data-testid=triangle-count]'))!.replace(/,/g, ''));
    await forest.goto(`${server.url}?scene=forest`);
    await framesOf(2);
    const info = await forest.evaluate(() => {
      const demo = (window as unknown as { lodkitDemo: { forest: () => { trees: { instanceCount: number; levelMeshes: { count: number }[]; shadowMesh: { count: number } } } | null; renderer: { shadowMap: { enabled: boolean } } } }).lodkitDemo;
      const f = demo.forest()!;
      return { instances: f.trees.instanceCount, drawn: f.trees.levelMeshes.map((m) => m.count), casters: f.trees.shadowMesh.count, shadows: demo.renderer.shadowMap.enabled };
    });
    expect(info.instances).toBe(1_000_000);
    expect(info.drawn.reduce((a, b) => a + b, 0)).toBeGreaterThan(1000);
    expect(info.shadows).toBe(true);
    expect(info.casters).toBeGreaterThan(0); // off-screen trees inside the sun's frustum keep casting
    await forest.waitForFunction(() => Number(document.querySelector('[data-testid=fps]')!.textContent) > 0, undefined, { timeout: 120_000 });
    expect(await forest.textContent('[data-testid=lodkit-ms]')).toMatch(/ms$/);
    // Unconstrained pixel thresholds, and the floor (every drawn tree at its coarsest level).
    let { totalCost: unconstrained, minimumCost: floor } = await forest.evaluate(() => ({ ...(window as unknown as { lodkitDemo: { forestStats: { totalCost: number; minimumCost: number } } }).lodkitDemo.forestStats }));
    expect(unconstrained).toBeGreaterThan(floor);
    // The main thread is busy for seconds a frame under software WebGL: set the controls by script.
    const setControl = (selector: string, value: string, event: string): Promise<void> => forest.evaluate(([s, v, e]) => {
      const el = document.querySelector(s) as HTMLInputElement | HTMLSelectElement;
      el.value = v;
      el.dispatchEvent(new Event(e));
    }, [selector, value, event] as const);
    // Pause the flight so the floor does not move between the two budgets.
    await forest.evaluate(() => { const p = document.querySelector('[data-testid=pause-toggle]') as HTMLInputElement; p.checked = true; p.dispatchEvent(new Event('change')); });
    await framesOf(1);
    const still = await forest.evaluate(() => ({ ...(window as unknown as { lodkitDemo: { forestStats: { totalCost: number; minimumCost: number } } }).lodkitDemo.forestStats }));
    unconstrained = still.totalCost; floor = still.minimumCost;
    await setControl('[data-testid=forest-policy-select]', 'budget', 'change');
    const drawnAt = async (budget: number): Promise<number> => {
      await setControl('[data-testid=forest-budget-slider]', String(budget), 'input');
      await framesOf(2);
      return trianglesOf();
    };
    // The slider snaps to 10,000-triangle steps: round the budgets onto it (b2 stays above the floor).
    const b1 = Math.floor((floor + 0.7 * (unconstrained - floor)) / 10_000) * 10_000;
    const b2 = Math.ceil((floor + 0.15 * (unconstrained - floor)) / 10_000) * 10_000;
    expect(b1).toBeGreaterThan(b2);
    const big = await drawnAt(b1), small = await drawnAt(b2);
    expect(big).toBeLessThanOrEqual(b1);
    expect(small).toBeLessThanOrEqual(b2);
    expect(small).toBeLessThan(big);
    await forest.screenshot({ path: join(ARTIFACTS, 'three-demo-forest.png') });
    await forest.close();
    expect(errors).toEqual([]);
  }, 400_000);
});
