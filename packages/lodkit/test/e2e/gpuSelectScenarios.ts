/**
 * `GpuLodSelector` in Chromium (gpu-select-fixture), shared by gpuSelect.test.ts (`npm test`: the
 * hand-worked cases and the seeded scenes at 10–20k objects) and gpuSelect.full.test.ts (`npm run
 * test:full`: the seeded scenes at 30–60k objects): opening the fixture, the per-frame checks and
 * the seeded scenarios, whose size is their only parameter (with the counts that scale with it), so
 * both files check the same things.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { collectErrors, openSite, waitForReady, type Site } from './browserHarness.js';

export interface FrameResult {
  visible: number; near: number; mismatches: number; nearMismatches: number; holds: number;
  blendErrors: number; maxBlendError: number; countErrors: number; listErrors: number; argErrors: number;
  changedErrors: number; statsErrors: number; perLevel: number[];
  budget: number; cost: number; mode: number; refMode: number; overBudget: number; budgetMetFlag: number; preferredCost: number; minimumCost: number;
}
export interface SceneConfig { cull?: boolean; perProfile?: boolean; clusters?: boolean; hysteresis?: number; minLevel?: number; maxLevel?: number; minFrames?: number; blend?: boolean; passes?: 'auto' | 'split'; budgetFraction?: number | null; frames?: number }
export type Api = {
  probe: () => Promise<{ ok: boolean; reason: string; adapter: string }>; handWorked: () => Promise<number[]>; handWorkedOptions: () => Promise<number[]>;
  scene: (seed: number, n: number, cfg: SceneConfig) => Promise<FrameResult[]>;
  clusterCompare: (seed: number, n: number, cfg: SceneConfig) => Promise<{ diff: number; argDiff: number; outside: number; inside: number; visible: number }[]>;
};

/** Every frame: levels equal except counted near cases, blend within tolerance, counts/lists/args/changed/stats exact. */
export function checkFrames(frames: FrameResult[], label: string): { near: number; nearMismatches: number; holds: number; maxBlend: number } {
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

/** The fixture open in Chromium with its WebGPU adapter probed (`usable`: it computes a known kernel). */
export interface GpuSelectPage {
  site: Site; page: Page; usable: boolean; errors: string[];
  api: <R>(fn: (a: Api) => Promise<R>) => Promise<R>;
  /** As `api`, with a JSON argument (the function runs in the page: no closures). */
  apiWith: <R, A>(fn: (a: Api, arg: A) => Promise<R>, arg: A) => Promise<R>;
}

/** Builds the fixture into test-artifacts/`out`, opens it (WebGPU on, the GPU not disabled) and probes the adapter. */
export async function openGpuSelect(out: string): Promise<GpuSelectPage> {
  const site = await openSite('test/e2e/gpu-select-fixture/vite.config.ts', out, { disableGpu: false, webgpu: true });
  const errors: string[] = [];
  const page = await site.browser.newPage();
  collectErrors(page, errors, { warnings: true });
  await page.goto(site.server.url);
  await waitForReady(page, 30_000);
  const api = <R>(fn: (a: Api) => Promise<R>): Promise<R> => page.evaluate(`(${fn.toString()})(window.gpuSelect)`) as Promise<R>;
  const apiWith = <R, A>(fn: (a: Api, arg: A) => Promise<R>, arg: A): Promise<R> =>
    page.evaluate(`(${fn.toString()})(window.gpuSelect, ${JSON.stringify(arg)})`) as Promise<R>;
  const probe = await api((a) => a.probe());
  if (!probe.ok) console.warn(`[e2e] SKIPPED GPU selection test: no working WebGPU adapter (${probe.reason}) ${probe.adapter}`);
  return { site, page, usable: probe.ok, errors, api, apiWith };
}

const k = (n: number): string => `${n / 1000}k`;

/** Seed 1234, `n` objects, camera path with hysteresis: GPU = float32 reference except counted near-threshold cases. */
export async function hysteresisScene(g: GpuSelectPage, n: number): Promise<void> {
  const frames = await g.apiWith((a, m: number) => a.scene(1234, m, { hysteresis: 0.1 }), n);
  const s = checkFrames(frames, 'h=0.1');
  console.info(`[e2e] GPU selection: ${frames.length} frames × ${k(n)} objects, near-threshold cases ${s.near}, of which differing ${s.nearMismatches}; hysteresis holds ${s.holds}`);
  expect(s.holds).toBeGreaterThan(0); // the band was exercised on the walking frames
  expect(g.errors).toEqual([]);
}

/** Seed 99 without hysteresis, split passes (select → cut → compact without a budget) on `n` objects; then cull: false on `noCull`. */
export async function splitThenNoCull(g: GpuSelectPage, n: number, noCull: number): Promise<void> {
  const frames = await g.apiWith((a, m: number) => a.scene(99, m, { passes: 'split', clusters: false }), n);
  checkFrames(frames, 'split');
  for (const f of frames) expect([f.holds, f.mode], 'no hold, no budget').toEqual([0, 0]);
  const drawn = await g.apiWith((a, m: number) => a.scene(99, m, { cull: false, hysteresis: 0.1 }), noCull);
  checkFrames(drawn, 'cull: false');
  for (const f of drawn) expect(f.visible, 'cull: false draws every object').toBe(noCull);
  expect(g.errors).toEqual([]);
}

/** Seed 4321, `n` objects: blend thresholds, min/max level and minFramesBetweenChanges with hysteresis. */
export async function blendRangeMinFrames(g: GpuSelectPage, n: number): Promise<void> {
  const frames = await g.apiWith((a, m: number) => a.scene(4321, m, { blend: true, hysteresis: 0.05, minLevel: 1, maxLevel: 3, minFrames: 3, frames: 8 }), n);
  const s = checkFrames(frames, 'blend+range+minFrames');
  console.info(`[e2e] GPU blend/min/max/minFrames: ${frames.length} frames × ${k(n)} objects, near ${s.near} (differing ${s.nearMismatches}), holds ${s.holds}, max |Δblend| ${s.maxBlend.toExponential(2)}`);
  for (const f of frames) expect(f.perLevel[0] + f.perLevel[4], 'levels outside [1, 3]').toBe(0);
  expect(s.holds).toBeGreaterThan(0);
  expect(g.errors).toEqual([]);
}

/**
 * Seed 777, `n` objects, one scene per budget fraction (of the headroom above the minimum; below 0:
 * under the minimum; per-(profile, level) lists when below 1): never over, mode equal to the float32
 * reference; fits, binds and below the minimum all exercised.
 */
export async function budgets(g: GpuSelectPage, n: number, fractions: number[]): Promise<void> {
  const modes: number[] = [];
  for (const fraction of fractions) {
    // Per-(profile, level) lists on the budgets below the preferred cost.
    const frames = await g.apiWith((a, [f, m]: [number, number]) => a.scene(777, m, { blend: true, hysteresis: 0.1, budgetFraction: f, perProfile: f < 1 }), [fraction, n]);
    checkFrames(frames, `budget ${fraction}`);
    for (const [i, f] of frames.entries()) {
      expect(f.mode, `budget ${fraction} frame ${i}: mode = reference`).toBe(f.refMode);
      if (f.mode !== 2) expect(f.cost, `budget ${fraction} frame ${i}`).toBeLessThanOrEqual(f.budget);
      expect(f.budgetMetFlag).toBe(f.mode === 2 ? 0 : 1);
      modes.push(f.mode);
      if (fraction === 0.3) console.info(`[e2e] GPU budget ${f.budget} (min ${f.minimumCost} + 0.3 × (preferred ${f.preferredCost} − min)): cost ${f.cost}, mode ${f.mode}, unspent ${(100 * (f.budget - f.cost) / (f.budget - f.minimumCost)).toFixed(2)} % of the headroom`);
    }
  }
  expect(new Set(modes)).toEqual(new Set([0, 1, 2])); // fits, binds and over were all exercised
  expect(g.errors).toEqual([]);
}

/**
 * Seed 2024, `n` objects through two selectors, cluster culling on and off: the same state, blend,
 * arguments and stats; (cluster, view) pairs decided whole, more than `outside` wholly outside and
 * `inside` wholly inside over the path (both grow with `n`: clusters hold 64 objects).
 */
export async function clusterCulling(g: GpuSelectPage, n: number, { outside: minOutside, inside: minInside }: { outside: number; inside: number }): Promise<void> {
  const frames = await g.apiWith((a, m: number) => a.clusterCompare(2024, m, { hysteresis: 0.1, blend: true, budgetFraction: 1 }), n);
  let outside = 0, inside = 0;
  for (const [i, f] of frames.entries()) {
    expect([f.diff, f.argDiff], `frame ${i}`).toEqual([0, 0]);
    expect(f.visible, `frame ${i}`).toBeGreaterThan(1000);
    outside += f.outside; inside += f.inside;
  }
  console.info(`[e2e] GPU clusters: ${frames.length} frames × ${k(n)} objects (${Math.ceil(n / 64)} clusters), (cluster, view) pairs wholly outside ${outside}, wholly inside ${inside}`);
  expect(outside).toBeGreaterThan(minOutside);
  expect(inside).toBeGreaterThan(minInside);
  expect(g.errors).toEqual([]);
}
