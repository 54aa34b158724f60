/**
 * The `lodkit` CLI: exit codes, messages, `--json` schema, determinism, and the HTML report.
 * Most tests call `main(argv, context)` in-process with captured streams; one spawns the built
 * `dist/tools/cli/main.js` (built here first when missing or stale) to check the real process exit code.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { main } from '../../src/tools/cli/main.js';
import type { CliContext } from '../../src/tools/cli/context.js';
import { tinyStaticScene } from '../simulator/fixtures.js';

const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'lodkit-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Captured { code: number; stdout: string; stderr: string }

async function cli(args: string[], tty = false): Promise<Captured> {
  let stdout = '', stderr = '';
  const context: CliContext = {
    stdout: { write: (s: string) => { stdout += s; return true; }, isTTY: tty },
    stderr: { write: (s: string) => { stderr += s; return true; }, isTTY: tty },
    cwd: work,
  };
  const code = await main(['node', 'lodkit', ...args], context);
  return { code, stdout, stderr };
}

/** The documented `--json` document, written independently of the implementation's types. */
const frameSchema = z.strictObject({
  frame: z.number().int().nonnegative(),
  time: z.number(),
  shot: z.string(),
  cost: z.number().nonnegative(),
  overBudget: z.boolean(),
  qualityLoss: z.number().nonnegative(),
  screenSpaceLoss: z.number().nonnegative(),
  gpuMs: z.number().positive(),
  budget: z.number().nullable(),
  changes: z.number().int().nonnegative(),
  levelsHistogram: z.array(z.number().int().nonnegative()),
  hidden: z.number().int().nonnegative(),
});
const summarySchema = z.strictObject({
  meanCost: z.number(), worstCost: z.number(), worstCostFrame: z.number().int(), worstCostShot: z.string(),
  framesOverBudget: z.number().int().nullable(), qualityLossMean: z.number(), qualityLossWorst: z.number(),
  qualityLossWorstFrame: z.number().int(), totalChanges: z.number().int(), popsPerSecond: z.number(),
  screenSpaceLossMean: z.number(), screenSpaceLossWorst: z.number(), gpuMsMean: z.number(), gpuMsWorst: z.number(),
  frameTime: z.strictObject({
    targetMs: z.number(), settledFrames: z.number().int(), idleFrames: z.number().int(), withinBand: z.number(), overBand: z.number(),
    recovery: z.array(z.strictObject({ time: z.number(), frames: z.number().int().nullable() })),
    autocorrelation: z.array(z.number()).length(30), minAutocorrelation: z.number(),
  }).nullable(),
  framesBudgetInfeasible: z.number().int(), invalidObjectFrames: z.number().int(),
});
const resultSchema = z.strictObject({
  format: z.literal('lodkit-simulation'),
  version: z.literal(2),
  scene: z.strictObject({
    name: z.string(), description: z.string(), seed: z.number().nullable(), objects: z.number().int(),
    profiles: z.record(z.string(), z.strictObject({
      objects: z.number().int(), metric: z.string(), thresholds: z.array(z.number()), triangles: z.array(z.number()),
      errors: z.array(z.number().nonnegative()),
      quality: z.strictObject({ metric: z.string(), thresholds: z.array(z.number()) }),
    })),
    parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    startTime: z.number(), duration: z.number(), frames: z.number().int(), fps: z.number(), budget: z.number().nullable(),
    shots: z.array(z.strictObject({ shot: z.string(), startTime: z.number() })),
    tolerance: z.number().nonnegative(),
    gpu: z.strictObject({
      overheadMs: z.number(), msPerTriangle: z.number(), msPerDraw: z.number(), noise: z.number(),
      spikes: z.array(z.strictObject({ start: z.number(), end: z.number(), factor: z.number() })),
    }),
  }),
  qualityLossUnit: z.literal('px·levels'),
  screenSpaceLossUnit: z.literal('px'),
  policies: z.array(z.strictObject({
    name: z.string(),
    policy: z.enum(['thresholds', 'rankQuota', 'budget', 'hybrid']),
    options: z.strictObject({
      bias: z.number(), hysteresis: z.number(), minFramesBetweenChanges: z.number(), budget: z.number().nullable(),
      quotas: z.array(z.number()).nullable(), quotaScope: z.enum(['profile', 'scene']).nullable(),
      minLevel: z.number(), maxLevel: z.number(),
      frameMs: z.number().nullable(), stabilityBand: z.number(), trimOverdraw: z.boolean(),
      profiles: z.record(z.string(), z.strictObject({ metric: z.string(), thresholds: z.array(z.number()), blendThresholds: z.array(z.number()) })),
    }),
    summary: summarySchema,
    frames: z.array(frameSchema),
  })).min(1),
});

