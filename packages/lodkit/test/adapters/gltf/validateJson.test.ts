/**
 * The JSON work limits and whitelists of validateJson.ts: the pre-parse scan and the tree walk
 * against a recursive oracle written here (depth and member/element counts of a JSON value), the
 * object count, name lengths, own-key whitelists for accessor layouts and attribute names, and
 * element counts per primitive mode.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GLTF_READ_LIMITS, GltfReadError, readGltfDocument } from '../../../src/adapters/gltf/index.js';
import {
  accessorLayout, checkAttributeName, checkJsonTree, checkObjectCount, checkPrimitive, checkStringFields, scanJsonText,
} from '../../../src/adapters/gltf/validateJson.js';
import { packGlb, specExample, toGlbParts } from './fixtures.js';

/** Nesting depth (containers on the deepest path) and members + elements of a JSON value. */
function oracle(value: unknown): { depth: number; entries: number } {
  if (value === null || typeof value !== 'object') return { depth: 0, entries: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  let depth = 0;
  let entries = children.length;
  for (const child of children) {
    const inner = oracle(child);
    depth = Math.max(depth, inner.depth);
    entries += inner.entries;
  }
  return { depth: depth + 1, entries };
}

const scanLimits = (jsonDepth: number, jsonEntries: number) => ({ jsonDepth, jsonEntries, nameLength: 1024 });
/** JSON objects of any shape, with strings full of brackets, quotes and escapes. */
const documents = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 6 }), { maxKeys: 6 });

describe('scanJsonText (before JSON.parse)', () => {
  it('finds the same depth and entry count as a recursive count over the parsed value', () => {
    fc.assert(fc.property(documents, fc.boolean(), (value, indent) => {
      const text = JSON.stringify(value, null, indent ? 2 : undefined);
      const { depth, entries } = oracle(value);
      expect(() => scanJsonText(text, 'x', scanLimits(depth, entries))).not.toThrow();
      expect(() => scanJsonText(text, 'x', scanLimits(depth - 1, entries))).toThrow(/nests deeper than/);
      if (entries > 0) expect(() => scanJsonText(text, 'x', scanLimits(depth, entries - 1))).toThrow(/members and elements/);
    }));
  });

  it('refuses 10⁵ levels without recursing, naming the path and shortening it', () => {
    const text = `{"asset":{"version":"2.0"},"nodes":[{"extras":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`;
    expect(() => scanJsonText(text, 'glTF JSON', GLTF_READ_LIMITS)).toThrow(/^glTF JSON nests deeper than 64 levels \(the limit\) at nodes\[0\]\.extras\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]…\(54 more levels\)$/);
  });

  it('names the element where the entry limit is reached (keys with escapes count as keys)', () => {
    const text = '{"a\\"[":{"b":[1,2,[3,4]]}}';
    // Entries in order: a"[ (1), b (2), 1 (3), 2 (4), [..] (5), 3 (6), 4 (7).
    expect(() => scanJsonText(text, 't', scanLimits(10, 7))).not.toThrow();
    expect(() => scanJsonText(text, 't', scanLimits(10, 6))).toThrow('t has more than 6 JSON members and elements (the limit; reached at a\\"[.b[2][1])');
  });
});

