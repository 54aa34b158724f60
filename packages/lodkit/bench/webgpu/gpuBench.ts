/// <reference types="@webgpu/types" />
/**
 * The WebGPU selection bench, on any `GPUDevice` (the page in headless Chromium, or Node through
 * Dawn): `GpuLodSelector` over a seeded scene of 1M and 10M objects and a moving camera.
 *
 * Per size: `warmup` frames, then `frames` timed frames. Each frame is one command buffer: an empty
 * compute pass that writes the begin timestamp, `update()` (indirect-argument reset copy + the
 * selection dispatch), an empty pass that writes the end timestamp; then submit and await
 * `onSubmittedWorkDone`. GPU time = end − begin from the resolved timestamp queries (where the
 * `timestamp-query` feature exists); wall time = submit → `onSubmittedWorkDone` (always measured, the
 * only time where timestamps are missing). Medians and p90 over the timed frames.
 *
 * Correctness (after the timed frames, on the next two poses): the object records are copied before and
 * after the selection; every object's level is counted per level and compared with the indirect
 * `instanceCount`s; a seeded sample of objects is run through the float32 reference from the GPU's
 * previous state and compared (equal except the reference's near-threshold flags).
 *
 * On a software adapter (SwiftShader, llvmpipe, …) no time is reported at all: "software adapter:
 * correctness only, times not quoted".
 *
 * @module
 */
import { Frustum } from '../../src/metrics/frustum.js';
import type { LodView } from '../../src/batch/lodSet.js';
import type { LodProfileOptions } from '../../src/batch/core/profiles.js';
import { GpuLodSelector, OBJECT_WORDS, referenceFrame, type GpuLevelMesh } from '../../src/adapters/webgpu/index.js';

/** What a software adapter's report says instead of times. */
export const SOFTWARE_LABEL = 'software adapter: correctness only, times not quoted';

export interface GpuBenchOptions {
  /** Object counts. Default `[1_000_000, 10_000_000]`. */
  sizes?: number[];
  /** Timed frames per size. Default 60 (a real GPU), 4 on a software adapter. */
  frames?: number;
  /**
   * Warm-up frames per size. Default 30 (on an H200 the first ≈ 20 frames of 10M after the 1M size
   * ran at 2.5 × the steady time, bench/RESULTS-webgpu.md), 1 on a software adapter.
   */
  warmup?: number;
  /** Objects checked against the float32 reference per verified frame. Default 200,000. */
  sample?: number;
  hysteresis?: number;
  seed?: number;
}

export interface Stat { median: number; p90: number; min: number }

export interface SizeResult {
  objects: number;
  /** `'skipped'` when the device cannot hold the buffers (`reason` says which limit). */
  status: 'ok' | 'skipped';
  reason: string;
  /** Largest single storage binding this size needs (bytes) and the whole selector's buffers. */
  bindingBytes: number;
  totalBytes: number;
  frames: number;
  warmup: number;
  /** `null` on a software adapter or without `timestamp-query`. */
  gpuMs: Stat | null;
  /** Submit → onSubmittedWorkDone; `null` on a software adapter. */
  wallMs: Stat | null;
  /** Cold start: constructor (pipeline creation) + upload + the first frame to onSubmittedWorkDone; `null` on a software adapter. */
  coldMs: number | null;
  /** Objects at each level and visible objects on the last verification frame. */
  perLevel: number[];
  visible: number;
  check: { frames: number; sampled: number; near: number; nearMismatches: number; mismatches: number; countErrors: number };
}

export interface GpuBenchResult {
  adapter: string;
  software: boolean;
  label: string;
  timestampQuery: boolean;
  limits: { maxStorageBufferBindingSize: number; maxBufferSize: number };
  sizes: SizeResult[];
}

export const BENCH_PROFILES: LodProfileOptions[] = [
  { metric: 'pixels', thresholds: [300, 100, 30, 10] },
  { metric: 'distance', thresholds: [30, 90, 250, 700] },
  { metric: 'screenHeight', thresholds: [0.25, 0.08, 0.025, 0.008] },
];
export const BENCH_MESHES: GpuLevelMesh[] = [
  { indexCount: 7200 }, { indexCount: 2400, firstIndex: 7200 }, { indexCount: 600, firstIndex: 9600 }, { indexCount: 150, firstIndex: 10200 }, { indexCount: 36, firstIndex: 10350 },
];

