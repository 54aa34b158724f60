/**
 * What the Dawn-in-Node tests share (node.test.ts, node.full.test.ts): the runner bundle
 * (test/helpers/dawnSelectRunner.ts, built with Vite), the child process that runs it with the
 * Vulkan loader's environment, and the per-scene frame checks. See node.test.ts for why the GPU
 * work runs in a child.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { dawnEnvironment } from '../../helpers/dawnDevice.js';
import type { RunnerJob, RunnerResult } from '../../helpers/dawnSelectRunner.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const OUT = join(ROOT, 'test-artifacts', 'webgpu-node-dist');
const RUNNER = join(OUT, 'dawnSelectRunner.mjs');

function hasWebgpuPackage(): boolean {
  try { createRequire(join(ROOT, 'package.json')).resolve('webgpu'); return true; } catch { return false; }
}
export const HAS_PACKAGE = hasWebgpuPackage();
export const ENV = dawnEnvironment();

/** Runs the bundled runner in a child with `env`; returns its result line. */
export function runChild(job: RunnerJob, env: Record<string, string>): Promise<RunnerResult> {
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
export function buildRunner(): Promise<void> {
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

/** Asserts one scene's frames; returns its near-threshold count. */
export function checkFrames(s: NonNullable<RunnerResult['scenes']>[number]): number {
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
