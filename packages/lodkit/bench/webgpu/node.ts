/**
 * The WebGPU bench in Node through Dawn (the npm package `webgpu`); a child of bench/webgpu/run.ts
 * (`--node`), started with test/helpers/dawnDevice.ts's environment (Vulkan ICD and loader). Prints
 * one line `@@lodkit-gpu-bench <json>`. Argument: JSON {@link GpuBenchOptions}.
 */
import { openDawnDevice } from '../../test/helpers/dawnDevice.js';
import { formatGpuBench, runGpuBench, type GpuBenchOptions } from './gpuBench.js';

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as GpuBenchOptions & { defaultLimits?: boolean };
  // (Dawn rounds timestamps to 65.536 µs unless told not to — Chromium's runner passes
  // --enable-webgpu-developer-features for the same reason)
  const dev = await openDawnDevice({
    largeBuffers: !options.defaultLimits, optionalFeatures: ['timestamp-query'], createArgs: ['disable-dawn-features=timestamp_quantization'],
  });
  if (!dev.ok) {
    process.stdout.write(`@@lodkit-gpu-bench ${JSON.stringify({ ok: false, reason: `${dev.reason} ${dev.description}` })}\n`);
    return;
  }
  const errors: string[] = [];
  dev.device.addEventListener('uncapturederror', (e) => errors.push((e as GPUUncapturedErrorEvent).error.message));
  const result = await runGpuBench(dev.device, dev.description, dev.software, options);
  dev.device.destroy();
  const o = errors.length > 0 ? { ok: false, reason: `WebGPU errors: ${errors.slice(0, 3).join(' | ')}` } : { ok: true, result, table: formatGpuBench(result, 'Node (Dawn webgpu)') };
  process.stdout.write(`@@lodkit-gpu-bench ${JSON.stringify(o)}\n`);
}

main().then(() => process.exit(0), (e: unknown) => {
  process.stdout.write(`@@lodkit-gpu-bench ${JSON.stringify({ ok: false, reason: `bench threw: ${(e as Error)?.stack ?? String(e)}` })}\n`);
  process.exit(1);
});
