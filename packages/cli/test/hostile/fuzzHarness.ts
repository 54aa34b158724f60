/**
 * The seeded fuzzer behind fuzz.test.ts (npm test) and fuzz.full.test.ts (npm run test:full):
 * fast-check mutations (fixtures/hostile/mutations.ts) of three valid files — the rock model as
 * `.gltf` (with `rock.bin`) and as `.glb`, and a small scene file — run through the real CLI entry
 * (`main`) in this process. For every input:
 * - the exit code is 0 or 2 (1 is an internal failure: a crash the reader should have turned into
 *   a named error), and an exit 2 prints no stack trace;
 * - an exit 2 leaves no output file; an exit 0's output never holds the canary (a file outside
 *   the input folder, also reachable through a symbolic and a hard link inside it);
 * - the input folder's own files never change.
 * The run count is fixed and the seed is the suite's (LODKIT_FC_SEED), so a red run replays.
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { packGlb, toGlbParts } from '../../../lodkit/test/adapters/gltf/fixtures.js';
import type { CliContext } from '../../src/tools/cli/context.js';
import { main } from '../../src/tools/cli/main.js';
import { CANARY } from '../fixtures/hostile/resourceCorpus.js';
import { applyByteEdits, applyJsonEdits, byteEdits, jsonEdits, type ByteEdit, type JsonEdit } from '../fixtures/hostile/mutations.js';
import { tinyMovingScene } from '../simulator/fixtures.js';
import { rockDocument } from '../simulator/gltfFixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** One fuzz input: which valid file is mutated, and how. */
export type FuzzInput =
  | { base: 'gltf'; edits: JsonEdit[] }
  | { base: 'glb-json'; edits: JsonEdit[] }
  | { base: 'glb-bytes'; edits: ByteEdit[] }
  | { base: 'scene'; edits: JsonEdit[] };

/** The arbitrary of fuzz inputs (JSON edits weighted over byte edits: most checks are on the JSON). */
export function fuzzInputs(): fc.Arbitrary<FuzzInput> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.record({ base: fc.constant('gltf' as const), edits: jsonEdits() }) },
    { weight: 3, arbitrary: fc.record({ base: fc.constant('glb-json' as const), edits: jsonEdits() }) },
    { weight: 1, arbitrary: fc.record({ base: fc.constant('glb-bytes' as const), edits: byteEdits() }) },
    { weight: 2, arbitrary: fc.record({ base: fc.constant('scene' as const), edits: jsonEdits() }) },
  );
}

/** Tallies of one fuzz run, for the non-vacuity check and the closing note. */
export interface FuzzTally {
  runs: number;
  exit0: number;
  exit2: number;
  commands: number;
}

/** The fuzzer's folder: `root/secret.txt` (canary), `root/in/` (bases, links, mutated files), `root/out/`. */
export class FuzzBench {
  readonly input: string;
  readonly out: string;
  readonly tally: FuzzTally = { runs: 0, exit0: 0, exit2: 0, commands: 0 };
  private gltfJson: Json = null;
  private glbJson: Json = null;
  private bin: Uint8Array = new Uint8Array(0);
  private glb: Uint8Array = new Uint8Array(0);
  private before = new Map<string, string>();

  constructor(readonly root: string) {
    this.input = join(root, 'in');
    this.out = join(root, 'out');
  }

  /** Writes the canary, the valid bases and the links; remembers the input folder's hashes. */
  async setUp(): Promise<void> {
    mkdirSync(this.input, { recursive: true });
    mkdirSync(this.out, { recursive: true });
    const secret = join(this.root, 'secret.txt');
    writeFileSync(secret, `${CANARY}\n`.repeat(4096));
    symlinkSync(secret, join(this.input, 'link.bin'));
    linkSync(secret, join(this.input, 'hardlink.bin'));
    const { json, bin } = await toGlbParts(rockDocument());
    this.glbJson = json;
    this.bin = bin!;
    this.glb = packGlb(json, this.bin);
    this.gltfJson = structuredClone(json);
    this.gltfJson.buffers[0].uri = 'rock.bin';
    writeFileSync(join(this.input, 'rock.bin'), this.bin);
    this.before = this.hashes();
  }

