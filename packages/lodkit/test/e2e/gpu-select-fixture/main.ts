/// <reference types="@webgpu/types" />
/**
 * Fixture for test/e2e/gpuSelect.test.ts: runs `GpuLodSelector` on seeded scenes in the page and
 * compares with the float32 reference; returns counts only (the test asserts on them).
 */
import { Frustum } from '../../../src/metrics/frustum.js';
import type { LodView } from '../../../src/batch/lodSet.js';
import { GpuLodSelector, NO_REFERENCE, selectLevelsFloat32 } from '../../../src/adapters/webgpu/index.js';

let device: GPUDevice | null = null;

/** Finds an adapter and proves it computes: a 4096-element kernel must write `3i + 1`. */
async function probe(): Promise<{ ok: boolean; reason: string; adapter: string }> {
  if (!('gpu' in navigator)) return { ok: false, reason: 'navigator.gpu is missing', adapter: '' };
  const adapter = await navigator.gpu.requestAdapter();
  if (adapter == null) return { ok: false, reason: 'requestAdapter() returned null', adapter: '' };
  const info = adapter.info ? `${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}` : '';
  device = await adapter.requestDevice();
  device.addEventListener('uncapturederror', (e) => console.error(`WebGPU: ${(e as GPUUncapturedErrorEvent).error.message}`));
  const n = 4096;
  const buf = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const module = device.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { o[g.x] = 3u * g.x + 1u; }' });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] }));
  pass.dispatchWorkgroups(n / 64);
  pass.end();
  enc.copyBufferToBuffer(buf, 0, read, 0, n * 4);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(read.getMappedRange());
  let bad = 0;
  for (let i = 0; i < n; i++) if (out[i] !== 3 * i + 1) bad++;
  read.unmap();
  if (bad > 0) return { ok: false, reason: `adapter computes nothing useful (${bad}/${n} wrong in a known kernel)`, adapter: info };
  return { ok: true, reason: '', adapter: info };
}

const MESHES = [{ indexCount: 3000 }, { indexCount: 1200, firstIndex: 3000 }, { indexCount: 300, firstIndex: 4200, baseVertex: 7 }, { indexCount: 60, firstIndex: 4500 }, { indexCount: 12, firstIndex: 4560 }];

