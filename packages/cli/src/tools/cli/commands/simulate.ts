/**
 * `lodkit simulate [scene.json | --scenario NAME]`: replays a camera path through every policy and
 * prints the comparison table; `--json` prints the result document instead, `--out DIR` writes the
 * HTML report.
 *
 * `--json` output is deterministic (two runs print identical bytes): measured selection times are
 * left out unless `--timings` is given, which adds a top-level `timings` object (non-deterministic).
 *
 * Contributor notes:
 * - The progress bar goes to stderr, and only when stderr is a terminal and `--json` is off, so
 *   piped or machine-read output never contains control characters.
 * - All option checks happen before the (possibly long) simulation starts.
 * - A scene argument ending in `.glb`/`.gltf` is a glTF file: its `MSFT_lod` groups become a scene
 *   through `sceneFromGltf`, which loads the optional `@gltf-transform/core` peer only then.
 *   Unreadable or invalid files (`GltfReadError`, `GltfLodError`, `GltfSceneError`, matched by
 *   name so this module never imports the glTF adapter) exit 2 like an invalid scene file.
 *
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { kernelsReady } from 'lodkit';
import cliProgress from 'cli-progress';
import { parseSceneText, type Scene, type SceneInput } from '../../../simulator/sceneFormat.js';
import { sceneFromGltf } from '../../../simulator/gltfScene.js';
import { BUILT_IN_SCENARIOS, builtInScene, builtInSceneInput } from '../../../simulator/scenarios/index.js';
import { selectPolicies, simulate } from '../../../simulator/simulate.js';
import { formatComparisonTable, formatRunHeader } from '../../../simulator/report/table.js';
import { REPORT_FILE, REPORT_JSON_FILE, reportFiles } from '../../../simulator/report/html.js';
import { checkOutput, gltfResourcePaths, makeFolder, removeFolders, writeOutputs, type OutputFile, type WriteOutputsOptions } from '../../../simulator/files.js';
import { SIMULATE_LIMITS } from '../../../simulator/limits.js';
import { processContext, UsageError, type CliContext } from '../context.js';

/** Parsed options of `lodkit simulate`. @category CLI */
export interface SimulateCommandOptions {
  scenario?: string;
  policy?: string[];
  budget?: number;
  frames?: number;
  json?: boolean;
  timings?: boolean;
  out?: string;
  saveScene?: string;
  /** glTF scenes: copies of each LOD group. */
  instances?: number;
  /** glTF scenes: coverage as a fraction of the screen area or height. */
  coverage?: 'area' | 'height';
  /** glTF scenes: drop invalid MSFT_lod data with a warning. */
  lenient?: boolean;
  progress?: boolean;
  debug?: boolean;
  /** Replace existing output files (`--out`'s index.html/result.json, `--save-scene`). */
  force?: boolean;
  /** glTF scenes: read resources outside the file's folder. */
  allowOutsideResources?: boolean;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!(Number.isFinite(n) && n > 0)) throw new InvalidArgumentError('expected a positive number.');
  return n;
}

function positiveInteger(max: number): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (!(Number.isInteger(n) && n > 0)) throw new InvalidArgumentError('expected a positive integer.');
    if (n > max) throw new InvalidArgumentError(`expected at most ${max} (the documented ceiling, docs/simulate.md "Limits").`);
    return n;
  };
}

/** Reads a scene file: size ceiling first, then strict UTF-8 (a stray byte is an error, not U+FFFD). */
function readSceneFile(path: string, file: string): string {
  let bytes: Buffer;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new UsageError(`cannot read scene file ${file}: not a regular file`);
    if (info.size > SIMULATE_LIMITS.sceneFileBytes) {
      throw new UsageError(`scene file ${file} has ${info.size} bytes, more than the limit of ${SIMULATE_LIMITS.sceneFileBytes} (SIMULATE_LIMITS.sceneFileBytes)`);
    }
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read scene file ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`invalid ${file}:\n  (root): expected UTF-8 JSON, the file has bytes that are not UTF-8`);
  }
}

function collectPolicies(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((s) => s.trim()).filter(Boolean)];
}

/** True for a scene argument naming a glTF file (`.glb` / `.gltf`, any case). */
function isGltfFile(file: string): boolean {
  return /\.(glb|gltf)$/i.test(file);
}

/** Errors of an unreadable, invalid or unsimulatable glTF file: bad input, exit code 2. */
const GLTF_INPUT_ERRORS = new Set(['GltfReadError', 'GltfLodError', 'GltfSceneError']);

interface LoadedScene {
  scene: Scene;
  /** What `--save-scene` writes. */
  input: SceneInput | Scene;
}

