/**
 * `lodkit/three/webgpu`: three.js `WebGPURenderer` integrations — `GpuInstancedLOD` (GPU-driven
 * per-instance LOD drawing from `lodkit/webgpu`'s indirect buffers, with a CPU fallback on WebGL)
 * and the TSL screen-door cross-fade (`enableNodeCrossFade`). Kept out of `lodkit/three` because
 * `three/webgpu` and `three/tsl` exist only since r167 (lodkit/three supports r160).
 *
 * @module
 */
export { enableNodeCrossFade } from './crossFadeNode.js';
export {
  GPU_INSTANCED_LOD_DEFAULTS, GpuInstancedLOD, gpuInstancedBindingBytes, gpuInstancedCapacity,
  type GpuInstanceAttributes, type GpuInstancedLimits, type GpuInstancedLODOptions, type GpuInstancedRenderer, type GpuInstancedUpdateOptions,
} from './gpuInstancedLOD.js';
export { IndirectCountReader, isSharedGpuBuffer, shareGpuBuffer, type GpuBackendLike } from './gpuBuffers.js';
