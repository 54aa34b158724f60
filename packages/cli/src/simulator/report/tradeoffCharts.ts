/**
 * The report's trade-off charts (issue 14), kept apart from html.ts:
 * - **cost vs quality vs pops**: one bubble per policy at (mean triangles, mean screen-space loss),
 *   its area proportional to pops/s, a dashed vertical line at the budget. Bottom-left and small is
 *   better; a policy right of the line does not fit the budget. The tooltip adds px·levels.
 * - **frame time vs target** (only when a policy has a frame-time target): each governed policy's
 *   synthetic-GPU frame time per frame against its target and the ±10 % band, with the GPU's load
 *   spikes shaded.
 *
 * `renderTradeoffCharts` returns the HTML (headings and canvases) and a script fragment that
 * defines `lodkitTradeoffCharts()`, called by the page script after its own charts; it returns the
 * Chart.js instances it made. Data goes in as JSON with `<` escaped, like the page's own.
 *
 * @module
 */
import type { SimulationResult } from '../simulate.js';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Output of {@link renderTradeoffCharts}. @category Simulator */
export interface TradeoffCharts {
  html: string;
  script: string;
  /** Charts the script makes. */
  count: number;
}

/**
 * Renders the trade-off charts for a result, with one colour per policy (same order as the page's).
 * @example
 * ```ts
 * const extra = renderTradeoffCharts(result, PALETTE);
 * ```
 * @category Simulator
 */
export function renderTradeoffCharts(result: SimulationResult, palette: readonly string[]): TradeoffCharts {
  const governed = result.policies.filter((p) => p.options.frameMs !== null);
  const maxPops = Math.max(1e-9, ...result.policies.map((p) => p.summary.popsPerSecond));
  const data = {
    budget: result.scene.budget,
    spikes: result.scene.gpu.spikes,
    bubbles: result.policies.map((p, i) => ({
      name: p.name, color: palette[i % palette.length],
      x: p.summary.meanCost, y: p.summary.screenSpaceLossMean, levels: p.summary.qualityLossMean,
      pops: p.summary.popsPerSecond,
      // Area ∝ pops/s: radius 4 px (no pops) … 28 px (the most).
      r: 4 + 24 * Math.sqrt(p.summary.popsPerSecond / maxPops),
    })),
    frameTime: governed.map((p) => ({
      name: p.name, color: palette[result.policies.indexOf(p) % palette.length], target: p.options.frameMs as number,
      points: p.frames.map((f) => ({ x: f.time, y: f.gpuMs })),
    })),
  };
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  let html = `<h2>Cost vs quality vs pops</h2>
<div class="chart"><canvas id="tradeoff"></canvas></div>
<p class="note">One bubble per policy: mean triangles (x), mean screen-space loss in px (y, what budget and hybrid minimise), bubble area ∝ pops per second. The dashed line is the budget. Lower-left and smaller is better.</p>`;
  if (governed.length > 0) {
    html += `
<h2>Frame time vs target</h2>
<div class="chart"><canvas id="frametime"></canvas></div>
<p class="note">Synthetic-GPU frame time of the frame-time policies (${governed.map((p) => escapeHtml(p.name)).join(', ')}) against the target and ±10 %; shaded: the GPU's load spikes (×${data.spikes.map((s) => s.factor).join(', ×')}). Dips below the band are frames with nothing more worth drawing, or the few frames after the load drops.</p>`;
  }
  const script = `
function lodkitTradeoffCharts() {
  var t = ${json};
  var made = [];
  var budgetLine = {
    id: 'budgetLine',
    afterDraw: function (chart) {
      if (t.budget === null) return;
      var x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx, px = x.getPixelForValue(t.budget);
      ctx.save(); ctx.setLineDash([8, 4]); ctx.strokeStyle = '#000';
      ctx.beginPath(); ctx.moveTo(px, area.top); ctx.lineTo(px, area.bottom); ctx.stroke();
      ctx.fillText('budget', px + 4, area.top + 12); ctx.restore();
    }
  };
  made.push(new Chart(document.getElementById('tradeoff'), {
    type: 'bubble',
    data: { datasets: t.bubbles.map(function (b) {
      return { label: b.name, data: [{ x: b.x, y: b.y, r: b.r, levels: b.levels, pops: b.pops }], backgroundColor: b.color + '99', borderColor: b.color };
    }) },
    options: {
      animation: false, maintainAspectRatio: false,
      scales: { x: { beginAtZero: true, title: { display: true, text: 'mean triangles' } }, y: { beginAtZero: true, title: { display: true, text: 'mean screen-space loss (px)' } } },
      plugins: { legend: { position: 'bottom' }, tooltip: { callbacks: { label: function (c) {
        var d = c.raw; return c.dataset.label + ': ' + Math.round(d.x).toLocaleString('en-US') + ' tris, ' + d.y.toFixed(1) + ' px SSE, ' + d.levels.toFixed(1) + ' px·levels, ' + d.pops.toFixed(2) + ' pops/s';
      } } } }
    },
    plugins: [budgetLine]
  }));
  if (t.frameTime.length > 0) {
    var datasets = [];
    t.frameTime.forEach(function (g) {
      datasets.push({ label: g.name, data: g.points, borderColor: g.color, backgroundColor: g.color, borderWidth: 1.5, pointRadius: 0 });
    });
    var g0 = t.frameTime[0], first = g0.points[0].x, last = g0.points[g0.points.length - 1].x;
    [[1, 'target ' + g0.target + ' ms', []], [1.1, '+10 %', [3, 3]], [0.9, '−10 %', [3, 3]]].forEach(function (l) {
      datasets.push({ label: l[1], data: [{ x: first, y: g0.target * l[0] }, { x: last, y: g0.target * l[0] }], borderColor: '#000', borderDash: l[2], borderWidth: l[0] === 1 ? 2 : 1, pointRadius: 0 });
    });
    var spikes = {
      id: 'spikes',
      beforeDraw: function (chart) {
        var x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
        ctx.save(); ctx.fillStyle = 'rgba(214, 39, 40, 0.08)';
        t.spikes.forEach(function (s) { var a = x.getPixelForValue(s.start), b = x.getPixelForValue(s.end); ctx.fillRect(a, area.top, b - a, area.bottom - area.top); });
        ctx.restore();
      }
    };
    made.push(new Chart(document.getElementById('frametime'), {
      type: 'line',
      data: { datasets: datasets },
      options: {
        animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        scales: { x: { type: 'linear', title: { display: true, text: 'time (s)' } }, y: { beginAtZero: true, title: { display: true, text: 'frame time (ms)' } } },
        plugins: { legend: { position: 'bottom' } }
      },
      plugins: [spikes]
    }));
  }
  return made;
}
`;
  return { html, script, count: governed.length > 0 ? 2 : 1 };
}
