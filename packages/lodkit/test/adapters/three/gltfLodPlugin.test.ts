/**
 * MSFTLodLoaderPlugin: small glTF files written by hand (JSON packed into GLB bytes with one
 * octahedron of radius R, so every bounding sphere is exactly R), parsed in Node by three's own
 * GLTFLoader. GLB rather than a base64 `data:` URI: three's FileLoader needs `ProgressEvent`, which
 * Node does not have, while a GLB's binary chunk is read without it. Expected thresholds, screen sizes and levels are worked out from the coverage rules
 * and the projected-sphere formulas, not by calling lodkit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Mesh, Object3D, PerspectiveCamera } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import {
  MSFTLodLoaderPlugin, type MSFTLodLoaderPluginOptions,
} from '../../../src/adapters/three/gltfLodPlugin.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/index.js';
import { Document } from '@gltf-transform/core';
import { generateLodChain, readGltfDocument, readLodGroups } from '../../../src/adapters/gltf/index.js';
import { addMesh, lodIO, specExample, uvSphere } from '../gltf/fixtures.js';

const R = 1;
/**
 * The sphere kept with `exactSpheres: false`: GLTFLoader sets each geometry's bounding sphere from the POSITION
 * accessor's min/max box (centre = box centre, radius = half its diagonal), so an octahedron of
 * radius R gets √3·R, not its tight R.
 */
const SPHERE_R = Math.hypot(2 * R, 2 * R, 2 * R) / 2;
const FOV = 60;
const TAN = Math.tan((FOV / 2) * (Math.PI / 180));

/** Bytes of an octahedron: positions (±R on each axis, float32) then uint16 indices. */
function octahedronBytes(radius: number): Uint8Array {
  const positions = new Float32Array([radius, 0, 0, -radius, 0, 0, 0, radius, 0, 0, -radius, 0, 0, 0, radius, 0, 0, -radius]);
  const indices = new Uint16Array([0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5]);
  const bytes = new Uint8Array(positions.byteLength + indices.byteLength);
  bytes.set(new Uint8Array(positions.buffer), 0);
  bytes.set(new Uint8Array(indices.buffer), positions.byteLength);
  return bytes;
}

/** GLB container: 12-byte header, JSON chunk (space padded), BIN chunk (zero padded). */
function packGlb(json: object, bin: Uint8Array): ArrayBuffer {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = Math.ceil(text.length / 4) * 4, binLength = Math.ceil(bin.length / 4) * 4;
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  view.setUint32(20 + jsonLength, binLength, true);
  view.setUint32(24 + jsonLength, 0x004e4942, true); // 'BIN'
  out.set(bin, 28 + jsonLength);
  return out.buffer;
}

type NodeDef = Record<string, unknown>;

/**
 * The standard file: Root (node 0) holds Tree (node 1, level 0, at (1, 2, 3)) and Rock (node 4);
 * Tree_LOD1 (2) and Tree_LOD2 (3) are the coarser levels, outside the scene as the spec asks.
 */
function baseNodes(lod: unknown, coverage?: unknown): NodeDef[] {
  const tree: NodeDef = { name: 'Tree', mesh: 0, translation: [1, 2, 3], extensions: { MSFT_lod: lod } };
  if (coverage !== undefined) tree.extras = { MSFT_screencoverage: coverage };
  return [
    { name: 'Root', children: [1, 4] },
    tree,
    { name: 'Tree_LOD1', mesh: 1, translation: [1, 2, 3] },
    { name: 'Tree_LOD2', mesh: 2, translation: [1, 2, 3] },
    { name: 'Rock', mesh: 0, translation: [-5, 0, 0] },
  ];
}

function gltfJson(nodes: NodeDef[], sceneNodes: number[] = [0]): ArrayBuffer {
  const bin = octahedronBytes(R);
  return packGlb({
    asset: { version: '2.0' },
    extensionsUsed: ['MSFT_lod'],
    scene: 0,
    scenes: [{ nodes: sceneNodes }],
    nodes,
    meshes: ['lod0', 'lod1', 'lod2', 'lod3'].map((name) => ({ name, primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] })),
    accessors: [
      { bufferView: 0, componentType: 5126, count: 6, type: 'VEC3', min: [-R, -R, -R], max: [R, R, R] },
      { bufferView: 1, componentType: 5123, count: 24, type: 'SCALAR' },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 72, target: 34962 },
      { buffer: 0, byteOffset: 72, byteLength: 48, target: 34963 },
    ],
    buffers: [{ byteLength: bin.byteLength }],
  }, bin);
}

