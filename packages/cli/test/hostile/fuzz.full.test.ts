/**
 * The seeded fuzzer, full size (`npm run test:full`): 10,000 mutated inputs (the quick file's
 * 1,000 and 9,000 more; ≈ 1.5 min on a 2-core machine). See fuzzHarness.ts for the rules.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runFuzz } from './fuzzHarness.js';

const RUNS = 10_000;

it(`${RUNS} mutated inputs: exit 0 or 2, no stack trace, nothing left on failure, no canary, inputs unchanged`, async () => {
  const tally = await runFuzz(mkdtempSync(join(tmpdir(), 'lodkit-fuzz-full-')), RUNS);
  expect(tally.runs).toBe(RUNS);
  console.log(`fuzz: ${tally.runs} inputs, ${tally.commands} commands (${tally.exit0} exit 0, ${tally.exit2} exit 2)`);
}, 900_000);
