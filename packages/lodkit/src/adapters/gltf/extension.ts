/**
 * The `MSFT_lod` glTF extension for glTF-Transform: a custom {@link Extension} that reads and writes
 * node and material level lists, and the JSON-level checks that can only be made on the file itself
 * (schema, index ranges).
 *
 * Contributor notes:
 * - The extension stores only the level list (`ids`) as a {@link Lod} property holding references to
 *   the coarser nodes or materials. The `MSFT_screencoverage` hints live in the parent's `extras`,
 *   exactly where the file keeps them; glTF-Transform round-trips `extras` by itself, so keeping them
 *   there means a document edited by other tools keeps its hints.
 * - `read()` never throws. A malformed `MSFT_lod` value (not an object, `ids` not a list of
 *   non-negative integers, an index past the end of `nodes`/`materials`) cannot be represented as
 *   references, so it is recorded in {@link MSFTLod.issues} and skipped; the policy (throw or warn)
 *   is applied by `readLodGroups`, which also checks what CAN be represented (self references,
 *   cycles, coverage). Throwing from `read()` would abort the whole file, including its other LODs.
 * - Checks are plain code (coverage.ts's `checkLodIds`, shared with the three.js plugin, so no
 *   schema library reaches browser bundles); every message names the node and the field, which is
 *   what an artist needs.
 *
 * @module
 */
import {
  Extension, ExtensionProperty, Material, Node, PropertyType, RefList,
  type IProperty, type Nullable, type ReaderContext, type WriterContext,
} from '@gltf-transform/core';

/** The extension's name as written in `extensionsUsed`. @category glTF */
export const MSFT_LOD = 'MSFT_lod';
/** The `extras` key holding the screen-coverage switching hints. @category glTF */
export { MSFT_SCREENCOVERAGE } from './coverage.js';
import { checkLodIds, type LodCheckCode } from './coverage.js';
import { LOD_GRAPH_LIMITS } from './lodGraph.js';

/** What an {@link LodIssue} is about. @category glTF */
export type LodIssueCode = LodCheckCode | 'not-declared';

/**
 * One problem found in a file's LOD data, naming the node or material by index and name.
 * @category glTF
 */
export interface LodIssue {
  /** `'node'` or `'material'`. */
  owner: 'node' | 'material';
  /** Index in the glTF `nodes` / `materials` array. */
  index: number;
  /** The node's or material's name ('' when unnamed). */
  name: string;
  code: LodIssueCode;
  /** A sentence naming the owner, e.g. `node 3 "Tree": MSFT_lod.ids[1] = 9 is out of range (4 nodes)`. */
  message: string;
}

/**
 * Describes an owner as `node 3 "Tree"` (or `node 3` when unnamed).
 * @example
 * ```ts
 * describeOwner('node', 3, 'Tree'); // 'node 3 "Tree"'
 * ```
 * @category glTF
 */
export function describeOwner(owner: 'node' | 'material', index: number, name: string): string {
  return name ? `${owner} ${index} "${name}"` : `${owner} ${index}`;
}

/** Builds an {@link LodIssue}. @internal */
export function makeIssue(owner: 'node' | 'material', index: number, name: string, code: LodIssueCode, detail: string): LodIssue {
  return { owner, index, name, code, message: `${describeOwner(owner, index, name)}: ${detail}` };
}

/** Detail of a `'too-many-ids'` issue; `field` is e.g. `nodes[12].extensions.MSFT_lod.ids`. @internal */
export function tooManyIds(field: string, count: number): string {
  return `${field} has ${count} ids; at most ${LOD_GRAPH_LIMITS.idsPerGroup} (LOD_GRAPH_LIMITS.idsPerGroup: levels are bytes in lodkit's engine)`;
}

/** Detail of a `'too-deep'` issue (levels that are themselves groups, nested `depth` deep). @internal */
export function tooDeep(field: string, depth: number): string {
  return `${field}: levels nest ${depth} deep (a level is itself an MSFT_lod group, whose level is another, …); at most ${LOD_GRAPH_LIMITS.depth} (LOD_GRAPH_LIMITS.depth)`;
}

/** Shape of a JSON `MSFT_lod` value, after validation. @category glTF */
export interface MsftLodJson {
  ids: number[];
}

/**
 * Validates the `MSFT_lod` values of one glTF array (`nodes` or `materials`) against the schema and
 * the array's length. Returns the valid level lists by owner index and the issues; never throws.
 * Lists over `LOD_GRAPH_LIMITS.idsPerGroup` ids are refused here. Self references, duplicates,
 * cycles and nesting depth are left to the model-level checks of `readLodGroups`.
 * @example
 * ```ts
 * const issues: LodIssue[] = [];
 * const valid = validateLodJsonArray(json.nodes, 'node', issues); // Map(node index → ids)
 * ```
 * @category glTF
 */
