/**
 * Reading glTF files from other people safely, part 1: the GLB container and the structural checks
 * glTF-Transform leaves to the reader (its own failures are raw: "Invalid typed array length: 1000",
 * or an out-of-memory crash for a huge count). Where resources come from (external files, `data:`
 * URIs) is `resources.ts`. Every error is a {@link GltfReadError} naming the glTF field
 * (`accessors[3]`, `buffers[0].uri`, `GLB BIN chunk`) and what was wrong. Imports no glTF library.
 *
 * Contributor notes:
 * - Order: the JSON is checked (shape, references, counts against {@link GLTF_READ_LIMITS}) BEFORE
 *   any external resource is read and before glTF-Transform allocates arrays, so a 40-byte file
 *   claiming 10¹² vertices fails in microseconds with the accessor named. The same check runs again
 *   once every resource's real byte count is known.
 * - Every byte glTF-Transform's reader will touch is inside its buffer: views inside buffers,
 *   accessors (and sparse indices and values) inside views, buffers no longer than their bytes.
 *   Its reader takes views with `new Uint8Array(data.buffer, data.byteOffset + offset, …)` and
 *   `ArrayBuffer.slice`, which do not stop at the end of the resource when the resource is a
 *   slice of a larger `ArrayBuffer` (Node's shared `Buffer` pool): an unchecked read would copy
 *   unrelated memory into the document.
 * - Cycles and shared children in `nodes[].children` are refused here: glTF-Transform would build
 *   them and then recurse forever in `traverse`.
 * - Limits bound WORK, not only counts (validateJson.ts): the bytes of every accessor array
 *   glTF-Transform will allocate (zero-filled ones from no file bytes at all have a smaller budget
 *   of their own), vertices and drawn elements summed over primitives (a primitive reusing an
 *   accessor is simplified again), every object glTF-Transform creates, JSON depth, members and
 *   name lengths. Sums are checked after the meshes, so the vertex sum names the meshes first.
 * - The references of materials, textures, skins, cameras and animations are checked in
 *   validateRefs.ts; index VALUES (an index ≥ the vertex count) need the decoded data and are
 *   checked after glTF-Transform has built the document (validateGeometry.ts). Sparse index
 *   values (increasing, below the accessor's count) are read from the resolved resources before
 *   glTF-Transform sees them ({@link checkSparseIndices}, called by resources.ts).
 *
 * @module
 */
import {
  INDEX_BYTES, accessorLayout, checkJsonTree, checkObjectCount, checkPrimitive, checkStringFields, scanJsonText,
} from './validateJson.js';
import { checkGltfReferences } from './validateRefs.js';
import { GLTF_READ_LIMITS, GltfReadError, describe, ref, type GltfJson, type GltfReadLimits } from './readLimits.js';

export { GLTF_READ_LIMITS, GltfReadError, describe, ref, type GltfJson, type GltfReadLimits } from './readLimits.js';

/** Options of the safe reader. @category glTF */
export interface SafeSourceOptions {
  /** Allow resource URIs outside the input file's folder (absolute, `../`, `file:`) and files with more than one hard link. Default false. */
  allowOutsideResources?: boolean;
  /** Ceilings; missing keys take {@link GLTF_READ_LIMITS}. */
  limits?: Partial<GltfReadLimits>;
}

/** A parsed glTF JSON with its resources keyed by URI (glTF-Transform's `JSONDocument` shape). @internal */
export interface RawGltf {
  json: GltfJson;
  resources: Record<string, Uint8Array>;
}


const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
/** The key the GLB BIN chunk is stored under (glTF-Transform's convention). @internal */
export const GLB_BUFFER = '@glb.bin';

/** True when `bytes` start with the GLB magic. @internal */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === GLB_MAGIC;
}