async function load(json: ArrayBuffer, options?: MSFTLodLoaderPluginOptions): Promise<{ gltf: GLTF; plugin: MSFTLodLoaderPlugin }> {
  let plugin: MSFTLodLoaderPlugin | undefined;
  const loader = new GLTFLoader().register((parser) => (plugin = new MSFTLodLoaderPlugin(parser, options)));
  const gltf = await loader.parseAsync(json, '');
  return { gltf, plugin: plugin! };
}

/** Camera on the +z axis of `target`, at distance d (Euclidean eye–centre distance = d). */
function cameraAt(target: [number, number, number], d: number): PerspectiveCamera {
  const camera = new PerspectiveCamera(FOV, 1, 0.01, 10_000);
  camera.position.set(target[0], target[1], target[2] + d);
  camera.lookAt(target[0], target[1], target[2]);
  camera.updateMatrixWorld(true);
  return camera;
}

/** OpenUSD projected-sphere area by hand: π(R/d)² / windowArea, window = 2tan(fov/2) square at depth 1 (aspect 1). */
function areaByHand(radius: number, d: number): number {
  return (Math.PI * (radius / d) ** 2) / (2 * TAN * 2 * TAN);
}
/** Screen-height fraction by hand: 2R / (d · 2tan(fov/2)). */
function heightByHand(radius: number, d: number): number {
  return (2 * radius) / (d * 2 * TAN);
}
/** Level for descending thresholds: the number of thresholds the size does not exceed. */
function levelByHand(thresholds: number[], size: number): number {
  let l = 0;
  while (l < thresholds.length && !(size > thresholds[l])) l++;
  return l;
}

function treeSlot(gltf: GLTF): Object3D {
  return gltf.scene.children[0].children[0];
}

afterEach(() => { vi.restoreAllMocks(); });

