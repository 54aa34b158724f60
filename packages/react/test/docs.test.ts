/**
 * Every ```tsx block of docs/react.md and packages/react/README.md compiles as written, one module
 * per block, against this package's built .d.ts and the repository's react, fiber, drei and three
 * (strict, JSX, DOM; the repository's TypeScript). lodkit's snippets test covers the ```ts blocks
 * of docs/*.md; these pages' code is TSX, which it does not read.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../../lodkit/test/helpers/dist.js';

const PACKAGE = resolve(import.meta.dirname, '..');
const REPO = resolve(PACKAGE, '..', '..');
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const PAGES = ['docs/react.md', 'packages/react/README.md'];

function blocks(page: string): { page: string; line: number; code: string }[] {
  const text = readFileSync(join(REPO, page), 'utf8');
  const out: { page: string; line: number; code: string }[] = [];
  for (const m of text.matchAll(/```tsx\n([\s\S]*?)```/g)) out.push({ page, line: text.slice(0, m.index).split('\n').length, code: m[1] });
  return out;
}

describe('TSX blocks of the React guide', () => {
  let dir = '';
  afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('every block compiles (strict, one module each)', () => {
    assertFreshDist(PACKAGE);
    const all = PAGES.flatMap(blocks);
    expect(all.length).toBeGreaterThanOrEqual(7);
    mkdirSync(join(PACKAGE, 'test-artifacts'), { recursive: true });
    dir = mkdtempSync(join(PACKAGE, 'test-artifacts', 'docs-'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], jsx: 'react-jsx',
        strict: true, noEmit: true, skipLibCheck: true, isolatedModules: true, moduleDetection: 'force', types: [],
      },
      include: ['*.tsx'],
    }));
    const names = all.map((b, i) => `block${String(i).padStart(2, '0')}.tsx`);
    all.forEach((b, i) => writeFileSync(join(dir, names[i]), b.code));
    const run = spawnSync(process.execPath, [TSC, '-p', dir, '--pretty', 'false'], { cwd: dir, encoding: 'utf8', timeout: 180_000 });
    const errors = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => /error TS/.test(l)).map((l) => {
      const m = /^(block(\d+)\.tsx)/.exec(l.trim());
      const b = m === null ? undefined : all[Number(m[2])];
      return b === undefined ? l.trim() : `${b.page}:${b.line}: ${l.trim()}`;
    });
    expect(errors).toEqual([]);
  });
});
