/// <reference types="@webgpu/types" />
/**
 * WebGPU in Node through Dawn (the npm package `webgpu`), for the Node GPU test and the Node bench.
 *
 * Why a child process: Dawn's Vulkan backend dlopens `libvulkan.so.1`. Debian 12 has no Vulkan loader
 * unless `libvulkan1` is installed, and its lavapipe is too old for Dawn; Debian's `chromium` package
 * ships both a loader and SwiftShader's Vulkan driver in its library folder. `LD_LIBRARY_PATH` is only
 * read when a process starts, so the code that opens the device runs in a child started with
 * {@link dawnEnvironment} (`VK_ICD_FILENAMES` alone would do where `libvulkan1` is installed, and is
 * read when the first adapter is requested, so it may be set in-process before `create`).
 *
 * Rules learned the hard way (issue 13): the `null` backend returns an adapter that computes nothing,
 * so {@link openDawnDevice} runs a known kernel before anything and rejects a device that gets it
 * wrong; the object returned by `create([])` must stay reachable or the process can crash, so it is
 * kept in a module-level list (a top-level `const` is not enough: V8 may drop a binding after its last
 * use across an `await`, and the next submit aborts with "The futex facility returned an unexpected
 * error code").
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeAdapter, isSoftwareAdapter } from './gpuAdapter.js';
import { knownKernelErrors } from './knownKernel.js';

/** Where Debian's `chromium` package installs SwiftShader's Vulkan ICD (overridable with `LODKIT_VK_ICD`). */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/** Environment for a child process that opens a Dawn device, or why none can be had. */
export interface DawnEnvironment {
  env: Record<string, string>;
  /** The Vulkan ICD the child will use, or `null` when none was found. */
  icd: string | null;
  /** Empty when `icd` is set, else why not. */
  reason: string;
}

/** Builds the child's environment: `VK_ICD_FILENAMES`, and the ICD's folder on `LD_LIBRARY_PATH` when it holds a Vulkan loader. */
export function dawnEnvironment(base: NodeJS.ProcessEnv = process.env): DawnEnvironment {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  const icd = base.LODKIT_VK_ICD ?? SWIFTSHADER_ICD;
  if (!existsSync(icd)) return { env, icd: null, reason: `no Vulkan ICD at ${icd} (install Debian's "chromium" package or set LODKIT_VK_ICD)` };
  env.VK_ICD_FILENAMES = icd;
  const dir = dirname(icd);
  if (existsSync(join(dir, 'libvulkan.so.1'))) env.LD_LIBRARY_PATH = base.LD_LIBRARY_PATH ? `${dir}:${base.LD_LIBRARY_PATH}` : dir;
  return { env, icd, reason: '' };
}

/** A Dawn device that passed the known-kernel probe, or why there is none. */
export type DawnDeviceResult =
  | { ok: true; device: GPUDevice; adapter: GPUAdapter; description: string; software: boolean }
  | { ok: false; reason: string; description: string };

/** Options of {@link openDawnDevice}. */
export interface DawnDeviceOptions {
  /** Dawn options for `create` (e.g. `['backend=null']`). Default none. */
  createArgs?: string[];
  /** Ask for the adapter's own `maxStorageBufferBindingSize` and `maxBufferSize` (the bench's 10M objects need 160+ MB). */
  largeBuffers?: boolean;
  /** Features to request where the adapter has them (e.g. `timestamp-query`). */
  optionalFeatures?: GPUFeatureName[];
}

// Dawn's GPU objects: kept reachable for the life of the process (see the module notes).
const keepAlive: unknown[] = [];

/**
 * Loads `webgpu`, requests an adapter and a device, and proves the device computes: a 4096-element
 * kernel writes `i · 2654435761 xor 0x9e3779b9` (wrapping u32) and every element is checked.
 */
export async function openDawnDevice(options: DawnDeviceOptions = {}): Promise<DawnDeviceResult> {
  let mod: { create: (args: string[]) => GPU; globals: object };
  try {
    mod = (await import('webgpu')) as unknown as typeof mod;
  } catch (e) {
    return { ok: false, reason: `the "webgpu" package does not load (${(e as Error).message.split('\n')[0]})`, description: '' };
  }
  Object.assign(globalThis, mod.globals);
  const gpu = mod.create(options.createArgs ?? []);
  keepAlive.push(gpu);
  const adapter = await gpu.requestAdapter();
  if (adapter == null) return { ok: false, reason: 'requestAdapter() returned null (no Vulkan driver Dawn can use)', description: '' };
  keepAlive.push(adapter);
  const description = describeAdapter(adapter);
  const requiredLimits: Record<string, number> = {};
  if (options.largeBuffers) {
    requiredLimits.maxStorageBufferBindingSize = adapter.limits.maxStorageBufferBindingSize;
    requiredLimits.maxBufferSize = adapter.limits.maxBufferSize;
  }
  const requiredFeatures = (options.optionalFeatures ?? []).filter((f) => adapter.features.has(f));
  const device = await adapter.requestDevice({ requiredLimits, requiredFeatures });
  keepAlive.push(device);
  const bad = await knownKernelErrors(device);
  if (bad > 0) {
    device.destroy();
    return { ok: false, reason: `the adapter computes nothing useful (${bad}/4096 wrong in a known kernel)`, description };
  }
  return { ok: true, device, adapter, description, software: isSoftwareAdapter(adapter) };
}