describe('MSFTLodLoaderPlugin: a valid group', () => {
  it('replaces the node by a ScreenSizeLOD with the levels in order and the coverage as thresholds (spec example)', async () => {
    const { gltf, plugin } = await load(gltfJson(baseNodes({ ids: [2, 3] }, [0.5, 0.2, 0.01])));
    const root = gltf.scene.children[0];
    const lod = root.children[0] as ScreenSizeLOD;
    expect(lod).toBeInstanceOf(ScreenSizeLOD);
    expect(lod.name).toBe('Tree');
    expect(lod.position.toArray()).toEqual([1, 2, 3]);
    expect(lod.metric).toBe('screenArea');
    // Child order of the parent is kept: the LOD sits where Tree was, Rock after it.
    expect(root.children.map((c) => c.name)).toEqual(['Tree', 'Rock']);
    expect(root.children[1]).toBeInstanceOf(Mesh);
    // Levels: Tree, Tree_LOD1, Tree_LOD2, then the empty "nothing" level (culled layout).
    expect(lod.levels.map((l) => l.object.name)).toEqual(['Tree', 'Tree_LOD1', 'Tree_LOD2', 'Tree_culled']);
    expect(lod.levels[0].object).toBeInstanceOf(Mesh);
    expect(lod.levels[3].object.children).toHaveLength(0);
    expect(lod.levels[3].object.userData.lodkitEmptyLevel).toBe(true);
    for (const level of lod.levels) expect(level.object.parent).toBe(lod);
    // Level 1 drawn from 0.5 down to 0.2, level 2 from 0.2 to 0.01, nothing below 0.01.
    expect(lod.thresholds).toEqual([0.5, 0.2, 0.01].map(Math.fround));
    // Every level node had the same transform as level 0: inside the LOD they are identity.
    for (const level of lod.levels) {
      expect(level.object.position.toArray()).toEqual([0, 0, 0]);
      expect(level.object.scale.toArray()).toEqual([1, 1, 1]);
    }
    expect(plugin.warnings).toEqual([]);
    expect(plugin.groups).toHaveLength(1);
    expect(plugin.groups[0]).toMatchObject({ nodeIndex: 1, layout: 'culled' });
    expect(gltf.parser.associations.get(lod)).toEqual({ nodes: 1 });
  });

  // Default (exactSpheres): the tight sphere, radius R. area = π/(4/3·d²) = 2.356/d²:
  // d = 2 → 0.589 (level 0); 3 → 0.262 (1); 6 → 0.0654 (2); 20 → 0.0059 (nothing).
  // exactSpheres: false keeps GLTFLoader's box sphere √3·R: area = 7.069/d²:
  // d = 3 → 0.785 (0); 5 → 0.283 (1); 10 → 0.0707 (2); 40 → 0.0044 (nothing).
  const areaCases: { exactSpheres: boolean; radius: number; cases: [number, number][] }[] = [
    { exactSpheres: true, radius: R, cases: [[2, 0], [3, 1], [6, 2], [20, 3]] },
    { exactSpheres: false, radius: SPHERE_R, cases: [[3, 0], [5, 1], [10, 2], [40, 3]] },
  ];
  for (const { exactSpheres, radius, cases } of areaCases) {
    it(`chooses the level from the projected area π(R/d)²/windowArea at known distances (exactSpheres: ${exactSpheres})`, async () => {
      const { gltf } = await load(gltfJson(baseNodes({ ids: [2, 3] }, [0.5, 0.2, 0.01])), { exactSpheres });
      const lod = treeSlot(gltf) as ScreenSizeLOD;
      const coverage = [0.5, 0.2, 0.01];
      for (const [d, expected] of cases) {
        const area = areaByHand(radius, d);
        expect(levelByHand(coverage, area)).toBe(expected);
        lod.update(cameraAt([1, 2, 3], d));
        expect(lod.size).toBeCloseTo(area, 9);
        expect(lod.getCurrentLevel()).toBe(expected);
        expect(lod.levels.map((l) => l.object.visible)).toEqual([0, 1, 2, 3].map((k) => k === expected));
      }
    });
  }
  it('hand-worked area values', () => {
    expect(areaByHand(R, 2)).toBeCloseTo(Math.PI / 4 / (4 / 3), 12);
    expect(areaByHand(SPHERE_R, 3)).toBeCloseTo((3 * Math.PI) / (4 / 3) / 9, 9);
    expect(areaByHand(SPHERE_R, 40)).toBeCloseTo(0.0044179, 6);
  });

  it("coverage: 'height' gives screenHeight thresholds; one value fewer than levels is never culled", async () => {
    const { gltf, plugin } = await load(gltfJson(baseNodes({ ids: [2, 3] }, [0.5, 0.2])), { coverage: 'height', exactSpheres: false });
    const lod = treeSlot(gltf) as ScreenSizeLOD;
    expect(lod.metric).toBe('screenHeight');
    expect(lod.levels.map((l) => l.object.name)).toEqual(['Tree', 'Tree_LOD1', 'Tree_LOD2']);
    expect(lod.thresholds).toEqual([0.5, 0.2].map(Math.fround));
    expect(plugin.groups[0].layout).toBe('neverCulled');
    // h = 2·√3R/(d·2tan30°) = 3/d: d = 4 → 0.75 (level 0), d = 10 → 0.3 (1), d = 1000 → 0.003 (2, still drawn).
    for (const [d, expected] of [[4, 0], [10, 1], [1000, 2]] as [number, number][]) {
      expect(heightByHand(SPHERE_R, d)).toBeCloseTo(3 / d, 12);
      expect(levelByHand([0.5, 0.2], heightByHand(SPHERE_R, d))).toBe(expected);
      lod.update(cameraAt([1, 2, 3], d));
      expect(lod.size).toBeCloseTo(heightByHand(SPHERE_R, d), 9);
      expect(lod.getCurrentLevel()).toBe(expected);
      expect(lod.levels[expected].object.visible).toBe(true);
    }
  });

  it('without coverage uses defaultThresholds (both layouts) or the documented default', async () => {
    const json = gltfJson(baseNodes({ ids: [2, 3] }));
    const builtIn = await load(json);
    const lod = treeSlot(builtIn.gltf) as ScreenSizeLOD;
    // Built-in: each coarser level when the object looks half as tall → area ×¼ per level, never culled.
    expect(lod.thresholds).toEqual([0.25, 0.0625]);
    expect(lod.levels).toHaveLength(3);
    expect(builtIn.plugin.groups[0].layout).toBe('none');
    const height = treeSlot((await load(json, { coverage: 'height' })).gltf) as ScreenSizeLOD;
    expect(height.thresholds).toEqual([0.5, 0.25]);

    const neverCulled = treeSlot((await load(json, { defaultThresholds: [0.3, 0.1] })).gltf) as ScreenSizeLOD;
    expect(neverCulled.thresholds).toEqual([0.3, 0.1].map(Math.fround));
    expect(neverCulled.levels).toHaveLength(3);
    const culled = treeSlot((await load(json, { defaultThresholds: [0.3, 0.1, 0.05] })).gltf) as ScreenSizeLOD;
    expect(culled.thresholds).toEqual([0.3, 0.1, 0.05].map(Math.fround));
    expect(culled.levels.map((l) => l.object.name)).toEqual(['Tree', 'Tree_LOD1', 'Tree_LOD2', 'Tree_culled']);

    const wrong = await load(json, { defaultThresholds: [0.3] });
    expect((treeSlot(wrong.gltf) as ScreenSizeLOD).thresholds).toEqual([0.25, 0.0625]);
    expect(wrong.plugin.warnings.map((w) => w.code)).toEqual(['default-count']);
  });

  it('places a level node with its own transform relative to level 0 (M0⁻¹·Mi)', async () => {
    const nodes = baseNodes({ ids: [2, 3] }, [0.5, 0.2]);
    nodes[1].scale = [2, 2, 2];
    nodes[2].scale = [2, 2, 2];
    nodes[3].translation = [1, 2, 5];
    nodes[3].scale = [2, 2, 2];
    const lod = treeSlot((await load(gltfJson(nodes))).gltf) as ScreenSizeLOD;
    expect(lod.scale.toArray()).toEqual([2, 2, 2]);
    // T(1,2,3)S(2) ⁻¹ · T(1,2,5)S(2) = T(0, 0, 1): two world units are one local unit at scale 2.
    const p = lod.levels[2].object.position, s = lod.levels[2].object.scale;
    expect([p.x, p.y, p.z].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 0, 1]);
    expect([s.x, s.y, s.z].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1, 1, 1]);
    expect(lod.levels[1].object.position.toArray()).toEqual([0, 0, 0]);
    // World position of level 2 = (1, 2, 5), as the file places it.
    lod.updateMatrixWorld(true);
    const world = lod.levels[2].object.getWorldPosition(lod.position.clone());
    expect(world.toArray().map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1, 2, 5]);
  });

  it('clones a level node that is also in the scene instead of taking it away', async () => {
    const { gltf } = await load(gltfJson(baseNodes({ ids: [2, 3] }, [0.5, 0.2]), [0, 2]));
    expect(gltf.scene.children.map((c) => c.name)).toEqual(['Root', 'Tree_LOD1']);
    const lod = treeSlot(gltf) as ScreenSizeLOD;
    expect(lod.levels[1].object.name).toBe('Tree_LOD1');
    expect(lod.levels[1].object).not.toBe(gltf.scene.children[1]);
    expect(gltf.scene.children[1].parent).toBe(gltf.scene);
  });

  it('thresholds and level choice follow the coverage rules for random valid coverage (property)', async () => {
    const coverageArb = fc.integer({ min: 1, max: 3 }).chain((coarser) => fc.record({
      coarser: fc.constant(coarser),
      culled: fc.boolean(),
      values: fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { minLength: coarser + 1, maxLength: coarser + 1 }),
      probes: fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 6 }),
    }));
    await fc.assert(fc.asyncProperty(coverageArb, async ({ coarser, culled, values, probes }) => {
      const ids = [2, 3, 5].slice(0, coarser);
      const levelCount = coarser + 1;
      const coverage = values.map((v) => v / 1000).sort((a, b) => b - a).slice(0, culled ? levelCount : levelCount - 1);
      const nodes = baseNodes({ ids }, coverage);
      nodes.push({ name: 'Tree_LOD3', mesh: 3, translation: [1, 2, 3] });
      const { gltf, plugin } = await load(gltfJson(nodes));
      expect(plugin.warnings).toEqual([]);
      const lod = treeSlot(gltf) as ScreenSizeLOD;
      const names = ['Tree', 'Tree_LOD1', 'Tree_LOD2', 'Tree_LOD3'].slice(0, levelCount);
      expect(lod.levels.map((l) => l.object.name)).toEqual(culled ? [...names, 'Tree_culled'] : names);
      expect(lod.thresholds).toEqual(coverage.map(Math.fround));
      for (const probe of probes) {
        const size = probe / 100_000;
        if (coverage.some((c) => Math.abs(c - size) < 1e-6)) continue; // float32 rounding could decide either way
        const expected = levelByHand(coverage, size);
        expect(lod.getObjectForValue(size)).toBe(lod.levels[expected].object);
      }
    }), { numRuns: 40 });
  });
});

