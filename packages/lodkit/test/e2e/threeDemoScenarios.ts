/**
 * The three.js demo (demo/index.html) in Chromium, shared by threeDemo.test.ts (`npm test`: small
 * scenes) and threeDemo.full.test.ts (`npm run test:full`: the 1M-tree forest and every policy ×
 * camera): opening the demo, waiting for frames, reading the HUD, the policy × camera sweep and the
 * forest scenario. The assertions live here so both sizes check the same things.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, collectErrors, openSite, type Site } from './browserHarness.js';

export const CAMERAS = ['chase', 'trackside', 'telephoto', 'map'] as const;

/** Builds the demo into test-artifacts/`out`, serves it and opens it at 1280 × 720 (three frames drawn). */
export async function openDemo(out: string, errors: string[]): Promise<{ site: Site; page: Page }> {
  const site = await openSite('demo/vite.config.ts', out, { disableGpu: true });
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
  collectErrors(page, errors);
  await page.goto(site.server.url);
  await frames(page, 3);
  return { site, page };
}

/** Waits until the demo has drawn `n` more frames (it counts them in `body.dataset.frames`). */
export async function frames(page: Page, n: number, timeout = 45_000): Promise<void> {
  const now = Number(await page.evaluate(() => document.body.dataset.frames ?? '0'));
  await page.waitForFunction((target) => Number(document.body.dataset.frames ?? '0') >= target, now + n, { timeout });
}

/** The HUD's LOD triangle count. */
export async function triangles(page: Page): Promise<number> {
  return Number((await page.textContent('[data-testid=triangle-count]'))!.replace(/,/g, ''));
}

/** The policies the demo offers (its policy menu). */
export async function policies(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid=policy-select] option', (os) => os.map((o) => (o as HTMLOptionElement).value));
}

/**
 * The MotoGP scene under each (policy, camera) pair, in order: two frames each, a non-zero triangle
 * count and no console error; then the frame loop is still alive (the rank-quota freeze stopped it
 * for good). Starts with the cross-fade and the pause off. `controls`: how the policy menu and the
 * camera buttons are worked — playwright's actions ('pointer': actionability checks and a real
 * click, several frames each under software WebGL) or their events dispatched in the page
 * ('events': the same handlers, one frame each).
 */
export async function policyCameraSweep(page: Page, errors: string[], pairs: readonly (readonly [string, string])[], controls: 'pointer' | 'events'): Promise<void> {
  await page.uncheck('[data-testid=fade-toggle]');
  await page.uncheck('[data-testid=pause-toggle]');
  let current = '';
  for (const [policy, camera] of pairs) {
    if (controls === 'pointer') {
      if (policy !== current) await page.selectOption('[data-testid=policy-select]', policy);
      await page.click(`[data-testid=camera-${camera}]`);
    } else {
      // One task in the page: the menu's change event (when the policy changes), then the button's click.
      await page.evaluate(([p, c, change]) => {
        const menu = document.querySelector('[data-testid=policy-select]') as HTMLSelectElement;
        if (change) { menu.value = p; menu.dispatchEvent(new Event('change')); }
        (document.querySelector(`[data-testid=camera-${c}]`) as HTMLButtonElement).click();
      }, [policy, camera, policy !== current] as const);
    }
    current = policy;
    await frames(page, 2);
    expect(await triangles(page), `${policy} × ${camera}`).toBeGreaterThan(0);
    expect(errors, `${policy} × ${camera}`).toEqual([]);
  }
  // The frame loop is still alive after all of them (the rank-quota freeze stopped it for good).
  await frames(page, 3);
  expect(Number(await page.textContent('[data-testid=fps]'))).toBeGreaterThan(0);
}

type ForestDemo = { lodkitDemo: { forest: () => { trees: { instanceCount: number; levelMeshes: { count: number }[]; shadowMesh: { count: number } } } | null; renderer: { shadowMap: { enabled: boolean } }; forestStats: { totalCost: number; minimumCost: number } } };

export interface ForestOptions {
  /** Trees (`?trees=`); undefined opens the demo's own forest of 1,000,000. */
  trees?: number;
  /**
   * Budgets exactly as computed: the slider's step and minimum set to 1 triangle by script. The
   * slider snaps to 10,000-triangle steps from 20,000 — finer than the default forest's headroom
   * above its floor, coarser than a small forest's (a few thousand triangles).
   */
  exactBudgets?: boolean;
  /** Timeout of each frame wait (software WebGL takes ~15 s a frame of the million trees). */
  frameTimeout: number;
}