function decodeJson(bytes: Uint8Array, where: string, limits: GltfReadLimits): GltfJson {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new GltfReadError(`${where} is not valid UTF-8 (glTF JSON must be UTF-8)`);
  }
  // Depth and size before parsing: JSON.parse would build all of it first.
  scanJsonText(text, where, limits);
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new GltfReadError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new GltfReadError(`${where} must be a JSON object, got ${Array.isArray(json) ? 'an array' : typeof json}`);
  return json as GltfJson;
}

/**
 * Splits a GLB into its JSON and BIN chunk, checking every length against the bytes there are.
 * @internal
 */
export function parseGlb(bytes: Uint8Array, limits: GltfReadLimits = GLTF_READ_LIMITS): RawGltf {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = bytes.byteLength;
  if (size < 12) throw new GltfReadError(`GLB header is truncated: ${size} of 12 bytes`);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw new GltfReadError('GLB header: not a GLB file (magic is not "glTF")');
  const version = view.getUint32(4, true);
  if (version !== 2) throw new GltfReadError(`GLB header: version ${version}, only glTF 2 is supported`);
  const length = view.getUint32(8, true);
  if (length > size) throw new GltfReadError(`GLB header: length says ${length} bytes, the file has ${size} (truncated)`);
  if (length < 20) throw new GltfReadError(`GLB header: length ${length} leaves no room for the JSON chunk`);
  if (size < 20) throw new GltfReadError(`GLB JSON chunk header is truncated: ${size - 12} of 8 bytes`);
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== CHUNK_JSON) throw new GltfReadError('GLB JSON chunk: the first chunk is not of type JSON');
  if (20 + jsonLength > length) throw new GltfReadError(`GLB JSON chunk: says ${jsonLength} bytes, ${length - 20} are there (truncated)`);
  const json = decodeJson(bytes.subarray(20, 20 + jsonLength), 'GLB JSON chunk', limits);
  const resources: Record<string, Uint8Array> = {};
  const binStart = 20 + jsonLength;
  if (length > binStart) {
    if (length - binStart < 8) throw new GltfReadError(`GLB BIN chunk header is truncated: ${length - binStart} of 8 bytes`);
    const binLength = view.getUint32(binStart, true);
    const binType = view.getUint32(binStart + 4, true);
    if (binType === CHUNK_BIN) {
      if (binStart + 8 + binLength > length) throw new GltfReadError(`GLB BIN chunk: says ${binLength} bytes, ${length - binStart - 8} are there (truncated)`);
      resources[GLB_BUFFER] = bytes.subarray(binStart + 8, binStart + 8 + binLength);
    }
  }
  return { json, resources };
}

/**
 * Parses a `.gltf` file's bytes (UTF-8 JSON) or a `.glb`'s, by content; the JSON text is checked
 * against `limits.jsonDepth` and `limits.jsonEntries` before it is parsed.
 * @internal
 */
export function parseGltfBytes(bytes: Uint8Array, name: string, limits: GltfReadLimits = GLTF_READ_LIMITS): RawGltf {
  if (isGlb(bytes)) return parseGlb(bytes, limits);
  let first = 0;
  while (first < bytes.length && (bytes[first] === 0x20 || bytes[first] === 0x0a || bytes[first] === 0x0d || bytes[first] === 0x09)) first++;
  const bom = bytes[first] === 0xef && bytes[first + 1] === 0xbb && bytes[first + 2] === 0xbf;
  if (bytes[bom ? first + 3 : first] !== 0x7b) throw new GltfReadError(`not a glTF file: neither a GLB (magic "glTF") nor glTF JSON (an object)`);
  return { json: decodeJson(bytes, name, limits), resources: {} };
}

/** `n` as a non-negative integer, or throws naming `field`. */
function count(value: unknown, field: string, { min = 0, max = Number.MAX_SAFE_INTEGER, optional = false } = {}): number {
  if (value === undefined && optional) return min;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new GltfReadError(`${field} must be an integer ≥ ${min}, got ${describe(value)}`);
  }
  if (value > max) throw new GltfReadError(`${field} = ${value} exceeds the limit of ${max}`);
  return value;
}


