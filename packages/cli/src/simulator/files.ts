/**
 * Writing outputs without surprises: an output never replaces an existing file (or one of the
 * command's inputs) unless the caller says `force`, goes to a temporary file in the same folder
 * first and is renamed into place (a failure leaves nothing half-written), and folders are created
 * one level at a time so an impossible path fails at once with its reason.
 *
 * Contributor notes:
 * - Node's `mkdirSync(path, { recursive: true })` loops forever under `/proc` (each `mkdir` there
 *   says ENOENT for the parent, which the recursive walk keeps re-creating): `lodkit simulate --out
 *   /proc/x` spun at 96 % CPU until killed. {@link makeFolder} walks up to the first existing
 *   ancestor itself and creates each level with a plain `mkdir`.
 * - The temporary file is created with `wx` (fails if the name exists, never follows a planted
 *   link) next to the target so the rename stays on one file system.
 * - A command with several outputs (a `.gltf` and its `.bin` and images; `--out`'s `result.json`
 *   and `index.html`, `--save-scene`) writes them all with {@link writeOutputs}: every file into a
 *   fresh temporary folder beside its target, then renamed in (the main file last); a failure at any
 *   step removes what it wrote, puts back what it replaced and removes the folders it made (issue
 *   24: a `.gltf` whose third file failed left the first two, and once the input's own image).
 * - An output may never replace an input resource (a buffer or image the reader read), not even
 *   with `force`: {@link gltfResourcePaths} lists them from the input's JSON, as the reader resolved
 *   them (lodkit's reader does not return the list).
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** An output that cannot be written; the CLI maps it to exit code 2. @category Simulator */
export class OutputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutputError';
  }
}

/** Options of {@link checkOutput} and {@link writeFileAtomic}. @category Simulator */
export interface OutputOptions {
  /** Replace an existing file (including one of `inputs`). Default false. */
  force?: boolean;
  /** Files the command reads; writing onto one of them needs `force` and is named in the message. */
  inputs?: readonly string[];
  /** How the output is called in messages (`OUT`, `--save-scene`). */
  label?: string;
  /**
   * Resources the command's inputs read (buffers, images), with how each is named in messages
   * (`buffers[0].uri = "rock.bin" of IN`): no output may replace one, even with `force`.
   */
  resources?: readonly InputResource[];
}

/** A file an input read besides itself (see {@link gltfResourcePaths}). @category Simulator */
export interface InputResource {
  /** Absolute path. */
  path: string;
  /** How it is named in messages. */
  name: string;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/**
 * Throws {@link OutputError} when writing `path` would replace an input or an existing file without
 * `force`, or when `path` is a folder. Call it for every output before any long work starts.
 * @example
 * ```ts
 * checkOutput('out.glb', { inputs: ['in.glb'], label: 'OUT' }); // throws if out.glb exists
 * ```
 * @category Simulator
 */
export function checkOutput(path: string, options: OutputOptions = {}): void {
  const label = options.label ?? 'output';
  const target = resolve(path);
  for (const resource of options.resources ?? []) {
    if (sameFile(resource.path, target)) {
      throw new OutputError(`${label} ${basename(path)} is an input resource (${resource.name}); refusing to replace it, even with --force: choose another output name or folder`);
    }
  }
  for (const input of options.inputs ?? []) {
    if (sameFile(input, target) && !options.force) {
      throw new OutputError(`${label} ${basename(path)} is the input file; refusing to replace it (pass --force to overwrite it)`);
    }
  }
  if (!existsSync(target)) return;
  if (statSync(target).isDirectory()) throw new OutputError(`${label} ${path} is a folder, expected a file name`);
  if (!options.force) throw new OutputError(`${label} ${path} already exists; refusing to replace it (pass --force to overwrite it)`);
}

/**
 * Creates `folder` and any missing parents, one level at a time; throws {@link OutputError} with
 * the reason (not a folder, permission, a virtual file system) at the first level that fails.
 * @example
 * ```ts
 * makeFolder('reports/today'); // like mkdir -p, but never spins
 * ```
 * @category Simulator
 */
export function makeFolder(folder: string, label = 'output folder'): string[] {
  const target = resolve(folder);
  const missing: string[] = [];
  let at = target;
  while (!existsSync(at)) {
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  if (existsSync(at) && !statSync(at).isDirectory()) throw new OutputError(`cannot create ${label} ${folder}: ${at} is not a folder`);
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i]);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new OutputError(`cannot create ${label} ${folder}: mkdir ${missing[i]} failed (${code})`, { cause: error });
    }
  }
  if (!statSync(target).isDirectory()) throw new OutputError(`cannot create ${label} ${folder}: it is not a folder`);
  return missing;
}

