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
import { BoxGeometry, Matrix4, MeshBasicMaterial, PerspectiveCamera } from 'three';
import { InstancedLOD } from '../../src/adapters/three/index.js';

const scriptMs = performance.now();
const N = Number(new URLSearchParams(location.search).get('n') ?? 100_000);

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

// What the app has before lodkit runs (not timed).
const r = lcg(20261);
const matrices = new Float32Array(N * 16);
const m = new Matrix4();
for (let i = 0; i < N; i++) m.makeTranslation((r() - 0.5) * 2000, r() * 4, (r() - 0.5) * 2000).toArray(matrices, i * 16);
const geometries = [new BoxGeometry(1, 1, 1, 8, 8, 8), new BoxGeometry(1, 1, 1, 2, 2, 2), new BoxGeometry()];
const material = new MeshBasicMaterial();
const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 5000);
camera.position.set(-600, 2, 0);
camera.lookAt(-500, 2, 30);
camera.updateMatrixWorld(true);
const options = { levels: geometries.map((geometry) => ({ geometry, material })), metric: 'pixels' as const, thresholds: [120, 30], viewportHeight: 1080 };

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