function list(json: GltfJson, key: string, limits: GltfReadLimits): Record<string, unknown>[] {
  const value = json[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new GltfReadError(`${key} must be an array, got ${describe(value)}`);
  if (value.length > limits.arrayLength) throw new GltfReadError(`${key} has ${value.length} entries, more than the limit of ${limits.arrayLength}`);
  value.forEach((entry, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new GltfReadError(`${key}[${i}] must be an object, got ${describe(entry)}`);
  });
  return value as Record<string, unknown>[];
}


function finiteList(value: unknown, n: number, field: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length !== n) throw new GltfReadError(`${field} must be a list of ${n} numbers, got ${describe(value)}`);
  for (let k = 0; k < n; k++) {
    if (typeof value[k] !== 'number' || !Number.isFinite(value[k])) throw new GltfReadError(`${field}[${k}] must be a finite number, got ${describe(value[k])}`);
  }
}


/** Bytes `count` elements of `element` bytes take from `offset`, `stride` apart when given. */
function span(offset: number, n: number, element: number, stride: number | undefined): number {
  return offset + (stride ?? element) * (n - 1) + element;
}

/**
 * The byteOffset glTF-Transform 4 reads `sparse.indices` / `sparse.values` at: it spreads the
 * accessor under them (`{...accessor, ...sparse.indices}`), so an absent `byteOffset` there falls
 * back to the ACCESSOR's byteOffset, not to 0 as the spec says (a present `null` is not absent).
 * The raw value: the caller checks it with `count`.
 */
function sparseOffset(a: Record<string, unknown>, def: Record<string, unknown>): unknown {
  return Object.hasOwn(def, 'byteOffset') ? def.byteOffset : a.byteOffset;
}

/**
 * A sparse accessor's indices and values lie inside their buffer views, at the offsets
 * glTF-Transform reads them at ({@link sparseOffset}).
 */
function checkSparse(a: Record<string, unknown>, field: string, n: number, element: number, views: Record<string, unknown>[], viewLengths: number[]): void {
  const sparse = a.sparse as { count?: unknown; indices?: Record<string, unknown>; values?: Record<string, unknown> } | null;
  if (sparse === null || typeof sparse !== 'object') throw new GltfReadError(`${field}.sparse must be an object, got ${describe(sparse)}`);
  const k = count(sparse.count, `${field}.sparse.count`, { min: 1, max: n });
  for (const part of ['indices', 'values'] as const) {
    const def = sparse[part];
    const where = `${field}.sparse.${part}`;
    if (def === null || typeof def !== 'object') throw new GltfReadError(`${where} must be an object, got ${describe(def)}`);
    const v = ref(def.bufferView, `${where}.bufferView`, views.length, 'bufferViews', false)!;
    const offset = count(sparseOffset(a, def), `${where}.byteOffset`, { optional: true });
    let size = element;
    if (part === 'indices') {
      size = INDEX_BYTES.get(def.componentType) as number;
      if (size === undefined) throw new GltfReadError(`${where}.componentType = ${describe(def.componentType)} is not an index type (5121, 5123, 5125)`);
    }
    const needed = span(offset, k, size, views[v].byteStride as number | undefined);
    if (needed > viewLengths[v]) {
      throw new GltfReadError(`${where} (count ${k}, ${size}-byte elements) needs ${needed} bytes of bufferViews[${v}], which has ${viewLengths[v]} (truncated or wrong count)`);
    }
  }
}

/**
 * Checks the JSON's structure against itself and against the byte lengths of the resources it will
 * get (`resourceBytes(i)` is buffer i's byte count, or -1 when it is not known yet). Throws
 * {@link GltfReadError} naming the field.
 * @internal
 */
