// Every ```ts / ```typescript block of README.md and docs/*.md type-checks against the built
// packages, as a user who pastes it would compile it: one module per block, TypeScript 5.9 (the
// nested compiler of packages/compat/typedoc, as examples.test.ts uses), strict, lib ES2022 and
// @webgpu/types, resolving 'lodkit', 'lodkit/three', '@lodkit/cli', 'three'… from the repository's
// node_modules. Browser pages also get the DOM library; the Node pages (NODE_PAGES: glTF files and
// the simulator) do not, so that their `document` is a glTF-Transform Document, not the browser's.
//
// How blocks are treated:
// - A block with an `import` is a program: it must compile as written. Only `scene`, `camera` and
//   `renderer` may be left undefined, and they get three's real types (Scene, PerspectiveCamera,
//   WebGLRenderer) from a prelude, since every three.js page has them; a block may define its own
//   (its module-scope one wins). Any other name must be defined or `declare`d by the block.
// - A block without an `import` is a fragment: it continues an earlier block of its page, or shows
//   one call. The names it leaves undefined are imported when a public entry exports them (so
//   lodkit's own API is still checked) and declared `any` otherwise (its page's `manager`, `document`…).
// Blocks of pages this test does not own the text of (docs/gltf.md, docs/simulate.md, docs/usd.md)
// that fail are listed in KNOWN_BROKEN with the error they give; each must keep failing that way
// (fix the page, then delete the entry).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist, PACKAGE_ROOT } from '../helpers/dist.js';

const REPO = join(PACKAGE_ROOT, '..', '..');
const TSC = join(PACKAGE_ROOT, '..', 'compat', 'typedoc', 'node_modules', 'typescript', 'bin', 'tsc');
const PAGES = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
/** Public entries, in the order a fragment's undefined name is looked up. */
const ENTRIES = ['lodkit/three', 'lodkit', 'lodkit/gltf', 'lodkit/webgpu', 'lodkit/three/webgpu', '@lodkit/cli'];
/** Pages whose code runs in Node (no DOM library). */
const NODE_PAGES = new Set(['docs/gltf.md', 'docs/simulate.md']);

/**
 * Blocks known not to compile, by `page: first line`, with the error they give. Only pages whose
 * text is not this test's to fix may appear here.
 */
const KNOWN_BROKEN: Record<string, RegExp> = {};

interface Snippet { key: string; page: string; line: number; code: string; fragment: boolean }

/** The ts / typescript blocks of one page. */
function snippetsOf(page: string): Snippet[] {
  const text = readFileSync(join(REPO, page), 'utf8');
  const out: Snippet[] = [];
  for (const m of text.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)) {
    const code = m[1];
    const first = code.split('\n').find((l) => l.trim() !== '')!.trim();
    // A second block starting with the same line (two imports of one type) is told apart by its count.
    const same = out.filter((o) => o.key === `${page}: ${first}` || o.key.startsWith(`${page}: ${first} (`)).length;
    out.push({ key: same === 0 ? `${page}: ${first}` : `${page}: ${first} (${same + 1})`, page, line: text.slice(0, m.index).split('\n').length + 1, code, fragment: !/^\s*import\s/m.test(code) });
  }
  return out;
}

const file = (i: number) => `s${String(i).padStart(3, '0')}.ts`;

/** Runs TypeScript 5.9 on the folder; returns its errors by file name. */
function compile(dir: string): Map<string, string[]> {
  const run = spawnSync(process.execPath, [TSC, '-p', dir, '--pretty', 'false'], { cwd: dir, encoding: 'utf8', timeout: 240_000 });
  const errors = new Map<string, string[]>();
  for (const line of `${run.stdout}\n${run.stderr}`.split('\n')) {
    const m = /^(s\d+\.ts|broken\.ts)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line.trim());
    if (m !== null) errors.set(m[1], [...(errors.get(m[1]) ?? []), `line ${m[2]}: ${m[3]}`]);
    else if (/error TS/.test(line) && !line.includes('node_modules/')) errors.set('(other)', [...(errors.get('(other)') ?? []), line.trim()]);
  }
  return errors;
}

/** Names a compile found undefined (TS2304, TS2552, TS2580–TS2584, TS18004). */
function undefinedNames(errors: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const e of errors) {
    const m = /TS(?:2304|2552|258[0-4]|18004): (?:Cannot find name|No value exists in scope for the shorthand property) '([^']+)'/.exec(e);
    if (m !== null) names.add(m[1]);
  }
  return names;
}

/** The value exports of each public entry (fragments use values; a type-only name stays `any`). */
async function entryExports(): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const entry of ENTRIES) {
    try { out.set(entry, new Set(Object.keys(await import(entry)))); } catch { out.set(entry, new Set()); }
  }
  return out;
}