/**
 * The forest in a page of its own: `InstancedLOD` draws `trees` instances, shadows on (trees outside
 * the view keep casting), the FPS and lodkit time shown; then paused, under the budget policy, a
 * budget at 70 % of the headroom above the floor and one at 15 %: each drawn count within its budget
 * and the smaller budget draws fewer triangles. Screenshot in test-artifacts/`screenshot`.
 */
export async function forestScenario(browser: Browser, url: string, errors: string[], { trees, exactBudgets = false, frameTimeout }: ForestOptions, screenshot: string): Promise<void> {
  // A page of its own, opened on the forest: software WebGL draws the million trees' ~850k
  // triangles (the unconstrained pixel view, plus its shadow pass) in ~15 s a frame.
  const forest = await browser.newPage({ viewport: { width: 960, height: 540 } });
  collectErrors(forest, errors, { prefix: 'forest' });
  const framesOf = (n: number): Promise<void> => frames(forest, n, frameTimeout);
  await forest.goto(`${url}?scene=forest${trees === undefined ? '' : `&trees=${trees}`}`);
  await framesOf(2);
  const info = await forest.evaluate(() => {
    const demo = (window as unknown as ForestDemo).lodkitDemo;
    const f = demo.forest()!;
    return { instances: f.trees.instanceCount, drawn: f.trees.levelMeshes.map((m) => m.count), casters: f.trees.shadowMesh.count, shadows: demo.renderer.shadowMap.enabled };
  });
  expect(info.instances).toBe(trees ?? 1_000_000);
  expect(info.drawn.reduce((a, b) => a + b, 0)).toBeGreaterThan(1000);
  expect(info.shadows).toBe(true);
  expect(info.casters).toBeGreaterThan(0); // off-screen trees inside the sun's frustum keep casting
  await forest.waitForFunction(() => Number(document.querySelector('[data-testid=fps]')!.textContent) > 0, undefined, { timeout: frameTimeout });
  expect(await forest.textContent('[data-testid=lodkit-ms]')).toMatch(/ms$/);
  // Unconstrained pixel thresholds, and the floor (every drawn tree at its coarsest level).
  let { totalCost: unconstrained, minimumCost: floor } = await forest.evaluate(() => ({ ...(window as unknown as ForestDemo).lodkitDemo.forestStats }));
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
  const still = await forest.evaluate(() => ({ ...(window as unknown as ForestDemo).lodkitDemo.forestStats }));
  unconstrained = still.totalCost; floor = still.minimumCost;
  await setControl('[data-testid=forest-policy-select]', 'budget', 'change');
  if (exactBudgets) await forest.evaluate(() => { const s = document.querySelector('[data-testid=forest-budget-slider]') as HTMLInputElement; s.min = '1'; s.step = '1'; });
  const drawnAt = async (budget: number): Promise<number> => {
    await setControl('[data-testid=forest-budget-slider]', String(budget), 'input');
    await framesOf(2);
    return triangles(forest);
  };
  // The slider snaps to 10,000-triangle steps: round the budgets onto it (b2 stays above the floor).
  const step = exactBudgets ? 1 : 10_000;
  const b1 = Math.floor((floor + 0.7 * (unconstrained - floor)) / step) * step;
  const b2 = Math.ceil((floor + 0.15 * (unconstrained - floor)) / step) * step;
  expect(b1).toBeGreaterThan(b2);
  const big = await drawnAt(b1), small = await drawnAt(b2);
  expect(big).toBeLessThanOrEqual(b1);
  expect(small).toBeLessThanOrEqual(b2);
  expect(small).toBeLessThan(big);
  // A screenshot waits for the page's next frame: give it the same allowance as every frame wait
  // (playwright's own 30 s default is shorter than one software-WebGL frame of the million trees
  // on a busy 2-core machine, and failed a test:full run while the fuzzer ran beside it).
  await forest.screenshot({ path: join(ARTIFACTS, screenshot), timeout: frameTimeout });
  await forest.close();
  expect(errors).toEqual([]);
}
