/**
 * Report polish: every policy visible in every chart (its own dash, marker and width, so coinciding
 * lines still show), one tooltip listing every series, the x axis ending at the data, and tables
 * that scroll inside themselves at phone width. The chart options are read from the page script
 * (run in a VM with a recording Chart stand-in); a Chromium run, when Debian's chromium is
 * installed, checks the real page at 375 px.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { builtInScene } from '../../src/simulator/scenarios/index.js';
import { simulate } from '../../src/simulator/simulate.js';
import { loadChartJsSource, renderHtmlReport } from '../../src/simulator/report/html.js';

const { result, timings } = simulate(builtInScene('motogp'), { frames: 120 });
const names = result.policies.map((p) => p.name);
const lastTime = result.policies[0].frames.at(-1)!.time;
const firstTime = result.policies[0].frames[0].time;

function pageConfigs(html: string): Map<string, any> {
  const script = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])[1];
  const charts = new Map<string, any>();
  class Chart {
    chartArea = { width: 100 };
    constructor(canvas: { id: string }, config: any) { charts.set(canvas.id, config); }
  }
  runInNewContext(script, { Chart, document: { getElementById: (id: string) => ({ id }), body: { dataset: {} } } });
  return charts;
}

describe('report charts: every policy visible, all-series tooltip, x axis on the data', () => {
  const html = renderHtmlReport(result, timings, '/* no chart.js */');
  const charts = pageConfigs(html);

  it('covers the three charts the report draws (and any other one built by the same function)', () => {
    expect([...charts.keys()]).toEqual(expect.arrayContaining(['cost', 'loss', 'pops']));
  });

  for (const id of ['cost', 'loss', 'pops']) {
    it(`${id}: each policy has its own dash + marker, earlier lines are wider, markers are drawn`, () => {
      const datasets = charts.get(id).data.datasets.filter((d: any) => names.includes(d.label));
      expect(datasets.map((d: any) => d.label)).toEqual(names);
      const styles = datasets.map((d: any) => `${JSON.stringify(d.borderDash)} ${d.pointStyle}`);
      expect(new Set(styles).size).toBe(names.length);
      for (let i = 1; i < datasets.length; i++) expect(datasets[i].borderWidth).toBeLessThan(datasets[i - 1].borderWidth);
      for (const d of datasets) {
        const shown = d.data.filter((_: unknown, k: number) => d.pointRadius({ dataIndex: k }) > 0).length;
        expect(shown, d.label).toBeGreaterThanOrEqual(8);
        expect(shown, d.label).toBeLessThanOrEqual(16);
      }
    });

    it(`${id}: tooltip and hover list every series at the hovered time; the x axis is [first frame, last frame]`, () => {
      const options = charts.get(id).options;
      expect(options.interaction).toEqual({ mode: 'x', intersect: false });
      expect(options.plugins.tooltip).toMatchObject({ mode: 'x', intersect: false });
      expect(options.scales.x.min).toBe(firstTime);
      expect(options.scales.x.max).toBe(lastTime);
    });
  }

  it('tables scroll inside themselves and the page narrows for phones', () => {
    expect(html).toMatch(/table \{[^}]*display: block;[^}]*overflow-x: auto;/);
    expect(html).toMatch(/@media \(max-width: 640px\)/);
  });
});

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) console.warn(`[report] SKIPPED the Chromium check of the report: ${CHROMIUM} not found (install Debian's "chromium" package).`);

describe.skipIf(!existsSync(CHROMIUM))('report in Chromium at phone width', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lodkit-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('no horizontal page overflow at 375 px; one hover lists every policy; the axis ends at the last frame', async () => {
    const file = join(dir, 'index.html');
    writeFileSync(file, renderHtmlReport(result, timings, loadChartJsSource()));
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
      await page.goto(pathToFileURL(file).href);
      // Page code as strings: the CLI package is type-checked without the DOM library.
      await page.waitForFunction('Number(document.body.dataset.chartsRendered) >= 3');
      const widths = await page.evaluate('({ page: document.documentElement.scrollWidth, view: window.innerWidth })') as { page: number; view: number };
      expect(widths.page).toBeLessThanOrEqual(widths.view);
      const canvas = page.locator('#cost');
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
      const state = await page.evaluate(`(() => {
        const chart = Chart.getChart('cost');
        return { labels: chart.tooltip.dataPoints.map((d) => d.dataset.label), max: chart.scales.x.max, min: chart.scales.x.min };
      })()`) as { labels: string[]; max: number; min: number };
      expect(state.labels).toEqual(expect.arrayContaining(names));
      expect(state.max).toBe(lastTime);
      expect(state.min).toBe(firstTime);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
