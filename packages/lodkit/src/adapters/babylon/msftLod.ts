/**
 * A Babylon.js glTF loader extension that loads every `MSFT_lod` level of a node and switches them
 * by the node's `extras.MSFT_screencoverage`, through a {@link BabylonLodManager}. Babylon's own
 * `MSFT_lod` extension loads the levels progressively and then keeps the finest; switching on the
 * coverage is not supported there.
 *
 * Contributor notes:
 * - Registered under its own name (`lodkit_MSFT_lod`) for every glTF file, ordered before Babylon's
 *   `MSFT_lod` (order 100): a group it accepts never reaches Babylon's extension; a group it rejects
 *   (bad ids, bad or missing coverage) returns null, so Babylon loads that node as it always does.
 * - Level 0 is the node itself. It is loaded through `loader.loadNodeAsync` with its `MSFT_lod`
 *   key taken out of `node.extensions` for that synchronous call (the loader asks its extensions
 *   synchronously, first thing), so Babylon's extension does not load the group a second time.
 *   The coarser level nodes get the same `assign` as level 0: the same parent.
 * - The coverage rules (layouts, strict checks) are `lodkit/gltf`'s `checkCoverageList`
 *   (gltf/coverage.ts imports nothing). Coverage is an area fraction by default (metric
 *   `'screenArea'`: the bounding sphere's projected disc ÷ the screen), `coverage: 'height'` gives
 *   `'screenHeight'`; see docs/gltf.md.
 * - The loader class is not imported: the caller passes Babylon's `registerGLTFExtension`, so
 *   `lodkit/babylon` holds no runtime import of `@babylonjs/loaders`.
 *
 * @module
 */
import type { GLTFLoader } from '@babylonjs/loaders/glTF/2.0/glTFLoader.js';
import type { IGLTFLoaderExtension } from '@babylonjs/loaders/glTF/2.0/glTFLoaderExtension.js';
import type { INode } from '@babylonjs/loaders/glTF/2.0/glTFLoaderInterfaces.js';
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { checkCoverageList, checkLodIds, MSFT_SCREENCOVERAGE, type CoverageProblemCode } from '../gltf/coverage.js';
import { BabylonLodManager } from './lodManager.js';

/**
 * The name the lodkit extension is registered under.
 * @example
 * ```ts
 * unregisterGLTFExtension(LODKIT_MSFT_LOD); // back to Babylon's own MSFT_lod handling
 * ```
 * @category Babylon
 */
export const LODKIT_MSFT_LOD = 'lodkit_MSFT_lod';

/**
 * A group the extension left to Babylon: its node, the problem's code and a message.
 * @example
 * ```ts
 * registerLodkitMSFTLod(registerGLTFExtension, { onWarning: (w) => console.warn(w.node, w.detail) });
 * ```
 * @category Babylon
 */
export interface LodkitMSFTLodWarning {
  /** Index of the glTF node. */
  node: number;
  code: CoverageProblemCode | 'lod-ids' | 'coverage-none';
  detail: string;
}

/**
 * Options of {@link registerLodkitMSFTLod}.
 * @example
 * ```ts
 * const options: LodkitMSFTLodOptions = { coverage: 'area', hysteresis: 0.1 };
 * ```
 * @category Babylon
 */
export interface LodkitMSFTLodOptions {
  /** What the coverage values measure: screen area fraction (default) or screen height fraction. */
  coverage?: 'area' | 'height';
  /**
   * The manager of a scene; default: one manager per scene, made on the first group loaded into it
   * (thresholds policy with `hysteresis`), found again with {@link lodkitManagerOf}.
   */
  manager?: (scene: Scene) => BabylonLodManager;
  /** Relative hysteresis band of the managers made by default (`LodUpdateOptions.hysteresis`). Default 0. */
  hysteresis?: number;
  /** Called for each group left to Babylon. Default: `console.warn`. */
  onWarning?: (warning: LodkitMSFTLodWarning) => void;
  /** Called for each group registered, with the manager's handle and the level nodes (finest first). */
  onGroup?: (handle: number, levels: readonly TransformNode[], scene: Scene) => void;
}

/**
 * Babylon's `registerGLTFExtension` (or any function with its signature).
 * @example
 * ```ts
 * import { registerGLTFExtension } from '@babylonjs/loaders/glTF/2.0/glTFLoaderExtensionRegistry.js';
 * const register: RegisterGLTFExtension = registerGLTFExtension;
 * ```
 * @category Babylon
 */
export type RegisterGLTFExtension = (name: string, isGLTFExtension: boolean, factory: (loader: GLTFLoader) => IGLTFLoaderExtension) => void;

const managers = new WeakMap<Scene, BabylonLodManager>();

/**
 * The manager the extension made for a scene (with no `manager` option), or undefined before the
 * first group was loaded into it.
 * @example
 * ```ts
 * const manager = lodkitManagerOf(scene);
 * manager?.lastStats.levelCounts;
 * ```
 * @category Babylon
 */
export function lodkitManagerOf(scene: Scene): BabylonLodManager | undefined {
  return managers.get(scene);
}

