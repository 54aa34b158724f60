/**
 * readLodGroups on large or over-ceiling `MSFT_lod` graphs (issue 24, item 2): the ids ceiling
 * (from the file's JSON and for documents built in memory), the nesting-depth ceiling in strict and
 * lenient mode, the bounded GltfLodError message, small cycle messages as before, and linear work
 * counted through `lastLodGraphWork` (a 4,000-node chain took 44 s here before). Expected values
 * come from the graphs' shapes, worked out in the comments.
 */
import { Document, type Node } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  GltfLodError, ISSUES_LISTED, MSFTLod, lastLodGraphWork, readGltfDocument, readLodGroups,
} from '../../../src/adapters/gltf/index.js';
import { addMesh, packGlb, toGlbParts, triangleSoup } from './fixtures.js';

/** A document of `n` nodes sharing one mesh, `links(k)` giving node k's level ids (null: none). */
function graphDocument(n: number, links: (k: number) => number[] | null): Document {
  const document = new Document();
  document.createBuffer();
  const mesh = addMesh(document, 'm', triangleSoup(2));
  const ext = document.createExtension(MSFTLod);
  const nodes: Node[] = [];
  for (let k = 0; k < n; k++) nodes.push(document.createNode(`n${k}`).setMesh(mesh));
  document.createScene('s').addChild(nodes[0]);
  for (let k = 0; k < n; k++) {
    const ids = links(k);
    if (ids === null) continue;
    const lod = ext.createLod();
    for (const id of ids) lod.addLevel(nodes[id]);
    nodes[k].setExtension('MSFT_lod', lod);
  }
  return document;
}

const chain = (n: number) => (k: number): number[] | null => (k < n - 1 ? [k + 1] : null);

describe('readLodGroups: ceilings', () => {
  it('255 ids in the file: refused before a Lod is built, naming nodes[0].extensions.MSFT_lod.ids', async () => {
    const { json, bin } = await toGlbParts(graphDocument(256, () => null));
    json.extensionsUsed = ['MSFT_lod'];
    json.nodes[0].extensions = { MSFT_lod: { ids: Array.from({ length: 255 }, (_, k) => k + 1) } };
    const { document } = await readGltfDocument(packGlb(json, bin));
    expect(() => readLodGroups(document)).toThrow('node 0 "n0": nodes[0].extensions.MSFT_lod.ids has 255 ids; at most 254 (LOD_GRAPH_LIMITS.idsPerGroup');
    const lenient = readLodGroups(document, { lenient: true });
    expect(lenient.groups).toEqual([]);
    expect(lenient.warnings.map((w) => w.code)).toEqual(['too-many-ids']);
  });

  it('254 ids is the ceiling itself: a 255-level group', () => {
    const { groups, warnings } = readLodGroups(graphDocument(255, (k) => (k === 0 ? Array.from({ length: 254 }, (_, j) => j + 1) : null)));
    expect(warnings).toEqual([]);
    expect(groups[0].levels).toHaveLength(255);
  });

  it('255 levels built in memory: the same issue from the model-level check', () => {
    const document = graphDocument(256, (k) => (k === 0 ? Array.from({ length: 255 }, (_, j) => j + 1) : null));
    expect(() => readLodGroups(document)).toThrow(/nodes\[0\]\.extensions\.MSFT_lod\.ids has 255 ids/);
  });

  it('levels nested 1025 deep: node 0 refused (strict); lenient drops node 0 only', () => {
    // 1026-node chain: node k nests 1025 − k deep; only node 0 is over 1024.
    const document = graphDocument(1026, chain(1026));
    expect(() => readLodGroups(document)).toThrow('Invalid MSFT_lod data: node 0 "n0": nodes[0].extensions.MSFT_lod.ids: levels nest 1025 deep');
    const { groups, warnings } = readLodGroups(document, { lenient: true });
    expect(warnings.map((w) => [w.index, w.code])).toEqual([[0, 'too-deep']]);
    expect(groups).toHaveLength(1024); // nodes 1 … 1024 (node 1025 has no MSFT_lod)
    expect(groups[0].index).toBe(1);
  });
});

