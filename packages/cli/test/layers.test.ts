import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}
// Runtime and type imports alike: the CLI may use lodkit only through its published entry points.
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:^\s*(?:import|export)[^'"]*from\s+|import\()'([^']+)'/gm)].map((m) => m[1]);

// The CLI's layers sit above lodkit's (metrics → … → adapters): the simulator, then the tools.
const LAYERS = ['simulator', 'tools'];
const layerOf = (file: string) => LAYERS.indexOf(relative(SRC, file).split(/[\\/]/)[0]);
const PUBLIC_ENTRIES = new Set(['lodkit', 'lodkit/gltf', 'lodkit/three']);

describe('@lodkit/cli package shape', () => {
  it('reaches lodkit only through its public entry points', () => {
    const seen: string[] = [];
    for (const file of filesUnder(SRC)) {
      for (const spec of importsOf(file)) {
        if (spec === 'lodkit' || spec.startsWith('lodkit/')) {
          seen.push(spec);
          expect(PUBLIC_ENTRIES.has(spec), `${relative(SRC, file)} imports ${spec}`).toBe(true);
        }
        expect(spec.includes('/lodkit/src/') || spec.includes('../lodkit'), `${relative(SRC, file)} imports ${spec}`).toBe(false);
      }
    }
    expect(seen.length).toBeGreaterThan(0);
  });

  it('dependencies point one way: simulator → tools', () => {
    for (const file of filesUnder(SRC)) {
      const own = layerOf(file);
      for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
        const target = layerOf(join(file, '..', spec));
        if (target >= 0) expect(target, `${relative(SRC, file)} → ${spec}`).toBeLessThanOrEqual(own);
      }
    }
  });
});
