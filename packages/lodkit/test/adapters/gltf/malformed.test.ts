import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GltfLodError, readGltfDocument, readLodGroups, type LodIssueCode,
} from '../../../src/adapters/gltf/index.js';
import { addMesh, lodIO, packGlb, specExample, toGlbParts, triangleSoup } from './fixtures.js';

/** The spec example as editable GLB parts, with a fourth plain node (index 3) for cycles. */
async function parts() {
  const { document } = specExample();
  document.createNode('Other').setMesh(addMesh(document, 'other', triangleSoup(5)));
  return toGlbParts(document);
}

interface Case {
  title: string;
  code: LodIssueCode;
  owner?: string;
  edit: (json: any) => void;
}

const cases: Case[] = [
  { title: 'an id past the end of nodes', code: 'id-out-of-range', edit: (j) => { j.nodes[0].extensions.MSFT_lod.ids = [1, 9]; } },
  { title: 'a negative id', code: 'schema', edit: (j) => { j.nodes[0].extensions.MSFT_lod.ids = [-1]; } },
  { title: 'a fractional id', code: 'schema', edit: (j) => { j.nodes[0].extensions.MSFT_lod.ids = [1.5]; } },
  { title: 'an empty ids list', code: 'schema', edit: (j) => { j.nodes[0].extensions.MSFT_lod.ids = []; } },
  { title: 'ids that is not a list', code: 'schema', edit: (j) => { j.nodes[0].extensions.MSFT_lod.ids = '1,2'; } },
  { title: 'an extension value that is not an object', code: 'schema', edit: (j) => { j.nodes[0].extensions.MSFT_lod = 7; } },
  { title: 'a level that refers to the node itself', code: 'self-reference', edit: (j) => { j.nodes[0].extensions.MSFT_lod.ids = [1, 0]; } },
  { title: 'a repeated level', code: 'duplicate-id', edit: (j) => { j.nodes[0].extensions.MSFT_lod.ids = [1, 1]; } },
  {
    title: 'a cycle through another node', code: 'cycle',
    edit: (j) => { j.nodes[0].extensions.MSFT_lod.ids = [3]; j.nodes[3].extensions = { MSFT_lod: { ids: [0] } }; },
  },
  { title: 'coverage that rises', code: 'coverage-order', edit: (j) => { j.nodes[0].extras.MSFT_screencoverage = [0.2, 0.5, 0.01]; } },
  { title: 'coverage above 1', code: 'coverage-range', edit: (j) => { j.nodes[0].extras.MSFT_screencoverage = [1.5, 0.2, 0.01]; } },
  { title: 'negative coverage', code: 'coverage-range', edit: (j) => { j.nodes[0].extras.MSFT_screencoverage = [0.5, 0.2, -0.01]; } },
  { title: 'too few coverage values', code: 'coverage-count', edit: (j) => { j.nodes[0].extras.MSFT_screencoverage = [0.5]; } },
  { title: 'too many coverage values', code: 'coverage-count', edit: (j) => { j.nodes[0].extras.MSFT_screencoverage = [0.5, 0.4, 0.2, 0.1]; } },
  { title: 'coverage that is not a list', code: 'coverage-schema', edit: (j) => { j.nodes[0].extras.MSFT_screencoverage = '0.5 0.2'; } },
  { title: 'coverage with a string in it', code: 'coverage-schema', edit: (j) => { j.nodes[0].extras.MSFT_screencoverage = [0.5, '0.2', 0.01]; } },
];

describe('malformed MSFT_lod: strict mode', () => {
  for (const c of cases) {
    it(`rejects ${c.title} with an error naming node 0 "High_LOD"`, async () => {
      const { json, bin } = await parts();
      c.edit(json);
      const { document } = await readGltfDocument(packGlb(json, bin));
      let caught: unknown;
      try { readLodGroups(document); } catch (error) { caught = error; }
      expect(caught).toBeInstanceOf(GltfLodError);
      const error = caught as GltfLodError;
      expect(error.message).toContain('node 0 "High_LOD"');
      expect(error.issues.map((i) => i.code)).toContain(c.code);
      expect(error.issues.find((i) => i.code === c.code)).toMatchObject({ owner: 'node', index: 0, name: 'High_LOD' });
    });
  }

  it('names an unnamed node by index only', async () => {
    const { json, bin } = await parts();
    delete json.nodes[0].name;
    json.nodes[0].extensions.MSFT_lod.ids = [0];
    const { document } = await readGltfDocument(packGlb(json, bin));
    expect(() => readLodGroups(document)).toThrow(/node 0: MSFT_lod\.ids\[0\] refers to the node itself/);
  });

  it('names the material for a bad material LOD', async () => {
    const { json, bin } = await parts();
    json.materials = [{ name: 'Paint', extensions: { MSFT_lod: { ids: [4] } } }];
    const { document } = await readGltfDocument(packGlb(json, bin));
    expect(() => readLodGroups(document)).toThrow(/material 0 "Paint": MSFT_lod\.ids\[0\] = 4 is out of range/);
  });

  it('reports a cycle with its path', async () => {
    const { json, bin } = await parts();
    cases.find((c) => c.code === 'cycle')!.edit(json);
    const { document } = await readGltfDocument(packGlb(json, bin));
    expect(() => readLodGroups(document)).toThrow(/cycle: 0 → 3 → 0/);
  });
});

