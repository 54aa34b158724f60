/**
 * What a browser app pays for an import: `source` (an entry module written into `work`) bundled
 * with Vite (rolldown, minified, library mode), the ids `external` says yes to left as imports.
 * Expects exactly one chunk. Shared by test/release/bundle.test.ts and the adapters' bundle tests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Rolldown } from 'vite';
import { expect } from 'vitest';

/** One bundled entry: its code, its size in bytes, and the modules it still imports. */
export interface Bundle { code: string; bytes: number; imports: string[] }

export async function bundleEntry(work: string, name: string, source: string, external: (id: string) => boolean): Promise<Bundle> {
  const entry = join(work, `${name}.js`);
  writeFileSync(entry, source);
  const result = await build({
    configFile: false,
    root: work,
    logLevel: 'silent',
    build: { write: false, minify: true, lib: { entry, formats: ['es'], fileName: name }, rollupOptions: { external } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((o) => o.output).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  expect(chunks).toHaveLength(1);
  return { code: chunks[0].code, bytes: Buffer.byteLength(chunks[0].code), imports: chunks[0].imports };
}
