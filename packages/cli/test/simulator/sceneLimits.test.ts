/**
 * The scene cases of the hostile corpus (sceneCorpus.ts) each exit 2 naming their field, and
 * engine errors that the schema does not mirror are re-raised naming the scene path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/tools/cli/main.js';
import type { CliContext } from '../../src/tools/cli/context.js';
import { parseScene, SceneValidationError, type Scene } from '../../src/simulator/sceneFormat.js';
import { simulate } from '../../src/simulator/simulate.js';
import { checkSimulationSize, estimateOutputChars, SIMULATE_LIMITS } from '../../src/simulator/limits.js';
import { sceneCases } from '../fixtures/hostile/sceneCorpus.js';
import { tinyStaticScene } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'lodkit-scene-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const context: CliContext = {
    stdout: { write: (s: string) => { stdout += s; return true; } },
    stderr: { write: (s: string) => { stderr += s; return true; } },
    cwd: dir,
  };
  const code = await main(['node', 'lodkit', ...args], context);
  return { code, stdout, stderr };
}

describe('hostile scene cases (issue 24)', () => {
  const cases = sceneCases(dir);
  it.each(cases.map((c) => [c.file, c] as const))('%s: exit 2 naming the field, nothing on stdout', async (_, c) => {
    const { code, stdout, stderr } = await cli(['simulate', c.file, '--json', '--no-progress', ...(c.args ?? [])]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(c.field);
    expect(stderr.length).toBeLessThan(2000); // no name echoed whole
  });
});

describe('engine errors name the scene path', () => {
  it('a value the schema let through (built in code, not parsed) is reported at its path, not as LodSet.update', () => {
    const scene = parseScene(tinyStaticScene()) as Scene;
    (scene.policies[0] as { hysteresis?: number }).hysteresis = 1.5;
    let error: unknown;
    try { simulate(scene); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(SceneValidationError);
    expect((error as SceneValidationError).issues).toEqual([
      "policies[0].hysteresis: hysteresis must be a number in [0, 1), got 1.5 (the engine's rule)",
    ]);
  });

  it('an addProfile error names the profile', () => {
    const scene = parseScene(tinyStaticScene()) as Scene;
    scene.profiles.p.blendThresholds = [4];
    expect(() => simulate(scene)).toThrow(/profiles\.p\.blendThresholds\[0\]: blendThresholds\[0\] = 4 must lie in \(5, 20\]/);
  });
});

describe('checkSimulationSize', () => {
  const small = { frames: 10, policies: 2, objects: 4, maxLevels: 3, profileLevels: 3, profileNameChars: 3, shotChars: 7 };
  it('passes a small run; the estimate counts records, histograms and per-policy profile lists', () => {
    expect(() => checkSimulationSize(small)).not.toThrow();
    // 20 records × (260 + 7 + 3 × 2) + 3 levels × 24 × (4 + 2 × 2) + (3 + 16) × (1 + 2) = 5460 + 576 + 57.
    expect(estimateOutputChars(small)).toBe(6093);
  });
  it('refuses each product just past its ceiling and accepts it at the ceiling', () => {
    const L = SIMULATE_LIMITS;
    expect(() => checkSimulationSize({ ...small, frames: L.frameRecords / 2, maxLevels: 2, profileLevels: 2 })).not.toThrow();
    expect(() => checkSimulationSize({ ...small, frames: L.frameRecords / 2 + 1 })).toThrow(/frame records exceeds the limit of 400,000/);
    expect(() => checkSimulationSize({ ...small, objects: L.objectRuns / 2 + 1 })).toThrow(/objects × policies = 1,250,001 × 2 = 2,500,002 exceeds/);
    expect(() => checkSimulationSize({ ...small, frames: 1, maxLevels: 255, profileLevels: 65_535 * 255 })).toThrow(/SIMULATE_LIMITS\.outputChars/);
  });
});
