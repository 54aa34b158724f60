/**
 * The validation cases of the hostile corpus (fixtures/hostile/validationCorpus.ts) on their own
 * (hostile.test.ts runs every one of them in process through `gltf lod` and `simulate`, with the
 * canary and output checks): the files built to exhaust memory, run by the built CLI in a child process
 * with a 1 GiB heap, exit 2 with a peak resident set under 1 GiB. A file exactly at the object
 * limit is processed (exit 0) under the same bound; one of as many mesh instances is refused by
 * generation's own budget (each instance would get its own level nodes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLTF_READ_LIMITS } from 'lodkit/gltf';
import { packGlb, toGlbParts } from '../../../lodkit/test/adapters/gltf/fixtures.js';
import { rockDocument } from '../simulator/gltfFixtures.js';
import type { HostileCase } from '../fixtures/hostile/corpus.js';
import { validationCases } from '../fixtures/hostile/validationCorpus.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/lodkit.js');
/** The bound the issue sets: a hostile file must not take the process past 1 GiB resident. */
const RSS_BOUND_KB = 1024 * 1024;
/** Prints the child's peak resident set (kB) to stderr at exit, however it exits. */
const REPORT_RSS = "--import=data:text/javascript,import{writeSync}from'node:fs';process.on('exit',()=>writeSync(2,'\\nMAXRSS_KB='+process.resourceUsage().maxRSS+'\\n'))";

let root = '';
let input = '';
let out = '';
let cases: HostileCase[] = [];

/** Runs the built CLI in a child with a 1 GiB heap; returns its exit code, output and peak RSS. */
function child(args: string[]): { code: number | null; text: string; maxRssKb: number } {
  const r = spawnSync(process.execPath, ['--max-old-space-size=1024', REPORT_RSS, BIN, ...args], { cwd: input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const text = `${r.stdout}${r.stderr}`;
  const match = /MAXRSS_KB=(\d+)/.exec(r.stderr);
  return { code: r.status, text, maxRssKb: match ? Number(match[1]) : Number.NaN };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lodkit-validation-'));
  input = join(root, 'in');
  out = join(root, 'out');
  mkdirSync(input);
  mkdirSync(out);
  const { json: glbBase, bin } = await toGlbParts(rockDocument());
  writeFileSync(join(input, 'rock.bin'), bin!);
  const gltfBase = JSON.parse(JSON.stringify(glbBase));
  gltfBase.buffers[0].uri = 'rock.bin';
  cases = validationCases({ dir: input, glbBase, gltfBase, bin: bin! });
  // At the object limit exactly (rock: 6 accessors, 1 buffer, 3 meshes + 3 primitives, 1 scene, 3 nodes).
  const atLimit = JSON.parse(JSON.stringify(glbBase));
  const others = 6 + 1 + 3 + 3 + 1;
  for (let i = atLimit.nodes.length; i < GLTF_READ_LIMITS.objects - others; i++) atLimit.nodes.push({});
  writeFileSync(join(input, 'nodes-at-object-limit.glb'), packGlb(atLimit, bin!));
  // At the object limit too, but every node an instance of the rock's mesh 0: 3 level nodes each.
  const instances = JSON.parse(JSON.stringify(glbBase));
  for (let i = instances.nodes.length; i < GLTF_READ_LIMITS.objects - others; i++) { instances.nodes.push({ mesh: 0 }); instances.scenes[0].nodes.push(i); }
  writeFileSync(join(input, 'instances-at-object-limit.glb'), packGlb(instances, bin!));
}, 120_000);
afterAll(() => { if (root) rmSync(root, { recursive: true, force: true }); });

describe('hostile validation cases', () => {
  it('cover every class of issue 24 items 3, 4 and 7', () => {
    const names = cases.map((c) => c.file).join(' ');
    for (const family of [
      'proto-type', 'proto-componenttype', 'proto-attribute', 'proto-buffer-uri', 'proto-image-uri', 'json-deep', 'json-entries',
      'texture-sampler-out-of-range', 'material-texture', 'skin', 'camera', 'animation-target-node', 'animation-input',
      'index-past-vertex-count', 'position-count-not-triangles', 'zero-filled-50m-vertices', 'nodes-1m-empty',
      'animation-channels-2m', 'node-name-2m',
    ]) expect(names, family).toContain(family);
  });

  // The files that blew up memory before: each refused, in a process that stays under the bound.
  // (Exit code and RSS only: no clock is read, a loaded machine must not turn this red.)
  it('the memory cases exit 2 in a child process with a 1 GiB heap, peak RSS under 1 GiB', () => {
    const heavy = ['zero-filled-50m-vertices.glb', 'nodes-1m-empty.glb', 'animation-channels-2m.glb', 'node-name-2m.glb',
      'accessors-reread-one-view.glb', 'primitives-redraw-one-index-list.glb', 'json-deep-100k.glb', 'json-entries-5m.glb'];
    const results = heavy.map((file) => ({ file, ...child(['gltf', 'lod', file, join(out, 'never.glb')]) }));
    const sim = child(['simulate', 'nodes-1m-empty.glb', '--frames', '3', '--json', '--no-progress']);
    results.push({ file: 'nodes-1m-empty.glb (simulate)', ...sim });
    for (const r of results) {
      expect(r.code, `${r.file}: ${r.text.slice(0, 300)}`).toBe(2);
      expect(r.maxRssKb, r.file).toBeLessThan(RSS_BOUND_KB);
    }
    expect(existsSync(join(out, 'never.glb'))).toBe(false);
  }, 300_000);

  it('a file of 99,983 mesh instances (readable) is refused by gltf lod before it adds 300,000 level nodes', () => {
    const r = child(['gltf', 'lod', 'instances-at-object-limit.glb', join(out, 'never.glb')]);
    expect(r.code, r.text.slice(0, 300)).toBe(2);
    expect(r.text).toMatch(/generateLodChain: 99983 nodes with 1 distinct meshes at 4 levels could add up to 299958 glTF objects .* more than maxNewObjects = 150000/);
    expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
  }, 300_000);

  it('a file at the object limit is read and processed (exit 0) with peak RSS under 1 GiB', () => {
    const target = join(out, 'at-limit.glb');
    const r = child(['gltf', 'lod', 'nodes-at-object-limit.glb', target]);
    expect(r.code, r.text.slice(0, 300)).toBe(0);
    expect(r.maxRssKb).toBeLessThan(RSS_BOUND_KB);
    rmSync(target);
  }, 300_000);
});
