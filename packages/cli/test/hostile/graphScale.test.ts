/**
 * Large `MSFT_lod` graphs through the real CLI entry (`main`, in-process), issue 24 item 2: the
 * valid ones (a 1,000-node chain, the 600 × 254-id DAG) must succeed in `gltf lod` and `simulate`,
 * the refused ones (the 4,000-node chain, nested past LOD_GRAPH_LIMITS.depth, and the 4,000-node
 * cycle) must exit 2 naming the node, with bounded output. Linear work is proved by counting the
 * reader's graph steps (`lastLodGraphWork`, an @internal seam of `lodkit/gltf`, the module the
 * CLI itself loads), never by a clock: elapsed times are printed for the record only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastLodGraphWork } from 'lodkit/gltf';
import { main } from '../../src/tools/cli/main.js';
import type { CliContext } from '../../src/tools/cli/context.js';
import { toGlbParts } from '../../../lodkit/test/adapters/gltf/fixtures.js';
import { rockDocument } from '../simulator/gltfFixtures.js';
import { bandNodes, chainNodes, graphGlb } from '../fixtures/hostile/graphCorpus.js';

/** Graph steps allowed per node and per id (lodGraph.test.ts derives 25 for the graph alone). */
const C = 25;

let root = '';
let input = '';
let out = '';

async function cli(args: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const context: CliContext = {
    stdout: { write: (s: string) => { text += s; return true; } },
    stderr: { write: (s: string) => { text += s; return true; } },
    cwd: input,
  };
  const started = Date.now();
  const code = await main(['node', 'lodkit', ...args], context);
  // For the record only (no assertion on time): what a reader of the test log wants to see.
  console.log(`lodkit ${args.slice(0, 2).join(' ')}: exit ${code} in ${Date.now() - started} ms`);
  return { code, text };
}

/** Nodes + ids of a node list (the size the work is bounded by). */
function sizeOf(nodes: { extensions?: { MSFT_lod?: { ids: number[] } } }[]): number {
  return nodes.reduce((s, n) => s + 1 + (n.extensions?.MSFT_lod?.ids.length ?? 0), 0);
}

const files = {
  chain1000: chainNodes(1000),
  dag: bandNodes(600, 254),
  chain4000: chainNodes(4000),
  cycle4000: chainNodes(4000, true),
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lodkit-graph-'));
  input = join(root, 'in');
  out = join(root, 'out');
  mkdirSync(input);
  mkdirSync(out);
  const { json, bin } = await toGlbParts(rockDocument());
  for (const [name, nodes] of Object.entries(files)) writeFileSync(join(input, `${name}.glb`), graphGlb(json, bin!, nodes));
}, 60_000);
afterAll(() => { if (root) rmSync(root, { recursive: true, force: true }); });

describe('valid large MSFT_lod graphs succeed', () => {
  it('a 1,000-node chain (levels nested 999 deep, under the ceiling): gltf lod and simulate exit 0', async () => {
    const lod = await cli(['gltf', 'lod', join(input, 'chain1000.glb'), join(out, 'chain1000.out.glb')]);
    expect(lod.code, lod.text).toBe(0);
    expect(lod.text).toContain('(999 groups)');
    expect(lastLodGraphWork()).toBeLessThanOrEqual(C * sizeOf(files.chain1000));
    const sim = await cli(['simulate', join(input, 'chain1000.glb'), '--frames', '3', '--instances', '1', '--json', '--no-progress']);
    expect(sim.code, sim.text.slice(0, 400)).toBe(0);
    expect(() => JSON.parse(sim.text)).not.toThrow();
    expect(lastLodGraphWork()).toBeLessThanOrEqual(C * sizeOf(files.chain1000));
  }, 120_000);

  it('the 600 × 254-id DAG (599 groups of up to 255 levels, each level shared by up to 254 groups): exit 0', async () => {
    const lod = await cli(['gltf', 'lod', join(input, 'dag.glb'), join(out, 'dag.out.glb')]);
    expect(lod.code, lod.text).toBe(0);
    expect(lod.text).toContain('(599 groups)');
    // 600 nodes + 120,015 ids (Σ min(254, 599 − k)): the bound is on those, whatever the edges' order.
    expect(sizeOf(files.dag)).toBe(600 + 120_015);
    expect(lastLodGraphWork()).toBeLessThanOrEqual(C * sizeOf(files.dag));
    const sim = await cli(['simulate', join(input, 'dag.glb'), '--frames', '3', '--instances', '1', '--json', '--no-progress']);
    expect(sim.code, sim.text.slice(0, 400)).toBe(0);
  }, 300_000);
});

describe('refused large MSFT_lod graphs exit 2 naming the node, with bounded output', () => {
  it('the 4,000-node chain: levels nest 3,999 deep (LOD_GRAPH_LIMITS.depth is 1024)', async () => {
    for (const args of [['gltf', 'lod', join(input, 'chain4000.glb'), join(out, 'never.glb')], ['simulate', join(input, 'chain4000.glb'), '--frames', '3', '--json', '--no-progress']]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.text).toMatch(/nodes\[0\]\.extensions\.MSFT_lod\.ids: levels nest 3999 deep/);
      // 2,975 nodes are over the ceiling; the message lists 20 and counts the rest.
      expect(r.text).toContain('(2975 problems)');
      expect(r.text).toContain('… and 2955 more');
      expect(r.text.length).toBeLessThan(8_000);
      expect(lastLodGraphWork()).toBeLessThanOrEqual(C * sizeOf(files.chain4000));
    }
  }, 120_000);

  it('the 4,000-node cycle: every node on it, each path shortened', async () => {
    for (const args of [['gltf', 'lod', join(input, 'cycle4000.glb'), join(out, 'never.glb')], ['simulate', join(input, 'cycle4000.glb'), '--frames', '3', '--json', '--no-progress']]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.text).toContain('(4000 problems)');
      expect(r.text).toContain('node 0: MSFT_lod forms a cycle: 0 → 1 → 2 → 3 → 4 → … → 3997 → 3998 → 3999 → 0 (4000 steps)');
      expect(r.text).toContain('node 7: MSFT_lod forms a cycle: 7 → 8 → 9 → 10 → 11 → … → 4 → 5 → 6 → 7 (4000 steps)');
      expect(r.text.length).toBeLessThan(8_000);
      expect(lastLodGraphWork()).toBeLessThanOrEqual(C * sizeOf(files.cycle4000));
    }
  }, 120_000);
});
