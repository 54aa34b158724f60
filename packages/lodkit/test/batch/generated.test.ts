/**
 * The generated sources match their sources (scripts/generate.mjs `--check`): the WebAssembly
 * bytes their WAT text with core/layout.ts's constants, the JavaScript kernels the rule's
 * template. And `--check` does fail on drift: a copy of the generator's inputs with one generated
 * file edited is refused. And core/layout.ts's regions do not overlap.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as L from '../../src/batch/core/layout.js';
import { COLLECT_ON } from '../../src/batch/passes/fusedCollect.js';

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

  it('a WAT part included with values: its @if / @else / @endif lines and @{key} give that variant', async () => {
    const gen = await import(join(ROOT, 'scripts', 'generate.mjs') as string) as {
      expandVariant(text: string, values: Record<string, unknown>, file: string): string; expandIncludes(file: string): string;
    };
    const part = ['a @{name}', ';; @if hybrid', 'h', ';; @if hybrid > 1', 'h2', ';; @endif', ';; @else', 'b', ';; @endif', 'z'].join('\n');
    expect(gen.expandVariant(part, { name: 'budget', hybrid: 0 }, 'x')).toBe('a budget\nb\nz');
    expect(gen.expandVariant(part, { name: 'both', hybrid: 1 }, 'x')).toBe('a both\nh\nz');
    expect(gen.expandVariant(part, { name: 'more', hybrid: 2 }, 'x')).toBe('a more\nh\nh2\nz');
    expect(() => gen.expandVariant(';; @if 1\nx', {}, 'x')).toThrow(/without @endif/);
    expect(() => gen.expandVariant(';; @else', {}, 'x')).toThrow(/without @if/);
    // the fused kernel holds the budget classification twice: the budget policy's and hybrid's modes, one $clearBlend
    const fused = gen.expandIncludes('fusedKernel.wat');
    expect([fused.split('(func (export "budget")').length, fused.split('(func (export "budgetHybrid")').length, fused.split('(func $clearBlend').length]).toEqual([2, 2, 2]);
    expect(fused).not.toMatch(/@\{|;; @(if|else|endif)/);
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

describe('core/layout.ts', () => {
  it('the WebAssembly memory regions follow each other without overlap', () => {
    expect(L.WASM_MAX_VIEWS * L.WASM_VIEW_BYTES).toBeLessThanOrEqual(L.SPLATS);
    expect(L.VB * 8).toBe(L.WASM_VIEW_BYTES); // (ClusterIndex.wasmParams: 32 float64 per view)
    expect(L.SPLATS + L.WASM_MAX_VIEWS * L.SPLAT_BYTES).toBeLessThanOrEqual(L.FUSED_BLOCK);
    expect(L.SPLAT_DMAX + 16).toBeLessThanOrEqual(L.SPLAT_BYTES);
    expect(L.FUSED_BLOCK + L.FB_BYTES).toBeLessThanOrEqual(L.SP_OFFSET);
  });

  it('the frame block fields are in order, aligned, inside the block, and the collection switch is where fusedCollect.ts writes it', () => {
    // [offset, bytes] of every field, in layout order (arrays at their full size)
    const fields: [number, number][] = [
      [L.FB_THRESHOLDS, 32], [L.FB_BLEND_THRESHOLDS, 32], [L.FB_BIAS, 8], [L.FB_MARKER, 8], [L.FB_N, 4], [L.FB_NB, 4], [L.FB_LO, 4], [L.FB_HI, 4],
      [L.FB_DESCENDING, 4], [L.FB_UFRAC, 4], [L.FB_HIDDEN, 4], [L.FB_REDO_COUNT, 4], [L.FB_RECHECKED, 4], [L.FB_EXACT, 4], [L.FB_REDONE, 4], [L.FB_HELD, 4],
      [L.FB_LEVEL_COUNTS, 32], [L.FB_REDO_SLOTS, 68 * 4], [L.FB_HYSTERESIS, 8], [L.FB_HOLDS, 4], [L.FB_SLOTS_RUN, 4], [L.FB_NEXT_MODE, 4], [L.FB_NEXT_OUT, 4],
      [L.FB_MOVED, 4], [L.FB_SLOT_SIZES, 4], [L.FB_HELD_COUNTS, 20], [L.FB_OWE_BLENDS, 4], [L.FB_OWED_COUNT, 4], [L.FB_COLLECT, 4], [L.FB_COLLECT_FLOOR, 4],
      [L.FB_COLLECT_VMAX, 8], [L.FB_COLLECT_SCALE, 8], [L.FB_SETTLED, 4], [L.FB_STABLE_PREV, 20], [L.FB_STABLE_START, 20], [L.FB_STABLE, 4],
      [L.FB_LANE_ROWS, 16], [L.FB_ROW_COUNTS, 25 * 4], [L.FB_ROW_RANGES, 25 * 8 * 16], [L.FB_ROW_STARTS, 25 * 8 * 4],
    ];
    let end = 0;
    for (const [offset, bytes] of fields) {
      expect(offset).toBeGreaterThanOrEqual(end);
      expect(offset % (bytes % 8 === 0 && bytes <= 16 ? Math.min(bytes, 8) : 4)).toBe(0);
      end = offset + bytes;
    }
    expect(end).toBeLessThanOrEqual(L.FB_BYTES);
    expect([L.OWE_BLENDS, L.OWED_BLEND_COUNT, COLLECT_ON]).toEqual([L.FB_OWE_BLENDS / 4, L.FB_OWED_COUNT / 4, L.FB_COLLECT / 4]);
  });
});
