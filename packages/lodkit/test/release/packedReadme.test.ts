// The README a user reads on npm or in node_modules is the one in the tarball, without the
// repository around it: every relative link in it must name a file the tarball holds, and every
// absolute link must be https and point at the repository (to a file that exists in it) or at a
// well-known site. Checked for both published packages (lodkit, @lodkit/cli) with the file list of
// `npm pack --dry-run --json`, together with the package metadata npm shows beside the README.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../helpers/dist.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const REPO_ROOT = join(PACKAGE_ROOT, '..', '..');
const REPOSITORY = 'https://github.com/lodkit/lodkit';
/** Hosts a README may link to besides the repository. */
const WELL_KNOWN_HOSTS = new Set([
  'www.npmjs.com', 'npmjs.com', 'nodejs.org', 'developer.mozilla.org', 'www.typescriptlang.org',
  'threejs.org', 'gltf-transform.dev', 'openusd.org', 'www.khronos.org', 'registry.khronos.org', 'www.w3.org',
]);

/** The environment without the npm_* variables of an enclosing `npm test` (workspace, prefix…). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return env;
}

/** Markdown without fenced code blocks and inline code spans (links inside code are not links). */
function stripCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link target of a README: inline links and images, reference definitions, autolinks, HTML href/src. */
export function linkTargets(markdown: string): string[] {
  const text = stripCode(markdown);
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^()\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  for (const m of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) out.push(m[1]);
  for (const m of text.matchAll(/<((?:https?|ftp|file):[^>\s]+)>/g)) out.push(m[1]);
  for (const m of text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)) out.push(m[1]);
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of stripCodeBlocksOnly(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    anchors.add(m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
  }
  return anchors;
}

function stripCodeBlocksOnly(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/**
 * The problems of a packed README's links: `files` is the tarball's file list (paths relative to the
 * package root, where README.md lies), `repoRoot` the repository a `/blob/main/…` link must exist in.
 */
export function linkProblems(markdown: string, files: readonly string[], repoRoot: string): string[] {
  const problems: string[] = [];
  const packed = new Set(files);
  const anchors = headingAnchors(markdown);
  for (const target of linkTargets(markdown)) {
    if (target.startsWith('#')) {
      if (!anchors.has(decodeURIComponent(target.slice(1)))) problems.push(`${target}: no such heading in the README`);
      continue;
    }
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target);
    if (scheme === null) {
      if (target.startsWith('/')) { problems.push(`${target}: a root-relative link resolves to nothing outside a website`); continue; }
      const path = posix.normalize(decodeURIComponent(target.split(/[?#]/)[0]));
      if (path.startsWith('../') || path === '..') problems.push(`${target}: points outside the package`);
      else if (!packed.has(path) && !files.some((f) => f.startsWith(`${path.replace(/\/$/, '')}/`))) problems.push(`${target}: not in the tarball`);
      continue;
    }
    if (scheme[1].toLowerCase() !== 'https') { problems.push(`${target}: not an https link`); continue; }
    let url: URL;
    try { url = new URL(target); } catch { problems.push(`${target}: not a valid URL`); continue; }
    const repo = new URL(REPOSITORY);
    if (url.host === repo.host && (url.pathname === repo.pathname || url.pathname.startsWith(`${repo.pathname}/`) || url.pathname === `${repo.pathname}.git`)) {
      // A file or folder of the repository's main branch must exist in this checkout.
      const file = /^\/[^/]+\/[^/]+\/(?:blob|tree)\/main\/(.+)$/.exec(url.pathname);
      if (file !== null && !existsSync(join(repoRoot, ...decodeURIComponent(file[1]).split('/')))) problems.push(`${target}: no ${file[1]} in the repository`);
      continue;
    }
    if (!WELL_KNOWN_HOSTS.has(url.host)) problems.push(`${target}: ${url.host} is neither the repository nor a well-known site`);
  }
  return problems;
}

interface PackResult { name: string; files: { path: string }[] }

describe('links in a README check', () => {
  const files = ['package.json', 'README.md', 'dist/index.js', 'docs/guide.md'];

  it('finds inline links, images, reference definitions, autolinks and HTML links, not those in code', () => {
    const md = '[a](x.md) ![b](img/y.png "t") <https://nodejs.org/> <a href="z.md">z</a>\n[ref]: docs/r.md\n`[c](code.md)`\n```\n[d](block.md)\n```\n';
    expect(linkTargets(md)).toEqual(['x.md', 'img/y.png', 'docs/r.md', 'https://nodejs.org/', 'z.md']);
  });

  it('accepts packed files, headings, the repository and well-known https sites', () => {
    const md = '# Use it\n[g](docs/guide.md#top) [d](./dist/index.js) [h](#use-it) [r](https://github.com/lodkit/lodkit#readme) [n](https://www.npmjs.com/package/lodkit)\n';
    expect(linkProblems(md, files, REPO_ROOT)).toEqual([]);
  });

  it('rejects a file not in the tarball, a path outside the package, http, an unknown host, a missing heading and a repository file that does not exist', () => {
    const md = [
      '[a](docs/missing.md)', '[b](../../docs/three.md)', '[c](http://github.com/lodkit/lodkit)',
      '[d](https://example.com/x)', '[e](#nowhere)', '[f](https://github.com/lodkit/lodkit/blob/main/docs/no-such-guide.md)',
    ].join(' ');
    expect(linkProblems(md, files, REPO_ROOT)).toHaveLength(6);
  });
});

describe.each([['lodkit', PACKAGE_ROOT], ['@lodkit/cli', join(PACKAGE_ROOT, '..', 'cli')]])('the packed README of %s', (name, root) => {
  let packed: PackResult;

  beforeAll(() => {
    // --ignore-scripts: prepack would clean and rebuild dist/, which other test files are reading.
    const out = execFileSync(NPM, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', env: cleanEnv(), timeout: 120_000 });
    packed = (JSON.parse(out) as PackResult[])[0];
  }, 150_000);

  it('is in the tarball', () => {
    expect(packed.name).toBe(name);
    expect(packed.files.map((f) => f.path)).toContain('README.md');
  });

  it('links only to files in the tarball, the repository and well-known https sites', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(linkTargets(readme).length).toBeGreaterThan(0);
    expect(linkProblems(readme, packed.files.map((f) => f.path), REPO_ROOT)).toEqual([]);
  });

  it('says where the guides and the API reference are', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toMatch(/API reference/);
    expect(linkTargets(readme).some((t) => t.startsWith(`${REPOSITORY}/blob/main/docs/`))).toBe(true);
  });

  it('has the repository, homepage, bugs and keywords npm shows beside it', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.repository).toEqual({ type: 'git', url: `git+${REPOSITORY}.git`, directory: root === PACKAGE_ROOT ? 'packages/lodkit' : 'packages/cli' });
    expect(String(pkg.homepage)).toMatch(new RegExp(`^${REPOSITORY.replace(/[./]/g, '\\$&')}(/tree/main/packages/cli)?#readme$`));
    expect(pkg.bugs).toEqual({ url: `${REPOSITORY}/issues` });
    expect(pkg.keywords).toEqual(expect.arrayContaining(['lod', 'level-of-detail']));
  });
});
