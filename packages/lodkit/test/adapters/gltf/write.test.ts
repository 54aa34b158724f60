import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LodThresholds } from '../../../src/index.js';
import {
  coverageFromThresholds, readGltfDocument, readLodGroups, writeLodGroup, writeLodGroups, writeMaterialLod, type GltfLodGroup,
} from '../../../src/adapters/gltf/index.js';
import { addMesh, lodIO, specExample, toGlbParts, triangleSoup, unlinkedLevels } from './fixtures.js';

/** A comparable summary of groups (no object identities). */
function summary(groups: GltfLodGroup[]) {
  return groups.map((g) => ({
    index: g.index, name: g.name, layout: g.layout, coverage: g.coverage, cullBelow: g.cullBelow,
    thresholds: g.thresholds ? g.thresholds.toJSON() : null,
    levels: g.levels.map((l) => ({ index: l.index, name: l.name, triangles: l.triangles, error: l.error })),
  }));
}

describe('writeLodGroup', () => {
  it('writes the form Babylon.js loads: extensionsUsed, node ids, extras coverage, not required', async () => {
    const { document, high, mid, low } = unlinkedLevels();
    high.setExtras({ author: 'kept' });
    writeLodGroup(document, { node: high, levels: [mid, low], coverage: [0.5, 0.2, 0.01] });
    const { json } = await toGlbParts(document);
    expect(json.extensionsUsed).toEqual(['MSFT_lod']);
    expect(json.extensionsRequired ?? []).toEqual([]);
    expect(json.nodes[0]).toMatchObject({
      name: 'High', extensions: { MSFT_lod: { ids: [1, 2] } }, extras: { author: 'kept', MSFT_screencoverage: [0.5, 0.2, 0.01] },
    });
    // Coarser levels are not in the scene: viewers without MSFT_lod draw level 0 only.
    expect(json.scenes[0].nodes).toEqual([0]);
    // Every id is an integer index of an existing node (what Babylon's loader looks up).
    for (const id of json.nodes[0].extensions.MSFT_lod.ids) expect(Number.isInteger(id) && id < json.nodes.length).toBe(true);
  });

  it('rejects invalid input with a RangeError naming the node', () => {
    const { document, nodes } = specExample(null);
    const [high, mid, low] = nodes;
    expect(() => writeLodGroup(document, { node: high, levels: [] })).toThrow(/node 0 "High_LOD": levels must list/);
    expect(() => writeLodGroup(document, { node: high, levels: [high] })).toThrow(/node 0 "High_LOD": levels\[0\] is the node itself/);
    expect(() => writeLodGroup(document, { node: high, levels: [mid, mid] })).toThrow(/repeats/);
    expect(() => writeLodGroup(document, { node: high, levels: [mid, low], coverage: [0.1, 0.5] })).toThrow(/node 0 "High_LOD".*must descend/);
    expect(() => writeLodGroup(document, { node: high, levels: [mid, low], coverage: [0.5] })).toThrow(/1 values for 3 levels/);
    expect(() => writeLodGroup(document, { node: high, levels: [mid, low], errors: [0, 1] })).toThrow(/errors must hold 3/);
    const other = new Document().createNode('x');
    expect(() => writeLodGroup(document, { node: other, levels: [mid] })).toThrow(/must belong to the document/);
  });

  it('replaces an existing group and removes coverage when given null', async () => {
    const { document, nodes } = specExample();
    writeLodGroup(document, { node: nodes[0], levels: [nodes[2]], coverage: null });
    const { groups } = readLodGroups(document);
    expect(groups[0].levels.map((l) => l.name)).toEqual(['High_LOD', 'Low_LOD']);
    expect(groups[0].layout).toBe('none');
    expect(nodes[0].getExtras()).toEqual({});
  });
});

