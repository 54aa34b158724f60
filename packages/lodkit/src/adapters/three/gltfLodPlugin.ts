/**
 * `MSFTLodLoaderPlugin`: a three.js `GLTFLoader` plugin that turns every node carrying the
 * `MSFT_lod` extension into a {@link ScreenSizeLOD} whose thresholds come from the node's
 * `extras.MSFT_screencoverage` switching hints.
 *
 * Contributor notes:
 * - Approach: `afterRoot`. three's loader has already built the scene with level 0 (the node
 *   itself) in place and the coarser level nodes unloaded (they are not part of any scene in a
 *   well-formed file). The plugin loads them with `parser.getDependency('node', id)` (which reuses
 *   the loader's caches, so shared meshes and accessors are parsed once) and swaps level 0 for a
 *   `ScreenSizeLOD` at the same index in its parent. Overriding `loadNode` was considered and
 *   dropped: it would have to re-implement the loader's node construction (skins, cameras, lights,
 *   instancing, mesh clones) to wrap it.
 * - The coverage rules are `lodkit/gltf`'s (src/adapters/gltf/coverage.ts, shared, glTF-Transform-free): for n
 *   levels, n values (level i drawn from value[i−1], 1.0 for level 0, down to value[i], nothing
 *   below the last), n − 1 values (never culled) or none, checked on the raw JSON (the reader
 *   itself is built on glTF-Transform, which a three.js app should not have to load). Coverage is an area fraction by default (metric `'screenArea'`), for the reason given in
 *   read.ts (Babylon.js's definition); `coverage: 'height'` gives `'screenHeight'`.
 * - "Nothing below the last value": `ScreenSizeLOD` draws its coarsest level at every size, so the
 *   culled layout gets one extra, empty `Object3D` level (marked `userData.lodkitEmptyLevel`).
 * - Invalid data never fails the load: the node stays as three.js loaded it and a warning is
 *   recorded (the loader's own promise chain would turn a throw into a failed load of the whole
 *   file, including the LODs that were fine).
 * - Level transforms: a level node's transform is, like level 0's, relative to level 0's parent
 *   (the level replaces the node). The LOD takes level 0's transform, so level 0 becomes identity
 *   and level i gets M0⁻¹·Mi (exactly identity when Mi = M0, the usual case).
 * - Bounding spheres: GLTFLoader gives each geometry the sphere around its accessor min/max box
 *   (radius = half the box diagonal, √3 × too large for an octahedron). `ScreenSizeLOD` measures
 *   that sphere, so by default (`exactSpheres`) the level geometries get three's own tight
 *   `computeBoundingSphere()` (box centre, farthest vertex), the sphere `lodkit gltf lod` assumed
 *   when it turned pixel error into coverage. It costs one pass over each level's vertices at load.
 * - Cost: the checks are linear in nodes + ids (`../gltf/lodGraph.ts`, shared with the reader:
 *   cycles, nesting depth, and ancestors through pre/post-order numbers instead of a walk up the
 *   parents per id; a 4,000-node `MSFT_lod` chain blocked a page for 22 s before), then one
 *   traversal of the scenes to find the level-0 objects; nothing per frame.
 *   {@link MSFTLodLoaderPlugin.graphWork} counts the checks' steps for the tests.
 * - Ceilings (`LOD_GRAPH_LIMITS` of `lodkit/gltf`): more than 254 ids in one group, or levels
 *   nested more than 1024 deep, leave the node as loaded with a warning naming
 *   `nodes[i].extensions.MSFT_lod.ids`, as the reader refuses them.
 *
 * @module
 */