// GPUBufferUsage / GPUMapMode / timestamp query constants (spec values), so this runs before globals exist.
const MAP_READ = 0x1, COPY_SRC = 0x4, COPY_DST = 0x8, QUERY_RESOLVE = 0x200, MAP_MODE_READ = 0x1;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

/** `n` objects on a square of side √n · 1.2 m (constant density), y 0–30 m, r 0.3–6 m; profile ids 2:1:1. */
export function benchScene(n: number, seed: number): { spheres: Float32Array; ids: Uint32Array; side: number } {
  const rnd = lcg(seed), side = Math.sqrt(n) * 1.2;
  const spheres = new Float32Array(n * 4), ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    spheres[4 * i] = (rnd() - 0.5) * side; spheres[4 * i + 1] = rnd() * 30; spheres[4 * i + 2] = (rnd() - 0.5) * side;
    spheres[4 * i + 3] = 0.3 + rnd() * rnd() * 5.7;
    const p = rnd();
    ids[i] = p < 0.5 ? 0 : p < 0.75 ? 1 : 2;
  }
  return { spheres, ids, side };
}

/** Pose `k`: 12 m up, walking 1.5 m per frame toward −z from the scene's edge and turning slowly. */
export function benchView(k: number, side: number): LodView {
  const a = 0.004 * k;
  return {
    frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.2, far: side, position: [0, 12, side / 2 - 1.5 * k], rotation: [0, Math.sin(a / 2), 0, Math.cos(a / 2)] }),
    viewportHeight: 1080,
  };
}

function stat(xs: number[]): Stat {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2, p90: at(0.9), min: s[0] };
}

async function mapped(buffer: GPUBuffer): Promise<ArrayBuffer> {
  await buffer.mapAsync(MAP_MODE_READ);
  const copy = buffer.getMappedRange().slice(0);
  buffer.unmap();
  return copy;
}