export function checkGltfStructure(json: GltfJson, limits: GltfReadLimits, resourceBytes: (buffer: number) => number): void {
  const asset = json.asset as { version?: unknown } | undefined;
  if (asset === undefined || asset === null || typeof asset !== 'object') throw new GltfReadError('asset must be an object with a version ("2.0")');
  const buffers = list(json, 'buffers', limits);
  const views = list(json, 'bufferViews', limits);
  const accessors = list(json, 'accessors', limits);
  const meshes = list(json, 'meshes', limits);
  const nodes = list(json, 'nodes', limits);
  const scenes = list(json, 'scenes', limits);
  const images = list(json, 'images', limits);
  list(json, 'textures', limits);
  const materials = list(json, 'materials', limits);
  list(json, 'samplers', limits);
  for (const key of ['animations', 'skins', 'cameras']) list(json, key, limits);
  checkObjectCount(json, limits);
  checkStringFields(json);
  checkJsonTree(json, limits);

  const bufferLengths = buffers.map((b, i) => {
    const n = count(b.byteLength, `buffers[${i}].byteLength`, { min: 1, max: limits.resourceBytes });
    if (b.uri !== undefined && typeof b.uri !== 'string') throw new GltfReadError(`buffers[${i}].uri must be a string, got ${describe(b.uri)}`);
    const have = resourceBytes(i);
    if (have >= 0 && have < n) {
      if (typeof b.uri === 'string' && /^data:/i.test(b.uri)) {
        throw new GltfReadError(`buffers[${i}].uri: the data: URI decodes to ${have} bytes, but buffers[${i}].byteLength says ${n} (truncated)`);
      }
      throw new GltfReadError(`buffers[${i}]${typeof b.uri === 'string' ? ` ("${b.uri.slice(0, 60)}")` : ' (GLB BIN chunk)'} is truncated: ${have} bytes, byteLength says ${n}`);
    }
    return n;
  });
  const total = bufferLengths.reduce((a, b) => a + b, 0);
  if (total > limits.resourceBytes) throw new GltfReadError(`buffers total ${total} bytes, more than the limit of ${limits.resourceBytes}`);

  const viewLengths = views.map((v, i) => {
    const field = `bufferViews[${i}]`;
    const b = ref(v.buffer, `${field}.buffer`, buffers.length, 'buffers', false)!;
    const offset = count(v.byteOffset, `${field}.byteOffset`, { optional: true });
    const length = count(v.byteLength, `${field}.byteLength`, { min: 1 });
    if (v.byteStride !== undefined) count(v.byteStride, `${field}.byteStride`, { min: 4, max: 252 });
    if (offset + length > bufferLengths[b]) {
      throw new GltfReadError(`${field} (bytes ${offset}–${offset + length}) runs past the end of buffers[${b}] (${bufferLengths[b]} bytes)`);
    }
    return length;
  });

  // Sums that drive memory; checked after the meshes (see the module notes), each error naming
  // the accessor that crossed its limit.
  let allBytes = 0;
  let zeroBytes = 0;
  let allOver = -1;
  let zeroOver = -1;
  accessors.forEach((a, i) => {
    const field = `accessors[${i}]`;
    const n = count(a.count, `${field}.count`, { min: 1, max: limits.accessorCount });
    const { componentBytes, components } = accessorLayout(a, field);
    const element = componentBytes * components;
    const v = ref(a.bufferView, `${field}.bufferView`, views.length, 'bufferViews');
    if (v === undefined) {
      // No bufferView: the reader allocates count × element bytes of zeros, from no file bytes.
      zeroBytes += n * element;
      if (zeroBytes > limits.zeroFilledBytes && zeroOver < 0) zeroOver = i;
    } else {
      const offset = count(a.byteOffset, `${field}.byteOffset`, { optional: true });
      const needed = span(offset, n, element, views[v].byteStride as number | undefined);
      if (needed > viewLengths[v]) {
        throw new GltfReadError(`${field} (count ${n}, ${element}-byte elements) needs ${needed} bytes of bufferViews[${v}], which has ${viewLengths[v]} (truncated or wrong count)`);
      }
    }
    allBytes += n * element;
    if (a.sparse !== undefined) {
      checkSparse(a, field, n, element, views, viewLengths);
      // The sparse indices and values are copied out too (as 4-byte indices at most).
      allBytes += ((a.sparse as { count: number }).count) * (element + 4);
    }
    if (allBytes > limits.accessorBytes && allOver < 0) allOver = i;
    finiteList(a.min, Array.isArray(a.min) ? a.min.length : 0, `${field}.min`);
    finiteList(a.max, Array.isArray(a.max) ? a.max.length : 0, `${field}.max`);
  });

  let vertices = 0;
  let drawn = 0;
  meshes.forEach((m, i) => {
    const primitives = m.primitives;
    if (!Array.isArray(primitives) || primitives.length === 0) throw new GltfReadError(`meshes[${i}].primitives must be a non-empty list, got ${describe(primitives)}`);
    primitives.forEach((p: Record<string, unknown> | null, k) => {
      const field = `meshes[${i}].primitives[${k}]`;
      if (p === null || typeof p !== 'object' || Array.isArray(p)) throw new GltfReadError(`${field} must be an object, got ${describe(p)}`);
      const attributes = p.attributes as Record<string, unknown> | undefined;
      if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) throw new GltfReadError(`${field}.attributes must be an object, got ${describe(attributes)}`);
      const work = checkPrimitive(p, field, accessors);
      vertices += work.vertices;
      drawn += work.drawn;
      ref(p.material, `${field}.material`, materials.length, 'materials');
    });
  });
  if (vertices > limits.vertices) throw new GltfReadError(`meshes: ${vertices} vertices in all (POSITION counts), more than the limit of ${limits.vertices}`);
  if (drawn > limits.drawnElements) throw new GltfReadError(`meshes: ${drawn} elements drawn in all (index counts, or vertex counts without indices), more than the limit of ${limits.drawnElements}`);
  if (zeroOver >= 0) {
    const a = accessors[zeroOver];
    const { componentBytes, components } = accessorLayout(a, `accessors[${zeroOver}]`);
    throw new GltfReadError(`accessors[${zeroOver}] (count ${a.count as number} without a bufferView) would allocate ${(a.count as number) * componentBytes * components} bytes of zeros; accessors without bufferViews total ${zeroBytes} bytes, more than the limit of ${limits.zeroFilledBytes}`);
  }
  if (allOver >= 0) throw new GltfReadError(`accessors[${allOver}]: the accessors up to here make glTF-Transform allocate more than the limit of ${limits.accessorBytes} bytes of arrays (${allBytes} in all)`);

  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, i) => {
    const field = `nodes[${i}]`;
    ref(node.mesh, `${field}.mesh`, meshes.length, 'meshes');
    finiteList(node.translation, 3, `${field}.translation`);
    finiteList(node.rotation, 4, `${field}.rotation`);
    finiteList(node.scale, 3, `${field}.scale`);
    finiteList(node.matrix, 16, `${field}.matrix`);
    if (node.children === undefined) return;
    if (!Array.isArray(node.children)) throw new GltfReadError(`${field}.children must be a list, got ${describe(node.children)}`);
    node.children.forEach((c: unknown, k) => {
      const child = ref(c, `${field}.children[${k}]`, nodes.length, 'nodes', false)!;
      if (child === i) throw new GltfReadError(`${field}.children[${k}] = ${i}: a node cannot be its own child`);
      if (parent[child] !== -1) throw new GltfReadError(`${field}.children[${k}] = ${child}: node ${child} already has a parent (nodes[${parent[child]}]); glTF nodes form a tree`);
      parent[child] = i;
    });
  });
  // A parent chain that never reaches a root is a cycle (every node has at most one parent here).
  const state = new Uint8Array(nodes.length); // 0 unvisited, 1 on the current chain, 2 reaches a root
  for (let i = 0; i < nodes.length; i++) {
    let n = i;
    while (n !== -1 && state[n] === 0) { state[n] = 1; n = parent[n]; }
    if (n !== -1 && state[n] === 1) throw new GltfReadError(`nodes[${n}].children: the node hierarchy has a cycle through node ${n}`);
    for (let m = i; m !== -1 && state[m] === 1; m = parent[m]) state[m] = 2;
  }
  scenes.forEach((s, i) => {
    if (s.nodes === undefined) return;
    if (!Array.isArray(s.nodes)) throw new GltfReadError(`scenes[${i}].nodes must be a list, got ${describe(s.nodes)}`);
    s.nodes.forEach((n: unknown, k) => {
      const node = ref(n, `scenes[${i}].nodes[${k}]`, nodes.length, 'nodes', false)!;
      if (parent[node] !== -1) throw new GltfReadError(`scenes[${i}].nodes[${k}] = ${node} is not a root node (it is a child of nodes[${parent[node]}])`);
    });
  });
  ref(json.scene, 'scene', scenes.length, 'scenes');
  images.forEach((image, i) => {
    if (image.uri !== undefined && typeof image.uri !== 'string') throw new GltfReadError(`images[${i}].uri must be a string, got ${describe(image.uri)}`);
    ref(image.bufferView, `images[${i}].bufferView`, views.length, 'bufferViews');
    if (image.uri === undefined && image.bufferView === undefined) throw new GltfReadError(`images[${i}] has neither a uri nor a bufferView`);
  });
  checkGltfReferences(json);
}


