/**
 * The architecture as a test: the folders of src/ are layers, and every import — `import type`,
 * re-exports and inline `import('…')` type queries included — points down (or sideways inside
 * one folder); no import circle anywhere in src/. A failure names the importing module and the
 * import, or the modules of the circle.
 *
 * Package layers: metrics → heuristics → policies → batch → adapters. Inside batch/ (its README.md
 * draws them): core → wasm → spatial → kernels → outputs → passes → drivers → the facade (the
 * modules at batch/'s root: LodSet and what only it uses).
 */
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
const rel = (file: string) => relative(SRC, file).split('\\').join('/');

/** Relative specifiers a module's source names in `import … from`, `export … from` and `import('…')`. */
export function specifiersOf(source: string): string[] {
  const statements = [...source.matchAll(/^\s*(?:import|export)\b[^;'"]*?from\s+'(\.[^']+)'/gm)].map((m) => m[1]);
  const queries = [...source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1]);
  return [...statements, ...queries];
}

const FILES = filesUnder(SRC);
const KNOWN = new Set(FILES);
const edges = new Map(FILES.map((f) => [f, specifiersOf(readFileSync(f, 'utf8'))
  .map((s) => join(f, '..', s).replace(/\.js$/, '.ts')).filter((t) => KNOWN.has(t))]));

const PACKAGE_LAYERS = ['metrics', 'heuristics', 'policies', 'batch', 'adapters'];
const BATCH_LAYERS = ['core', 'wasm', 'spatial', 'kernels', 'outputs', 'passes', 'drivers'];
/** [package layer, batch layer] of a module; the batch facade (batch/*.ts) is above every batch folder. */
function layerOf(file: string): [number, number] {
  const parts = rel(file).split('/');
  const pkg = PACKAGE_LAYERS.indexOf(parts[0]);
  if (parts[0] !== 'batch') return [pkg, 0];
  return [pkg, parts.length === 2 ? BATCH_LAYERS.length : BATCH_LAYERS.indexOf(parts[1])];
}

/** Strongly connected components with more than one module (Tarjan), each sorted. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], onStack = new Set<string>(), out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next++); stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('layers of src/', () => {
  it('every folder of src/ and of src/batch/ has a layer', () => {
    for (const file of FILES) {
      const [pkg, batch] = layerOf(file);
      if (rel(file) === 'index.ts') continue;
      expect(pkg, rel(file)).toBeGreaterThanOrEqual(0);
      expect(batch, rel(file)).toBeGreaterThanOrEqual(0);
    }
  });

  it('imports point down through the layers, type imports included', () => {
    const wrong: string[] = [];
    for (const [file, targets] of edges) {
      if (rel(file) === 'index.ts') continue;
      const [pkg, batch] = layerOf(file);
      for (const t of targets) {
        const [tp, tb] = layerOf(t);
        if (tp > pkg || (tp === pkg && pkg === PACKAGE_LAYERS.indexOf('batch') && tb > batch)) wrong.push(`${rel(file)} → ${rel(t)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no import circle anywhere in src/', () => {
    expect(circles(edges).map((c) => c.map(rel).join(' → '))).toEqual([]);
  });
});

describe('the checks see what they must (controls)', () => {
  it('type imports, re-exports and inline import() queries are imports', () => {
    const source = "import type { A } from './a.js';\nexport { B } from './b.js';\nlet c: import('./c.js').C;\nimport { D } from 'pkg';\n";
    expect(specifiersOf(source)).toEqual(['./a.js', './b.js', './c.js']);
  });

  it('a circle made of type imports is found', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
  });

  it('a batch module placed above its folder is caught', () => {
    const [, core] = layerOf(join(SRC, 'batch', 'core', 'x.ts'));
    const [, facade] = layerOf(join(SRC, 'batch', 'lodSet.ts'));
    expect(core).toBeLessThan(facade);
  });
});
