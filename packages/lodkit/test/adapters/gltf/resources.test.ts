/**
 * Where a glTF file's bytes come from (src/adapters/gltf/resources.ts): data: URIs decoded by
 * lodkit's strict decoder for every kind of source (path, bytes, {json, resources}), their decoded
 * length checked against byteLength, hard links refused under the folder rule, sparse accessors
 * kept inside their views with their index values increasing and below the accessor count, and
 * nothing handed to glTF-Transform that is a slice of shared memory.
 * The test model is one triangle written out by hand, so expected values do not come from lodkit.
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GltfReadError, readGltfDocument, type GltfSource } from '../../../src/adapters/gltf/index.js';
import { readGltfBytes, readGltfFile } from '../../../src/adapters/gltf/resources.js';
import { packGlb } from './fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'lodkit-resources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let serial = 0;

const POSITIONS = [0, 0, 0, 1, 0, 0, 0, 1, 0];
/** 36 bytes of float positions, 6 of uint16 indices, 2 of padding: 44 bytes. */
const BIN = (() => {
  const bytes = new Uint8Array(44);
  const view = new DataView(bytes.buffer);
  POSITIONS.forEach((v, i) => view.setFloat32(i * 4, v, true));
  [0, 1, 2].forEach((v, i) => view.setUint16(36 + i * 2, v, true));
  return bytes;
})();
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
/** The triangle's glTF JSON with `uri` as its buffer. */
function triangle(uri: string | undefined, byteLength = 44): Json {
  return {
    asset: { version: '2.0' },
    buffers: [{ ...(uri !== undefined ? { uri } : {}), byteLength }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }, { buffer: 0, byteOffset: 36, byteLength: 6 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5123, count: 3, type: 'SCALAR' },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
    scene: 0,
  };
}

/** Writes `json` (and extra files) into a fresh folder; returns the .gltf path. */
function writeGltf(json: Json, files: Record<string, Uint8Array> = {}): string {
  const dir = join(root, `case-${serial++}`, 'in');
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  const path = join(dir, 'model.gltf');
  writeFileSync(path, JSON.stringify(json));
  return path;
}

/** The three kinds of source readGltfDocument takes, for one JSON. */
function sources(json: Json): [string, () => GltfSource][] {
  return [
    ['path', () => writeGltf(json)],
    ['bytes', () => new TextEncoder().encode(JSON.stringify(json))],
    ['{json, resources}', () => ({ json: structuredClone(json), resources: {} })],
  ];
}

