/**
 * Reading LOD groups from a glTF document: every node with `MSFT_lod` becomes a group whose level 0
 * is the node itself and whose coarser levels are its `ids`, with the `MSFT_screencoverage` hints
 * turned into lodkit {@link LodThresholds}.
 *
 * Contributor notes:
 * - Coverage is an AREA fraction by default. The MSFT_lod spec only says "screen coverage"; the one
 *   engine that implemented switching on it, Babylon.js, documents it as the ratio between the screen
 *   surface the mesh occupies and the total screen surface, and Windows Mixed Reality's guidance uses
 *   the same wording. `coverage: 'height'` reads the values as fractions of the screen height instead
 *   (what glTF exporters that think in "percent of screen" often mean).
 * - Three coverage layouts are accepted for n levels: n values (level i drawn from value[i−1], 1.0 for
 *   level 0, down to value[i]; nothing below the last), n − 1 values (the last level is never culled),
 *   or none / an empty list (the caller supplies thresholds). Any other count is an error: guessing
 *   which value is missing would silently move every switch.
 * - Coverage must be non-increasing (ties allowed, as in lodkit's threshold validation: a tied level
 *   is simply never drawn) and within [0, 1].
 * - In lenient mode a bad `MSFT_lod` is detached from its node or material (with its coverage and
 *   recorded errors), so writing the document afterwards produces a valid file; the reason is
 *   returned as a warning, never printed.
 * - glTF-Transform's own warnings (unknown extensions and the like) are collected through a logger
 *   and returned with ours, so a library call never writes to the console.
 * - Cycles and nesting depth come from one `LodGraph` per array (lodGraph.ts, linear in owners +
 *   ids; a search per owner was ≈ cubic on a 4,000-node chain: 44 s). Ceilings
 *   (`LOD_GRAPH_LIMITS`): 254 ids per group (`'too-many-ids'`, also refused in the JSON by
 *   extension.ts) and levels nested 1024 deep (`'too-deep'`), both naming
 *   `nodes[i].extensions.MSFT_lod.ids`. A long cycle's path is shortened; a `GltfLodError` message
 *   lists {@link ISSUES_LISTED} problems (all are in `issues`).
 *
 * @module
 */
import { Material, Node, type Document } from '@gltf-transform/core';
import { LodThresholds } from '../../heuristics/lodThresholds.js';
import {
  MSFTLod, MSFT_LOD, MSFT_SCREENCOVERAGE, makeIssue, tooDeep, tooManyIds, type Lod, type LodIssue,
} from './extension.js';
import { LOD_GRAPH_LIMITS, LodGraph } from './lodGraph.js';
import { checkCoverageList, type CoverageLayout } from './coverage.js';
import { memo, subtreeTriangles } from './subtrees.js';

export { GltfReadError } from './source.js';

/** The `extras` key where lodkit records each level's object-space geometric error. @category glTF */
export const LODKIT_GEOMETRIC_ERROR = 'LODKIT_geometricError';

/** How `MSFT_screencoverage` values are read: fraction of the screen AREA (default) or HEIGHT. @category glTF */
export type LodCoverage = 'area' | 'height';

/** Options for {@link readLodGroups}. @category glTF */
export interface ReadLodOptions {
  /** Drop bad `MSFT_lod` values with a warning instead of throwing. Default false. */
  lenient?: boolean;
  /** Meaning of the coverage values. Default `'area'` (see the module notes). */
  coverage?: LodCoverage;
}

/** Defaults of {@link ReadLodOptions}. @category glTF */
export const READ_LOD_DEFAULTS: Required<ReadLodOptions> = { lenient: false, coverage: 'area' };

/** One level of a group: a node (and its subtree). @category glTF */
export interface GltfLodLevel {
  node: Node;
  /** Index in the glTF `nodes` array (the order of `root.listNodes()`). */
  index: number;
  name: string;
  /** Triangles drawn by the node and its descendants. */
  triangles: number;
  /** Object-space geometric error recorded by lodkit (`extras.LODKIT_geometricError`), if any. */
  error?: number;
  /** Material LODs used by this level's meshes (material LODs apply within their node level). */
  materialLods: GltfMaterialLod[];
}

/** A material with `MSFT_lod`: the material is level 0, its `ids` the coarser materials. @category glTF */
export interface GltfMaterialLod {
  material: Material;
  index: number;
  name: string;
  levels: { material: Material; index: number; name: string }[];
  /** `extras.MSFT_screencoverage` of the material, if present and valid. */
  coverage: number[] | null;
}

