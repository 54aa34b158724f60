/**
 * `<LodDebug />`: lodkit's debug helper (bounding spheres coloured by level) and stats panel (per-level
 * counts, cost, pops per second) for the enclosing `<LodManager>`.
 *
 * Contributor notes:
 * - Both are made in effects and disposed in their clean-ups (the helper's sphere mesh holds GPU
 *   buffers; the panel is a DOM element). The panel goes next to r3f's canvas unless `parent` is given,
 *   and is skipped where there is no DOM (Node tests).
 * - The frame callback subscribes before the manager's (children's effects run first), so it shows
 *   the previous frame's levels: one frame late, which a debug view can afford.
 *
 * @module
 */
import { useEffect, useLayoutEffect, useRef, useState, type JSX } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import type { LodFrameStats } from 'lodkit';
import { LodDebugHelper, LodStatsPanel } from 'lodkit/three';
import { useLodRuntime } from './context.js';
import type { LodRuntime } from './runtime.js';

/**
 * Props of {@link LodDebug}.
 * @category React
 */
export interface LodDebugProps {
  /** Draw every object's bounding sphere in its level's colour. Default true. */
  spheres?: boolean;
  /** Show the stats panel (DOM). Default true. */
  panel?: boolean;
  /** Element to put the panel in. Default the canvas's parent. */
  parent?: HTMLElement;
  /** Budget shown as "budget use" in the panel (the manager's, if it has a numeric one). */
  budget?: number;
}

function panelStats(runtime: LodRuntime, out: LodFrameStats): LodFrameStats {
  const s = runtime.getSnapshot();
  if (out.levelCounts.length !== s.levelCounts.length) out.levelCounts = new Uint32Array(s.levelCounts.length);
  out.levelCounts.set(s.levelCounts);
  out.totalCost = s.totalCost; out.changes = s.changes; out.hidden = s.hidden; out.budgetMet = s.budgetMet;
  return out;
}

/**
 * lodkit's `LodDebugHelper` and `LodStatsPanel` for the enclosing `<LodManager>` (renders nothing
 * outside one).
 * @example
 * ```tsx
 * import type { ReactNode } from 'react';
 * import { LodDebug, LodManager } from '@lodkit/react';
 * import { budgetPolicy } from 'lodkit';
 * export const Scene = ({ children }: { children: ReactNode }) => (
 *   <LodManager policy={budgetPolicy} budget={200_000}>
 *     {children}
 *     <LodDebug budget={200_000} />
 *   </LodManager>
 * );
 * ```
 * @category React
 */
export function LodDebug({ spheres = true, panel = true, parent, budget }: LodDebugProps): JSX.Element | null {
  const runtime = useLodRuntime();
  const canvas = useThree((state) => state.gl.domElement as HTMLElement | undefined);
  const [helper, setHelper] = useState<LodDebugHelper | null>(null);
  const panelRef = useRef<LodStatsPanel | null>(null);
  const stats = useRef<LodFrameStats>({ totalCost: 0, levelCounts: new Uint32Array(0), changes: 0, budgetMet: true, minimumCost: 0, invalid: 0, hidden: 0 });

  useLayoutEffect(() => {
    if (runtime === null || !spheres) return;
    const made = new LodDebugHelper(runtime.manager.set);
    setHelper(made);
    return () => {
      made.dispose();
      setHelper((current) => (current === made ? null : current));
    };
  }, [runtime, spheres]);

  useEffect(() => {
    const host = parent ?? canvas?.parentElement ?? null;
    if (runtime === null || !panel || host === null || typeof host.ownerDocument?.createElement !== 'function') return;
    const made = new LodStatsPanel(host);
    panelRef.current = made;
    return () => { made.dispose(); panelRef.current = null; };
  }, [runtime, panel, parent, canvas]);

  useFrame(() => {
    if (runtime === null) return;
    if (helper !== null) {
      const sets = helper.sets;
      sets.length = 0;
      sets.push(runtime.manager.set);
      for (const inst of runtime.instanced) sets.push(inst.set);
      helper.update();
    }
    panelRef.current?.update(panelStats(runtime, stats.current), budget !== undefined ? { budget } : {});
  });

  return helper === null ? null : <primitive object={helper} />;
}