describe('malformed MSFT_lod: lenient mode', () => {
  for (const c of cases) {
    it(`drops the extension for ${c.title} and returns a warning`, async () => {
      const { json, bin } = await parts();
      c.edit(json);
      const { document } = await readGltfDocument(packGlb(json, bin));
      const { groups, warnings } = readLodGroups(document, { lenient: true });
      expect(groups.some((g) => g.index === 0)).toBe(false);
      expect(warnings.find((w) => w.code === c.code)).toMatchObject({ owner: 'node', index: 0, name: 'High_LOD' });
      // Writing the document afterwards gives a valid file: the bad extension is gone.
      const written = await lodIO().writeJSON(document);
      expect(written.json.nodes![0].extensions?.MSFT_lod).toBeUndefined();
      expect((written.json.nodes![0].extras as Record<string, unknown> | undefined)?.MSFT_screencoverage).toBeUndefined();
      const again = readLodGroups(await lodIO().readJSON(written));
      expect(again.warnings).toEqual([]);
    });
  }

  it('keeps the valid groups of a file while dropping a bad one', async () => {
    const { json, bin } = await parts();
    json.nodes[3].extensions = { MSFT_lod: { ids: [3] } };
    const { document } = await readGltfDocument(packGlb(json, bin));
    const { groups, warnings } = readLodGroups(document, { lenient: true });
    expect(groups.map((g) => g.index)).toEqual([0]);
    expect(warnings.map((w) => [w.index, w.code])).toEqual([[3, 'self-reference']]);
  });

  it('catches the same problems on documents built in memory', () => {
    const { document, nodes } = specExample([0.2, 0.5, 0.1]);
    expect(() => readLodGroups(document)).toThrow(/coverage.*must descend/);
    const { warnings } = readLodGroups(document, { lenient: true });
    expect(warnings[0].code).toBe('coverage-order');
    expect(nodes[0].getExtension('MSFT_lod')).toBeNull();
  });
});

describe('arbitrary MSFT_lod and coverage values never crash', () => {
  it('treats non-object extras as empty', async () => {
    const { json, bin } = await parts();
    json.nodes[0].extras = null;
    const { document } = await readGltfDocument(packGlb(json, bin));
    expect(readLodGroups(document).groups[0].layout).toBe('none');
    json.nodes[0].extras = [0.5, 0.2, 0.01];
    const again = await readGltfDocument(packGlb(json, bin));
    expect(readLodGroups(again.document).groups[0].layout).toBe('none');
  });

  const anyJson = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.record({ ids: fc.array(fc.integer({ min: -3, max: 8 }), { maxLength: 5 }) }),
    fc.record({ ids: fc.array(fc.double({ noNaN: false }), { maxLength: 3 }) }),
  );
  const anyCoverage = fc.oneof(
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(fc.double({ min: -0.5, max: 1.5, noNaN: true }), { maxLength: 5 }),
  );
  it('strict mode throws only GltfLodError; lenient mode never throws', async () => {
    const base = await parts();
    const anyExtras = fc.oneof(fc.constant('keep'), fc.constant(null), fc.jsonValue({ maxDepth: 1 }));
    await fc.assert(fc.asyncProperty(anyJson, anyJson, anyCoverage, anyExtras, async (lod0, lod3, coverage, extras3) => {
      const json = structuredClone(base.json);
      json.nodes[0].extensions.MSFT_lod = lod0;
      json.nodes[3].extensions = { MSFT_lod: lod3 };
      if (coverage === undefined) delete json.nodes[0].extras.MSFT_screencoverage;
      else json.nodes[0].extras.MSFT_screencoverage = coverage;
      if (extras3 !== 'keep') json.nodes[3].extras = extras3;
      const bytes = packGlb(json, base.bin);
      const strictDoc = (await readGltfDocument(bytes)).document;
      try { readLodGroups(strictDoc); } catch (error) { expect(error).toBeInstanceOf(GltfLodError); }
      const lenientDoc = (await readGltfDocument(bytes)).document;
      const { groups } = readLodGroups(lenientDoc, { lenient: true });
      for (const g of groups) {
        expect(g.levels.length).toBeGreaterThanOrEqual(2);
        if (g.thresholds) expect(g.thresholds.levelCount).toBe(g.levels.length);
      }
    }), { numRuns: 150 });
  });
});
