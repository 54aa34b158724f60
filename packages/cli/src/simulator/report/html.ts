/**
 * The self-contained HTML report of `lodkit simulate --out DIR`: charts of triangles per frame
 * against the budget line, quality loss per frame and pops per frame, the trade-off charts of
 * tradeoffCharts.ts (cost vs quality vs pops; frame time vs target), the comparison table and the
 * scenario's parameters — one file that opens from disk with no server and no network.
 *
 * Contributor notes:
 * - Chart.js's UMD build is read from the installed package at run time and inlined in a
 *   `<script>`; nothing is fetched. Any `</script` inside inlined text is escaped, and the data
 *   JSON escapes `<` as `\u003c`, so neither can close the script element early.
 * - Shot changes are drawn by a ten-line inline Chart.js plugin (vertical dashed lines with the
 *   shot name) rather than the annotation plugin, which would be a second dependency.
 * - When every chart has drawn, the page sets `document.body.dataset.chartsRendered` to the number
 *   of charts: a browser test waits for that attribute.
 * - Both files go through `writeOutputs` (files.ts): written into a temporary folder beside them
 *   and renamed in, `index.html` last, so a crash or Ctrl-C never leaves a half-written report and
 *   a failure between the two leaves neither.
 * - `result.json` is the `--json` document byte for byte (compact): indented, a run at the
 *   frame-record ceiling made 183 MB instead of 98 MB.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { writeOutputs, type OutputFile, type WriteOutputsOptions } from '../files.js';
import type { SimulationResult, SimulationTimings } from '../simulate.js';
import { comparisonRows, TABLE_COLUMNS } from './table.js';
import { renderTradeoffCharts } from './tradeoffCharts.js';

/** File name of the report inside the output directory. @category Simulator */
export const REPORT_FILE = 'index.html';
/** File name of the JSON result written next to the report. @category Simulator */
export const REPORT_JSON_FILE = 'result.json';

/**
 * Reads Chart.js's UMD build from the installed `chart.js` package.
 * @example
 * ```ts
 * const source = loadChartJsSource();
 * ```
 * @category Simulator
 */
