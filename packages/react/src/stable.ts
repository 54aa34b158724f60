/**
 * Props given inline (`thresholds={[80, 20]}`, `levels={[{ geometry, material }]}`) are new arrays
 * on every render; these hooks keep the previous value while its contents are equal, so effects
 * keyed on them run only on real changes.
 *
 * @module
 */
import { useRef } from 'react';

/** True when `a` and `b` have the same length and `Object.is`-equal entries. */
export function shallowEqualArrays(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** `value` when its entries changed since the last render, else the previous array (reads and writes only a ref). */
export function useStableArray<T>(value: readonly T[] | undefined): readonly T[] | undefined {
  const ref = useRef(value);
  // Writing a ref that only memoises a pure function of the props is idempotent: a discarded or
  // repeated render leaves it equal to what the committed render computes.
  if (!shallowEqualArrays(ref.current, value)) ref.current = value;
  return ref.current;
}
