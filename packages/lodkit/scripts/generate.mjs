// The one generator of lodkit's derived sources (issue 27, "one source per rule"). Every output is
// committed, starts with a "generated from X by scripts/generate.mjs: do not edit" line, and is
// checked by the test suite (test/batch/generated.test.ts runs `--check`).
//
// 1. WebAssembly: each src/batch/wasm/*.wat (its `;; @include x.part.wat [key=value …]` lines replaced
//    by those files — a part's `;; @if EXPR` / `;; @else` / `;; @endif` lines and `@{key}` expanded with
//    the line's values, so one part can give several variants — its `{NAME}` / `{NAME + 8}`
//    placeholders by the constants of src/batch/core/layout.ts)
//    is compiled with the npm package `wabt` into `<name>.generated.ts`, a module embedding the
//    bytes, so the core loads the kernels in browsers, Node and workers without a fetch.
// 2. JavaScript kernels: each template of scripts/templates/ is expanded into one plain,
//    monomorphic function per variant (no closure, no dispatch in the loop), written to the
//    `*.generated.ts` files listed in KERNELS below. Template language:
//      //@if EXPR / //@elif EXPR / //@else / //@endif   (own lines; keep or drop the lines between)
//      {{= EXPR}}                                      (inserts a value)
//      {{A | B}}                                       (A for descending metrics, B for ascending)
//    EXPR is JavaScript over the variant's fields (name, family, desc, …). Lines before a
//    template's first `//@` line are its own notes and are not emitted.
//
//   node scripts/generate.mjs          # write what changed
//   node scripts/generate.mjs --check  # exit 1 when a generated file differs from its source
// Run by `npm run build`, `npm run typecheck`, `npm run generate` (alias `npm run build:wasm`).
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WASM_DIR = join(ROOT, 'src', 'batch', 'wasm');
const LAYOUT = join(ROOT, 'src', 'batch', 'core', 'layout.ts');
const TEMPLATES = join(ROOT, 'scripts', 'templates');
const rel = (file) => relative(ROOT, file).split('\\').join('/');

/** The generated JavaScript kernel modules: output, template, prelude (imports, shared constants), variants. */
export const KERNELS = [
  {
    out: 'src/batch/kernels/thresholdKernels.generated.ts', template: 'decide.template.ts',
    prelude: "import type { FrameState } from '../core/frameState.js';\n",
    variants: [{ name: 'decideDescending', family: 'plain', desc: true }, { name: 'decideAscending', family: 'plain', desc: false }],
  },
  {
    out: 'src/batch/kernels/mappedKernels.generated.ts', template: 'decide.template.ts',
    prelude: "import type { ClusterIndex } from '../spatial/clusters.js';\nimport type { FrameState } from '../core/frameState.js';\n",
    variants: [{ name: 'decideDescendingMapped', family: 'mapped', desc: true }, { name: 'decideAscendingMapped', family: 'mapped', desc: false }],
  },
  {
    out: 'src/batch/kernels/singleKernels.generated.ts', template: 'decide.template.ts',
    prelude: "import type { ClusterIndex } from '../spatial/clusters.js';\nimport type { FrameState } from '../core/frameState.js';\n",
    variants: [{ name: 'decideDescendingSingle', family: 'single', desc: true }],
  },
  {
    out: 'src/batch/kernels/nextKernels.generated.ts', template: 'decide.template.ts',
    prelude: "import type { ClusterIndex } from '../spatial/clusters.js';\nimport type { FrameState } from '../core/frameState.js';\n\n" +
      '/** No slot list: the kernels below run slots `[start, end)`. */\nexport const NO_LIST = new Int32Array(0);\n',
    variants: [{ name: 'decideDescendingNext', family: 'next', desc: true }, { name: 'decideAscendingNext', family: 'next', desc: false }],
  },
  {
    out: 'src/batch/kernels/metricKernels.generated.ts', template: 'metric.template.ts',
    prelude: '/** How a kernel combines its value with what `out` holds: 0 overwrite, 1 keep the max, 2 keep the min (metricKernels.ts `Combine`). */\n' +
      'export type CombineMode = 0 | 1 | 2;\n',
    variants: ['distance', 'heightPerspective', 'heightOrthographic', 'areaPerspective', 'areaOrthographic'].map((kind) => ({ name: `${kind}Kernel`, kind })),
  },
];

