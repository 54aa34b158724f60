/**
 * `<ScreenSizeDetailed>`: drei's `<Detailed>` with lodkit's metrics. Its children are the levels,
 * finest first; it renders one `ScreenSizeLOD` (the `ref`), and inside a `<LodManager>` the
 * manager's one batch update per frame chooses its level.
 *
 * Contributor notes:
 * - The `ScreenSizeLOD` is made once per component (a lazy `useState`: nothing outside the
 *   component sees it before commit, so a discarded render leaves nothing behind) and holds no GPU
 *   resource of its own; the children are ordinary r3f children, disposed by r3f.
 * - Every commit a layout effect compares the children and level props with what the levels were
 *   built from, and rebuilds them only on a change (levels.ts), re-registering with the manager
 *   (lodkit's `LodManager` takes thresholds, costs and the world sphere at registration).
 * - Without a manager a child component subscribes to `useFrame` (as drei's `<Detailed>` does);
 *   under a manager there is no per-object frame callback at all.
 * - StrictMode: effects may run, clean up and run again; the clean-up unregisters and forgets the
 *   built key, so the second run rebuilds and registers again.
 *
 * @module
 */
import { forwardRef, useImperativeHandle, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useFrame, useThree, type ThreeElements } from '@react-three/fiber';
import type { Object3D } from 'three';
import type { SphereMetric } from 'lodkit';
import { ScreenSizeLOD } from 'lodkit/three';
import { useLodRuntime } from './context.js';
import { lodCamera, lodViewportHeight, type FrameStateLike } from './frameState.js';
import { levelArguments, rebuildLevels } from './levels.js';
import { useStableArray } from './stable.js';

/**
 * Props of {@link ScreenSizeDetailed}: drei's `<Detailed>` props (`distances`, `hysteresis`) plus
 * lodkit's `metric`, `thresholds` and fades; every `<group>` prop (position, rotation, name …)
 * goes to the `ScreenSizeLOD`.
 * @category React
 */
export interface ScreenSizeDetailedProps extends Omit<ThreeElements['group'], 'ref' | 'children' | 'args'> {
  /** The levels, finest first: one three.js object per child (a mesh, a group, an empty `<group />` to draw nothing). */
  children?: ReactNode;
  /** What the thresholds measure. Default `'distance'` (drei's meaning). */
  metric?: SphereMetric;
  /**
   * lodkit thresholds, one per boundary (children − 1 values): screen sizes descending (`'pixels'`:
   * level i drawn while taller than `thresholds[i]` px), or distances ascending (level i + 1 from
   * `thresholds[i]` on).
   */
  thresholds?: readonly number[];
  /** drei's form for `metric: 'distance'`: one distance per child, level i drawn from `distances[i]` (the first is ignored, usually 0). */
  distances?: readonly number[];
  /**
   * Relative hysteresis band in [0, 1): one number for every boundary, or one per boundary (with
   * `thresholds`) / one per child (with `distances`). Under a `<LodManager>` these bands stay the
   * object's own (they replace the manager's `hysteresis` for it); without them the manager's applies.
   */
  hysteresis?: number | readonly number[];
  /** Seconds of the time-based cross-fade when the level changes (materials made by lodkit's `createFadeMaterial`). Default 0. */
  fadeDuration?: number;
  /** Multiplies sizes / divides distances (Unity's lodBias). Default 1. */
  bias?: number;
  /** Under a `<LodManager>`: every frame, bring the world matrix up to date and re-read the world sphere if it moved (for objects that move). Default false. */
  dynamic?: boolean;
}

/** Updates a `ScreenSizeLOD` in `useFrame` when no manager does. */
function StandaloneUpdate({ lod }: { lod: ScreenSizeLOD }): null {
  useFrame((state) => {
    const s = state as unknown as FrameStateLike;
    lod.viewportHeight = lodViewportHeight(s);
    lod.updateWorldMatrix(true, false);
    lod.update(lodCamera(s));
  });
  return null;
}