describe('checkJsonTree (parsed sources)', () => {
  it('agrees with the recursive count', () => {
    fc.assert(fc.property(documents, (value) => {
      const { depth, entries } = oracle(value);
      expect(() => checkJsonTree(value, scanLimits(depth, entries))).not.toThrow();
      expect(() => checkJsonTree(value, scanLimits(depth - 1, entries))).toThrow(/nests deeper than/);
      if (entries > 0) expect(() => checkJsonTree(value, scanLimits(depth, entries - 1))).toThrow(/members and elements/);
    }));
  });

  it('refuses a 10⁵-deep {json} source with a GltfReadError, not a stack overflow', async () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const { json, bin } = await toGlbParts(specExample().document);
    json.nodes![1].extras = { deep };
    const error = await readGltfDocument({ json, resources: { '@glb.bin': new Uint8Array(bin!) } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GltfReadError);
    expect((error as Error).message).toMatch(/nests deeper than 64 levels \(the limit\) at nodes\[1\]\.extras\.deep\[0\]/);
  });

  it('names limit 1,024 UTF-16 units: 1,024 is read, 1,025 refused naming nodes[2].name', async () => {
    const { json, bin } = await toGlbParts(specExample().document);
    json.nodes![2].name = '😀'.repeat(512); // 1,024 units (two per emoji)
    await expect(readGltfDocument(packGlb(json, bin))).resolves.toBeDefined();
    json.nodes![2].name += 'x';
    await expect(readGltfDocument(packGlb(json, bin))).rejects.toThrow('nodes[2].name is 1025 characters long, more than the limit of 1024');
    await expect(readGltfDocument(packGlb(json, bin), { limits: { nameLength: 2000 } })).resolves.toBeDefined();
  });
});

describe('checkObjectCount', () => {
  it('counts nested primitives, targets, channels and samplers, and names the largest list', () => {
    const json = {
      asset: { version: '2.0' }, nodes: [{}, {}], accessors: [{}],
      meshes: [{ primitives: [{ targets: [{}, {}] }, {}] }],
      animations: [{ channels: [{}, {}, {}, {}], samplers: [{}] }],
    };
    // 2 nodes + 1 accessor + 1 mesh + 2 primitives + 2 targets + 1 animation + 4 channels + 1 sampler = 14.
    expect(() => checkObjectCount(json, { objects: 14 })).not.toThrow();
    expect(() => checkObjectCount(json, { objects: 13 })).toThrow(/^animations\[0\]\.channels has 4 entries; with the rest the file makes 14 glTF objects/);
  });
});

describe('checkStringFields (found by the fuzzer: a number as a name, an object as extensionsUsed)', () => {
  it('extension lists are lists of strings; top-level objects\' names are strings; extras are not looked at', () => {
    const ok = { asset: { version: '2.0' }, extensionsUsed: ['MSFT_lod'], nodes: [{ name: 'a' }, {}, { extras: { name: 7 } }] };
    expect(() => checkStringFields(ok)).not.toThrow();
    expect(() => checkStringFields({ ...ok, extensionsUsed: { 0: 'MSFT_lod' } as unknown as string[] })).toThrow(/^extensionsUsed must be a list of extension names, got \{"0":"MSFT_lod"\}/);
    expect(() => checkStringFields({ ...ok, extensionsRequired: ['KHR_x', 5] })).toThrow(/^extensionsRequired\[1\] must be an extension name \(a string\), got 5/);
    expect(() => checkStringFields({ ...ok, nodes: [{}, { name: 255 }] })).toThrow(/^nodes\[1\]\.name must be a string, got 255/);
    expect(() => checkStringFields({ ...ok, materials: [{ name: null }] })).toThrow(/^materials\[0\]\.name must be a string, got null/);
  });
});

describe('own-key whitelists', () => {
  it('accessor type and componentType: prototype keys are not types', () => {
    expect(accessorLayout({ type: 'MAT3', componentType: 5122 }, 'a')).toEqual({ componentBytes: 2, components: 9 });
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'vec3', 4]) {
      expect(() => accessorLayout({ type, componentType: 5126 }, 'accessors[2]')).toThrow(/^accessors\[2\]\.type = .* is not a glTF accessor type/);
    }
    for (const componentType of ['constructor', 'toString', '5126', 5124, 5127]) {
      expect(() => accessorLayout({ type: 'VEC3', componentType }, 'accessors[2]')).toThrow(/^accessors\[2\]\.componentType = .* is not a glTF component type/);
    }
  });

  it('attribute names: glTF semantics and _APPLICATION names, nothing else', () => {
    for (const name of ['POSITION', 'NORMAL', 'TANGENT', 'TEXCOORD_0', 'TEXCOORD_12', 'COLOR_1', 'JOINTS_0', 'WEIGHTS_3', '_FEATURE_ID_0', '_x']) {
      expect(() => checkAttributeName(name, 'p')).not.toThrow();
    }
    for (const name of ['constructor', '__proto__', 'toString', '__defineGetter__', 'TEXCOORD_01', 'TEXCOORD', 'texcoord_0', 'POSITION ', '', '_', '_a-b']) {
      expect(() => checkAttributeName(name, 'meshes[0].primitives[0].attributes'), name).toThrow(/^meshes\[0\]\.primitives\[0\]\.attributes: .* is not a glTF attribute name/);
    }
  });
});

