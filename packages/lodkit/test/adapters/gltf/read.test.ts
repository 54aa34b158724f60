import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  GltfReadError, MSFTLod, coverageToThresholds, readGltfDocument, readLodGroups,
} from '../../../src/adapters/gltf/index.js';
import { addMesh, lodIO, packGlb, specExample, toGlbParts, toJSONDoc, triangleSoup } from './fixtures.js';

const f32 = (values: number[]): number[] => values.map((v) => Math.fround(v));

describe('readLodGroups: the spec example', () => {
  it('reads level 0 = the node, ids = coarser levels, coverage per level (culled below the last)', async () => {
    const { document } = specExample();
    const { groups, warnings } = readLodGroups(document);
    expect(warnings).toEqual([]);
    expect(groups).toHaveLength(1);
    const g = groups[0];
    expect(g.name).toBe('High_LOD');
    expect(g.index).toBe(0);
    expect(g.levels.map((l) => [l.index, l.name, l.triangles])).toEqual([[0, 'High_LOD', 300], [1, 'Medium_LOD', 100], [2, 'Low_LOD', 20]]);
    expect(g.layout).toBe('culled');
    expect(g.coverage).toEqual([0.5, 0.2, 0.01]);
    expect(g.thresholds!.metric).toBe('screenArea');
    expect(Array.from(g.thresholds!.thresholds)).toEqual(f32([0.5, 0.2]));
    expect(g.cullBelow).toBe(0.01);
    // The spec's reading: LOD0 from 1.0 to 0.5, LOD1 0.5–0.2, LOD2 0.2–0.01, nothing below 0.01.
    expect(g.thresholds!.computeLod(0.9)).toBe(0);
    expect(g.thresholds!.computeLod(0.35)).toBe(1);
    expect(g.thresholds!.computeLod(0.05)).toBe(2);
    expect(0.005 < g.cullBelow).toBe(true);
  });

  it('reads coverage as a height fraction on request', () => {
    const { groups } = readLodGroups(specExample().document, { coverage: 'height' });
    expect(groups[0].thresholds!.metric).toBe('screenHeight');
    expect(Array.from(groups[0].thresholds!.thresholds)).toEqual(f32([0.5, 0.2]));
  });

  it('accepts one value fewer than levels: the last level is never culled', () => {
    const { groups } = readLodGroups(specExample([0.4, 0.1]).document);
    expect(groups[0].layout).toBe('neverCulled');
    expect(Array.from(groups[0].thresholds!.thresholds)).toEqual(f32([0.4, 0.1]));
    expect(groups[0].cullBelow).toBe(0);
  });

  it('accepts no coverage (thresholds come from the caller)', () => {
    const { groups } = readLodGroups(specExample(null).document);
    expect(groups[0].layout).toBe('none');
    expect(groups[0].thresholds).toBeNull();
    expect(groups[0].coverage).toBeNull();
  });

  it('reads the same groups from GLB bytes and from JSON', async () => {
    const { document } = specExample();
    const bytes = await lodIO().writeBinary(document);
    for (const source of [bytes, await toJSONDoc(document)]) {
      const read = await readGltfDocument(source);
      const { groups } = readLodGroups(read.document);
      expect(groups.map((g) => [g.index, g.name, g.coverage, g.levels.map((l) => l.triangles)]))
        .toEqual([[0, 'High_LOD', [0.5, 0.2, 0.01], [300, 100, 20]]]);
      expect(read.messages).toEqual([]);
    }
  });

  it('counts a level node\'s whole subtree', () => {
    const { document, nodes } = specExample();
    nodes[1].addChild(document.createNode('extra').setMesh(addMesh(document, 'extra', triangleSoup(7))));
    expect(readLodGroups(document).groups[0].levels[1].triangles).toBe(107);
  });
});

describe('readLodGroups: material LODs', () => {
  it('lists material LODs within the node level that uses them', async () => {
    const document = new Document();
    document.createBuffer();
    const ext = document.createExtension(MSFTLod);
    const high = document.createNode('car').setMesh(addMesh(document, 'body', triangleSoup(40), 'Paint'));
    const low = document.createNode('car_low').setMesh(addMesh(document, 'body_low', triangleSoup(10), 'Flat'));
    const paint = document.getRoot().listMaterials()[0];
    const paintLow = document.createMaterial('Paint_low');
    const paintLower = document.createMaterial('Paint_lower');
    paint.setExtension('MSFT_lod', ext.createLod().addLevel(paintLow).addLevel(paintLower));
    high.setExtension('MSFT_lod', ext.createLod().addLevel(low));
    const read = await readGltfDocument(await lodIO().writeBinary(document));
    const { groups, materialLods } = readLodGroups(read.document);
    expect(materialLods.map((m) => [m.name, m.index, m.levels.map((l) => [l.name, l.index])]))
      .toEqual([['Paint', 0, [['Paint_low', 2], ['Paint_lower', 3]]]]);
    expect(groups[0].levels[0].materialLods.map((m) => m.name)).toEqual(['Paint']);
    expect(groups[0].levels[1].materialLods).toEqual([]);
  });
});

describe('readGltfDocument', () => {
  it('reads MSFT_lod that is missing from extensionsUsed, with a warning', async () => {
    const { json, bin } = await toGlbParts(specExample().document);
    json.extensionsUsed = [];
    const read = await readGltfDocument(packGlb(json, bin));
    const { groups, warnings } = readLodGroups(read.document);
    expect(groups).toHaveLength(1);
    expect(warnings.map((w) => w.code)).toEqual(['not-declared']);
  });

  it('throws GltfReadError for bytes that are not glTF', async () => {
    await expect(readGltfDocument(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))).rejects.toThrow(GltfReadError);
    await expect(readGltfDocument(42 as unknown as Uint8Array)).rejects.toThrow(/source must be/);
  });

  it('collects glTF-Transform messages instead of printing them', async () => {
    const { json, bin } = await toGlbParts(specExample().document);
    json.extensionsUsed.push('EXT_unknown_thing');
    const read = await readGltfDocument(packGlb(json, bin));
    expect(read.messages.some((m) => m.includes('EXT_unknown_thing'))).toBe(true);
  });
});

describe('coverageToThresholds', () => {
  it('splits the coverage into thresholds over the levels and a cull size', () => {
    const a = coverageToThresholds([0.5, 0.2, 0.01], 3, 'area');
    expect(a.thresholds.levelCount).toBe(3);
    expect(a.cullBelow).toBe(0.01);
    const b = coverageToThresholds([0.5, 0.2], 3, 'height');
    expect(b.thresholds.metric).toBe('screenHeight');
    expect(b.cullBelow).toBe(0);
  });
});
