/// <reference lib="dom" />
/**
 * Page of bench/startup.browser.bench.ts: the startup of bench/startup.ts in a browser page —
 * `new InstancedLOD`, `addInstances` of `?n=` (default 100k) matrices, the first `update` — each
 * phase timed, the same scene (three box levels, metric 'pixels', thresholds [120, 30], the
 * thresholds policy, default capacity, 100k seeded instances in a 2 km square, a ground camera).
 * lodkit and three are bundled statically, as an app ships them: `scriptMs` (navigation start →
 * this module running: fetch, parse, compile and evaluation of the bundle) is reported apart.
 * Writes `window.startupResult` and sets `document.body.dataset.ready = '1'`.
 */
import { InstancedLOD } from '../../src/adapters/three/index.js';
import { startupScene } from '../startupScene.js';

const scriptMs = performance.now();
const N = Number(new URLSearchParams(location.search).get('n') ?? 100_000);
const { matrices, camera, options } = startupScene(N); // what the app has before lodkit runs (not timed)

function phases(): { construct: number; add: number; update: number; visible: number } {
  const t0 = performance.now();
  const lod = new InstancedLOD(options);
  const t1 = performance.now();
  lod.addInstances(matrices);
  const t2 = performance.now();
  const stats = lod.update(camera);
  const t3 = performance.now();
  return { construct: t1 - t0, add: t2 - t1, update: t3 - t2, visible: N - stats.hidden };
}

const first = phases();
const second = phases();
Object.assign(window, { startupResult: { instances: N, scriptMs, first, second } });
document.body.dataset.ready = '1';