async function message(source: GltfSource, options = {}): Promise<string> {
  try {
    await readGltfDocument(source, options);
  } catch (error) {
    expect(error).toBeInstanceOf(GltfReadError);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
}

describe('data: buffers decoded by lodkit, for every kind of source', () => {
  for (const [kind, make] of sources(triangle(`data:application/octet-stream;base64,${b64(BIN)}`))) {
    it(`reads a base64 data: buffer (${kind}) to the triangle's values, keeping no data: URI`, async () => {
      const { document } = await readGltfDocument(make());
      const mesh = document.getRoot().listMeshes()[0].listPrimitives()[0];
      expect(Array.from(mesh.getAttribute('POSITION')!.getArray()!)).toEqual(POSITIONS);
      expect(Array.from(mesh.getIndices()!.getArray()!)).toEqual([0, 1, 2]);
      expect(document.getRoot().listBuffers()[0].getURI()).toBe('');
    });
  }

  it('reads a percent-encoded text data: buffer byte by byte', async () => {
    const text = Array.from(BIN, (b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const { document } = await readGltfDocument(writeGltf(triangle(`data:application/octet-stream,${text}`)));
    expect(Array.from(document.getRoot().listAccessors()[0].getArray()!)).toEqual(POSITIONS);
  });

  it('leaves the caller\'s {json, resources} unchanged', async () => {
    const json = triangle(`data:application/octet-stream;base64,${b64(BIN)}`);
    const before = structuredClone(json);
    await readGltfDocument({ json, resources: {} });
    expect(json).toEqual(before);
  });

  it('hands glTF-Transform arrays that own their whole ArrayBuffer', async () => {
    const json = triangle(`data:application/octet-stream;base64,${b64(BIN)}`);
    json.images = [{ uri: `data:image/png;base64,${b64(new Uint8Array([137, 80, 78, 71]))}` }];
    for (const raw of [await readGltfFile(writeGltf(json)), readGltfBytes(new TextEncoder().encode(JSON.stringify(json)))]) {
      const keys = Object.keys(raw.resources);
      expect(keys).toHaveLength(2);
      for (const key of keys) {
        expect(key.startsWith('__lodkit\u0000')).toBe(true);
        expect(raw.resources[key].byteOffset).toBe(0);
        expect(raw.resources[key].buffer.byteLength).toBe(raw.resources[key].byteLength);
      }
      expect(raw.json.images![0]).toMatchObject({ mimeType: 'image/png' });
    }
  });

  it('copies the BIN chunk of GLB bytes that are a slice of Node\'s Buffer pool', () => {
    const glb = Buffer.from(packGlb(triangle(undefined), BIN)); // < 4 KiB: a slice of the shared pool
    expect(glb.buffer.byteLength).toBeGreaterThan(glb.byteLength);
    const bin = readGltfBytes(glb).resources['@glb.bin'];
    expect(Array.from(bin)).toEqual(Array.from(BIN));
    expect(bin.buffer.byteLength).toBe(44);
  });

  it('keeps a data: image\'s media type as its mimeType and no data: URI', async () => {
    const json = triangle(`data:application/octet-stream;base64,${b64(BIN)}`);
    json.images = [{ uri: `data:image/png;base64,${b64(new Uint8Array([137, 80, 78, 71]))}` }];
    const { document } = await readGltfDocument(writeGltf(json));
    const texture = document.getRoot().listTextures()[0];
    expect([texture.getMimeType(), texture.getURI(), Array.from(texture.getImage()!)]).toEqual(['image/png', '', [137, 80, 78, 71]]);
  });
});

describe('bad data: URIs are refused naming the field, for every kind of source', () => {
  const head = 'data:application/octet-stream;base64,'; // 37 characters
  const cases: [string, Json, string][] = [
    ['padding in the middle', triangle(`${head}AAA=${b64(BIN)}`), 'buffers[0].uri: base64 padding before the end (at character 41)'],
    ['";name=base64,"', triangle(`data:application/octet-stream;name=base64,${b64(BIN)}`), 'buffers[0].uri: parameter "name=base64" is ambiguous'],
    ['a non-alphabet character', triangle(`${head}${b64(BIN).slice(0, 8)}*${b64(BIN).slice(9)}`), 'buffers[0].uri: "*" is not a base64 character (at character 46)'],
    ['a bad percent-escape', triangle(`data:application/octet-stream,%zz${'%00'.repeat(44)}`), 'buffers[0].uri: percent-escape "%zz" is not % followed by two hex digits (at character 31)'],
    ['a percent-escape in base64', triangle(`${head}%41${b64(BIN).slice(3)}`), 'buffers[0].uri: "%" is not a base64 character (at character 38) (percent-escapes are not allowed in base64 data)'],
    ['fewer decoded bytes than byteLength', triangle(`${head}${b64(BIN.subarray(0, 40))}`), 'buffers[0].uri: the data: URI decodes to 40 bytes, but buffers[0].byteLength says 44 (truncated)'],
  ];
  for (const [title, json, expected] of cases) {
    for (const [kind, make] of sources(json)) {
      it(`${title} (${kind})`, async () => {
        const text = await message(make());
        expect(text).toContain(expected);
        expect(text).not.toContain('resources total'); // only a too-large URI speaks of the limit
      });
    }
  }

  it('an image data: URI too', async () => {
    const json = triangle(`${head}${b64(BIN)}`);
    json.images = [{ uri: 'data:image/png;base64,iVBO=w0K' }];
    expect(await message(writeGltf(json))).toContain('images[0].uri: base64 padding before the end (at character 27)');
  });

  it('data: URIs count toward the resourceBytes limit before they are allocated', async () => {
    const json = triangle(`${head}${b64(BIN)}`);
    json.images = [{ uri: `data:image/png;base64,${b64(new Uint8Array(8))}` }];
    expect(await message(writeGltf(json), { limits: { resourceBytes: 50 } }))
      .toContain('images[0].uri: the data: URI decodes to 8 bytes, more than the 6 allowed (resources total more than the limit of 50 bytes)');
  });
});

describe('{json, resources} sources', () => {
  it('must hold every external resource', async () => {
    expect(await message({ json: triangle('tri.bin'), resources: {} })).toContain('buffers[0].uri = "tri.bin": not among the given resources');
  });

  it('are read when they do', async () => {
    const { document } = await readGltfDocument({ json: triangle('tri.bin'), resources: { 'tri.bin': BIN } });
    expect(Array.from(document.getRoot().listAccessors()[0].getArray()!)).toEqual(POSITIONS);
  });

  it('are checked like files (a view past its buffer)', async () => {
    const json = triangle('tri.bin');
    json.bufferViews[1].byteLength = 600;
    expect(await message({ json, resources: { 'tri.bin': BIN } })).toContain('bufferViews[1] (bytes 36–636) runs past the end of buffers[0] (44 bytes)');
  });
});

describe('external files', () => {
  it('a file with a second hard link is refused (its other name may be outside), unless allowOutsideResources', async () => {
    const path = writeGltf(triangle('tri.bin'));
    const outside = join(path, '..', '..', 'elsewhere.bin');
    writeFileSync(outside, BIN);
    linkSync(outside, join(path, '..', 'tri.bin'));
    expect(await message(path)).toMatch(/^Could not read glTF: buffers\[0\]\.uri = "tri\.bin" has 2 hard links; another name of the same file may lie outside the input folder/);
    const { document } = await readGltfDocument(path, { allowOutsideResources: true });
    expect(Array.from(document.getRoot().listAccessors()[0].getArray()!)).toEqual(POSITIONS);
  });

  it('a file named like an Object.prototype property is just a file', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      const { document } = await readGltfDocument(writeGltf(triangle(name), { [name]: BIN }));
      expect(Array.from(document.getRoot().listAccessors()[0].getArray()!)).toEqual(POSITIONS);
    }
  });
});

describe('sparse accessors stay inside their views', () => {
  /** The triangle plus a sparse accessor replacing `count` of its 3 positions (indices in view 2, values in view 3). */
  function sparse(count: number, edit: (j: Json) => void = () => {}): Json {
    const json = triangle('tri.bin', 44);
    json.buffers[0].byteLength = 44;
    json.bufferViews.push({ buffer: 0, byteOffset: 36, byteLength: 4 }, { buffer: 0, byteOffset: 0, byteLength: 24 });
    json.accessors.push({
      componentType: 5126, count: 3, type: 'VEC3',
      sparse: { count, indices: { bufferView: 2, componentType: 5123 }, values: { bufferView: 3 } },
    });
    edit(json);
    return json;
  }

  it('reads a sparse accessor that fits', async () => {
    const { document } = await readGltfDocument({ json: sparse(2), resources: { 'tri.bin': BIN } });
    // Indices 0 and 1 (the first two uint16 at byte 36) take the first two positions from view 3.
    expect(Array.from(document.getRoot().listAccessors()[2].getArray()!)).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 0]);
  });

  it('refuses indices past their view', async () => {
    expect(await message({ json: sparse(3), resources: { 'tri.bin': BIN } }))
      .toContain('accessors[2].sparse.indices (count 3, 2-byte elements) needs 6 bytes of bufferViews[2], which has 4 (truncated or wrong count)');
  });

  it('refuses values past their view', async () => {
    expect(await message({ json: sparse(2, (j) => { j.accessors[2].sparse.values.byteOffset = 4; }), resources: { 'tri.bin': BIN } }))
      .toContain('accessors[2].sparse.values (count 2, 12-byte elements) needs 28 bytes of bufferViews[3], which has 24 (truncated or wrong count)');
  });

  it('refuses an index component type glTF does not allow', async () => {
    expect(await message({ json: sparse(2, (j) => { j.accessors[2].sparse.indices.componentType = 5126; }), resources: { 'tri.bin': BIN } }))
      .toContain('accessors[2].sparse.indices.componentType = 5126 is not an index type (5121, 5123, 5125)');
  });
});