/** Hand-worked: distance thresholds [10, 20], eye at the origin looking down −z. */
async function handWorked(): Promise<number[]> {
  const sel = new GpuLodSelector(device!, { capacity: 4, profiles: [{ metric: 'distance', thresholds: [10, 20] }], levels: MESHES.slice(0, 3) });
  // Surface distances 4 (level 0), 14 (level 1), 29 (level 2); the last is behind the eye (culled).
  sel.setObjects(new Float32Array([0, 0, -5, 1, 0, 0, -15, 1, 0, 0, -30, 1, 0, 0, 40, 1]), new Uint32Array(4));
  sel.update({ frustum: Frustum.perspective({ fovY: 60, aspect: 1, near: 0.1, far: 1000 }) });
  const rb = await sel.readback();
  sel.destroy();
  return [...rb.levels, rb.indirect[1], rb.indirect[6], rb.indirect[11], rb.indirect[10 + 2], rb.indirect[10 + 3]];
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface FrameResult { visible: number; near: number; mismatches: number; nearMismatches: number; holds: number; countErrors: number; listErrors: number; argErrors: number; perLevel: number[] }

/** A seeded scene and a camera path; per frame GPU vs the float32 reference. */
async function scene(seed: number, n: number, hysteresis: number): Promise<FrameResult[]> {
  const rnd = mulberry32(seed);
  const spheres = new Float32Array(n * 4), ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    spheres[4 * i] = (rnd() - 0.5) * 1000; spheres[4 * i + 1] = rnd() * 40; spheres[4 * i + 2] = (rnd() - 0.5) * 1000;
    spheres[4 * i + 3] = 0.5 + rnd() * 4.5;
    ids[i] = Math.floor(rnd() * 4);
  }
  // A few bad spheres: NaN, +∞, negative radius (coarsest level, counted as invalid by the engine).
  spheres[4 * 7] = Number.NaN; spheres[4 * 11 + 2] = Number.POSITIVE_INFINITY; spheres[4 * 13 + 3] = -1;
  const sel = new GpuLodSelector(device!, {
    capacity: n, levels: MESHES,
    profiles: [
      { metric: 'distance', thresholds: [20, 60, 150, 400] },
      { metric: 'pixels', thresholds: [300, 100, 30, 10] },
      { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03, 0.01] },
      { metric: 'screenArea', thresholds: [0.05, 0.005, 0.0005] },
    ],
  });
  sel.setObjects(spheres, ids);
  const yaw = (a: number) => [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
  const path: LodView[][] = [];
  for (let k = 0; k < 4; k++) {
    path.push([{ frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 2000, position: [0, 10, 300 - 3 * k], rotation: yaw(0.01 * k) }), viewportHeight: 1080 }]);
  }
  path.push([{ frustum: Frustum.orthographic({ height: 400, aspect: 1.5, near: 0.1, far: 3000, position: [0, 20, 600], rotation: yaw(0.3) }), viewportHeight: 720 }]);
  path.push([
    { frustum: Frustum.perspective({ fovY: 50, aspect: 1, near: 0.1, far: 1500, position: [100, 5, 100], rotation: yaw(1.2) }), viewportHeight: 900 },
    { frustum: Frustum.perspective({ fovY: 70, aspect: 2, near: 0.1, far: 800, position: [-200, 15, -50], rotation: yaw(-2) }), viewportHeight: 600 },
  ]);
  const out: FrameResult[] = [];
  let prev = new Uint32Array(n).fill(255 | NO_REFERENCE);
  const ref = new Uint32Array(n), noHold = new Uint32Array(n), near = new Uint8Array(n), near0 = new Uint8Array(n);
  for (const views of path) {
    sel.update(views, { hysteresis });
    const rb = await sel.readback();
    // The reference starts from the GPU's previous state, so a counted near-threshold case cannot cascade.
    ref.set(prev); noHold.set(prev);
    selectLevelsFloat32(sel.frameBytes, sel.profileBytes, spheres, ids, n, ref, near);
    const f0 = sel.frameBytes.slice(0); new Float32Array(f0)[3] = 0;
    selectLevelsFloat32(f0, sel.profileBytes, spheres, ids, n, noHold, near0);
    const r: FrameResult = { visible: 0, near: 0, mismatches: 0, nearMismatches: 0, holds: 0, countErrors: 0, listErrors: 0, argErrors: 0, perLevel: [] };
    const perLevel = new Array(MESHES.length).fill(0);
    for (let i = 0; i < n; i++) {
      const g = rb.levels[i], e = ref[i] & 0xff;
      if (g !== 255) { r.visible++; perLevel[g]++; }
      if (near[i]) r.near++;
      if (g !== e) { if (near[i]) r.nearMismatches++; else r.mismatches++; }
      if ((noHold[i] & 0xff) !== e) r.holds++;
    }
    for (let l = 0; l < MESHES.length; l++) {
      const a = rb.indirect.subarray(5 * l, 5 * l + 5), m = MESHES[l];
      if (a[0] !== m.indexCount || a[2] !== (m.firstIndex ?? 0) || a[3] !== (m.baseVertex ?? 0) || a[4] !== 0) r.argErrors++;
      if (a[1] !== perLevel[l]) r.countErrors++;
      // The list must hold exactly the ids at level l, each once.
      const seen = new Uint8Array(n);
      for (let k = 0; k < Math.min(a[1], sel.stride); k++) {
        const id = rb.instances[l * sel.stride + k];
        if (id >= n || seen[id] || rb.levels[id] !== l) r.listErrors++; else seen[id] = 1;
      }
    }
    r.perLevel = perLevel;
    out.push(r);
    prev = rb.state.slice(0);
  }
  sel.destroy();
  return out;
}

(window as unknown as { gpuSelect: object }).gpuSelect = { probe, handWorked, scene };
document.body.dataset.ready = '1';