describe('MSFTLodLoaderPlugin: malformed files load and record warnings', () => {
  const cases: { label: string; code: string; nodes: () => NodeDef[] }[] = [
    { label: 'id out of range', code: 'id-out-of-range', nodes: () => baseNodes({ ids: [2, 9] }, [0.5, 0.2]) },
    { label: 'self reference', code: 'self-reference', nodes: () => baseNodes({ ids: [1] }, [0.5]) },
    { label: 'repeated id', code: 'duplicate-id', nodes: () => baseNodes({ ids: [2, 2] }, [0.5, 0.2]) },
    { label: 'ids not a list', code: 'schema', nodes: () => baseNodes({ ids: 'two' }) },
    { label: 'empty ids', code: 'schema', nodes: () => baseNodes({ ids: [] }) },
    { label: 'negative id', code: 'schema', nodes: () => baseNodes({ ids: [-1] }) },
    { label: 'extension not an object', code: 'schema', nodes: () => baseNodes(5) },
    {
      label: 'cycle through a level', code: 'cycle', nodes: () => {
        const n = baseNodes({ ids: [2, 3] }, [0.5, 0.2]);
        n[3].extensions = { MSFT_lod: { ids: [1] } };
        return n;
      },
    },
    { label: 'level is an ancestor', code: 'hierarchy', nodes: () => baseNodes({ ids: [0] }, [0.5]) },
    {
      label: 'level is a child of level 0', code: 'hierarchy', nodes: () => {
        const n = baseNodes({ ids: [2] }, [0.5]);
        n[1].children = [2];
        return n;
      },
    },
    { label: 'coverage ascending', code: 'coverage-order', nodes: () => baseNodes({ ids: [2, 3] }, [0.2, 0.5, 0.01]) },
    { label: 'coverage above 1', code: 'coverage-range', nodes: () => baseNodes({ ids: [2, 3] }, [1.5, 0.2, 0.01]) },
    { label: 'coverage negative', code: 'coverage-range', nodes: () => baseNodes({ ids: [2, 3] }, [0.5, -0.2]) },
    { label: 'coverage not numbers', code: 'coverage-schema', nodes: () => baseNodes({ ids: [2, 3] }, ['a', 'b']) },
    { label: 'too few coverage values', code: 'coverage-count', nodes: () => baseNodes({ ids: [2, 3] }, [0.5]) },
    { label: 'too many coverage values', code: 'coverage-count', nodes: () => baseNodes({ ids: [2, 3] }, [0.5, 0.2, 0.1, 0.01]) },
    {
      label: 'level node that cannot be loaded', code: 'load-failed', nodes: () => {
        const n = baseNodes({ ids: [2, 3] }, [0.5, 0.2]);
        n[3].mesh = 99;
        return n;
      },
    },
  ];

  for (const { label, code, nodes } of cases) {
    it(`${label}: the node stays as three.js loaded it, warning '${code}'`, async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { gltf, plugin } = await load(gltfJson(nodes()));
      const tree = treeSlot(gltf);
      expect(tree).not.toBeInstanceOf(ScreenSizeLOD);
      expect(tree).toBeInstanceOf(Mesh);
      expect(tree.name).toBe('Tree');
      expect(tree.position.toArray()).toEqual([1, 2, 3]);
      expect(gltf.scene.children[0].children.map((c) => c.name)).toEqual(['Tree', 'Rock']);
      const mine = plugin.warnings.filter((w) => w.nodeIndex === 1);
      expect(mine).toHaveLength(1);
      expect(mine[0].code).toBe(code);
      expect(mine[0].message.startsWith('node 1 "Tree": ')).toBe(true);
      expect(plugin.groups).toHaveLength(0);
      expect(warn).not.toHaveBeenCalled();
    });
  }

  it("prints warnings with console.warn only when warn: true, and keeps the file's valid groups", async () => {
    const nodes = baseNodes({ ids: [2, 9] }, [0.5, 0.2]);
    nodes[4].extensions = { MSFT_lod: { ids: [3] } };
    nodes[4].extras = { MSFT_screencoverage: [0.3] };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { gltf, plugin } = await load(gltfJson(nodes), { warn: true });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain('node 1 "Tree": MSFT_lod.ids[1] = 9 is out of range');
    expect(plugin.warnings).toHaveLength(1);
    const [tree, rock] = gltf.scene.children[0].children;
    expect(tree).toBeInstanceOf(Mesh);
    expect(rock).toBeInstanceOf(ScreenSizeLOD);
    expect((rock as ScreenSizeLOD).levels.map((l) => l.object.name)).toEqual(['Rock', 'Tree_LOD2']);
    expect((rock as ScreenSizeLOD).thresholds).toEqual([Math.fround(0.3)]);
  });

  it('rejects bad options at construction with RangeError / TypeError naming the field', () => {
    const parser = {} as never;
    expect(() => new MSFTLodLoaderPlugin(parser, { coverage: 'volume' as never })).toThrow(/coverage/);
    expect(() => new MSFTLodLoaderPlugin(parser, { defaultThresholds: [0.1, 0.5] })).toThrow(/defaultThresholds must descend/);
    expect(() => new MSFTLodLoaderPlugin(parser, { defaultThresholds: [2] })).toThrow(RangeError);
    expect(() => new MSFTLodLoaderPlugin(parser, { defaultThresholds: 'x' as never })).toThrow(TypeError);
    expect(() => new MSFTLodLoaderPlugin(parser, { lod: { bias: -1 } })).toThrow(/bias/);
  });
});

