/**
 * `lodkit/webgpu`: GPU-driven LOD selection (issue 13, first slice). See docs/webgpu.md.
 * @module
 */
export { GpuLodSelector, GPU_LOD_UPDATE_DEFAULTS } from './gpuLodSelector.js';
export type { GpuLevelMesh, GpuLodReadback, GpuLodSelectorOptions, GpuLodUpdateOptions } from './gpuLodSelector.js';
export { FRAME_BYTES, MAX_GPU_LEVELS, MAX_GPU_VIEWS, NO_REFERENCE, PROFILE_BYTES, packFrame, packProfiles } from './layout.js';
export { NEAR_EPSILON, selectLevelsFloat32 } from './reference.js';
export { SELECT_WGSL } from './wgsl.js';
