/**
 * `<LodManager>`: the provider that runs one lodkit batch update per frame for every
 * `<ScreenSizeDetailed>` and `<InstancedLOD>` inside it, in `useFrame` (before r3f renders), with
 * r3f's camera (the XR `ArrayCamera` while presenting) and drawing-buffer size.
 *
 * Contributor notes:
 * - The {@link LodRuntime} is made once (lazy `useState`) and holds no GPU resource; options are
 *   copied into it in a layout effect, never during render.
 * - `priority` is r3f's `useFrame` priority. The default, 0, keeps r3f's automatic rendering; a
 *   positive value (for apps that render themselves) takes rendering over, as in r3f.
 *
 * @module
 */
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useState, type ReactNode } from 'react';
import { useFrame } from '@react-three/fiber';
import type { Camera } from 'three';
import type { FrameTimeBudget, LodPolicy, LodUpdateOptions } from 'lodkit';
import { LodRuntimeContext } from './context.js';
import { lodCamera, lodViewportHeight, type FrameStateLike } from './frameState.js';
import { LodRuntime } from './runtime.js';

/**
 * Props of {@link LodManager}.
 * @category React
 */
export interface LodManagerProps {
  children?: ReactNode;
  /**
   * lodkit's level-selection policy. Default `'thresholds'` (every object by its own thresholds);
   * the others are lodkit's objects (`policy={budgetPolicy}`), or their names once registered
   * (`registerPolicies(allPolicies)`): see docs/react.md.
   */
  policy?: LodPolicy;
  /** budget / hybrid: the total cost (triangles unless given), or `{ frameMs }` for a frame-time target. */
  budget?: number | FrameTimeBudget;
  /** rankQuota: objects per level, largest first (MotoGP: `[4, 6]`). */
  quotas?: readonly number[];
  /** thresholds / hybrid: the relative hysteresis band in [0, 1) of every object. Default 0. */
  hysteresis?: number;
  /** Any other option of lodkit's `LodSet.update` (tolerance, bias, minLevel, cull …); the props above win. */
  options?: Partial<LodUpdateOptions>;
  /** Measure against this camera instead of r3f's (or the XR `ArrayCamera` while presenting). */
  camera?: Camera;
  /** r3f `useFrame` priority of the update. Default 0 (r3f keeps rendering). */
  priority?: number;
  /** Initial capacity of the batch engine (grows as needed). Default 1024. */
  capacity?: number;
}

/** The update options for a set of props (`policy` defaults to thresholds). */
export function updateOptions(props: Pick<LodManagerProps, 'policy' | 'budget' | 'quotas' | 'hysteresis' | 'options'>): LodUpdateOptions {
  const o: LodUpdateOptions = { ...props.options, policy: props.policy ?? props.options?.policy ?? 'thresholds' };
  if (props.budget !== undefined) o.budget = props.budget;
  if (props.quotas !== undefined) o.quotas = props.quotas;
  if (props.hysteresis !== undefined) o.hysteresis = props.hysteresis;
  return o;
}

/**
 * Runs ONE lodkit batch update per frame for every `<ScreenSizeDetailed>` inside it (plus one per
 * `<InstancedLOD>`, which owns its instances' engine), with any lodkit policy. `ref` is the
 * {@link LodRuntime} (`ref.current.manager.set` is the `LodSet`).
 *
 * @example
 * ```tsx
 * import { Canvas } from '@react-three/fiber';
 * import { LodManager, ScreenSizeDetailed } from '@lodkit/react';
 * import { hybridPolicy } from 'lodkit';
 *
 * export function Track({ bikes }: { bikes: [number, number, number][] }) {
 *   return (
 *     <Canvas>
 *       <LodManager policy={hybridPolicy} budget={450_000}>
 *         {bikes.map((p, i) => (
 *           <ScreenSizeDetailed key={i} metric="pixels" thresholds={[80, 20]} position={p}>
 *             <mesh><sphereGeometry args={[1, 64, 32]} /><meshStandardMaterial /></mesh>
 *             <mesh><sphereGeometry args={[1, 16, 8]} /><meshStandardMaterial /></mesh>
 *             <mesh><sphereGeometry args={[1, 6, 4]} /><meshStandardMaterial /></mesh>
 *           </ScreenSizeDetailed>
 *         ))}
 *       </LodManager>
 *     </Canvas>
 *   );
 * }
 * ```
 * @category React
 */
export const LodManager = forwardRef<LodRuntime, LodManagerProps>(function LodManager(props, ref) {
  const { children, policy, budget, quotas, hysteresis, options, camera, priority = 0, capacity } = props;
  const [runtime] = useState(() => new LodRuntime(capacity));
  useImperativeHandle(ref, () => runtime, [runtime]);
  const key = JSON.stringify([policy, budget, quotas, hysteresis, options]);
  useLayoutEffect(() => {
    runtime.options = updateOptions({ policy, budget, quotas, hysteresis, options });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key holds every option by value
  }, [runtime, key]);
  // After every commit of the provider (its children's effects have run): hand the objects they
  // registered to the batch engine together, in spatial order (runtime.ts).
  useLayoutEffect(() => { runtime.flush(); });
  useEffect(() => () => runtime.dispose(), [runtime]);
  useFrame((state) => {
    const s = state as unknown as FrameStateLike;
    runtime.frame(camera ?? lodCamera(s), lodViewportHeight(s));
  }, priority);
  return <LodRuntimeContext.Provider value={runtime}>{children}</LodRuntimeContext.Provider>;
});
