/**
 * The loop of the Chromium benches (startup.browser.bench.ts, jump.browser.bench.ts): a page built
 * and served once, loaded in a FRESH headless Chromium per run (new profile: no code cache, as
 * the e2e tests start it: test/e2e/browserHarness.ts), each run's result read from `window`.
 */
import { cpus, loadavg } from 'node:os';
import { buildAndServe, launchChromium, waitForReady } from '../test/e2e/browserHarness.js';

/** The load average, 1 / 5 / 15 min. */
export const loadNow = (): string => loadavg().map((x) => x.toFixed(2)).join(' / ');

/** The "_Machine: …_" line of a bench table. */
export function machineLine(loadAtStart: string): string {
  return `_Machine: ${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores, Node ${process.version}; load average (1 / 5 / 15 min) ${loadAtStart} at start, ${loadNow()} at end._`;
}

/**
 * Builds the page of Vite config `config` into test-artifacts/`out`, loads it with `query` in
 * `runs` fresh browsers, waits for `document.body.dataset.ready` and returns each run's
 * `window[resultKey]` and the browser's version. `settleMs` > 0: each browser first shows a blank
 * page for that long, so the page runs in a browser that has finished starting (as a user's
 * running browser) rather than beside its own start-up work; still a fresh profile (no code cache).
 */
export async function freshBrowserRuns<T>(config: string, out: string, runs: number, query: string, resultKey: string, settleMs = 0): Promise<{ results: T[]; version: string }> {
  const server = await buildAndServe(config, out);
  const results: T[] = [];
  let version = '';
  try {
    for (let r = 0; r < runs; r++) {
      const browser = await launchChromium();
      try {
        version = browser.version();
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        if (settleMs > 0) { await page.goto('about:blank'); await new Promise((done) => setTimeout(done, settleMs)); }
        await page.goto(`${server.url}${query}`);
        await waitForReady(page, 300_000).catch((e: unknown) => { throw new Error(`page not ready: ${errors.join('; ') || String(e)}`); });
        results.push(await page.evaluate((key) => (window as unknown as Record<string, unknown>)[key], resultKey) as T);
      } finally {
        await browser.close();
      }
    }
  } finally {
    await server.close();
  }
  return { results, version };
}
