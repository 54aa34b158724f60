/**
 * The `MSFT_screencoverage` rules and the `MSFT_lod` JSON shape, shared by `lodkit/gltf`'s reader
 * and the three.js loader plugin. This module imports nothing (the checks are written out by hand),
 * so the plugin can use it on raw JSON without pulling a schema library into browser bundles.
 *
 * @module
 */
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

/**
 * The checks of `MSFT_lod` data that `lodkit/gltf`'s reader and the three.js loader plugin both
 * make (each adds codes of its own). @category glTF
 */
export type LodCheckCode =
  | 'schema'
  | 'id-out-of-range'
  | 'self-reference'
  | 'duplicate-id'
  | 'cycle'
  | 'too-many-ids'
  | 'too-deep'
  | CoverageProblemCode;

/** A rejected coverage list: the problem's code and a message naming the offending value. @category glTF */
export interface CoverageProblem {
  code: CoverageProblemCode;
  detail: string;
}

/**
 * Checks a raw `MSFT_lod` extension value: an object whose `ids` is a list of at least one
 * non-negative integer (other keys are allowed, as glTF allows). Returns the ids, or a message
 * naming the offending field (`MSFT_lod.ids[2] = -1 is not a non-negative integer`).
 * @example
 * ```ts
 * checkLodIds({ ids: [1, 2] }); // { ids: [1, 2] }
 * checkLodIds({ ids: [] });     // { problem: 'MSFT_lod.ids is empty; …' }
 * ```
 * @category glTF
 */
export function checkLodIds(raw: unknown): { ids: number[] } | { problem: string } {
  const expected = 'expected {"ids": [non-negative integers, at least one]}';
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { problem: `MSFT_lod must be an object, got ${describeValue(raw)}; ${expected}` };
  }
  const ids = (raw as { ids?: unknown }).ids;
  if (!Array.isArray(ids)) return { problem: `MSFT_lod.ids must be a list, got ${describeValue(ids)}; ${expected}` };
  if (ids.length === 0) return { problem: `MSFT_lod.ids is empty; ${expected}` };
  for (let k = 0; k < ids.length; k++) {
    const id: unknown = ids[k];
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) {
      return { problem: `MSFT_lod.ids[${k}] = ${describeValue(id)} is not a non-negative integer; ${expected}` };
    }
  }
  return { ids: ids.slice() as number[] };
}

/** A short description of a JSON value for an error message (at most ~60 characters). @internal */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number') return String(value);
  const text = JSON.stringify(value);
  return text === undefined ? typeof value : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

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
  if (!Array.isArray(raw)) {
    return { code: 'coverage-schema', detail: `extras.${MSFT_SCREENCOVERAGE} must be a list of finite numbers, got ${describeValue(raw)}` };
  }
  for (let k = 0; k < raw.length; k++) {
    // A JSON writer turns Infinity and NaN into null: say which entry.
    if (typeof raw[k] !== 'number') {
      return { code: 'coverage-schema', detail: `extras.${MSFT_SCREENCOVERAGE}[${k}] = ${describeValue(raw[k])} is not a finite number (the list must be finite numbers)` };
    }
  }
  const values = raw.slice() as number[];
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
