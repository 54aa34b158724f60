/**
 * Babylon.js's own glTF loader (with its MSFT_lod extension) loads what lodkit writes: limiting
 * `maxLODsToLoad` to 1, 2, 3 yields the coarsest, middle and finest level, which proves it followed
 * our `ids` in order. (Babylon no longer switches on MSFT_screencoverage, so only the levels are
 * checked here.)
 */
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import '@babylonjs/loaders/glTF/2.0/index.js';
import { Document } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLodChain, writeLodGroup } from '../../../src/adapters/gltf/index.js';
import { addMesh, lodIO, unlinkedLevels, uvSphere } from './fixtures.js';

let engine: NullEngine;
beforeAll(() => {
  Logger.LogLevels = Logger.NoneLogLevel;
  engine = new NullEngine();
});
afterAll(() => engine.dispose());

async function loadWithMaxLods(bytes: Uint8Array, max: number): Promise<[string, number][]> {
  const scene = new Scene(engine);
  const container = await LoadAssetContainerAsync(bytes, scene, {
    pluginExtension: '.glb',
    pluginOptions: { gltf: { extensionOptions: { MSFT_lod: { maxLODsToLoad: max } } } },
  });
  const meshes = container.meshes.filter((m) => m.getTotalVertices() > 0).map((m) => [m.name, m.getTotalIndices() / 3] as [string, number]);
  scene.dispose();
  return meshes;
}

describe('Babylon.js glTF loader', () => {
  it('follows the MSFT_lod ids written by writeLodGroup', async () => {
    const { document, high, mid, low } = unlinkedLevels();
    writeLodGroup(document, { node: high, levels: [mid, low], coverage: [0.5, 0.2, 0.01] });
    const bytes = await lodIO().writeBinary(document);
    expect(await loadWithMaxLods(bytes, 1)).toEqual([['Low', 3]]);
    expect(await loadWithMaxLods(bytes, 2)).toEqual([['Mid', 10]]);
    expect(await loadWithMaxLods(bytes, 3)).toEqual([['High', 30]]);
  });

  it('loads generated chains level by level', async () => {
    const document = new Document();
    document.createBuffer();
    document.createScene().addChild(document.createNode('Ball').setMesh(addMesh(document, 'ball', uvSphere(1, 32, 16))));
    const [chain] = await generateLodChain(document, { levels: 3 });
    const bytes = await lodIO().writeBinary(document);
    const n = chain.levels.length;
    for (let max = 1; max <= n; max++) {
      const level = chain.levels[n - max];
      expect(await loadWithMaxLods(bytes, max)).toEqual([[level.node.getName(), level.triangles]]);
    }
  });
});
