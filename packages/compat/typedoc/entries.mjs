// The public entry points of the published packages, read from their package.json `exports`, so
// the API reference documents exactly what a user can import. Shared by typedoc.config.mjs (the
// entry points) and entryNames.mjs (the module names shown in the reference).
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = join(HERE, '..', '..', '..');
/** The published packages' folders, relative to the repository root. */
export const PACKAGES = ['packages/lodkit', 'packages/cli', 'packages/react'];

/**
 * One entry per distinct declaration file in `exports` (`@lodkit/cli`'s `.` and `./simulator` are
 * the same file; it is named by its subpath): `file` is absolute, `name` the import specifier.
 */
export function publicEntries() {
  const entries = [];
  for (const folder of PACKAGES) {
    const pkg = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8'));
    const byFile = new Map();
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target !== 'object' || typeof target.types !== 'string') continue; // ./package.json
      const file = join(ROOT, folder, target.types);
      const name = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      // Prefer the subpath name when `.` and a subpath share a file.
      if (!byFile.has(file) || subpath !== '.') byFile.set(file, { name, packageName: pkg.name, packagePath: relative(join(ROOT, folder), file).split('\\').join('/') });
    }
    for (const [file, entry] of byFile) entries.push({ file, ...entry });
  }
  return entries;
}