/** An LOD group read from a node with `MSFT_lod`. @category glTF */
export interface GltfLodGroup {
  /** The node carrying `MSFT_lod` (level 0). */
  node: Node;
  index: number;
  name: string;
  /** Level 0 first. */
  levels: GltfLodLevel[];
  /** The `MSFT_screencoverage` values as written in the file, or null. */
  coverage: number[] | null;
  layout: CoverageLayout;
  /**
   * Switching thresholds over `levels.length` levels (metric `'screenArea'` or `'screenHeight'`),
   * or null when the file has no coverage.
   */
  thresholds: LodThresholds | null;
  /** Screen size below which nothing is drawn; 0 when never culled or without coverage. */
  cullBelow: number;
}

/** Result of {@link readLodGroups}. @category glTF */
export interface LodReadResult {
  groups: GltfLodGroup[];
  /** Every material with a valid `MSFT_lod`, whether or not a node group uses it. */
  materialLods: GltfMaterialLod[];
  /** Problems that were tolerated (lenient mode), plus notices such as an undeclared extension. */
  warnings: LodIssue[];
}

/** Problems a {@link GltfLodError} message lists; the rest are counted. @category glTF */
export const ISSUES_LISTED = 20;

/**
 * Thrown by strict reading when a file's LOD data is invalid; lists every problem found.
 * @example
 * ```ts
 * try { readLodGroups(document); } catch (e) { if (e instanceof GltfLodError) console.log(e.issues); }
 * ```
 * @category glTF
 */
export class GltfLodError extends Error {
  readonly issues: LodIssue[];
  constructor(issues: LodIssue[]) {
    // At most ISSUES_LISTED lines: a 4,000-node cycle has 4,000 problems, and all of them stay in `issues`.
    const listed = issues.slice(0, ISSUES_LISTED).map((i) => `  - ${i.message}`);
    if (issues.length > ISSUES_LISTED) listed.push(`  … and ${issues.length - ISSUES_LISTED} more (GltfLodError.issues lists every one)`);
    super(issues.length === 1
      ? `Invalid MSFT_lod data: ${issues[0].message}`
      : `Invalid MSFT_lod data (${issues.length} problems):\n${listed.join('\n')}`);
    this.name = 'GltfLodError';
    this.issues = issues;
  }
}

/**
 * Converts a coverage list for `levelCount` levels to lodkit thresholds. Returns the thresholds
 * over the levels (the first `levelCount − 1` values) and the size below which nothing is drawn
 * (the `levelCount`-th value, or 0). The coverage must already be valid.
 * @example
 * ```ts
 * coverageToThresholds([0.5, 0.2, 0.01], 3, 'area');
 * // { thresholds: LodThresholds{metric: 'screenArea', thresholds: [0.5, 0.2]}, cullBelow: 0.01 }
 * ```
 * @category glTF
 */
export function coverageToThresholds(coverage: readonly number[], levelCount: number, as: LodCoverage = 'area'): { thresholds: LodThresholds; cullBelow: number } {
  const thresholds = new LodThresholds({
    metric: as === 'height' ? 'screenHeight' : 'screenArea',
    thresholds: coverage.slice(0, levelCount - 1),
  });
  return { thresholds, cullBelow: coverage.length >= levelCount ? coverage[levelCount - 1] : 0 };
}

/**
 * Checks a coverage value against the level count; pushes issues (naming the owner) and returns
 * the values and layout, or null when invalid.
 * @internal
 */
export function checkCoverage(
  raw: unknown, levelCount: number, owner: 'node' | 'material', index: number, name: string, issues: LodIssue[],
): { coverage: number[] | null; layout: CoverageLayout } | null {
  const checked = checkCoverageList(raw, levelCount);
  if ('code' in checked) {
    issues.push(makeIssue(owner, index, name, checked.code, checked.detail));
    return null;
  }
  return checked;
}

/**
 * The owners (nodes or materials, in order) carrying `MSFT_lod` whose levels and then coverage (in
 * `extras`) check, with them; the others go to `bad`, their issues to `issues`.
 */
function checkGroups<T extends Node | Material>(owners: T[], kind: 'node' | 'material', indexOf: Map<T, number>, graph: LodGraph,
  issues: LodIssue[], bad: T[]): { owner: T; index: number; name: string; levels: T[]; cov: NonNullable<ReturnType<typeof checkCoverage>> }[] {
  const groups = [];
  for (let index = 0; index < owners.length; index++) {
    const owner = owners[index];
    const lod = owner.getExtension<Lod>(MSFT_LOD);
    if (!lod) continue;
    const name = owner.getName();
    const levels = checkLevels(owner, kind, index, name, lod, indexOf, graph, issues);
    const cov = levels ? checkCoverage(extrasOf(owner)[MSFT_SCREENCOVERAGE], levels.length + 1, kind, index, name, issues) : null;
    if (levels && cov) groups.push({ owner, index, name, levels, cov });
    else bad.push(owner);
  }
  return groups;
}

/**
 * Model-level checks of one owner's `Lod`: level types, self references, duplicates, the ids
 * ceiling, cycles and nesting depth (the last two from `graph`, built once for all owners).
 */
