// The `@example` blocks of the API reference type-check against the built packages. TypeDoc (the
// private workspace packages/compat/typedoc, as `npm run docs` runs it) writes the reference as
// JSON; every ```ts block of an `@example` of a public export of lodkit or @lodkit/cli becomes a
// module compiled by TypeDoc's TypeScript 5.9 against the built .d.ts, as a user's code would be.
//
// Examples are fragments: they use `scene`, `camera` or `renderer` without declaring them, and often
// omit the import of the very export they document. A first compile lists the names a block leaves
// undefined; a name exported by a public entry (the block's own entry first) is imported from it,
// any other becomes `declare const name: any` (and `type name = any`). The second compile must be clean: a wrong import
// specifier, a misspelt option or method, or a wrong argument type fails here. (No DOM lib, so that
// a fragment's `document` is a glTF-Transform Document, not the browser's; implicit any is allowed
// for callbacks handed to such undeclared values.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist, PACKAGE_ROOT } from '../helpers/dist.js';

const TYPEDOC_WORKSPACE = join(PACKAGE_ROOT, '..', 'compat', 'typedoc');
const TYPEDOC = join(TYPEDOC_WORKSPACE, 'node_modules', 'typedoc', 'bin', 'typedoc');
const TSC = join(TYPEDOC_WORKSPACE, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * Examples known to be wrong, by the owner TypeDoc names and the error they give; each must still
 * fail with that error (fix the example, then delete its entry).
 */
const KNOWN_BROKEN: Record<string, RegExp> = {};

interface Example { module: string; owner: string; code: string }
interface JsonNode { name?: string; kind?: number; comment?: { blockTags?: { tag: string; content: { text: string }[] }[] }; [key: string]: unknown }

const MODULE_KIND = 2; // ReflectionKind.Module

/** Every ```ts block of every `@example` below a module, with the module's and owner's names. */
function collectExamples(node: unknown, module: string, path: string[], out: Example[]): Example[] {
  if (Array.isArray(node)) { for (const child of node) collectExamples(child, module, path, out); return out; }
  if (node === null || typeof node !== 'object') return out;
  const n = node as JsonNode;
  const inModule = n.kind === MODULE_KIND && typeof n.name === 'string' ? n.name : module;
  const here = typeof n.name === 'string' && n.kind !== MODULE_KIND ? [...path, n.name] : path;
  for (const tag of n.comment?.blockTags ?? []) {
    if (tag.tag !== '@example') continue;
    const text = tag.content.map((c) => c.text).join('');
    for (const m of text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)) out.push({ module: inModule, owner: `${inModule}: ${here.join('.')}`, code: m[1] });
  }
  for (const [key, value] of Object.entries(n)) if (key !== 'comment') collectExamples(value, inModule, here, out);
  return out;
}

/** The top-level export names of each module of the JSON model. */
function exportsByModule(project: JsonNode): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const module of (project.children as JsonNode[] | undefined) ?? []) {
    out.set(String(module.name), new Set(((module.children as JsonNode[] | undefined) ?? []).map((c) => String(c.name))));
  }
  return out;
}

/** Runs TypeScript 5.9 on the examples folder; returns its errors by file name. */
function compile(dir: string): Map<string, string[]> {
  const run = spawnSync(process.execPath, [TSC, '-p', dir, '--pretty', 'false'], { cwd: dir, encoding: 'utf8', timeout: 180_000 });
  const errors = new Map<string, string[]>();
  for (const line of `${run.stdout}\n${run.stderr}`.split('\n')) {
    const m = /^(ex\d+\.ts)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line.trim());
    if (m !== null) errors.set(m[1], [...(errors.get(m[1]) ?? []), m[2]]);
    else if (/error TS/.test(line) && !line.includes('node_modules/')) errors.set('(other)', [...(errors.get('(other)') ?? []), line.trim()]);
  }
  return errors;
}

/** The names a first compile found undefined (TS2304, TS2552, TS2580–TS2584 "did you mean a lib…", TS18004). */
function undefinedNames(errors: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const e of errors) {
    const m = /^TS(?:2304|2552|258[0-4]|18004): (?:Cannot find name|No value exists in scope for the shorthand property) '([^']+)'/.exec(e);
    if (m !== null) names.add(m[1]);
  }
  return names;
}

