import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGltfLod } from './runGltfLod.js';
import { readGltfDocument, readLodGroups } from 'lodkit/gltf';
import { addMesh, lodIO, packGlb, specExample, toGlbParts, uvSphere } from '../../../../../lodkit/test/adapters/gltf/fixtures.js';

let dir: string;
let sphereFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lodkit-gltf-cli-'));
  const document = new Document();
  document.createBuffer();
  document.createScene().addChild(document.createNode('Ball').setMesh(addMesh(document, 'ball', uvSphere(1, 48, 24))));
  sphereFile = join(dir, 'ball.glb');
  writeFileSync(sphereFile, await lodIO().writeBinary(document));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runGltfLod;

describe('lodkit gltf lod', () => {
  it('writes an LOD chain and prints the level table (exit 0)', async () => {
    const output = join(dir, 'ball_lod.glb');
    const { code, out, err } = await run(sphereFile, output, '--levels', '4', '--ratio', '0.5', '--max-error-px', '1', '--viewport', '1080');
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^node\s+level\s+triangles\s+error\s+threshold \(area\)\s+threshold px$/);
    expect(lines[2]).toMatch(/^Ball\s+0\s+2208\s+0\s+—\s+—$/); // 48·2 + 48·2·22 triangles
    expect(lines.slice(3, 6).every((l) => /^\s+[123]\s+\d+\s+[0-9.e-]+\s+[0-9.e-]+\s+[0-9.]+$/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/wrote ball_lod\.glb: 1 LOD group, 3 new levels/);
    const { document } = await readGltfDocument(readFileSync(output));
    const { groups } = readLodGroups(document);
    expect(groups.map((g) => g.levels.length)).toEqual([4]);
    expect(groups[0].layout).toBe('neverCulled');
  });

  it('prints JSON with --json, and writes .gltf', async () => {
    const output = join(dir, 'ball_lod.gltf');
    const { code, out } = await run(sphereFile, output, '--json', '--coverage', 'height', '--levels', '3', '--cull-below-px', '2');
    expect(code).toBe(0);
    const table = JSON.parse(out);
    expect(table[0].node).toBe('Ball');
    expect(table[0].levels).toHaveLength(3);
    expect(table[0].coverage).toHaveLength(3);
    expect(existsSync(output)).toBe(true);
  });

  for (const [title, args, pattern] of [
    ['--levels 1', ['--levels', '1'], /--levels must be an integer in \[2, 32\]/],
    ['--ratio 2', ['--ratio', '2'], /--ratio must be a number in \(0, 1\)/],
    ['--max-error-px abc', ['--max-error-px', 'abc'], /--max-error-px must be a number, got 'abc'/],
    ['--coverage volume', ['--coverage', 'volume'], /--coverage must be 'area' or 'height'/],
  ] as const) {
    it(`exits 2 on bad usage (${title}) with a one-line message and no stack`, async () => {
      const { code, err } = await run(sphereFile, join(dir, 'x.glb'), ...args);
      expect(code).toBe(2);
      expect(err).toMatch(pattern);
      expect(err).not.toMatch(/\n\s+at /);
    });
  }

  it('exits 2 for an output that is not .glb/.gltf', async () => {
    const { code, err } = await run(sphereFile, join(dir, 'x.obj'));
    expect(code).toBe(2);
    expect(err).toMatch(/OUT must end in \.glb or \.gltf/);
  });

  it('exits 2 for an unreadable or missing input; --debug adds the stack', async () => {
    const garbage = join(dir, 'garbage.glb');
    writeFileSync(garbage, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    const a = await run(garbage, join(dir, 'y.glb'));
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/Could not read glTF/);
    expect(a.err).not.toMatch(/\n\s+at /);
    const b = await run(join(dir, 'missing.glb'), join(dir, 'y.glb'), '--debug');
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/\n\s+at /);
  });

  it('exits 2 on an invalid MSFT_lod in the input, and 0 with --lenient (warning on stderr)', async () => {
    const { json, bin } = await toGlbParts(specExample().document);
    json.nodes[0].extensions.MSFT_lod.ids = [1, 7];
    const bad = join(dir, 'bad.glb');
    writeFileSync(bad, packGlb(json, bin));
    const strict = await run(bad, join(dir, 'z.glb'));
    expect(strict.code).toBe(2);
    expect(strict.err).toMatch(/node 0 "High_LOD": MSFT_lod\.ids\[1\] = 7 is out of range/);
    const lenient = await run(bad, join(dir, 'z.glb'), '--lenient');
    expect(lenient.code).toBe(0);
    expect(lenient.err).toMatch(/warning: node 0 "High_LOD"/);
  });
});
