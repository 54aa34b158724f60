/// <reference types="@webgpu/types" />
/**
 * The known-kernel probe every WebGPU test runs before trusting an adapter: a 4096-element compute
 * kernel writing `i · 2654435761 xor 0x9e3779b9` (wrapping u32), read back and checked element by
 * element. An adapter that computes nothing (Dawn's `null` backend, a broken driver) gets most of them
 * wrong, so a test skips with a notice instead of passing on it. Used in Node (Dawn) and in the
 * Chromium fixtures (bundled by Vite).
 */

/** Elements of the probe that came back wrong (0 on a working adapter). */
export async function knownKernelErrors(device: GPUDevice, n = 4096): Promise<number> {
  const out = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const code = `@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { o[g.x] = (g.x * 2654435761u) ^ 0x9e3779b9u; }`;
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: out } }] }));
  pass.dispatchWorkgroups(Math.ceil(n / 64));
  pass.end();
  enc.copyBufferToBuffer(out, 0, read, 0, n * 4);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const got = new Uint32Array(read.getMappedRange());
  let bad = 0;
  for (let i = 0; i < n; i++) if (got[i] !== ((Math.imul(i, 2654435761) ^ 0x9e3779b9) >>> 0)) bad++;
  read.unmap();
  out.destroy(); read.destroy();
  return bad;
}