describe('@example blocks of the API reference', () => {
  let examples: Example[] = [];
  let exportsOf = new Map<string, Set<string>>();
  let work = '';
  let dir = '';
  let errors = new Map<string, string[]>();

  beforeAll(() => {
    assertFreshDist();
    assertFreshDist(join(PACKAGE_ROOT, '..', 'cli'));
    work = mkdtempSync(join(tmpdir(), 'lodkit-examples-'));
    const json = join(work, 'api.json');
    const run = spawnSync(process.execPath, [TYPEDOC, '--options', 'typedoc.config.mjs', '--validation', 'false', '--json', json, '--logLevel', 'Error'],
      { cwd: TYPEDOC_WORKSPACE, encoding: 'utf8', timeout: 240_000 });
    if (run.status !== 0) throw new Error(`typedoc failed (${run.status}): ${run.stdout}\n${run.stderr}`);
    const project = JSON.parse(readFileSync(json, 'utf8')) as JsonNode;
    // A comment shared by a declaration and its signatures shows up more than once.
    const seen = new Set<string>();
    examples = collectExamples(project.children, '', [], []).filter((e) => !seen.has(`${e.owner}\n${e.code}`) && seen.add(`${e.owner}\n${e.code}`) !== undefined);
    exportsOf = exportsByModule(project);

    // Inside the repository (an ignored folder), so that 'lodkit', '@lodkit/cli', 'three'… resolve
    // from its node_modules as they would from a user's project.
    mkdirSync(join(PACKAGE_ROOT, 'test-artifacts'), { recursive: true });
    dir = mkdtempSync(join(PACKAGE_ROOT, 'test-artifacts', 'examples-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', lib: ['ES2022'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noImplicitAny: false,
        noEmit: true, skipLibCheck: true, types: ['node', '@webgpu/types'], moduleDetection: 'force',
      },
      include: ['*.ts'],
    }));
    const file = (i: number) => `ex${String(i).padStart(3, '0')}.ts`;
    examples.forEach((e, i) => writeFileSync(join(dir, file(i)), `${e.code}\nexport {};\n`));
    const first = compile(dir);
    examples.forEach((e, i) => {
      const missing = undefinedNames(first.get(file(i)) ?? []);
      if (missing.size === 0) return;
      const imports = new Map<string, string[]>();
      const declared: string[] = [];
      const modules = [e.module, ...[...exportsOf.keys()].filter((m) => m !== e.module)];
      for (const name of missing) {
        const from = modules.find((m) => exportsOf.get(m)?.has(name));
        // Both a value and a type: fragments use `camera` as a value and `Material` as a type.
        if (from === undefined) declared.push(`declare const ${name}: any; type ${name} = any;`);
        else imports.set(from, [...(imports.get(from) ?? []), name]);
      }
      const preamble = [...[...imports].map(([m, names]) => `import { ${names.join(', ')} } from '${m}';`), ...declared].join('\n');
      writeFileSync(join(dir, file(i)), `${preamble}\n${e.code}\nexport {};\n`);
    });
    errors = compile(dir);
  }, 420_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the examples of every entry', () => {
    expect(examples.length).toBeGreaterThan(50);
    const modules = new Set(examples.map((e) => e.module));
    for (const entry of ['lodkit', 'lodkit/three', 'lodkit/gltf', '@lodkit/cli/simulator']) expect(modules, entry).toContain(entry);
  });

  it('type-check against the built packages with TypeScript 5.9', () => {
    expect(errors.get('(other)') ?? []).toEqual([]);
    const failures: string[] = [];
    const stillBroken: string[] = [];
    examples.forEach((e, i) => {
      const errs = errors.get(`ex${String(i).padStart(3, '0')}.ts`) ?? [];
      const known = KNOWN_BROKEN[e.owner];
      if (known !== undefined) { if (errs.some((x) => known.test(x))) stillBroken.push(e.owner); else failures.push(`${e.owner}: listed in KNOWN_BROKEN but no longer fails that way (${errs.join('; ') || 'clean'})`); return; }
      for (const err of errs) failures.push(`${e.owner}: ${err}\n${e.code}`);
    });
    expect(failures).toEqual([]);
    expect(stillBroken.sort()).toEqual(Object.keys(KNOWN_BROKEN).sort());
  });
});