/**
 * A drop-in for drei's `<Detailed>`: the children are the levels, finest first, chosen by
 * on-screen size (or distance) of their bounding sphere. `ref` is the `ScreenSizeLOD`. Adding,
 * removing and reordering children at runtime rebuilds the levels.
 *
 * @example
 * ```tsx
 * import { Canvas } from '@react-three/fiber';
 * import { LodManager, ScreenSizeDetailed } from '@lodkit/react';
 *
 * export function Bike() {
 *   return (
 *     <Canvas>
 *       <LodManager>
 *         <ScreenSizeDetailed metric="pixels" thresholds={[80, 20]} position={[0, 1, -40]}>
 *           <mesh><sphereGeometry args={[1, 64, 32]} /><meshStandardMaterial /></mesh>
 *           <mesh><sphereGeometry args={[1, 16, 8]} /><meshStandardMaterial /></mesh>
 *           <mesh><sphereGeometry args={[1, 6, 4]} /><meshStandardMaterial /></mesh>
 *         </ScreenSizeDetailed>
 *       </LodManager>
 *     </Canvas>
 *   );
 * }
 * ```
 * @category React
 */
export const ScreenSizeDetailed = forwardRef<ScreenSizeLOD, ScreenSizeDetailedProps>(function ScreenSizeDetailed(props, ref) {
  const { children, metric = 'distance', thresholds, distances, hysteresis, fadeDuration = 0, bias = 1, dynamic = false, ...rest } = props;
  const [lod] = useState(() => new ScreenSizeLOD({ metric }));
  const runtime = useLodRuntime();
  const get = useThree((state) => state.get);
  const stableThresholds = useStableArray(thresholds);
  const stableDistances = useStableArray(distances);
  const stableHysteresis = useStableArray(typeof hysteresis === 'object' ? hysteresis : undefined);
  const built = useRef<{ key: readonly unknown[]; matrix: Float64Array } | null>(null);
  useImperativeHandle(ref, () => lod, [lod]);

  // Every commit: rebuild the levels when the children or the level props changed; refresh the
  // manager's sphere when the object moved.
  useLayoutEffect(() => {
    lod.fadeDuration = fadeDuration;
    lod.bias = bias;
    const objects: Object3D[] = lod.children.slice();
    const key: readonly unknown[] = [runtime, metric, stableThresholds, stableDistances, typeof hysteresis === 'number' ? hysteresis : stableHysteresis, ...objects];
    const last = built.current;
    if (last !== null && last.key.length === key.length && last.key.every((v, i) => Object.is(v, key[i]))) {
      if (runtime !== null && runtime.has(lod) && !dynamic) {
        lod.updateWorldMatrix(true, false);
        if (!sameMatrix(last.matrix, lod.matrixWorld.elements)) { last.matrix.set(lod.matrixWorld.elements); runtime.refresh(lod); }
      }
      return;
    }
    const args = levelArguments({ metric, thresholds: stableThresholds, distances: stableDistances, hysteresis }, objects.length);
    runtime?.unregisterLod(lod);
    rebuildLevels(lod, objects, args, metric);
    lod.updateWorldMatrix(true, false);
    built.current = { key, matrix: Float64Array.from(lod.matrixWorld.elements) };
    if (runtime !== null && objects.length > 0) {
      runtime.registerLod(lod);
      if (dynamic) runtime.dynamic.add(lod);
    } else if (runtime === null) {
      // Standalone: choose the level now, so the first frame never shows every level at once.
      const state = get() as unknown as FrameStateLike;
      lod.autoUpdate = false; // updated in useFrame (StandaloneUpdate), as drei's <Detailed>
      lod.viewportHeight = lodViewportHeight(state);
      const camera = lodCamera(state);
      camera.updateMatrixWorld();
      if (objects.length > 0) lod.update(camera);
    }
  });

  useLayoutEffect(() => {
    if (runtime === null) return;
    if (dynamic && runtime.has(lod)) runtime.dynamic.add(lod); else runtime.dynamic.delete(lod);
  }, [runtime, lod, dynamic]);

  // Unmount (and StrictMode's simulated unmount): leave the manager, forget what was built.
  useLayoutEffect(() => () => {
    runtime?.unregisterLod(lod);
    built.current = null;
  }, [runtime, lod]);

  return (
    <primitive object={lod} {...rest}>
      {children}
      {runtime === null ? <StandaloneUpdate lod={lod} /> : null}
    </primitive>
  );
});

function sameMatrix(a: Float64Array, b: ArrayLike<number>): boolean {
  for (let i = 0; i < 16; i++) if (a[i] !== b[i]) return false;
  return true;
}
