/**
 * `GpuLodSelector` in Debian's headless Chromium (SwiftShader's WebGPU adapter through
 * `--enable-unsafe-webgpu`): hand-worked cases (levels, blend, min/max level, minFrames, budget),
 * then seeded 5–20k-object scenes over camera paths (perspective, orthographic, two views;
 * hysteresis, blend, min/max, minFramesBetweenChanges, budgets that fit / bind / cannot be met,
 * split passes, per-(profile, level) lists): GPU levels and blend vs the float32 reference except
 * the counted near-threshold cases, indirect counts vs per-level counts, id lists vs the levels,
 * changed ids vs the reference's set, stats, the budget never exceeded; and cluster culling
 * bit-identical to the per-object path. The same scenes at 30–60k objects (and a fourth budget)
 * are in gpuSelect.full.test.ts (`npm run test:full`). Skips with a notice when Chromium or a
 * working adapter is missing (a known kernel is checked first, so an adapter that computes nothing
 * never passes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOrNotice } from './browserHarness.js';
import { blendRangeMinFrames, budgets, clusterCulling, hysteresisScene, openGpuSelect, splitThenNoCull, type GpuSelectPage } from './gpuSelectScenarios.js';

describe.skipIf(!chromiumOrNotice('GPU selection test'))('GpuLodSelector in Chromium (WebGPU)', () => {
  let g: GpuSelectPage | undefined;
  const usable = (): boolean => g?.usable === true;

  beforeAll(async () => {
    g = await openGpuSelect('gpu-select-dist');
  }, 120_000);

  afterAll(async () => {
    await g?.site.close();
  });

  it('hand-worked: distance levels 0, 1, 2 and a culled object; one instance per level; mesh ranges in the arguments', async (ctx) => {
    if (!usable()) ctx.skip();
    // Levels of the 4 objects, instanceCount of levels 0–2, level 2's firstIndex and baseVertex.
    const hw = await g!.api((a) => a.handWorked());
    expect(g!.errors).toEqual([]);
    expect(hw).toEqual([0, 1, 2, 255, 1, 1, 1, 4200, 7]);
    expect(g!.errors).toEqual([]);
  }, 60_000);

  it('hand-worked: blend, maxLevel, minLevel, minFramesBetweenChanges, budget (fits / below the minimum)', async (ctx) => {
    if (!usable()) ctx.skip();
    const hw = await g!.api((a) => a.handWorkedOptions());
    expect(g!.errors).toEqual([]);
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

  it('seeded 10k scene, camera path with hysteresis: GPU = float32 reference except counted near-threshold cases', async (ctx) => {
    if (!usable()) ctx.skip();
    await hysteresisScene(g!, 10_000);
  }, 90_000);

  it('a second seed without hysteresis, split passes (select → cut → compact without a budget) at 10k; then cull: false at 5k', async (ctx) => {
    if (!usable()) ctx.skip();
    await splitThenNoCull(g!, 10_000, 5_000);
  }, 90_000);

  it('blend thresholds, min/max level and minFramesBetweenChanges with hysteresis (10k)', async (ctx) => {
    if (!usable()) ctx.skip();
    await blendRangeMinFrames(g!, 10_000);
  }, 90_000);

  it('budget (hybrid coarsening) at 10k: never over, equal to the float32 reference; fits / binds / below the minimum; per-(profile, level) lists', async (ctx) => {
    if (!usable()) ctx.skip();
    // One budget that binds (with per-(profile, level) lists), one that fits, one below the minimum.
    await budgets(g!, 10_000, [0.3, 1.5, -0.5]);
  }, 90_000);

  it('cluster culling at 20k (313 clusters): the same state, blend, arguments and stats as the per-object path; clusters decided whole', async (ctx) => {
    if (!usable()) ctx.skip();
    // Over the path at 20k: ~1,200 (cluster, view) pairs wholly outside, ~30 wholly inside.
    await clusterCulling(g!, 20_000, { outside: 600, inside: 10 });
  }, 90_000);
});
