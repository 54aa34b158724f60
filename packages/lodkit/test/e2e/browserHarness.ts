/**
 * Shared set-up of the Chromium end-to-end tests (the quick `*.test.ts` files and the full-size
 * `*.full.test.ts` ones): Debian's Chromium (headless; SwiftShader for WebGL and, with
 * `--enable-unsafe-webgpu`, for WebGPU), a page built with Vite into test-artifacts/ and served
 * from 127.0.0.1, and the console errors a page reports. Every suite skips with a notice when
 * /usr/bin/chromium is not installed (`.ci/run` installs it).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { serveDirectory } from './staticServer.js';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** The lodkit package (packages/lodkit). */
export const ROOT = resolve(import.meta.dirname, '../..');
/** Builds, screenshots and other outputs of the tests (ignored by git). */
export const ARTIFACTS = join(ROOT, 'test-artifacts');

/** Whether Chromium is there; warns that `what` is skipped when it is not. */
export function chromiumOrNotice(what: string): boolean {
  if (!HAS_CHROMIUM) console.warn(`[e2e] SKIPPED ${what}: ${CHROMIUM} not found (install Debian's "chromium" package).`);
  return HAS_CHROMIUM;
}

export interface LaunchOptions {
  /** `--disable-gpu` (software WebGL in the renderer's GPU process as SwiftShader; default true). */
  disableGpu?: boolean;
  /** `--enable-unsafe-webgpu` (SwiftShader's WebGPU adapter; default false). */
  webgpu?: boolean;
}

/** Headless Chromium with the flags every e2e test uses (no sandbox, no background traffic). */
export async function launchChromium({ disableGpu = true, webgpu = false }: LaunchOptions = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: [
      '--no-sandbox', ...(disableGpu ? ['--disable-gpu'] : []), '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', ...(webgpu ? ['--enable-unsafe-webgpu'] : []),
    ],
  });
}

export interface Server { url: string; close: () => Promise<void> }

/**
 * Builds a Vite site (`config` relative to the package) into test-artifacts/`out` and serves it.
 * Each test file builds into its own `out`: files may run at the same time.
 */
export async function buildAndServe(config: string, out: string): Promise<Server> {
  const dir = join(ARTIFACTS, out);
  mkdirSync(dir, { recursive: true });
  const { build } = await import('vite');
  await build({ configFile: join(ROOT, config), logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  return serveDirectory(dir);
}

/** A built site, its server and a browser: what a suite's `beforeAll` sets up and `afterAll` closes. */
export interface Site { server: Server; browser: Browser; close: () => Promise<void> }

export async function openSite(config: string, out: string, launch?: LaunchOptions): Promise<Site> {
  const server = await buildAndServe(config, out);
  const browser = await launchChromium(launch).catch(async (e: unknown) => { await server.close(); throw e; });
  return { server, browser, close: async () => { await browser.close(); await server.close(); } };
}

/**
 * Appends the page's console errors (and, with `warnings`, its warnings) and uncaught exceptions
 * to `errors`, each prefixed with `prefix` ("console: …", "pageerror: …" without one).
 */
export function collectErrors(page: Page, errors: string[], { prefix = '', warnings = false }: { prefix?: string; warnings?: boolean } = {}): void {
  const lead = prefix === '' ? '' : `${prefix} `;
  page.on('console', (m) => { if (m.type() === 'error' || (warnings && m.type() === 'warning')) errors.push(`${lead}console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`${lead}pageerror: ${e.message}`));
}

/** Waits for the page's `document.body.dataset.ready === '1'` (the fixtures set it once loaded). */
export async function waitForReady(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.ready === '1', undefined, { timeout });
}
