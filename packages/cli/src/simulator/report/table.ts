/**
 * The comparison table `lodkit simulate` prints: one row per policy. Plain text with `|` columns,
 * so it reads in a terminal and pastes into Markdown unchanged.
 *
 * @module
 */
import type { SimulationResult, SimulationTimings } from '../simulate.js';

/**
 * Column headers of {@link formatComparisonTable}.
 * @example
 * ```ts
 * TABLE_COLUMNS.indexOf('pops/s'); // 7
 * ```
 * @category Simulator
 */
export const TABLE_COLUMNS = [
  'policy', 'mean tris', 'worst tris', 'worst shot', 'frames > budget', 'quality loss mean', 'quality loss worst', 'pops/s', 'select ms/frame',
  'SSE loss mean (px)', 'SSE loss worst (px)',
] as const;

function int(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/**
 * One row of cells per policy (strings), in {@link TABLE_COLUMNS} order. Timing cells are `–`
 * when `timings` is not given.
 * @example
 * ```ts
 * const rows = comparisonRows(result, timings);
 * ```
 * @category Simulator
 */
export function comparisonRows(result: SimulationResult, timings?: SimulationTimings): string[][] {
  const frames = result.scene.frames;
  return result.policies.map((p) => {
    const s = p.summary;
    const t = timings?.[p.name];
    return [
      p.name,
      int(s.meanCost),
      int(s.worstCost),
      s.worstCostShot,
      s.framesOverBudget === null ? 'no budget' : `${s.framesOverBudget} / ${frames}`,
      s.qualityLossMean.toFixed(1),
      s.qualityLossWorst.toFixed(1),
      s.popsPerSecond.toFixed(2),
      t ? t.meanMs.toFixed(3) : '–',
      s.screenSpaceLossMean.toFixed(1),
      s.screenSpaceLossWorst.toFixed(1),
    ];
  });
}

/**
 * Formats the comparison table as aligned Markdown (numbers right-aligned).
 * @example
 * ```ts
 * console.log(formatComparisonTable(result, timings));
 * ```
 * @category Simulator
 */
export function formatComparisonTable(result: SimulationResult, timings?: SimulationTimings): string {
  const rows = comparisonRows(result, timings);
  const header = [...TABLE_COLUMNS];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const leftAligned = (c: number) => c === 0 || c === 3;
  const line = (cells: string[]) => `| ${cells.map((cell, c) => (leftAligned(c) ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (leftAligned(c) ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/**
 * A short text header describing the run (scene, objects, frames, budget, quality-loss unit).
 * @example
 * ```ts
 * console.log(formatRunHeader(result));
 * ```
 * @category Simulator
 */
export function formatRunHeader(result: SimulationResult): string {
  const s = result.scene;
  const budget = s.budget === null ? 'no budget' : `budget ${int(s.budget)} triangles`;
  return [
    `lodkit simulate — ${s.name}: ${s.objects.toLocaleString('en-US')} objects, ${s.frames} frames over ${s.duration} s, ${budget}`,
    s.description,
    `quality loss = Σ on-screen diameter (px, clamped to the viewport height) × levels coarser than the screen-size rule wants`,
    `SSE loss = Σ max(0, level error × on-screen diameter − ${s.tolerance} px): screen-space error above the tolerance (what budget/hybrid minimise)`,
  ].filter(Boolean).join('\n');
}