export function validateLodJsonArray(
  defs: readonly unknown[] | undefined,
  owner: 'node' | 'material',
  issues: LodIssue[],
): Map<number, number[]> {
  const valid = new Map<number, number[]>();
  if (!Array.isArray(defs)) return valid;
  const count = defs.length;
  for (let index = 0; index < count; index++) {
    const def = defs[index] as { name?: unknown; extensions?: unknown } | null;
    if (def == null || typeof def !== 'object') continue;
    const extensions = def.extensions as Record<string, unknown> | undefined;
    if (extensions == null || typeof extensions !== 'object' || !(MSFT_LOD in extensions)) continue;
    const name = typeof def.name === 'string' ? def.name : '';
    const parsed = checkLodIds(extensions[MSFT_LOD]);
    if ('problem' in parsed) {
      issues.push(makeIssue(owner, index, name, 'schema', parsed.problem));
      continue;
    }
    const ids = parsed.ids;
    // Before anything is built from the list: a group is at most 255 levels (see lodGraph.ts).
    if (ids.length > LOD_GRAPH_LIMITS.idsPerGroup) {
      issues.push(makeIssue(owner, index, name, 'too-many-ids', tooManyIds(`${owner}s[${index}].extensions.MSFT_lod.ids`, ids.length)));
      continue;
    }
    let ok = true;
    for (let k = 0; k < ids.length; k++) {
      if (ids[k] >= count) {
        issues.push(makeIssue(owner, index, name, 'id-out-of-range',
          `MSFT_lod.ids[${k}] = ${ids[k]} is out of range (the file has ${count} ${owner}s)`));
        ok = false;
        break;
      }
    }
    if (ok) valid.set(index, ids.slice());
  }
  return valid;
}

interface ILod extends IProperty {
  levels: RefList<Node | Material>;
}

/**
 * The `MSFT_lod` value of one node or material: the coarser levels, in order (level 1 first). The
 * parent itself is level 0.
 *
 * @example
 * ```ts
 * const lodExtension = document.createExtension(MSFTLod);
 * const lod = lodExtension.createLod().addLevel(mediumNode).addLevel(lowNode);
 * highNode.setExtension('MSFT_lod', lod);
 * ```
 * @category glTF
 */
export class Lod extends ExtensionProperty<ILod> {
  static override EXTENSION_NAME = MSFT_LOD;
  declare public extensionName: typeof MSFT_LOD;
  declare public propertyType: 'Lod';
  declare public parentTypes: [PropertyType.NODE, PropertyType.MATERIAL];

  protected init(): void {
    this.extensionName = MSFT_LOD;
    this.propertyType = 'Lod';
    this.parentTypes = [PropertyType.NODE, PropertyType.MATERIAL];
  }

  protected override getDefaults(): Nullable<ILod> {
    return Object.assign(super.getDefaults() as IProperty, { levels: new RefList<Node | Material>() });
  }

  /** Appends a coarser level (a {@link Node} for node LODs, a {@link Material} for material LODs). */
  addLevel(level: Node | Material): this {
    return this.addRef('levels', level);
  }

  /** Removes a level. */
  removeLevel(level: Node | Material): this {
    return this.removeRef('levels', level);
  }

  /** The coarser levels in order, level 1 first. */
  listLevels(): (Node | Material)[] {
    return this.listRefs('levels');
  }
}

/**
 * glTF-Transform extension for `MSFT_lod` (node and material levels of detail). Register it with an
 * I/O class so the extension survives a read/write round trip.
 *
 * Problems that cannot be represented in the document (schema errors, out-of-range indices) are
 * collected in {@link MSFTLod.issues} while reading; the affected `MSFT_lod` values are skipped.
 *
 * @example
 * ```ts
 * import { NodeIO } from '@gltf-transform/core';
 * import { MSFTLod } from 'lodkit/gltf';
 * const io = new NodeIO().registerExtensions([MSFTLod]);
 * const document = await io.read('trees.glb');
 * ```
 * @category glTF
 */
export class MSFTLod extends Extension {
  static override EXTENSION_NAME = MSFT_LOD;
  public override readonly extensionName = MSFT_LOD;
  /** Problems found by the last `read()`; empty for documents built in memory. */
  issues: LodIssue[] = [];

  /** Creates a {@link Lod} property; attach it with `node.setExtension('MSFT_lod', lod)`. */
  createLod(name = ''): Lod {
    return new Lod(this.document.getGraph(), name);
  }

  /** @hidden */
  read(context: ReaderContext): this {
    const json = context.jsonDoc.json;
    this.issues = [];
    const nodeLods = validateLodJsonArray(json.nodes, 'node', this.issues);
    for (const [index, ids] of nodeLods) {
      const lod = this.createLod();
      for (const id of ids) lod.addLevel(context.nodes[id]);
      context.nodes[index].setExtension(MSFT_LOD, lod);
    }
    const materialLods = validateLodJsonArray(json.materials, 'material', this.issues);
    for (const [index, ids] of materialLods) {
      const lod = this.createLod();
      for (const id of ids) lod.addLevel(context.materials[id]);
      context.materials[index].setExtension(MSFT_LOD, lod);
    }
    return this;
  }

  /** @hidden */
  write(context: WriterContext): this {
    const json = context.jsonDoc.json;
    const root = this.document.getRoot();
    writeIds(root.listNodes(), context.nodeIndexMap, json.nodes);
    writeIds(root.listMaterials(), context.materialIndexMap, json.materials);
    return this;
  }
}

/** Writes each owner's `MSFT_lod` as `{ ids }` into its JSON definition (`defs[index]`); owners without written levels get none. */
function writeIds<T extends Node | Material>(
  owners: T[], map: Map<T, number>, defs: { extensions?: Record<string, unknown> }[] | undefined,
): void {
  for (const owner of owners) {
    const lod = owner.getExtension<Lod>(MSFT_LOD);
    const index = map.get(owner);
    if (!lod || index === undefined) continue;
    const ids = indicesOf(lod, map);
    if (ids.length === 0) continue;
    const def = defs![index];
    def.extensions = def.extensions ?? {};
    def.extensions[MSFT_LOD] = { ids };
  }
}

function indicesOf<T extends Node | Material>(lod: Lod, map: Map<T, number>): number[] {
  const ids: number[] = [];
  for (const level of lod.listLevels()) {
    const id = map.get(level as T);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}
