/**
 * `lodkit gltf lod IN OUT`: generate error-driven LOD chains for every mesh of a glTF/GLB file and
 * write them as `MSFT_lod` + `MSFT_screencoverage`, printing a table of levels.
 *
 * Contributor notes:
 * - Output goes through the command's `configureOutput()` writers, so the main program (and tests)
 *   can capture it; errors go through `command.error()`, which honours `exitOverride()`.
 * - Exit codes: 0 success; 2 bad usage (an option out of range, an output that is not .glb/.gltf,
 *   an output that exists or is the input, without `--force`) and invalid input (unreadable file,
 *   a resource outside IN's folder, a limit exceeded, invalid MSFT_lod in strict mode); 1 for
 *   anything unexpected. Messages never carry a stack unless `--debug` is given.
 * - Files: IN's resources are read only from inside IN's folder unless `--allow-outside-resources`
 *   (`readGltfDocument`); OUT is checked before IN is read. OUT and its resources are written all
 *   or nothing (`writeOutputs`: a temporary folder beside OUT, renamed in with OUT last), and none
 *   may replace a resource IN refers to, even with `--force`.
 * - Nothing glTF is imported until the command runs (see `loadGltfModules`), so registering the
 *   command costs the main program nothing and works without the optional peer dependencies.
 * - The progress bar (cli-progress, on stderr) appears only on a TTY and only for inputs above
 *   {@link PROGRESS_MIN_TRIANGLES} triangles: small files finish before a bar is readable.
 *
 * @module
 */
import { basename, dirname, extname, isAbsolute, relative, resolve } from 'node:path';
import type { Document, Format, ILogger, Logger, NodeIO } from '@gltf-transform/core';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { GeneratedLodChain, LodCoverage } from 'lodkit/gltf';
import { checkOutput, gltfResourcePaths, OutputError, writeOutputs, type InputResource, type OutputFile, type WriteOutputsOptions } from '../../../simulator/files.js';
import { previewHtml } from './gltfPreview.js';

/**
 * The glTF modules, imported when the command runs: `@gltf-transform/core` and `meshoptimizer`
 * are optional peer dependencies, and the rest of the CLI must start without them.
 */
async function loadGltfModules() {
  try {
    const [core, gltf] = await Promise.all([import('@gltf-transform/core'), import('lodkit/gltf')]);
    return { NodeIO: core.NodeIO, ...gltf };
  } catch (error) {
    throw new Error(`lodkit gltf needs the optional peer dependencies @gltf-transform/core and meshoptimizer (npm install @gltf-transform/core meshoptimizer): ${(error as Error).message}`);
  }
}

/** Inputs with more triangles than this show a progress bar on a TTY. @category CLI */
export const PROGRESS_MIN_TRIANGLES = 200_000;

interface LodCommandOptions {
  levels: string;
  ratio?: string;
  switchPx: string;
  preview?: string;
  maxErrorPx: string;
  viewport: string;
  aspect: string;
  coverage: string;
  cullBelowPx?: string;
  error: string;
  lenient?: boolean;
  json?: boolean;
  debug?: boolean;
  force?: boolean;
  allowOutsideResources?: boolean;
}

/** `--switch-px` when `--ratio` is not given: level 1 takes over at about 400 px across, the last at about 75 px. @category CLI */
export const DEFAULT_SWITCH_PX = '400,75';
/** On-screen diameters (px) at which the printed summary says which level is drawn. @category CLI */
export const SAMPLE_SIZES_PX = [50, 75, 100, 150, 200, 300, 400, 600, 800];

/** The legend printed under the table (docs/gltf.md repeats it). @category CLI */
export function tableLegend(coverage: LodCoverage, maxErrorPx: number, viewportHeight: number): string {
  return [
    'legend: triangles = the level\'s triangle count; error = its largest deviation from level 0 in the model\'s units',
    `  (max of meshoptimizer's estimate and the measured deviation); threshold (${coverage}) = the MSFT_screencoverage value written:`,
    `  the level is drawn while the object covers at most this ${coverage === 'area' ? 'fraction of the screen area' : 'fraction of the screen height'};`,
    `  threshold px = the same switch as the bounding sphere's diameter in pixels on a ${viewportHeight}-px-tall viewport, = 2·radius·${maxErrorPx}/error:`,
    `  below it the level's error covers at most ${maxErrorPx} px. Level 0 is drawn above level 1's size; the last level down to 0 (or the cull size).`,
  ].join('\n') + '\n';
}