function checkLevels<T extends Node | Material>(
  owner: T, kind: 'node' | 'material', index: number, name: string, lod: Lod,
  indexOf: Map<T, number>, graph: LodGraph, issues: LodIssue[],
): T[] | null {
  const levels = lod.listLevels();
  const expected = kind === 'node' ? Node : Material;
  const field = `${kind}s[${index}].extensions.MSFT_lod.ids`;
  if (levels.length > LOD_GRAPH_LIMITS.idsPerGroup) {
    issues.push(makeIssue(kind, index, name, 'too-many-ids', tooManyIds(field, levels.length)));
    return null;
  }
  const seen = new Set<T>();
  for (let k = 0; k < levels.length; k++) {
    const level = levels[k];
    if (!(level instanceof expected)) {
      issues.push(makeIssue(kind, index, name, 'schema', `MSFT_lod level ${k + 1} is a ${level.propertyType}, expected a ${kind}`));
      return null;
    }
    if (level === owner) {
      issues.push(makeIssue(kind, index, name, 'self-reference', `MSFT_lod.ids[${k}] refers to the ${kind} itself`));
      return null;
    }
    if (seen.has(level as T)) {
      issues.push(makeIssue(kind, index, name, 'duplicate-id', `MSFT_lod.ids[${k}] = ${indexOf.get(level as T)} repeats an earlier level`));
      return null;
    }
    seen.add(level as T);
  }
  if (levels.length === 0) {
    issues.push(makeIssue(kind, index, name, 'schema', 'MSFT_lod has no levels (ids must list at least one)'));
    return null;
  }
  // Cycle: following MSFT_lod edges from the levels leads back to the owner.
  if (graph.onCycle(index)) {
    issues.push(makeIssue(kind, index, name, 'cycle', `MSFT_lod forms a cycle: ${graph.describeCycle(index)}`));
    return null;
  }
  if (graph.depth[index] > LOD_GRAPH_LIMITS.depth) {
    issues.push(makeIssue(kind, index, name, 'too-deep', tooDeep(field, graph.depth[index])));
    return null;
  }
  return levels as T[];
}

/** The graph of one owner array's `MSFT_lod` edges (every owner's, valid or not, as the old search followed them). */
function lodGraphOf<T extends Node | Material>(owners: T[], indexOf: Map<T, number>): LodGraph {
  return new LodGraph(owners.length, (i) => {
    const lod = owners[i].getExtension<Lod>(MSFT_LOD);
    if (!lod) return null;
    const ids: number[] = [];
    for (const level of lod.listLevels()) {
      const id = indexOf.get(level as T);
      if (id !== undefined) ids.push(id);
    }
    return ids;
  });
}

/** A property's extras as an object: files may hold `null`, numbers or lists there. @internal */
export function extrasOf(property: Node | Material): Record<string, unknown> {
  const extras = property.getExtras() as unknown;
  return extras != null && typeof extras === 'object' && !Array.isArray(extras) ? extras as Record<string, unknown> : {};
}

function dropLod(owner: Node | Material): void {
  const lod = owner.getExtension<Lod>(MSFT_LOD);
  if (lod) {
    owner.setExtension(MSFT_LOD, null);
    lod.dispose();
  }
  // The group is gone, so its hints are meaningless: remove them too, keeping other extras.
  const extras = extrasOf(owner);
  if (MSFT_SCREENCOVERAGE in extras || LODKIT_GEOMETRIC_ERROR in extras) {
    const rest = { ...extras };
    delete rest[MSFT_SCREENCOVERAGE];
    delete rest[LODKIT_GEOMETRIC_ERROR];
    owner.setExtras(rest);
  }
}

/**
 * Reads every LOD group of a document (read with {@link MSFTLod} registered, or built in memory).
 * Strict mode throws {@link GltfLodError} listing every problem; lenient mode detaches each bad
 * `MSFT_lod` and returns the problems as warnings.
 *
 * @example
 * ```ts
 * const { document } = await readGltfDocument(bytes);
 * const { groups } = readLodGroups(document);
 * groups[0].thresholds?.computeLod(0.3); // level for a bounding sphere covering 30 % of the screen
 * ```
 * @category glTF
 */
