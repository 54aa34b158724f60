/**
 * Reading glTF files from other people safely, part 2: where a file's buffers and images come
 * from. External files only from inside the input file's folder; `data:` URIs decoded here, by
 * {@link decodeDataUri}, never by glTF-Transform. The result is glTF-Transform's `JSONDocument`
 * shape with every resource already in `resources`, so its reader decodes nothing itself.
 *
 * Contributor notes:
 * - Folder rule: a `uri` must be a `data:` URI or a relative path that stays inside the folder of
 *   the file being read, after percent-decoding (glTF URIs are percent-encoded: `%2e%2e/` is `../`)
 *   and after following symbolic links (a link inside the folder pointing out of it is refused too).
 *   Absolute paths, `file:` and any other scheme are refused. `allowOutsideResources` lifts the
 *   folder rule (absolute and `../` paths, `file:` URLs, hard links), never the network rule:
 *   lodkit has no business fetching URLs while reading a model.
 * - Hard links: a resource file with more than one link (`nlink > 1`) is refused under the folder
 *   rule. Path checks cannot tell where the other names of a hard link are; one of them may be
 *   `~/.ssh/id_ed25519`. Such files are rare in model folders (pnpm stores are one place they occur).
 * - A file is opened once and checked (regular file, links, size) through that same handle, with
 *   `O_NONBLOCK` so a FIFO named like a buffer cannot hang the read; it is read into an array of
 *   exactly the size `fstat` gave, and a file that shrinks meanwhile is refused.
 * - `data:` URIs: decoded strictly (see dataUri.ts), their decoded length counted in
 *   {@link GltfReadLimits.resourceBytes} and checked against `byteLength` before glTF-Transform
 *   sees the document, as are sparse index values once every buffer's bytes are known
 *   (`checkSparseIndices`). Each decoded array is stored under a private key (`__lodkit` + NUL + the
 *   field; a NUL can never name a file, so no external URI collides) and the entry's `uri` is
 *   rewritten to it in lodkit's copy of the JSON. glTF-Transform treats `__`-keys as its own
 *   generated names and keeps no URI for them, as when it decodes `data:` URIs itself; an image's
 *   missing `mimeType` is taken from its `data:` media type, as glTF-Transform would.
 * - Every resource handed over is an array of its own or a view of lodkit's own copy of the file,
 *   never caller memory that may be a slice of Node's `Buffer` pool (the GLB BIN chunk of
 *   caller-supplied bytes is copied).
 * - Resource maps are looked up with `Object.hasOwn`: `uri: "constructor"` is a file name, not
 *   `Object.prototype.constructor`.
 *
 * @module
 */
import { constants } from 'node:fs';
import { open, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataUriError, decodeDataUri, isDataUri, type DecodedDataUri } from './dataUri.js';
import {
  GLB_BUFFER, GLTF_READ_LIMITS, GltfReadError, checkGltfStructure, checkSparseIndices, parseGltfBytes,
  type GltfJson, type GltfReadLimits, type RawGltf, type SafeSourceOptions,
} from './source.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const OUTSIDE_HINT = 'resources must stay inside the input file\'s folder (pass allowOutsideResources / --allow-outside-resources to lift this)';

/**
 * Decides where a resource URI may be read from: `null` for a `data:` URI (decoded in memory), or
 * the absolute path to read. Throws naming `field` when the URI is refused.
 * @internal
 */
