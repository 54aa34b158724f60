import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { GltfLodError, generateLodChain, loadLodGroupsFromGltf, writeLodGroup } from '../../../src/adapters/gltf/index.js';
import { addMesh, lodIO, packGlb, specExample, toGlbParts, uvSphere } from './fixtures.js';

describe('loadLodGroupsFromGltf', () => {
  it('returns plain groups with a world-space sphere, triangles and coverage thresholds', async () => {
    const document = new Document();
    document.createBuffer();
    // Unit sphere mesh; the group node is translated and scaled by 2 under a translated parent.
    const high = document.createNode('Rock').setMesh(addMesh(document, 'rock', uvSphere(1, 16, 8))).setTranslation([10, 0, 0]).setScale([2, 2, 2]);
    const low = document.createNode('Rock_low').setMesh(addMesh(document, 'rock_low', uvSphere(1, 8, 4)));
    const parent = document.createNode('Parent').setTranslation([0, 5, 0]).addChild(high);
    document.createScene().addChild(parent);
    writeLodGroup(document, { node: high, levels: [low], coverage: [0.25, 0.01], errors: [0, 0.05] });
    const bytes = await lodIO().writeBinary(document);
    const { groups, warnings } = await loadLodGroupsFromGltf(bytes);
    expect(warnings).toEqual([]);
    expect(groups).toHaveLength(1);
    const g = groups[0];
    expect(g.name).toBe('Rock');
    expect(g.nodeIndex).toBe(0);
    // Hand-worked: centre (0,0,0)·2 + (10,0,0) + (0,5,0); radius 1·2.
    expect(g.boundingSphere.center.map((v) => Number(v.toFixed(5)))).toEqual([10, 5, 0]);
    expect(g.boundingSphere.radius).toBeCloseTo(2, 5);
    // Triangles: 16·2 + 16·2·6 = 224 and 8·2 + 8·2·2 = 48; errors scaled by 2 into world units.
    expect(g.levels).toEqual([{ triangles: 224, error: 0 }, { triangles: 48, error: 0.1 }]);
    expect(g.thresholds!.metric).toBe('screenArea');
    expect(g.thresholds!.computeLod(0.5)).toBe(0);
    expect(g.thresholds!.computeLod(0.1)).toBe(1);
    expect(g.cullBelow).toBe(0.01);
    expect(g.layout).toBe('culled');
  });

  it('reads from a file path, honours height coverage, and omits unknown errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lodkit-gltf-load-'));
    try {
      const file = join(dir, 'spec.glb');
      writeFileSync(file, await lodIO().writeBinary(specExample().document));
      const { groups } = await loadLodGroupsFromGltf(file, { coverage: 'height' });
      expect(groups[0].thresholds!.metric).toBe('screenHeight');
      expect(groups[0].levels).toEqual([{ triangles: 300 }, { triangles: 100 }, { triangles: 20 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a .gltf with an external .bin from a path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lodkit-gltf-json-'));
    try {
      const file = join(dir, 'spec.gltf');
      await lodIO().write(file, specExample([0.4, 0.1]).document);
      const { groups } = await loadLodGroupsFromGltf(file);
      expect(groups.map((g) => [g.name, g.layout, g.levels.map((l) => l.triangles)])).toEqual([['High_LOD', 'neverCulled', [300, 100, 20]]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads generated chains with their recorded errors', async () => {
    const document = new Document();
    document.createBuffer();
    document.createScene().addChild(document.createNode('Ball').setMesh(addMesh(document, 'ball', uvSphere(3, 32, 16))));
    const [chain] = await generateLodChain(document, { levels: 3 });
    const { groups } = await loadLodGroupsFromGltf(await lodIO().writeBinary(document));
    expect(groups[0].levels.map((l) => l.error)).toEqual(chain.levels.map((l) => l.error));
    expect(groups[0].boundingSphere.radius).toBeCloseTo(chain.boundingSphere.radius, 6);
  });

  it('is strict by default and lenient on request', async () => {
    const { json, bin } = await toGlbParts(specExample().document);
    json.nodes[0].extras.MSFT_screencoverage = [0.1, 0.2, 0.3];
    const bytes = packGlb(json, bin);
    await expect(loadLodGroupsFromGltf(bytes)).rejects.toThrow(GltfLodError);
    const { groups, warnings } = await loadLodGroupsFromGltf(bytes, { lenient: true });
    expect(groups).toEqual([]);
    expect(warnings[0].code).toBe('coverage-order');
  });
});
