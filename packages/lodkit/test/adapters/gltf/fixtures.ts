/**
 * glTF documents built by the tests themselves: a UV sphere, a bumpy terrain grid, the MSFT_lod
 * spec's three-node example, and helpers to turn a document into JSON / GLB bytes and to pack
 * hand-edited (possibly malformed) JSON into a GLB.
 */
import { Document, NodeIO, type JSONDocument, type Mesh, type Node } from '@gltf-transform/core';
import { MSFTLod } from '../../../src/adapters/gltf/index.js';

/** Positions and triangle indices of a UV sphere (welded: one vertex per grid point, poles shared). */
export function uvSphere(radius: number, segments: number, rings: number): { positions: Float32Array; indices: Uint32Array } {
  const positions: number[] = [0, radius, 0];
  for (let r = 1; r < rings; r++) {
    const phi = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const theta = (2 * Math.PI * s) / segments;
      positions.push(radius * Math.sin(phi) * Math.cos(theta), radius * Math.cos(phi), radius * Math.sin(phi) * Math.sin(theta));
    }
  }
  positions.push(0, -radius, 0);
  const south = positions.length / 3 - 1;
  const ring = (r: number, s: number): number => 1 + (r - 1) * segments + (s % segments);
  const indices: number[] = [];
  for (let s = 0; s < segments; s++) indices.push(0, ring(1, s + 1), ring(1, s));
  for (let r = 1; r < rings - 1; r++) {
    for (let s = 0; s < segments; s++) {
      const a = ring(r, s), b = ring(r, s + 1), c = ring(r + 1, s), d = ring(r + 1, s + 1);
      indices.push(a, b, c, b, d, c);
    }
  }
  for (let s = 0; s < segments; s++) indices.push(south, ring(rings - 1, s), ring(rings - 1, s + 1));
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

