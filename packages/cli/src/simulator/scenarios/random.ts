/**
 * A tiny seeded generator for the built-in scenarios: the same seed gives the same scene on every
 * machine (32-bit LCG, Numerical Recipes constants; plenty for placing trees and bikes).
 *
 * @module
 */

/**
 * Returns a function giving uniform numbers in [0, 1) from a 32-bit seed.
 * @example
 * ```ts
 * const random = lcg(7);
 * random(); // same value on every run
 * ```
 * @category Simulator
 */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * Rounds to 3 decimals so generated scenes serialise compactly and identically.
 * @example
 * ```ts
 * r3(1 / 3); // 0.333
 * ```
 * @category Simulator
 */
export function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
