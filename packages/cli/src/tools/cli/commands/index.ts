/**
 * The `lodkit` command registry. A command is a function `registerXCommand(program, context?)` that
 * adds one sub-command to the commander program; adding a command = adding it to this list.
 *
 * @module
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerGltfCommand } from './gltf.js';
import { registerSimulateCommand } from './simulate.js';

/** Adds one sub-command to `program` and returns it. @category CLI */
export type CommandRegistration = (program: Command, context: CliContext) => Command;

/**
 * Every registered command, in `--help` order. A new command exports
 * `registerXCommand(program: Command, context?: CliContext): Command` and is appended here.
 * @example
 * ```ts
 * for (const register of COMMAND_REGISTRY) register(program, context);
 * ```
 * @category CLI
 */
export const COMMAND_REGISTRY: readonly CommandRegistration[] = [registerSimulateCommand, (program) => registerGltfCommand(program)];
