/**
 * Validation of threshold lists, shared by every heuristic and profile so that every error names
 * the owner, the field and the index in the same words.
 *
 * @module
 */

/** Order of a threshold list: screen sizes descend, distances ascend. @category Heuristics */
export type ThresholdOrder = 'descending' | 'ascending';

/** Validated thresholds, stored as float32 like OpenUSD's `VtFloatArray`. @category Heuristics */
export interface ValidatedThresholds {
  thresholds: Float32Array;
  blendThresholds: Float32Array;
}

function toFloat32(values: ArrayLike<number> | undefined, owner: string, field: string): Float32Array {
  if (values == null) return new Float32Array(0);
  if (typeof values !== 'object' || typeof values.length !== 'number') {
    throw new RangeError(`${owner}: ${field} must be an array of numbers`);
  }
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new RangeError(`${owner}: ${field}[${i}] must be a finite number, got ${String(v)}`);
    }
    out[i] = v;
  }
  return out;
}

/**
 * Checks thresholds (finite, sorted in `order`, ties allowed) and blend thresholds (at most one per
 * threshold; descending: each in `(thresholds[i+1], thresholds[i]]`, ascending: each in
 * `[thresholds[i], thresholds[i+1])`) and returns float32 copies. Throws `RangeError` naming
 * `owner`, the field and the index.
 * @category Heuristics
 */
export function validateThresholds(
  thresholds: ArrayLike<number> | undefined,
  blendThresholds: ArrayLike<number> | undefined,
  order: ThresholdOrder,
  owner: string,
): ValidatedThresholds {
  const t = toFloat32(thresholds, owner, 'thresholds');
  const b = toFloat32(blendThresholds, owner, 'blendThresholds');
  const descending = order === 'descending';
  for (let i = 1; i < t.length; i++) {
    if (descending ? t[i] > t[i - 1] : t[i] < t[i - 1]) {
      throw new RangeError(
        `${owner}: thresholds must be ${descending ? 'non-increasing' : 'non-decreasing'}; thresholds[${i}] = ${t[i]} is ${descending ? 'greater' : 'less'} than thresholds[${i - 1}] = ${t[i - 1]}`,
      );
    }
  }
  if (b.length > t.length) {
    throw new RangeError(`${owner}: blendThresholds has ${b.length} values but there are only ${t.length} thresholds`);
  }
  for (let i = 0; i < b.length; i++) {
    const hasNext = i + 1 < t.length;
    const ok = descending
      ? b[i] <= t[i] && (!hasNext || b[i] > t[i + 1])
      : b[i] >= t[i] && (!hasNext || b[i] < t[i + 1]);
    if (!ok) {
      const range = descending
        ? `(${hasNext ? t[i + 1] : '-∞'}, ${t[i]}]`
        : `[${t[i]}, ${hasNext ? t[i + 1] : '∞'})`;
      throw new RangeError(`${owner}: blendThresholds[${i}] = ${b[i]} must lie in ${range}`);
    }
  }
  return { thresholds: t, blendThresholds: b };
}

/**
 * The `'openusd'` input mode's reading of thresholds: finite numbers in any order and any number
 * of blend thresholds, as OpenUSD's query classes take them (they document sorted data but only
 * "try not to fail too badly" on the rest). Returns float32 copies; throws only for a non-array or
 * a non-finite value, naming `owner`, the field and the index.
 * @category Heuristics
 */
export function readThresholdsUnchecked(
  thresholds: ArrayLike<number> | undefined,
  blendThresholds: ArrayLike<number> | undefined,
  owner: string,
): ValidatedThresholds {
  return { thresholds: toFloat32(thresholds, owner, 'thresholds'), blendThresholds: toFloat32(blendThresholds, owner, 'blendThresholds') };
}

/** A heuristic's thresholds: validated in `order`, or read as OpenUSD takes them (`unchecked`). @internal */
export function readHeuristicThresholds(
  o: { thresholds?: ArrayLike<number>; blendThresholds?: ArrayLike<number> }, unchecked: boolean, order: ThresholdOrder, owner: string,
): ValidatedThresholds {
  return unchecked ? readThresholdsUnchecked(o.thresholds, o.blendThresholds, owner) : validateThresholds(o.thresholds, o.blendThresholds, order, owner);
}

/** Checks the `semantics` and `domain` options both heuristics take; throws `RangeError` naming `owner`. @internal */
export function checkSemanticsAndDomain(o: { semantics?: unknown; domain?: unknown }, owner: string): void {
  if (o.semantics !== 'documented' && o.semantics !== 'openusd') {
    throw new RangeError(`${owner}: semantics must be 'documented' or 'openusd', got ${String(o.semantics)}`);
  }
  if (typeof o.domain !== 'string' || o.domain.length === 0) throw new RangeError(`${owner}: domain must be a non-empty string`);
}