export function resourcePath(uri: string, folder: string, field: string, allowOutside: boolean): string | null {
  if (isDataUri(uri)) return null;
  if (/^file:/i.test(uri)) {
    if (!allowOutside) throw new GltfReadError(`${field} = ${JSON.stringify(uri)}: file: URIs are refused; ${OUTSIDE_HINT}`);
    try { return fileURLToPath(uri); } catch { throw new GltfReadError(`${field} = ${JSON.stringify(uri)} is not a valid file: URL`); }
  }
  if (SCHEME.test(uri) && !/^[A-Za-z]:[\\/]/.test(uri)) {
    throw new GltfReadError(`${field} = ${JSON.stringify(uri.slice(0, 80))}: only data: URIs and relative paths are read (no ${uri.split(':')[0]}: resources)`);
  }
  let decoded: string;
  try { decoded = decodeURIComponent(uri); } catch { throw new GltfReadError(`${field} = ${JSON.stringify(uri.slice(0, 80))} is not a valid percent-encoded URI`); }
  if (decoded.includes('\0')) throw new GltfReadError(`${field} contains a NUL character`);
  if (!allowOutside && (isAbsolute(decoded) || /^[A-Za-z]:/.test(decoded) || decoded.startsWith('\\'))) {
    throw new GltfReadError(`${field} = ${JSON.stringify(uri.slice(0, 80))} is an absolute path; ${OUTSIDE_HINT}`);
  }
  const path = resolve(folder, decoded);
  if (!allowOutside && !inside(folder, path)) throw new GltfReadError(`${field} = ${JSON.stringify(uri.slice(0, 80))} points outside the input folder; ${OUTSIDE_HINT}`);
  return path;
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** Stores `bytes` as an own property, even under a key like `__proto__`. */
function setResource(resources: Record<string, Uint8Array>, key: string, bytes: Uint8Array): void {
  Object.defineProperty(resources, key, { value: bytes, enumerable: true, writable: true, configurable: true });
}

/** The entries (`buffers`, `images`) whose `uri` is a string, with their field names. */
function entries(json: GltfJson): { kind: 'buffers' | 'images'; index: number; entry: { uri?: unknown; mimeType?: unknown }; field: string }[] {
  const all = [];
  for (const kind of ['buffers', 'images'] as const) {
    const list = (Array.isArray(json[kind]) ? json[kind] : []) as { uri?: unknown }[];
    for (let index = 0; index < list.length; index++) {
      if (typeof list[index]?.uri === 'string') all.push({ kind, index, entry: list[index], field: `${kind}[${index}].uri` });
    }
  }
  return all;
}

/** The decoded `data:` URIs of one file, by field (`buffers[0].uri`). */
type Decoded = Map<string, DecodedDataUri>;

/**
 * Decodes every `data:` URI of `json` strictly, counting the decoded bytes into `used` against the
 * resource limit before each allocation. Returns them by field and the bytes used.
 */
function decodeDataUris(json: GltfJson, limits: GltfReadLimits, used: number): { decoded: Decoded; used: number } {
  const decoded: Decoded = new Map();
  for (const { entry, field } of entries(json)) {
    const uri = entry.uri as string;
    if (!isDataUri(uri)) continue;
    let result: DecodedDataUri;
    try {
      result = decodeDataUri(uri, { maxBytes: limits.resourceBytes - used });
    } catch (error) {
      if (!(error instanceof DataUriError)) throw error;
      throw new GltfReadError(`${field}: ${error.message}${error.reason === 'too-large' ? ` (resources total more than the limit of ${limits.resourceBytes} bytes)` : ''}`);
    }
    used += result.bytes.byteLength;
    decoded.set(field, result);
  }
  return { decoded, used };
}

/**
 * The bytes of buffer `i` as far as they are known: the GLB BIN chunk, a decoded `data:` URI, or an
 * external file already read (glTF-Transform's mapping: a buffer without `uri` is the BIN chunk).
 */
function bufferBytes(raw: RawGltf, decoded: Decoded | null, i: number): Uint8Array | undefined {
  const b = (raw.json.buffers ?? [])[i] as { uri?: unknown } | undefined;
  if (b === undefined) return undefined;
  if (b.uri === undefined) return i === 0 ? raw.resources[GLB_BUFFER] : undefined;
  if (typeof b.uri !== 'string') return undefined;
  if (isDataUri(b.uri)) return decoded?.get(`buffers[${i}].uri`)?.bytes;
  return Object.hasOwn(raw.resources, b.uri) ? (raw.resources[b.uri] ?? undefined) : undefined;
}

/**
 * Byte count of buffer `i` as far as it is known ({@link bufferBytes}); -1 when not known yet. A
 * buffer without `uri` and no BIN chunk for it has 0 bytes.
 */
function bufferLength(raw: RawGltf, decoded: Decoded | null, i: number): number {
  const b = (raw.json.buffers ?? [])[i] as { uri?: unknown } | undefined;
  return bufferBytes(raw, decoded, i)?.byteLength ?? (b !== undefined && b.uri === undefined ? 0 : -1);
}

/**
 * Hands the decoded `data:` URIs to glTF-Transform: each under a private key, the entry's `uri`
 * rewritten to it (see the module notes). `raw.json` must be lodkit's own copy.
 */
function embedDataUris(raw: RawGltf, decoded: Decoded): void {
  for (const { kind, entry, field } of entries(raw.json)) {
    const result = decoded.get(field);
    if (result === undefined) continue;
    const key = `__lodkit\u0000${field}.bin`;
    setResource(raw.resources, key, result.bytes);
    entry.uri = key;
    if (kind === 'images' && entry.mimeType === undefined && result.mediaType.startsWith('image/')) entry.mimeType = result.mediaType;
  }
}

/** True when `bytes` span their whole `ArrayBuffer` (so no read past them finds other memory). */
function ownsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}

