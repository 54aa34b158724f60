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
 * - World matrices are computed once per node, top-down in pre-order (the same products, in the
 *   same order, as glTF-Transform's `getWorldMatrix`, so the spheres are bit-identical to
 *   `nodeWorldBoundingSphere`'s), and a group's subtree is a range of that order. Asking each node
 *   for its world matrix in each group walked the parents every time and traversed the subtree
 *   with glTF-Transform: with groups nested in a deep hierarchy that was cubic (1,000 nested
 *   groups: 107 s in `lodkit simulate`). A group still reads its subtree's vertices (the exact
 *   sphere needs them), so nested groups cost Σ subtree vertices.
 *
 * @module
 */
import type { Node } from '@gltf-transform/core';
import type { LodThresholds } from '../../heuristics/lodThresholds.js';
import type { LodIssue } from './extension.js';
import type { CoverageLayout } from './coverage.js';
import { maxAxisScale, readPositions, sphereOfPoints, type BoundingSphere } from './geometry.js';
import { memo } from './subtrees.js';
import { readLodGroups, type ReadLodOptions } from './read.js';
import { readGltfDocument, type GltfSource, type ReadGltfOptions } from './readDocument.js';

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
  const hierarchy = new Hierarchy(document.getRoot().listNodes());
  for (const group of groups) {
    const world = hierarchy.world[hierarchy.index.get(group.node)!];
    const sphere = hierarchy.sphere(group.node) ?? { center: worldPosition(world), radius: 0 };
    const scale = maxAxisScale(world);
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

/** `a · b` for column-major 4 × 4 matrices, each entry summed in the order gl-matrix's `multiply` uses. */
function multiply(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c++) {
    const b0 = b[c * 4], b1 = b[c * 4 + 1], b2 = b[c * 4 + 2], b3 = b[c * 4 + 3];
    for (let r = 0; r < 4; r++) out[c * 4 + r] = b0 * a[r] + b1 * a[4 + r] + b2 * a[8 + r] + b3 * a[12 + r];
  }
  return out;
}

/**
 * The node hierarchy in pre-order (a subtree is the range `[i, i + size[i])`) with every node's
 * world matrix and positions, so that many subtrees' spheres cost their vertices and nothing more.
 */
class Hierarchy {
  readonly order: Node[] = [];
  readonly index = new Map<Node, number>();
  readonly size: Int32Array;
  readonly world: number[][] = [];
  readonly positions: Float32Array[][] = [];

  constructor(nodes: Node[]) {
    const isChild = new Set<Node>();
    const children = new Map<Node, Node[]>();
    for (const node of nodes) {
      const list = node.listChildren();
      children.set(node, list);
      for (const child of list) isChild.add(child);
    }
    const parentOf: number[] = [];
    const stack: [Node, number][] = [];
    for (let r = nodes.length - 1; r >= 0; r--) if (!isChild.has(nodes[r])) stack.push([nodes[r], -1]);
    const arrays = new Map<unknown, Float32Array>();
    while (stack.length > 0) {
      const [node, parent] = stack.pop()!;
      const i = this.order.length;
      this.order.push(node);
      this.index.set(node, i);
      parentOf.push(parent);
      // Parents come first in pre-order: the same products, in the same order, as getWorldMatrix.
      const local = node.getMatrix() as unknown as number[];
      this.world.push(parent < 0 ? Array.from(local) : multiply(this.world[parent], local));
      const own: Float32Array[] = [];
      for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
        const position = primitive.getAttribute('POSITION');
        if (position) own.push(memo(arrays, position, () => readPositions(position)));
      }
      this.positions.push(own);
      const list = children.get(node) ?? [];
      for (let c = list.length - 1; c >= 0; c--) stack.push([list[c], i]);
    }
    this.size = new Int32Array(this.order.length).fill(1);
    for (let i = this.order.length - 1; i > 0; i--) if (parentOf[i] >= 0) this.size[parentOf[i]] += this.size[i];
  }

  /** `nodeWorldBoundingSphere(node)`: box centre of the subtree's world-space vertices, radius to the farthest; null without positions. */
  sphere(node: Node): BoundingSphere | null {
    const start = this.index.get(node)!, end = start + this.size[start];
    const each = (visit: (x: number, y: number, z: number) => void): void => {
      for (let k = start; k < end; k++) {
        const m = this.world[k];
        for (const p of this.positions[k]) {
          for (let i = 0; i + 2 < p.length; i += 3) {
            const x = p[i], y = p[i + 1], z = p[i + 2];
            visit(m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]);
          }
        }
      }
    };
    return sphereOfPoints(each); // the one box-centre rule, as for a single mesh (geometry.ts)
  }
}