/**
 * Removes folders {@link makeFolder} created (its return value), deepest first, each only if
 * empty; never throws (it runs while another error is on its way out).
 * @example
 * ```ts
 * const made = makeFolder('report/today');
 * try { work(); } catch (e) { removeFolders(made); throw e; }
 * ```
 * @category Simulator
 */
export function removeFolders(created: readonly string[]): void {
  for (const folder of created) {
    try { rmdirSync(folder); } catch { /* not empty or already gone: keep it */ }
  }
}

/**
 * Writes `data` to `path` through a temporary file in the same folder and a rename. Checks
 * {@link checkOutput} first (so without `force` an existing file is never replaced) and creates the
 * folder with {@link makeFolder}.
 * @example
 * ```ts
 * writeFileAtomic('scene.json', text, { label: '--save-scene', inputs: ['scene-in.json'] });
 * ```
 * @category Simulator
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: OutputOptions = {}): void {
  checkOutput(path, options);
  const target = resolve(path);
  makeFolder(dirname(target), `folder of ${options.label ?? 'the output'}`);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, data, { flag: 'wx' });
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    if (error instanceof OutputError) throw error;
    throw new OutputError(`cannot write ${options.label ?? 'output'} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}

/** One output of {@link writeOutputs}. @category Simulator */
export interface OutputFile {
  path: string;
  data: string | Uint8Array;
  /** How it is called in messages; default the options' label. */
  label?: string;
}

/** Options of {@link writeOutputs}. @category Simulator */
export interface WriteOutputsOptions extends OutputOptions {
  /**
   * @internal Test seam: called after each step (a file written into the temporary folder, or
   * renamed into place); a throw there is handled like a failed write, so tests can fail a command
   * between two files.
   */
  onStep?: (step: 'written' | 'renamed', path: string) => void;
}

let tempCounter = 0;

/**
 * Writes every output of one command or none: each file is checked ({@link checkOutput}, and never
 * an input resource), written into a fresh temporary folder beside its target (same file system),
 * and renamed into place in the order given (put the main file last), an existing file (with
 * `force`) moved aside first. Any failure removes the new files, restores the replaced ones and
 * removes the temporary and newly made folders, then throws {@link OutputError}.
 * @example
 * ```ts
 * writeOutputs([{ path: 'out/model.bin', data: bin }, { path: 'out/model.gltf', data: json }], { inputs: ['in.gltf'], label: 'OUT' });
 * ```
 * @category Simulator
 */
