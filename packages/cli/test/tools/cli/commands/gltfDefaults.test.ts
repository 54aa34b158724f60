/**
 * `lodkit gltf lod` with its default options on the repo's test models (issue 29 item 4): every
 * level must be drawn somewhere between 50 and 600 px across on a 1080-px viewport, checked from
 * switch sizes computed here from each level's recorded error (D = 2·R·maxErrorPx / e) and, again,
 * from the coverage values written to the file (area a → height √(4·aspect·a/π) → pixels ×1080).
 * Also the legend, the sizes summary and `--preview` (escaped names, all-or-nothing).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, CommanderError } from 'commander';
import { registerGltfCommand } from '../../../../src/tools/cli/commands/gltf.js';
import { runGltfLod } from './runGltfLod.js';
import { escapeHtml } from '../../../../src/tools/cli/commands/gltfPreview.js';
import { readGltfDocument } from 'lodkit/gltf';
import { addMesh, lodIO, terrain, uvSphere } from '../../../../../lodkit/test/adapters/gltf/fixtures.js';

const RANGE = [50, 600];
const DEFAULT_PX = 2;
const V = 1080;
const ASPECT = 16 / 9;
let dir: string;
const models: Record<string, string> = {};

async function writeModel(name: string, geometry: { positions: Float32Array; indices: Uint32Array }, scale = 1): Promise<string> {
  const document = new Document();
  document.createBuffer();
  document.createScene().addChild(document.createNode(name).setMesh(addMesh(document, name, geometry)).setScale([scale, scale, scale]));
  const file = join(dir, `${name.replace(/[^a-z0-9]/gi, '_')}.glb`);
  writeFileSync(file, await lodIO().writeBinary(document));
  return file;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lodkit-gltf-defaults-'));
  models.ball = await writeModel('Ball', uvSphere(1, 48, 24));
  // The rock of packages/cli/test/simulator/gltfFixtures.ts: level 0 is a 32 × 16 UV sphere scaled by 2.
  models.rock = await writeModel('Rock', uvSphere(1, 32, 16), 2);
  models.terrain = await writeModel('Terrain', terrain(128));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runGltfLod;

describe('lodkit gltf lod defaults show every level at 50–600 px on a 1080-px viewport', () => {
  for (const name of ['ball', 'rock', 'terrain']) {
    it(`${name}`, async () => {
      const output = join(dir, `${name}_default.glb`);
      const { code, out } = await run(models[name], output, '--json');
      expect(code).toBe(0);
      const [chain] = JSON.parse(out);
      const R: number = chain.boundingRadius;
      const levels = chain.levels as { level: number; triangles: number; error: number; thresholdPx: number | null }[];
      expect(levels.length).toBe(4); // the default --levels
      // Switch sizes from the errors: the error e covers 2 px when the sphere is 2·R·2/e px across.
      const switches = levels.slice(1).map((l) => (2 * R * DEFAULT_PX) / l.error);
      // The printed thresholdPx is the same switch, rounded down to float32 coverage (never above).
      levels.slice(1).forEach((l, k) => {
        expect(l.thresholdPx!).toBeLessThanOrEqual(switches[k] * (1 + 1e-9));
        expect(l.thresholdPx!).toBeGreaterThan(switches[k] * (1 - 1e-6));
      });
      // And from the file: area coverage back to a diameter in pixels.
      const { document } = await readGltfDocument(readFileSync(output));
      const node = document.getRoot().listNodes()[0]; // the original node carries the group
      const coverage = (node.getExtras() as { MSFT_screencoverage: number[] }).MSFT_screencoverage;
      const fromFile = coverage.map((a) => Math.sqrt((4 * ASPECT * a) / Math.PI) * V);
      fromFile.forEach((px, k) => expect(px).toBeCloseTo(switches[k], 1));
      // Level i is drawn for sizes in [switch_{i+1}, switch_i] (level 0: above switch_1, the last: below its switch).
      const upper = [Infinity, ...switches];
      const lower = [...switches, 0];
      for (let i = 0; i < levels.length; i++) {
        const from = Math.max(lower[i], RANGE[0]), to = Math.min(upper[i], RANGE[1]);
        expect(from, `${name} level ${i} is drawn somewhere in ${RANGE[0]}–${RANGE[1]} px (drawn ${lower[i].toFixed(0)}–${upper[i].toFixed(0)})`).toBeLessThan(to);
      }
      // The coarsest level is a small share of the original (measured: ball 11.8 %, rock 19.6 %, terrain 0.15 %).
      expect(levels[3].triangles / levels[0].triangles).toBeLessThan(0.25);
    });
  }

  it('prints the legend and which level is drawn at sample sizes', async () => {
    const { code, out } = await run(models.ball, join(dir, 'ball_legend.glb'));
    expect(code).toBe(0);
    expect(out).toMatch(/^legend: triangles = /m);
    expect(out).toMatch(/threshold px = the same switch as the bounding sphere's diameter in pixels on a 1080-px-tall viewport, = 2·radius·2\/error/);
    const line = out.split('\n').find((l) => l.startsWith('Ball: level drawn at px across'))!;
    const pairs = [...line.matchAll(/(\d+)→(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(pairs.map((p) => p[0])).toEqual([50, 75, 100, 150, 200, 300, 400, 600, 800]);
    // Finer (smaller level number) as the object grows; 50 px the last level, 800 px level 0.
    for (let k = 1; k < pairs.length; k++) expect(pairs[k][1]).toBeLessThanOrEqual(pairs[k - 1][1]);
    expect(pairs[0][1]).toBe(3);
    expect(pairs.at(-1)![1]).toBe(0);
  });
});

describe('lodkit gltf lod --switch-px', () => {
  for (const [value, pattern] of [
    ['400', /--switch-px must be LARGEST,SMALLEST \(pixels, e\.g\. 400,75\), got '400'/],
    ['75,400', /--switch-px \(smallest\) must be a number in \(0, switchPx\.largest\], got 400/],
    ['0,0', /--switch-px \(largest\) must be a number > 0, got 0/],
    ['a,b', /--switch-px must be a number, got 'a'/],
  ] as const) {
    it(`exits 2 for --switch-px ${value}, writing nothing`, async () => {
      const output = join(dir, 'bad_switch.glb');
      const { code, err } = await run(models.ball, output, '--switch-px', value);
      expect(code).toBe(2);
      expect(err).toMatch(pattern);
      expect(existsSync(output)).toBe(false);
    });
  }

  it('--ratio gives the triangle-ratio chain (level i keeps about ratio^i of the triangles)', async () => {
    const { code, out } = await run(models.ball, join(dir, 'ball_ratio.glb'), '--ratio', '0.5', '--json');
    expect(code).toBe(0);
    const [chain] = JSON.parse(out);
    chain.levels.slice(1).forEach((l: { triangles: number }, k: number) => {
      expect(l.triangles / 2208).toBeGreaterThan(0.5 ** (k + 1) * 0.9);
      expect(l.triangles / 2208).toBeLessThanOrEqual(0.5 ** (k + 1));
    });
  });
});

describe('lodkit gltf lod on a mesh too small for LOD', () => {
  it('says which mesh nodes got no levels and why, instead of a silent "0 LOD groups"', async () => {
    const tiny = await writeModel('Pebble', uvSphere(1, 8, 4)); // 48 triangles
    const { code, err } = await run(tiny, join(dir, 'pebble_lod.glb'));
    expect(code).toBe(0);
    expect(err).toMatch(/note: 1 mesh node \("Pebble"\) got no levels: no simplification lost 5 % of the triangles while its error stayed under 2 px/);
    expect(err).not.toMatch(/already in an MSFT_lod group/);
  });
});

describe('lodkit gltf lod --preview', () => {
  it('writes a self-contained page with one drawing per level, names escaped', async () => {
    const hostile = await writeModel('<script>alert(1)</script>&"', uvSphere(1, 24, 12));
    const output = join(dir, 'hostile_lod.glb');
    const preview = join(dir, 'hostile.html');
    const { code, out } = await run(hostile, output, '--preview', preview);
    expect(code).toBe(0);
    expect(out).toMatch(/preview in hostile\.html/);
    const html = readFileSync(preview, 'utf8');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;');
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/); // no network address but SVG's namespace
    expect(html).toContain("default-src 'none'");
    expect((html.match(/<svg /g) ?? []).length).toBe(4);
    expect((html.match(/<figcaption>/g) ?? []).length).toBe(4);
    expect(html).toMatch(/level 0<\/b><br>528 triangles \(100\.0 %\)/); // 2 · 24 segments · (12 rings − 1)
  });

  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('refuses a preview that is not .html, is OUT, or exists (without --force), writing nothing', async () => {
    const before = readdirSync(dir).sort();
    expect((await run(models.ball, join(dir, 'p1.glb'), '--preview', join(dir, 'p.txt'))).err).toMatch(/--preview must end in \.html/);
    writeFileSync(join(dir, 'exists.html'), 'mine');
    const after = readdirSync(dir).sort();
    const r = await run(models.ball, join(dir, 'p2.glb'), '--preview', join(dir, 'exists.html'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--preview .*exists\.html already exists/);
    expect(readFileSync(join(dir, 'exists.html'), 'utf8')).toBe('mine');
    expect(readdirSync(dir).sort()).toEqual(after);
    expect(before.length + 1).toBe(after.length);
  });

  it('leaves neither OUT nor the preview when writing fails between them', async () => {
    let out = '', err = '';
    const program = new Command('lodkit').exitOverride().configureOutput({ writeOut: (s) => { out += s; }, writeErr: (s) => { err += s; } });
    let steps = 0;
    registerGltfCommand(program, { onStep: () => { if (++steps === 3) throw new Error('disk full (test)'); } });
    const output = join(dir, 'fail.glb');
    const preview = join(dir, 'fail.html');
    await expect(program.parseAsync(['node', 'lodkit', 'gltf', 'lod', models.ball, output, '--preview', preview])).rejects.toBeInstanceOf(CommanderError);
    expect(err).toMatch(/disk full \(test\)/);
    expect(existsSync(output)).toBe(false);
    expect(existsSync(preview)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.lodkit-'))).toEqual([]);
    expect(out).toBe('');
  });
});
