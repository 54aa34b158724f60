/**
 * `lodkit gltf lod ARGS…` through the registered commander command in this process (no `main`,
 * no process streams): its exit code and what it wrote to stdout and stderr. Shared by the
 * command's tests (gltf.test.ts, gltfDefaults.test.ts).
 */
import { Command, CommanderError } from 'commander';
import { registerGltfCommand } from '../../../../src/tools/cli/commands/gltf.js';

export async function runGltfLod(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const program = new Command('lodkit').exitOverride().configureOutput({ writeOut: (s) => { out += s; }, writeErr: (s) => { err += s; } });
  registerGltfCommand(program);
  try {
    await program.parseAsync(['node', 'lodkit', 'gltf', 'lod', ...args]);
    return { code: 0, out, err };
  } catch (error) {
    if (error instanceof CommanderError) return { code: error.exitCode, out, err };
    throw error;
  }
}
