/**
 * The seeded fuzzer, quick size (fuzzHarness.ts has the rules every input must keep): mutated
 * glTF, GLB and scene files through `lodkit gltf lod` and `lodkit simulate`, ≈ 10 s.
 * `npm run test:full` runs 10,000 (fuzz.full.test.ts). `LODKIT_FUZZ_RUNS=<n>` changes the count;
 * `LODKIT_FC_SEED=random` draws fresh inputs (the failure prints the seed to replay).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runFuzz } from './fuzzHarness.js';

const RUNS = Number(process.env.LODKIT_FUZZ_RUNS ?? 1000);

it(`${RUNS} mutated inputs: exit 0 or 2, no stack trace, nothing left on failure, no canary, inputs unchanged`, async () => {
  const tally = await runFuzz(mkdtempSync(join(tmpdir(), 'lodkit-fuzz-')), RUNS);
  expect(tally.runs).toBe(RUNS);
  // Both outcomes are common: a fuzzer whose mutations all die at the GLB header, or all pass
  // unnoticed, tests little (fixed seed, 1,000 inputs: 1,799 commands, 393 exit 0, 1,406 exit 2).
  expect(tally.exit0).toBeGreaterThan(tally.commands / 10);
  expect(tally.exit2).toBeGreaterThan(tally.commands / 2);
  console.log(`fuzz: ${tally.runs} inputs, ${tally.commands} commands (${tally.exit0} exit 0, ${tally.exit2} exit 2)`);
}, 600_000);
