/** Reference solvers for the multiple-choice knapsack behind the budget policies (test-side, independent of lodkit). */

/**
 * Exact LP-relaxation optimum of the multiple-choice knapsack by Lagrangian duality:
 * LP = min over λ ≥ 0 of λ·B + Σᵢ maxₗ (bᵢₗ − λ cᵢₗ); the minimum of this convex piecewise-linear
 * function is at λ = 0 or at a breakpoint (bᵢₗ − bᵢₖ)/(cᵢₗ − cᵢₖ), all of which are tried.
 */
export function lpOptimum(benefit: number[][], cost: number[][], budget: number): number {
  const candidates = [0];
  for (let i = 0; i < benefit.length; i++) {
    for (let a = 0; a < cost[i].length; a++) for (let b = 0; b < cost[i].length; b++) {
      const dc = cost[i][a] - cost[i][b];
      if (dc > 0) { const lambda = (benefit[i][a] - benefit[i][b]) / dc; if (lambda > 0) candidates.push(lambda); }
    }
  }
  let best = Infinity;
  for (const lambda of candidates) {
    let value = lambda * budget;
    for (let i = 0; i < benefit.length; i++) {
      let m = -Infinity;
      for (let l = 0; l < cost[i].length; l++) m = Math.max(m, benefit[i][l] - lambda * cost[i][l]);
      value += m;
    }
    best = Math.min(best, value);
  }
  return best;
}
