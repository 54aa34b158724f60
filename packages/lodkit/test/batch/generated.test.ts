/**
 * The generated sources match their sources (scripts/generate.mjs `--check`): the WebAssembly
 * bytes their WAT text with core/layout.ts's constants, the JavaScript kernels the rule's
 * template. And `--check` does fail on drift: a copy of the generator's inputs with one generated
 * file edited is refused.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const GENERATED = [
  'src/batch/wasm/heightKernel.generated.ts', 'src/batch/wasm/fusedKernel.generated.ts',
  'src/batch/kernels/thresholdKernels.generated.ts', 'src/batch/kernels/mappedKernels.generated.ts',
  'src/batch/kernels/singleKernels.generated.ts', 'src/batch/kernels/nextKernels.generated.ts', 'src/batch/kernels/metricKernels.generated.ts',
];

describe('generated sources (scripts/generate.mjs)', () => {
  it('every generated file is what its source gives (--check)', () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'generate.mjs'), '--check'], { cwd: ROOT, stdio: 'pipe' });
  });

  it('every generated file says where it comes from and not to edit it', () => {
    for (const file of GENERATED) expect(readFileSync(join(ROOT, file), 'utf8').split('\n')[0]).toMatch(/^\/\/ Generated from \S+ .*by scripts\/generate\.mjs.*: do not edit\.$/);
  });

  it('--check fails when a generated file drifts from its template', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lodkit-generate-'));
    try {
      cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
      for (const sub of ['core', 'wasm', 'kernels']) cpSync(join(ROOT, 'src', 'batch', sub), join(dir, 'src', 'batch', sub), { recursive: true });
      symlinkSync(join(ROOT, '..', '..', 'node_modules'), join(dir, 'node_modules'), 'dir');
      const run = () => spawnSync(process.execPath, [join(dir, 'scripts', 'generate.mjs'), '--check'], { cwd: dir, encoding: 'utf8' });
      expect(run().status).toBe(0);
      const file = join(dir, 'src', 'batch', 'kernels', 'mappedKernels.generated.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace('if (f < lo) f = lo;', 'if (f < lo) f = lo + 0;'));
      const drifted = run();
      expect(drifted.status).toBe(1);
      expect(drifted.stderr).toContain('src/batch/kernels/mappedKernels.generated.ts is out of date');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
