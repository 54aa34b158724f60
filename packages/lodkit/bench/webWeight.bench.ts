/**
 * Web weight (issue 27, "Must show"): what one import adds to a browser app, measured with the
 * repo's own bundler helper (test/helpers/bundle.ts: Vite, rolldown, minified, library mode) on the
 * BUILT package (`npm run build` first; a stale dist/ fails loudly), three (and Babylon) external, and
 * for context the other imports of the README's bundle table. Prints bytes,
 * kB (1000 B, the issue's unit), KiB (1024 B, the README's "KB") and gzip (level 9) beside the
 * issue's targets. A bench, not a test: nothing is asserted (the bundle-size tests hold their own
 * ceilings).
 *
 *   npm run build -w lodkit && npm run bench:weight -w lodkit
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { it } from 'vitest';
import { bundleEntry } from '../test/helpers/bundle.js';
import { assertFreshDist, PACKAGE_ROOT } from '../test/helpers/dist.js';

const dist = (path: string) => JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist', path)).href);
const three = dist('adapters/three/index.js');

/** The entries: name, what it is, its source, and the issue's target in bytes (1 kB = 1000 B). */
const ENTRIES: { name: string; label: string; source: string; target: number | null }[] = [
  {
    name: 'instanced-thresholds', target: 100_000,
    label: '`InstancedLOD` (`lodkit/three`), an app that uses the thresholds policy only',
    source: `import { InstancedLOD } from ${three};\nexport function forest(levels, camera) {\n  const lod = new InstancedLOD({ levels, thresholds: [120, 30] });\n  lod.update(camera, { policy: 'thresholds' });\n  return lod;\n}\n`,
  },
  {
    name: 'instanced-all', target: null,
    label: '`InstancedLOD` with every policy registered (`registerPolicies(allPolicies)`, `lodkit`)',
    source: `import { InstancedLOD } from ${three};\nimport { allPolicies, registerPolicies } from ${dist('index.js')};\nregisterPolicies(allPolicies);\nexport function forest(levels, camera) {\n  const lod = new InstancedLOD({ levels, thresholds: [120, 30] });\n  lod.update(camera, { policy: 'budget', budget: 1e6 });\n  return lod;\n}\n`,
  },
  { name: 'instanced', label: '`export { InstancedLOD }` (`lodkit/three`)', source: `export { InstancedLOD } from ${three};\n`, target: null },
  { name: 'lodset', label: '`export { LodSet }` (`lodkit`)', source: `export { LodSet } from ${dist('index.js')};\n`, target: null },
  { name: 'screensize', label: '`export { ScreenSizeLOD }` (`lodkit/three`)', source: `export { ScreenSizeLOD } from ${three};\n`, target: 20_000 },
  // The other rows of the README's table, for context.
  { name: 'thresholds', label: '`export { LodThresholds, spherePixelDiameter }` (`lodkit`)', source: `export { LodThresholds, spherePixelDiameter } from ${dist('index.js')};\n`, target: null },
  { name: 'plugin', label: '`export { MSFTLodLoaderPlugin }` (`lodkit/three`)', source: `export { MSFTLodLoaderPlugin } from ${three};\n`, target: null },
  { name: 'manager', label: '`export { LodManager }` (`lodkit/three`)', source: `export { LodManager } from ${three};\n`, target: null },
  { name: 'babylon', label: '`export { BabylonLodManager }` (`lodkit/babylon`)', source: `export { BabylonLodManager } from ${dist('adapters/babylon/index.js')};\n`, target: null },
];
const external = (id: string) => id === 'three' || id.startsWith('three/') || id.startsWith('@babylonjs/');

it('web weight: InstancedLOD (thresholds), LodSet, ScreenSizeLOD and the README table\'s other imports — minified, three and Babylon external', async () => {
  assertFreshDist();
  const work = mkdtempSync(join(tmpdir(), 'lodkit-weight-'));
  const lines: string[] = [];
  try {
    for (const e of ENTRIES) {
      const b = await bundleEntry(work, e.name, e.source, external);
      const gz = gzipSync(b.code, { level: 9 }).length;
      const target = e.target === null ? '–' : `≤ ${e.target / 1000} kB: ${b.bytes <= e.target ? 'met' : `missed by ${((b.bytes - e.target) / 1000).toFixed(1)} kB`}`;
      const lazy = b.lazy.map((c) => `${(c.bytes / 1000).toFixed(1)} (gzip ${(gzipSync(c.code, { level: 9 }).length / 1000).toFixed(1)}${c.code.includes('AGFzbQ') ? ', kernels' : ''})`).join(' + ') || '–';
      lines.push(`| ${e.label} | ${b.bytes.toLocaleString('en-US')} | ${(b.bytes / 1000).toFixed(1)} kB | ${(b.bytes / 1024).toFixed(1)} KiB | ${(gz / 1000).toFixed(1)} kB / ${(gz / 1024).toFixed(1)} KiB | ${lazy} | ${b.imports.join(', ') || '–'} | ${target} |`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log([
    'Web weight: Vite (rolldown) library build of one entry, minified, three and Babylon external, from the built package (dist/)',
    '',
    '| entry | bytes | kB | KiB | gzip (level 9) | chunks loaded later (kB) | imports left | issue 27 target |',
    '|---|---:|---:|---:|---:|---|---|---|',
    ...lines,
  ].join('\n'));
});
