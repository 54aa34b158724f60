/**
 * Camera jumps in Chromium (the upload side of a frame): bench/jump-page (a Vite production build)
 * draws the startup scene's 100k instances with three's `WebGLRenderer` while the camera jumps
 * between two spots each frame (≈ 67k level changes), and times `InstancedLOD.update` and
 * `renderer.render` (+ a 1-pixel `readPixels`, so the frame's uploads have run), and counts the
 * renderer's `bufferSubData` calls: one per update range after three's merge of touching ranges
 * (src/adapters/three/dirtyRanges.ts). Medians of 40 frames after 8, per fresh browser; the range
 * over runs. Chromium as the e2e tests start it (headless, --disable-gpu: WebGL on SwiftShader, so
 * each upload call crosses into the GPU process as on a GPU). A bench, not a test.
 *
 *   npm run bench:jump-browser -w lodkit              # 3 runs, camera jumps, 100k instances
 *   LODKIT_BENCH_RUNS=5 LODKIT_BENCH_N=1000000 LODKIT_BENCH_PATH=walk npm run bench:jump-browser -w lodkit
 */
import { it } from 'vitest';
import { chromiumOrNotice } from '../test/e2e/browserHarness.js';
import { freshBrowserRuns, loadNow, machineLine } from './browserRuns.js';

const RUNS = Number(process.env.LODKIT_BENCH_RUNS ?? 3);
const N = Number(process.env.LODKIT_BENCH_N ?? 100_000);
const PATH = process.env.LODKIT_BENCH_PATH === 'walk' ? 'walk' : 'jump';

interface JumpResult { instances: number; update: number[]; render: number[]; uploads: number[]; changes: number[] }

const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1];

it(`camera ${PATH}s over ${N} instances in Chromium, ${RUNS} fresh browsers`, async () => {
  if (!chromiumOrNotice('the Chromium camera-jump bench')) return;
  const loadAtStart = loadNow();
  const { results, version } = await freshBrowserRuns<JumpResult>('bench/jump-page/vite.config.ts', 'bench-jump', RUNS, `?n=${N}&path=${PATH}`, 'jumpResult');
  const lines: string[] = [];
  const frames: number[] = [];
  results.forEach((res, r) => {
    const u = median(res.update), d = median(res.render);
    frames.push(u + d);
    lines.push(`| ${r + 1} | ${median(res.changes).toLocaleString('en-US')} | ${u.toFixed(1)} | ${d.toFixed(1)} | ${median(res.uploads)} | ${Math.max(...res.render).toFixed(1)} |`);
  });
  const sorted = frames.slice().sort((a, b) => a - b);
  console.log([
    `camera ${PATH === 'walk' ? 'walk (2 m and 0.2° a frame)' : 'jumps (1.2 km a frame)'} over ${N.toLocaleString('en-US')} instances in Chromium ${version} (headless, --disable-gpu), ${RUNS} fresh browsers`,
    machineLine(loadAtStart),
    '',
    '| run | changes a frame | update ms | render (uploads, nothing drawn) + readPixels ms | bufferSubData calls a frame | slowest render ms |',
    '|---:|---:|---:|---:|---:|---:|',
    ...lines,
    '',
    `update + render: ${sorted[0].toFixed(1)}–${sorted[sorted.length - 1].toFixed(1)} ms a frame (medians of 40 frames)`,
  ].join('\n'));
});
