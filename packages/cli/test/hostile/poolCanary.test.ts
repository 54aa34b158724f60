/**
 * The Buffer-pool canary: `data:` URIs must never make `lodkit gltf lod` write memory that is not
 * the file's own decoded bytes. The test process first holds a recognisable secret in many small
 * `Buffer.from` allocations (slices of Node's shared 8 KB pool) and releases as many more, as a
 * server that handled uploads would have; then runs the CLI in-process on every resource case of
 * the hostile corpus (fixtures/hostile/resourceCorpus.ts), writing `.gltf` + `.bin` (a `.glb` of a
 * two-buffer document fails to write, which would hide a leak). Every case must exit 2 naming the
 * field and write nothing; no output and no message may contain the secret or the canary file.
 *
 * Whether a lax reader would have leaked the secret itself depends on where malloc put the pool,
 * so the test does not rely on it: the exit codes catch the lax reader, and the controls check
 * (a) that the scan sees the secret when a valid file carries it, and (b) byte for byte that a
 * valid text data: URI with commas (which glTF-Transform's own decoder cuts at the second comma,
 * reading the rest from the pool) arrives in the output whole.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/tools/cli/main.js';
import type { CliContext } from '../../src/tools/cli/context.js';
import type { HostileCase } from '../fixtures/hostile/corpus.js';
import { CANARY, withDataBuffer, writeResourceCorpus, type ResourceCorpusInput } from '../fixtures/hostile/resourceCorpus.js';

/** 64 fixed, random-looking bytes (SHA-512 of "lodkit pool canary"). */
const SECRET: Buffer = Buffer.from(Uint8Array.from(Buffer.from(
  '2f242501b04131c8850854364c7d021d7b4bce8c96d73d5a35a2ce2a242f55354fdf722e72c47fa0b9129e1a4ee988c56f658cceee04a9e423eee7651cb850af', 'hex')).buffer);
/** The secret in the pool for the whole file: what the process "holds". */
const held: Buffer[] = [];

let root = '';
let out = '';
let cases: HostileCase[] = [];
let input: ResourceCorpusInput;

/** Full garbage collection when V8 lets the test ask for one (released secrets become free memory). */
function collect(): void {
  try {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  } catch { /* no gc: the released buffers are simply collected later */ }
}

/** True when `bytes` contain any 16-byte run of the secret, or the canary file's text. */
function leaks(bytes: Uint8Array): boolean {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i + 16 <= SECRET.length; i++) if (haystack.includes(SECRET.subarray(i, i + 16))) return true;
  return haystack.includes(CANARY);
}

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

async function lod(file: string, target: string): Promise<{ code: number; text: string }> {
  let text = '';
  const context: CliContext = {
    stdout: { write: (s: string) => { text += s; return true; } },
    stderr: { write: (s: string) => { text += s; return true; } },
    cwd: input.dir,
  };
  const code = await main(['node', 'lodkit', 'gltf', 'lod', join(input.dir, file), target], context);
  return { code, text };
}

/** The bytes of the accessor of `count` UNSIGNED_BYTE VEC4 elements in a written `.gltf`. */
function accessorBytes(gltfPath: string, count: number): Uint8Array {
  const json = JSON.parse(readFileSync(gltfPath, 'utf8'));
  const accessor = json.accessors.find((a: { count: number; componentType: number; type: string }) => a.count === count && a.componentType === 5121 && a.type === 'VEC4');
  const view = json.bufferViews[accessor.bufferView];
  const bin = readFileSync(join(gltfPath, '..', json.buffers[view.buffer].uri));
  const start = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
  return Uint8Array.from(bin.subarray(start, start + count * 4));
}

beforeAll(async () => {
  for (let i = 0; i < 4096; i++) held.push(Buffer.from(SECRET));
  for (let round = 0; round < 4; round++) {
    let released: Buffer[] = [];
    for (let i = 0; i < 8192; i++) released.push(Buffer.from(SECRET));
    released = [];
    collect();
  }
  root = mkdtempSync(join(tmpdir(), 'lodkit-pool-canary-'));
  ({ cases, input } = await writeResourceCorpus(root));
  out = join(root, 'out');
  mkdirSync(out);
}, 120_000);
afterAll(() => { if (root) rmSync(root, { recursive: true, force: true }); });

