import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The lodkit package folder (packages/lodkit). */
export const PACKAGE_ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * Throws unless every `src/**\/*.ts` of the package at `root` has a built `dist/**\/*.js` at least
 * as new as it. Tests that run the built package (probes, packing, bundling) call it first, so a
 * stale `dist/` fails loudly instead of testing yesterday's code. `npm test` builds first (pretest).
 */
export function assertFreshDist(root: string = PACKAGE_ROOT): void {
  const src = join(root, 'src');
  const stale: string[] = [];
  for (const file of sources(src, [])) {
    const built = join(root, 'dist', relative(src, file)).replace(/\.ts$/, '.js');
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(file).mtimeMs) stale.push(relative(root, file));
  }
  if (stale.length > 0) {
    throw new Error(`dist/ is missing or older than ${stale.length} source file(s) (${stale.slice(0, 3).join(', ')}…): run \`npm run build\` (npm test does it in pretest)`);
  }
}
