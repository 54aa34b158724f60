/**
 * `GpuInstancedLOD` under `WebGPURenderer` in Debian's headless Chromium (SwiftShader's WebGPU
 * adapter through `--enable-unsafe-webgpu`), and the same scene on the WebGL 2 backend (the CPU
 * fallback). A 150 × 150 grid of flat squares (22,500 instances, plus 400 far outside every view)
 * seen from straight above: distance levels form rings (red, green, blue). Everything expected is
 * computed here from the scene parameters — the level of each square from its distance (float64),
 * which square covers each pixel centre, which spheres the orthographic frustum keeps — never by
 * the code under test. Skips with a notice when Chromium or a working adapter is missing (a known
 * kernel is checked first, so an adapter that computes nothing never passes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildAndServe, chromiumOrNotice, collectErrors, openSite, waitForReady, type Site } from './browserHarness.js';

const SIZE = 384;

const P = { n: 150, spacing: 1, side: 0.9, height: 100, half: 80, thresholds: [108.288, 117.678], offView: 400 };
const R = Math.fround(P.side * Math.SQRT1_2);
const X0 = -((P.n - 1) / 2) * P.spacing;
// Relative distance to a threshold (or a frustum side) treated as undecidable (float32 is ~6e-8);
// the thresholds sit ≥ 6e-5 (relative) from every square's distance in the frames used, so none is.
const NEAR = 1e-5;

interface Frame { pixels: string; counts: number[]; shared: boolean; written: number; created: number }
interface IdPass { histogram: number[]; indirect: number[]; seen: number[]; seenTwice: number; seenIds: number; maxId: number }
type Fixture = { probe: () => Promise<{ ok: boolean; reason: string }>; setup: (p: typeof P) => { mode: string; backend: string }; frame: (cx: number, hysteresis?: number) => Promise<Frame>; idPass: () => Promise<IdPass>; rotated: (n: number, spacing: number, side: number, half: number) => Promise<string>; colored: (n: number, spacing: number, side: number, half: number) => Promise<string> };

/** Level of the square at (x, z) for a camera above (cx, height, 0), or −1 when within NEAR of a threshold. */
function levelAt(x: number, z: number, cx: number): number {
  const d = Math.hypot(x - cx, P.height, z) - R;
  let level = 0;
  for (const t of P.thresholds) {
    if (Math.abs(d - t) < NEAR * t) return -1;
    if (d > t) level++;
  }
  return level;
}

/** Expected drawn counts per level (grid squares whose sphere meets the view box) and undecidable ones. */
function expectedCounts(cx: number): { counts: number[]; near: number } {
  const counts = [0, 0, 0];
  let near = 0;
  for (let j = 0; j < P.n; j++) {
    for (let i = 0; i < P.n; i++) {
      const x = X0 + i * P.spacing, z = X0 + j * P.spacing;
      const mx = Math.abs(x - cx) - R - P.half, mz = Math.abs(z) - R - P.half;
      if (Math.abs(mx) < NEAR * P.half || Math.abs(mz) < NEAR * P.half) { near++; continue; }
      if (mx > 0 || mz > 0) continue; // culled
      const l = levelAt(x, z, cx);
      if (l < 0) near++; else counts[l]++;
    }
  }
  return { counts, near };
}

/** Expected colour class of each pixel: 0–2 level, 3 background, −1 undecidable (a square's edge or a near-threshold square). */
function expectedPicture(cx: number): Int8Array {
  const out = new Int8Array(SIZE * SIZE);
  const px = (2 * P.half) / SIZE, h = P.side / 2, edge = 0.6 * px;
  for (let row = 0; row < SIZE; row++) {
    // Rows may come back top-down or bottom-up: the grid is symmetric in z about the camera.
    const z = -P.half + (row + 0.5) * px;
    for (let col = 0; col < SIZE; col++) {
      const x = cx - P.half + (col + 0.5) * px;
      const i = Math.round((x - X0) / P.spacing), j = Math.round((z - X0) / P.spacing);
      let cls = 3;
      if (i >= -1 && i <= P.n && j >= -1 && j <= P.n) {
        const dx = Math.abs(x - (X0 + i * P.spacing)), dz = Math.abs(z - (X0 + j * P.spacing));
        const inGrid = i >= 0 && i < P.n && j >= 0 && j < P.n;
        if (Math.abs(dx - h) < edge || Math.abs(dz - h) < edge) cls = -1;
        else if (inGrid && dx < h && dz < h) cls = levelAt(X0 + i * P.spacing, X0 + j * P.spacing, cx);
      }
      out[row * SIZE + col] = cls;
    }
  }
  return out;
}