describe('data: URIs and the Buffer pool', () => {
  it('the secret really sits in Node\'s shared Buffer pool', () => {
    expect(held[0].byteLength).toBe(64);
    expect(held[0].buffer.byteLength).toBe(Buffer.poolSize);
    expect(leaks(held[held.length - 1])).toBe(true);
  });

  it('every malicious resource file: exit 2 naming the field, nothing written, neither secret nor canary anywhere', async () => {
    expect(cases.map((c) => c.file)).toEqual(expect.arrayContaining([
      'data-padding-middle.gltf', 'data-name-base64.gltf', 'data-non-alphabet.gltf', 'data-shorter-than-bytelength.gltf',
      'data-percent-bad.gltf', 'data-percent-cut-off.gltf', 'data-image-padding.gltf', 'data-padding-middle.glb', 'hardlink-buffer.gltf',
    ]));
    const failures: string[] = [];
    for (const c of cases) {
      const folder = join(out, c.file);
      mkdirSync(folder);
      const r = await lod(c.file, join(folder, 'out.gltf'));
      if (r.code !== 2) failures.push(`${c.file}: exit ${r.code}: ${r.text.slice(0, 200)}`);
      else if (!c.field.test(r.text)) failures.push(`${c.file}: message does not name ${c.field}: ${r.text.slice(0, 300)}`);
      if (leaks(Buffer.from(r.text))) failures.push(`${c.file}: the secret or the canary is in the message`);
      for (const path of files(folder)) {
        failures.push(`${c.file}: wrote ${path.slice(folder.length + 1)}`);
        if (leaks(readFileSync(path))) failures.push(`${c.file}: the secret or the canary is in ${path.slice(folder.length + 1)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('control: a valid data: URI that carries the secret does put it in the output, and the scan finds it', async () => {
    const payload = new Uint8Array(256);
    for (let k = 0; k < 4; k++) payload.set(SECRET, k * 64);
    writeFileSync(join(input.dir, 'control-secret.gltf'), JSON.stringify(withDataBuffer(input.gltfBase, `data:application/octet-stream;base64,${Buffer.from(payload).toString('base64')}`, 256)));
    const folder = join(out, 'control-secret');
    mkdirSync(folder);
    const r = await lod('control-secret.gltf', join(folder, 'out.gltf'));
    expect(r.code, r.text).toBe(0);
    expect(files(folder).some((path) => leaks(readFileSync(path)))).toBe(true);
    expect(accessorBytes(join(folder, 'out.gltf'), 64)).toEqual(payload);
  });

  it('control: a text data: URI with commas arrives whole, byte for byte (glTF-Transform alone would cut it at the second comma)', async () => {
    const text = 'lodkit,'.repeat(400).slice(0, 2248); // 2248 ASCII bytes, commas every 7
    const expected = Uint8Array.from(text, (ch) => ch.charCodeAt(0));
    writeFileSync(join(input.dir, 'control-commas.gltf'), JSON.stringify(withDataBuffer(input.gltfBase, `data:application/octet-stream,${text}`, 2248)));
    const folder = join(out, 'control-commas');
    mkdirSync(folder);
    const r = await lod('control-commas.gltf', join(folder, 'out.gltf'));
    expect(r.code, r.text).toBe(0);
    expect(accessorBytes(join(folder, 'out.gltf'), 2248 / 4)).toEqual(expected);
    expect(files(folder).some((path) => leaks(readFileSync(path)))).toBe(false);
  });

  it('the hard-link case really is a second name of the canary file', () => {
    const link = statSync(join(input.dir, 'hardlink.bin'));
    expect([link.nlink, link.ino]).toEqual([2, statSync(input.secret).ino]);
  });
});
