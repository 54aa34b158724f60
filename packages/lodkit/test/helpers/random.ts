/** A seeded 32-bit LCG for tests (Numerical Recipes constants): the same seed gives the same data everywhere. */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}
