/**
 * References glTF-Transform would follow unchecked (validateRefs.ts), index values against the
 * vertex count after decoding (validateGeometry.ts), and generateLodChain's own guard for
 * documents built in memory. Valid files that use every checked kind of reference are read.
 */
import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GltfReadError, generateLodChain, readGltfDocument } from '../../../src/adapters/gltf/index.js';
import { firstIndexOutOfRange } from '../../../src/adapters/gltf/validateGeometry.js';
import { addMesh, packGlb, specExample, toGlbParts, triangleSoup } from './fixtures.js';

/** The spec example (3 nodes, 3 meshes, accessors 0–5: POSITION/indices per mesh) plus `edit`, read back. */
async function readEdited(edit: (json: any) => void): Promise<unknown> {
  const { json, bin } = await toGlbParts(specExample().document);
  edit(json);
  return readGltfDocument(packGlb(json, bin)).then(() => null, (error: unknown) => error);
}

describe('references are in range (validateRefs.ts)', () => {
  const cases: [string, RegExp, (j: any) => void][] = [
    ['texture sampler', /textures\[0\]\.sampler = 2 is not an index into samplers \(1 entry\)/, (j) => { j.images = [{ bufferView: 0, mimeType: 'image/png' }]; j.samplers = [{}]; j.textures = [{ source: 0, sampler: 2 }]; }],
    ['texture source', /textures\[0\]\.source = 1 is not an index into images \(1 entry\)/, (j) => { j.images = [{ bufferView: 0, mimeType: 'image/png' }]; j.textures = [{ source: 1 }]; }],
    ['base color texture', /materials\[1\]\.pbrMetallicRoughness\.baseColorTexture\.index = 0 is not an index into textures \(0 entries\)/, (j) => { j.materials = [{}, { pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }]; }],
    ['metallic-roughness texture', /materials\[0\]\.pbrMetallicRoughness\.metallicRoughnessTexture\.index = -1/, (j) => { j.materials = [{ pbrMetallicRoughness: { metallicRoughnessTexture: { index: -1 } } }]; }],
    ['occlusion texture', /materials\[0\]\.occlusionTexture\.index = "0"/, (j) => { j.materials = [{ occlusionTexture: { index: '0' } }]; }],
    ['emissive texCoord', /materials\[0\]\.emissiveTexture\.texCoord must be an integer ≥ 0, got 0\.5/, (j) => { j.images = [{ bufferView: 0, mimeType: 'image/png' }]; j.textures = [{ source: 0 }]; j.materials = [{ emissiveTexture: { index: 0, texCoord: 0.5 } }]; }],
    ['node skin', /nodes\[2\]\.skin = 0 is not an index into skins \(0 entries\)/, (j) => { j.nodes[2].skin = 0; }],
    ['skin joint', /skins\[0\]\.joints\[0\] = 3 is not an index into nodes \(3 entries\)/, (j) => { j.skins = [{ joints: [3] }]; }],
    ['skin without joints', /skins\[0\]\.joints must be a non-empty list/, (j) => { j.skins = [{ joints: [] }]; }],
    ['skin skeleton', /skins\[0\]\.skeleton = 7/, (j) => { j.skins = [{ joints: [1], skeleton: 7 }]; }],
    ['node camera', /nodes\[0\]\.camera = 0 is not an index into cameras \(0 entries\)/, (j) => { j.nodes[0].camera = 0; }],
    ['camera type', /cameras\[0\]\.type = "constructor" is not "perspective" or "orthographic"/, (j) => { j.cameras = [{ type: 'constructor' }]; }],
    ['orthographic camera', /cameras\[0\]\.orthographic\.ymag must be a finite number, got nothing/, (j) => { j.cameras = [{ type: 'orthographic', orthographic: { xmag: 1, zfar: 10, znear: 0 } }]; }],
    ['channel target node', /animations\[0\]\.channels\[1\]\.target\.node = 3 is not an index into nodes/, (j) => {
      j.animations = [{ channels: [{ sampler: 0, target: { node: 0, path: 'scale' } }, { sampler: 0, target: { node: 3, path: 'scale' } }], samplers: [{ input: 1, output: 0 }] }];
    }],
    ['channel sampler', /animations\[0\]\.channels\[0\]\.sampler = 1 is not an index into animations\[0\]\.samplers \(1 entry\)/, (j) => {
      j.animations = [{ channels: [{ sampler: 1, target: { node: 0, path: 'scale' } }], samplers: [{ input: 1, output: 0 }] }];
    }],
    ['sampler output', /animations\[0\]\.samplers\[0\]\.output = 6 is not an index into accessors \(6 entries\)/, (j) => {
      j.animations = [{ channels: [], samplers: [{ input: 1, output: 6 }] }];
    }],
    ['channel path', /animations\[0\]\.channels\[0\]\.target\.path = "toString"/, (j) => {
      j.animations = [{ channels: [{ sampler: 0, target: { node: 0, path: 'toString' } }], samplers: [{ input: 1, output: 0 }] }];
    }],
  ];
  for (const [title, message, edit] of cases) {
    it(`refuses a bad ${title}`, async () => {
      const error = await readEdited(edit);
      expect(error).toBeInstanceOf(GltfReadError);
      expect((error as Error).message).toMatch(message);
    });
  }

  it('reads a valid file with a textured material, a skin, a camera and an animation', async () => {
    const { document } = specExample();
    const root = document.getRoot();
    const [high, medium] = root.listNodes();
    const buffer = root.listBuffers()[0];
    const texture = document.createTexture('t').setImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47])).setMimeType('image/png');
    const material = document.createMaterial('m').setBaseColorTexture(texture).setNormalTexture(texture);
    high.getMesh()!.listPrimitives()[0].setMaterial(material);
    medium.setSkin(document.createSkin('s').addJoint(medium));
    high.setCamera(document.createCamera('c').setType('perspective').setYFov(1).setZNear(0.1));
    const times = document.createAccessor('times').setType('SCALAR').setArray(new Float32Array([0, 1])).setBuffer(buffer);
    const values = document.createAccessor('values').setType('VEC3').setArray(new Float32Array([1, 1, 1, 2, 2, 2])).setBuffer(buffer);
    const sampler = document.createAnimationSampler().setInput(times).setOutput(values);
    document.createAnimation('a').addSampler(sampler).addChannel(document.createAnimationChannel().setSampler(sampler).setTargetNode(high).setTargetPath('scale'));
    const { json, bin } = await toGlbParts(document);
    const { document: read } = await readGltfDocument(packGlb(json, bin));
    expect(read.getRoot().listAnimations()[0].listChannels()[0].getTargetNode()?.getName()).toBe('High_LOD');
    expect(read.getRoot().listMaterials()[0].getBaseColorTexture()).not.toBeNull();
    expect(read.getRoot().listNodes()[1].getSkin()?.listJoints()).toHaveLength(1);
  });
});