describe('sparse index values: strictly increasing, each below the accessor count', () => {
  const SIZE = { 5121: 1, 5123: 2, 5125: 4 } as const;
  /**
   * The triangle plus accessors[2]: `count` zero-filled VEC3s whose sparse part puts the triangle's
   * positions 0, 1, … at `indices` (of `componentType`, in view 2 after the triangle's 44 bytes;
   * the values are view 3, the triangle's 36 bytes of positions).
   */
  function sparseFile(indices: number[], componentType: keyof typeof SIZE, count = 5, edit: (j: Json) => void = () => {}): { json: Json; bin: Uint8Array<ArrayBuffer> } {
    const size = SIZE[componentType];
    const length = indices.length * size;
    const bin = new Uint8Array(44 + Math.ceil(length / 4) * 4);
    bin.set(BIN);
    const view = new DataView(bin.buffer);
    indices.forEach((v, k) => {
      if (size === 1) view.setUint8(44 + k, v);
      else if (size === 2) view.setUint16(44 + 2 * k, v, true);
      else view.setUint32(44 + 4 * k, v, true);
    });
    const json = triangle('sparse.bin', bin.byteLength);
    json.bufferViews.push({ buffer: 0, byteOffset: 44, byteLength: length }, { buffer: 0, byteOffset: 0, byteLength: 36 });
    json.accessors.push({
      componentType: 5126, count, type: 'VEC3',
      sparse: { count: indices.length, indices: { bufferView: 2, componentType }, values: { bufferView: 3 } },
    });
    edit(json);
    return { json, bin };
  }

  /** The file as each source: {json, resources}, a .gltf path, GLB bytes, a data: URI buffer. */
  function kinds({ json, bin }: { json: Json; bin: Uint8Array<ArrayBuffer> }): [string, () => GltfSource][] {
    return [
      ['{json, resources}', () => ({ json: structuredClone(json), resources: { 'sparse.bin': bin } })],
      ['path', () => writeGltf(json, { 'sparse.bin': bin })],
      ['GLB', () => { const j = structuredClone(json); delete j.buffers[0].uri; return packGlb(j, bin); }],
      ['data: URI', () => {
        const j = structuredClone(json);
        j.buffers[0].uri = `data:application/octet-stream;base64,${b64(bin)}`;
        return new TextEncoder().encode(JSON.stringify(j));
      }],
    ];
  }

  /** count zero VEC3s with the triangle's position k at element indices[k]. */
  function expected(indices: number[], count: number): number[] {
    const out = new Array<number>(count * 3).fill(0);
    indices.forEach((e, k) => { for (let j = 0; j < 3; j++) out[e * 3 + j] = POSITIONS[k * 3 + j]; });
    return out;
  }

  const valid: [keyof typeof SIZE, number[]][] = [[5121, [0, 2, 4]], [5123, [1, 4]], [5125, [3, 4]]];
  for (const [componentType, indices] of valid) {
    for (const [kind, make] of kinds(sparseFile(indices, componentType))) {
      it(`reads ${componentType} indices ${indices.join(', ')} (the last one count − 1) from ${kind}`, async () => {
        const { document } = await readGltfDocument(make());
        expect(Array.from(document.getRoot().listAccessors()[2].getArray()!)).toEqual(expected(indices, 5));
      });
    }
  }

  const refused: [string, keyof typeof SIZE, number[], string][] = [
    ['an index equal to the count', 5123, [0, 5], 'accessors[2].sparse.indices[1] = 5 is out of range: sparse indices must be less than accessors[2].count (5)'],
    ['an index far beyond the count', 5125, [1, 0xffffffff], 'accessors[2].sparse.indices[1] = 4294967295 is out of range: sparse indices must be less than accessors[2].count (5)'],
    ['a first index out of range', 5121, [200], 'accessors[2].sparse.indices[0] = 200 is out of range: sparse indices must be less than accessors[2].count (5)'],
    ['a decreasing pair', 5123, [0, 3, 1], 'accessors[2].sparse.indices[2] = 1 is not greater than indices[1] = 3: sparse indices must be strictly increasing'],
    ['a repeated index', 5121, [2, 2], 'accessors[2].sparse.indices[1] = 2 is not greater than indices[0] = 2: sparse indices must be strictly increasing'],
  ];
  for (const [what, componentType, indices, text] of refused) {
    for (const [kind, make] of kinds(sparseFile(indices, componentType))) {
      it(`refuses ${what} from ${kind}`, async () => {
        expect(await message(make())).toContain(text);
      });
    }
  }

  // glTF-Transform 4 reads sparse.indices without a byteOffset at the ACCESSOR's byteOffset; the
  // check reads the same bytes. View 2 holds uint16 [9, 9, 0, 1]; accessors[2] (2 VEC3s of view 0
  // from byte 4) takes its indices from byte 4: [0, 1].
  const offsetFile = (indicesOffset: number | undefined): { json: Json; bin: Uint8Array<ArrayBuffer> } => sparseFile([9, 9, 0, 1], 5123, 2, (j) => {
    Object.assign(j.accessors[2], { bufferView: 0, byteOffset: 4 });
    j.accessors[2].sparse.count = 2;
    if (indicesOffset !== undefined) j.accessors[2].sparse.indices.byteOffset = indicesOffset;
  });

  it('reads sparse indices at the accessor\'s byteOffset when sparse.indices has none, as glTF-Transform does', async () => {
    const { document } = await readGltfDocument(kinds(offsetFile(undefined))[0][1]());
    // Base and values both start at the triangle's byte 4: positions 1–6 of POSITIONS, put back in place.
    expect(Array.from(document.getRoot().listAccessors()[2].getArray()!)).toEqual(POSITIONS.slice(1, 7));
  });

  it('reads them at sparse.indices.byteOffset when given', async () => {
    expect(await message(kinds(offsetFile(0))[0][1]()))
      .toContain('accessors[2].sparse.indices[0] = 9 is out of range: sparse indices must be less than accessors[2].count (2)');
  });
});

describe('raised JSON limits apply to every kind of source', () => {
  // extras nested 70 deep: past the default jsonDepth (64), within a raised one. The depth comes from
  // the text's brackets: root object 1, nodes array 2, node 3, extras 4, then 66 nested lists.
  const deep = (): Json => { const j = triangle(`data:application/octet-stream;base64,${b64(BIN)}`); j.nodes[0].extras = { v: JSON.parse(`${'['.repeat(66)}${']'.repeat(66)}`) }; return j; };
  for (const [kind, make] of sources(deep())) {
    it(`${kind}: refused by default, read with limits.jsonDepth raised`, async () => {
      expect(await message(make())).toMatch(/nests deeper than 64 levels/);
      const { document } = await readGltfDocument(make(), { limits: { jsonDepth: 100 } });
      expect(document.getRoot().listNodes()).toHaveLength(1);
    });
  }
});