describe('TypeScript snippets of README.md and docs/*.md', () => {
  const snippets = PAGES.flatMap(snippetsOf);
  let dir = '';
  let errors = new Map<string, string[]>();

  beforeAll(async () => {
    assertFreshDist();
    if (!existsSync(join(PACKAGE_ROOT, '..', 'cli', 'dist', 'simulator', 'index.d.ts'))) throw new Error('packages/cli/dist is missing: run `npm run build -w @lodkit/cli`');
    // Inside the repository (an ignored folder), so that packages resolve as from a user's project.
    mkdirSync(join(PACKAGE_ROOT, 'test-artifacts'), { recursive: true });
    dir = mkdtempSync(join(PACKAGE_ROOT, 'test-artifacts', 'snippets-'));
    for (const kind of ['browser', 'node']) {
      mkdirSync(join(dir, kind));
      writeFileSync(join(dir, kind, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
      writeFileSync(join(dir, kind, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          target: 'ES2022', lib: kind === 'browser' ? ['ES2022', 'DOM', 'DOM.Iterable'] : ['ES2022'], module: 'NodeNext', moduleResolution: 'NodeNext',
          strict: true, noEmit: true, skipLibCheck: true, types: ['node', '@webgpu/types'], moduleDetection: 'force',
        },
        include: ['*.ts'],
      }));
      // The prelude: a global script (no import/export), so a block's own `renderer` shadows it.
      writeFileSync(join(dir, kind, 'prelude.d.ts'), [
        "declare const scene: import('three').Scene;",
        "declare const camera: import('three').PerspectiveCamera;",
        "declare const renderer: import('three').WebGLRenderer;",
      ].join('\n'));
    }
    // A deliberate mistake, so that a clean result means something: a misspelt option.
    writeFileSync(join(dir, 'browser', 'broken.ts'), "import { ScreenSizeLOD } from 'lodkit/three';\nnew ScreenSizeLOD({ metrik: 'pixels' });\n");
    const where = (s: Snippet, i: number) => join(dir, NODE_PAGES.has(s.page) ? 'node' : 'browser', file(i));
    const compileAll = () => new Map([...compile(join(dir, 'browser')), ...compile(join(dir, 'node'))]);
    // Line 1 of each file is a comment or a fragment's preamble: block line k is file line k + 1.
    snippets.forEach((s, i) => writeFileSync(where(s, i), `// ${s.key}\n${s.code}\nexport {};\n`));
    const first = compileAll();
    const exportsOf = await entryExports();
    snippets.forEach((s, i) => {
      if (!s.fragment) return;
      const missing = undefinedNames(first.get(file(i)) ?? []);
      if (missing.size === 0) return;
      const imports = new Map<string, string[]>();
      const declared: string[] = [];
      for (const name of missing) {
        const from = ENTRIES.find((e) => exportsOf.get(e)!.has(name));
        if (from === undefined) declared.push(`declare const ${name}: any;`);
        else imports.set(from, [...(imports.get(from) ?? []), name]);
      }
      // One line (line 1), as the comment it replaces.
      const preamble = [...[...imports].map(([m, names]) => `import { ${names.join(', ')} } from '${m}';`), ...declared].join(' ');
      writeFileSync(where(s, i), `${preamble}\n${s.code}\nexport {};\n`);
    });
    errors = compileAll();
  }, 480_000);

  afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('finds the blocks of README.md, docs/three.md, docs/webgpu.md, docs/defaults.md, docs/gltf.md and docs/babylon.md', () => {
    for (const page of ['README.md', 'docs/three.md', 'docs/webgpu.md', 'docs/defaults.md', 'docs/gltf.md', 'docs/babylon.md']) {
      expect(snippets.filter((s) => s.page === page).length, page).toBeGreaterThan(0);
    }
    expect(new Set(snippets.map((s) => s.key)).size, 'every block has its own key').toBe(snippets.length);
  });

  it('the check reports a real mistake (a misspelt option) against the built declarations', () => {
    expect((errors.get('broken.ts') ?? []).join('\n')).toMatch(/TS(?:2353|2561): .*'metrik'/);
  });

  it('every block type-checks (known-broken blocks of pages not edited here still fail as listed)', () => {
    expect(errors.get('(other)') ?? []).toEqual([]);
    const failures: string[] = [];
    const stillBroken: string[] = [];
    snippets.forEach((s, i) => {
      const errs = errors.get(file(i)) ?? [];
      const known = KNOWN_BROKEN[s.key];
      if (known !== undefined) {
        if (errs.some((e) => known.test(e))) stillBroken.push(s.key);
        else failures.push(`${s.key}: listed in KNOWN_BROKEN but no longer fails that way (${errs.join('; ') || 'clean'})`);
        return;
      }
      for (const e of errs) {
        const at = /^line (\d+): /.exec(e);
        failures.push(`${s.page}:${at === null ? s.line : s.line + Number(at[1]) - 2} (${s.fragment ? 'fragment' : 'program'}) ${e.replace(/^line \d+: /, '')}`);
      }
    });
    expect(failures).toEqual([]);
    expect(stillBroken.sort()).toEqual(Object.keys(KNOWN_BROKEN).sort());
  });
});