/** The level drawn when the object is `px` pixels across: the finest level whose switch size is ≥ px; -1 when culled. @internal */
export function levelAtSize(chain: GeneratedLodChain, px: number, viewportHeight: number, coverage: LodCoverage, aspect: number): number {
  const cullPx = chain.cullBelow > 0 ? (coverage === 'area' ? Math.sqrt((4 * aspect * chain.cullBelow) / Math.PI) : chain.cullBelow) * viewportHeight : 0;
  if (px < cullPx) return -1;
  let level = 0;
  for (let k = 1; k < chain.levels.length; k++) if (chain.levels[k].thresholdPx >= px) level = k;
  return level;
}

/** A usage or input problem: exit code 2. */
class UsageError extends Error {}

function parseNumber(text: string, flag: string): number {
  const fraction = /^\s*([0-9.eE+-]+)\s*\/\s*([0-9.eE+-]+)\s*$/.exec(text);
  const value = fraction ? Number(fraction[1]) / Number(fraction[2]) : Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${flag} must be a number, got '${text}'`);
  return value;
}

function formatTable(chains: GeneratedLodChain[], coverage: LodCoverage): string {
  const header = ['node', 'level', 'triangles', 'error', `threshold (${coverage})`, 'threshold px'];
  const rows: string[][] = [];
  for (const chain of chains) {
    for (const level of chain.levels) {
      rows.push([
        level.level === 0 ? chain.name : '',
        String(level.level),
        String(level.triangles),
        level.level === 0 ? '0' : level.error.toPrecision(4),
        level.level === 0 ? '—' : level.threshold.toPrecision(4),
        level.level === 0 ? '—' : level.thresholdPx.toFixed(1),
      ]);
    }
    if (chain.cullBelow > 0) rows.push(['', 'cull', '0', '—', chain.cullBelow.toPrecision(4), '—']);
  }
  // A loop, not Math.max(...rows): spreading tens of thousands of rows overflows the call stack.
  const widths = header.map((h, c) => rows.reduce((w, r) => Math.max(w, r[c].length), h.length));
  const line = (cells: string[]): string => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n';
}

async function runLod(input: string, output: string, options: LodCommandOptions, command: Command, seam: Pick<WriteOutputsOptions, 'onStep'>): Promise<void> {
  const { NodeIO, MSFTLod, readGltfDocument, readLodGroups, generateLodChain, resolveGenerateOptions, meshTriangleCount } = await loadGltfModules();
  const out = command.configureOutput();
  const writeOut = (text: string): void => { if (out.writeOut) out.writeOut(text); else process.stdout.write(text); };
  const writeErr = (text: string): void => { if (out.writeErr) out.writeErr(text); else process.stderr.write(text); };

  const outExt = extname(output).toLowerCase();
  if (outExt !== '.glb' && outExt !== '.gltf') throw new UsageError(`OUT must end in .glb or .gltf, got '${basename(output)}'`);
  const coverage = options.coverage as LodCoverage;
  if (coverage !== 'area' && coverage !== 'height') throw new UsageError(`--coverage must be 'area' or 'height', got '${options.coverage}'`);
  if (options.error !== 'measured' && options.error !== 'estimate') throw new UsageError(`--error must be 'measured' or 'estimate', got '${options.error}'`);
  let generateOptions;
  let chainShape: { ratio: number } | { switchPx: { largest: number; smallest: number } };
  if (options.ratio !== undefined) {
    chainShape = { ratio: parseNumber(options.ratio, '--ratio') };
  } else {
    const parts = options.switchPx.split(',');
    if (parts.length !== 2) throw new UsageError(`--switch-px must be LARGEST,SMALLEST (pixels, e.g. ${DEFAULT_SWITCH_PX}), got '${options.switchPx}'`);
    chainShape = { switchPx: { largest: parseNumber(parts[0], '--switch-px'), smallest: parseNumber(parts[1], '--switch-px') } };
  }
  const preview = options.preview;
  if (preview !== undefined && !/\.html?$/i.test(preview)) throw new UsageError(`--preview must end in .html, got '${basename(preview)}'`);
  try {
    generateOptions = resolveGenerateOptions({
      levels: parseNumber(options.levels, '--levels'),
      ...chainShape,
      maxErrorPx: parseNumber(options.maxErrorPx, '--max-error-px'),
      viewportHeight: parseNumber(options.viewport, '--viewport'),
      aspect: parseNumber(options.aspect, '--aspect'),
      coverage,
      error: options.error,
      ...(options.cullBelowPx !== undefined ? { cullBelowPx: parseNumber(options.cullBelowPx, '--cull-below-px') } : {}),
    });
  } catch (error) {
    if (error instanceof RangeError) {
      throw new UsageError(error.message.replace(/^generateLodChain: /, '')
        .replace(/^levels/, '--levels').replace(/^ratio/, '--ratio').replace(/^maxErrorPx/, '--max-error-px')
        .replace(/^viewportHeight/, '--viewport').replace(/^aspect/, '--aspect').replace(/^cullBelowPx/, '--cull-below-px')
        .replace(/^switchPx\.(largest|smallest)/, '--switch-px ($1)'));
    }
    throw error;
  }

  // The output is checked before anything is read: never the input, never an existing file unless --force.
  const force = options.force === true;
  const resources = gltfResourcePaths(input, 'IN');
  checkOutput(output, { inputs: [input], resources, force, label: 'OUT' });
  if (preview !== undefined) {
    if (resolve(preview) === resolve(output)) throw new UsageError('--preview must not be OUT');
    checkOutput(preview, { inputs: [input], resources, force, label: '--preview' });
  }

  const { document, messages } = await readGltfDocument(input, { allowOutsideResources: options.allowOutsideResources === true });
  for (const message of messages) writeErr(`warning: ${message}\n`);
  const { warnings, groups: existingGroups } = readLodGroups(document, { lenient: options.lenient === true, coverage });
  for (const warning of warnings) writeErr(`warning: ${warning.message}\n`);

  // Mesh nodes that may get a chain (not a level of a group, not a group): to say which got none.
  const grouped = new Set<unknown>(existingGroups.flatMap((g) => g.levels.map((l) => l.node)));
  const candidates = document.getRoot().listNodes().filter((n) => n.getMesh() != null && !grouped.has(n) && n.getExtension('MSFT_lod') == null);
  let totalTriangles = 0;
  for (const mesh of document.getRoot().listMeshes()) totalTriangles += meshTriangleCount(mesh);
  const showBar = process.stderr.isTTY === true && totalTriangles >= PROGRESS_MIN_TRIANGLES && !options.json;
  const bar = showBar ? new SingleBar({ format: 'simplifying [{bar}] {value}/{total} meshes', stream: process.stderr, hideCursor: true }) : null;
  let started = false;
  let chains: GeneratedLodChain[];
  try {
    chains = await generateLodChain(document, {
      ...generateOptions,
      onProgress: (done, total) => {
        if (!bar) return;
        if (!started) { bar.start(total, 0); started = true; }
        bar.update(done);
      },
    });
  } finally {
    if (bar && started) bar.stop();
  }

  const writerLogger: ILogger = { debug() {}, info() {}, warn: (t: string) => writeErr(`warning: ${t}\n`), error: (t: string) => writeErr(`warning: ${t}\n`) };
  const io = new NodeIO().registerExtensions([MSFTLod]).setLogger(writerLogger as unknown as Logger);
  const extra: OutputFile[] = preview === undefined ? [] : [{
    path: preview, label: '--preview',
    data: previewHtml(chains, { coverage, viewportHeight: generateOptions.viewportHeight, maxErrorPx: generateOptions.maxErrorPx, title: `lodkit gltf lod: ${basename(input)}` }),
  }];
  await writeDocument(io, document, output, { inputs: [input], resources, force, ...seam }, extra);

  if (options.json) {
    writeOut(JSON.stringify(chains.map((c) => ({
      node: c.name,
      boundingRadius: c.boundingSphere.radius,
      coverage: c.coverage,
      levels: c.levels.map((l) => ({
        level: l.level, triangles: l.triangles, error: l.error,
        threshold: Number.isFinite(l.threshold) ? l.threshold : null, thresholdPx: Number.isFinite(l.thresholdPx) ? l.thresholdPx : null,
      })),
      ...(c.stoppedEarly ? { stoppedEarly: c.stoppedEarly } : {}),
    })), null, 2) + '\n');
  } else {
    writeOut(formatTable(chains, coverage));
    if (chains.length > 0) writeOut(tableLegend(coverage, generateOptions.maxErrorPx, generateOptions.viewportHeight));
    for (const chain of chains.slice(0, 20)) {
      const at = SAMPLE_SIZES_PX.map((px) => {
        const level = levelAtSize(chain, px, generateOptions.viewportHeight, coverage, generateOptions.aspect);
        return `${px}→${level < 0 ? 'culled' : level}`;
      });
      writeOut(`${chain.name}: level drawn at px across (${generateOptions.viewportHeight}-px viewport): ${at.join(' ')}\n`);
    }
    const newLevels = chains.reduce((n, c) => n + c.levels.length - 1, 0);
    writeOut(`wrote ${basename(output)}: ${chains.length} LOD group${chains.length === 1 ? '' : 's'}, ${newLevels} new level${newLevels === 1 ? '' : 's'}; thresholds keep each level's error ≤ ${generateOptions.maxErrorPx} px at ${generateOptions.viewportHeight} px viewport height (on the view axis; off-axis objects look larger, see docs/gltf.md)${preview !== undefined ? `; preview in ${basename(preview)}` : ''}\n`);
  }
  const chained = new Set<unknown>(chains.map((c) => c.node));
  const unchained = candidates.filter((n) => !chained.has(n));
  if (unchained.length > 0) {
    const names = unchained.slice(0, 3).map((n) => `"${n.getName() || n.getMesh()!.getName()}"`).join(', ');
    writeErr(`note: ${unchained.length} mesh node${unchained.length === 1 ? '' : 's'} (${names}${unchained.length > 3 ? ', …' : ''}) got no levels: no simplification lost 5 % of the triangles while its error stayed under ${generateOptions.maxErrorPx} px at the switch sizes (a small mesh needs no LOD there; try a smaller --switch-px or a larger --max-error-px)\n`);
  }
  if (chains.length === 0 && unchained.length === 0) {
    const meshNodes = document.getRoot().listNodes().filter((n) => n.getMesh() != null).length;
    writeErr(meshNodes === 0
      ? `note: ${basename(input)} has no nodes with a mesh; nothing to simplify\n`
      : `note: every mesh node of ${basename(input)} is already in an MSFT_lod group (${existingGroups.length} group${existingGroups.length === 1 ? '' : 's'}); lodkit gltf lod adds chains only to meshes without one (remove the existing MSFT_lod to regenerate)\n`);
  }
  for (const chain of chains) {
    if (chain.stoppedEarly) writeErr(`note: ${chain.name}: ${chain.stoppedEarly}\n`);
    if (chain.neverDrawn) writeErr(`note: ${chain.name}: dropped ${chain.neverDrawn} level${chain.neverDrawn === 1 ? '' : 's'} that would never be drawn (error under ${generateOptions.maxErrorPx} px even at full screen)\n`);
  }
}