describe('writeMaterialLod', () => {
  it('writes material ids and reads them back within the node level', async () => {
    const document = new Document();
    document.createBuffer();
    const node = document.createNode('Car').setMesh(addMesh(document, 'car', triangleSoup(4), 'Paint'));
    const paint = document.getRoot().listMaterials()[0];
    const low = document.createMaterial('Paint_low');
    writeMaterialLod(document, { material: paint, levels: [low] });
    const { json } = await toGlbParts(document);
    expect(json.materials[0].extensions).toEqual({ MSFT_lod: { ids: [1] } });
    expect(json.extensionsUsed).toEqual(['MSFT_lod']);
    const { materialLods } = readLodGroups((await readGltfDocument(await lodIO().writeBinary(document))).document);
    expect(materialLods.map((m) => [m.name, m.levels.map((l) => l.name)])).toEqual([['Paint', ['Paint_low']]]);
    expect(() => writeMaterialLod(document, { material: paint, levels: [paint] })).toThrow(/material 0 "Paint": levels\[0\] is the material itself/);
    expect(node.getName()).toBe('Car');
  });
});

describe('round trip: read → write → read', () => {
  it('gives the same groups for the spec example through GLB bytes', async () => {
    const first = await readGltfDocument(await lodIO().writeBinary(specExample().document));
    const a = readLodGroups(first.document);
    writeLodGroups(first.document, a.groups);
    const second = await readGltfDocument(await lodIO().writeBinary(first.document));
    const b = readLodGroups(second.document);
    expect(summary(b.groups)).toEqual(summary(a.groups));
  });

  it('gives the same groups for random LOD layouts (property)', async () => {
    const layout = fc.record({
      triangles: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 2, maxLength: 5 }),
      coverage: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 }),
      kind: fc.constantFrom('culled', 'neverCulled', 'none'),
      errors: fc.boolean(),
    });
    await fc.assert(fc.asyncProperty(fc.array(layout, { minLength: 1, maxLength: 3 }), async (groups) => {
      const document = new Document();
      document.createBuffer();
      const scene = document.createScene();
      groups.forEach((g, k) => {
        const nodes = g.triangles.map((t, level) => document.createNode(`g${k}_L${level}`).setMesh(addMesh(document, `g${k}_${level}`, triangleSoup(t))));
        scene.addChild(nodes[0]);
        const n = nodes.length;
        const sorted = g.coverage.slice(0, n).sort((x, y) => y - x);
        const coverage = g.kind === 'culled' ? sorted : g.kind === 'neverCulled' ? sorted.slice(0, n - 1) : null;
        const errors = g.errors ? nodes.map((_, level) => level * 0.25) : null;
        writeLodGroup(document, { node: nodes[0], levels: nodes.slice(1), coverage, errors });
      });
      const a = readLodGroups(document);
      const firstRead = await readGltfDocument(await lodIO().writeBinary(document));
      const b = readLodGroups(firstRead.document);
      expect(summary(b.groups)).toEqual(summary(a.groups));
      writeLodGroups(firstRead.document, b.groups);
      const c = readLodGroups((await readGltfDocument(await lodIO().writeBinary(firstRead.document))).document);
      expect(summary(c.groups)).toEqual(summary(a.groups));
      expect(c.groups).toHaveLength(groups.length);
    }), { numRuns: 40 });
  });
});

describe('coverageFromThresholds', () => {
  it('keeps area thresholds, converts height to area with π h² / (4 aspect)', () => {
    const area = new LodThresholds({ metric: 'screenArea', thresholds: [0.5, 0.25] });
    expect(coverageFromThresholds(area)).toEqual([Math.fround(0.5), Math.fround(0.25)]);
    const height = new LodThresholds({ metric: 'screenHeight', thresholds: [0.5] });
    // Hand-worked: π · 0.25 / (4 · 2) = 0.09817…
    expect(coverageFromThresholds(height, { aspect: 2 })[0]).toBeCloseTo(Math.PI * 0.25 / 8, 12);
    expect(coverageFromThresholds(height, { as: 'height', cullBelow: 0.1 })).toEqual([0.5, 0.1]);
  });

  it('converts pixels with the viewport height and refuses distances', () => {
    const px = new LodThresholds({ metric: 'pixels', thresholds: [540] });
    expect(coverageFromThresholds(px, { as: 'height', viewportHeight: 1080 })).toEqual([0.5]);
    expect(() => coverageFromThresholds(px, { as: 'height' })).toThrow(/viewportHeight is required/);
    const d = new LodThresholds({ metric: 'distance', thresholds: [10] });
    expect(() => coverageFromThresholds(d)).toThrow(/no screen coverage equivalent/);
  });
});
