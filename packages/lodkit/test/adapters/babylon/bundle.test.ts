/**
 * What a browser app pays for `lodkit/babylon`: the built entry bundled with Vite (rolldown,
 * minified, Babylon external), held under a stated ceiling. The entry imports Babylon as types
 * only, so the bundle imports nothing at all; most of its bytes are lodkit's batch engine
 * (`LodSet`), which the manager drives.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry, type Bundle } from '../../helpers/bundle.js';
import { assertFreshDist, PACKAGE_ROOT } from '../../helpers/dist.js';

/**
 * The ceiling for everything `lodkit/babylon` exports (minified, Babylon external): 116 KB when
 * last measured (2026-12-02, whitespace minified as an app ships it), of which `LodSet` alone
 * (with its embedded WebAssembly kernels) is 82 KB.
 */
const BABYLON_LIMIT_BYTES = 136 * 1024;
/**
 * The ceiling for what the adapter adds on top of the batch engine: 27.5 KB when last measured, of
 * which ≈ 10 KB is `Frustum` (its views are Frustums; `LodSet` alone no longer bundles one).
 */
const ADAPTER_LIMIT_BYTES = 30 * 1024;

let work = '';

const bundle = (name: string, source: string): Promise<Bundle> => bundleEntry(work, name, source, (id: string) => id.startsWith('@babylonjs/'));

const dist = (path: string) => JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist', path)).href);

describe('lodkit/babylon bundle size (vite build, minified, Babylon external)', () => {
  beforeAll(() => {
    assertFreshDist();
    work = mkdtempSync(join(tmpdir(), 'lodkit-babylon-bundle-'));
  });
  afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

  it(`the whole entry is at most ${BABYLON_LIMIT_BYTES / 1024} KB, the adapter over LodSet at most ${ADAPTER_LIMIT_BYTES / 1024} KB, and neither imports Babylon`, async () => {
    const all = await bundle('babylon', `export * from ${dist('adapters/babylon/index.js')};\n`);
    const engine = await bundle('lodset', `export { LodSet } from ${dist('index.js')};\n`);
    console.log(`lodkit/babylon bundle: ${all.bytes} bytes minified; LodSet alone ${engine.bytes}; the adapter adds ${all.bytes - engine.bytes}`);
    expect(all.imports).toEqual([]);
    expect(all.code).toContain('lodkit_MSFT_lod');
    expect(all.code).toContain('MSFT_screencoverage');
    expect(all.bytes).toBeLessThanOrEqual(BABYLON_LIMIT_BYTES);
    expect(all.bytes - engine.bytes).toBeGreaterThan(2 * 1024);
    expect(all.bytes - engine.bytes).toBeLessThanOrEqual(ADAPTER_LIMIT_BYTES);
  });
});
