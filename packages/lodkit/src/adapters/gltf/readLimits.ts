/**
 * What every check of an untrusted glTF file shares: the ceilings ({@link GltfReadLimits}), the
 * error it throws ({@link GltfReadError}), the loose JSON shape it reads, and the two helpers that
 * word its messages. A module of its own so that the checks (source.ts, validateJson.ts,
 * validateRefs.ts, validateGeometry.ts) import it and not each other. Imports nothing.
 *
 * @module
 */
/**
 * Ceilings on what a glTF file may make lodkit allocate, checked before allocating. Raise them
 * with {@link ReadGltfOptions.limits} for a legitimately larger file.
 * @category glTF
 */
export interface GltfReadLimits {
  /** Bytes of the file itself (the `.glb`, or the `.gltf` JSON). */
  fileBytes: number;
  /** Bytes of all buffers and images together (external files, data: URIs, the GLB BIN chunk). */
  resourceBytes: number;
  /** Elements of one accessor (`count`). */
  accessorCount: number;
  /** Vertices of all mesh primitives together (the `count` of their POSITION accessors). */
  vertices: number;
  /** Entries of any one top-level array (`nodes`, `meshes`, `accessors`, …). */
  arrayLength: number;
  /**
   * Bytes of all accessor arrays glTF-Transform allocates: each accessor's `count` × element bytes
   * (it copies every accessor out of its buffer view), zero-filled and sparse accessors included.
   */
  accessorBytes: number;
  /** Of {@link accessorBytes}, the accessors without a `bufferView` (allocated as zeros from no file bytes). */
  zeroFilledBytes: number;
  /**
   * Elements drawn by all primitives together: index counts, or vertex counts for primitives
   * without indices (a primitive that reuses an accessor is simplified again, so reuse counts again).
   */
  drawnElements: number;
  /**
   * glTF objects glTF-Transform creates (about 2.5 KB each): nodes, meshes, primitives, morph
   * targets, accessors, materials, textures, images, samplers, skins, cameras, scenes, buffers,
   * animations and their channels and samplers, all together.
   */
  objects: number;
  /** Members of all JSON objects plus elements of all JSON arrays, counted in the text before it is parsed. */
  jsonEntries: number;
  /** Nesting depth of the JSON (objects and arrays), checked before it is parsed. */
  jsonDepth: number;
  /** UTF-16 code units of any `name` string (node, mesh, material, … names end up in reports and output files). */
  nameLength: number;
}

/**
 * Default {@link GltfReadLimits}: 1 GiB file and resources, 2²⁸ elements per accessor, 50 M
 * vertices, 1 M entries per array, 1 GiB of accessor arrays (64 MiB of them zero-filled), 150 M
 * drawn elements, 100,000 glTF objects, 5 M JSON members and elements, JSON depth 64, names of
 * 1,024 UTF-16 units. See docs/gltf.md for what each bounds.
 * @category glTF
 */
export const GLTF_READ_LIMITS: Readonly<GltfReadLimits> = Object.freeze({
  fileBytes: 1024 ** 3,
  resourceBytes: 1024 ** 3,
  accessorCount: 2 ** 28,
  vertices: 50_000_000,
  arrayLength: 1_000_000,
  accessorBytes: 1024 ** 3,
  zeroFilledBytes: 64 * 1024 ** 2,
  drawnElements: 150_000_000,
  objects: 100_000,
  jsonEntries: 5_000_000,
  jsonDepth: 64,
  nameLength: 1024,
});

/** Thrown when an input is not readable glTF; the message names the field. @category glTF */
export class GltfReadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GltfReadError';
  }
}

/** The parts of the glTF JSON the checks read. @internal */
export interface GltfJson {
  [key: string]: unknown;
  buffers?: { uri?: unknown; byteLength?: unknown }[];
  images?: { uri?: unknown; bufferView?: unknown }[];
  nodes?: unknown[];
  materials?: unknown[];
  /** A list of strings once checkStringFields (validateJson.ts) has passed. */
  extensionsUsed?: string[];
}

/** A value from the file, short enough for a message. @internal */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'number' ? String(value) : JSON.stringify(value);
  return text === undefined ? typeof value : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `value` as an index into `target` (of `length` entries), or throws naming `field`. @internal */
export function ref(value: unknown, field: string, length: number, target: string, optional = true): number | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= length) {
    throw new GltfReadError(`${field} = ${describe(value)} is not an index into ${target} (${length} entr${length === 1 ? 'y' : 'ies'})`);
  }
  return value;
}
