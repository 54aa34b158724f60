/**
 * `lodkit/webgpu`: GPU-driven LOD selection (issue 13): thresholds with blend, min/max level,
 * hysteresis and `minFramesBetweenChanges`, and the hybrid policy's budget, as compute passes that
 * feed `drawIndexedIndirect`. See docs/webgpu.md.
 * @module
 */
export { GpuLodSelector, GPU_LOD_UPDATE_DEFAULTS } from './gpuLodSelector.js';
export type { GpuLevelMesh, GpuLodReadback, GpuLodSelectorOptions, GpuLodStats, GpuLodUpdateOptions } from './gpuLodSelector.js';
export {
  BUDGET_BUCKETS, BUDGET_SUB_BUCKETS, costScaleOf, FRAME_BYTES, FRESH_STATE, MAX_GPU_LEVELS, MAX_GPU_MIN_FRAMES, MAX_GPU_VIEWS, NO_REFERENCE, OBJECT_WORDS,
  PROFILE_BYTES, Scratch, packFrame, packProfiles,
} from './layout.js';
export type { FrameExtras } from './layout.js';
export { referenceFrame } from './reference.js';
export { BLEND_TOLERANCE, NEAR_EPSILON } from './referenceTolerance.js';
export type { ReferenceStats } from './reference.js';
export { bucketOfKey, cutFloat32, keyCodeOf } from './budgetReference.js';
export { BUDGET_CUT_WGSL } from './budgetWgsl.js';
export { FRAME_STRUCT_WGSL, SELECT_WGSL } from './wgsl.js';