/**
 * Writes the document as OUT: a `.glb` is one file; a `.gltf` is its JSON plus its resources,
 * named after OUT (`out.bin`, `out_texture0.png`, …), each checked (inside OUT's folder, not an input
 * resource, not an existing file or the input unless `--force`) before the first byte is written,
 * and all written through one temporary folder with the JSON renamed in last.
 */
async function writeDocument(io: NodeIO, document: Document, output: string, options: WriteOutputsOptions & { resources: InputResource[] }, extra: OutputFile[] = []): Promise<void> {
  try {
    if (extname(output).toLowerCase() === '.glb') {
      writeOutputs([...extra, { path: output, data: await io.writeBinary(document) }], { ...options, label: 'OUT' });
      return;
    }
    const base = basename(output, extname(output));
    // Resources are named after OUT, not kept under IN's URIs: kept, OUT's buffer landed on IN's
    // own rock.bin and an image on IN's image (issue 24). One buffer → OUT.bin, several → OUT_1.bin….
    for (const buffer of document.getRoot().listBuffers()) buffer.setURI('');
    document.getRoot().listTextures().forEach((texture, i) => {
      const mime = texture.getMimeType();
      texture.setURI(`${base}_texture${i}.${mime === 'image/jpeg' ? 'jpg' : mime.replace(/^image\//, '') || 'bin'}`);
    });
    const { json, resources } = await io.writeJSON(document, { format: 'GLTF' as Format, basename: base });
    const folder = dirname(resolve(output));
    const files = Object.entries(resources).map(([uri, data]) => {
      const path = resolve(folder, decodeURIComponent(uri));
      const rel = relative(folder, path);
      if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new UsageError(`cannot write resource "${uri}" of OUT: it would land outside OUT's folder`);
      return { path, data, label: 'resource of OUT' };
    });
    writeOutputs([...files, ...extra, { path: output, data: `${JSON.stringify(json, null, 2)}\n`, label: 'OUT' }], { ...options, label: 'OUT' });
  } catch (error) {
    if (error instanceof UsageError || error instanceof OutputError) throw error;
    throw new UsageError(`cannot write ${basename(output)}: ${(error as Error).message}`);
  }
}