/** Runs the bench on `device`. `software`: the adapter is a software rasterizer (then no time is reported). */
export async function runGpuBench(device: GPUDevice, adapter: string, software: boolean, options: GpuBenchOptions = {}): Promise<GpuBenchResult> {
  const sizes = options.sizes ?? [1_000_000, 10_000_000];
  const frames = options.frames ?? (software ? 4 : 60), warmup = options.warmup ?? (software ? 1 : 30);
  const h = options.hysteresis ?? 0.1, seed = options.seed ?? 20261201, sampleSize = options.sample ?? 200_000;
  const ts = device.features.has('timestamp-query');
  const limits = { maxStorageBufferBindingSize: device.limits.maxStorageBufferBindingSize, maxBufferSize: device.limits.maxBufferSize };
  const out: GpuBenchResult = { adapter, software, label: software ? SOFTWARE_LABEL : 'hardware adapter', timestampQuery: ts, limits, sizes: [] };
  const levels = BENCH_MESHES.length;
  for (const n of sizes) {
    const stride = Math.ceil(n / 64) * 64;
    // The selector's buffers (gpuLodSelector.ts): spheres + one bounding sphere per cluster of 64,
    // profile ids + slot order, object records, blend, scratch, the instance lists.
    const sphereBytes = (n + Math.ceil(n / 64)) * 16, stateBytes = n * OBJECT_WORDS * 4, listBytes = levels * stride * 4;
    const bindingBytes = Math.max(sphereBytes, stateBytes, listBytes);
    const totalBytes = sphereBytes + n * 8 + stateBytes + n * 4 + n * 4 + listBytes;
    const r: SizeResult = {
      objects: n, status: 'ok', reason: '', bindingBytes, totalBytes, frames, warmup, gpuMs: null, wallMs: null, coldMs: null, perLevel: [], visible: 0,
      check: { frames: 0, sampled: 0, near: 0, nearMismatches: 0, mismatches: 0, countErrors: 0 },
    };
    out.sizes.push(r);
    if (bindingBytes > Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize)) {
      r.status = 'skipped';
      r.reason = `needs a ${(bindingBytes / 2 ** 20).toFixed(0)} MiB storage binding; the device allows ${(limits.maxStorageBufferBindingSize / 2 ** 20).toFixed(0)} MiB (maxStorageBufferBindingSize), ${(limits.maxBufferSize / 2 ** 20).toFixed(0)} MiB (maxBufferSize)`;
      continue;
    }
    const { spheres, ids, side } = benchScene(n, seed + n);
    const tCold = performance.now();
    device.pushErrorScope('out-of-memory');
    const sel = new GpuLodSelector(device, { capacity: n, profiles: BENCH_PROFILES, levels: BENCH_MESHES });
    sel.setObjects(spheres, ids);
    const oom = await device.popErrorScope();
    if (oom) { r.status = 'skipped'; r.reason = `out of GPU memory allocating ${(totalBytes / 2 ** 20).toFixed(0)} MiB: ${oom.message}`; sel.destroy(); continue; }
    const querySet = ts ? device.createQuerySet({ type: 'timestamp', count: 2 * frames }) : null;
    const wall: number[] = [];
    for (let k = 0; k < warmup + frames; k++) {
      const timed = k >= warmup, q = k - warmup;
      const enc = device.createCommandEncoder();
      if (querySet && timed) enc.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: 2 * q } }).end();
      sel.update(benchView(k, side), { hysteresis: h }, enc);
      if (querySet && timed) enc.beginComputePass({ timestampWrites: { querySet, endOfPassWriteIndex: 2 * q + 1 } }).end();
      const cmd = enc.finish();
      const t0 = performance.now();
      device.queue.submit([cmd]);
      await device.queue.onSubmittedWorkDone();
      if (timed) wall.push(performance.now() - t0);
      if (k === 0 && !software) r.coldMs = performance.now() - tCold;
    }
    if (querySet) {
      const resolve = device.createBuffer({ size: 16 * frames, usage: QUERY_RESOLVE | COPY_SRC });
      const read = device.createBuffer({ size: 16 * frames, usage: MAP_READ | COPY_DST });
      const enc = device.createCommandEncoder();
      enc.resolveQuerySet(querySet, 0, 2 * frames, resolve, 0);
      enc.copyBufferToBuffer(resolve, 0, read, 0, 16 * frames);
      device.queue.submit([enc.finish()]);
      const t = new BigUint64Array(await mapped(read));
      const gpu: number[] = [];
      for (let q = 0; q < frames; q++) gpu.push(Number(t[2 * q + 1] - t[2 * q]) / 1e6);
      if (!software) r.gpuMs = stat(gpu);
      resolve.destroy(); read.destroy(); querySet.destroy();
    }
    if (!software) r.wallMs = stat(wall);
    await verify(device, sel, spheres, ids, side, warmup + frames, h, sampleSize, seed, r);
    sel.destroy();
  }
  return out;
}

