/**
 * The `MSFT_screencoverage` rules, shared by `lodkit/gltf`'s reader and the three.js loader plugin.
 * This module imports no glTF library (only zod), so the three.js plugin can use it on raw JSON.
 *
 * @module
 */
import { z } from 'zod';

/** The `extras` key holding the switching hints. @category glTF */
export const MSFT_SCREENCOVERAGE = 'MSFT_screencoverage';

/** How the coverage list of a group is laid out. @category glTF */
export type CoverageLayout =
  /** One value per level: nothing is drawn below the last value. */
  | 'culled'
  /** One value fewer than levels: the coarsest level is never culled. */
  | 'neverCulled'
  /** No coverage: thresholds come from the caller. */
  | 'none';

/** Why a coverage list was rejected. @category glTF */
export type CoverageProblemCode = 'coverage-schema' | 'coverage-range' | 'coverage-order' | 'coverage-count';

/** A rejected coverage list: the problem's code and a message naming the offending value. @category glTF */
export interface CoverageProblem {
  code: CoverageProblemCode;
  detail: string;
}

const coverageSchema = z.array(z.number());

/**
 * Checks a raw `extras.MSFT_screencoverage` value for a group of `levelCount` levels: finite numbers
 * in [0, 1], descending, and either one per level (`'culled'`) or one fewer (`'neverCulled'`); absent
 * or empty means `'none'`. Returns the values and layout, or the problem.
 * @example
 * ```ts
 * checkCoverageList([0.5, 0.2, 0.01], 3); // { coverage: [0.5, 0.2, 0.01], layout: 'culled' }
 * checkCoverageList([0.2, 0.5], 3);       // { code: 'coverage-order', detail: '…' }
 * ```
 * @category glTF
 */
export function checkCoverageList(raw: unknown, levelCount: number): { coverage: number[] | null; layout: CoverageLayout } | CoverageProblem {
  if (raw === undefined) return { coverage: null, layout: 'none' };
  const parsed = coverageSchema.safeParse(raw);
  if (!parsed.success) {
    return { code: 'coverage-schema', detail: `extras.${MSFT_SCREENCOVERAGE} must be a list of finite numbers, got ${JSON.stringify(raw)?.slice(0, 60)}` };
  }
  const values = parsed.data;
  if (values.length === 0) return { coverage: null, layout: 'none' };
  for (let k = 0; k < values.length; k++) {
    if (!(values[k] >= 0 && values[k] <= 1)) return { code: 'coverage-range', detail: `extras.${MSFT_SCREENCOVERAGE}[${k}] = ${values[k]} is outside [0, 1]` };
  }
  for (let k = 1; k < values.length; k++) {
    if (values[k] > values[k - 1]) {
      return { code: 'coverage-order', detail: `extras.${MSFT_SCREENCOVERAGE} must descend; [${k}] = ${values[k]} is greater than [${k - 1}] = ${values[k - 1]}` };
    }
  }
  if (values.length === levelCount) return { coverage: values, layout: 'culled' };
  if (values.length === levelCount - 1) return { coverage: values, layout: 'neverCulled' };
  return {
    code: 'coverage-count',
    detail: `extras.${MSFT_SCREENCOVERAGE} has ${values.length} values for ${levelCount} levels; expected ${levelCount} (one per level, culled below the last) or ${levelCount - 1} (never culled)`,
  };
}