describe('readLodGroups: long graphs, linear work', () => {
  it('a 4,000-node chain: 2,975 problems, the message lists 20; work ≤ 25 × (nodes + ids)', () => {
    const document = graphDocument(4000, chain(4000));
    let error: GltfLodError | undefined;
    try { readLodGroups(document); } catch (e) { error = e as GltfLodError; }
    expect(error).toBeInstanceOf(GltfLodError);
    expect(error!.issues).toHaveLength(2975); // nodes 0 … 2974 nest 3999 − k > 1024 deep
    expect(error!.message.split('\n')).toHaveLength(1 + ISSUES_LISTED + 1);
    expect(error!.message).toContain(`… and ${2975 - ISSUES_LISTED} more (GltfLodError.issues lists every one)`);
    expect(lastLodGraphWork()).toBeLessThanOrEqual(25 * (4000 + 3999));
  });

  it('a 4,000-node cycle: every node reported with a bounded path; work ≤ 25 × (nodes + ids)', () => {
    const document = graphDocument(4000, (k) => [(k + 1) % 4000]);
    const { warnings } = readLodGroups(document, { lenient: true });
    expect(warnings).toHaveLength(4000);
    expect(warnings[2].message).toBe('node 2 "n2": MSFT_lod forms a cycle: 2 → 3 → 4 → 5 → 6 → … → 0 → 1 → 2 (4000 steps)');
    expect(Math.max(...warnings.map((w) => w.message.length))).toBeLessThan(140); // 9 ids of ≤ 4 digits + names
    expect(lastLodGraphWork()).toBeLessThanOrEqual(25 * (4000 + 4000));
  });

  it('small cycles read as before: the whole path', () => {
    // 0 → [1], 1 → [2], 2 → [0]: three problems, each the cycle from its own node.
    const { warnings } = readLodGroups(graphDocument(3, (k) => [(k + 1) % 3]), { lenient: true });
    expect(warnings.map((w) => w.message)).toEqual([
      'node 0 "n0": MSFT_lod forms a cycle: 0 → 1 → 2 → 0',
      'node 1 "n1": MSFT_lod forms a cycle: 1 → 2 → 0 → 1',
      'node 2 "n2": MSFT_lod forms a cycle: 2 → 0 → 1 → 2',
    ]);
  });

  it('a level shared by 254 groups: triangles counted once per node, every group gets its own lists', () => {
    // 300-node band: node k → k + 1 … k + 254; the mesh has 2 triangles.
    const document = graphDocument(300, (k) => {
      const ids: number[] = [];
      for (let d = 1; d <= 254 && k + d < 300; d++) ids.push(k + d);
      return ids.length > 0 ? ids : null;
    });
    const { groups } = readLodGroups(document);
    expect(groups).toHaveLength(299);
    expect(groups[0].levels).toHaveLength(255);
    expect(groups.every((g) => g.levels.every((l) => l.triangles === 2))).toBe(true);
    expect(groups[0].levels[1].materialLods).not.toBe(groups[1].levels[0].materialLods);
  });

  it('groups nested 2,000 deep in the node hierarchy: each level 0 counts its whole subtree (one pass, not one per group)', () => {
    // Node k (k < 2000) is the child of node k − 1 and has MSFT_lod → [2000 + k], a plain node.
    // Every node draws the 2-triangle mesh, so group k's level 0 draws 2 × (2000 − k) triangles.
    const document = graphDocument(4000, (k) => (k < 2000 ? [2000 + k] : null));
    const nodes = document.getRoot().listNodes();
    for (let k = 1; k < 2000; k++) nodes[k - 1].addChild(nodes[k]);
    const { groups } = readLodGroups(document);
    expect(groups).toHaveLength(2000);
    for (const k of [0, 1, 999, 1999]) expect(groups[k].levels.map((l) => l.triangles)).toEqual([2 * (2000 - k), 2]);
  });
});