/** Two more poses with the state copied around the selection; see the module notes. */
async function verify(device: GPUDevice, sel: GpuLodSelector, spheres: Float32Array, ids: Uint32Array, side: number, k0: number, h: number,
  sampleSize: number, seed: number, r: SizeResult): Promise<void> {
  const n = sel.objectCount, levels = sel.levelCount, s = Math.min(sampleSize, n);
  const rnd = lcg(seed ^ 0x5bd1e995);
  // A seeded sample: one index in each of s equal slices.
  const pick = new Uint32Array(s);
  for (let j = 0; j < s; j++) pick[j] = Math.min(n - 1, Math.floor((j + rnd()) * (n / s)));
  const sSpheres = new Float32Array(4 * s), sIds = new Uint32Array(s), ref = new Uint32Array(s * OBJECT_WORDS), near = new Uint8Array(s), blend = new Float32Array(s);
  for (let j = 0; j < s; j++) { const i = pick[j]; sSpheres.set(spheres.subarray(4 * i, 4 * i + 4), 4 * j); sIds[j] = ids[i]; }
  const recordBytes = n * OBJECT_WORDS * 4;
  const before = device.createBuffer({ size: recordBytes, usage: MAP_READ | COPY_DST });
  const after = device.createBuffer({ size: recordBytes, usage: MAP_READ | COPY_DST });
  const args = device.createBuffer({ size: levels * 20, usage: MAP_READ | COPY_DST });
  for (let f = 0; f < 2; f++) {
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(sel.state, 0, before, 0, recordBytes);
    sel.update(benchView(k0 + f, side), { hysteresis: h }, enc);
    enc.copyBufferToBuffer(sel.state, 0, after, 0, recordBytes);
    enc.copyBufferToBuffer(sel.indirect, 0, args, 0, levels * 20);
    device.queue.submit([enc.finish()]);
    const [prev, cur, ind] = (await Promise.all([mapped(before), mapped(after), mapped(args)])).map((b) => new Uint32Array(b));
    const perLevel = new Array(levels).fill(0);
    let visible = 0;
    for (let i = 0; i < n; i++) { const l = cur[i * OBJECT_WORDS] & 0xff; if (l !== 255) { perLevel[l]++; visible++; } }
    for (let l = 0; l < levels; l++) if (ind[5 * l + 1] !== perLevel[l]) r.check.countErrors++;
    for (let j = 0; j < s; j++) ref.set(prev.subarray(pick[j] * OBJECT_WORDS, (pick[j] + 1) * OBJECT_WORDS), j * OBJECT_WORDS);
    referenceFrame(sel.frameBytes, sel.profileBytes, sSpheres, sIds, s, ref, blend, near);
    for (let j = 0; j < s; j++) {
      const g = cur[pick[j] * OBJECT_WORDS] & 0xff, e = ref[j * OBJECT_WORDS] & 0xff;
      if (near[j]) r.check.near++;
      if (g !== e) { if (near[j]) r.check.nearMismatches++; else r.check.mismatches++; }
    }
    r.check.frames++; r.check.sampled += s;
    r.perLevel = perLevel; r.visible = visible;
  }
  before.destroy(); after.destroy(); args.destroy();
}

/** The result as a markdown table (no time columns' values on a software adapter). */
export function formatGpuBench(res: GpuBenchResult, where: string): string {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const ms = (x: Stat | null) => (x ? `${x.median.toFixed(3)} (p90 ${x.p90.toFixed(3)})` : res.software ? 'not quoted' : '—');
  const lines = [
    `${where}: ${res.adapter}${res.software ? ` — ${SOFTWARE_LABEL}` : ''}`,
    `timestamp-query: ${res.timestampQuery ? 'yes' : 'no (wall time submit → onSubmittedWorkDone only)'}; maxStorageBufferBindingSize ${mib(res.limits.maxStorageBufferBindingSize)}, maxBufferSize ${mib(res.limits.maxBufferSize)}`,
    '',
    '| objects | status | largest binding / all buffers | frames (warm-up) | GPU ms/frame, median | submit→done ms, median | cold first frame ms | visible | sampled vs float32 ref | near-threshold (differing) | mismatches | count errors |',
    '|---:|---|---|---|---|---|---|---:|---:|---|---:|---:|',
  ];
  for (const r of res.sizes) {
    if (r.status === 'skipped') { lines.push(`| ${r.objects.toLocaleString('en-US')} | skipped: ${r.reason} | ${mib(r.bindingBytes)} / ${mib(r.totalBytes)} | | | | | | | | | |`); continue; }
    lines.push(`| ${r.objects.toLocaleString('en-US')} | ok | ${mib(r.bindingBytes)} / ${mib(r.totalBytes)} | ${r.frames} (${r.warmup}) | ${ms(r.gpuMs)} | ${ms(r.wallMs)} | ${r.coldMs !== null ? r.coldMs.toFixed(1) : res.software ? 'not quoted' : '—'} | ${r.visible.toLocaleString('en-US')} | ${r.check.sampled.toLocaleString('en-US')} | ${r.check.near} (${r.check.nearMismatches}) | ${r.check.mismatches} | ${r.check.countErrors} |`);
  }
  return lines.join('\n');
}
