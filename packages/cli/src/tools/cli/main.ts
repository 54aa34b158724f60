#!/usr/bin/env node
/**
 * The `lodkit` command-line tool (`bin` of the package). Sub-commands come from the
 * {@link COMMAND_REGISTRY}; run `lodkit --help` or `lodkit <command> --help`.
 *
 * Exit codes: 0 success, 2 bad usage, invalid input, a limit exceeded or an output refused (message
 * on stderr, no stack trace unless `--debug`), 1 any other failure.
 *
 * Contributor notes:
 * - `main(argv, context)` never calls `process.exit`: commander runs with `exitOverride` and its
 *   output is routed through the context, so tests call `main` in-process and read the streams.
 * - Commander reports its own usage errors (unknown option, missing argument) with exit code 1;
 *   they are mapped to 2 here so every bad-usage path exits the same way.
 *
 * @module
 */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { OutputError } from '../../simulator/files.js';
import { SceneValidationError } from '../../simulator/sceneFormat.js';
import { COMMAND_REGISTRY } from './commands/index.js';
import { EXIT, processContext, UsageError, type CliContext } from './context.js';

function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * Builds the commander program with every registered command, writing through `context`.
 * @example
 * ```ts
 * createProgram().outputHelp();
 * ```
 * @category CLI
 */
export function createProgram(context: CliContext = processContext()): Command {
  const program = new Command('lodkit')
    .description('Level-of-detail selection tools: simulate a camera path and compare LOD policies; build glTF LOD chains.')
    .version(packageVersion())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => context.stdout.write(s), writeErr: (s) => context.stderr.write(s) });
  for (const register of COMMAND_REGISTRY) register(program, context).exitOverride();
  return program;
}

/**
 * Runs the CLI with `argv` (as `process.argv`: node, script, args…) and resolves to the exit code.
 *
 * @example
 * ```ts
 * const code = await main(['node', 'lodkit', 'simulate', '--scenario', 'motogp', '--json']);
 * ```
 * @category CLI
 */
export async function main(argv: readonly string[] = process.argv, context: CliContext = processContext()): Promise<number> {
  const debug = argv.includes('--debug');
  const program = createProgram(context);
  try {
    await program.parseAsync([...argv]);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message. `--help`, `help` and `--version` exit 0; a command's
      // own internal failure is tagged 'lodkit.internal' (exit 1); everything else it reports
      // (unknown option or command, bad argument, no command at all, invalid input) is bad usage.
      if (error.exitCode === 0) return EXIT.ok;
      return error.code === 'lodkit.internal' ? EXIT.failure : EXIT.usage;
    }
    const usage = error instanceof UsageError || error instanceof SceneValidationError || error instanceof RangeError || error instanceof OutputError;
    const message = error instanceof Error ? error.message : String(error);
    context.stderr.write(`lodkit: ${message}\n`);
    if (debug && error instanceof Error && error.stack) context.stderr.write(`${error.stack}\n`);
    return usage ? EXIT.usage : EXIT.failure;
  }
}

function invokedDirectly(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * Runs the command line of this process (`process.argv`) and sets `process.exitCode`; what the
 * package's `bin/lodkit.js` launcher calls.
 * @category CLI
 */
export async function runProcess(): Promise<void> {
  // A reader that closes early (`lodkit simulate --help | head`) is not an error: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  process.exitCode = await main();
}

if (invokedDirectly()) await runProcess();
