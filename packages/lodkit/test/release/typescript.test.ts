// The supported TypeScript range: a consumer project that imports every public entry type-checks
// against the built .d.ts files (skipLibCheck off, so lodkit's declarations themselves are checked)
// with the oldest supported TypeScript, 5.7.3 (held by the private workspace packages/compat/typescript-5.7,
// nested so the repository's own `tsc` stays the main one), and with the repository's TypeScript.
// TypeScript 5.6 fails on `Float64Array<ArrayBuffer>` (typed arrays became generic in 5.7): 41
// errors in lodkit's .d.ts when last measured, the reason the floor is 5.7.
// WebGPU entries (lodkit/webgpu, lodkit/three/webgpu): TypeScript 6+ declares WebGPU in lib.dom, so
// lodkit's .d.ts carry no reference to @webgpu/types (with one, a TypeScript 7 consumer got 182
// duplicate-declaration errors between lib.dom and @webgpu/types); a TypeScript 5.7–5.9 consumer adds
// "@webgpu/types" to compilerOptions.types (17 "Cannot find name 'GPUDevice'"-style errors without).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist, PACKAGE_ROOT } from '../helpers/dist.js';

const CONSUMER = join(PACKAGE_ROOT, 'test', 'release', 'consumer');
const COMPILERS = {
  '5.7 (minimum)': join(PACKAGE_ROOT, '..', 'compat', 'typescript-5.7', 'node_modules', 'typescript', 'bin', 'tsc'),
  'repository': join(PACKAGE_ROOT, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc'),
};

/** Runs tsc on a consumer tsconfig; returns the version and the errors that point into lodkit or the consumer. */
function check(tsc: string, project: string): { version: string; ours: string[]; status: number | null } {
  const version = spawnSync(process.execPath, [tsc, '-v'], { encoding: 'utf8' }).stdout.trim();
  const run = spawnSync(process.execPath, [tsc, '-p', join(CONSUMER, project)], { cwd: CONSUMER, encoding: 'utf8', timeout: 120_000 });
  const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
  // Peers' own declarations are not lodkit's to fix (@gltf-transform/core 4.5 names Float16Array,
  // which TypeScript's ES2022 lib lacks); every other error counts.
  const ours = lines.filter((l) => !l.includes('node_modules/'));
  return { version, ours, status: run.status };
}

describe('supported TypeScript versions', () => {
  beforeAll(() => assertFreshDist());

  it('the minimum compiler really is TypeScript 5.7', () => {
    expect(spawnSync(process.execPath, [COMPILERS['5.7 (minimum)'], '-v'], { encoding: 'utf8' }).stdout).toMatch(/Version 5\.7\./);
  });

  for (const [label, tsc] of Object.entries(COMPILERS)) {
    it(`TypeScript ${label}: a consumer importing lodkit, lodkit/three and lodkit/gltf type-checks`, () => {
      const result = check(tsc, 'tsconfig.json');
      expect(result.ours, result.version).toEqual([]);
    });

    // TypeScript 6+ brings WebGPU in lib.dom; older ones take it from @webgpu/types.
    const webgpuProject = label === 'repository' ? 'tsconfig.webgpu.json' : 'tsconfig.webgpu-types.json';
    it(`TypeScript ${label}: a consumer importing lodkit/webgpu and lodkit/three/webgpu type-checks (${webgpuProject})`, () => {
      const result = check(tsc, webgpuProject);
      expect(result.ours, result.version).toEqual([]);
      expect(result.status, result.version).toBe(0);
    });

    it(`TypeScript ${label}: a real type error against lodkit's declarations is reported`, () => {
      const result = check(tsc, 'tsconfig.broken.json');
      expect(result.status).not.toBe(0);
      expect(result.ours.length).toBeGreaterThan(0);
      expect(result.ours.every((l) => l.includes('broken.ts'))).toBe(true);
    });
  }
});
