/**
 * Generating LOD chains whose switching thresholds come from measured geometric error: each mesh is
 * simplified with meshoptimizer, each level's object-space error is recorded, and each level is
 * allowed on screen only while that error projects to at most `maxErrorPx` pixels at the reference
 * viewport height (Cesium's screen-space-error idea applied to discrete mesh LODs).
 *
 * The threshold formula, from lodkit's perspective metrics (window height `H = 2·tan(fovY/2)` on the
 * plane at distance 1, viewport `V` pixels tall, eye–centre distance `d`):
 * - a length `e` at distance `d` covers `e·V / (d·H)` pixels;
 * - the bounding sphere (radius `R`) covers the height fraction `h = 2R / (d·H)`, so `d·H = 2R / h`;
 * - hence the error covers `e·V·h / (2R)` pixels, which is ≤ `maxErrorPx` exactly while
 *   `h ≤ 2R·maxErrorPx / (e·V)`.
 * That bound is the threshold below which level i may be drawn: coverage value `i − 1` (where level
 * i − 1 hands over to level i). It does not depend on the field of view or the distance. In area
 * coverage the height bound is converted with `a = π h² / (4·aspect)` at the reference aspect.
 *
 * Contributor notes:
 * - meshoptimizer is imported on the first call (dynamic import), so `lodkit/gltf` can read and
 *   write files with only `@gltf-transform/core` installed.
 * - The meshoptimizer part (simplifying one mesh, checking what meshoptimizer is given) is in
 *   simplifyMesh.ts; this module plans levels and writes the groups.
 * - Work is bounded before the document changes: `maxNewObjects` caps the level nodes, meshes,
 *   primitives and index accessors a run may add (instances multiply nodes: each processed node
 *   gets its own level nodes), and nodes are looked up by a map built once (a search of the node
 *   list per node, as `writeLodGroup`'s checks do, made 6,000 instances take 11 s).
 * - Each level is simplified from the ORIGINAL indices (not from the previous level) so its error is
 *   measured against the original surface, and levels share the original vertex accessors: a level
 *   costs only its index buffer, which keeps generated files small.
 * - `MeshoptSimplifier.simplify` is called directly (not `@gltf-transform/functions`' `simplify`)
 *   because only the direct call returns the error; with `'ErrorAbsolute'` it is in position units.
 *   That error is an estimate from meshoptimizer's quadric metric, and on test meshes the real
 *   deviation was 1.3–2.4× larger, so by default the recorded error is max(estimate, measured
 *   sampled symmetric deviation) (see `deviation.ts`); `error: 'estimate'` skips the measurement.
 * - Two shapes of chain (simplifyMesh.ts): by ratio, target error unbounded so the triangle budget
 *   (`ratio^i`) drives each level; by size (`switchPx`, the CLI's default), triangle target 3 and
 *   target error `2R·maxErrorPx/D_i` for a switch at `D_i` px, retried once with the target scaled
 *   down when the measured error overshoots it. `maxError` optionally stops a chain once a level's
 *   error exceeds it (relative to the mesh radius).
 * - Non-indexed primitives are indexed by position first (meshoptimizer's position remap), so
 *   exporters' triangle soups simplify too; their level meshes get index buffers.
 * - A level that fails to cut the triangle count by at least 5 % of the previous level ends the
 *   chain for that mesh: duplicate levels cost memory and switches for nothing.
 * - Thresholds are clamped to [0, 1] and made non-increasing; both only LOWER a threshold, which
 *   keeps the pixel guarantee (a level is drawn at smaller sizes only).
 * - Measured here (2 shared cores, Node 20, CPU time of the whole CLI run on a 16k-triangle sphere
 *   plus a 32k-triangle terrain, 4 levels, read + generate + write): 680–880 ms with the measured
 *   error, 134–161 ms with `error: 'estimate'`; meshoptimizer itself takes 15–30 ms per level.
 *   `bench/gltf-generate.bench.ts` (seeded noisy 32k terrain, one process): estimate 49 ms mean,
 *   measured 723 ms mean, 14.7×.
 *
 * @module
 */
import { type Accessor, type Document, type Mesh, type Node } from '@gltf-transform/core';
import { areaToHeight, heightToArea } from '../../metrics/conversions.js';
import { MSFT_LOD, MSFT_SCREENCOVERAGE } from './extension.js';
import { meshTriangleCount, type BoundingSphere } from './geometry.js';
import { LODKIT_GEOMETRIC_ERROR, coverageToThresholds, extrasOf, type LodCoverage } from './read.js';
import { GltfReadError } from './source.js';
import { checkCoverageList } from './coverage.js';
import { loadSimplifier, simplifyMesh, type SimplifiedMesh } from './simplifyMesh.js';
import { getOrCreateLodExtension } from './write.js';
import type { Lod } from './extension.js';
import type { LodThresholds } from '../../heuristics/lodThresholds.js';

