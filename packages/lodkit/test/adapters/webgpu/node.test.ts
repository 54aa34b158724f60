/**
 * `GpuLodSelector` in Node through Dawn (the npm package `webgpu`) on SwiftShader's Vulkan driver
 * (Debian's chromium package ships it): hand-worked frames, seeded scenes over a camera path
 * (perspective walk with hysteresis, bias, orthographic, two and three views), GPU levels vs the
 * float32 reference except the counted near-threshold cases, indirect instance counts vs per-level
 * counts, id lists vs levels, a 4.2M-object scene past one row of workgroups (the kernel's 2D
 * dispatch), a fast-check property over random cameras, and a smoke run of the WebGPU bench.
 *
 * The GPU work runs in a child process (test/helpers/dawnSelectRunner.ts, bundled here with Vite)
 * because Dawn finds the Vulkan loader through `LD_LIBRARY_PATH`, which only a new process reads
 * (test/helpers/dawnDevice.ts). Skips with a `[webgpu-node] SKIPPED` notice when the package, the
 * driver or a working adapter is missing; the child proves the adapter computes with a known kernel
 * first, so Dawn's `null` backend (which computes nothing) is rejected, and a test checks that.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dawnEnvironment } from '../../helpers/dawnDevice.js';
import type { RunnerJob, RunnerResult } from '../../helpers/dawnSelectRunner.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const OUT = join(ROOT, 'test-artifacts', 'webgpu-node-dist');
const RUNNER = join(OUT, 'dawnSelectRunner.mjs');

function hasWebgpuPackage(): boolean {
  try { createRequire(join(ROOT, 'package.json')).resolve('webgpu'); return true; } catch { return false; }
}
const HAS_PACKAGE = hasWebgpuPackage();
const ENV = dawnEnvironment();
if (!HAS_PACKAGE) console.warn('[webgpu-node] SKIPPED GPU selection in Node: the "webgpu" package is not installed (a root devDependency: run npm ci).');
else if (ENV.icd == null) console.warn(`[webgpu-node] SKIPPED GPU selection in Node: ${ENV.reason}.`);

/** Runs the bundled runner in a child with `env`; returns its result line. */
function runChild(job: RunnerJob, env: Record<string, string>): Promise<RunnerResult> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [RUNNER, JSON.stringify(job)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith('@@lodkit-gpu '));
      if (line === undefined) { fail(new Error(`runner exited (code ${code}, signal ${signal}) without a result\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`)); return; }
      ok(JSON.parse(line.slice('@@lodkit-gpu '.length)) as RunnerResult);
    });
  });
}

let built: Promise<void> | null = null;
function buildRunner(): Promise<void> {
  built ??= (async () => {
    mkdirSync(OUT, { recursive: true });
    const { build } = await import('vite');
    await build({
      configFile: false, root: ROOT, logLevel: 'error',
      build: {
        ssr: join(ROOT, 'test/helpers/dawnSelectRunner.ts'), outDir: OUT, emptyOutDir: true, target: 'node20', minify: false,
        rollupOptions: { output: { entryFileNames: '[name].mjs' } },
      },
    });
  })();
  return built;
}

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
    r = await runChild({ scenes: [{ seed: 2024, n: 40_000, h: 0.1 }, { seed: 77, n: 25_000, h: 0 }, { seed: 4242, n: 4_194_432, h: 0, frames: 1 }], propertyRuns: 40, benchSizes: [60_000, 10_000_000] }, ENV.env);
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

  /** Asserts one scene's frames; returns its near-threshold count. */
  function checkFrames(s: NonNullable<RunnerResult['scenes']>[number]): number {
    let near = 0, nearMismatches = 0, holds = 0;
    for (const f of s.checks) {
      const at = `seed ${s.seed}, ${f.label}`;
      expect([f.mismatches, f.countErrors, f.listErrors, f.argErrors], at).toEqual([0, 0, 0, 0]);
      expect(f.visible, `${at}: the pose sees a real part of the scene`).toBeGreaterThan(500);
      expect(f.perLevel.filter((c) => c > 0).length, `${at} uses several levels`).toBeGreaterThanOrEqual(3);
      near += f.near; nearMismatches += f.nearMismatches; holds += f.holds;
    }
    console.info(`[webgpu-node] seed ${s.seed}: ${s.checks.length} frames × ${s.n} objects, h ${s.h}: near-threshold ${near}, of which differing ${nearMismatches}; hysteresis holds ${holds}`);
    if (s.h > 0) expect(holds, 'the band is exercised').toBeGreaterThan(0);
    else expect(holds).toBe(0);
    // "Near" stays a few ulps wide, not a loophole: well under 0.1% of the object-frames.
    expect(near).toBeLessThan(s.n * s.checks.length * 1e-3);
    return near;
  }

  it('seeded scenes over the camera path: GPU = float32 reference except counted near-threshold cases; counts and lists', (ctx) => {
    if (!usable) ctx.skip();
    const path = r.scenes!.filter((s) => s.frames === undefined);
    expect(path).toHaveLength(2);
    for (const s of path) {
      expect([...new Set(s.checks.map((f) => f.label.replace(/ \d+$/, '')))]).toEqual(['walk', 'walk, bias 1.5', 'ortho', 'two views', 'three views']);
      checkFrames(s);
    }
    expect(r.errors).toEqual([]);
  });

  it('2D dispatch: 4,194,432 objects (65,538 workgroups of 64: 65,535 × 2) one walking frame, every object checked', (ctx) => {
    if (!usable) ctx.skip();
    const big = r.scenes!.find((s) => s.frames !== undefined)!;
    expect(big.n).toBeGreaterThan(65_535 * 64); // past one row of workgroups
    expect(big.checks.map((f) => f.label)).toEqual(['walk 0']);
    checkFrames(big);
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
