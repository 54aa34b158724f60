/**
 * Nothing half-written (issue 24): every output of one command goes through a temporary folder
 * and is renamed in at the end; a failure at any step — injected through the documented
 * `@internal` `onStep` seam, between two files — leaves the output folder exactly as it was. No
 * output may replace an input resource, even with --force.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlbParts } from '../../../lodkit/test/adapters/gltf/fixtures.js';
import { registerGltfCommand } from '../../src/tools/cli/commands/gltf.js';
import { runSimulateCommand } from '../../src/tools/cli/commands/simulate.js';
import { main } from '../../src/tools/cli/main.js';
import type { CliContext } from '../../src/tools/cli/context.js';
import { OutputError, writeOutputs, type WriteOutputsOptions } from '../../src/simulator/files.js';
import { rockDocument } from '../simulator/gltfFixtures.js';
import { tinyStaticScene } from '../simulator/fixtures.js';

let root = '';
let counter = 0;
beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'lodkit-atomic-')); });
afterAll(() => { if (root) rmSync(root, { recursive: true, force: true }); });

/** Every entry under `dir` (hidden ones too) with its bytes: what "exactly as before" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [k, v] of Object.entries(snapshot(path))) out[`${name}/${k}`] = v;
    else out[name] = readFileSync(path).toString('base64');
  }
  return out;
}

/** A fresh folder with the rock model as `model.gltf` + `rock.bin`. */
async function gltfFolder(): Promise<string> {
  const dir = join(root, `case-${++counter}`);
  mkdirSync(dir);
  const { json, bin } = await toGlbParts(rockDocument());
  json.buffers[0].uri = 'rock.bin';
  writeFileSync(join(dir, 'model.gltf'), JSON.stringify(json));
  writeFileSync(join(dir, 'rock.bin'), bin!);
  return dir;
}

/** Runs `lodkit gltf lod ARGS` on its own program, with `seam`; returns the exit code and messages. */
async function gltfLod(dir: string, args: string[], seam: Pick<WriteOutputsOptions, 'onStep'> = {}): Promise<{ code: number; text: string }> {
  let text = '';
  const program = new Command('lodkit').exitOverride().configureOutput({ writeOut: (s) => { text += s; }, writeErr: (s) => { text += s; } });
  registerGltfCommand(program, seam);
  const cwd = process.cwd();
  try {
    process.chdir(dir);
    await program.parseAsync(['node', 'lodkit', 'gltf', 'lod', ...args, '--levels', '2']);
    return { code: 0, text };
  } catch (error) {
    if (error instanceof CommanderError) return { code: error.exitCode, text };
    throw error;
  } finally {
    process.chdir(cwd);
  }
}

/** A seam that throws at the n-th step (0-based) of the given kind. */
function failAt(kind: 'written' | 'renamed', n: number): Pick<WriteOutputsOptions, 'onStep'> {
  let seen = 0;
  return { onStep: (step) => { if (step === kind && seen++ === n) throw new Error('injected failure'); } };
}

const STEPS = [['written', 0], ['written', 1], ['renamed', 0], ['renamed', 1]] as const;

describe('gltf lod: OUT.gltf and its .bin are written all or nothing', () => {
  it('writes both and no temporary folder when nothing fails', async () => {
    const dir = await gltfFolder();
    const { code } = await gltfLod(dir, ['model.gltf', 'out.gltf']);
    expect(code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['model.gltf', 'out.bin', 'out.gltf', 'rock.bin']);
  });

  it.each(STEPS)('a failure after %s file %i leaves the folder exactly as before (exit 2)', async (kind, n) => {
    const dir = await gltfFolder();
    const before = snapshot(dir);
    const { code, text } = await gltfLod(dir, ['model.gltf', 'out.gltf'], failAt(kind, n));
    expect(code).toBe(2);
    expect(text).toMatch(/nothing was written/);
    expect(snapshot(dir)).toEqual(before);
  });

  it.each(STEPS)('with --force over an earlier OUT: a failure after %s file %i restores the old files byte for byte', async (kind, n) => {
    const dir = await gltfFolder();
    writeFileSync(join(dir, 'out.gltf'), 'old json');
    writeFileSync(join(dir, 'out.bin'), 'old bin');
    const before = snapshot(dir);
    const { code } = await gltfLod(dir, ['model.gltf', 'out.gltf', '--force'], failAt(kind, n));
    expect(code).toBe(2);
    expect(snapshot(dir)).toEqual(before);
  });

  it('an OUT whose resource would be an input resource is refused naming it, even with --force', async () => {
    const dir = await gltfFolder();
    const before = snapshot(dir);
    // OUT rock.gltf: glTF-Transform names its buffer rock.bin, which model.gltf reads.
    for (const force of [[], ['--force']]) {
      const { code, text } = await gltfLod(dir, ['model.gltf', 'rock.gltf', ...force]);
      expect(code).toBe(2);
      expect(text).toContain('rock.bin is an input resource (buffers[0].uri = "rock.bin" of IN)');
      expect(snapshot(dir)).toEqual(before);
    }
  });
});