/**
 * Registers `lodkit gltf lod IN OUT` on a commander program. `seam` is `@internal`: tests pass
 * `onStep` (see `WriteOutputsOptions`) to fail the command between two output files.
 * @example
 * ```ts
 * const program = new Command('lodkit');
 * registerGltfCommand(program);
 * await program.parseAsync(['node', 'lodkit', 'gltf', 'lod', 'in.glb', 'out.glb', '--levels', '4']);
 * ```
 * @category CLI
 */
export function registerGltfCommand(program: Command, seam: Pick<WriteOutputsOptions, 'onStep'> = {}): Command {
  const gltf = program.command('gltf').description('glTF level-of-detail tools (MSFT_lod + MSFT_screencoverage)');
  gltf.command('lod')
    .description('simplify every mesh into an LOD chain whose switching thresholds keep each level\'s error under --max-error-px pixels')
    .argument('<IN>', 'input .glb or .gltf')
    .argument('<OUT>', 'output .glb or .gltf')
    .option('--levels <n>', 'levels including the original (2–32)', '4')
    .option('--switch-px <largest,smallest>', 'on-screen diameters (px) where level 1 and the last level should take over, geometric steps between; each level keeps as few triangles as its error allows there', DEFAULT_SWITCH_PX)
    .option('--ratio <r>', 'instead of --switch-px: triangle ratio between successive levels, in (0, 1)')
    .option('--max-error-px <px>', 'largest on-screen error of a level, in pixels', '2')
    .option('--viewport <px>', 'reference viewport height in pixels', '1080')
    .option('--aspect <w/h>', 'reference aspect for area coverage, e.g. 16/9', '16/9')
    .option('--coverage <kind>', "coverage written: 'area' (Babylon.js's reading) or 'height'", 'area')
    .option('--cull-below-px <px>', 'cull the object below this diameter in pixels (default: never culled)')
    .option('--error <kind>', "'measured' (max of meshoptimizer's estimate and measured deviation) or 'estimate'", 'measured')
    .option('--lenient', 'drop invalid existing MSFT_lod values with a warning instead of failing')
    .option('--force', 'replace OUT (and its .bin/images) if it exists, even when OUT is IN')
    .option('--allow-outside-resources', "read buffers/images outside IN's folder (absolute paths, ../, file:, hard links); off by default so a model from others cannot read your files")
    .option('--json', 'print the level table as JSON')
    .option('--preview <file.html>', 'also write a self-contained HTML page drawing the levels side by side with their triangles and switch sizes')
    .option('--debug', 'print stack traces on errors')
    .action(async (input: string, output: string, options: LodCommandOptions, command: Command) => {
      try {
        await runLod(input, output, options, command, seam);
      } catch (error) {
        const e = error as Error;
        // By name: the glTF error classes live in modules loaded only when the command runs.
        const expected = e instanceof UsageError || e instanceof OutputError || e?.name === 'GltfReadError' || e?.name === 'GltfLodError';
        const detail = options.debug && e?.stack ? `\n${e.stack}` : '';
        command.error(`error: ${e?.message ?? String(error)}${detail}`, { exitCode: expected ? 2 : 1, code: expected ? 'lodkit.usage' : 'lodkit.internal' });
      }
    });
  return gltf;
}
