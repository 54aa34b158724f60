import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { assertFreshDist } from './dist.js';

export interface ProbeResult { bytes: number }

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs an allocation probe script (see measureAllocation.mjs) in a plain `node` process against the
 * built package, after checking that dist/ is newer than every source. `npm test` builds first (the
 * `pretest` script).
 */
export function runAllocationProbe(script: string): Record<string, ProbeResult> {
  assertFreshDist(ROOT);
  const stdout = execFileSync(process.execPath, [join(ROOT, script)], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(stdout) as Record<string, ProbeResult>;
}