describe('checkPrimitive: element counts per mode (glTF 2.0 §3.7.2.1)', () => {
  // Each mode's rule from the spec's definitions: points 1 each; lines pairs; loops and strips of
  // lines need two vertices; triangles triples; strips and fans need three.
  const rules: [number, string, number[], number[]][] = [
    [0, 'POINTS', [1, 2, 7], []],
    [1, 'LINES', [2, 4, 10], [1, 3, 9]],
    [2, 'LINE_LOOP', [2, 3, 7], [1]],
    [3, 'LINE_STRIP', [2, 3, 7], [1]],
    [4, 'TRIANGLES', [3, 6, 99], [1, 2, 4, 5, 100]],
    [5, 'TRIANGLE_STRIP', [3, 4, 5], [1, 2]],
    [6, 'TRIANGLE_FAN', [3, 4, 5], [1, 2]],
  ];
  const position = (count: number) => ({ type: 'VEC3', componentType: 5126, count });
  const indices = (count: number) => ({ type: 'SCALAR', componentType: 5123, count });
  for (const [mode, name, ok, bad] of rules) {
    it(`${name}: ${ok.join(', ')} fit, ${bad.join(', ') || 'nothing'} do not (indexed and not)`, () => {
      for (const n of ok) {
        expect(checkPrimitive({ attributes: { POSITION: 0 }, mode }, 'p', [position(n)])).toEqual({ vertices: n, drawn: n });
        expect(checkPrimitive({ attributes: { POSITION: 0 }, indices: 1, mode }, 'p', [position(5), indices(n)])).toEqual({ vertices: 5, drawn: n });
      }
      for (const n of bad) {
        expect(() => checkPrimitive({ attributes: { POSITION: 0 }, mode }, 'p', [position(n)])).toThrow(`p: POSITION count ${n} does not fit mode ${name}`);
        expect(() => checkPrimitive({ attributes: { POSITION: 0 }, indices: 1, mode }, 'p', [position(5), indices(n)])).toThrow(`p: index count (accessors[1]) ${n} does not fit mode ${name}`);
      }
    });
  }

  it('refuses modes outside 0–6 and attribute counts that differ from POSITION', () => {
    for (const mode of [7, -1, 1.5, '4', 'constructor']) {
      expect(() => checkPrimitive({ attributes: { POSITION: 0 }, mode }, 'p', [position(3)])).toThrow(/^p\.mode = .* is not a glTF primitive mode/);
    }
    expect(() => checkPrimitive({ attributes: { NORMAL: 1, POSITION: 0 } }, 'p', [position(3), position(6)])).toThrow('p.attributes.NORMAL (accessors[1]) has 6 elements, POSITION has 3');
    expect(() => checkPrimitive({ attributes: { POSITION: 0 }, targets: [{ POSITION: 1 }] }, 'p', [position(3), position(6)])).toThrow('p.targets[0].POSITION (accessors[1]) has 6 elements, the primitive has 3 vertices');
  });
});

describe('limits can be raised for a legitimately larger file', () => {
  it('objects: refused by default, read with a higher limit', async () => {
    const { json, bin } = await toGlbParts(specExample().document);
    for (let i = 0; i < GLTF_READ_LIMITS.objects; i++) json.nodes!.push({});
    const glb = packGlb(json, bin);
    await expect(readGltfDocument(glb)).rejects.toThrow(/^Could not read glTF: nodes has 100003 entries; with the rest the file makes 100017 glTF objects/);
    const { document } = await readGltfDocument(glb, { limits: { objects: 200_000 } });
    expect(document.getRoot().listNodes()).toHaveLength(100_003);
  });
});
