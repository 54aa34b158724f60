/**
 * Reading a glTF file into a glTF-Transform `Document` for lodkit ({@link readGltfDocument}): GLB
 * bytes, a path or a JSON document, its resources resolved inside its own folder (resources.ts),
 * positions and index ranges checked, glTF-Transform's warnings collected instead of printed.
 * Reading the `MSFT_lod` groups of the document is read.ts.
 *
 * @module
 */
import { Logger, NodeIO, type Document, type ILogger, type JSONDocument } from '@gltf-transform/core';
import { MSFTLod, MSFT_LOD } from './extension.js';
import { readGltfBytes, readGltfFile, readGltfJsonDocument } from './resources.js';
import { GltfReadError, type GltfReadLimits } from './source.js';
import { checkIndexRanges } from './validateGeometry.js';

/** Source of a glTF file: GLB bytes, a path (Node), or a JSON document with its resources. @category glTF */
export type GltfSource = Uint8Array | string | JSONDocument;

/** A glTF-Transform logger that keeps warnings and errors instead of printing them. @internal */
class CollectingLogger implements ILogger {
  messages: string[] = [];
  debug(): void {}
  info(): void {}
  warn(text: string): void { this.messages.push(text); }
  error(text: string): void { this.messages.push(text); }
}

/** Positions must be finite: one NaN makes every bounding sphere, error and threshold NaN. */
function checkFinitePositions(document: Document): void {
  document.getRoot().listMeshes().forEach((mesh, m) => {
    mesh.listPrimitives().forEach((primitive, p) => {
      const array = primitive.getAttribute('POSITION')?.getArray();
      if (!array) return;
      // One pass, one subtraction per value (v − v is 0 exactly for finite v).
      for (let k = 0; k < array.length; k++) {
        const v = array[k];
        if (v - v !== 0) {
          throw new GltfReadError(`Could not read glTF: meshes[${m}].primitives[${p}].attributes.POSITION: vertex ${Math.floor(k / 3)} has a non-finite coordinate (${v})`);
        }
      }
    });
  });
}

function hasMsftLod(defs: unknown): boolean {
  return Array.isArray(defs) && defs.some((d) => d != null && typeof d === 'object'
    && (d as { extensions?: unknown }).extensions != null
    && typeof (d as { extensions?: unknown }).extensions === 'object'
    && MSFT_LOD in ((d as { extensions: object }).extensions));
}

/** Options of {@link readGltfDocument}. @category glTF */
export interface ReadGltfOptions {
  /** A NodeIO of the caller's (keeps its logger; MSFTLod is registered on it). */
  io?: NodeIO;
  /**
   * Read resource URIs that leave the input file's folder (absolute paths, `../`, `file:` URLs,
   * files with more than one hard link).
   * Default false: a model from someone else cannot make lodkit read (and embed) other local files.
   * Other schemes than `data:` are never read.
   */
  allowOutsideResources?: boolean;
  /** Ceilings checked before allocating; missing keys take `GLTF_READ_LIMITS`. */
  limits?: Partial<GltfReadLimits>;
}

/**
 * Reads a glTF/GLB into a glTF-Transform {@link Document} with {@link MSFTLod} registered, without
 * printing anything (glTF-Transform's messages are returned; a caller-supplied `io` keeps its own
 * logger). A file that uses `MSFT_lod` without declaring it in `extensionsUsed` is read
 * anyway, with a `'not-declared'` warning (Babylon.js would ignore its LODs).
 *
 * Every source goes through lodkit's own container and structure checks first: external
 * resources only from inside the file's folder (see {@link ReadGltfOptions.allowOutsideResources}),
 * every length, count and index checked against the bytes there are and `GLTF_READ_LIMITS` before
 * anything is allocated, `data:` URIs decoded by lodkit's strict decoder (glTF-Transform gets the
 * decoded bytes; a `{json, resources}` source is checked on a copy and must hold every external
 * resource). Throws {@link GltfReadError} naming the field (`accessors[3]`, `buffers[0].uri`,
 * `GLB BIN chunk`) when the input is not readable glTF.
 * @example
 * ```ts
 * const { document, messages } = await readGltfDocument('models/tree.gltf');
 * await readGltfDocument('models/tree.gltf', { allowOutsideResources: true }); // trusted file with ../textures
 * ```
 * @category glTF
 */
export async function readGltfDocument(source: GltfSource, options: NodeIO | ReadGltfOptions = {}): Promise<{ document: Document; messages: string[] }> {
  const { io, allowOutsideResources, limits } = options instanceof NodeIO ? { io: options, allowOutsideResources: false, limits: undefined } : options;
  const logger = new CollectingLogger();
  // A caller's own NodeIO keeps its logger (and gets MSFTLod registered); ours collects messages.
  const reader = io ? io.registerExtensions([MSFTLod]) : new NodeIO().registerExtensions([MSFTLod]).setLogger(logger as unknown as Logger);
  let jsonDoc: JSONDocument;
  try {
    const safe = { allowOutsideResources: allowOutsideResources === true, ...(limits ? { limits } : {}) };
    if (typeof source === 'string') jsonDoc = (await readGltfFile(source, safe)) as unknown as JSONDocument;
    else if (source instanceof Uint8Array) jsonDoc = readGltfBytes(source, safe) as unknown as JSONDocument;
    else if (source != null && typeof source === 'object' && source.json != null && typeof source.json === 'object') jsonDoc = readGltfJsonDocument(source as never, safe) as unknown as JSONDocument;
    else throw new TypeError('source must be GLB bytes (Uint8Array), a file path, or {json, resources}');
  } catch (error) {
    throw new GltfReadError(`Could not read glTF: ${(error as Error).message}`, { cause: error });
  }
  const json = jsonDoc.json;
  let undeclared = false;
  if ((hasMsftLod(json.nodes) || hasMsftLod(json.materials)) && !(json.extensionsUsed ?? []).includes(MSFT_LOD)) {
    undeclared = true;
    jsonDoc = { json: { ...json, extensionsUsed: [...(json.extensionsUsed ?? []), MSFT_LOD] }, resources: jsonDoc.resources };
  }
  let document: Document;
  try {
    document = await reader.readJSON(jsonDoc);
  } catch (error) {
    throw new GltfReadError(`Could not read glTF: ${(error as Error).message}`, { cause: error });
  }
  checkFinitePositions(document);
  checkIndexRanges(document); // before anything hands the indices to meshoptimizer
  if (undeclared) {
    const extension = document.getRoot().listExtensionsUsed().find((e) => e.extensionName === MSFT_LOD) as MSFTLod | undefined;
    extension?.issues.unshift({
      owner: 'node', index: -1, name: '', code: 'not-declared',
      message: `${MSFT_LOD} is used but missing from extensionsUsed; read anyway (Babylon.js would ignore these LODs)`,
    });
  }
  return { document, messages: logger.messages };
}


