/**
 * `lodkit/three`: screen-size LOD for three.js — `ScreenSizeLOD` (a drop-in `THREE.LOD` with
 * lodkit metrics), `LodManager` (one batch decision per frame for a whole scene, with budgets),
 * `InstancedLOD` (per-instance levels for large instanced scenes),
 * screen-door cross-fades, camera → frustum conversion and a debug view.
 *
 * `three` is an optional peer dependency: import this subpath only in three.js apps.
 *
 * @module
 */
export { CameraFrustumCache, frustumFromCamera } from './frustumFromCamera.js';
export { CameraSnapshotCache, CameraView, CameraViewCache, cameraViews, isOrthographicProjection, readCameraWindow, setCameraView } from './cameraView.js';
export {
  resetScreenSizeLODWarnings, SCREEN_SIZE_LOD_DEFAULTS, ScreenSizeLOD,
  type ScreenSizeLODLevel, type ScreenSizeLODOptions, type ViewportSource,
} from './screenSizeLOD.js';
export { computeContentSphere } from './contentSphere.js';
export { measureSphere, measureSphereInto } from './sphereMeasure.js';
export {
  LOD_MANAGER_DEFAULTS, LodManager,
  type BatchedLodGroup, type BatchedLodOptions, type InstancedLodOptions, type LodCostOptions, type LodManagerOptions,
} from './lodManager.js';
export { countTriangles, geometryTriangles } from './levelCosts.js';
export {
  INSTANCED_LOD_DEFAULTS, InstancedLOD, SHADOW_ONLY_LEVEL,
  type InstancedLODLevel, type InstancedLODOptions, type InstancedUploadStats,
} from './instancedLOD.js';
export { shadowFrustumPlanes, sphereInPlanes, type ShadowLight, type ShadowMapSource } from './shadowLight.js';
export { createFadeMaterial, FADE_UNIFORM, fadeOf, isFading, patchFragmentShader, setObjectFade, type FadeMaterial } from './crossFade.js';
export { FRAME_TIMER_QUERIES, FrameTimer, webglContextOf, type TimerQueryContext } from './frameTimer.js';
export { LEVEL_COLORS, LodDebugHelper, LodStatsPanel, type LodPanelFrame } from './debug.js';
export {
  defaultCoverageThresholds, MSFT_LOD_EXTENSION, MSFT_LOD_LOADER_PLUGIN_DEFAULTS, MSFT_SCREENCOVERAGE_KEY, MSFTLodLoaderPlugin,
  type MSFTLodGroup, type MSFTLodLayout, type MSFTLodLoaderPluginOptions, type MSFTLodWarning, type MSFTLodWarningCode,
} from './gltfLodPlugin.js';
