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
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

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
export function makeFolder(folder: string, label = 'output folder'): void {
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