describe('indices against the vertex count (validateGeometry.ts)', () => {
  it('firstIndexOutOfRange finds the first index ≥ the count', () => {
    fc.assert(fc.property(fc.array(fc.nat(50)), fc.nat(50), (list, n) => {
      expect(firstIndexOutOfRange(Uint32Array.from(list), n)).toBe(list.findIndex((v) => v >= n));
    }));
  });

  it('an index ≥ the vertex count is refused after decoding, naming meshes[m].primitives[p].indices[k]', async () => {
    const { json, bin } = await toGlbParts(specExample().document);
    // Mesh 1 ("medium"): 100 disjoint triangles, 300 vertices, uint32 indices.
    const primitive = json.meshes![1].primitives[0];
    const a = json.accessors![primitive.indices!];
    expect([a.componentType, json.accessors![primitive.attributes.POSITION].count]).toEqual([5125, 300]);
    const patched = bin!.slice();
    new DataView(patched.buffer).setUint32(json.bufferViews![a.bufferView!].byteOffset! + (a.byteOffset ?? 0) + 4 * 41, 300, true);
    await expect(readGltfDocument(packGlb(json, patched))).rejects.toThrow('Could not read glTF: meshes[1].primitives[0].indices[41] = 300 is ≥ the vertex count 300');
    new DataView(patched.buffer).setUint32(json.bufferViews![a.bufferView!].byteOffset! + (a.byteOffset ?? 0) + 4 * 41, 299, true);
    await expect(readGltfDocument(packGlb(json, patched))).resolves.toBeDefined();
  });
});

describe('generateLodChain guards what it gives meshoptimizer (documents built in memory)', () => {
  it('an index ≥ the vertex count is a RangeError naming the mesh, primitive and index', async () => {
    const document = new Document();
    const soup = triangleSoup(40);
    soup.indices[17] = 120; // 120 vertices: 0–119
    document.createScene().addChild(document.createNode('n').setMesh(addMesh(document, 'bad', soup)));
    await expect(generateLodChain(document)).rejects.toThrow('generateLodChain: mesh "bad" primitive 0: indices[17] = 120 is ≥ the vertex count 120');
  });

  it('an index count that is not a multiple of 3 is a RangeError', async () => {
    const document = new Document();
    const soup = triangleSoup(40);
    document.createScene().addChild(document.createNode('n').setMesh(addMesh(document, 'short', { positions: soup.positions, indices: soup.indices.subarray(0, 119) })));
    await expect(generateLodChain(document)).rejects.toThrow('generateLodChain: mesh "short" primitive 0: index count 119 of a TRIANGLES primitive is not a multiple of 3');
  });

  it('refuses, before changing the document, a run that could add more than maxNewObjects objects', async () => {
    const document = new Document();
    const mesh = addMesh(document, 'shared', triangleSoup(64));
    const scene = document.createScene();
    for (let i = 0; i < 10; i++) scene.addChild(document.createNode(`n${i}`).setMesh(mesh));
    // 4 levels: 3 level nodes per instance (30) + 3 meshes, each with 1 primitive and 1 index accessor (9) = 39.
    const error = await generateLodChain(document, { maxNewObjects: 38 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GltfReadError);
    expect((error as Error).message).toBe('generateLodChain: 10 nodes with 1 distinct meshes at 4 levels could add up to 39 glTF objects (level nodes, meshes, primitives, index accessors), more than maxNewObjects = 38');
    expect([document.getRoot().listNodes().length, document.getRoot().listMeshes().length]).toEqual([10, 1]);
    const chains = await generateLodChain(document, { maxNewObjects: 39 });
    expect(chains).toHaveLength(10);
  });
});
