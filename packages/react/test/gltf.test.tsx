/**
 * `useLodGLTF(url)`: a GLB with `MSFT_lod` (the extension spec's example: High / Medium / Low with
 * coverage 0.5, 0.2, 0.01, written by glTF-Transform with lodkit's test fixture) loads through r3f's
 * `useLoader` into one `ScreenSizeLOD` whose levels and thresholds are the file's (coverage as
 * OpenUSD area fractions, an empty level below the last value); `useLodObjects` registers it with
 * the enclosing manager and unregisters it on unmount. `extendLodLoader` registers the plugin once.
 */
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { createRef } from 'react';
import { extendLodLoader, LodManager, useLodGLTF, useLodObjects, type LodGLTF, type LodRuntime } from '../src/index.js';
import { lodIO, specExample } from '../../lodkit/test/adapters/gltf/fixtures.js';
import { render } from './helpers.js';

// three's FileLoader reports progress with ProgressEvent, which Node 20 does not have.
if (typeof (globalThis as { ProgressEvent?: unknown }).ProgressEvent === 'undefined') {
  (globalThis as { ProgressEvent?: unknown }).ProgressEvent = class ProgressEvent extends Event {
    readonly lengthComputable: boolean; readonly loaded: number; readonly total: number;
    constructor(type: string, init: { lengthComputable?: boolean; loaded?: number; total?: number } = {}) {
      super(type);
      this.lengthComputable = init.lengthComputable ?? false; this.loaded = init.loaded ?? 0; this.total = init.total ?? 0;
    }
  };
}

describe('useLodGLTF', () => {
  it('loads MSFT_lod nodes as ScreenSizeLODs and useLodObjects registers them with the manager', async () => {
    const bytes = await lodIO().writeBinary(specExample([0.5, 0.2, 0.01]).document);
    const url = `data:model/gltf-binary;base64,${Buffer.from(bytes).toString('base64')}`;
    const loaded: { gltf?: LodGLTF } = {};
    function Model() {
      const gltf = useLodGLTF(url);
      loaded.gltf = gltf;
      useLodObjects(gltf.scene);
      return <primitive object={gltf.scene} />;
    }
    const runtime = createRef<LodRuntime>();
    const scene = (on: boolean) => <LodManager ref={runtime}><Suspense fallback={null}>{on ? <Model /> : null}</Suspense></LodManager>;
    const r = await render(scene(true));
    for (let i = 0; i < 50 && loaded.gltf === undefined; i++) await r.renderer.update(scene(true));
    const gltf = loaded.gltf!;
    expect(gltf.lods).toHaveLength(1);
    const lod = gltf.lods[0];
    expect(lod.metric).toBe('screenArea');
    expect(lod.levels.map((l) => l.object.name)).toEqual(['High_LOD', 'Medium_LOD', 'Low_LOD', 'High_LOD_culled']);
    expect(lod.thresholds).toEqual([0.5, 0.2, 0.01].map(Math.fround));
    expect(runtime.current!.registered).toBe(1);
    r.moveCamera(0, 0, 30);
    await r.frame();
    expect(lod.levels.filter((l) => l.object.visible).length).toBeLessThanOrEqual(1);
    await r.renderer.update(scene(false));
    expect(runtime.current!.registered).toBe(0);
    await r.renderer.unmount();
  });

  it('extendLodLoader registers the plugin on a GLTFLoader once, however often it runs', () => {
    const loader = new GLTFLoader();
    const before = (loader as unknown as { pluginCallbacks: unknown[] }).pluginCallbacks.length;
    extendLodLoader(loader); extendLodLoader(loader);
    expect((loader as unknown as { pluginCallbacks: unknown[] }).pluginCallbacks.length).toBe(before + 1);
  });
});