export function readLodGroups(document: Document, options: ReadLodOptions = {}): LodReadResult {
  const { lenient, coverage: as } = { ...READ_LOD_DEFAULTS, ...options };
  if (as !== 'area' && as !== 'height') throw new RangeError(`readLodGroups: coverage must be 'area' or 'height', got ${String(as)}`);
  const root = document.getRoot();
  const extension = root.listExtensionsUsed().find((e) => e.extensionName === MSFT_LOD) as MSFTLod | undefined;
  const fileIssues = extension && Array.isArray(extension.issues) ? extension.issues.slice() : [];
  const notices = fileIssues.filter((i) => i.code === 'not-declared');
  const errors = fileIssues.filter((i) => i.code !== 'not-declared');

  const nodes = root.listNodes();
  const materials = root.listMaterials();
  const nodeIndex = new Map<Node, number>(nodes.map((n, i) => [n, i]));
  const materialIndex = new Map<Material, number>(materials.map((m, i) => [m, i]));

  // One linear pass per array for cycles and nesting (was a search per owner, ≈ cubic on chains).
  const materialGraph = lodGraphOf(materials, materialIndex);
  const nodeGraph = lodGraphOf(nodes, nodeIndex);
  // Triangles of every subtree in one pass from the leaves up (a traversal per level was
  // quadratic in a deep hierarchy of groups: 4,000 nested groups took 12 s); material LODs per
  // level node once (a level shared by many groups, as in a DAG of groups, is searched once).
  const triangles = subtreeTriangles(nodes, nodeIndex);
  const usedLods = new Map<Node, GltfMaterialLod[]>();

  // Materials first: node levels refer to them.
  const materialLods = new Map<Material, GltfMaterialLod>();
  const badMaterials: Material[] = [];
  for (const { owner: material, index: i, name, levels, cov } of checkGroups(materials, 'material', materialIndex, materialGraph, errors, badMaterials)) {
    materialLods.set(material, {
      material, index: i, name,
      levels: levels.map((m) => ({ material: m, index: materialIndex.get(m)!, name: m.getName() })),
      coverage: cov.coverage,
    });
  }

  const groups: GltfLodGroup[] = [];
  const badNodes: Node[] = [];
  for (const { owner: node, index: i, name, levels, cov } of checkGroups(nodes, 'node', nodeIndex, nodeGraph, errors, badNodes)) {
    const levelCount = levels.length + 1;
    const recordedErrors = readRecordedErrors(node, levelCount, i, name, notices);
    const levelNodes = [node, ...levels];
    const converted = cov.coverage ? coverageToThresholds(cov.coverage, levelCount, as) : null;
    groups.push({
      node, index: i, name,
      levels: levelNodes.map((n, k) => ({
        node: n, index: nodeIndex.get(n)!, name: n.getName(), triangles: triangles[nodeIndex.get(n)!],
        ...(recordedErrors ? { error: recordedErrors[k] } : {}),
        materialLods: materialLods.size === 0 ? [] : memo(usedLods, n, (m) => usedMaterialLods(m, materialLods)).slice(),
      })),
      coverage: cov.coverage, layout: cov.layout,
      thresholds: converted ? converted.thresholds : null,
      cullBelow: converted ? converted.cullBelow : 0,
    });
  }

  graphWork = materialGraph.work + nodeGraph.work; // (after the cycle descriptions, which count too)
  if (errors.length > 0 && !lenient) throw new GltfLodError(errors);
  for (const m of badMaterials) dropLod(m);
  for (const n of badNodes) dropLod(n);
  // Owners whose MSFT_lod was already skipped while reading the file (schema, index range).
  for (const issue of fileIssues) {
    const owner = issue.owner === 'node' ? nodes[issue.index] : materials[issue.index];
    if (issue.code !== 'not-declared' && owner) dropLod(owner);
  }
  if (extension) extension.issues = [];
  return { groups, materialLods: [...materialLods.values()], warnings: [...notices, ...errors] };
}

let graphWork = 0;
/**
 * Steps taken by the last {@link readLodGroups}'s graph checks (owners and `MSFT_lod` edges
 * visited, both arrays). @internal Test seam: proves the checks linear by counting, not timing.
 */
export function lastLodGraphWork(): number {
  return graphWork;
}

function readRecordedErrors(node: Node, levelCount: number, index: number, name: string, notices: LodIssue[]): number[] | null {
  const raw = extrasOf(node)[LODKIT_GEOMETRIC_ERROR];
  if (raw === undefined) return null;
  if (!Array.isArray(raw) || raw.length !== levelCount || raw.some((v) => typeof v !== 'number' || !(v >= 0))) {
    notices.push(makeIssue('node', index, name, 'schema',
      `extras.${LODKIT_GEOMETRIC_ERROR} ignored: expected ${levelCount} non-negative numbers`));
    return null;
  }
  return raw.slice() as number[];
}

function usedMaterialLods(node: Node, materialLods: Map<Material, GltfMaterialLod>): GltfMaterialLod[] {
  const used: GltfMaterialLod[] = [];
  node.traverse((n) => {
    const mesh = n.getMesh();
    if (!mesh) return;
    for (const primitive of mesh.listPrimitives()) {
      const m = primitive.getMaterial();
      const entry = m ? materialLods.get(m) : undefined;
      if (entry && !used.includes(entry)) used.push(entry);
    }
  });
  return used;
}