/** Classifies a pixel: 0 red, 1 green, 2 blue, 3 black, 4 anything else. */
function classOf(p: Uint8Array, o: number): number {
  const [r, g, b] = [p[o], p[o + 1], p[o + 2]];
  if (r < 40 && g < 40 && b < 40) return 3;
  if (r > 200 && g < 60 && b < 60) return 0;
  if (g > 200 && r < 60 && b < 60) return 1;
  if (b > 200 && r < 60 && g < 60) return 2;
  return 4;
}

function comparePicture(base64: string, cx: number): { checked: number; wrong: number; perClass: number[] } {
  const pixels = new Uint8Array(Buffer.from(base64, 'base64'));
  const want = expectedPicture(cx);
  const perClass = [0, 0, 0, 0, 0];
  let checked = 0, wrong = 0;
  for (let k = 0; k < SIZE * SIZE; k++) {
    const got = classOf(pixels, k * 4);
    perClass[got]++;
    if (want[k] < 0) continue;
    checked++;
    if (got !== want[k]) wrong++;
  }
  return { checked, wrong, perClass };
}

describe.skipIf(!chromiumOrNotice('GpuInstancedLOD test'))('GpuInstancedLOD in Chromium (WebGPURenderer, WebGL fallback)', () => {
  let site: Site;
  let webgpu = { ok: false, reason: 'not probed' };
  const errors: string[] = [];

  const open = async (backend: string): Promise<Page> => {
    const page = await site.browser.newPage();
    collectErrors(page, errors);
    await page.goto(`${site.server.url}?backend=${backend}`);
    await waitForReady(page, 45_000);
    return page;
  };
  const call = <R>(page: Page, fn: (f: Fixture) => Promise<R> | R): Promise<R> => page.evaluate(`(${fn.toString()})(window.fixture)`) as Promise<R>;

  beforeAll(async () => {
    site = await openSite('test/e2e/gpu-instanced-fixture/vite.config.ts', 'gpu-instanced-dist', { disableGpu: true, webgpu: true });
    const page = await open('webgpu');
    webgpu = await call(page, (f) => f.probe());
    await page.close();
    if (!webgpu.ok) console.warn(`[e2e] SKIPPED GpuInstancedLOD WebGPU checks: no working WebGPU adapter (${webgpu.reason}); the WebGL fallback is still tested`);
  }, 120_000);

  afterAll(async () => {
    await site?.close();
  });

  it('WebGPU: draws from the selector\'s indirect buffers — drawn ids per level = readback = the distances; level rings where expected', async (ctx) => {
    if (!webgpu.ok) ctx.skip();
    const page = await open('webgpu');
    const params = P;
    const info = await page.evaluate((p) => (window as unknown as { fixture: Fixture }).fixture.setup(p), params);
    expect(info).toEqual({ mode: 'gpu', backend: 'webgpu' });
    const want = expectedCounts(0);
    const f0 = await call(page, (f) => f.frame(0));
    expect(f0.shared).toBe(true); // three drew from the selector's own buffers
    const rb = await call(page, (f) => f.idPass());
    // Drawn instances, as seen in the picture (each square covers ≥ 1 pixel centre: 2.16 px wide),
    // equal the indirect instance counts three drew with, the selector's level histogram and the
    // distances; no culled (off-view) instance and no id at two levels.
    expect(rb.seen).toEqual(rb.indirect);
    expect(rb.indirect).toEqual(rb.histogram);
    expect(f0.counts).toEqual(rb.indirect);
    expect(want.near).toBe(0);
    expect(rb.indirect).toEqual(want.counts);
    expect(rb.seenTwice).toBe(0);
    expect(rb.maxId).toBeLessThan(P.n * P.n);
    expect(rb.seenIds).toBe(P.n * P.n);
    for (const c of want.counts) expect(c).toBeGreaterThan(1000); // all three rings are substantial
    const pic0 = comparePicture(f0.pixels, 0);
    expect(pic0.wrong).toBe(0);
    expect(pic0.checked).toBeGreaterThan(P.n * P.n); // more decidable pixels than squares
    expect(Math.min(pic0.perClass[0], pic0.perClass[1], pic0.perClass[2])).toBeGreaterThan(2000); // not blank: every level visible
    // The camera moves: this frame's selection (culling and levels) is what is drawn.
    const f1 = await call(page, (f) => f.frame(10.3));
    const want1 = expectedCounts(10.3);
    for (let l = 0; l < 3; l++) expect(Math.abs(f1.counts[l] - want1.counts[l])).toBeLessThanOrEqual(want1.near);
    expect(f1.counts.reduce((a, b) => a + b, 0)).toBeLessThan(P.n * P.n); // some columns left the view
    expect(comparePicture(f1.pixels, 10.3).wrong).toBe(0);
    // A steady frame (pipelines built) moves nothing per instance: the view uniforms and three's
    // camera/object uniforms only — far below one byte per instance — and creates no buffer.
    const f2 = await call(page, (f) => f.frame(10.3));
    expect(f2.counts).toEqual(f1.counts);
    expect(f2.created).toBe(0);
    expect(f2.written).toBeGreaterThan(0);
    expect(f2.written).toBeLessThan(8192);
    // The moving frame after the id pass also rebuilds the restored materials (three's small uniform
    // buffers) and writes the new camera: still nothing per instance.
    expect(f1.created).toBeLessThan(4096);
    expect(f1.written).toBeLessThan(8192);
    // Hysteresis reaches the GPU: back at cx = 0 then a 0.3-unit step (distances change by < 0.3 %,
    // far inside a 10 % band) keeps every level; without the band the step changes levels.
    await checkHysteresis(page);
    await checkRotations(page);
    await checkColors(page);
    console.info(`[e2e] GpuInstancedLOD WebGPU: ${P.n * P.n + P.offView} instances, drawn per level ${f0.counts.join('/')}, moved ${f1.counts.join('/')} (undecidable ${want1.near}); ${pic0.checked} pixels checked; a moving frame wrote ${f1.written} B, a steady one ${f2.written} B, creating ${f1.created + f2.created} B of buffers`);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('WebGL 2 fallback (CPU engine): the same levels and the same picture', async () => {
    const page = await open('webgl');
    const info = await page.evaluate((p) => (window as unknown as { fixture: Fixture }).fixture.setup(p), P);
    expect(info).toEqual({ mode: 'cpu', backend: 'webgl2' });
    const f0 = await call(page, (f) => f.frame(0));
    expect(f0.counts).toEqual(expectedCounts(0).counts);
    const pic0 = comparePicture(f0.pixels, 0);
    expect(pic0.wrong).toBe(0);
    expect(Math.min(pic0.perClass[0], pic0.perClass[1], pic0.perClass[2])).toBeGreaterThan(2000);
    const f1 = await call(page, (f) => f.frame(10.3));
    const want1 = expectedCounts(10.3);
    for (let l = 0; l < 3; l++) expect(Math.abs(f1.counts[l] - want1.counts[l])).toBeLessThanOrEqual(want1.near);
    expect(comparePicture(f1.pixels, 10.3).wrong).toBe(0);
    await checkHysteresis(page);
    await checkRotations(page);
    await checkColors(page);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('the demo page (demo/gpu.html) runs at 20k rocks on both backends: counts shown, within the scene, several levels', async () => {
    const demo = await buildAndServe('demo/vite.config.ts', 'gpu-demo-dist');
    try {
      // Without a working adapter only the fallback page is checked (the notice came from beforeAll).
      for (const backend of webgpu.ok ? ['webgpu', 'webgl'] : ['webgl']) {
        const page = await site.browser.newPage();
        collectErrors(page, errors, { prefix: 'demo' });
        await page.setViewportSize({ width: 900, height: 500 });
        await page.goto(`${demo.url}gpu.html?n=20000&backend=${backend}&present=0`);
        await waitForReady(page, 45_000);
        const mode = await page.textContent('[data-testid=mode]');
        if (backend === 'webgl') expect(mode).toBe('CPU engine (WebGL 2)');
        else expect(mode).toBe('GPU-driven (WebGPU)');
        await page.waitForFunction(() => Number(document.querySelector('[data-testid=drawn]')!.textContent!.replace(/,/g, '')) > 0, undefined, { timeout: 30_000 });
        // One read of the HUD (it refreshes 4 times a second).
        const [drawn, ...levels] = await page.evaluate(() => ['drawn', 'level-0', 'level-1', 'level-2', 'level-3']
          .map((id) => Number(document.querySelector(`[data-testid=${id}]`)!.textContent!.replace(/,/g, ''))));
        expect(await page.textContent('[data-testid=instances]')).toBe('20,000');
        expect(levels.reduce((a, b) => a + b, 0)).toBe(drawn);
        expect(drawn).toBeLessThan(20_000); // the camera sees part of the field
        expect(levels.filter((c) => c > 0).length).toBeGreaterThanOrEqual(2);
        // Frames were finished (WebGPU: the GPU's onSubmittedWorkDone), not only submitted.
        await page.waitForFunction(() => (window as unknown as { lodkitGpuDemo: { frames: { completed: number } } }).lodkitGpuDemo.frames.completed >= 3, undefined, { timeout: 30_000 });
        await page.close();
      }
    } finally {
      await demo.close();
    }
    expect(errors).toEqual([]);
  }, 120_000);

  /**
   * Rotations on both paths: upright squares, every other one turned face-up by −90° about x. Seen
   * from above, the turned ones cover their cells in the normal colour of a face pointing at the
   * camera (view-space +z: 0.5, 0.5, 1, which three treats as an sRGB colour: linear 0.214 → 55, 55,
   * 255); the others are edge-on (background). A normal left unrotated would read (55, 0, 55).
   */
  async function checkRotations(page: Page): Promise<void> {
    const n = 21, spacing = 7, side = 3, half = 80;
    const b64 = await page.evaluate(([a, b, c, d]) => (window as unknown as { fixture: Fixture }).fixture.rotated(a, b, c, d), [n, spacing, side, half] as const);
    const px = new Uint8Array(Buffer.from(b64, 'base64'));
    const step = (2 * half) / SIZE, x0 = -((n - 1) / 2) * spacing, edge = 0.6 * step;
    let faceUp = 0, background = 0, wrong = 0;
    for (let row = 0; row < SIZE; row++) {
      for (let col = 0; col < SIZE; col++) {
        const x = -half + (col + 0.5) * step, z = -half + (row + 0.5) * step;
        const i = Math.round((x - x0) / spacing), j = Math.round((z - x0) / spacing);
        const dx = Math.abs(x - (x0 + i * spacing)), dz = Math.abs(z - (x0 + j * spacing));
        if (Math.abs(dx - side / 2) < edge || Math.abs(dz - side / 2) < edge) continue;
        const inside = i >= 0 && i < n && j >= 0 && j < n && dx < side / 2 && dz < side / 2;
        const o = (row * SIZE + col) * 4;
        const isFace = Math.abs(px[o] - 55) < 12 && Math.abs(px[o + 1] - 55) < 12 && px[o + 2] > 240;
        const isBack = px[o] < 20 && px[o + 1] < 20 && px[o + 2] < 20;
        // n is odd, so (i + j)'s parity is the same whichever way the rows come back.
        const wantFace = inside && (i + j) % 2 === 0;
        if (wantFace) { if (isFace) faceUp++; else wrong++; } else { if (isBack) background++; else wrong++; }
      }
    }
    expect(wrong).toBe(0);
    expect(faceUp).toBeGreaterThan(221 * 20); // 221 turned squares of 7.2 × 7.2 px, edges excluded
    expect(background).toBeGreaterThan(SIZE * SIZE / 2);
  }

  /**
   * Colours on both paths: face-up squares in a white material tinted per instance; every pixel
   * well inside square (i, j) reads round(255 · (i/(n−1), |j−m|/m, 0.25)) ± 2, the rest background.
   */
  async function checkColors(page: Page): Promise<void> {
    const n = 21, spacing = 7, side = 3, half = 80, m = (n - 1) / 2;
    const b64 = await page.evaluate(([a, b, c, d]) => (window as unknown as { fixture: Fixture }).fixture.colored(a, b, c, d), [n, spacing, side, half] as const);
    const px = new Uint8Array(Buffer.from(b64, 'base64'));
    const step = (2 * half) / SIZE, x0 = -((n - 1) / 2) * spacing, edge = 0.6 * step;
    let tinted = 0, background = 0, wrong = 0;
    for (let row = 0; row < SIZE; row++) {
      for (let col = 0; col < SIZE; col++) {
        const x = -half + (col + 0.5) * step, z = -half + (row + 0.5) * step;
        const i = Math.round((x - x0) / spacing), j = Math.round((z - x0) / spacing);
        const dx = Math.abs(x - (x0 + i * spacing)), dz = Math.abs(z - (x0 + j * spacing));
        if (Math.abs(dx - side / 2) < edge || Math.abs(dz - side / 2) < edge) continue;
        const o = (row * SIZE + col) * 4;
        if (i >= 0 && i < n && j >= 0 && j < n && dx < side / 2 && dz < side / 2) {
          // |j − m| is the same whichever way the rows come back.
          const want = [i / (n - 1), Math.abs(j - m) / m, 0.25].map((v) => Math.round(v * 255));
          if (want.every((v, k) => Math.abs(px[o + k] - v) <= 2)) tinted++; else wrong++;
        } else if (px[o] < 3 && px[o + 1] < 3 && px[o + 2] < 3) background++; else wrong++;
      }
    }
    expect(wrong).toBe(0);
    expect(tinted).toBeGreaterThan(n * n * 20);
    expect(background).toBeGreaterThan(SIZE * SIZE / 2);
  }

  async function checkHysteresis(page: Page): Promise<void> {
    const base = await call(page, (f) => f.frame(0, 0)); // no band: levels from the distances alone
    expect(base.counts).toEqual(expectedCounts(0).counts);
    const held = await call(page, (f) => f.frame(0.3, 0.1));
    expect(held.counts).toEqual(base.counts);
    const free = await call(page, (f) => f.frame(0.3, 0));
    const want = expectedCounts(0.3);
    expect(want.near).toBe(0);
    expect(free.counts).toEqual(want.counts);
    expect(free.counts).not.toEqual(base.counts);
  }
});