/**
 * The constants of core/layout.ts. The file holds only `export const NAME = EXPR, …;` with EXPR
 * numbers and arithmetic on earlier names, so it is read here without a TypeScript compiler.
 */
export function loadLayout() {
  const text = readFileSync(LAYOUT, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const layout = {};
  for (const [, list] of text.matchAll(/export const ([^;]+);/g)) {
    for (const declarator of list.split(',')) {
      const m = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*([\w\s+\-*/()]+)$/.exec(declarator);
      if (m === null) throw new Error(`src/batch/core/layout.ts: not NAME = arithmetic: ${declarator.trim()}`);
      layout[m[1]] = evaluate(m[2], layout, 'src/batch/core/layout.ts');
    }
  }
  return layout;
}

/** Evaluates `expr` with the fields of `scope` as variables. */
function evaluate(expr, scope, where) {
  try {
    return new Function(...Object.keys(scope), `"use strict"; return (${expr});`)(...Object.values(scope));
  } catch (e) {
    throw new Error(`${where}: cannot evaluate {${expr}}: ${e.message}`);
  }
}

// ---- WebAssembly ----

/**
 * The source of `file` with every `;; @include part.wat [key=value …]` line replaced by that file of
 * the same folder (parts are not compiled on their own), expanded with those values (a part included
 * twice with different values gives two variants of one source): its `;; @if EXPR` / `;; @else` /
 * `;; @endif` lines keep or drop the lines between (EXPR: JavaScript over the values), `@{key}`
 * inserts a value.
 */
export function expandIncludes(file, values = {}) {
  const text = expandVariant(readFileSync(join(WASM_DIR, file), 'utf8'), values, file);
  return text.replace(/^[ \t]*;; @include ([\w.-]+\.part\.wat)((?:[ \t]+\w+=[\w.-]+)*)[ \t]*$/gm, (_, part, args) => {
    const given = Object.fromEntries(args.trim().split(/[ \t]+/).filter(Boolean).map((a) => {
      const [key, value] = a.split('=');
      return [key, /^-?\d+$/.test(value) ? Number(value) : value];
    }));
    return expandIncludes(part, given).replace(/\n$/, '');
  });
}

/** `text` with its `;; @if` blocks resolved and `@{key}` filled from `values` (see {@link expandIncludes}). */
export function expandVariant(text, values, file) {
  const keep = [true], out = [];
  const test = (expr, i) => {
    try { return Boolean(new Function(...Object.keys(values), `return (${expr});`)(...Object.values(values))); }
    catch (e) { throw new Error(`${file} line ${i + 1}: cannot evaluate @if ${expr}: ${e.message}`); }
  };
  text.split('\n').forEach((line, i) => {
    const m = /^[ \t]*;; @(if|else|endif)\b(.*)$/.exec(line);
    if (m === null) { if (keep.every(Boolean)) out.push(line.replace(/@\{(\w+)\}/g, (_, k) => String(values[k]))); return; }
    if (m[1] === 'if') keep.push(test(m[2].trim(), i));
    else if (keep.length === 1) throw new Error(`${file} line ${i + 1}: @${m[1]} without @if`);
    else if (m[1] === 'else') keep[keep.length - 1] = !keep[keep.length - 1];
    else keep.pop();
  });
  if (keep.length !== 1) throw new Error(`${file}: @if without @endif`);
  return out.join('\n');
}

/** `source` with each `{EXPR}` (outside `;;` comments) replaced by its value over the layout constants; each must be a non-negative integer. */
export function substituteLayout(source, layout, name) {
  return source.split('\n').map((line, i) => {
    const at = line.indexOf(';;'), code = at < 0 ? line : line.slice(0, at), comment = at < 0 ? '' : line.slice(at);
    return code.replace(/\{([^{}]+)\}/g, (_, expr) => {
      const value = evaluate(expr, layout, `${name}.wat line ${i + 1}`);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${name}.wat line ${i + 1}: {${expr}} = ${value} is not a byte offset`);
      return String(value);
    }) + comment;
  }).join('\n');
}

/** The generated module text for the (expanded, substituted) WAT source of `name`. */
export async function generateWasm(name, source) {
  const wabt = await wabtInit();
  const module = wabt.parseWat(`${name}.wat`, source, { simd: true });
  module.validate();
  const { buffer } = module.toBinary({ log: false, write_debug_names: false });
  module.destroy();
  const constant = name.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, __, c) => c.toUpperCase()).replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase().replace(/^_/, '');
  // Base64 text, not an array literal: ≈ 3 × smaller in a minified bundle (wasmBytes.ts).
  return `// Generated from ${name}.wat (with src/batch/core/layout.ts) by scripts/generate.mjs with wabt: do not edit.\n` +
    `import { decodeBase64 } from './wasmBytes.js';\n\n` +
    `/** WebAssembly bytes of ${name}.wat (${buffer.length} bytes). */\n` +
    `export const ${constant}_WASM = /* @__PURE__ */ decodeBase64(\n  '${Buffer.from(buffer).toString('base64')}',\n);\n`;
}

// ---- JavaScript kernels ----

/** One variant of a template: directives resolved, placeholders filled. */
export function expandTemplate(text, variant, file) {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => /^\s*\/\/@/.test(l));
  const out = [];
  // stack of { active: this branch is emitted, taken: some branch of this if was, parent: the enclosing one emits }
  const stack = [];
  const on = () => stack.every((s) => s.active);
  for (let i = first < 0 ? 0 : first; i < lines.length; i++) {
    const line = lines[i], where = `${file} line ${i + 1}`;
    const d = /^\s*\/\/@(if|elif|else|endif)\b\s*(.*)$/.exec(line);
    if (d === null) {
      if (on()) out.push(fill(line, variant, where));
      continue;
    }
    const [, kind, expr] = d;
    if (kind === 'if') {
      const parent = on(), value = parent && !!evaluate(expr, variant, where);
      stack.push({ active: value, taken: value, parent });
    } else {
      const top = stack[stack.length - 1];
      if (top === undefined) throw new Error(`${where}: //@${kind} without //@if`);
      if (kind === 'endif') stack.pop();
      else if (kind === 'else') { top.active = top.parent && !top.taken; top.taken = true; }
      else { const value = top.parent && !top.taken && !!evaluate(expr, variant, where); top.active = value; top.taken ||= value; }
    }
  }
  if (stack.length !== 0) throw new Error(`${file}: //@if without //@endif`);
  return out.join('\n');
}

function fill(line, variant, where) {
  return line.replace(/\{\{(=?)([^{}]*)\}\}/g, (_, eq, body) => {
    if (eq === '=') return String(evaluate(body, variant, where));
    if (typeof variant.desc !== 'boolean') throw new Error(`${where}: {{${body}}} in a variant without \`desc\``);
    const parts = body.split(' | ');
    if (parts.length !== 2) throw new Error(`${where}: {{${body}}} needs exactly one ' | '`);
    return (variant.desc ? parts[0] : parts[1]).trim();
  });
}

/** The generated module text of one KERNELS entry. */
export function generateKernels(entry) {
  const file = join(TEMPLATES, entry.template), text = readFileSync(file, 'utf8');
  const body = entry.variants.map((v) => expandTemplate(text, v, rel(file))).join('');
  return `// Generated from scripts/templates/${entry.template} by scripts/generate.mjs: do not edit.\n` +
    `// Variants: ${entry.variants.map((v) => `${v.name} (${Object.entries(v).filter(([k]) => k !== 'name').map(([k, x]) => `${k} ${x}`).join(', ')})`).join('; ')}.\n` +
    `${entry.prelude}${body.replace(/\n+$/, '')}\n`;
}

// ---- main ----

/** Every generated file: [path from the package root, expected text]. */
export async function allOutputs() {
  const layout = loadLayout();
  const outputs = [];
  for (const file of readdirSync(WASM_DIR).filter((f) => f.endsWith('.wat') && !f.endsWith('.part.wat')).sort()) {
    const name = file.slice(0, -4);
    outputs.push([rel(join(WASM_DIR, `${name}.generated.ts`)), await generateWasm(name, substituteLayout(expandIncludes(file), layout, name))]);
  }
  for (const entry of KERNELS) outputs.push([entry.out, generateKernels(entry)]);
  return outputs;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [path, text] of await allOutputs()) {
    const out = join(ROOT, path), same = existsSync(out) && readFileSync(out, 'utf8') === text;
    if (same) continue;
    if (check) { console.error(`${path} is out of date: run node scripts/generate.mjs`); stale++; } else writeFileSync(out, text);
  }
  if (stale > 0) process.exit(1);
}