import { BufferGeometry, Matrix4, Object3D } from 'three';
import type { GLTF, GLTFLoaderPlugin, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { checkCoverageList, checkLodIds, MSFT_SCREENCOVERAGE, type CoverageLayout, type LodCheckCode } from '../gltf/coverage.js';
import { LOD_GRAPH_LIMITS, LodGraph, NodeForest } from '../gltf/lodGraph.js';
import { ScreenSizeLOD, type ScreenSizeLODOptions } from './screenSizeLOD.js';

/** The glTF extension name this plugin handles. @category three.js */
export const MSFT_LOD_EXTENSION = 'MSFT_lod';
/** The `extras` key holding the screen-coverage hints. @category three.js */
export const MSFT_SCREENCOVERAGE_KEY = MSFT_SCREENCOVERAGE;

/** What an {@link MSFTLodWarning} is about. @category three.js */
export type MSFTLodWarningCode = LodCheckCode | 'hierarchy' | 'default-count' | 'load-failed';

/** One problem met while applying `MSFT_lod`, naming the node by index and name. @category three.js */
export interface MSFTLodWarning {
  /** Index in the glTF `nodes` array. */
  nodeIndex: number;
  /** The node's glTF name ('' when unnamed). */
  name: string;
  code: MSFTLodWarningCode;
  /** A sentence naming the node, e.g. `node 3 "Tree": MSFT_lod.ids[1] = 9 is out of range (4 nodes)`. */
  message: string;
}

/** How a group's coverage was laid out in the file. @category three.js */
export type MSFTLodLayout = CoverageLayout;

/** One `ScreenSizeLOD` built by the plugin. @category three.js */
export interface MSFTLodGroup {
  nodeIndex: number;
  lod: ScreenSizeLOD;
  layout: MSFTLodLayout;
  /** The level objects from the file, level 0 first (without the empty culling level). */
  levels: Object3D[];
}

/** Options of {@link MSFTLodLoaderPlugin}. @category three.js */
export interface MSFTLodLoaderPluginOptions {
  /** Meaning of the coverage values: screen area fraction (`'screenArea'`) or height fraction (`'screenHeight'`). Default `'area'`. */
  coverage?: 'area' | 'height';
  /**
   * Thresholds for nodes without coverage, in the `coverage` measure and with the same layout rules
   * (n values: culled below the last; n − 1: never culled). Null: the built-in default, see
   * {@link defaultCoverageThresholds}.
   */
  defaultThresholds?: readonly number[] | null;
  /** Also print each warning with `console.warn`. Default false (warnings are only collected). */
  warn?: boolean;
  /** Options passed to every `ScreenSizeLOD` built (its `metric` comes from `coverage`). */
  lod?: Omit<ScreenSizeLODOptions, 'metric'>;
  /**
   * Recompute the bounding spheres of the level geometries (box centre, radius to the farthest
   * vertex) instead of keeping GLTFLoader's, whose radius is half the diagonal of the POSITION
   * accessor's min/max box (up to √3 times larger). Default true: thresholds generated by
   * `lodkit gltf lod` assume the tight sphere.
   */
  exactSpheres?: boolean;
}

/** Defaults of {@link MSFTLodLoaderPluginOptions}. @category three.js */
export const MSFT_LOD_LOADER_PLUGIN_DEFAULTS = {
  coverage: 'area' as 'area' | 'height',
  defaultThresholds: null as readonly number[] | null,
  warn: false,
  lod: {} as Omit<ScreenSizeLODOptions, 'metric'>,
  exactSpheres: true,
};

/**
 * The built-in thresholds for a node without coverage and `levelCount` levels, never culled:
 * each coarser level takes over when the object looks half as tall, i.e. height fractions
 * 0.5, 0.25, 0.125, … and area fractions 0.25, 0.0625, … (area goes with the square of height).
 * @example
 * ```ts
 * defaultCoverageThresholds(3, 'area'); // [0.25, 0.0625]
 * ```
 * @category three.js
 */
export function defaultCoverageThresholds(levelCount: number, coverage: 'area' | 'height'): number[] {
  const out: number[] = [];
  const step = coverage === 'height' ? 0.5 : 0.25;
  let t = 1;
  for (let i = 0; i < levelCount - 1; i++) { t *= step; out.push(t); }
  return out;
}

interface NodeJson {
  name?: unknown;
  children?: unknown;
  extensions?: Record<string, unknown>;
  extras?: unknown;
}

interface CheckedGroup {
  nodeIndex: number;
  name: string;
  ids: number[];
  coverage: number[] | null;
  layout: MSFTLodLayout;
}

function describeNode(index: number, name: string): string {
  return name ? `node ${index} "${name}"` : `node ${index}`;
}

/** A node's schema-valid ids within the ceiling, or null: the edges the cycle and depth checks follow. */
function idsOf(def: NodeJson | undefined): number[] | null {
  const ext = def?.extensions?.[MSFT_LOD_EXTENSION];
  if (ext === undefined) return null;
  const parsed = checkLodIds(ext);
  return 'ids' in parsed && parsed.ids.length <= LOD_GRAPH_LIMITS.idsPerGroup ? parsed.ids : null;
}

/** Recomputes the bounding sphere of every mesh geometry under `root` (once per geometry). */
/**
 * 1 for every node reachable from some scene's `nodes` through `children` (an iterative walk, each
 * node visited once: cycles and shared children in a hostile file cannot make it loop).
 */
function nodesInScenes(json: { scenes?: unknown }, nodes: readonly (NodeJson | undefined)[]): Uint8Array {
  const drawn = new Uint8Array(nodes.length);
  const stack: number[] = [];
  const push = (i: unknown): void => {
    if (typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < nodes.length && drawn[i] === 0) { drawn[i] = 1; stack.push(i); }
  };
  for (const scene of Array.isArray(json.scenes) ? json.scenes as unknown[] : []) {
    const roots = scene !== null && typeof scene === 'object' ? (scene as { nodes?: unknown }).nodes : undefined;
    if (Array.isArray(roots)) for (const r of roots) push(r);
  }
  while (stack.length > 0) {
    const children = nodes[stack.pop()!]?.children;
    if (Array.isArray(children)) for (const c of children) push(c);
  }
  return drawn;
}

function tightenSpheres(root: Object3D, done: Set<BufferGeometry>): void {
  root.traverse((object) => {
    const geometry = (object as Object3D & { geometry?: unknown }).geometry;
    if (geometry instanceof BufferGeometry && !done.has(geometry) && geometry.getAttribute('position') !== undefined) {
      geometry.computeBoundingSphere();
      done.add(geometry);
    }
  });
}

/**
 * A three.js `GLTFLoader` plugin for `MSFT_lod`: each node with the extension becomes a
 * {@link ScreenSizeLOD} (level 0 = the node, then its `ids` in order) with thresholds from
 * `extras.MSFT_screencoverage`. Invalid extension data is reported in {@link MSFTLodLoaderPlugin.warnings}
 * and leaves the node as three.js loaded it. Material `MSFT_lod` is not applied (level 0 materials are used).
 *
 * @example
 * ```ts
 * import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
 * import { MSFTLodLoaderPlugin } from 'lodkit/three';
 * const loader = new GLTFLoader();
 * loader.register((parser) => new MSFTLodLoaderPlugin(parser, { coverage: 'area', warn: true }));
 * const gltf = await loader.loadAsync('trees.glb');
 * scene.add(gltf.scene); // MSFT_lod nodes are ScreenSizeLODs; the renderer updates them
 * ```
 * @category three.js
 */
export class MSFTLodLoaderPlugin implements GLTFLoaderPlugin {
  readonly name = MSFT_LOD_EXTENSION;
  readonly parser: GLTFParser;
  /** Problems met while applying the extension (filled by the load). */
  readonly warnings: MSFTLodWarning[] = [];
  /** The LODs built, in node order (a node drawn in several scenes gives one entry per copy). */
  readonly groups: MSFTLodGroup[] = [];
  private readonly options: typeof MSFT_LOD_LOADER_PLUGIN_DEFAULTS;
  /** Steps taken by the last load's graph checks (nodes and ids visited). @internal Test seam: ≤ c·(nodes + ids). */
  graphWork = 0;
  /** Geometries whose bounding sphere was already recomputed (levels share them). */
  private readonly tightened = new Set<BufferGeometry>();

  constructor(parser: GLTFParser, options: MSFTLodLoaderPluginOptions = {}) {
    const o = { ...MSFT_LOD_LOADER_PLUGIN_DEFAULTS, ...options };
    if (o.coverage !== 'area' && o.coverage !== 'height') {
      throw new RangeError(`MSFTLodLoaderPlugin: coverage must be 'area' or 'height', got ${String(o.coverage)}`);
    }
    if (o.defaultThresholds != null) {
      const t = o.defaultThresholds;
      if (!Array.isArray(t)) throw new TypeError('MSFTLodLoaderPlugin: defaultThresholds must be an array of numbers or null');
      for (let k = 0; k < t.length; k++) {
        if (typeof t[k] !== 'number' || !(t[k] >= 0 && t[k] <= 1)) {
          throw new RangeError(`MSFTLodLoaderPlugin: defaultThresholds[${k}] must be a number in [0, 1], got ${String(t[k])}`);
        }
        if (k > 0 && t[k] > t[k - 1]) {
          throw new RangeError(`MSFTLodLoaderPlugin: defaultThresholds must descend; [${k}] = ${t[k]} is greater than [${k - 1}] = ${t[k - 1]}`);
        }
      }
    }
    // Fail on bad ScreenSizeLOD options now, not in the middle of a load.
    new ScreenSizeLOD({ ...o.lod, metric: 'screenArea' });
    this.parser = parser;
    this.options = o;
  }

  /** Builds the LODs once three.js has built the scenes. Never rejects for bad extension data. */
  async afterRoot(result: GLTF): Promise<void> {
    const json = this.parser.json as { nodes?: unknown };
    const nodes: (NodeJson | undefined)[] = Array.isArray(json.nodes) ? json.nodes as (NodeJson | undefined)[] : [];
    const checked = this.checkAll(nodes);
    if (checked.length === 0) return;

    // Objects standing for each group's node, found through the loader's associations (all
    // scenes), plus the cached node object itself (associations keep only the last scene's).
    const byIndex = new Map<number, CheckedGroup>(checked.map((g) => [g.nodeIndex, g]));
    const targets = new Map<number, Object3D[]>();
    const associations = this.parser.associations;
    for (const scene of result.scenes) {
      scene.traverse((object) => {
        const index = associations.get(object)?.nodes;
        if (index !== undefined && byIndex.has(index) && object.parent !== null) {
          const list = targets.get(index) ?? [];
          if (!list.includes(object)) list.push(object);
          targets.set(index, list);
        }
      });
    }
    // Only nodes that some scene draws: asking the parser for any other node would build it (and
    // its meshes) for nothing — on the 4,000-node chain, where no group is in a scene, that was
    // most of the load.
    const drawn = nodesInScenes(this.parser.json as { scenes?: unknown }, nodes);
    for (const group of checked) {
      if (drawn[group.nodeIndex] === 0) continue;
      let cached: Object3D;
      try {
        cached = await this.parser.getDependency('node', group.nodeIndex) as Object3D;
      } catch {
        continue; // not loadable: then it is in no scene either.
      }
      const list = targets.get(group.nodeIndex) ?? [];
      if (cached.parent !== null && !list.includes(cached)) list.push(cached);
      targets.set(group.nodeIndex, list);
    }

    for (const group of checked) {
      const list = targets.get(group.nodeIndex);
      if (list === undefined || list.length === 0) continue; // not in any scene: nothing drawn, nothing to replace.
      let levelObjects: Object3D[];
      try {
        levelObjects = await Promise.all(group.ids.map((id) => this.parser.getDependency('node', id) as Promise<Object3D>));
      } catch (error) {
        this.report(group.nodeIndex, group.name, 'load-failed', `a level node could not be loaded (${(error as Error)?.message ?? String(error)}); left as loaded`);
        continue;
      }
      for (const target of list) {
        try {
          this.replace(group, target, levelObjects);
        } catch (error) {
          this.report(group.nodeIndex, group.name, 'load-failed', `could not build the LOD (${(error as Error)?.message ?? String(error)}); left as loaded`);
        }
      }
    }
  }

  /** Validates every node's extension; returns the usable groups and records warnings for the rest. */
  private checkAll(nodes: (NodeJson | undefined)[]): CheckedGroup[] {
    const parentOf = new Int32Array(nodes.length).fill(-1);
    let work = 0;
    for (let i = 0; i < nodes.length; i++) {
      const children = nodes[i]?.children;
      work++;
      if (!Array.isArray(children)) continue;
      work += children.length;
      for (const c of children) if (Number.isInteger(c) && c >= 0 && c < nodes.length && parentOf[c] === -1) parentOf[c] = i;
    }
    // Built once for all nodes (the old per-node searches copied paths: ≈ cubic on a long chain).
    const graph = new LodGraph(nodes.length, (i) => idsOf(nodes[i]));
    const forest = new NodeForest(parentOf);
    const groups: CheckedGroup[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const def = nodes[i];
      if (def == null || typeof def !== 'object' || def.extensions == null || typeof def.extensions !== 'object') continue;
      if (!(MSFT_LOD_EXTENSION in def.extensions)) continue;
      const name = typeof def.name === 'string' ? def.name : '';
      const group = this.checkNode(i, name, nodes, graph, forest);
      if (group !== null) groups.push(group);
    }
    this.graphWork = work + graph.work + forest.work;
    return groups;
  }

  private checkNode(i: number, name: string, nodes: (NodeJson | undefined)[], graph: LodGraph, forest: NodeForest): CheckedGroup | null {
    const checked = checkLodIds(nodes[i]!.extensions![MSFT_LOD_EXTENSION]);
    if ('problem' in checked) return this.report(i, name, 'schema', checked.problem);
    const ids = checked.ids;
    const field = `nodes[${i}].extensions.MSFT_lod.ids`;
    if (ids.length > LOD_GRAPH_LIMITS.idsPerGroup) {
      return this.report(i, name, 'too-many-ids', `${field} has ${ids.length} ids; at most ${LOD_GRAPH_LIMITS.idsPerGroup} (LOD_GRAPH_LIMITS.idsPerGroup)`);
    }
    const seen = new Set<number>();
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      if (id >= nodes.length) return this.report(i, name, 'id-out-of-range', `MSFT_lod.ids[${k}] = ${id} is out of range (the file has ${nodes.length} nodes)`);
      if (id === i) return this.report(i, name, 'self-reference', `MSFT_lod.ids[${k}] refers to the node itself`);
      if (seen.has(id)) return this.report(i, name, 'duplicate-id', `MSFT_lod.ids[${k}] = ${id} repeats an earlier level`);
      seen.add(id);
    }
    if (graph.onCycle(i)) return this.report(i, name, 'cycle', `MSFT_lod forms a cycle: ${graph.describeCycle(i)}`);
    if (graph.depth[i] > LOD_GRAPH_LIMITS.depth) {
      return this.report(i, name, 'too-deep', `${field}: levels nest ${graph.depth[i]} deep (a level is itself an MSFT_lod group, whose level is another, …); at most ${LOD_GRAPH_LIMITS.depth} (LOD_GRAPH_LIMITS.depth)`);
    }
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      // A level inside the node's own subtree (or above it) cannot be moved next to level 0.
      if (forest.isAncestor(id, i)) return this.report(i, name, 'hierarchy', `MSFT_lod.ids[${k}] = ${id} is an ancestor of the node`);
      if (forest.isAncestor(i, id)) return this.report(i, name, 'hierarchy', `MSFT_lod.ids[${k}] = ${id} is a descendant of the node (part of level 0)`);
    }
    const extras = nodes[i]!.extras;
    const rawCoverage = extras != null && typeof extras === 'object' && !Array.isArray(extras) ? (extras as Record<string, unknown>)[MSFT_SCREENCOVERAGE_KEY] : undefined;
    const cov = checkCoverageList(rawCoverage, ids.length + 1);
    if ('code' in cov) return this.report(i, name, cov.code, cov.detail);
    return { nodeIndex: i, name, ids, coverage: cov.coverage, layout: cov.layout };
  }

  private report(nodeIndex: number, name: string, code: MSFTLodWarningCode, detail: string): null {
    const warning: MSFTLodWarning = { nodeIndex, name, code, message: `${describeNode(nodeIndex, name)}: ${detail}` };
    this.warnings.push(warning);
    if (this.options.warn) console.warn(`${MSFT_LOD_EXTENSION}: ${warning.message}`);
    return null;
  }

  /** The thresholds and layout for a group (coverage, the caller's default, or the built-in one). */
  private thresholdsFor(group: CheckedGroup, levelCount: number): { values: number[]; culled: boolean; layout: MSFTLodLayout } {
    if (group.coverage !== null) return { values: group.coverage, culled: group.layout === 'culled', layout: group.layout };
    const given = this.options.defaultThresholds;
    if (given != null) {
      if (given.length === levelCount) return { values: given.slice(), culled: true, layout: 'none' };
      if (given.length === levelCount - 1) return { values: given.slice(), culled: false, layout: 'none' };
      this.report(group.nodeIndex, group.name, 'default-count',
        `defaultThresholds has ${given.length} values for ${levelCount} levels; used the built-in default`);
    }
    return { values: defaultCoverageThresholds(levelCount, this.options.coverage), culled: false, layout: 'none' };
  }

  private replace(group: CheckedGroup, target: Object3D, loadedLevels: Object3D[]): void {
    const parent = target.parent;
    if (parent === null) return;
    const levelCount = loadedLevels.length + 1;
    const { values, culled, layout } = this.thresholdsFor(group, levelCount);
    const lod = new ScreenSizeLOD({ ...this.options.lod, metric: this.options.coverage === 'height' ? 'screenHeight' : 'screenArea' });

    target.updateMatrix();
    const m0 = target.matrix.clone();
    const m0Inverse = new Matrix4().copy(m0).invert();
    lod.name = target.name;
    lod.position.copy(target.position);
    lod.quaternion.copy(target.quaternion);
    lod.scale.copy(target.scale);
    lod.userData = { ...target.userData };

    // A level node that already sits somewhere (in a scene, or in another LOD) is cloned, so
    // the plugin never takes an object out of a place three.js put it.
    const levels: Object3D[] = [target];
    for (const loaded of loadedLevels) levels.push(loaded.parent !== null ? loaded.clone() : loaded);
    for (let k = 1; k < levels.length; k++) {
      const level = levels[k];
      level.updateMatrix();
      if (!level.matrix.equals(m0)) {
        const local = new Matrix4().multiplyMatrices(m0Inverse, level.matrix);
        local.decompose(level.position, level.quaternion, level.scale);
      } else {
        level.position.set(0, 0, 0); level.quaternion.identity(); level.scale.set(1, 1, 1);
      }
    }

    // Swap level 0 for the LOD at the same index, so the parent's child order is kept.
    const index = parent.children.indexOf(target);
    parent.children[index] = lod;
    lod.parent = parent;
    target.parent = null;
    target.position.set(0, 0, 0); target.quaternion.identity(); target.scale.set(1, 1, 1);

    // Screen-size levels are drawn while the size is above their threshold; the coarsest level's
    // threshold is ignored, so the never-culled layout gives it 0.
    if (this.options.exactSpheres) for (const level of levels) tightenSpheres(level, this.tightened);
    for (let k = 0; k < levels.length; k++) lod.addLevel(levels[k], k < values.length ? values[k] : 0);
    if (culled) {
      const empty = new Object3D();
      empty.name = `${lod.name}_culled`;
      empty.userData.lodkitEmptyLevel = true;
      lod.addLevel(empty, 0);
    }
    this.parser.associations.set(lod, { nodes: group.nodeIndex });
    this.groups.push({ nodeIndex: group.nodeIndex, lod, layout, levels });
  }
}
