/**
 * One fast-check seed for the whole suite, so every property test draws the same cases on every
 * run and a red run is a bug, not bad luck. Loaded by both packages' vitest configs (`setupFiles`).
 *
 * - default: the fixed {@link FIXED_SEED}; non-vacuity counts are then exact (`expectNonVacuous`).
 * - `LODKIT_FC_SEED=random npm test`: a fresh seed per test file, drawn here; a failing property
 *   prints it with its path (`seed: …, path: …`), and a non-vacuity count below its minimum names it
 *   too (a count has no shrunk case to print): replay either with `LODKIT_FC_SEED=<seed>`.
 * - `LODKIT_FC_SEED=<integer>`: that seed.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

/** The suite's seed when `LODKIT_FC_SEED` is unset. */
export const FIXED_SEED = 20261202;

/** 'fixed' (the default seed), 'random' or 'given' (an explicit integer). */
export type SeedMode = 'fixed' | 'random' | 'given';

function readSeed(): { mode: SeedMode; seed: number } {
  const raw = process.env.LODKIT_FC_SEED;
  if (raw === undefined || raw === '') return { mode: 'fixed', seed: FIXED_SEED };
  // (drawn here, not left to fast-check, so that a non-vacuity failure can name it)
  if (raw === 'random') return { mode: 'random', seed: Math.floor(Math.random() * 0x100000000) - 0x80000000 };
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`LODKIT_FC_SEED must be 'random' or an integer, got ${JSON.stringify(raw)}`);
  return { mode: seed === FIXED_SEED ? 'fixed' : 'given', seed };
}

const chosen = readSeed();
/** How this run seeds fast-check. */
export const seedMode: SeedMode = chosen.mode;

/**
 * A random-seed run's bound on one property's time, shrinking included: a failure of the rigid-motion
 * property in screenSizeHeuristic.test.ts shrank for more than 8 minutes without a line of output.
 * Interrupted, fast-check still reports the failure, its seed and the case shrunk so far. (Not with
 * the fixed seed, whose runs must not depend on the clock. Our properties take ≤ 10 s each, the CLI's
 * full-size fuzzer ≈ 1.5 min, which checks that all its runs ran.)
 */
const RANDOM_RUN_LIMIT_MS = 300_000;

/** Applies the seed to every `fc.assert` / `fc.check` of the importing test file. */
export function configureFastCheck(): void {
  // (fast-check itself reports the seed and the shrunk path of a failing property; the global
  // form of the time limit is the deprecated option: plugins cannot be global)
  fc.configureGlobal(chosen.mode === 'random' ? { seed: chosen.seed, interruptAfterTimeLimit: RANDOM_RUN_LIMIT_MS } : { seed: chosen.seed });
}

/**
 * Non-vacuity check of a property test: how often the paths it exists for were taken. With the
 * fixed seed the counts are deterministic and must equal `fixedSeed` exactly (a change in what the
 * engine does shows here, and the numbers are updated on purpose); with any other seed each count
 * must reach `atLeast` (default 1).
 */
export function expectNonVacuous(counts: Record<string, number>, fixedSeed: Record<string, number>, atLeast: Record<string, number> = {}): void {
  if (seedMode === 'fixed') {
    expect(counts, `non-vacuity counts with LODKIT_FC_SEED unset (fixed seed ${FIXED_SEED})`).toEqual(fixedSeed);
    return;
  }
  for (const [name, value] of Object.entries(counts)) {
    expect(value, `non-vacuity count ${name} (seed mode ${seedMode}, seed ${chosen.seed}: replay with LODKIT_FC_SEED=${chosen.seed})`)
      .toBeGreaterThanOrEqual(atLeast[name] ?? 1);
  }
}
