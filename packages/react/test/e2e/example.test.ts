/**
 * End-to-end test of the example app (example/: 300 spheres under one <LodManager>, an
 * <InstancedLOD> field, an FPS / stats overlay) in Debian's Chromium (headless, SwiftShader WebGL):
 * built with Vite, served from 127.0.0.1, driven with playwright-core through lodkit's e2e harness
 * (packages/lodkit/test/e2e, imported, not copied). At pinned camera distances the sphere the camera
 * looks at has the level of the pixel rule computed here and is drawn in that level's colour; every
 * level's colour covers pixels; the levels change as the camera moves; the overlay and <LodDebug />'s
 * panel show numbers; the console has no error. Skips with a notice when Chromium is not installed.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumOrNotice, collectErrors, launchChromium } from '../../../lodkit/test/e2e/browserHarness.js';
import { decodePng, type DecodedPng } from '../../../lodkit/test/e2e/png.js';
import { serveDirectory } from '../../../lodkit/test/e2e/staticServer.js';
import { FOV, LEVEL_COLORS, RADIUS, THRESHOLDS } from '../../example/scene.js';
import { levelForSize, pixelDiameter } from '../helpers.js';

const PACKAGE = resolve(import.meta.dirname, '..', '..');
const ARTIFACTS = join(PACKAGE, 'test-artifacts');
const RGB = LEVEL_COLORS.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));

interface PageState { frames: number; distance: number; centreLevel: number; levelCounts: number[]; viewportHeight: number; fov: number }

/** Pixels within `tolerance` of each level colour. */
function colourCounts(shot: DecodedPng, tolerance = 12): number[] {
  const counts = RGB.map(() => 0);
  for (let k = 0; k < shot.data.length; k += shot.channels) {
    RGB.forEach((c, l) => {
      if (Math.abs(shot.data[k] - c[0]) <= tolerance && Math.abs(shot.data[k + 1] - c[1]) <= tolerance && Math.abs(shot.data[k + 2] - c[2]) <= tolerance) counts[l]++;
    });
  }
  return counts;
}

/** The level colour nearest to the mean of the 5 × 5 px at the centre, and its distance. */
function centreColour(shot: DecodedPng): { level: number; error: number } {
  const cx = shot.width >> 1, cy = shot.height >> 1, mean = [0, 0, 0];
  for (let y = cy - 2; y <= cy + 2; y++) for (let x = cx - 2; x <= cx + 2; x++) for (let c = 0; c < 3; c++) mean[c] += shot.data[(y * shot.width + x) * shot.channels + c] / 25;
  let level = -1, error = Infinity;
  RGB.forEach((c, l) => { const e = Math.abs(c[0] - mean[0]) + Math.abs(c[1] - mean[1]) + Math.abs(c[2] - mean[2]); if (e < error) { error = e; level = l; } });
  return { level, error };
}

describe.skipIf(!chromiumOrNotice('@lodkit/react example test'))('@lodkit/react example in Chromium', () => {
  let server: { url: string; close: () => Promise<void> } | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const errors: string[] = [];

  const state = (): Promise<PageState> => page.evaluate(() => (window as unknown as { lodkitReact: { state: () => PageState } }).lodkitReact.state());
  const frames = async (n: number): Promise<void> => {
    const now = Number(await page.evaluate(() => document.body.dataset.frames ?? '0'));
    await page.waitForFunction((target) => Number(document.body.dataset.frames ?? '0') >= target, now + n, { timeout: 30_000 });
  };
  const at = async (distance: number | null): Promise<PageState> => {
    await page.evaluate((d) => (window as unknown as { lodkitReact: { setDistance: (d: number | null) => void } }).lodkitReact.setDistance(d), distance);
    await frames(2); // the next frame moves the camera before the manager measures; one more to be drawn
    return state();
  };
  const shoot = async (name: string): Promise<DecodedPng> => decodePng(await page.locator('canvas').screenshot({ path: join(ARTIFACTS, name) }));

  beforeAll(async () => {
    const out = join(ARTIFACTS, 'example-dist');
    mkdirSync(out, { recursive: true });
    const { build } = await import('vite');
    await build({ configFile: join(PACKAGE, 'example', 'vite.config.ts'), logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
    server = await serveDirectory(out);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 960, height: 540 } });
    collectErrors(page, errors);
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.ready === '1', undefined, { timeout: 60_000 });
    await frames(3);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the centre sphere has the pixel rule\'s level and is drawn in that colour, near to far', async () => {
    const seen = new Set<number>();
    for (const d of [5, 20, 80]) {
      const s = await at(d);
      expect(s.distance).toBe(d);
      const px = pixelDiameter([0, 0, d], [0, 0, 0], RADIUS, FOV, s.viewportHeight);
      const want = levelForSize(px, THRESHOLDS);
      expect(s.fov).toBe(FOV);
      expect(s.centreLevel, `distance ${d}: ${px.toFixed(1)} px`).toBe(want);
      const c = centreColour(await shoot(`react-example-d${d}.png`));
      expect(c.level, `colour at the centre, distance ${d}`).toBe(want);
      expect(c.error).toBeLessThan(30);
      seen.add(want);
    }
    expect([...seen].sort()).toEqual([0, 1, 2]);
  });

  it('renders non-blank pixels in each level\'s colour, and the levels change as the camera moves', async () => {
    const near = await at(12);
    const shot = await shoot('react-example-all-levels.png');
    const counts = colourCounts(shot);
    for (let l = 0; l < 3; l++) expect(counts[l], `pixels of level ${l}'s colour ${LEVEL_COLORS[l]}`).toBeGreaterThan(50);
    const far = await at(90);
    expect(far.levelCounts).not.toEqual(near.levelCounts);
    expect(far.levelCounts[0]).toBeLessThan(near.levelCounts[0]);
    // Released, the camera dollies by itself: the centre sphere's level follows.
    await at(null);
    await frames(5);
    const s = await state();
    expect(s.centreLevel).toBe(levelForSize(pixelDiameter([0, 0, s.distance], [0, 0, 0], RADIUS, FOV, s.viewportHeight), THRESHOLDS));
  });

  it('the overlay shows the FPS and the per-level counts as numbers', async () => {
    await page.waitForFunction(() => Number(document.querySelector('.overlay [data-testid=fps]')?.textContent) > 0, undefined, { timeout: 30_000 });
    const fps = await page.textContent('.overlay [data-testid=fps]');
    expect(fps).toMatch(/^\d+$/);
    const levels = await Promise.all([0, 1, 2].map((l) => page.textContent(`.overlay [data-testid=level-count-${l}]`)));
    for (const t of levels) expect(t).toMatch(/^\d+$/);
    expect(levels.reduce((a, t) => a + Number(t), 0)).toBeGreaterThan(0);
    expect(Number(await page.textContent('.overlay [data-testid=objects]'))).toBe(300 + 4000);
  });

  it("<LodDebug />'s lodkit stats panel is next to the canvas and shows the manager's counts", async () => {
    await frames(2);
    const panel = page.locator('[data-testid=lod-panel]');
    expect(await panel.count()).toBe(1);
    const counts = await Promise.all([0, 1, 2].map((l) => panel.locator(`[data-testid=level-count-${l}]`).textContent()));
    for (const t of counts) expect(t).toMatch(/^\d+$/);
    expect(await panel.locator('[data-testid=panel-cost]').textContent()).toMatch(/^[\d,]+$/);
  });

  it('logs no console error', () => {
    expect(errors).toEqual([]);
  });
});
