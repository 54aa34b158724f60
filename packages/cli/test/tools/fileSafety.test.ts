/**
 * Outputs never replace an input or an existing file without --force, impossible output folders
 * fail at once with their reason, and a refused run writes nothing (no temporary files either).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/tools/cli/main.js';
import type { CliContext } from '../../src/tools/cli/context.js';
import { addMesh, lodIO, uvSphere } from '../../../lodkit/test/adapters/gltf/fixtures.js';
import { glbBytes, rockDocument } from '../simulator/gltfFixtures.js';
import { tinyStaticScene } from '../simulator/fixtures.js';

let dir = '';
let ball = new Uint8Array(0);

async function cli(args: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const context: CliContext = {
    stdout: { write: (s: string) => { text += s; return true; } },
    stderr: { write: (s: string) => { text += s; return true; } },
    cwd: dir,
  };
  const code = await main(['node', 'lodkit', ...args], context);
  return { code, text };
}

const p = (name: string): string => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lodkit-files-'));
  const document = new Document();
  document.createBuffer();
  document.createScene().addChild(document.createNode('Ball').setMesh(addMesh(document, 'ball', uvSphere(1, 24, 12))));
  ball = await lodIO().writeBinary(document);
});
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

describe('lodkit gltf lod: outputs', () => {
  it('refuses OUT = IN without --force (the input stays byte for byte), and replaces it with --force', async () => {
    writeFileSync(p('self.glb'), ball);
    const refused = await cli(['gltf', 'lod', p('self.glb'), p('self.glb')]);
    expect(refused.code).toBe(2);
    expect(refused.text).toMatch(/OUT self\.glb is the input file; refusing to replace it \(pass --force/);
    expect(Buffer.compare(readFileSync(p('self.glb')), Buffer.from(ball))).toBe(0);
    const forced = await cli(['gltf', 'lod', p('self.glb'), p('self.glb'), '--force', '--levels', '3']);
    expect(forced.code, forced.text).toBe(0);
    expect(readFileSync(p('self.glb')).includes('MSFT_lod')).toBe(true);
  });

  it('refuses an existing OUT without --force', async () => {
    writeFileSync(p('in.glb'), ball);
    writeFileSync(p('exists.glb'), 'keep me');
    const r = await cli(['gltf', 'lod', p('in.glb'), p('exists.glb')]);
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/already exists; refusing to replace it \(pass --force/);
    expect(readFileSync(p('exists.glb'), 'utf8')).toBe('keep me');
  });

  it('.gltf output: an existing .bin beside OUT is refused before anything is written', async () => {
    writeFileSync(p('in2.glb'), ball);
    writeFileSync(p('pair.bin'), 'keep me too');
    const r = await cli(['gltf', 'lod', p('in2.glb'), p('pair.gltf')]);
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/pair\.bin already exists/);
    expect(existsSync(p('pair.gltf'))).toBe(false);
    expect(readFileSync(p('pair.bin'), 'utf8')).toBe('keep me too');
    const ok = await cli(['gltf', 'lod', p('in2.glb'), p('fresh.gltf')]);
    expect(ok.code, ok.text).toBe(0);
    expect(JSON.parse(readFileSync(p('fresh.gltf'), 'utf8')).buffers[0].uri).toBe('fresh.bin');
    expect(existsSync(p('fresh.bin'))).toBe(true);
  });

  it('says why nothing was generated for a file whose meshes already have MSFT_lod', async () => {
    writeFileSync(p('rock.glb'), await glbBytes(rockDocument()));
    const r = await cli(['gltf', 'lod', p('rock.glb'), p('rock-again.glb')]);
    expect(r.code, r.text).toBe(0);
    expect(r.text).toMatch(/0 LOD groups/);
    expect(r.text).toMatch(/already in an MSFT_lod group \(1 group\)/);
  });
});

describe('lodkit simulate: outputs', () => {
  it('--save-scene onto the input scene is refused without --force; the scene stays', async () => {
    const text = `${JSON.stringify(tinyStaticScene())}\n`;
    writeFileSync(p('scene.json'), text);
    const r = await cli(['simulate', 'scene.json', '--save-scene', 'scene.json', '--json']);
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/--save-scene scene\.json is the input file/);
    expect(readFileSync(p('scene.json'), 'utf8')).toBe(text);
  });

  it('--out into a folder with a report: refused without --force (both files kept), replaced with it', async () => {
    mkdirSync(p('report'));
    writeFileSync(p('report/index.html'), 'old report');
    const r = await cli(['simulate', '--frames', '5', '--out', 'report']);
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/--out .*index\.html already exists; refusing to replace it \(pass --force/);
    expect(readFileSync(p('report/index.html'), 'utf8')).toBe('old report');
    expect(existsSync(p('report/result.json'))).toBe(false);
    const forced = await cli(['simulate', '--frames', '5', '--out', 'report', '--force']);
    expect(forced.code, forced.text).toBe(0);
    expect(readFileSync(p('report/index.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    expect(readdirSync(p('report')).sort()).toEqual(['index.html', 'result.json']);
  });

  it('--out under a regular file fails at once naming it', async () => {
    writeFileSync(p('plain.txt'), 'x');
    const r = await cli(['simulate', '--frames', '5', '--out', 'plain.txt/report']);
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/cannot create --out folder .*plain\.txt\/report: .*plain\.txt is not a folder/);
  });

  // (the old code never returned: a hang fails by the test's time-out, no clock is read here)
  it.runIf(process.platform === 'linux')('--out /proc/x fails at once with the mkdir error instead of spinning', async () => {
    const r = await cli(['simulate', '--frames', '5', '--out', '/proc/lodkit-x/report']);
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/cannot create --out folder \/proc\/lodkit-x\/report: mkdir \/proc\/lodkit-x failed \(ENOENT\)/);
  }, 30_000);
});
