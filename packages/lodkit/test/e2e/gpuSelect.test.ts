/**
 * `GpuLodSelector` in Debian's headless Chromium (SwiftShader's WebGPU adapter through
 * `--enable-unsafe-webgpu`): hand-worked cases (levels, blend, min/max level, minFrames, budget),
 * then seeded 40–60k-object scenes over camera paths (perspective, orthographic, two views;
 * hysteresis, blend, min/max, minFramesBetweenChanges, budgets that fit / bind / cannot be met,
 * split passes, per-(profile, level) lists): GPU levels and blend vs the float32 reference except
 * the counted near-threshold cases, indirect counts vs per-level counts, id lists vs the levels,
 * changed ids vs the reference's set, stats, the budget never exceeded; and cluster culling
 * bit-identical to the per-object path. Skips with a notice when Chromium or a working adapter is
 * missing (a known kernel is checked first, so an adapter that computes nothing never passes).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { serveDirectory } from './staticServer.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.warn(`[e2e] SKIPPED GPU selection test: ${CHROMIUM} not found (install Debian's "chromium" package).`);
const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'test-artifacts', 'gpu-select-dist');

interface FrameResult {
  visible: number; near: number; mismatches: number; nearMismatches: number; holds: number;
  blendErrors: number; maxBlendError: number; countErrors: number; listErrors: number; argErrors: number;
  changedErrors: number; statsErrors: number; perLevel: number[];
  budget: number; cost: number; mode: number; refMode: number; overBudget: number; budgetMetFlag: number; preferredCost: number; minimumCost: number;
}
interface SceneConfig { cull?: boolean; perProfile?: boolean; clusters?: boolean; hysteresis?: number; minLevel?: number; maxLevel?: number; minFrames?: number; blend?: boolean; passes?: 'auto' | 'split'; budgetFraction?: number | null; frames?: number }
type Api = {
  probe: () => Promise<{ ok: boolean; reason: string; adapter: string }>; handWorked: () => Promise<number[]>; handWorkedOptions: () => Promise<number[]>;
  scene: (seed: number, n: number, cfg: SceneConfig) => Promise<FrameResult[]>;
  clusterCompare: (seed: number, n: number, cfg: SceneConfig) => Promise<{ diff: number; argDiff: number; outside: number; inside: number; visible: number }[]>;
};

/** Every frame: levels equal except counted near cases, blend within tolerance, counts/lists/args/changed/stats exact. */
function checkFrames(frames: FrameResult[], label: string): { near: number; nearMismatches: number; holds: number; maxBlend: number } {
  let near = 0, nearMismatches = 0, holds = 0, maxBlend = 0;
  for (const [k, f] of frames.entries()) {
    const at = `${label} frame ${k}`;
    expect({ mismatches: f.mismatches, blendErrors: f.blendErrors, countErrors: f.countErrors, listErrors: f.listErrors, argErrors: f.argErrors, changedErrors: f.changedErrors, statsErrors: f.statsErrors, overBudget: f.overBudget }, at)
      .toEqual({ mismatches: 0, blendErrors: 0, countErrors: 0, listErrors: 0, argErrors: 0, changedErrors: 0, statsErrors: 0, overBudget: 0 });
    expect(f.visible, at).toBeGreaterThan(1000); // the poses see a real part of the scene
    expect(f.perLevel.filter((c) => c > 0).length, `${at} uses several levels`).toBeGreaterThanOrEqual(2);
    near += f.near; nearMismatches += f.nearMismatches; holds += f.holds; maxBlend = Math.max(maxBlend, f.maxBlendError);
  }
  expect(near, `${label}: "near" stays a handful of ulps, not a loophole`).toBeLessThan(20 * frames.length);
  return { near, nearMismatches, holds, maxBlend };
}