describe('MSFTLodLoaderPlugin: files written by lodkit/gltf (glTF-Transform, test side only)', () => {
  it("loads the MSFT_lod spec example with the thresholds lodkit/gltf's reader gives", async () => {
    const { document } = specExample([0.5, 0.2, 0.01]);
    const bytes = await lodIO().writeBinary(document);
    const { gltf, plugin } = await load(bytes.slice().buffer);
    const lod = gltf.scene.children[0] as ScreenSizeLOD;
    expect(lod).toBeInstanceOf(ScreenSizeLOD);
    expect(lod.levels.map((l) => l.object.name)).toEqual(['High_LOD', 'Medium_LOD', 'Low_LOD', 'High_LOD_culled']);
    expect(plugin.warnings).toEqual([]);
    const [group] = readLodGroups((await readGltfDocument(bytes)).document).groups;
    expect(lod.thresholds).toEqual([...group.coverage!].map(Math.fround));
    expect(group.cullBelow).toBe(0.01);
  });

  it('a generated chain keeps its pixel-error guarantee when drawn by the plugin’s ScreenSizeLOD', async () => {
    const document = new Document();
    document.createBuffer();
    document.createScene().addChild(document.createNode('Ball').setMesh(addMesh(document, 'ball', uvSphere(2, 48, 24))));
    const maxErrorPx = 1, viewport = 1080;
    const [chain] = await generateLodChain(document, { levels: 3, ratio: 0.4, maxErrorPx, viewportHeight: viewport, coverage: 'height' });
    const bytes = await lodIO().writeBinary(document);
    const { gltf } = await load(bytes.slice().buffer, { coverage: 'height' });
    const lod = gltf.scene.children[0] as ScreenSizeLOD;
    expect(lod.levels).toHaveLength(chain.levels.length);
    expect(lod.thresholds).toEqual(chain.coverage.map(Math.fround));
    // exactSpheres: the sphere measured is the one the generator assumed (radius 2 around the origin).
    const sphere = lod.computeBoundingSphere();
    expect(sphere.radius).toBeCloseTo(chain.boundingSphere.radius, 4);
    const radius = sphere.radius;
    for (let i = 1; i < chain.levels.length; i++) {
      // Just inside the size where level i takes over: h = 2R/(d·2tan30°) = 0.9999·coverage[i−1].
      const h = chain.coverage[i - 1] * 0.9999;
      const d = radius / (h * TAN);
      lod.update(cameraAt([0, 0, 0], d));
      expect(lod.getCurrentLevel()).toBe(i);
      // The level's object-space error e covers e·V/(d·2tan30°) pixels there.
      const px = (chain.levels[i].error * viewport) / (d * 2 * TAN);
      expect(px).toBeLessThanOrEqual(maxErrorPx * (1 + 1e-6));
    }
  });
});