describe('lodkit CLI: help and usage errors', () => {
  it('--help for the program and for simulate exit 0', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/simulate \[options\] \[scene\]/);
    const sim = await cli(['simulate', '--help']);
    expect(sim.code).toBe(0);
    for (const flag of ['--scenario', '--policy', '--budget', '--frames', '--json', '--out', '--debug']) expect(sim.stdout).toContain(flag);
    expect((await cli(['help', 'simulate'])).code).toBe(0);
  });

  it.each([
    [['simulate', '--bogus'], /unknown option '--bogus'/],
    [['simulate', '--scenario', 'monaco'], /Allowed choices are motogp, flightsim, forest/],
    [['simulate', '--frames', '0'], /expected a positive integer/],
    [['simulate', '--frames', '2.5'], /expected a positive integer/],
    [['simulate', '--budget', '-3'], /expected a positive number/],
    [['simulate', 'missing.json'], /^lodkit: cannot read scene file missing\.json/],
    [['simulate', 'x.json', '--scenario', 'motogp'], /give a scene file or --scenario, not both/],
    [['simulate', '--policy', 'nope'], /unknown policy "nope"/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [[], /Usage: lodkit/],
  ])('%j exits 2 with a message on stderr and no stack', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('an invalid scene file exits 2 naming each JSON path; --debug adds the stack', async () => {
    const bad = structuredClone(tinyStaticScene()) as any;
    bad.profiles.p.thresholds = [5, 20];
    bad.camera.keyframes[0].fovY = 0;
    writeFileSync(join(work, 'bad.json'), JSON.stringify(bad));
    const r = await cli(['simulate', 'bad.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lodkit: invalid bad\.json:\n/);
    expect(r.stderr).toContain('camera.keyframes[0].fovY: Too small: expected number to be >0');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    writeFileSync(join(work, 'bad2.json'), JSON.stringify({ ...tinyStaticScene(), profiles: { p: { metric: 'pixels', thresholds: [5, 20], triangles: [3, 2, 1] } } }));
    const r2 = await cli(['simulate', 'bad2.json', '--debug']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('profiles.p.thresholds[1]: expected strictly descending thresholds');
    expect(r2.stderr).toMatch(/\n\s+at /);
    writeFileSync(join(work, 'broken.json'), '{"format": "lodkit-scene",');
    const r3 = await cli(['simulate', 'broken.json']);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/\(root\): expected valid JSON/);
  });
});

describe('lodkit simulate: output', () => {
  it('prints the comparison table by default (no progress bar when not a TTY)', async () => {
    const r = await cli(['simulate', '--frames', '60']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^lodkit simulate — motogp: 48 objects, 60 frames over 26 s, budget 450,000 triangles/);
    expect(r.stdout).toMatch(/\| policy +\| mean tris \| worst tris \| worst shot +\| frames > budget \| quality loss mean \| quality loss worst \| pops\/s \| select ms\/frame \|/);
    for (const name of ['screen size 80/20 px', 'distance 30/120 m', 'rank quota [4, 6]', 'budget 450k', 'hybrid 450k']) expect(r.stdout).toContain(`| ${name}`);
    expect(r.stderr).toBe('');
  });

  it('--json prints one document matching the documented schema, without timings', async () => {
    const r = await cli(['simulate', '--scenario', 'flightsim', '--frames', '45', '--json']);
    expect(r.code).toBe(0);
    const doc = resultSchema.parse(JSON.parse(r.stdout));
    expect(doc.scene.name).toBe('flightsim');
    for (const p of doc.policies) {
      expect(p.frames).toHaveLength(45);
      expect(p.frames.map((f) => f.frame)).toEqual([...Array(45).keys()]);
      for (const f of p.frames) expect(f.levelsHistogram).toHaveLength(5);
    }
    expect(r.stderr).toBe('');
  });

  it('--json is deterministic: two runs print identical bytes; --timings adds a separate field', async () => {
    const args = ['simulate', '--frames', '120', '--json', '--policy', 'budget 450k,rankQuota', '--budget', '300000'];
    const a = await cli(args);
    const b = await cli(args);
    expect(a.stdout).toBe(b.stdout);
    const doc = JSON.parse(a.stdout);
    expect(doc.policies.map((p: { policy: string }) => p.policy)).toEqual(['rankQuota', 'budget']);
    expect(doc.scene.budget).toBe(300000);
    const timed = JSON.parse((await cli([...args, '--timings'])).stdout);
    expect(Object.keys(timed.timings)).toEqual(['rank quota [4, 6]', 'budget 450k']);
    expect(timed.timings['budget 450k'].meanMs).toBeGreaterThan(0);
    delete timed.timings;
    expect(timed).toEqual(doc);
  });

  it('runs a scene file, and --save-scene round-trips a built-in scenario', async () => {
    writeFileSync(join(work, 'tiny.json'), JSON.stringify(tinyStaticScene()));
    const r = await cli(['simulate', 'tiny.json', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).policies[0].frames[0].cost).toBe(1110);
    const saved = await cli(['simulate', '--scenario', 'flightsim', '--frames', '10', '--save-scene', 'flight.json', '--json']);
    expect(saved.code).toBe(0);
    const replay = await cli(['simulate', 'flight.json', '--frames', '10', '--json']);
    expect(replay.stdout).toBe(saved.stdout);
  });

  it('--out writes a self-contained report atomically and says where it is', async () => {
    const r = await cli(['simulate', '--frames', '90', '--out', 'report']);
    expect(r.code).toBe(0);
    const dir = join(work, 'report');
    expect(r.stdout).toContain(`report written to ${join(dir, 'index.html')}`);
    expect(readdirSync(dir).sort()).toEqual(['index.html', 'result.json']); // no temporary files left
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('Chart.js v4.6.1'); // the UMD build, inlined
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    for (const id of ['cost', 'loss', 'pops']) expect(html).toContain(`<canvas id="${id}">`);
    for (const name of ['rank quota [4, 6]', 'TV telephoto', 'budget 450k']) expect(html).toContain(name);
    const json = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    expect(json.scene.frames).toBe(90);
    // With --json the report path goes to stderr, the document alone to stdout.
    const j = await cli(['simulate', '--frames', '30', '--out', 'report2', '--json']);
    expect(() => JSON.parse(j.stdout)).not.toThrow();
    expect(j.stderr).toContain('report written to');
  });
});

describe('the built CLI as a process', () => {
  const bin = join(ROOT, 'bin/lodkit.js');
  const built = join(ROOT, 'dist/tools/cli/main.js');
  beforeAll(() => {
    const stale = !existsSync(built) || statSync(built).mtimeMs < statSync(join(ROOT, 'src/tools/cli/main.ts')).mtimeMs;
    if (stale) execFileSync('npm', ['run', 'build'], { cwd: ROOT });
  }, 120_000);

  it('starts with a node shebang and exits 0 / 2 as a real process', () => {
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const ok = spawnSync(process.execPath, [bin, 'simulate', '--frames', '20', '--json'], { cwd: work, encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(resultSchema.safeParse(JSON.parse(ok.stdout)).success).toBe(true);
    const bad = spawnSync(process.execPath, [bin, 'simulate', '--frames', 'x'], { cwd: work, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/argument 'x' is invalid/);
  });

  it('package.json exposes it as the lodkit bin', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.bin).toEqual({ lodkit: './bin/lodkit.js' });
    expect(pkg.files).toContain('bin');
  });
});
