/**
 * Import circles in src/, type imports included: none may be added. The three circles that exist
 * are listed (the engine redesign removes them); a new one — or a listed one that grows — fails
 * with its modules named. (The gltf reader's checks import readLimits.ts, not each other, for this.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Relative imports and re-exports of a module, `import type` included, as module paths. */
function importsOf(file: string, known: Set<string>): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*?from\s+'(\.[^']+)'/gm)]
    .map((m) => join(file, '..', m[1]).replace(/\.js$/, '.ts'))
    .filter((target) => known.has(target));
}

/** Strongly connected components with more than one module (Tarjan), each sorted, relative to src/. */
function circles(): string[][] {
  const files = filesUnder(SRC);
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f, known)]));
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next++); stack.push(v); onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); component.push(relative(SRC, w).split('\\').join('/')); } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The circles of main on 2026-12-02 (issue 27 lists them); shrink this list, never grow it. */
const KNOWN: string[][] = [
  ['adapters/webgpu/budgetReference.ts', 'adapters/webgpu/reference.ts'],
  ['batch/budgetIncremental.ts', 'batch/budgetStable.ts', 'batch/clusterDrivers.ts', 'batch/clusterPass.ts', 'batch/clusterPolicyPasses.ts',
    'batch/clusterState.ts', 'batch/clusters.ts', 'batch/frameSetup.ts', 'batch/fusedCollect.ts', 'batch/fusedPass.ts', 'batch/hybridFinalize.ts',
    'batch/hybridIncremental.ts', 'batch/lodSet.ts', 'batch/mappedKernels.ts', 'batch/nextKernels.ts', 'batch/objectStorage.ts', 'batch/owedBlends.ts',
    'batch/owedSizes.ts', 'batch/policyDrivers.ts', 'batch/rankCuts.ts', 'batch/screenSpacePasses.ts', 'batch/singleKernels.ts', 'batch/slotSizes.ts',
    'batch/superClusters.ts', 'batch/threadedDrivers.ts', 'batch/threads.ts', 'batch/updateOptions.ts', 'batch/updateValidation.ts', 'batch/warmUp.ts'],
  ['metrics/frustum.ts', 'metrics/gfFrustum.ts'],
];

it('no import circle in src/ beyond the known ones (type imports count)', () => {
  const found = circles();
  for (const circle of found) {
    const listed = KNOWN.find((k) => circle.every((m) => k.includes(m)));
    expect(listed, `a new import circle: ${circle.join(' → ')}`).toBeDefined();
  }
});

it('the circle finder sees a circle made only of type imports (control)', () => {
  // batch/updateOptions.ts → batch/lodSet.ts is an `import type` that closes the engine's circle.
  expect(circles().some((c) => c.includes('batch/updateOptions.ts'))).toBe(true);
});
