/// <reference types="@webgpu/types" />
/**
 * Adapter description and software-adapter detection, shared by the Node/Dawn helpers and the WebGPU
 * bench page (browser-safe: no Node imports). A software rasterizer's times are never quoted.
 */

/** Describes an adapter in one line (vendor, architecture, device, description). */
export function describeAdapter(adapter: GPUAdapter): string {
  const i = adapter.info;
  return [i.vendor, i.architecture, i.device, i.description].filter((s) => s).join(' / ') || '(no adapter info)';
}

/** Software rasterizers (SwiftShader, llvmpipe, lavapipe, WARP), by the fallback flag or by name. */
export function isSoftwareAdapter(adapter: GPUAdapter): boolean {
  const i = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  return i.isFallbackAdapter === true || /swiftshader|llvmpipe|lavapipe|softpipe|software|basic render/i.test(describeAdapter(adapter));
}