/**
 * Registers the lodkit `MSFT_lod` loader extension with Babylon's glTF loader: every level of each
 * `MSFT_lod` group is loaded, and the group's levels switch by `MSFT_screencoverage` through a
 * {@link BabylonLodManager}. Groups with bad data are reported and left to Babylon.
 * Unregister with `unregisterGLTFExtension(LODKIT_MSFT_LOD)`.
 *
 * @example
 * ```ts
 * import { registerGLTFExtension } from '@babylonjs/loaders/glTF/2.0/glTFLoaderExtensionRegistry.js';
 * import '@babylonjs/loaders/glTF/2.0/index.js';
 * import { registerLodkitMSFTLod, lodkitManagerOf } from 'lodkit/babylon';
 * registerLodkitMSFTLod(registerGLTFExtension, { coverage: 'area' });
 * await AppendSceneAsync('city.glb', scene); // every level loaded, switched by coverage
 * ```
 * @category Babylon
 */
export function registerLodkitMSFTLod(register: RegisterGLTFExtension, options: LodkitMSFTLodOptions = {}): void {
  if (options.coverage !== undefined && options.coverage !== 'area' && options.coverage !== 'height') {
    throw new RangeError(`registerLodkitMSFTLod: coverage must be 'area' or 'height', got ${String(options.coverage)}`);
  }
  register(LODKIT_MSFT_LOD, false, (loader) => new LodkitMSFTLod(loader, options));
}

/**
 * The loader extension itself (made by {@link registerLodkitMSFTLod}'s factory, one per load).
 * @example
 * ```ts
 * registerGLTFExtension(LODKIT_MSFT_LOD, false, (loader) => new LodkitMSFTLod(loader, { coverage: 'height' }));
 * ```
 * @category Babylon
 */
export class LodkitMSFTLod implements IGLTFLoaderExtension {
  /** The extension's name, {@link LODKIT_MSFT_LOD}. */
  readonly name = LODKIT_MSFT_LOD;
  /** Whether the loader calls it. */
  enabled = true;
  /** Before Babylon's `MSFT_lod` (100). */
  order = 90;
  /** Groups of this load left to Babylon. */
  readonly warnings: LodkitMSFTLodWarning[] = [];
  private loader: GLTFLoader | null;
  private readonly warned = new Set<number>();

  constructor(loader: GLTFLoader, private readonly options: LodkitMSFTLodOptions = {}) {
    this.loader = loader;
  }

  /** Frees the loader reference. */
  dispose(): void { this.loader = null; }

  /** Loads every level of an `MSFT_lod` node with valid coverage; null for any other node. */
  loadNodeAsync(context: string, node: INode, assign: (babylonTransformNode: TransformNode) => void): Promise<TransformNode> | null {
    const loader = this.loader;
    const raw = node.extensions?.MSFT_lod as unknown;
    if (loader === null || raw === undefined) return null;
    const checked = checkLodIds(raw);
    const nodes = loader.gltf.nodes ?? [];
    if ('problem' in checked) return this.warn(node, 'lod-ids', checked.problem);
    const bad = checked.ids.find((i) => i >= nodes.length || i === node.index);
    if (bad !== undefined) return this.warn(node, 'lod-ids', `MSFT_lod.ids has ${bad}, not a node index of this file other than ${node.index}`);
    const levelCount = checked.ids.length + 1;
    const cov = checkCoverageList((node.extras as Record<string, unknown> | undefined)?.[MSFT_SCREENCOVERAGE], levelCount);
    if ('code' in cov) return this.warn(node, cov.code, cov.detail);
    if (cov.coverage === null) return this.warn(node, 'coverage-none', `no extras.${MSFT_SCREENCOVERAGE}: nothing to switch on`);
    const extensions = node.extensions!;
    let first: Promise<TransformNode>;
    delete extensions.MSFT_lod;
    try {
      first = loader.loadNodeAsync(context, node, assign);
    } finally {
      extensions.MSFT_lod = raw;
    }
    const rest = checked.ids.map((i) => loader.loadNodeAsync(`/nodes/${i}`, nodes[i], assign));
    const scene = loader.babylonScene;
    const coverage = cov.coverage, culled = cov.layout === 'culled';
    return Promise.all([first, ...rest]).then((levels) => {
      this.registerGroup(scene, levels, coverage, culled);
      return levels[0];
    });
  }

  private registerGroup(scene: Scene, levels: TransformNode[], coverage: number[], culled: boolean): void {
    const manager = this.managerFor(scene);
    const metric = this.options.coverage === 'height' ? 'screenHeight' : 'screenArea';
    const handle = manager.add(culled ? [...levels, null] : levels, { metric, thresholds: coverage });
    this.options.onGroup?.(handle, levels, scene);
  }

  private managerFor(scene: Scene): BabylonLodManager {
    if (this.options.manager !== undefined) return this.options.manager(scene);
    let m = managers.get(scene);
    if (m === undefined) {
      m = new BabylonLodManager(scene, { update: { policy: 'thresholds', hysteresis: this.options.hysteresis ?? 0 } });
      managers.set(scene, m);
    }
    return m;
  }

  private warn(node: INode, code: LodkitMSFTLodWarning['code'], detail: string): null {
    // Babylon's own MSFT_lod loads the node again (its level 0) through the loader: report once.
    if (this.warned.has(node.index)) return null;
    this.warned.add(node.index);
    const w: LodkitMSFTLodWarning = { node: node.index, code, detail };
    this.warnings.push(w);
    if (this.options.onWarning !== undefined) this.options.onWarning(w);
    else console.warn(`lodkit_MSFT_lod: node ${node.index}: ${detail} (left to Babylon's loader)`);
    return null;
  }
}