export function writeOutputs(files: readonly OutputFile[], options: WriteOutputsOptions = {}): void {
  const targets = files.map((f) => resolve(f.path));
  for (let i = 0; i < files.length; i++) {
    checkOutput(files[i].path, { ...options, label: files[i].label ?? options.label });
    if (targets.indexOf(targets[i]) !== i) throw new OutputError(`${files[i].label ?? options.label ?? 'output'} ${files[i].path} is written twice by one command`);
  }
  const made: string[] = [];
  const temps = new Map<string, string>();
  const placed: Array<{ target: string; backup: string | null }> = [];
  try {
    for (let i = 0; i < files.length; i++) {
      const folder = dirname(targets[i]);
      made.push(...makeFolder(folder, `folder of ${files[i].label ?? options.label ?? 'the output'}`));
      let temp = temps.get(folder);
      if (temp === undefined) {
        temp = join(folder, `.lodkit-${process.pid}-${++tempCounter}-${randomBytes(4).toString('hex')}.tmp`);
        mkdirSync(temp, { mode: 0o700 }); // fails if the name exists: never a planted folder
        temps.set(folder, temp);
      }
      writeFileSync(join(temp, String(i)), files[i].data, { flag: 'wx' });
      options.onStep?.('written', targets[i]);
    }
    for (let i = 0; i < files.length; i++) {
      const temp = temps.get(dirname(targets[i]))!;
      let backup: string | null = null;
      if (existsSync(targets[i])) {
        backup = join(temp, `replaced-${i}`);
        renameSync(targets[i], backup);
      }
      placed.push({ target: targets[i], backup });
      renameSync(join(temp, String(i)), targets[i]);
      options.onStep?.('renamed', targets[i]);
    }
  } catch (error) {
    for (let k = placed.length - 1; k >= 0; k--) {
      const { target, backup } = placed[k];
      try {
        if (backup !== null) renameSync(backup, target);
        else rmSync(target, { force: true });
      } catch { /* keep undoing the rest */ }
    }
    for (const temp of temps.values()) rmSync(temp, { recursive: true, force: true });
    removeFolders(made);
    if (error instanceof OutputError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new OutputError(`cannot write ${options.label ?? 'the outputs'}: ${code}; nothing was written`, { cause: error });
  }
  for (const temp of temps.values()) rmSync(temp, { recursive: true, force: true });
}

/** Reads the JSON of a glTF file: a GLB's first chunk, or the whole `.gltf`; null when neither. */
function readGltfJson(file: string): unknown {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(20);
    const got = readSync(fd, head, 0, 20, 0);
    if (got >= 20 && head.toString('latin1', 0, 4) === 'glTF') {
      const length = head.readUInt32LE(12);
      if (head.toString('latin1', 16, 20) !== 'JSON' || length > statSync(file).size) return null;
      const chunk = Buffer.alloc(length);
      readSync(fd, chunk, 0, length, 20);
      return JSON.parse(chunk.toString('utf8'));
    }
  } finally {
    closeSync(fd);
  }
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file)));
}

/**
 * The files a glTF input refers to (`buffers[].uri`, `images[].uri`, except `data:` URIs), resolved
 * as the reader does (percent-decoded, relative to the file's folder; `file:` URLs as paths), each
 * named for messages (`buffers[0].uri = "rock.bin" of IN`). Returns [] for a file it cannot read
 * as glTF JSON (the reader has then already refused it or will).
 * @example
 * ```ts
 * checkOutput('out/rock.bin', { resources: gltfResourcePaths('in/rock.gltf', 'IN') });
 * ```
 * @category Simulator
 */
export function gltfResourcePaths(file: string, label = 'the input'): InputResource[] {
  let json: { buffers?: Array<{ uri?: unknown }>; images?: Array<{ uri?: unknown }> };
  try {
    json = readGltfJson(resolve(file)) as typeof json;
  } catch {
    return [];
  }
  if (json === null || typeof json !== 'object') return [];
  const folder = dirname(resolve(file));
  const out: InputResource[] = [];
  for (const field of ['buffers', 'images'] as const) {
    const list = json[field];
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      const uri = entry?.uri;
      if (typeof uri !== 'string' || /^data:/i.test(uri)) return;
      let path: string;
      try {
        path = /^file:/i.test(uri) ? fileURLToPath(uri) : resolve(folder, decodeURIComponent(uri));
      } catch {
        path = resolve(folder, uri);
      }
      out.push({ path, name: `${field}[${i}].uri = ${JSON.stringify(uri.length > 80 ? `${uri.slice(0, 80)}…` : uri)} of ${label}` });
    });
  }
  return out;
}
