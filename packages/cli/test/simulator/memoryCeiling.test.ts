/**
 * Peak memory at the ceilings (issue 24): a scene at `SIMULATE_LIMITS.frameRecords` (100,000
 * frames × 4 policies, shot labels as long as the output ceiling allows) runs in a child Node with
 * a 1 GB heap, prints `--json` and writes `--out`, and its peak resident set stays under 1 GB.
 * The finding's scene (32 policies × 100,000 frames, 1.8 GB and `Invalid string length`) exits 2
 * before simulating. The child prints `process.resourceUsage().maxRSS` (KiB) on its last line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateOutputChars, SIMULATE_LIMITS } from '../../src/simulator/limits.js';
import type { SceneInput } from '../../src/simulator/sceneFormat.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILT = join(ROOT, 'dist/tools/cli/main.js');
/** Sources whose changes this test must see in dist/. */
const SOURCES = ['src/tools/cli/main.ts', 'src/tools/cli/commands/simulate.ts', 'src/simulator/simulate.ts', 'src/simulator/limits.ts', 'src/simulator/files.ts', 'src/simulator/report/html.ts'];
const GIB_KIB = 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'lodkit-memory-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(() => {
  const newest = Math.max(...SOURCES.map((f) => statSync(join(ROOT, f)).mtimeMs));
  if (!existsSync(BUILT) || statSync(BUILT).mtimeMs < newest) execFileSync('npm', ['run', 'build'], { cwd: ROOT });
}, 120_000);

/** Runs `lodkit simulate ARGS` in a child with a 1 GB heap; stdout goes nowhere (it is ~100 MB). */
function simulateInChild(args: string[]): { status: number | null; maxRssKiB: number; stderr: string } {
  const script = `const { main } = await import(${JSON.stringify(pathToFileURL(BUILT).href)});
const code = await main(['node', 'lodkit', 'simulate', ...${JSON.stringify(args)}]);
process.stderr.write('\\n' + JSON.stringify({ code, maxRSS: process.resourceUsage().maxRSS }) + '\\n');
process.exitCode = code;`;
  const child = spawnSync(process.execPath, ['--max-old-space-size=1024', '--input-type=module', '-e', script], {
    cwd: work, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
  });
  const last = child.stderr.trim().split('\n').pop() ?? '{}';
  const { maxRSS } = JSON.parse(last.startsWith('{') ? last : '{}') as { maxRSS?: number };
  return { status: child.status, maxRssKiB: maxRSS ?? Infinity, stderr: child.stderr };
}

function limitsScene(policies: number, shot: number): SceneInput {
  const keyframe = (time: number, z: number, label: string) => ({ time, position: [0, 0, z] as [number, number, number], target: [0, 0, -1] as [number, number, number], fovY: 90, viewport: [100, 100] as [number, number], shot: label });
  return {
    format: 'lodkit-scene', version: 1, name: 'at the limits', fps: 1000, duration: 100,
    profiles: { p: { metric: 'pixels', thresholds: [20, 5], triangles: [1000, 100, 10] } },
    objects: Array.from({ length: 10 }, (_, i) => ({ profile: 'p', center: [0, 0, -2 - 5 * i] as [number, number, number], radius: 1 })),
    camera: { keyframes: [keyframe(0, 0, 'a'.repeat(shot)), keyframe(100, 5, 'b'.repeat(shot))] },
    policies: [
      { name: 'screen', policy: 'thresholds' }, { name: 'half', policy: 'thresholds', bias: 0.5 },
      { name: 'rank', policy: 'rankQuota', quotas: [2, 3] }, { name: 'budget', policy: 'budget', budget: 2000 },
      ...Array.from({ length: policies - 4 }, (_, i) => ({ name: `extra ${i}`, policy: 'thresholds' as const })),
    ],
  };
}

describe('peak memory at the ceilings', () => {
  it('100,000 frames × 4 policies (= frameRecords) with --json and --out: exit 0, maxRSS < 1 GiB', () => {
    // The longest shot label the output ceiling allows for 400,000 records of 3-level histograms
    // over 10 objects (3 characters per count), less 4 for the quotes and a margin.
    const records = 100_000 * 4;
    expect(records).toBe(SIMULATE_LIMITS.frameRecords);
    const shot = Math.floor((SIMULATE_LIMITS.outputChars - 1_000_000) / records) - 260 - 9 - 2;
    const size = { frames: 100_000, policies: 4, objects: 10, maxLevels: 3, profileLevels: 3, profileNameChars: 3, shotChars: shot + 2 };
    expect(estimateOutputChars(size)).toBeLessThanOrEqual(SIMULATE_LIMITS.outputChars);
    writeFileSync(join(work, 'limits.json'), JSON.stringify(limitsScene(4, shot)));
    const run = simulateInChild(['limits.json', '--json', '--no-progress', '--out', 'report']);
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(run.maxRssKiB).toBeLessThan(GIB_KIB);
    expect(statSync(join(work, 'report/result.json')).size).toBeLessThan(SIMULATE_LIMITS.outputChars);
  }, 300_000);

  it('the finding: 32 policies × 100,000 frames exits 2 naming the product, with a small peak', () => {
    writeFileSync(join(work, 'finding.json'), JSON.stringify(limitsScene(32, 1)));
    const run = simulateInChild(['finding.json', '--json', '--no-progress']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('fps × duration × policies = 100,000 × 32 = 3,200,000 frame records exceeds the limit of 400,000');
    expect(run.maxRssKiB).toBeLessThan(GIB_KIB / 4);
  }, 120_000);
});
