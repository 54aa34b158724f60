/**
 * glTF with `MSFT_lod`: a `GLTFLoader` that turns every `MSFT_lod` node into a `ScreenSizeLOD`
 * (lodkit's `MSFTLodLoaderPlugin`), `useLodGLTF(url)` to load one through r3f's `useLoader`, and
 * `extendLodLoader` for drei's `useGLTF(url, draco, meshopt, extendLoader)`.
 *
 * Contributor notes:
 * - A subclass, not a plugin registered on r3f's shared `GLTFLoader`: `useLoader` caches loaders and
 *   results per loader class, so a file loaded elsewhere without the plugin is not returned from
 *   that cache (and other `GLTFLoader` users are not changed).
 * - The plugin callback is one module constant: `GLTFLoader.register` skips a callback it already
 *   has, so `extendLodLoader` may run on every load.
 *
 * @module
 */
import { useMemo } from 'react';
import { useLoader } from '@react-three/fiber';
import type { LoadingManager, Object3D } from 'three';
import { GLTFLoader, type GLTF, type GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MSFTLodLoaderPlugin, ScreenSizeLOD } from 'lodkit/three';

const lodPlugin = (parser: GLTFParser): MSFTLodLoaderPlugin => new MSFTLodLoaderPlugin(parser);

/**
 * Registers lodkit's `MSFT_lod` plugin on a `GLTFLoader` (idempotent): pass it as drei's
 * `useGLTF` `extendLoader` argument.
 * @example
 * ```tsx
 * import { useGLTF } from '@react-three/drei';
 * import { extendLodLoader } from '@lodkit/react';
 * export function Model() {
 *   const { scene } = useGLTF('/tree-lod.glb', false, false, extendLodLoader);
 *   return <primitive object={scene} />;
 * }
 * ```
 * @category React
 */
export function extendLodLoader(loader: GLTFLoader): void {
  loader.register(lodPlugin);
}

/**
 * A `GLTFLoader` with lodkit's `MSFT_lod` plugin registered: `MSFT_lod` nodes load as
 * `ScreenSizeLOD`s whose thresholds come from `MSFT_screencoverage`.
 * @example
 * ```ts
 * import { LodGLTFLoader } from '@lodkit/react';
 * const gltf = await new LodGLTFLoader().loadAsync('/tree-lod.glb');
 * ```
 * @category React
 */
export class LodGLTFLoader extends GLTFLoader {
  constructor(manager?: LoadingManager) {
    super(manager);
    this.register(lodPlugin);
  }
}

/** A loaded glTF and the `ScreenSizeLOD`s its `MSFT_lod` nodes became. @category React */
export interface LodGLTF extends GLTF {
  /** Every `ScreenSizeLOD` of the loaded scenes, in traversal order. */
  lods: ScreenSizeLOD[];
}

/** Every `ScreenSizeLOD` under `root` (itself included), in traversal order. */
export function findLods(root: Object3D): ScreenSizeLOD[] {
  const out: ScreenSizeLOD[] = [];
  root.traverse((o) => { if (o instanceof ScreenSizeLOD) out.push(o); });
  return out;
}

/**
 * Loads a glTF through r3f's `useLoader` (suspends; cached per URL) with `MSFT_lod` nodes as
 * `ScreenSizeLOD`s, listed in `lods`. Render `gltf.scene` inside a `<LodManager>` with
 * {@link useLodObjects} to let the manager choose their levels; without one, three's renderer updates
 * them itself.
 * @example
 * ```tsx
 * import { useLodGLTF, useLodObjects } from '@lodkit/react';
 * export function Tree() {
 *   const gltf = useLodGLTF('/tree-lod.glb');
 *   useLodObjects(gltf.scene);
 *   return <primitive object={gltf.scene} />;
 * }
 * ```
 * @category React
 */
export function useLodGLTF(url: string): LodGLTF {
  const gltf = useLoader(LodGLTFLoader, url) as GLTF;
  return useMemo(() => {
    const lods: ScreenSizeLOD[] = [];
    for (const scene of gltf.scenes.length > 0 ? gltf.scenes : [gltf.scene]) lods.push(...findLods(scene));
    return { ...gltf, lods };
  }, [gltf]);
}
