/**
 * End-to-end test of the Babylon.js demo page (demo/babylon.html) in Debian's Chromium (headless,
 * SwiftShader WebGL2): builds the page alone with Vite (test/e2e/babylon-demo-fixture), serves it
 * from 127.0.0.1 and drives it with playwright-core. The page pins its camera distance through
 * `window.lodkitBabylon`; the test reads the levels from the page and checks that the sphere at the
 * canvas centre is drawn in its level's colour. Skips with a notice when Chromium is not installed.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARTIFACTS, chromiumOrNotice, collectErrors, openSite, type Site } from './browserHarness.js';
import { decodePng } from './png.js';

interface DemoState {
  webgl: number; distance: number; frames: number; centreLevel: number;
  meshLevels: number[]; thinLevels: number[]; objects: number;
}

/** The demo's level colours (demo/babylon.ts), as RGB. */
const LEVEL_RGB = [[0x35, 0xd0, 0x7f], [0x4c, 0x8d, 0xf2], [0xeb, 0x57, 0x57]];

/** Index of the level colour nearest to `rgb`, and its distance (sum of channel differences). */
function nearestLevel(rgb: readonly number[]): { level: number; error: number } {
  let level = -1, error = Infinity;
  LEVEL_RGB.forEach((c, l) => {
    const e = Math.abs(c[0] - rgb[0]) + Math.abs(c[1] - rgb[1]) + Math.abs(c[2] - rgb[2]);
    if (e < error) { error = e; level = l; }
  });
  return { level, error };
}

describe.skipIf(!chromiumOrNotice('Babylon.js demo test'))('Babylon.js demo in Chromium', () => {
  let site: Site;
  let page: Page;
  const errors: string[] = [];

  const state = (): Promise<DemoState> => page.evaluate(() => (window as unknown as { lodkitBabylon: { state: () => DemoState } }).lodkitBabylon.state());
  /** Waits until the page has drawn `n` more frames (it counts them in `body.dataset.frames`). */
  const frames = async (n: number): Promise<void> => {
    const now = Number(await page.evaluate(() => document.body.dataset.frames ?? '0'));
    await page.waitForFunction((target) => Number(document.body.dataset.frames ?? '0') >= target, now + n, { timeout: 30_000 });
  };
  const at = async (distance: number): Promise<DemoState> => {
    await page.evaluate((d) => (window as unknown as { lodkitBabylon: { setDistance: (d: number) => void } }).lodkitBabylon.setDistance(d), distance);
    // The evaluation runs between two frames of the render loop: the next frame is the first at `distance`.
    await frames(1);
    return state();
  };
  /** The canvas screenshot: the mean colour of the 3 × 3 px at its centre (the far, 8-px sphere covers them), and its distinct colours. */
  const shoot = async (name: string): Promise<{ centre: number[]; colours: number; top: number }> => {
    const png = await page.locator('[data-testid=canvas]').screenshot({ path: join(ARTIFACTS, name) });
    const shot = decodePng(png);
    const cx = shot.width >> 1, cy = shot.height >> 1, centre = [0, 0, 0];
    for (let y = cy - 1; y <= cy + 1; y++) {
      for (let x = cx - 1; x <= cx + 1; x++) for (let c = 0; c < 3; c++) centre[c] += shot.data[(y * shot.width + x) * shot.channels + c] / 9;
    }
    const counts = new Map<number, number>();
    for (let i = 0; i < shot.data.length; i += shot.channels) {
      const key = ((shot.data[i] >> 3) << 10) | ((shot.data[i + 1] >> 3) << 5) | (shot.data[i + 2] >> 3);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return { centre, colours: counts.size, top: Math.max(...counts.values()) / (shot.width * shot.height) };
  };

  beforeAll(async () => {
    site = await openSite('test/e2e/babylon-demo-fixture/vite.config.ts', 'babylon-demo-dist', { disableGpu: true });
    page = await site.browser.newPage({ viewport: { width: 960, height: 540 } });
    collectErrors(page, errors);
    await page.goto(`${site.server.url}babylon.html`);
    await frames(3);
  }, 90_000);

  afterAll(async () => {
    await site?.close();
  });

  it('runs a WebGL2 engine, draws a non-blank canvas and shows the level stats', async () => {
    const s = await at(30);
    expect(s.webgl).toBe(2);
    expect(await page.textContent('[data-testid=webgl-version]')).toBe('2');
    expect(s.objects).toBe(315 + 4000);
    expect(s.meshLevels.reduce((a, b) => a + b, 0)).toBe(315);
    expect(await page.textContent('[data-testid=level-stats]')).toMatch(/^spheres: \d+ · \d+ · \d+ \(LOD 0 · 1 · 2\), \d+ culled$/);
    const shot = await shoot('babylon-demo-30m.png');
    expect(shot.colours).toBeGreaterThan(3); // background, three level colours, edges
    expect(shot.top).toBeLessThan(0.95);     // not a cleared canvas
    expect(errors).toEqual([]);
  }, 60_000);

  it('levels change as the camera moves: in the page and in the level colour at the canvas centre', async () => {
    // pixels thresholds 80 / 25 px for a 2 m sphere: about 16 m and 51 m at 540 px and Babylon's 0.8 rad fov.
    const seen: DemoState[] = [];
    for (const [distance, level] of [[12, 0], [40, 1], [150, 2], [12, 0]] as const) {
      const s = await at(distance);
      seen.push(s);
      expect(s.distance).toBe(distance);
      expect(s.centreLevel, `centre sphere at ${distance} m`).toBe(level);
      const shot = await shoot(`babylon-demo-${distance}m-${seen.length}.png`);
      const near = nearestLevel(shot.centre);
      expect(near.level, `centre colour ${shot.centre.map(Math.round).join(',')} at ${distance} m`).toBe(level);
      expect(near.error).toBeLessThan(60);
    }
    // Dollying out moves spheres to coarser levels (more at LOD 2 at 150 m than at 12 m, fewer at LOD 0),
    // and the forest's thin instances follow the same camera.
    const [close, mid, far] = seen;
    expect(far.meshLevels[2]).toBeGreaterThan(close.meshLevels[2]);
    expect(close.meshLevels[0]).toBeGreaterThan(far.meshLevels[0]);
    expect(mid.meshLevels[1]).toBeGreaterThan(0);
    expect(far.thinLevels[0] + far.thinLevels[1] + far.thinLevels[2]).toBeGreaterThan(0);
    expect(far.thinLevels).not.toEqual(close.thinLevels);
    expect(errors).toEqual([]);
  }, 60_000);
});
