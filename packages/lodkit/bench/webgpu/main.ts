/// <reference types="@webgpu/types" />
/**
 * The WebGPU bench page (bench/webgpu/gpuBench.ts in the browser). Requests the adapter's own buffer
 * limits (10M spheres are 160 MB, the instance lists 200 MB: more than WebGPU's default 128 MiB
 * binding) and `timestamp-query` where offered, runs the bench, shows the table and leaves the
 * result in `window.gpuBench` for bench/webgpu/run.ts.
 */
import { describeAdapter, isSoftwareAdapter } from '../../test/helpers/gpuAdapter.js';
import { formatGpuBench, runGpuBench, type GpuBenchOptions, type GpuBenchResult } from './gpuBench.js';

type Outcome = { ok: true; result: GpuBenchResult; table: string } | { ok: false; reason: string };

async function main(): Promise<Outcome> {
  if (!('gpu' in navigator)) return { ok: false, reason: 'navigator.gpu is missing (WebGPU is off in this browser)' };
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (adapter == null) return { ok: false, reason: 'requestAdapter() returned null' };
  const text = describeAdapter(adapter), software = isSoftwareAdapter(adapter);
  const requiredFeatures: GPUFeatureName[] = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
  const q = new URLSearchParams(location.search);
  // `?defaultLimits=1`: WebGPU's default limits (128 MiB binding), to see the bench report a size it cannot hold.
  const device = await adapter.requestDevice({
    requiredFeatures,
    requiredLimits: q.get('defaultLimits') === '1' ? {} : { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, maxBufferSize: adapter.limits.maxBufferSize },
  });
  const errors: string[] = [];
  device.addEventListener('uncapturederror', (e) => errors.push((e as GPUUncapturedErrorEvent).error.message));
  const num = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
  const options: GpuBenchOptions = { frames: num('frames'), warmup: num('warmup'), sample: num('sample') };
  if (q.has('sizes')) options.sizes = q.get('sizes')!.split(',').map(Number);
  const result = await runGpuBench(device, text, software, options);
  device.destroy();
  if (errors.length > 0) return { ok: false, reason: `WebGPU errors: ${errors.slice(0, 3).join(' | ')}` };
  return { ok: true, result, table: formatGpuBench(result, 'Chromium WebGPU') };
}

const out = document.getElementById('out')!;
main().then((o) => {
  out.textContent = o.ok ? o.table : `no result: ${o.reason}`;
  (window as unknown as { gpuBench: Outcome }).gpuBench = o;
}, (e: unknown) => {
  const o: Outcome = { ok: false, reason: `bench threw: ${(e as Error)?.stack ?? String(e)}` };
  out.textContent = o.reason;
  (window as unknown as { gpuBench: Outcome }).gpuBench = o;
});
