/**
 * A plain-data view of a glTF file's LOD groups for the simulator: per group a world-space bounding
 * sphere, per level the triangle count and (when lodkit generated the chain) the geometric error,
 * and the coverage thresholds. No glTF-Transform objects leak out, so the simulator can build a
 * scene from it without depending on glTF types.
 *
 * Contributor notes:
 * - The sphere is level 0's subtree in world space (each vertex through its node's world matrix),
 *   centred on the box, radius = farthest vertex: the sphere the thresholds were derived for.
 * - Recorded errors are object-space; they are scaled by the largest axis scale of the group node's
 *   world matrix so the simulator can project them with world distances.
 *
 * @module
 */
import type { LodThresholds } from '../../heuristics/lodThresholds.js';
import type { LodIssue } from './extension.js';
import type { CoverageLayout } from './coverage.js';
import { maxAxisScale, nodeWorldBoundingSphere, type BoundingSphere } from './geometry.js';
import {
  readGltfDocument, readLodGroups, type GltfSource, type ReadGltfOptions, type ReadLodOptions,
} from './read.js';

/** One level of a {@link LoadedLodGroup}. @category glTF */
export interface LoadedLodLevel {
  triangles: number;
  /** World-space geometric error, when the file records it (`extras.LODKIT_geometricError`). */
  error?: number;
}

/** One LOD group as plain data. @category glTF */
export interface LoadedLodGroup {
  name: string;
  /** Index of the level-0 node in the file. */
  nodeIndex: number;
  /** World-space bounding sphere of level 0. */
  boundingSphere: BoundingSphere;
  levels: LoadedLodLevel[];
  /** Thresholds over the levels (`'screenArea'` or `'screenHeight'`), or null when the file has none. */
  thresholds: LodThresholds | null;
  /** Screen size below which nothing is drawn (0: never culled). */
  cullBelow: number;
  /** Raw `MSFT_screencoverage` values. */
  coverage: number[] | null;
  layout: CoverageLayout;
}

/** Result of {@link loadLodGroupsFromGltf}. @category glTF */
export interface LoadedLodGroups {
  groups: LoadedLodGroup[];
  warnings: LodIssue[];
  /** Messages from glTF-Transform (unknown extensions and the like). */
  messages: string[];
}

/**
 * Loads a glTF/GLB (bytes, a path, or `{json, resources}`) and returns its LOD groups as plain data
 * for the simulator. Options as {@link readLodGroups} (strict by default) and {@link readGltfDocument}
 * (resources only from inside the file's folder unless `allowOutsideResources`).
 * @example
 * ```ts
 * const { groups } = await loadLodGroupsFromGltf('forest.glb', { lenient: true });
 * groups[0].boundingSphere.radius; groups[0].levels.map((l) => l.triangles);
 * ```
 * @category glTF
 */
export async function loadLodGroupsFromGltf(source: GltfSource, options: ReadLodOptions & Omit<ReadGltfOptions, 'io'> = {}): Promise<LoadedLodGroups> {
  const { lenient, coverage, ...readOptions } = options;
  const { document, messages } = await readGltfDocument(source, readOptions);
  const { groups, warnings } = readLodGroups(document, { ...(lenient !== undefined ? { lenient } : {}), ...(coverage !== undefined ? { coverage } : {}) });
  const loaded: LoadedLodGroup[] = [];
  for (const group of groups) {
    const sphere = nodeWorldBoundingSphere(group.node) ?? { center: worldPosition(group.node.getWorldMatrix()), radius: 0 };
    const scale = maxAxisScale(group.node.getWorldMatrix());
    loaded.push({
      name: group.name,
      nodeIndex: group.index,
      boundingSphere: sphere,
      levels: group.levels.map((l) => (l.error !== undefined ? { triangles: l.triangles, error: l.error * scale } : { triangles: l.triangles })),
      thresholds: group.thresholds,
      cullBelow: group.cullBelow,
      coverage: group.coverage,
      layout: group.layout,
    });
  }
  return { groups: loaded, warnings, messages };
}

function worldPosition(m: ArrayLike<number>): [number, number, number] {
  return [m[12], m[13], m[14]];
}