async function loadScene(file: string | undefined, options: SimulateCommandOptions, context: CliContext, cwd: string): Promise<LoadedScene> {
  const { scenario } = options;
  if (file !== undefined && scenario !== undefined) throw new UsageError('give a scene file or --scenario, not both');
  const gltf = file !== undefined && isGltfFile(file);
  if (!gltf) {
    const flag = options.instances !== undefined ? '--instances' : options.coverage !== undefined ? '--coverage' : options.lenient ? '--lenient' : undefined;
    if (flag) throw new UsageError(`${flag} applies only to a glTF scene (a .glb or .gltf file)`);
  }
  if (file === undefined) {
    const name = scenario ?? BUILT_IN_SCENARIOS[0];
    return { scene: builtInScene(name), input: builtInSceneInput(name) };
  }
  if (gltf) {
    try {
      const { scene, input, warnings } = await sceneFromGltf(resolve(cwd, file), {
        name: basename(file),
        ...(options.instances !== undefined ? { instances: options.instances } : {}),
        ...(options.coverage !== undefined ? { coverage: options.coverage } : {}),
        ...(options.lenient ? { lenient: true } : {}),
        ...(options.allowOutsideResources ? { allowOutsideResources: true } : {}),
      });
      for (const warning of warnings) context.stderr.write(`lodkit: warning: ${file}: ${warning}\n`);
      return { scene, input };
    } catch (error) {
      if (error instanceof Error && GLTF_INPUT_ERRORS.has(error.name)) {
        throw new UsageError(`cannot simulate ${file}: ${error.name}: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }
  const text = readSceneFile(resolve(cwd, file), file);
  const scene = parseSceneText(text, file);
  return { scene, input: scene };
}

/**
 * Runs `lodkit simulate` with parsed arguments (what the commander action calls). `output` is
 * `@internal`: tests pass `onStep` (see `WriteOutputsOptions`) to fail the run between two files.
 * @example
 * ```ts
 * await runSimulateCommand(undefined, { scenario: 'motogp', json: true }, processContext());
 * await runSimulateCommand('tree.glb', { instances: 50 }, processContext());
 * ```
 * @category CLI
 */
export async function runSimulateCommand(file: string | undefined, options: SimulateCommandOptions, context: CliContext, output: Pick<WriteOutputsOptions, 'onStep'> = {}): Promise<void> {
  const cwd = context.cwd ?? process.cwd();
  if (file === undefined && options.allowOutsideResources) throw new UsageError('--allow-outside-resources applies only to a glTF scene (a .glb or .gltf file)');
  // Outputs first: a refusal (existing file, the input or one of its resources, an impossible
  // folder) costs nothing. The --out folder is made now (an impossible path fails at once) and
  // removed again if the command fails: nothing new is left.
  const inputs = file !== undefined ? [resolve(cwd, file)] : [];
  const resources = file !== undefined && isGltfFile(file) ? gltfResourcePaths(resolve(cwd, file), file) : [];
  const force = options.force === true;
  if (options.saveScene) checkOutput(resolve(cwd, options.saveScene), { inputs, resources, force, label: '--save-scene' });
  let made: string[] = [];
  if (options.out) {
    const dir = resolve(cwd, options.out);
    for (const name of [REPORT_FILE, REPORT_JSON_FILE]) checkOutput(join(dir, name), { inputs, resources, force, label: '--out' });
    made = makeFolder(dir, '--out folder');
  }
  try {
    await simulateAndWrite(file, options, context, cwd, { inputs, resources, force, ...output });
  } catch (error) {
    removeFolders(made);
    throw error;
  }
}

async function simulateAndWrite(file: string | undefined, options: SimulateCommandOptions, context: CliContext, cwd: string, output: WriteOutputsOptions): Promise<void> {
  const { scene, input } = await loadScene(file, options, context, cwd);
  const policies = options.policy ?? [];
  selectPolicies(scene, policies); // unknown names → RangeError (exit 2) before any work
  const showProgress = options.progress !== false && !options.json && context.stderr.isTTY === true;
  let bar: cliProgress.SingleBar | undefined;
  if (showProgress) {
    bar = new cliProgress.SingleBar(
      { stream: context.stderr as NodeJS.WritableStream, format: `${scene.name} [{bar}] {percentage}% | frame {value}/{total}`, clearOnComplete: true, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
  }
  let started = false;
  await kernelsReady(); // lodkit's WebAssembly kernels (compiled asynchronously) time the frames, not its JavaScript fallback
  const { result, timings } = simulate(scene, {
    policies,
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.frames !== undefined ? { frames: options.frames } : {}),
    onProgress: bar
      ? (done, total) => {
        if (!started) { bar!.start(total, 0); started = true; }
        bar!.update(done);
      }
      : undefined,
  });
  if (bar && started) bar.stop();
  // Every file of the run at once, all or nothing (files.ts), the report's index.html last.
  const files: OutputFile[] = [];
  if (options.saveScene) files.push({ path: resolve(cwd, options.saveScene), data: `${JSON.stringify(input)}\n`, label: '--save-scene' });
  if (options.out) files.push(...reportFiles(resolve(cwd, options.out), result, timings).map((f) => ({ ...f, label: '--out' })));
  if (files.length > 0) writeOutputs(files, output);
  const reportPath = options.out ? files[files.length - 1].path : undefined;
  if (options.json) {
    const document = options.timings ? { ...result, timings } : result;
    // Two writes: `${json}\n` would copy a string of up to SIMULATE_LIMITS.outputChars once more.
    context.stdout.write(JSON.stringify(document));
    context.stdout.write('\n');
    if (reportPath) context.stderr.write(`report written to ${reportPath}\n`);
    return;
  }
  context.stdout.write(`${formatRunHeader(result)}\n\n${formatComparisonTable(result, timings)}\n`);
  if (reportPath) context.stdout.write(`\nreport written to ${reportPath}\n`);
}

/**
 * Registers `simulate` on a commander program.
 * @example
 * ```ts
 * const program = new Command('lodkit');
 * registerSimulateCommand(program);
 * ```
 * @category CLI
 */
export function registerSimulateCommand(program: Command, context: CliContext = processContext()): Command {
  return program
    .command('simulate')
    .description('Replay a camera path, run every LOD policy on every frame, and compare triangles, quality loss and pops.')
    .argument('[scene]', 'scene file (JSON, format "lodkit-scene"), or a .glb/.gltf file whose MSFT_lod groups are instanced; default: the built-in scenario')
    .addOption(new Option('-s, --scenario <name>', `built-in scenario (default ${BUILT_IN_SCENARIOS[0]} when no scene file)`).choices([...BUILT_IN_SCENARIOS]))
    .option('-p, --policy <names>', 'only these policies, by name or kind (thresholds, rankQuota, budget, hybrid); comma-separated or repeated', collectPolicies)
    .option('-b, --budget <triangles>', 'triangle budget for budget/hybrid policies and the budget line (overrides the scene; frameMs policies keep their target)', positiveNumber)
    .option('-f, --frames <n>', `number of frames, spread evenly over the scene duration (at most ${SIMULATE_LIMITS.frames})`, positiveInteger(SIMULATE_LIMITS.frames))
    .option('--json', 'print the result as one JSON document (deterministic; see docs/simulate.md) instead of the table')
    .option('--timings', 'with --json: add the measured selection times (non-deterministic)')
    .option('-o, --out <dir>', 'write a self-contained HTML report (index.html) and result.json into this directory')
    .option('--save-scene <file>', 'also write the scene (e.g. a built-in scenario or the one made from a glTF file) as a scene file to edit')
    .option('-n, --instances <n>', `glTF scene: copies of each LOD group (default 20, at most ${SIMULATE_LIMITS.instances})`, positiveInteger(SIMULATE_LIMITS.instances))
    .addOption(new Option('--coverage <measure>', 'glTF scene: MSFT_screencoverage is a fraction of the screen area (default) or height').choices(['area', 'height']))
    .option('--lenient', 'glTF scene: drop invalid MSFT_lod data with a warning instead of failing')
    .option('--allow-outside-resources', "glTF scene: read buffers/images outside the file's folder (absolute, ../, file:, hard links); off by default so a model from others cannot read your files")
    .option('--force', 'replace existing output files (--out\'s index.html and result.json, --save-scene)')
    .option('--no-progress', 'no progress bar')
    .option('--debug', 'print stack traces for errors')
    .addHelpText('after', `
Built-in scenarios: ${BUILT_IN_SCENARIOS.join(', ')}.
Exit codes: 0 success, 2 bad usage or invalid scene, 1 other failure.

Examples:
  lodkit simulate                                  # motogp, table
  lodkit simulate --scenario flightsim --out report
  lodkit simulate my-scene.json --policy budget,hybrid --budget 250000 --json
  lodkit simulate model.glb --instances 50 --out report   # your own MSFT_lod groups (docs/simulate.md)`)
    .action(async (file: string | undefined, options: SimulateCommandOptions) => {
      await runSimulateCommand(file, options, context);
    });
}