describe('gltf lod: OUT\'s resources are named after OUT, never after IN\'s files', () => {
  // A 1 × 1 PNG: the image bytes only travel, nothing decodes them.
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

  it('an input image tex.png stays as it was (even with --force); OUT gets out_texture0.png with the same bytes', async () => {
    const dir = await gltfFolder();
    const json = JSON.parse(readFileSync(join(dir, 'model.gltf'), 'utf8'));
    json.images = [{ uri: 'tex.png', mimeType: 'image/png' }];
    json.textures = [{ source: 0 }];
    json.materials = [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }];
    writeFileSync(join(dir, 'model.gltf'), JSON.stringify(json));
    writeFileSync(join(dir, 'tex.png'), PNG);
    const inputs = snapshot(dir);
    const { code, text } = await gltfLod(dir, ['model.gltf', 'out.gltf', '--force']);
    expect(code, text).toBe(0);
    const after = snapshot(dir);
    for (const [name, bytes] of Object.entries(inputs)) expect(after[name], name).toBe(bytes);
    expect(Object.keys(after).sort()).toEqual(['model.gltf', 'out.bin', 'out.gltf', 'out_texture0.png', 'rock.bin', 'tex.png']);
    expect(readFileSync(join(dir, 'out_texture0.png'))).toEqual(PNG);
    const out = JSON.parse(readFileSync(join(dir, 'out.gltf'), 'utf8'));
    expect(out.images[0].uri).toBe('out_texture0.png');
    expect(out.buffers[0].uri).toBe('out.bin');
  });
});

describe('simulate: --out and --save-scene are written all or nothing', () => {
  const context = (dir: string): CliContext => ({ stdout: { write: () => true }, stderr: { write: () => true }, cwd: dir });

  it.each(STEPS)('a failure after %s file %i leaves a new --out folder absent and the scene folder as before', async (kind, n) => {
    const dir = join(root, `sim-${++counter}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'scene.json'), JSON.stringify(tinyStaticScene()));
    const before = snapshot(dir);
    await expect(runSimulateCommand('scene.json', { out: 'report/today', saveScene: 'copy.json', json: true, progress: false }, context(dir), failAt(kind, n)))
      .rejects.toThrow(OutputError);
    expect(snapshot(dir)).toEqual(before);
    expect(existsSync(join(dir, 'report'))).toBe(false); // the folders it made are gone too
  });

  it('a failed simulation removes the --out folder it made', async () => {
    const dir = join(root, `sim-${++counter}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'scene.json'), JSON.stringify(tinyStaticScene({ policies: [{ name: 's', policy: 'thresholds', hysteresis: 0.5 }] })));
    await expect(runSimulateCommand('scene.json', { out: 'report', json: true, progress: false, policy: ['nope'] }, context(dir))).rejects.toThrow(/unknown policy "nope"/);
    expect(readdirSync(dir)).toEqual(['scene.json']);
  });

  it('--save-scene onto a glTF scene\'s buffer is refused naming it (exit 2), even with --force', async () => {
    const dir = await gltfFolder();
    const before = snapshot(dir);
    let text = '';
    const ctx: CliContext = { stdout: { write: (s) => { text += s; return true; } }, stderr: { write: (s) => { text += s; return true; } }, cwd: dir };
    const code = await main(['node', 'lodkit', 'simulate', 'model.gltf', '--save-scene', 'rock.bin', '--force', '--json', '--no-progress'], ctx);
    expect(code).toBe(2);
    expect(text).toContain('--save-scene rock.bin is an input resource (buffers[0].uri = "rock.bin" of model.gltf)');
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('writeOutputs', () => {
  it('refuses one path twice before writing anything', () => {
    const dir = join(root, `w-${++counter}`);
    mkdirSync(dir);
    expect(() => writeOutputs([{ path: join(dir, 'a'), data: '1' }, { path: join(dir, 'a'), data: '2' }])).toThrow(/written twice/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
