/**
 * `useLodStats()`: the last frame's stats of a `<LodManager>` for an overlay.
 *
 * @module
 */
import { useSyncExternalStore } from 'react';
import { useLodRuntime } from './context.js';
import type { LodRuntime, LodStatsSnapshot } from './runtime.js';

const NONE: LodStatsSnapshot = { frame: 0, levelCounts: [], totalCost: 0, changes: 0, hidden: 0, budgetMet: true, objects: 0 };
const noSubscribe = (): (() => void) => () => {};
const noSnapshot = (): LodStatsSnapshot => NONE;

/**
 * The last frame's LOD stats (per-level counts, cost, changes, hidden, budget met) of the
 * enclosing `<LodManager>`, or of `runtime` (for an overlay outside the `<Canvas>`: take the
 * manager's `ref`). Re-renders only when a value changes. Outside any manager and without
 * `runtime` it returns zeros.
 *
 * @example
 * ```tsx
 * import { useState } from 'react';
 * import { Canvas } from '@react-three/fiber';
 * import { LodManager, useLodStats, type LodRuntime } from '@lodkit/react';
 *
 * export function App() {
 *   const [runtime, setRuntime] = useState<LodRuntime | null>(null);
 *   const stats = useLodStats(runtime);
 *   return (
 *     <>
 *       <Canvas><LodManager ref={setRuntime}>{null}</LodManager></Canvas>
 *       <pre>{stats.levelCounts.join(' / ')} · {stats.totalCost} triangles</pre>
 *     </>
 *   );
 * }
 * ```
 * @category React
 */
export function useLodStats(runtime?: LodRuntime | null): LodStatsSnapshot {
  const enclosing = useLodRuntime();
  const source = runtime ?? enclosing;
  return useSyncExternalStore(source?.subscribe ?? noSubscribe, source?.getSnapshot ?? noSnapshot, source?.getSnapshot ?? noSnapshot);
}