export function loadChartJsSource(): string {
  const require = createRequire(import.meta.url);
  // The package exports only its ESM/CJS entries; the UMD build sits next to the CJS one.
  const cjs = require.resolve('chart.js');
  return readFileSync(join(dirname(cjs), 'chart.umd.min.js'), 'utf8');
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function scriptSafe(s: string): string {
  return s.replace(/<\/script/gi, '<\\/script');
}

const PALETTE = ['#d62728', '#7f7f7f', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
/**
 * Per-policy line dashes and markers, so every policy stays visible where lines coincide (budget
 * and hybrid often draw the same triangles for whole shots) and apart without colour.
 */
const DASHES: number[][] = [[], [10, 4], [3, 3], [12, 3, 3, 3], [6, 6], [2, 6], [14, 6], [8, 3, 2, 3], [4, 8]];
const MARKERS = ['circle', 'triangle', 'rect', 'rectRot', 'crossRot', 'star', 'cross', 'rectRounded', 'line'];

/**
 * Renders the report as one HTML string (pass {@link loadChartJsSource}'s result as `chartJs`).
 * @example
 * ```ts
 * const html = renderHtmlReport(result, timings, loadChartJsSource());
 * ```
 * @category Simulator
 */
export function renderHtmlReport(result: SimulationResult, timings: SimulationTimings | undefined, chartJs: string): string {
  const s = result.scene;
  const rows = comparisonRows(result, timings);
  const table = `<table><thead><tr>${TABLE_COLUMNS.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((cell, c) => `<td${c === 0 || c === 3 ? '' : ' class="num"'}>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
  const shotTable = renderShotTable(result);
  const params: Array<[string, string]> = [
    ['scene', s.name],
    ['objects', s.objects.toLocaleString('en-US')],
    ['frames', `${s.frames} over ${s.duration} s (${s.fps} fps)`],
    ['budget', s.budget === null ? 'none' : `${s.budget.toLocaleString('en-US')} triangles`],
    ['seed', s.seed === null ? '–' : String(s.seed)],
    ...Object.entries(s.profiles).map(([name, p]): [string, string] => [
      `profile ${name}`,
      `${p.objects} objects, ${p.metric} [${p.thresholds.join(', ')}], triangles [${p.triangles.join(', ')}], quality rule ${p.quality.metric} [${p.quality.thresholds.join(', ')}]`,
    ]),
    ...Object.entries(s.parameters).map(([k, v]): [string, string] => [k, String(v)]),
    ...result.policies.map((p): [string, string] => [
      `policy ${p.name}`,
      `${p.policy}; bias ${p.options.bias}, hysteresis ${p.options.hysteresis}${p.options.budget === null ? '' : `, budget ${p.options.budget.toLocaleString('en-US')}`}${p.options.quotas ? `, quotas [${p.options.quotas.join(', ')}] per ${p.options.quotaScope}` : ''}; rules ${Object.entries(p.options.profiles).map(([n, r]) => `${n}: ${r.metric} [${r.thresholds.join(', ')}]`).join('; ')}`,
    ]),
  ];
  const data = {
    time: result.policies[0]?.frames.map((f) => f.time) ?? [],
    budget: s.budget,
    shots: s.shots,
    policies: result.policies.map((p, i) => ({
      name: p.name,
      color: PALETTE[i % PALETTE.length],
      dash: DASHES[i % DASHES.length],
      marker: MARKERS[i % MARKERS.length],
      // Drawn in order, later on top: earlier lines are wider so they show around the later ones
      // (4 px down to 1 px, strictly decreasing for any number of policies).
      width: 4 - (3 * i) / Math.max(1, result.policies.length - 1),
      cost: p.frames.map((f) => f.cost),
      loss: p.frames.map((f) => f.qualityLoss),
      pops: p.frames.map((f) => f.changes),
    })),
  };
  const dataJson = JSON.stringify(data).replace(/</g, '\\u003c');
  const tradeoff = renderTradeoffCharts(result, PALETTE); // issue 14: cost vs quality vs pops, frame time
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>lodkit simulate — ${escapeHtml(s.name)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1200px; padding: 0 16px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
table { border-collapse: collapse; margin: 8px 0; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f3f3f3; }
.chart { position: relative; height: 340px; }
.note { color: #555; max-width: 900px; }
canvas { max-width: 100%; }
@media (max-width: 640px) {
  body { margin: 12px auto; padding: 0 8px; font-size: 13px; }
  th, td { padding: 3px 5px; }
  .chart { height: 260px; }
}
</style>
</head>
<body>
<h1>lodkit simulate — ${escapeHtml(s.name)}</h1>
<p class="note">${escapeHtml(s.description)}</p>
<h2>Comparison</h2>
${table}
<p class="note">Quality loss (${escapeHtml(result.qualityLossUnit)}): for every visible object, its on-screen diameter in pixels (clamped to the viewport height) × how many levels coarser than the screen-size rule wants it is drawn; summed per frame. Pops: objects visible in consecutive frames whose level changed (not counted on camera cuts). Selection time is measured on this machine and varies between runs.</p>
<h2>Per camera shot</h2>
${shotTable}
<h2>Triangles per frame</h2>
<div class="chart"><canvas id="cost"></canvas></div>
<h2>Quality loss per frame</h2>
<div class="chart"><canvas id="loss"></canvas></div>
<h2>Pops (level changes) per frame</h2>
<div class="chart"><canvas id="pops"></canvas></div>
${tradeoff.html}
<h2>Scenario parameters</h2>
<table><tbody>${params.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>
<script>${scriptSafe(chartJs)}</script>
<script>${scriptSafe(tradeoff.script)}
(function () {
  var data = ${dataJson};
  var shotLines = {
    id: 'shotLines',
    afterDraw: function (chart) {
      var x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
      ctx.save(); ctx.setLineDash([4, 4]); ctx.strokeStyle = '#999'; ctx.fillStyle = '#555'; ctx.font = '12px sans-serif';
      data.shots.forEach(function (s) {
        var px = x.getPixelForValue(s.startTime);
        ctx.beginPath(); ctx.moveTo(px, area.top); ctx.lineTo(px, area.bottom); ctx.stroke();
        ctx.fillText(s.shot, px + 4, area.top + 12);
      });
      ctx.restore();
    }
  };
  function points(values) { return values.map(function (v, i) { return { x: data.time[i], y: v }; }); }
  var first = data.time[0], last = data.time[data.time.length - 1];
  // About a dozen markers per line, each policy's shifted so they do not sit on top of each other.
  var markerStep = Math.max(1, Math.ceil(data.time.length / 12));
  function markerRadius(i) {
    return function (ctx) { return (ctx.dataIndex + Math.round((i * markerStep) / Math.max(1, data.policies.length))) % markerStep === 0 ? 3.5 : 0; };
  }
  function chart(id, key, yTitle, withBudget) {
    var datasets = data.policies.map(function (p, i) {
      return {
        label: p.name, data: points(p[key]), borderColor: p.color, backgroundColor: p.color, borderWidth: p.width, borderDash: p.dash,
        pointStyle: p.marker, pointRadius: markerRadius(i), pointHoverRadius: 5, tension: 0
      };
    });
    if (withBudget && data.budget !== null) {
      datasets.push({ label: 'budget', data: [{ x: first, y: data.budget }, { x: last, y: data.budget }], borderColor: '#000', borderDash: [8, 4], borderWidth: 2, pointRadius: 0 });
    }
    return new Chart(document.getElementById(id), {
      type: 'line',
      data: { datasets: datasets },
      options: {
        animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
        // Every series at the hovered time in one tooltip (mode 'x': all points with that x value).
        interaction: { mode: 'x', intersect: false },
        // The x axis ends where the data does (no padding past the last frame).
        scales: { x: { type: 'linear', min: first, max: last, title: { display: true, text: 'time (s)' } }, y: { beginAtZero: true, title: { display: true, text: yTitle } } },
        plugins: { legend: { position: 'bottom', labels: { usePointStyle: true } }, tooltip: { mode: 'x', intersect: false } }
      },
      plugins: [shotLines]
    });
  }
  var charts = [chart('cost', 'cost', 'triangles', true), chart('loss', 'loss', 'quality loss (px·levels)', false), chart('pops', 'pops', 'level changes', false)].concat(lodkitTradeoffCharts());
  document.body.dataset.chartsRendered = String(charts.filter(function (c) { return c.chartArea && c.chartArea.width > 0; }).length);
})();
</script>
</body>
</html>
`;
}

/**
 * Mean and worst triangles and mean quality loss per camera shot and policy, as an HTML table:
 * where in the sequence each policy pays or loses.
 */
function renderShotTable(result: SimulationResult): string {
  const shots = result.scene.shots.map((s) => s.shot).filter((s, i, all) => all.indexOf(s) === i);
  const head = `<tr><th>policy</th>${shots.map((s) => `<th colspan="3">${escapeHtml(s)}</th>`).join('')}</tr>`
    + `<tr><th></th>${shots.map(() => '<th>mean tris</th><th>worst tris</th><th>mean loss</th>').join('')}</tr>`;
  const body = result.policies.map((p) => {
    const cells = shots.map((shot) => {
      let n = 0, sum = 0, worst = 0, loss = 0;
      for (const f of p.frames) {
        if (f.shot !== shot) continue;
        n++; sum += f.cost; loss += f.qualityLoss;
        if (f.cost > worst) worst = f.cost;
      }
      const mean = n ? Math.round(sum / n).toLocaleString('en-US') : '–';
      return `<td class="num">${mean}</td><td class="num">${worst.toLocaleString('en-US')}</td><td class="num">${n ? (loss / n).toFixed(1) : '–'}</td>`;
    });
    return `<tr><td>${escapeHtml(p.name)}</td>${cells.join('')}</tr>`;
  });
  return `<table><thead>${head}</thead><tbody>${body.join('')}</tbody></table>`;
}

/**
 * The report's files for {@link writeOutputs}: `DIR/result.json` (the `--json` document, compact)
 * then `DIR/index.html` (the main file, renamed in last).
 * @example
 * ```ts
 * writeOutputs(reportFiles('lodkit-report', result, timings), { label: '--out' });
 * ```
 * @category Simulator
 */
export function reportFiles(dir: string, result: SimulationResult, timings?: SimulationTimings, chartJs = loadChartJsSource()): OutputFile[] {
  const out = resolve(dir);
  return [
    { path: join(out, REPORT_JSON_FILE), data: `${JSON.stringify(result)}\n` },
    { path: join(out, REPORT_FILE), data: renderHtmlReport(result, timings, chartJs) },
  ];
}

/**
 * Writes `index.html` (and `result.json`, the `--json` document) into `dir`, creating it one level
 * at a time (see files.ts), all or nothing through {@link writeOutputs}. An existing `index.html`
 * or `result.json` (or one of `output.inputs`) is replaced only with `output.force`; an input
 * resource never. Returns the report's absolute path.
 * @example
 * ```ts
 * const path = writeHtmlReport('lodkit-report', result, timings, undefined, { force: true });
 * ```
 * @category Simulator
 */
export function writeHtmlReport(
  dir: string, result: SimulationResult, timings?: SimulationTimings, chartJs = loadChartJsSource(), output: WriteOutputsOptions = {},
): string {
  const files = reportFiles(dir, result, timings, chartJs);
  writeOutputs(files, { ...output, label: output.label ?? '--out' });
  return files[files.length - 1].path;
}
