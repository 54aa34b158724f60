/**
 * What every `lodkit` command receives: where to write, whether those are terminals, and the
 * error type that means "bad usage" (exit code 2).
 *
 * @module
 */

/** A writable text stream (`process.stdout` or a test's buffer). @category CLI */
export interface CliStream {
  write(chunk: string): unknown;
  /** True when the stream is a terminal (progress bars only then). */
  isTTY?: boolean;
}

/** I/O of one CLI run. @category CLI */
export interface CliContext {
  stdout: CliStream;
  stderr: CliStream;
  /** Directory relative paths are resolved against. Default `process.cwd()`. */
  cwd?: string;
}

/**
 * The process's own streams.
 * @example
 * ```ts
 * await main(process.argv, processContext());
 * ```
 * @category CLI
 */
export function processContext(): CliContext {
  return { stdout: process.stdout, stderr: process.stderr };
}

/**
 * Thrown by a command for bad usage (conflicting options, unreadable or invalid input): the CLI
 * prints the message (no stack unless `--debug`) and exits with code 2.
 * @example
 * ```ts
 * throw new UsageError('give a scene file or --scenario, not both');
 * ```
 * @category CLI
 */
export class UsageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UsageError';
  }
}

/**
 * Exit codes of the `lodkit` CLI.
 * @example
 * ```ts
 * if (code === EXIT.usage) console.error('bad usage');
 * ```
 * @category CLI
 */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