/** Options for {@link generateLodChain}. @category glTF */
export interface GenerateLodOptions {
  /** Total number of levels including the original (≥ 2). Default 4. */
  levels?: number;
  /** Triangle ratio between successive levels, in (0, 1). Default 0.5 (unless `switchPx` is given). */
  ratio?: number;
  /**
   * Size-driven levels instead of a triangle ratio: level i is simplified as far as its error stays
   * within `maxErrorPx` when the object is `D_i` pixels across, with `D_1 = largest` down to
   * `D_last = smallest` in geometric steps (4 levels, 400 → 75: 400, 173, 75 px). The thresholds
   * still come from each level's recorded error, so a switch lands near its `D_i`, not on it
   * (meshoptimizer's estimate runs under the measured error; one retry narrows the gap). A size at which no level loses 5 % of
   * the finer level's triangles gets no level (`stoppedEarly` says so). `lodkit gltf lod` uses
   * `{ largest: 400, smallest: 75 }` unless `--ratio` is given. When given, `ratio` is ignored.
   */
  switchPx?: { largest: number; smallest: number };
  /** Largest allowed on-screen error of a level, in pixels (> 0). Default 1. */
  maxErrorPx?: number;
  /** Reference viewport height in pixels (> 0). Default 1080. */
  viewportHeight?: number;
  /** Reference aspect (width ÷ height) for area coverage. Default 16/9. */
  aspect?: number;
  /** Coverage written to the file: `'area'` (default, Babylon.js's reading) or `'height'`. */
  coverage?: LodCoverage;
  /** Cull the object when its diameter is below this many pixels; default: never culled. */
  cullBelowPx?: number;
  /**
   * Which error the thresholds use: `'measured'` (default) records max(meshoptimizer's estimate, the
   * sampled symmetric deviation measured against the original); `'estimate'` records meshoptimizer's
   * estimate only (faster, but it under-estimated real deviation by up to 2.4× on test meshes).
   */
  error?: 'measured' | 'estimate';
  /** Stop a chain once a level's error exceeds this fraction of the mesh's bounding radius. Default: no limit. */
  maxError?: number;
  /** Only these nodes (default: every node with a mesh that is not already part of an LOD group). */
  nodes?: Node[];
  /**
   * Most glTF objects the chains may add (level nodes, meshes, primitives, index accessors), counted
   * as an upper bound before the document is changed: levels − 1 nodes per processed node and
   * levels − 1 meshes (each with its primitives and index accessors) per distinct mesh. Default
   * 150,000: every object costs kilobytes, and a file of 100,000 instances of one mesh would
   * otherwise get 300,000 new nodes (out of memory under a 1 GiB heap). Exceeding it throws
   * `GltfReadError` (the input is too large to process; the CLI exits 2).
   */
  maxNewObjects?: number;
  /** Called after each mesh is simplified: `(done, total)`. */
  onProgress?: (done: number, total: number) => void;
}

/** Defaults of {@link GenerateLodOptions}. @category glTF */
export const GENERATE_LOD_DEFAULTS = {
  levels: 4,
  ratio: 0.5,
  maxErrorPx: 1,
  viewportHeight: 1080,
  aspect: 16 / 9,
  coverage: 'area' as LodCoverage,
  error: 'measured' as 'measured' | 'estimate',
  maxNewObjects: 150_000,
} as const;

/** One generated level. @category glTF */
export interface GeneratedLevel {
  level: number;
  triangles: number;
  /** Object-space geometric error used for the threshold (position units); 0 for level 0. */
  error: number;
  /** meshoptimizer's own error estimate for the level (position units); 0 for level 0. */
  estimate: number;
  /**
   * Largest screen size (coverage units) at which the level is drawn: `Infinity` for level 0,
   * otherwise the coverage value where the previous level hands over.
   */
  threshold: number;
  /** The same threshold as the sphere's diameter in pixels at the reference viewport. */
  thresholdPx: number;
  node: Node;
}

/** The chain generated for one node. @category glTF */
export interface GeneratedLodChain {
  node: Node;
  name: string;
  /** Mesh-space bounding sphere the thresholds were derived for. */
  boundingSphere: BoundingSphere;
  levels: GeneratedLevel[];
  /** The coverage list written to the node's extras. */
  coverage: number[];
  thresholds: LodThresholds;
  cullBelow: number;
  /** Why the chain has fewer levels than requested, if it does. */
  stoppedEarly?: string;
  /** Simplified levels dropped because their thresholds left them no screen size to be drawn at. */
  neverDrawn?: number;
}