  private hashes(): Map<string, string> {
    const map = new Map<string, string>();
    for (const name of ['rock.bin', 'link.bin', 'hardlink.bin']) {
      map.set(name, createHash('sha256').update(readFileSync(join(this.input, name))).digest('hex'));
    }
    return map;
  }

  /** The mutated file's name and bytes. */
  private materialize(input: FuzzInput): { file: string; bytes: Uint8Array | string } {
    switch (input.base) {
      case 'gltf': return { file: 'fuzz.gltf', bytes: applyJsonEdits(this.gltfJson, input.edits) };
      case 'glb-json': return { file: 'fuzz.glb', bytes: packGlb(applyJsonEdits(this.glbJson, input.edits), this.bin) };
      case 'glb-bytes': return { file: 'fuzz.glb', bytes: applyByteEdits(this.glb, input.edits) };
      case 'scene': return { file: 'fuzz.json', bytes: applyJsonEdits(tinyMovingScene(), input.edits) };
    }
  }

  private async cli(args: string[]): Promise<{ code: number; text: string }> {
    let text = '';
    const context: CliContext = {
      stdout: { write: (s: string) => { text += s; return true; } },
      stderr: { write: (s: string) => { text += s; return true; } },
      cwd: this.input,
    };
    const code = await main(['node', 'lodkit', ...args], context);
    this.tally.commands++;
    if (code === 0) this.tally.exit0++;
    else if (code === 2) this.tally.exit2++;
    return { code, text };
  }

  /** Runs one input through the commands its kind goes to; returns the broken rules (empty: all held). */
  async check(input: FuzzInput): Promise<string[]> {
    this.tally.runs++;
    const { file, bytes } = this.materialize(input);
    const path = join(this.input, file);
    writeFileSync(path, bytes);
    const problems: string[] = [];
    const runs: [string, string[], string | null][] = input.base === 'scene'
      ? [['simulate', ['simulate', path, '--json', '--no-progress'], null]]
      : [
          ['gltf lod', ['gltf', 'lod', path, join(this.out, 'out.gltf'), '--levels', '2'], join(this.out, 'out.gltf')],
          ['simulate', ['simulate', path, '--frames', '3', '--json', '--no-progress'], null],
        ];
    for (const [name, args, output] of runs) {
      const r = await this.cli(args);
      if (r.code !== 0 && r.code !== 2) problems.push(`${name}: exit ${r.code}: ${r.text.slice(0, 400)}`);
      if (r.code !== 0 && r.text.includes('\n    at ')) problems.push(`${name}: a stack trace without --debug`);
      if (r.text.includes(CANARY)) problems.push(`${name}: the canary is in the output text`);
      for (const written of readdirSync(this.out)) {
        if (r.code !== 0) problems.push(`${name}: exit ${r.code} left ${written}`);
        else if (readFileSync(join(this.out, written)).includes(CANARY)) problems.push(`${name}: the canary is in ${written}`);
      }
      if (output !== null) rmSync(this.out, { recursive: true, force: true });
      mkdirSync(this.out, { recursive: true });
    }
    rmSync(path);
    const now = this.hashes();
    for (const [name, hash] of this.before) if (now.get(name) !== hash) problems.push(`input ${name} changed`);
    if (existsSync(join(this.input, 'out.gltf'))) problems.push('an output appeared in the input folder');
    return problems;
  }
}

/**
 * Runs `runs` fuzz inputs (the suite's fast-check seed) in a fresh folder under `root` and
 * returns the tallies; fails on the first input that breaks a rule (fast-check shrinks it and
 * prints the seed and path to replay).
 */
export async function runFuzz(root: string, runs: number): Promise<FuzzTally> {
  const bench = new FuzzBench(root);
  await bench.setUp();
  try {
    await fc.assert(fc.asyncProperty(fuzzInputs(), async (input) => {
      const problems = await bench.check(input);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    }), { numRuns: runs });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return bench.tally;
}
