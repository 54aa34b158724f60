/**
 * Issue 25's pack test: `npm pack` of lodkit and @lodkit/react, installed into an empty React +
 * r3f app with only @lodkit/react's peers (react, react-dom, @react-three/fiber, three, lodkit) and
 * the type packages (@types/react, @types/react-dom, @types/three) at the repository's versions,
 * offline from npm's cache (`--prefer-offline`); a strict TypeScript consumer using every export
 * (consumer/main.tsx) type-checks with TypeScript 5.9 and with the repository's TypeScript, and
 * consumer/broken.tsx fails with exactly its three misuses. The packed package must contain only
 * dist/, README.md and package.json, declare no dependencies, and be `sideEffects: false`.
 * `npm run test:full` only (packing and installing take longer than the quick suite allows).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../../../lodkit/test/helpers/dist.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const PACKAGE = resolve(import.meta.dirname, '..', '..');
const REPO = resolve(PACKAGE, '..', '..');
const LODKIT = join(REPO, 'packages', 'lodkit');
const TSC_59 = join(REPO, 'packages', 'compat', 'typedoc', 'node_modules', 'typescript', 'bin', 'tsc');
const TSC_REPO = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const CONSUMER = join(import.meta.dirname, 'consumer');

/** The environment without the npm_* variables of an enclosing `npm test`. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return env;
}

function pack(dir: string, into: string): { file: string; files: string[] } {
  const out = execFileSync(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', into], { cwd: dir, encoding: 'utf8', env: cleanEnv(), timeout: 120_000 });
  const info = (JSON.parse(out) as { filename: string; files: { path: string }[] }[])[0];
  return { file: join(into, info.filename), files: info.files.map((f) => f.path) };
}

function typeCheck(tsc: string, app: string, project: string): string[] {
  const run = spawnSync(process.execPath, [tsc, '-p', project], { cwd: app, encoding: 'utf8', timeout: 180_000 });
  return `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l)).map((l) => l.trim());
}

describe('@lodkit/react from its packed tarball in an empty React + r3f app', () => {
  let work = '';
  let app = '';
  let files: string[] = [];

  beforeAll(() => {
    assertFreshDist(LODKIT);
    assertFreshDist(PACKAGE);
    work = mkdtempSync(join(tmpdir(), 'lodkit-react-pack-'));
    const lodkit = pack(LODKIT, work);
    const react = pack(PACKAGE, work);
    files = react.files;
    app = join(work, 'app');
    const pinned = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({
      name: 'lodkit-react-consumer', private: true, type: 'module',
      dependencies: {
        '@lodkit/react': `file:${react.file}`, lodkit: `file:${lodkit.file}`,
        react: pinned.react, 'react-dom': pinned['react-dom'], '@react-three/fiber': pinned['@react-three/fiber'], three: pinned.three,
      },
      devDependencies: { '@types/react': pinned['@types/react'], '@types/react-dom': pinned['@types/react-dom'], '@types/three': pinned['@types/three'] },
    }, null, 2));
    const compilerOptions = {
      target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], jsx: 'react-jsx',
      strict: true, noEmit: true, isolatedModules: true, skipLibCheck: false, noUnusedLocals: true, exactOptionalPropertyTypes: true, types: [],
    };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['main.tsx'] }, null, 2));
    writeFileSync(join(app, 'tsconfig.broken.json'), JSON.stringify({ compilerOptions, files: ['broken.tsx'] }, null, 2));
    copyFileSync(join(CONSUMER, 'main.tsx'), join(app, 'main.tsx'));
    copyFileSync(join(CONSUMER, 'broken.tsx'), join(app, 'broken.tsx'));
    execFileSync(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', env: cleanEnv(), timeout: 300_000, stdio: 'pipe' });
  }, 600_000);

  afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); }, 120_000);

  it('packs dist/, README.md and package.json only, with no dependencies and sideEffects false', () => {
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', '@lodkit', 'react', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.sideEffects).toBe(false);
    expect(Object.keys(manifest.peerDependencies as object).sort()).toEqual(['@react-three/fiber', 'lodkit', 'react', 'three']);
  });

  it('installs one copy of three and of react (the peers), resolved from the app', () => {
    const ls = spawnSync(NPM, ['ls', 'three', 'react', '--all', '--parseable'], { cwd: app, encoding: 'utf8', env: cleanEnv() });
    const paths = ls.stdout.split('\n').filter((l) => /node_modules\/(three|react)$/.test(l));
    expect(new Set(paths.map((p) => p.slice(p.lastIndexOf('node_modules'))))).toEqual(new Set(['node_modules/three', 'node_modules/react']));
  });

  it('a strict consumer using every export type-checks (TypeScript 5.9 and the repository\'s)', () => {
    expect(typeCheck(TSC_59, app, 'tsconfig.json')).toEqual([]);
    expect(typeCheck(TSC_REPO, app, 'tsconfig.json')).toEqual([]);
  });

  it('the misuses in broken.tsx are rejected, each on its own line', () => {
    const errors = typeCheck(TSC_59, app, 'tsconfig.broken.json');
    const lines = [...new Set(errors.map((e) => /broken\.tsx\((\d+),/.exec(e)?.[1]))].sort();
    expect(lines, errors.join('\n')).toEqual(['4', '5', '6']);
  });
});