function requireNumber(value: unknown, field: string, ok: (v: number) => boolean, rule: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
    throw new RangeError(`generateLodChain: ${field} must be ${rule}, got ${String(value)}`);
  }
  return value;
}

/** Validated, merged options. @internal */
export function resolveGenerateOptions(options: GenerateLodOptions) {
  const o = { ...GENERATE_LOD_DEFAULTS, ...options };
  requireNumber(o.levels, 'levels', (v) => Number.isInteger(v) && v >= 2 && v <= 32, 'an integer in [2, 32]');
  requireNumber(o.ratio, 'ratio', (v) => v > 0 && v < 1, 'a number in (0, 1)');
  if (o.switchPx !== undefined) {
    if (o.switchPx === null || typeof o.switchPx !== 'object') throw new RangeError(`generateLodChain: switchPx must be { largest, smallest }, got ${String(o.switchPx)}`);
    requireNumber(o.switchPx.largest, 'switchPx.largest', (v) => v > 0, 'a number > 0');
    requireNumber(o.switchPx.smallest, 'switchPx.smallest', (v) => v > 0 && v <= o.switchPx!.largest, 'a number in (0, switchPx.largest]');
  }
  requireNumber(o.maxErrorPx, 'maxErrorPx', (v) => v > 0, 'a number > 0');
  requireNumber(o.viewportHeight, 'viewportHeight', (v) => v > 0, 'a number > 0');
  requireNumber(o.aspect, 'aspect', (v) => v > 0, 'a number > 0');
  if (o.cullBelowPx !== undefined) requireNumber(o.cullBelowPx, 'cullBelowPx', (v) => v >= 0, 'a number ≥ 0');
  if (o.maxError !== undefined) requireNumber(o.maxError, 'maxError', (v) => v > 0, 'a number > 0');
  requireNumber(o.maxNewObjects, 'maxNewObjects', (v) => Number.isInteger(v) && v >= 0, 'an integer ≥ 0');
  if (o.error !== 'measured' && o.error !== 'estimate') throw new RangeError(`generateLodChain: error must be 'measured' or 'estimate', got ${String(o.error)}`);
  if (o.coverage !== 'area' && o.coverage !== 'height') throw new RangeError(`generateLodChain: coverage must be 'area' or 'height', got ${String(o.coverage)}`);
  return o;
}

/**
 * The largest screen-height fraction at which an error `error` (object space) of an object with
 * bounding radius `radius` projects to at most `maxErrorPx` pixels on a viewport `viewportHeight`
 * pixels tall: `2R·maxErrorPx / (e·V)` (see the module notes). `Infinity` when `error` is 0.
 * @example
 * ```ts
 * heightThresholdForError(0.01, 1, 1, 1080); // 0.185…: draw while the object is under 18.5 % of the screen height
 * ```
 * @category glTF
 */
