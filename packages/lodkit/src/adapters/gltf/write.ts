/**
 * Writing LOD groups into a glTF-Transform document as `MSFT_lod` + `MSFT_screencoverage`, in the
 * form Babylon.js's glTF loader accepts: `MSFT_lod` listed in `extensionsUsed` (not required, so
 * viewers without the extension still show level 0), `{"ids": [...]}` on the level-0 node, and the
 * coverage list in that node's `extras`.
 *
 * Contributor notes:
 * - Coverage is validated with the same rules as reading, so whatever lodkit writes, lodkit (and a
 *   strict reader) reads back.
 * - glTF-Transform writes only the extensions registered on the NodeIO doing the writing: a plain
 *   `new NodeIO().write(…)` drops every `MSFT_lod` (with one logger warning). {@link createLodIO}
 *   is the one-line way to get an IO that keeps them; the write tests prove the round trip.
 * - The coarser level nodes are not attached to any scene by {@link writeLodGroup}; callers that
 *   create new level nodes should leave them out of the scene too, otherwise viewers that ignore
 *   the extension draw every level at once.
 *
 * @module
 */
import { NodeIO, type Document, type Material, type Node } from '@gltf-transform/core';
import { areaToHeight, heightToArea, pixelsToHeight } from '../../metrics/conversions.js';
import type { LodThresholds } from '../../heuristics/lodThresholds.js';
import { MSFTLod, MSFT_LOD, MSFT_SCREENCOVERAGE, describeOwner, type Lod, type LodIssue } from './extension.js';
import { LODKIT_GEOMETRIC_ERROR, checkCoverage, extrasOf, type GltfLodGroup, type LodCoverage } from './read.js';

/** One group to write: level 0 and its coarser levels, with optional coverage and errors. @category glTF */
export interface LodGroupInput {
  /** Level 0: the node that carries `MSFT_lod`. */
  node: Node;
  /** The coarser levels, level 1 first. */
  levels: Node[];
  /** `MSFT_screencoverage` values: one per level (culled below the last) or one fewer (never culled). Null removes them. */
  coverage?: readonly number[] | null;
  /** Object-space geometric error per level (level 0 included), stored in `extras.LODKIT_geometricError`. */
  errors?: readonly number[] | null;
}

/**
 * A glTF-Transform `NodeIO` that reads and writes `MSFT_lod`: `io` (or a new NodeIO) with
 * {@link MSFTLod} registered. glTF-Transform writes only registered extensions, so writing a
 * document with LOD groups through a plain `new NodeIO()` silently loses them; use this instead.
 * @example
 * ```ts
 * writeLodGroup(document, { node: high, levels: [medium, low], coverage: [0.5, 0.2, 0.01] });
 * await createLodIO().write('trees.glb', document);          // MSFT_lod kept
 * await createLodIO(myConfiguredIO).writeBinary(document);   // your IO, MSFT_lod registered on it
 * ```
 * @category glTF
 */
export function createLodIO(io: NodeIO = new NodeIO()): NodeIO {
  return io.registerExtensions([MSFTLod]);
}

/**
 * Returns the document's {@link MSFTLod} extension, creating it when absent.
 * @example
 * ```ts
 * const lod = getOrCreateLodExtension(document).createLod();
 * ```
 * @category glTF
 */
export function getOrCreateLodExtension(document: Document): MSFTLod {
  const existing = document.getRoot().listExtensionsUsed().find((e) => e.extensionName === MSFT_LOD);
  return (existing as MSFTLod | undefined) ?? document.createExtension(MSFTLod);
}

/**
 * Puts one LOD group into the document: `MSFT_lod` on `node` with `levels` as its `ids`, and the
 * coverage (and recorded errors) in its `extras`. Throws `RangeError` naming the node when the
 * input is invalid. Returns the {@link Lod} property.
 * @example
 * ```ts
 * writeLodGroup(document, { node: high, levels: [medium, low], coverage: [0.5, 0.2, 0.01] });
 * await createLodIO().writeBinary(document); // a plain NodeIO would drop MSFT_lod
 * ```
 * @category glTF
 */
export function writeLodGroup(document: Document, input: LodGroupInput): Lod {
  const nodes = document.getRoot().listNodes();
  const index = nodes.indexOf(input.node);
  const name = input.node?.getName?.() ?? '';
  const who = describeOwner('node', index, name);
  if (index < 0) throw new RangeError(`writeLodGroup: node must belong to the document`);
  if (!Array.isArray(input.levels) || input.levels.length === 0) throw new RangeError(`writeLodGroup: ${who}: levels must list at least one coarser node`);
  const seen = new Set<Node>();
  for (let k = 0; k < input.levels.length; k++) {
    const level = input.levels[k];
    if (!nodes.includes(level)) throw new RangeError(`writeLodGroup: ${who}: levels[${k}] is not a node of the document`);
    if (level === input.node) throw new RangeError(`writeLodGroup: ${who}: levels[${k}] is the node itself`);
    if (seen.has(level)) throw new RangeError(`writeLodGroup: ${who}: levels[${k}] repeats an earlier level`);
    seen.add(level);
  }
  const levelCount = input.levels.length + 1;
  if (input.coverage != null) {
    const issues: LodIssue[] = [];
    checkCoverage(Array.from(input.coverage), levelCount, 'node', index, name, issues);
    if (issues.length > 0) throw new RangeError(`writeLodGroup: ${issues[0].message}`);
  }
  if (input.errors != null) {
    if (input.errors.length !== levelCount || input.errors.some((e) => !(e >= 0) || !Number.isFinite(e))) {
      throw new RangeError(`writeLodGroup: ${who}: errors must hold ${levelCount} finite numbers ≥ 0`);
    }
  }

  const lod = replaceLod(document, input.node, input.levels);

  const extras = { ...extrasOf(input.node) };
  if (input.coverage != null && input.coverage.length > 0) extras[MSFT_SCREENCOVERAGE] = Array.from(input.coverage);
  else delete extras[MSFT_SCREENCOVERAGE];
  if (input.errors != null) extras[LODKIT_GEOMETRIC_ERROR] = Array.from(input.errors);
  input.node.setExtras(extras);
  return lod;
}

