/**
 * The hostile-input corpus (fixtures/hostile/corpus.ts) through the real CLI entry (`main`): every
 * file must exit 2 with a message naming the field, no byte of the canary file next to the input
 * folder may appear in any output, nothing in the input folder may change, and no output file or
 * temporary file may be left behind. A positive control proves the canary check can see a leak.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/tools/cli/main.js';
import type { CliContext } from '../../src/tools/cli/context.js';
import { CANARY, writeHostileCorpus, type HostileCase } from '../fixtures/hostile/corpus.js';

let root = '';
let input = '';
let out = '';
let cases: HostileCase[] = [];
let before = new Map<string, string>();

function snapshot(dir: string, into = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) snapshot(path, into);
    else if (entry.isSymbolicLink()) into.set(relative(root, path), 'link');
    else into.set(relative(root, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
  }
  return into;
}

async function cli(args: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const context: CliContext = {
    stdout: { write: (s: string) => { text += s; return true; } },
    stderr: { write: (s: string) => { text += s; return true; } },
    cwd: input,
  };
  const code = await main(['node', 'lodkit', ...args], context);
  return { code, text };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lodkit-hostile-'));
  cases = await writeHostileCorpus(root);
  input = join(root, 'in');
  out = join(root, 'out');
  mkdirSync(out);
  before = snapshot(input);
}, 120_000);
afterAll(() => { if (root) rmSync(root, { recursive: true, force: true }); });

describe('hostile-input corpus', () => {
  it('has at least 150 files covering every family the issues list', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const names = cases.map((c) => c.file).join(' ');
    for (const family of [
      'traversal', 'absolute', 'file-url', 'truncated-', 'count', 'infinity', 'nan', 'cycle', 'out-of-range', 'latin1',
      // issue 24, round 2: data: URIs and hard links; MSFT_lod graphs; prototype keys, nesting, references,
      // index and mode checks, work limits; scene work, names and engine rules.
      'data-padding', 'data-name-base64', 'data-non-alphabet', 'data-shorter', 'data-percent', 'hardlink',
      'lod-chain-4000', 'lod-cycle-4000', 'ids-over-ceiling', 'proto-', 'json-deep', 'skin', 'camera', 'animation',
      'index-past-vertex-count', 'position-count-not-triangles', 'zero-filled', 'nodes-1m-empty', 'node-name-2m',
      'frame-records', 'histogram',
    ]) {
      expect(names, family).toContain(family);
    }
    expect(cases.filter((c) => c.kind === 'scene').length).toBeGreaterThanOrEqual(10);
  });

  it('every glTF file: `lodkit gltf lod` and `lodkit simulate` exit 2 naming the field, and write nothing', async () => {
    const failures: string[] = [];
    for (const c of cases.filter((k) => k.kind === 'gltf')) {
      const target = join(out, `${c.file}.out.glb`);
      const lod = await cli(['gltf', 'lod', join(input, c.file), target]);
      const sim = await cli(['simulate', join(input, c.file), '--frames', '3', '--json', '--no-progress']);
      for (const [name, r] of [['gltf lod', lod], ['simulate', sim]] as const) {
        if (r.code !== 2) failures.push(`${c.file} (${name}): exit ${r.code}: ${r.text.slice(0, 200)}`);
        else if (!c.field.test(r.text)) failures.push(`${c.file} (${name}): message does not name ${c.field}: ${r.text.slice(0, 300)}`);
        if (r.text.includes(CANARY)) failures.push(`${c.file} (${name}): the canary leaked into the output`);
        if (r.text.includes('\n    at ')) failures.push(`${c.file} (${name}): a stack trace without --debug`);
        if (r.text.length > 4000) failures.push(`${c.file} (${name}): ${r.text.length} characters of output (a name or list echoed whole?)`);
      }
      if (existsSync(target)) failures.push(`${c.file}: gltf lod left ${relative(root, target)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('every scene file: `lodkit simulate` exits 2 naming the field', async () => {
    const failures: string[] = [];
    for (const c of cases.filter((k) => k.kind === 'scene')) {
      const r = await cli(['simulate', c.file, '--json', '--no-progress', ...(c.args ?? [])]);
      if (r.code !== 2) failures.push(`${c.file}: exit ${r.code}: ${r.text.slice(0, 200)}`);
      else if (!c.field.test(r.text)) failures.push(`${c.file}: message does not name ${c.field}: ${r.text.slice(0, 300)}`);
      if (r.text.includes(CANARY)) failures.push(`${c.file}: the canary leaked into the output`);
      if (r.text.length > 4000) failures.push(`${c.file}: ${r.text.length} characters of output`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('nothing in the input folder changed and nothing was left in the output folder (no temporary files either)', () => {
    expect(snapshot(input)).toEqual(before);
    expect(readdirSync(out)).toEqual([]);
    expect(readdirSync(root).sort()).toEqual(['in', 'out', 'secret.txt']);
  });

  it('positive control: with --allow-outside-resources the traversing image IS read, and the canary check sees it', async () => {
    const target = join(out, 'control.glb');
    const r = await cli(['gltf', 'lod', join(input, 'traversal-image.gltf'), target, '--allow-outside-resources']);
    expect(r.code, r.text).toBe(0);
    expect(Buffer.from(readFileSync(target)).includes(CANARY)).toBe(true);
    rmSync(target);
  });

  // A reader that allocated first would crash the process or run into the test's time-out; no
  // clock is read here (a loaded machine must not turn a refusal red).
  it('a refused file is refused (checked before allocating), even when it claims 10¹² vertices', async () => {
    for (const file of ['accessor-count-1e12.glb', 'accessor-no-view-huge.glb', 'vertices-over-limit.glb', 'buffer-bytelength-1e12.glb']) {
      const r = await cli(['gltf', 'lod', join(input, file), join(out, 'never.glb')]);
      expect(r.code).toBe(2);
      expect(statSync(join(input, file)).size).toBeLessThan(64 * 1024);
    }
  }, 30_000);
});
