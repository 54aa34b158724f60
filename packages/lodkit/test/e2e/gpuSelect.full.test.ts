/**
 * `GpuLodSelector` in Debian's headless Chromium at full size (`npm run test:full` only;
 * gpuSelect.test.ts runs the hand-worked cases and the same scenes at 5–20k objects in `npm test`):
 * the seeded 30–60k-object scenes over camera paths (hysteresis; split passes; cull: false; blend,
 * min/max, minFramesBetweenChanges; four budgets that fit / bind / cannot be met, per-(profile,
 * level) lists; cluster culling bit-identical to the per-object path), checked against the float32
 * reference as in gpuSelectScenarios.ts. Skips with a notice when Chromium or a working adapter is
 * missing (a known kernel is checked first, so an adapter that computes nothing never passes).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { chromiumOrNotice } from './browserHarness.js';
import { blendRangeMinFrames, budgets, clusterCulling, hysteresisScene, openGpuSelect, splitThenNoCull, type GpuSelectPage } from './gpuSelectScenarios.js';

describe.skipIf(!chromiumOrNotice('GPU selection test (full size)'))('GpuLodSelector in Chromium (WebGPU), full size', () => {
  let g: GpuSelectPage | undefined;
  const usable = (): boolean => g?.usable === true;

  beforeAll(async () => {
    g = await openGpuSelect('gpu-select-full-dist');
  }, 120_000);

  afterAll(async () => {
    await g?.site.close();
  });

  it('seeded 60k scene, camera path with hysteresis: GPU = float32 reference except counted near-threshold cases', async (ctx) => {
    if (!usable()) ctx.skip();
    await hysteresisScene(g!, 60_000);
  }, 90_000);

  it('a second seed without hysteresis, split passes (select → cut → compact without a budget); then cull: false', async (ctx) => {
    if (!usable()) ctx.skip();
    await splitThenNoCull(g!, 50_000, 30_000);
  }, 90_000);

  it('blend thresholds, min/max level and minFramesBetweenChanges with hysteresis', async (ctx) => {
    if (!usable()) ctx.skip();
    await blendRangeMinFrames(g!, 40_000);
  }, 90_000);

  it('budget (hybrid coarsening): never over, equal to the float32 reference; fits / binds / below the minimum; per-(profile, level) lists', async (ctx) => {
    if (!usable()) ctx.skip();
    await budgets(g!, 40_000, [0.3, 0.7, 1.5, -0.5]);
  }, 90_000);

  it('cluster culling: the same state, blend, arguments and stats as the per-object path; clusters decided whole', async (ctx) => {
    if (!usable()) ctx.skip();
    await clusterCulling(g!, 60_000, { outside: 1000, inside: 100 });
  }, 90_000);
});