/**
 * Puts a material LOD into the document: `MSFT_lod` on `material` with `levels` (coarser materials,
 * level 1 first) as its `ids`. Material LODs apply within whichever node level uses the material.
 * Throws `RangeError` naming the material when the input is invalid.
 * @example
 * ```ts
 * writeMaterialLod(document, { material: paint, levels: [paintLow] });
 * ```
 * @category glTF
 */
export function writeMaterialLod(document: Document, input: { material: Material; levels: Material[] }): Lod {
  const materials = document.getRoot().listMaterials();
  const index = materials.indexOf(input.material);
  if (index < 0) throw new RangeError('writeMaterialLod: material must belong to the document');
  const who = describeOwner('material', index, input.material.getName());
  if (!Array.isArray(input.levels) || input.levels.length === 0) throw new RangeError(`writeMaterialLod: ${who}: levels must list at least one coarser material`);
  const seen = new Set<Material>();
  input.levels.forEach((level, k) => {
    if (!materials.includes(level)) throw new RangeError(`writeMaterialLod: ${who}: levels[${k}] is not a material of the document`);
    if (level === input.material) throw new RangeError(`writeMaterialLod: ${who}: levels[${k}] is the material itself`);
    if (seen.has(level)) throw new RangeError(`writeMaterialLod: ${who}: levels[${k}] repeats an earlier level`);
    seen.add(level);
  });
  return replaceLod(document, input.material, input.levels);
}

/** Sets a fresh `MSFT_lod` with `levels` on `owner`, disposing the one it had. */
function replaceLod(document: Document, owner: Node | Material, levels: readonly (Node | Material)[]): Lod {
  const extension = getOrCreateLodExtension(document);
  const previous = owner.getExtension<Lod>(MSFT_LOD);
  if (previous) { owner.setExtension(MSFT_LOD, null); previous.dispose(); }
  const lod = extension.createLod();
  for (const level of levels) lod.addLevel(level);
  owner.setExtension(MSFT_LOD, lod);
  return lod;
}

/**
 * Writes groups read by `readLodGroups` back into their document (for example after editing their
 * coverage): the inverse of reading.
 * @example
 * ```ts
 * const { groups } = readLodGroups(document);
 * groups[0].coverage = [0.4, 0.1];
 * writeLodGroups(document, groups);
 * ```
 * @category glTF
 */
export function writeLodGroups(document: Document, groups: readonly GltfLodGroup[]): void {
  for (const group of groups) {
    const recorded = group.levels.every((l) => l.error !== undefined) ? group.levels.map((l) => l.error!) : null;
    writeLodGroup(document, {
      node: group.node,
      levels: group.levels.slice(1).map((l) => l.node),
      coverage: group.coverage,
      errors: recorded,
    });
  }
}

/** Options for {@link coverageFromThresholds}. @category glTF */
export interface CoverageFromThresholdsOptions {
  /** Meaning of the coverage values to produce. Default `'area'`. */
  as?: LodCoverage;
  /** Screen size (in the thresholds' metric) below which nothing is drawn; omit for never culled. */
  cullBelow?: number;
  /** Width ÷ height used to convert between height and area. Default 16/9. */
  aspect?: number;
  /** Viewport height in pixels, needed for `'pixels'` thresholds. */
  viewportHeight?: number;
}

/**
 * Converts lodkit thresholds (`'screenArea'`, `'screenHeight'` or `'pixels'`) to a coverage list.
 * Distance thresholds have no screen-size equivalent and throw `RangeError`.
 * @example
 * ```ts
 * coverageFromThresholds(new LodThresholds({ metric: 'screenHeight', thresholds: [0.5, 0.2] }), { as: 'height' });
 * // [0.5, 0.2]
 * ```
 * @category glTF
 */
export function coverageFromThresholds(thresholds: LodThresholds, options: CoverageFromThresholdsOptions = {}): number[] {
  const as = options.as ?? 'area';
  const aspect = options.aspect ?? 16 / 9;
  const values = Array.from(thresholds.thresholds);
  if (options.cullBelow !== undefined) values.push(options.cullBelow);
  const toHeight = (v: number): number => {
    switch (thresholds.metric) {
      case 'screenHeight': return v;
      case 'screenArea': return areaToHeight(v, aspect);
      case 'pixels': {
        if (options.viewportHeight === undefined) throw new RangeError('coverageFromThresholds: viewportHeight is required for pixel thresholds');
        return pixelsToHeight(v, options.viewportHeight);
      }
      default: throw new RangeError(`coverageFromThresholds: ${thresholds.metric} thresholds have no screen coverage equivalent`);
    }
  };
  return values.map((v) => {
    if (as === 'area' && thresholds.metric === 'screenArea') return v;
    const h = toHeight(v);
    return as === 'height' ? h : heightToArea(h, aspect);
  });
}
