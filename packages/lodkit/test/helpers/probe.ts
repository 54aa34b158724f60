import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { assertFreshDist } from './dist.js';

export interface ProbeResult { bytes: number }

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * V8 flags of the probe process: the measured loop is compiled synchronously after its warm-up
 * (`%OptimizeFunctionOnNextCall`, measureAllocation.mjs) and every function it calls tiers up on
 * the main thread, so whether a measured run meets unoptimised code no longer depends on the load.
 */
const PROBE_FLAGS = ['--allow-natives-syntax', '--no-concurrent-recompilation'];

/**
 * Runs an allocation probe script (see measureAllocation.mjs) in a plain `node` process against the
 * built package, after checking that dist/ is newer than every source. `npm test` builds first (the
 * `pretest` script).
 */
export function runAllocationProbe(script: string): Record<string, ProbeResult> {
  assertFreshDist(ROOT);
  const stdout = execFileSync(process.execPath, [...PROBE_FLAGS, join(ROOT, script)], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(stdout) as Record<string, ProbeResult>;
}
