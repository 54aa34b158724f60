import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lodkit from '../src/index.js';

const SRC = join(import.meta.dirname, '..', 'src');
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}
// Runtime imports only: `import type` is erased by the compiler.
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import(?!\s+type\s)|export(?!\s+type\s))[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1]);

// The layers, lowest first (test/layers.test.ts checks that imports point down through them).
const LAYERS = ['metrics', 'heuristics', 'policies', 'batch', 'adapters'];
const layerOf = (file: string) => LAYERS.indexOf(relative(SRC, file).split(/[\\/]/)[0]);

describe('package shape', () => {
  it('exports the core API by name', () => {
    for (const name of ['Frustum', 'ScreenSizeHeuristic', 'DistanceHeuristic', 'LodThresholds', 'sphereScreenHeight', 'spherePixelDiameter', 'sphereScreenArea', 'computeLodDescending']) {
      expect(lodkit, name).toHaveProperty(name);
    }
  });

  it('the core (metrics, heuristics, batch, policies) imports no package at all', () => {
    for (const file of filesUnder(SRC).filter((f) => layerOf(f) >= 0 && layerOf(f) <= 3)) {
      for (const spec of importsOf(file)) expect(spec.startsWith('.'), `${relative(SRC, file)} imports ${spec}`).toBe(true);
    }
  });
});
