/**
 * Startup of 100k instances in Chromium (issue 27, "Must show"; the Node figure: `npm run
 * bench:cold`, bench/startup.ts): bench/startup-page (a Vite production build, lodkit and three
 * bundled, minified) loaded in a FRESH headless Chromium per run (new profile: no code cache), and
 * `new InstancedLOD`, `addInstances` of 100k matrices, the first `update` timed in the page. Prints
 * each run, the range, the machine and its load. A bench, not a test: nothing is asserted.
 * Chromium as the e2e tests start it (test/e2e/browserHarness.ts: Debian's /usr/bin/chromium,
 * headless, --disable-gpu); skipped with a notice where it is not installed.
 *
 * Two rows of runs: the page opened in a browser that has been showing a blank page for
 * `LODKIT_BENCH_SETTLE_MS` (default 1,000 ms) — a user's running browser opening the page, the
 * figure the target is read against — and, for comparison, opened the moment the browser
 * launched, when the page's main thread shares the machine's 2 cores with the browser's own
 * start-up (its GPU, network and storage processes): there every phase took up to 2–3 × as long,
 * in lodkit's code and in three's alike (the same build: 180–366 against 93–163 ms, 6 and 10 runs).
 *
 *   npm run bench:startup-browser                     # 6 runs of each
 *   LODKIT_BENCH_RUNS=3 LODKIT_BENCH_N=100000 npm run bench:startup-browser
 */
import { it } from 'vitest';
import { chromiumOrNotice } from '../test/e2e/browserHarness.js';
import { freshBrowserRuns, loadNow, machineLine } from './browserRuns.js';

const RUNS = Number(process.env.LODKIT_BENCH_RUNS ?? 6);
const N = Number(process.env.LODKIT_BENCH_N ?? 100_000);
const SETTLE_MS = Number(process.env.LODKIT_BENCH_SETTLE_MS ?? 1000);

interface Phases { construct: number; add: number; update: number; visible: number }
interface StartupResult { instances: number; scriptMs: number; first: Phases; second: Phases }

async function table(settleMs: number, title: string): Promise<{ lines: string[]; version: string }> {
  const { results, version } = await freshBrowserRuns<StartupResult>('bench/startup-page/vite.config.ts', 'bench-startup', RUNS, `?n=${N}`, 'startupResult', settleMs);
  const lines: string[] = [];
  const totals: number[] = [];
  results.forEach((res, r) => {
    const f = res.first, s = res.second, total = f.construct + f.add + f.update;
    totals.push(total);
    lines.push(`| ${r + 1} | ${res.scriptMs.toFixed(1)} | ${f.construct.toFixed(1)} | ${f.add.toFixed(1)} | ${f.update.toFixed(1)} | **${total.toFixed(1)}** | ${s.construct.toFixed(1)} / ${s.add.toFixed(1)} / ${s.update.toFixed(1)} |`);
  });
  const sorted = totals.slice().sort((a, b) => a - b);
  return {
    version,
    lines: [
      title, '',
      '| run | navigation → script ms | new InstancedLOD ms | addInstances ms | first update ms | **the three phases ms** | same page, second instance: new / add / update ms |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      ...lines, '',
      `the three phases: ${sorted[0].toFixed(1)}–${sorted[sorted.length - 1].toFixed(1)} ms (median ${sorted[sorted.length >> 1].toFixed(1)})`, '',
    ],
  };
}

it(`startup of ${N} instances in Chromium, ${RUNS} + ${RUNS} fresh browsers`, async () => {
  if (!chromiumOrNotice('the Chromium startup bench')) return;
  const loadAtStart = loadNow();
  const settled = await table(SETTLE_MS, `**Opened after ${SETTLE_MS} ms on a blank page** (the browser started)`);
  const atLaunch = await table(0, '**Opened at launch** (beside the browser\'s own start-up)');
  console.log([
    `startup of ${N.toLocaleString('en-US')} instances in Chromium ${settled.version} (headless, --disable-gpu), ${RUNS} fresh browsers a row`,
    machineLine(loadAtStart), '',
    ...settled.lines, ...atLaunch.lines,
  ].join('\n'));
});