/** A size × size grid over [−1, 1]² with a deterministic bumpy height (sum of sines). */
export function terrain(size: number): { positions: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array(size * size * 3);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const x = -1 + (2 * i) / (size - 1), z = -1 + (2 * j) / (size - 1);
      const k = (j * size + i) * 3;
      positions[k] = x;
      positions[k + 1] = 0.1 * Math.sin(5 * x) * Math.cos(4 * z) + 0.03 * Math.sin(17 * x + 11 * z);
      positions[k + 2] = z;
    }
  }
  const indices: number[] = [];
  for (let j = 0; j < size - 1; j++) {
    for (let i = 0; i < size - 1; i++) {
      const a = j * size + i, b = a + 1, c = a + size, d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

/** Adds a one-primitive mesh with the given geometry to the document. */
export function addMesh(document: Document, name: string, geometry: { positions: Float32Array; indices: Uint32Array }, materialName?: string): Mesh {
  const buffer = document.getRoot().listBuffers()[0] ?? document.createBuffer();
  const position = document.createAccessor(`${name}_POSITION`).setType('VEC3').setArray(geometry.positions).setBuffer(buffer);
  const indices = document.createAccessor(`${name}_indices`).setType('SCALAR').setArray(geometry.indices).setBuffer(buffer);
  const primitive = document.createPrimitive().setAttribute('POSITION', position).setIndices(indices);
  if (materialName !== undefined) {
    const material = document.getRoot().listMaterials().find((m) => m.getName() === materialName) ?? document.createMaterial(materialName);
    primitive.setMaterial(material);
  }
  return document.createMesh(name).addPrimitive(primitive);
}

/** A mesh of `triangles` disjoint triangles (for exact triangle counts). */
export function triangleSoup(triangles: number): { positions: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array(triangles * 9);
  const indices = new Uint32Array(triangles * 3);
  for (let t = 0; t < triangles; t++) {
    positions.set([t, 0, 0, t + 1, 0, 0, t, 1, 0], t * 9);
    indices.set([t * 3, t * 3 + 1, t * 3 + 2], t * 3);
  }
  return { positions, indices };
}

/**
 * The MSFT_lod spec's example: High_LOD (node 0) with ids [1, 2], Medium_LOD (node 1), Low_LOD
 * (node 2), with 300 / 100 / 20 triangles and the given coverage (omitted when null).
 */
export function specExample(coverage: number[] | null = [0.5, 0.2, 0.01]): { document: Document; nodes: Node[] } {
  const document = new Document();
  document.createBuffer();
  const ext = document.createExtension(MSFTLod);
  const high = document.createNode('High_LOD').setMesh(addMesh(document, 'high', triangleSoup(300)));
  const medium = document.createNode('Medium_LOD').setMesh(addMesh(document, 'medium', triangleSoup(100)));
  const low = document.createNode('Low_LOD').setMesh(addMesh(document, 'low', triangleSoup(20)));
  high.setExtension('MSFT_lod', ext.createLod().addLevel(medium).addLevel(low));
  if (coverage) high.setExtras({ MSFT_screencoverage: coverage });
  document.createScene('scene').addChild(high);
  return { document, nodes: [high, medium, low] };
}

/**
 * Three unlinked level nodes High / Mid / Low (30 / 10 / 3 triangles), High in the scene: the input
 * of the writer tests, before `writeLodGroup` links them.
 */
export function unlinkedLevels(): { document: Document; high: Node; mid: Node; low: Node } {
  const document = new Document();
  document.createBuffer();
  const high = document.createNode('High').setMesh(addMesh(document, 'h', triangleSoup(30)));
  const mid = document.createNode('Mid').setMesh(addMesh(document, 'm', triangleSoup(10)));
  const low = document.createNode('Low').setMesh(addMesh(document, 'l', triangleSoup(3)));
  document.createScene().addChild(high);
  return { document, high, mid, low };
}

/** NodeIO with MSFT_lod registered. */
export function lodIO(): NodeIO {
  return new NodeIO().registerExtensions([MSFTLod]);
}

/** The document as glTF JSON with embedded resources (a deep copy safe to edit). */
export async function toJSONDoc(document: Document): Promise<JSONDocument> {
  const jsonDoc = await lodIO().writeJSON(document);
  return { json: structuredClone(jsonDoc.json), resources: jsonDoc.resources };
}

/**
 * Packs glTF JSON (an object, or JSON text as written — e.g. with `1e999` in it) and one binary
 * chunk into GLB bytes (used for hand-edited, possibly invalid, files).
 */
export function packGlb(json: unknown, bin: Uint8Array | undefined): Uint8Array {
  const encoder = new TextEncoder();
  let jsonBytes = encoder.encode(typeof json === 'string' ? json : JSON.stringify(json));
  const jsonPadded = new Uint8Array(Math.ceil(jsonBytes.length / 4) * 4).fill(0x20);
  jsonPadded.set(jsonBytes);
  jsonBytes = jsonPadded;
  const binPadded = bin ? new Uint8Array(Math.ceil(bin.length / 4) * 4) : new Uint8Array(0);
  if (bin) binPadded.set(bin);
  const total = 12 + 8 + jsonBytes.length + (bin ? 8 + binPadded.length : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonBytes.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(jsonBytes, 20);
  if (bin) {
    const at = 20 + jsonBytes.length;
    view.setUint32(at, binPadded.length, true);
    view.setUint32(at + 4, 0x004e4942, true);
    out.set(binPadded, at + 8);
  }
  return out;
}

/** The document as GLB JSON + its binary chunk, for editing and re-packing with {@link packGlb}. */
export async function toGlbParts(document: Document): Promise<{ json: any; bin: Uint8Array | undefined }> {
  const bytes = await lodIO().writeBinary(document);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const at = 20 + jsonLength;
  const bin = at < bytes.length ? bytes.slice(at + 8, at + 8 + view.getUint32(at, true)) : undefined;
  return { json, bin };
}