/** A fresh array of exactly `bytes`' length and content. */
function copyOf(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

/**
 * Reads one external resource under the folder rule: realpath inside the folder (symbolic links),
 * one link only (hard links), a regular file, within the resource budget. Returns its bytes.
 */
async function readResource(target: { uri: string; path: string; field: string }, realFolder: string, allowOutside: boolean, budget: { used: number; limit: number }): Promise<Uint8Array> {
  const name = `${target.field} = "${target.uri.slice(0, 60)}"`;
  const failed = (error: unknown): GltfReadError => new GltfReadError(`${name} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  let real: string;
  try { real = await realpath(target.path); } catch (error) { throw failed(error); }
  if (!allowOutside && !inside(realFolder, real)) {
    throw new GltfReadError(`${name} is a link to a file outside the input folder; resources must stay inside it (allowOutsideResources lifts this)`);
  }
  let handle;
  try { handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0)); } catch (error) { throw failed(error); }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new GltfReadError(`${name} is not a regular file`);
    if (!allowOutside && info.nlink > 1) {
      throw new GltfReadError(`${name} has ${info.nlink} hard links; another name of the same file may lie outside the input folder, and no path check can see where (allowOutsideResources / --allow-outside-resources lifts this)`);
    }
    if (budget.used + info.size > budget.limit) throw new GltfReadError(`${target.field}: resources total more than the limit of ${budget.limit} bytes`);
    const bytes = new Uint8Array(info.size);
    let filled = 0;
    while (filled < bytes.byteLength) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.byteLength - filled, filled);
      if (bytesRead === 0) throw new GltfReadError(`${name} shrank while being read (${filled} of ${info.size} bytes)`);
      filled += bytesRead;
    }
    return bytes;
  } catch (error) {
    if (error instanceof GltfReadError) throw error;
    throw failed(error);
  } finally {
    await handle.close();
  }
}

async function resolveResources(raw: RawGltf, folder: string, limits: GltfReadLimits, allowOutside: boolean): Promise<RawGltf> {
  // Shape and references first, with every URI's size unknown: nothing is read or decoded yet.
  checkGltfStructure(raw.json, limits, (i) => bufferLength(raw, null, i));
  const { decoded, used } = decodeDataUris(raw.json, limits, 0);
  const realFolder = await realpath(folder);
  let total = used;
  for (const { entry, field } of entries(raw.json)) {
    const uri = entry.uri as string;
    if (Object.hasOwn(raw.resources, uri)) continue;
    const path = resourcePath(uri, folder, field, allowOutside);
    if (path === null) continue;
    const bytes = await readResource({ uri, path, field }, realFolder, allowOutside, { used: total, limit: limits.resourceBytes });
    total += bytes.byteLength;
    setResource(raw.resources, uri, bytes);
  }
  checkGltfStructure(raw.json, limits, (i) => bufferLength(raw, decoded, i));
  checkSparseIndices(raw.json, (i) => bufferBytes(raw, decoded, i));
  embedDataUris(raw, decoded);
  return raw;
}

/**
 * Reads a glTF or GLB file and its external resources under the folder rule, checking structure and
 * limits before reading resources. Returns glTF-Transform's `JSONDocument` shape.
 * @internal
 */
export async function readGltfFile(path: string, options: SafeSourceOptions = {}): Promise<RawGltf> {
  const limits: GltfReadLimits = { ...GLTF_READ_LIMITS, ...options.limits };
  const allowOutside = options.allowOutsideResources === true;
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new GltfReadError(`${path} is not a regular file`);
    size = info.size;
  } catch (error) {
    if (error instanceof GltfReadError) throw error;
    throw new GltfReadError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (size > limits.fileBytes) throw new GltfReadError(`${path} has ${size} bytes, more than the limit of ${limits.fileBytes}`);
  // A copy of the file's bytes (new Uint8Array(Buffer) copies): the GLB BIN chunk is a view of it.
  const bytes = new Uint8Array(await readFile(path));
  const raw = parseGltfBytes(bytes, 'glTF JSON', limits);
  return resolveResources(raw, dirname(path), limits, allowOutside);
}

/**
 * In-memory input (no folder): structure, then every URI that would need a file refused (`why`),
 * `data:` URIs decoded, structure again with their lengths, and the decoded bytes embedded.
 */
function checkInMemory(raw: RawGltf, limits: GltfReadLimits, why: string): RawGltf {
  checkGltfStructure(raw.json, limits, (i) => bufferLength(raw, null, i));
  const external = entries(raw.json).find(({ entry }) => !isDataUri(entry.uri as string) && !Object.hasOwn(raw.resources, entry.uri as string));
  if (external) throw new GltfReadError(`${external.field} = ${JSON.stringify(String(external.entry.uri).slice(0, 80))}: ${why}`);
  const { decoded } = decodeDataUris(raw.json, limits, 0);
  checkGltfStructure(raw.json, limits, (i) => bufferLength(raw, decoded, i));
  checkSparseIndices(raw.json, (i) => bufferBytes(raw, decoded, i));
  embedDataUris(raw, decoded);
  return raw;
}

/**
 * Checks GLB bytes or an in-memory `.gltf` (no folder: external URIs are refused) like
 * {@link readGltfFile}. The GLB BIN chunk is copied unless `bytes` own their whole `ArrayBuffer`:
 * the caller's array may be a slice of Node's shared `Buffer` pool.
 * @internal
 */
export function readGltfBytes(bytes: Uint8Array, options: SafeSourceOptions = {}): RawGltf {
  const limits: GltfReadLimits = { ...GLTF_READ_LIMITS, ...options.limits };
  if (bytes.byteLength > limits.fileBytes) throw new GltfReadError(`the input has ${bytes.byteLength} bytes, more than the limit of ${limits.fileBytes}`);
  const raw = parseGltfBytes(bytes, 'glTF JSON', limits);
  if (Object.hasOwn(raw.resources, GLB_BUFFER) && !ownsBuffer(bytes)) raw.resources[GLB_BUFFER] = copyOf(raw.resources[GLB_BUFFER]);
  return checkInMemory(raw, limits, 'an in-memory file cannot refer to external resources (read it from a path)');
}

/**
 * Checks a caller's `{json, resources}` like {@link readGltfBytes}: the same structure checks and
 * the same `data:` decoder, on a copy (the caller's JSON is not modified). Every external URI must
 * be a key of `resources`; values are `Uint8Array`s, or `null` for an image that could not be
 * loaded (glTF-Transform's convention).
 * @internal
 */
export function readGltfJsonDocument(doc: { json: GltfJson; resources?: Record<string, unknown> }, options: SafeSourceOptions = {}): RawGltf {
  const limits: GltfReadLimits = { ...GLTF_READ_LIMITS, ...options.limits };
  const json: GltfJson = { ...doc.json };
  for (const kind of ['buffers', 'images'] as const) {
    const list = doc.json[kind];
    if (Array.isArray(list)) json[kind] = list.map((entry: unknown) => (entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? { ...entry } : entry)) as never;
  }
  const resources: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(doc.resources ?? {})) {
    if (value !== null && !(value instanceof Uint8Array)) throw new GltfReadError(`resources[${JSON.stringify(key.slice(0, 60))}] must be a Uint8Array, got ${typeof value}`);
    setResource(resources, key, value as Uint8Array);
  }
  return checkInMemory({ json, resources }, limits, 'not among the given resources');
}