/**
 * The VALUES of sparse indices (glTF 2.0, "Sparse Accessors"): strictly increasing, each below the
 * accessor's count. glTF-Transform writes `array[index * elementSize + j]` unchecked, and a typed
 * array drops writes past its end, so an index ≥ count would read as a file with wrong data.
 * Reads the bytes glTF-Transform will read (the offsets {@link checkSparse} checks), little-endian.
 * Run after {@link checkGltfStructure} has checked the JSON against the same bytes;
 * `bufferBytes(i)` is buffer i's bytes, or undefined/null when not known (its indices are skipped).
 * Throws {@link GltfReadError} naming the accessor, the index's position k and its value.
 * @internal
 */
export function checkSparseIndices(json: GltfJson, bufferBytes: (buffer: number) => Uint8Array | null | undefined): void {
  const accessors = (json.accessors ?? []) as Record<string, unknown>[];
  const views = (json.bufferViews ?? []) as Record<string, unknown>[];
  accessors.forEach((a, i) => {
    if (a.sparse === undefined) return;
    const n = a.count as number;
    const sparse = a.sparse as { count: number; indices: Record<string, unknown> };
    const def = sparse.indices;
    const view = views[def.bufferView as number];
    const bytes = bufferBytes(view.buffer as number);
    if (!bytes) return;
    const size = INDEX_BYTES.get(def.componentType) as number;
    const stride = (view.byteStride as number | undefined) ?? size;
    const start = ((view.byteOffset as number | undefined) ?? 0) + ((sparseOffset(a, def) as number | undefined) ?? 0);
    const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let previous = -1;
    for (let k = 0; k < sparse.count; k++) {
      const at = start + k * stride;
      const index = size === 1 ? data.getUint8(at) : size === 2 ? data.getUint16(at, true) : data.getUint32(at, true);
      const field = `accessors[${i}].sparse.indices[${k}] = ${index}`;
      if (index >= n) throw new GltfReadError(`${field} is out of range: sparse indices must be less than accessors[${i}].count (${n})`);
      if (index <= previous) throw new GltfReadError(`${field} is not greater than indices[${k - 1}] = ${previous}: sparse indices must be strictly increasing`);
      previous = index;
    }
  });
}
