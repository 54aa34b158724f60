/**
 * The scene of the startup bench, the same in Node (startup.ts) and in the browser page
 * (startup-page/main.ts): what the app has before lodkit runs — `n` seeded instance matrices in a
 * 2 km square, three box levels, a ground camera — and the `InstancedLOD` options of the doc example
 * (metric 'pixels', thresholds [120, 30], a 1080-px viewport). Building it is not timed.
 */
import { BoxGeometry, Matrix4, MeshBasicMaterial, PerspectiveCamera } from 'three';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

export function startupScene(n: number, capacity = false) {
  const r = lcg(20261);
  const matrices = new Float32Array(n * 16);
  const m = new Matrix4();
  for (let i = 0; i < n; i++) m.makeTranslation((r() - 0.5) * 2000, r() * 4, (r() - 0.5) * 2000).toArray(matrices, i * 16);
  const geometries = [new BoxGeometry(1, 1, 1, 8, 8, 8), new BoxGeometry(1, 1, 1, 2, 2, 2), new BoxGeometry()];
  const material = new MeshBasicMaterial();
  const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 5000);
  camera.position.set(-600, 2, 0);
  camera.lookAt(-500, 2, 30);
  camera.updateMatrixWorld(true);
  const levels = geometries.map((geometry) => ({ geometry, material }));
  const options = { levels, metric: 'pixels' as const, thresholds: [120, 30], viewportHeight: 1080, ...(capacity ? { capacity: n } : {}) };
  return { matrices, camera, options };
}
