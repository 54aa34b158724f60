/**
 * What a browser app pays for an import: `source` (an entry module written into `work`) bundled
 * with Vite (rolldown, library mode), the ids `external` says yes to left as imports, minified as
 * an app's production build is. Shared by test/release/bundle.test.ts, the adapters' bundle tests
 * and bench/webWeight.bench.ts.
 *
 * - Whitespace too: Vite's `build.minify` leaves it in an ES library build (so that the consumer's
 *   bundler keeps the pure annotations; vitejs/vite#8754), which is not what the app ships. The
 *   output's own `minify` removes it (an app-mode build of the same code measured 2 % smaller, the
 *   entry's export kept here).
 * - `bytes` is the entry chunk: what loads with the page. Modules behind a dynamic `import()` come
 *   out as further chunks, loaded only when that code runs; `lazy` lists them. The entry may export
 *   what such a chunk shares with it (`preserveEntrySignatures: 'allow-extension'`), as an app's
 *   entry does: a library build would put the shared code in a third chunk the entry imports.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Rolldown } from 'vite';
import { expect } from 'vitest';

/** One bundled entry: its code, its size in bytes, and the modules it still imports. */
export interface Bundle {
  code: string;
  bytes: number;
  imports: string[];
  /** Chunks behind a dynamic `import()` (not loaded with the entry): file name and bytes. */
  lazy: { fileName: string; bytes: number; code: string }[];
}

export async function bundleEntry(work: string, name: string, source: string, external: (id: string) => boolean): Promise<Bundle> {
  const entry = join(work, `${name}.js`);
  writeFileSync(entry, source);
  const result = await build({
    configFile: false,
    root: work,
    logLevel: 'silent',
    build: { write: false, minify: true, lib: { entry, formats: ['es'], fileName: name }, rollupOptions: { external, preserveEntrySignatures: 'allow-extension', output: { minify: true } } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((o) => o.output).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const entries = chunks.filter((c) => c.isEntry);
  expect(entries).toHaveLength(1);
  const lazy = chunks.filter((c) => !c.isEntry).map((c) => ({ fileName: c.fileName, bytes: Buffer.byteLength(c.code), code: c.code }));
  return { code: entries[0].code, bytes: Buffer.byteLength(entries[0].code), imports: entries[0].imports, lazy };
}
