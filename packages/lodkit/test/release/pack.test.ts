// The published package, as a new user gets it: `npm pack`, then `npm install <tarball>` in an empty
// folder with peers omitted. lodkit promises zero dependencies, so nothing but lodkit may land in
// node_modules, and the core entry must load without any peer.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist, PACKAGE_ROOT } from '../helpers/dist.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The environment without the npm_* variables of an enclosing `npm test` (workspace, prefix…). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return env;
}

interface PackResult { filename: string; files: { path: string; size: number }[]; size: number; unpackedSize: number }

describe('npm pack + install of lodkit', () => {
  let work = '';
  let packed: PackResult;
  let app = '';

  beforeAll(() => {
    assertFreshDist();
    work = mkdtempSync(join(tmpdir(), 'lodkit-pack-'));
    // --ignore-scripts: the package's prepack cleans and rebuilds dist/, which other test files of
    // this run are reading; the stale-file check below stands in for the clean.
    const out = execFileSync(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: PACKAGE_ROOT, encoding: 'utf8', env: cleanEnv(), timeout: 120_000 });
    packed = (JSON.parse(out) as PackResult[])[0];
    app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'lodkit-pack-probe', private: true, type: 'module' }));
    execFileSync(NPM, ['install', join(work, packed.filename), '--omit=peer', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      { cwd: app, encoding: 'utf8', env: cleanEnv(), timeout: 180_000 });
  }, 300_000);

  afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

  it('ships dist/ and the README only: no source maps, no sources, no tests', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain('package.json');
    expect(paths).toContain('README.md');
    expect(paths).toContain('dist/index.js');
    expect(paths).toContain('dist/index.d.ts');
    expect(paths).toContain('dist/adapters/three/gltfLodPlugin.js');
    const unexpected = paths.filter((p) => !(p === 'package.json' || p === 'README.md' || p === 'LICENSE' || p.startsWith('dist/')));
    expect(unexpected).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
  });

  it('ships no stale build output: every dist/ file comes from a current source file', () => {
    const stale = packed.files.map((f) => f.path).filter((p) => p.startsWith('dist/'))
      .filter((p) => !existsSync(join(PACKAGE_ROOT, 'src', p.slice('dist/'.length).replace(/\.d\.ts$|\.js$/, '.ts'))));
    expect(stale).toEqual([]);
  });

  it('installs with peers omitted and brings no other package into node_modules', () => {
    const modules = readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(modules).toEqual(['lodkit']);
  });

  it('loads the core entry with no peer installed', () => {
    const script = "const m = await import('lodkit'); const t = new m.LodThresholds({ metric: 'pixels', thresholds: [80, 20] }); console.log(JSON.stringify([typeof m.Frustum, t.computeLod(50)]));";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8', env: cleanEnv() });
    expect(JSON.parse(out)).toEqual(['function', 1]);
  });

  it('fails to load lodkit/three without three with Node\'s own "cannot find package" error, not a crash inside lodkit', () => {
    let message = '';
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', "await import('lodkit/three')"], { cwd: app, encoding: 'utf8', env: cleanEnv(), stdio: 'pipe' });
    } catch (error) {
      message = String((error as { stderr?: string }).stderr);
    }
    expect(message).toMatch(/Cannot find package 'three'/);
  });
});
