/**
 * The HTML report without a browser: its inline page script runs in a VM with a recording stand-in
 * for Chart.js and a minimal document, so the chart wiring (datasets, points, budget line, shot
 * markers, the rendered flag) is checked; Chart.js itself is checked to be the inlined UMD build.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseScene } from '../../src/simulator/sceneFormat.js';
import { simulate } from '../../src/simulator/simulate.js';
import { formatComparisonTable } from '../../src/simulator/report/table.js';
import { loadChartJsSource, renderHtmlReport } from '../../src/simulator/report/html.js';
import { tinyMovingScene } from './fixtures.js';

const scene = parseScene(tinyMovingScene({
  policies: [{ name: 'screen <b>', policy: 'thresholds' }, { name: 'quota', policy: 'rankQuota', quotas: [0] }],
}));
const { result, timings } = simulate(scene);

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
}

describe('renderHtmlReport', () => {
  const FAKE_CHART_JS = '/* fake chart.js */ var fakeLoaded = true;';
  const html = renderHtmlReport(result, timings, FAKE_CHART_JS);

  it('inlines the given Chart.js source first and the page script second, escaping HTML in names', () => {
    const scripts = inlineScripts(html);
    expect(scripts).toHaveLength(2);
    expect(scripts[0]).toBe(FAKE_CHART_JS);
    expect(html).toContain('screen &lt;b&gt;');
    expect(html).not.toContain('screen <b>');
  });

  it('the page script builds three charts with one dataset per policy, one point per frame, and the budget line', () => {
    const charts: Array<{ id: string; config: any }> = [];
    const dataset: Record<string, string> = {};
    class Chart {
      chartArea = { top: 0, bottom: 100, left: 0, right: 200, width: 200, height: 100 };
      constructor(canvas: { id: string }, config: any) { charts.push({ id: canvas.id, config }); }
    }
    const document = { getElementById: (id: string) => ({ id }), body: { dataset } };
    runInNewContext(inlineScripts(html)[1], { Chart, document });
    expect(charts.map((c) => c.id)).toEqual(['cost', 'loss', 'pops', 'tradeoff']);
    const [cost, loss, pops] = charts.map((c) => c.config.data.datasets);
    expect(cost.map((d: any) => d.label)).toEqual(['screen <b>', 'quota', 'budget']);
    expect(cost[0].data).toEqual([{ x: 0, y: 1000 }, { x: 0.25, y: 100 }, { x: 0.5, y: 10 }, { x: 0.75, y: 10 }]);
    expect(cost[2].data).toEqual([{ x: 0, y: 500 }, { x: 0.75, y: 500 }]); // budget 500 across the run
    expect(loss.map((d: any) => d.label)).toEqual(['screen <b>', 'quota']);
    // quotas [0]: always level 2; frame 0 wants level 0 at 50 px → 100, frame 1 wants 1 at 7.14 px → 7.143
    expect(loss[1].data.map((p: any) => p.y)).toEqual([100, 7.143, 0, 0]);
    expect(pops[0].data.map((p: any) => p.y)).toEqual([0, 1, 1, 0]);
    expect(dataset.chartsRendered).toBe('4');
    // Cost vs quality vs pops: one bubble per policy at (mean cost, mean screen-space loss).
    const bubbles = charts[3].config.data.datasets;
    expect(bubbles.map((d: any) => d.label)).toEqual(['screen <b>', 'quota']);
    expect(bubbles[0].data[0].x).toBe(280); // (1000 + 100 + 10 + 10) / 4
    expect(bubbles[1].data[0].x).toBe(10);
    expect(bubbles[1].data[0].levels).toBeCloseTo((100 + 7.143) / 4, 3);
    // The shot marker plugin draws one line per shot on a real-looking chart.
    const plugin = charts[0].config.plugins[0];
    const calls: string[] = [];
    const ctx = new Proxy({}, { get: (_t, name) => (name === 'fillText' ? (text: string) => calls.push(text) : () => undefined), set: () => true });
    plugin.afterDraw({ scales: { x: { getPixelForValue: (v: number) => v * 100 } }, chartArea: { top: 0, bottom: 100 }, ctx });
    expect(calls).toEqual(['still']);
  });

  it('adds the frame-time trace against its target when a policy has one', () => {
    const governed = simulate(parseScene(tinyMovingScene({
      policies: [{ name: 'screen', policy: 'thresholds' }, { name: 'gov', policy: 'budget', frameMs: 2 }],
    }))).result;
    const charts: Array<{ id: string; config: any }> = [];
    const dataset: Record<string, string> = {};
    class Chart {
      chartArea = { top: 0, bottom: 100, left: 0, right: 200, width: 200, height: 100 };
      constructor(canvas: { id: string }, config: any) { charts.push({ id: canvas.id, config }); }
    }
    runInNewContext(inlineScripts(renderHtmlReport(governed, undefined, '/* */'))[1], { Chart, document: { getElementById: (id: string) => ({ id }), body: { dataset } } });
    expect(charts.map((c) => c.id)).toEqual(['cost', 'loss', 'pops', 'tradeoff', 'frametime']);
    const lines = charts[4].config.data.datasets;
    expect(lines.map((d: any) => d.label)).toEqual(['gov', 'target 2 ms', '+10 %', '−10 %']);
    expect(lines[0].data.map((p: any) => p.y)).toEqual(governed.policies[1].frames.map((f) => f.gpuMs));
    expect(lines[2].data[0].y).toBeCloseTo(2.2, 12);
    expect(dataset.chartsRendered).toBe('5');
  });

  it('has the comparison table, the per-shot table and the parameters', () => {
    expect(html).toContain('<h2>Per camera shot</h2>');
    expect(html).toContain('<th colspan="3">still</th>');
    // screen: mean cost 280, worst 1000 in the one shot
    expect(html).toMatch(/<td>screen &lt;b&gt;<\/td><td class="num">280<\/td><td class="num">1,000<\/td>/);
    expect(html).toContain('<th>profile p</th>');
    expect(formatComparisonTable(result)).toContain('| screen <b> |');
  });

  it('never lets inlined text close the script element early', () => {
    const evil = renderHtmlReport(result, undefined, 'var s = "</script><script>alert(1)</script>";');
    expect(inlineScripts(evil)).toHaveLength(2);
    expect(evil).toContain('<\\/script><script>alert(1)<\\/script>');
  });

  it('loads the real Chart.js UMD build from the installed package', () => {
    const source = loadChartJsSource();
    expect(source).toMatch(/^\/\*!\n \* Chart\.js v4\.6\.1/);
    expect(source.length).toBeGreaterThan(100_000);
  });
});
