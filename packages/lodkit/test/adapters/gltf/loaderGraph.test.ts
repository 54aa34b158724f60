/**
 * loadLodGroupsFromGltf with groups nested in a deep node hierarchy (issue 24, item 2): the world
 * matrices are computed once per node, top-down, so the spheres must be bit-identical to
 * `nodeWorldBoundingSphere` (glTF-Transform's `getWorldMatrix` per node) while the parent links
 * are followed once per node. The work is counted by spying on glTF-Transform's `getParentNode`,
 * not timed (1,000 nested groups took 107 s in `lodkit simulate` before).
 */
import { Document, Node, type Node as GltfNode } from '@gltf-transform/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MSFTLod, loadLodGroupsFromGltf, nodeWorldBoundingSphere, readGltfDocument, readLodGroups,
} from '../../../src/adapters/gltf/index.js';
import { addMesh, lodIO, triangleSoup, uvSphere } from './fixtures.js';

afterEach(() => { vi.restoreAllMocks(); });

/**
 * `depth` nested nodes (node k the child of node k − 1), each with a small rotation, scale and
 * offset so that world matrices are real products, and each a group with one plain level.
 */
function nestedDocument(depth: number): Document {
  const document = new Document();
  document.createBuffer();
  const ext = document.createExtension(MSFTLod);
  const fine = addMesh(document, 'fine', uvSphere(1, 8, 4));
  const coarse = addMesh(document, 'coarse', triangleSoup(1));
  const scene = document.createScene('s');
  let parent: GltfNode | null = null;
  for (let k = 0; k < depth; k++) {
    const angle = 0.01 * (k % 7);
    const node = document.createNode(`g${k}`).setMesh(fine)
      .setTranslation([0.5, 0.1 * (k % 3), -0.25])
      .setRotation([0, Math.sin(angle / 2), 0, Math.cos(angle / 2)])
      .setScale([1 + 0.001 * (k % 5), 1, 1]);
    if (parent === null) scene.addChild(node); else parent.addChild(node);
    const level = document.createNode(`l${k}`).setMesh(coarse);
    node.setExtension('MSFT_lod', ext.createLod().addLevel(level));
    parent = node;
  }
  return document;
}

describe('loadLodGroupsFromGltf: groups nested in the hierarchy', () => {
  it('spheres bit-identical to nodeWorldBoundingSphere (60 nested groups with rotations and scales)', async () => {
    const bytes = await lodIO().writeBinary(nestedDocument(60));
    const { groups } = await loadLodGroupsFromGltf(bytes);
    const { document } = await readGltfDocument(bytes);
    const reference = readLodGroups(document).groups.map((g) => nodeWorldBoundingSphere(g.node));
    expect(groups).toHaveLength(60);
    groups.forEach((g, k) => {
      expect(g.boundingSphere.center).toEqual(reference[k]!.center);
      expect(g.boundingSphere.radius).toBe(reference[k]!.radius);
    });
  });

  it('1,000 nested groups: each parent link followed about once per node, not once per node per group', async () => {
    const bytes = await lodIO().writeBinary(nestedDocument(1000));
    const parents = vi.spyOn(Node.prototype, 'getParentNode');
    const worlds = vi.spyOn(Node.prototype, 'getWorldMatrix');
    const { groups } = await loadLodGroupsFromGltf(bytes);
    expect(groups).toHaveLength(1000);
    // The reader itself may ask a few times per node; the old loader asked Σ depth ≈ 500,000 times.
    expect(parents.mock.calls.length).toBeLessThanOrEqual(4 * 2000);
    expect(worlds).not.toHaveBeenCalled();
    // Group k's level 0 is the subtree k … 999: the deepest group's sphere is its own mesh's.
    expect(groups[999].boundingSphere.radius).toBeGreaterThan(0);
  }, 60_000);
});
