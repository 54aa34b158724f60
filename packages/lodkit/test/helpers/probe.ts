import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface ProbeResult { bytes: number }

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs an allocation probe script (see measureAllocation.mjs) in a plain `node` process against the
 * built package. `npm test` builds first (the `pretest` script).
 */
export function runAllocationProbe(script: string): Record<string, ProbeResult> {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it in pretest)');
  const stdout = execFileSync(process.execPath, [join(ROOT, script)], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(stdout) as Record<string, ProbeResult>;
}