export function heightThresholdForError(error: number, radius: number, maxErrorPx: number, viewportHeight: number): number {
  if (error <= 0) return Infinity;
  return (2 * radius * maxErrorPx) / (error * viewportHeight);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The largest float32 value ≤ `value` (for value ≥ 0). Coverage is rounded DOWN to float32 so that
 * lodkit (float32 thresholds, like OpenUSD) and float64 readers switch at the same size, never above
 * the exact bound.
 * @internal
 */
export function floorToFloat32(value: number): number {
  f32[0] = value;
  if (f32[0] > value && u32[0] > 0) u32[0] -= 1;
  return f32[0];
}

function buildLevelMesh(document: Document, mesh: Mesh, level: number, indices: (Uint32Array | null)[]): Mesh {
  const out = document.createMesh(`${mesh.getName() || 'mesh'}_LOD${level}`);
  const primitives = mesh.listPrimitives();
  for (let p = 0; p < primitives.length; p++) {
    const source = primitives[p];
    const primitive = source.clone();
    const list = indices[p];
    if (list) {
      const vertexCount = source.getAttribute('POSITION')!.getCount();
      const array = vertexCount <= 65535 ? Uint16Array.from(list) : list;
      const accessor: Accessor = document.createAccessor(`${out.getName()}_indices_${p}`).setType('SCALAR').setArray(array);
      const buffer = source.getIndices()?.getBuffer() ?? source.getAttribute('POSITION')!.getBuffer() ?? document.getRoot().listBuffers()[0] ?? null;
      if (buffer) accessor.setBuffer(buffer);
      primitive.setIndices(accessor);
    }
    out.addPrimitive(primitive);
  }
  return out;
}

interface MeshPlan {
  simplified: SimplifiedMesh;
  /** The levels kept (never-drawn ones removed), level 1 first. */
  levels: SimplifiedMesh['levels'];
  meshes: Mesh[];
  coverage: number[];
  cullBelow: number;
  neverDrawn: number;
}

/**
 * Turns a mesh's simplified levels into coverage values, drops levels that could never be drawn
 * (their upper threshold equals their lower one after clamping, e.g. several levels whose error is
 * sub-pixel even when the object fills the screen), and builds the meshes of the kept levels.
 * Dropping level k removes its upper value, which equals its lower one, so no switch moves.
 */
function planLevels(
  document: Document, mesh: Mesh, simplified: SimplifiedMesh, o: ReturnType<typeof resolveGenerateOptions>,
  toCoverage: (height: number) => number,
): MeshPlan {
  const { radius } = simplified.sphere;
  const raw: number[] = [];
  let previous = 1;
  for (const level of simplified.levels) {
    const value = Math.min(previous, toCoverage(heightThresholdForError(level.error, radius, o.maxErrorPx, o.viewportHeight)));
    raw.push(value);
    previous = value;
  }
  let cullBelow = 0;
  if (o.cullBelowPx !== undefined && o.cullBelowPx > 0) cullBelow = Math.min(previous, toCoverage(o.cullBelowPx / o.viewportHeight));
  const levels: SimplifiedMesh['levels'] = [];
  const coverage: number[] = [];
  const n = simplified.levels.length;
  for (let k = 0; k < n; k++) {
    const upper = raw[k];
    const lower = k + 1 < n ? raw[k + 1] : cullBelow;
    if (upper <= lower) continue;
    levels.push(simplified.levels[k]);
    coverage.push(upper);
  }
  if (cullBelow > 0 && levels.length > 0) coverage.push(cullBelow);
  const meshes = levels.map((l, k) => buildLevelMesh(document, mesh, k + 1, l.indices));
  return { simplified, levels, meshes, coverage, cullBelow: levels.length > 0 ? cullBelow : 0, neverDrawn: n - levels.length };
}

/**
 * `writeLodGroup`'s writing, without its checks that `node` and `levels` belong to the document:
 * those list every node of the document per call, quadratic over a scene's nodes (6,000 mesh
 * nodes took 11 s, 100,000 would take most of an hour), and here the level nodes were just created
 * and `node` comes from the document's own list. The coverage is still checked, like there.
 */
function attachLodGroup(document: Document, node: Node, levels: Node[], coverage: number[], errors: number[]): void {
  const checked = checkCoverageList(coverage, levels.length + 1);
  if ('code' in checked) throw new RangeError(`generateLodChain: computed an invalid coverage list for "${node.getName()}": ${checked.detail}`);
  if (errors.some((e) => !(e >= 0) || !Number.isFinite(e))) throw new RangeError(`generateLodChain: computed a non-finite or negative error for "${node.getName()}": ${errors.join(', ')}`);
  const lod = getOrCreateLodExtension(document).createLod();
  for (const level of levels) lod.addLevel(level);
  node.setExtension(MSFT_LOD, lod);
  const extras = { ...extrasOf(node) };
  if (coverage.length > 0) extras[MSFT_SCREENCOVERAGE] = coverage.slice();
  else delete extras[MSFT_SCREENCOVERAGE];
  extras[LODKIT_GEOMETRIC_ERROR] = errors.slice();
  node.setExtras(extras);
}

/**
 * Refuses, before anything is created, a run whose new objects could exceed `budget` (an upper
 * bound: every candidate and every distinct mesh gets all `levels − 1` levels).
 */
function checkNewObjects(candidates: Node[], levels: number, budget: number): void {
  const meshes = new Set<Mesh>();
  let upper = candidates.length * (levels - 1);
  for (const node of candidates) {
    const mesh = node.getMesh()!;
    if (meshes.has(mesh)) continue;
    meshes.add(mesh);
    upper += (levels - 1) * (1 + 2 * mesh.listPrimitives().length);
  }
  if (upper > budget) {
    throw new GltfReadError(`generateLodChain: ${candidates.length} nodes with ${meshes.size} distinct meshes at ${levels} levels could add up to ${upper} glTF objects (level nodes, meshes, primitives, index accessors), more than maxNewObjects = ${budget}`);
  }
}

function isInLodGroup(node: Node, levelNodes: Set<Node>): boolean {
  return node.getExtension<Lod>(MSFT_LOD) != null || levelNodes.has(node);
}

/**
 * Simplifies each mesh of a document into an LOD chain and writes it as `MSFT_lod` +
 * `MSFT_screencoverage`: level i is allowed on screen only while its recorded error projects to at
 * most `maxErrorPx` pixels at the reference viewport height. New level nodes copy the original
 * node's transform and skin and are not attached to a scene. Each level's error is also stored in
 * `extras.LODKIT_geometricError`. Returns one chain per processed node.
 *
 * @example
 * ```ts
 * const chains = await generateLodChain(document, { levels: 4, ratio: 0.5, maxErrorPx: 1, viewportHeight: 1080 });
 * for (const level of chains[0].levels) console.log(level.triangles, level.error, level.threshold);
 * ```
 * @category glTF
 */
export async function generateLodChain(document: Document, options: GenerateLodOptions = {}): Promise<GeneratedLodChain[]> {
  const o = resolveGenerateOptions(options);
  await loadSimplifier();
  const root = document.getRoot();
  const levelNodes = new Set<Node>();
  for (const node of root.listNodes()) {
    const lod = node.getExtension<Lod>(MSFT_LOD);
    if (lod) for (const level of lod.listLevels()) levelNodes.add(level as Node);
  }
  const all = root.listNodes();
  // Indices by node, once: a search of the node list per node is quadratic in big scenes.
  const indexOf = new Map(all.map((n, i) => [n, i]));
  if (o.nodes !== undefined && (!Array.isArray(o.nodes) || o.nodes.some((n) => !indexOf.has(n)))) {
    throw new RangeError('generateLodChain: nodes must be a list of nodes of the document');
  }
  const candidates = (o.nodes ?? all).filter((n) => n.getMesh() != null && !isInLodGroup(n, levelNodes));
  checkNewObjects(candidates, o.levels, o.maxNewObjects);

  const cache = new Map<Mesh, MeshPlan | null>();
  const chains: GeneratedLodChain[] = [];
  const toCoverage = (height: number): number => {
    const h = Math.min(height, o.coverage === 'area' ? areaToHeight(1, o.aspect) : 1);
    const value = o.coverage === 'area' ? heightToArea(h, o.aspect) : h;
    return floorToFloat32(Math.min(1, Math.max(0, value)));
  };
  for (let c = 0; c < candidates.length; c++) {
    const node = candidates[c];
    const mesh = node.getMesh()!;
    let plan = cache.get(mesh);
    if (plan === undefined) {
      const simplified = await simplifyMesh(mesh, o);
      plan = simplified ? planLevels(document, mesh, simplified, o, toCoverage) : null;
      cache.set(mesh, plan);
    }
    o.onProgress?.(c + 1, candidates.length);
    if (!plan || plan.levels.length === 0) continue;
    const { simplified, coverage, cullBelow } = plan;

    const name = node.getName() || mesh.getName() || `node${indexOf.get(node)}`;
    const newNodes = plan.meshes.map((levelMesh, k) => {
      const levelNode = document.createNode(`${name}_LOD${k + 1}`)
        .setMesh(levelMesh)
        .setTranslation(node.getTranslation())
        .setRotation(node.getRotation())
        .setScale(node.getScale());
      const skin = node.getSkin();
      if (skin) levelNode.setSkin(skin);
      const weights = node.getWeights();
      if (weights.length > 0) levelNode.setWeights(weights);
      return levelNode;
    });
    const errors = [0, ...plan.levels.map((l) => l.error)];
    attachLodGroup(document, node, newNodes, coverage, errors);

    const levelCount = newNodes.length + 1;
    const { thresholds } = coverageToThresholds(coverage, levelCount, o.coverage);
    const toPx = (value: number): number => (o.coverage === 'area' ? areaToHeight(value, o.aspect) : value) * o.viewportHeight;
    const levels: GeneratedLevel[] = [{
      level: 0, triangles: meshTriangleCount(mesh), error: 0, estimate: 0, threshold: Infinity, thresholdPx: Infinity, node,
    }];
    plan.levels.forEach((l, k) => levels.push({
      level: k + 1, triangles: l.triangles, error: l.error, estimate: l.estimate, threshold: coverage[k], thresholdPx: toPx(coverage[k]), node: newNodes[k],
    }));
    chains.push({
      node, name, boundingSphere: simplified.sphere, levels, coverage, thresholds, cullBelow,
      ...(simplified.stoppedEarly ? { stoppedEarly: simplified.stoppedEarly } : {}),
      ...(plan.neverDrawn > 0 ? { neverDrawn: plan.neverDrawn } : {}),
    });
  }
  return chains;
}
