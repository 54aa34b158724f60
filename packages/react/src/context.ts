/**
 * The React contexts of `@lodkit/react`: the enclosing `<LodManager>`'s {@link LodRuntime}, and the
 * enclosing `<InstancedLOD>`'s object for its `<LodInstance>` children.
 *
 * @module
 */
import { createContext, useContext, type Context } from 'react';
import type { InstancedLOD } from 'lodkit/three';
import type { LodRuntime } from './runtime.js';

/** The enclosing `<LodManager>`'s runtime, or null outside one. */
export const LodRuntimeContext: Context<LodRuntime | null> = createContext<LodRuntime | null>(null);

/** The enclosing `<InstancedLOD>`'s object (null until it is created). */
export const InstancedLODContext: Context<InstancedLOD | null> = createContext<InstancedLOD | null>(null);

/**
 * The {@link LodRuntime} of the enclosing `<LodManager>`, or null outside one: its `manager` is
 * lodkit's `LodManager` (`manager.set` the `LodSet` with every registered object).
 * @example
 * ```tsx
 * import { useLodRuntime } from '@lodkit/react';
 * function Probe() {
 *   const runtime = useLodRuntime();
 *   return <mesh visible={runtime !== null} />;
 * }
 * ```
 * @category React
 */
export function useLodRuntime(): LodRuntime | null {
  return useContext(LodRuntimeContext);
}
