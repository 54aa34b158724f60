/**
 * `@lodkit/react`: lodkit for react-three-fiber. `<ScreenSizeDetailed>` (drei's `<Detailed>` with
 * screen-size metrics), `<LodManager>` (one batch LOD update per frame for everything inside it,
 * with budgets), `useLodStats()`, `<InstancedLOD>` / `<LodInstance>`, `useLodGLTF()` for
 * `MSFT_lod` files and `<LodDebug />`.
 *
 * Peers: `react` ≥ 18, `@react-three/fiber` ≥ 8, `three`, `lodkit`.
 *
 * @module
 */
export { ScreenSizeDetailed, type ScreenSizeDetailedProps } from './ScreenSizeDetailed.js';
export { LodManager, type LodManagerProps } from './LodManager.js';
export { LodRuntime, type LodStatsSnapshot } from './runtime.js';
export { useLodRuntime } from './context.js';
export { useLodStats } from './useLodStats.js';
export { InstancedLOD, LodInstance, type InstancedLODProps, type LodInstanceProps } from './InstancedLOD.js';
export { extendLodLoader, LodGLTFLoader, useLodGLTF, type LodGLTF } from './gltf.js';
export { useLodObjects } from './useLodObjects.js';
export { LodDebug, type LodDebugProps } from './LodDebug.js';
export { lodCamera, lodViewportHeight, type FrameStateLike, type XRCameraSource } from './frameState.js';