describe.skipIf(!HAS_CHROMIUM)('GpuLodSelector in Chromium (WebGPU)', () => {
  let browser: Browser;
  let server: { url: string; close: () => Promise<void> };
  let page: Page;
  let usable = false;
  const errors: string[] = [];
  const api = <R>(fn: (a: Api) => Promise<R>): Promise<R> => page.evaluate(`(${fn.toString()})(window.gpuSelect)`) as Promise<R>;
  /** As `api`, with a JSON argument (the function runs in the page: no closures). */
  const apiWith = <R, A>(fn: (a: Api, arg: A) => Promise<R>, arg: A): Promise<R> =>
    page.evaluate(`(${fn.toString()})(window.gpuSelect, ${JSON.stringify(arg)})`) as Promise<R>;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    const { build } = await import('vite');
    await build({ configFile: join(ROOT, 'test/e2e/gpu-select-fixture/vite.config.ts'), logLevel: 'error', build: { outDir: OUT, emptyOutDir: true } });
    server = await serveDirectory(OUT);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--enable-unsafe-webgpu'],
    });
    page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.ready === '1', undefined, { timeout: 30_000 });
    const probe = await api((a) => a.probe());
    usable = probe.ok;
    if (!usable) console.warn(`[e2e] SKIPPED GPU selection test: no working WebGPU adapter (${probe.reason}) ${probe.adapter}`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('hand-worked: distance levels 0, 1, 2 and a culled object; one instance per level; mesh ranges in the arguments', async (ctx) => {
    if (!usable) ctx.skip();
    // Levels of the 4 objects, instanceCount of levels 0–2, level 2's firstIndex and baseVertex.
    const hw = await api((a) => a.handWorked());
    expect(errors).toEqual([]);
    expect(hw).toEqual([0, 1, 2, 255, 1, 1, 1, 4200, 7]);
    expect(errors).toEqual([]);
  }, 60_000);

  it('hand-worked: blend, maxLevel, minLevel, minFramesBetweenChanges, budget (fits / below the minimum)', async (ctx) => {
    if (!usable) ctx.skip();
    const hw = await api((a) => a.handWorkedOptions());
    expect(errors).toEqual([]);
    // Surface distances 10.5, 11.5, 22 with thresholds [10, 20], blend [12, 24]: indices 0.25, 0.75, 1.5.
    expect(hw.slice(0, 6)).toEqual([0, 1, 2, 250, 750, 500]);
    expect(hw.slice(6, 9)).toEqual([0, 1, 1]); // maxLevel 1 clamps 1.5 to 1
    expect(hw.slice(9, 12)).toEqual([1, 1, 2]); // minLevel 1 clamps 0.25 to 1
    // Alternating 5 m / 15 m with minFramesBetweenChanges 3: changes on frames 1, 4, 7 only.
    expect(hw.slice(12, 19)).toEqual([0, 0, 0, 1, 1, 1, 0]);
    // Costs [100, 10, 1], budget 120, projected diameters 138.6, 69.3, 34.6 px: the greedy buys
    // A→1 (key 25.1), B→1 (12.6), C→1 (6.28), A→0 (0.251): 3 + 9 + 9 + 9 + 90 = 120.
    expect(hw.slice(19, 24)).toEqual([0, 1, 1, 120, 1]);
    // Budget 2 < minimum 3: floor everywhere, mode 2, budgetMet false.
    expect(hw.slice(24, 30)).toEqual([2, 2, 2, 3, 2, 0]);
  }, 60_000);

  it('seeded 60k scene, camera path with hysteresis: GPU = float32 reference except counted near-threshold cases', async (ctx) => {
    if (!usable) ctx.skip();
    const frames = await api((a) => a.scene(1234, 60_000, { hysteresis: 0.1 }));
    const s = checkFrames(frames, 'h=0.1');
    console.info(`[e2e] GPU selection: ${frames.length} frames × 60k objects, near-threshold cases ${s.near}, of which differing ${s.nearMismatches}; hysteresis holds ${s.holds}`);
    expect(s.holds).toBeGreaterThan(0); // the band was exercised on the walking frames
    expect(errors).toEqual([]);
  }, 90_000);

  it('a second seed without hysteresis, split passes (select → cut → compact without a budget); then cull: false', async (ctx) => {
    if (!usable) ctx.skip();
    const frames = await api((a) => a.scene(99, 50_000, { passes: 'split', clusters: false }));
    checkFrames(frames, 'split');
    for (const f of frames) expect([f.holds, f.mode], 'no hold, no budget').toEqual([0, 0]);
    const drawn = await api((a) => a.scene(99, 30_000, { cull: false, hysteresis: 0.1 }));
    checkFrames(drawn, 'cull: false');
    for (const f of drawn) expect(f.visible, 'cull: false draws every object').toBe(30_000);
    expect(errors).toEqual([]);
  }, 90_000);

  it('blend thresholds, min/max level and minFramesBetweenChanges with hysteresis', async (ctx) => {
    if (!usable) ctx.skip();
    const frames = await api((a) => a.scene(4321, 40_000, { blend: true, hysteresis: 0.05, minLevel: 1, maxLevel: 3, minFrames: 3, frames: 8 }));
    const s = checkFrames(frames, 'blend+range+minFrames');
    console.info(`[e2e] GPU blend/min/max/minFrames: ${frames.length} frames, near ${s.near} (differing ${s.nearMismatches}), holds ${s.holds}, max |Δblend| ${s.maxBlend.toExponential(2)}`);
    for (const f of frames) expect(f.perLevel[0] + f.perLevel[4], 'levels outside [1, 3]').toBe(0);
    expect(s.holds).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  }, 90_000);

  it('budget (hybrid coarsening): never over, equal to the float32 reference; fits / binds / below the minimum; per-(profile, level) lists', async (ctx) => {
    if (!usable) ctx.skip();
    const modes: number[] = [];
    for (const fraction of [0.3, 0.7, 1.5, -0.5]) {
      // Per-(profile, level) lists on two of the budgets.
      const frames = await apiWith((a, f: number) => a.scene(777, 40_000, { blend: true, hysteresis: 0.1, budgetFraction: f, perProfile: f < 1 }), fraction);
      checkFrames(frames, `budget ${fraction}`);
      for (const [k, f] of frames.entries()) {
        expect(f.mode, `budget ${fraction} frame ${k}: mode = reference`).toBe(f.refMode);
        if (f.mode !== 2) expect(f.cost, `budget ${fraction} frame ${k}`).toBeLessThanOrEqual(f.budget);
        expect(f.budgetMetFlag).toBe(f.mode === 2 ? 0 : 1);
        modes.push(f.mode);
        if (fraction === 0.3) console.info(`[e2e] GPU budget ${f.budget} (min ${f.minimumCost} + 0.3 × (preferred ${f.preferredCost} − min)): cost ${f.cost}, mode ${f.mode}, unspent ${(100 * (f.budget - f.cost) / (f.budget - f.minimumCost)).toFixed(2)} % of the headroom`);
      }
    }
    expect(new Set(modes)).toEqual(new Set([0, 1, 2])); // fits, binds and over were all exercised
    expect(errors).toEqual([]);
  }, 90_000);

  it('cluster culling: the same state, blend, arguments and stats as the per-object path; clusters decided whole', async (ctx) => {
    if (!usable) ctx.skip();
    const frames = await api((a) => a.clusterCompare(2024, 60_000, { hysteresis: 0.1, blend: true, budgetFraction: 1 }));
    let outside = 0, inside = 0;
    for (const [k, f] of frames.entries()) {
      expect([f.diff, f.argDiff], `frame ${k}`).toEqual([0, 0]);
      expect(f.visible, `frame ${k}`).toBeGreaterThan(1000);
      outside += f.outside; inside += f.inside;
    }
    console.info(`[e2e] GPU clusters: ${frames.length} frames × 60k objects (938 clusters), (cluster, view) pairs wholly outside ${outside}, wholly inside ${inside}`);
    expect(outside).toBeGreaterThan(1000);
    expect(inside).toBeGreaterThan(100);
    expect(errors).toEqual([]);
  }, 90_000);
});
