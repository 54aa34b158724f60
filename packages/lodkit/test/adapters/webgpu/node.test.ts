/**
 * `GpuLodSelector` in Node through Dawn (the npm package `webgpu`) on SwiftShader's Vulkan driver
 * (Debian's chromium package ships it): hand-worked frames, seeded scenes over a camera path
 * (perspective walk with hysteresis, bias, orthographic, two and three views), GPU levels vs the
 * float32 reference except the counted near-threshold cases, indirect instance counts vs per-level
 * counts, id lists vs levels, a fast-check property over random cameras, and a smoke run of the
 * WebGPU bench. The 4.2M-object scene past one row of workgroups (the kernel's 2D dispatch) is in
 * node.full.test.ts (`npm run test:full`): ≈ 60 s of SwiftShader on 2 cores.
 *
 * The GPU work runs in a child process (test/helpers/dawnSelectRunner.ts, bundled here with Vite)
 * because Dawn finds the Vulkan loader through `LD_LIBRARY_PATH`, which only a new process reads
 * (test/helpers/dawnDevice.ts). Skips with a `[webgpu-node] SKIPPED` notice when the package, the
 * driver or a working adapter is missing; the child proves the adapter computes with a known kernel
 * first, so Dawn's `null` backend (which computes nothing) is rejected, and a test checks that.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunnerResult } from '../../helpers/dawnSelectRunner.js';
import { buildRunner, checkFrames, ENV, HAS_PACKAGE, runChild } from './dawnHarness.js';

if (!HAS_PACKAGE) console.warn('[webgpu-node] SKIPPED GPU selection in Node: the "webgpu" package is not installed (a root devDependency: run npm ci).');
else if (ENV.icd == null) console.warn(`[webgpu-node] SKIPPED GPU selection in Node: ${ENV.reason}.`);

describe.skipIf(!HAS_PACKAGE)('Dawn in Node: adapter probe', () => {
  it('rejects Dawn\'s null backend: its adapter fails the known kernel, so nothing can pass on it', async (ctx) => {
    await buildRunner();
    const r = await runChild({ createArgs: ['backend=null'], probeOnly: true }, ENV.env);
    expect(r.crashed).toBeFalsy();
    if (/does not load/.test(r.reason)) {
      // Installed but no prebuilt binary for this platform.
      console.warn(`[webgpu-node] SKIPPED GPU selection in Node: ${r.reason}`);
      ctx.skip();
    }
    expect(r.ok).toBe(false);
    expect(r.reason).toMatch(/computes nothing useful|returned null/);
  }, 120_000);
});

describe.skipIf(!HAS_PACKAGE || ENV.icd == null)('GpuLodSelector in Node (Dawn, Vulkan)', () => {
  let r: RunnerResult;
  let usable = false;

  beforeAll(async () => {
    await buildRunner();
    r = await runChild({ scenes: [{ seed: 2024, n: 40_000, h: 0.1 }, { seed: 77, n: 25_000, h: 0 }], propertyRuns: 40, benchSizes: [60_000, 10_000_000] }, ENV.env);
    if (r.crashed) throw new Error(r.reason);
    usable = r.ok;
    if (!usable) console.warn(`[webgpu-node] SKIPPED GPU selection in Node: no working adapter (${r.reason}) ${r.adapter}`);
    else console.info(`[webgpu-node] adapter: ${r.adapter}${r.software ? ' (software)' : ''}; runner ${r.ms} ms`);
  }, 300_000);

  it('hand-worked pixels frames: levels, bias, hysteresis hold, a second view; one instance count per level', (ctx) => {
    if (!usable) ctx.skip();
    // 1000/d px vs [150, 50]: 200 → 0, 100 → 1, 33.3 → 2, side object culled (255), eye inside → 0.
    expect(r.handWorked![0]).toEqual([0, 1, 2, 255, 0, 2, 1, 1]);
    // bias 2: 400 → 0, 200 → 0, 66.7 → 1.
    expect(r.handWorked![1]).toEqual([0, 0, 1, 255, 0, 3, 1, 0]);
    // bias 1, h 0.6: 100 → 1 but 160 → 0 so level 0 is held; 33.3 → 2 but 53.3 → 1 so level 1 is held.
    expect(r.handWorked![2]).toEqual([0, 0, 1, 255, 0, 3, 1, 0]);
    // Two views, h 0: the side object is seen from the back view at 17.2 px → 2; others keep view 1's max.
    expect(r.handWorked![3]).toEqual([0, 1, 2, 2, 0, 2, 1, 2]);
    expect(r.errors).toEqual([]);
  });

  it('seeded scenes over the camera path: GPU = float32 reference except counted near-threshold cases; counts and lists', (ctx) => {
    if (!usable) ctx.skip();
    const path = r.scenes!;
    expect(path).toHaveLength(2);
    for (const s of path) {
      expect([...new Set(s.checks.map((f) => f.label.replace(/ \d+$/, '')))]).toEqual(['walk', 'walk, bias 1.5', 'ortho', 'two views', 'three views']);
      checkFrames(s);
    }
    expect(r.errors).toEqual([]);
  });

  it('property (fast-check, 40 runs): random cameras and scenes, two frames each, match the reference', (ctx) => {
    if (!usable) ctx.skip();
    expect(r.property?.failure ?? null).toBeNull();
    expect(r.property?.runs).toBe(40);
    // Not vacuous: the random cameras saw thousands of objects, at every level.
    expect(r.property!.visible).toBeGreaterThan(2000);
    expect(r.property!.levelsUsed.every((c) => c > 0), `levels used ${r.property!.levelsUsed.join(', ')}`).toBe(true);
  });

  it('the WebGPU bench (smoke run, default limits): correct at 60k; 10M reported as not fitting a 128 MiB binding; no time quoted on a software adapter', (ctx) => {
    if (!usable) ctx.skip();
    const b = r.bench!;
    const [small, big] = b.sizes;
    expect(small.status).toBe('ok');
    expect(small.check).toMatchObject({ frames: 2, sampled: 40_000, mismatches: 0, countErrors: 0 });
    expect(small.visible).toBe(small.perLevel.reduce((a, c) => a + c, 0));
    expect(small.visible).toBeGreaterThan(10_000);
    // 10M: spheres 160 MB, instance lists 5 × 10M × 4 B = 200 MB > WebGPU's default 128 MiB binding.
    expect(big.status).toBe('skipped');
    expect(big.bindingBytes).toBe(5 * 10_000_000 * 4);
    expect(big.reason).toMatch(/maxStorageBufferBindingSize/);
    if (r.software) {
      expect(b.label).toBe('software adapter: correctness only, times not quoted');
      expect([small.gpuMs, small.wallMs, small.coldMs]).toEqual([null, null, null]);
    }
  });
});
