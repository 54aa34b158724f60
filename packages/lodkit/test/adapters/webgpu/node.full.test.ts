/**
 * `GpuLodSelector` in Node through Dawn on SwiftShader, full size (`npm run test:full`): a
 * 4,194,432-object scene, one walking frame, past one row of workgroups (the kernel's 2D dispatch),
 * every object checked against the float32 reference. The rest is in node.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunnerResult } from '../../helpers/dawnSelectRunner.js';
import { buildRunner, checkFrames, ENV, HAS_PACKAGE, runChild } from './dawnHarness.js';

describe.skipIf(!HAS_PACKAGE || ENV.icd == null)('GpuLodSelector in Node (Dawn, Vulkan), full size', () => {
  let r: RunnerResult;
  let usable = false;

  beforeAll(async () => {
    await buildRunner();
    r = await runChild({ scenes: [{ seed: 4242, n: 4_194_432, h: 0, frames: 1 }] }, ENV.env);
    if (r.crashed) throw new Error(r.reason);
    usable = r.ok;
    if (!usable) console.warn(`[webgpu-node] SKIPPED GPU selection in Node: no working adapter (${r.reason}) ${r.adapter}`);
  }, 300_000);

  it('2D dispatch: 4,194,432 objects (65,538 workgroups of 64: 65,535 × 2) one walking frame, every object checked', (ctx) => {
    if (!usable) ctx.skip();
    const big = r.scenes!.find((s) => s.frames !== undefined)!;
    expect(big.n).toBeGreaterThan(65_535 * 64); // past one row of workgroups
    expect(big.checks.map((f) => f.label)).toEqual(['walk 0']);
    checkFrames(big);
    expect(r.errors).toEqual([]);
  });
});
