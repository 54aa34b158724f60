/**
 * `useLodObjects(root)`: registers the `ScreenSizeLOD`s of an object tree made outside
 * `<ScreenSizeDetailed>` (a loaded glTF) with the enclosing `<LodManager>`.
 *
 * @module
 */
import { useLayoutEffect } from 'react';
import type { Object3D } from 'three';
import { useLodRuntime } from './context.js';
import { findLods } from './gltf.js';

/**
 * Registers every `ScreenSizeLOD` with levels under `root` with the enclosing `<LodManager>` while
 * the component is mounted (and unregisters them after). Outside a manager it does nothing (three's
 * renderer updates them). Register after `root` has its place in the scene (render it in the same
 * component), since the manager reads world spheres at registration; with `dynamic` it re-reads those that moved, every frame.
 * @example
 * ```tsx
 * import { useLodGLTF, useLodObjects } from '@lodkit/react';
 * export function City() {
 *   const { scene } = useLodGLTF('/city-lod.glb');
 *   useLodObjects(scene);
 *   return <primitive object={scene} />;
 * }
 * ```
 * @category React
 */
export function useLodObjects(root: Object3D | null | undefined, dynamic = false): void {
  const runtime = useLodRuntime();
  useLayoutEffect(() => {
    if (runtime === null || root == null) return;
    const lods = findLods(root).filter((lod) => lod.levels.length > 0 && !runtime.has(lod));
    for (const lod of lods) {
      runtime.registerLod(lod);
      if (dynamic) runtime.dynamic.add(lod);
    }
    return () => { for (const lod of lods) runtime.unregisterLod(lod); };
  }, [runtime, root, dynamic]);
}
