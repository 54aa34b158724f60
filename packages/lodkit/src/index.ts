/**
 * lodkit — level-of-detail selection for the web.
 *
 * Layers, with dependencies pointing one way: `metrics` (frustum, sphere metrics) → `heuristics`
 * (OpenUSD queries, threshold profiles) → batch engine → policies/budgets → adapters → tools.
 *
 * @packageDocumentation
 */
export {
  determinant, IDENTITY_MATRIX, invertMatrix, invertMatrixGf, length3, lookAtRotation, multiplyMatrices, rotateVector, transformPoint, transformPointProjective,
  type Mat4Like, type QuatLike, type Vec3Like,
} from './metrics/vector.js';
export {
  Frustum, FrustumPlane,
  type FrustumInit, type InputMode, type OrthographicInit, type PerspectiveInit, type Projection, type Window2D,
} from './metrics/frustum.js';
export type { FrustumView } from './metrics/frustumView.js';
export { sphereDistance, spherePixelDiameter, sphereScreenArea, sphereScreenHeight } from './metrics/checkedSphereMetrics.js';
export { areaToHeight, areaToPixels, heightToArea, heightToPixels, pixelsToArea, pixelsToHeight } from './metrics/conversions.js';
export { offAxisStretch, offAxisStretchAt } from './metrics/offAxis.js';
export {
  computeLodAscending, computeLodDescending, hysteresisDocumented, hysteresisOpenUsd, writeLodAscending, writeLodAscendingUnchecked,
  writeLodDescending, writeLodDescendingUnchecked,
  type HysteresisSemantics,
} from './heuristics/lodIndex.js';
export { readThresholdsUnchecked, validateThresholds, type ThresholdOrder, type ValidatedThresholds } from './heuristics/thresholds.js';
export type { Extent } from './heuristics/extent.js';
export type { HeuristicQuery, LodSelection } from './heuristics/heuristicQuery.js';
export {
  ScreenSizeHeuristic,
  type ScreenSizeHeuristicOptions, type ScreenSizeProjection,
} from './heuristics/screenSizeHeuristic.js';
export { DistanceHeuristic, type DistanceHeuristicOptions } from './heuristics/distanceHeuristic.js';
export { LodThresholds, type LodThresholdsOptions, type SphereMetric } from './heuristics/lodThresholds.js';
export {
  LodSet, HIDDEN_LEVEL, NO_FORCED_LEVEL, LOD_UPDATE_DEFAULTS, blendLowerLevel,
  type FrameTimeBudget, type LodClusterStats, type LodFrameStats, type LodPolicy, type LodPolicyModule, type LodPolicyName,
  type LodThreadStats, type LodUpdateOptions, type LodView,
  type LodViewFrustum,
} from './batch/lodSet.js';
export { kernelsReady } from './batch/wasm/wasmKernels.js';
export { allPolicies, budgetPolicy, hybridPolicy, rankQuotaPolicy } from './batch/policyModules.js';
export { registeredPolicies, registerPolicies } from './batch/policyRegistry.js';
export { MetricCode, validateLodProfile, type LodProfile, type LodProfileOptions } from './batch/core/profiles.js';
export { assignQuotaRanks, selectSmallest } from './policies/rankQuota.js';
export { buildUpgradeChain, selectAffordablePrefix } from './policies/budget.js';
export {
  CompiledUsdLodRoot, compileUsdLodRoot, computeUsdLodOverride, usdAncestorPaths, usdLodItemIndex, USD_LOD_DOMAINS,
  type UsdLodBoundingVolume, type UsdLodCompileOptions, type UsdLodDecision, type UsdLodDistanceHeuristicData,
  type UsdLodHeuristicData, type UsdLodOtherTargetData, type UsdLodOverrideData, type UsdLodOverrideMode,
  type UsdLodOverrideResult, type UsdLodRootData, type UsdLodScreenSizeHeuristicData, type UsdLodSelection,
} from './heuristics/usdLodSelection.js';
export {
  buildObjectChain, defaultLevelErrors, screenSpaceLoss,
  MAX_DEFAULT_ERROR, REFERENCE_ASPECT, REFERENCE_VIEWPORT_HEIGHT, SPHERE_ERROR_CONSTANT,
} from './policies/screenSpaceError.js';
export { FrameTimeGovernor, FRAME_TIME_GOVERNOR_DEFAULTS, type FrameTimeGovernorOptions } from './policies/frameTimeGovernor.js';
export { SCREEN_SPACE_DEFAULTS } from './batch/passes/screenSpacePasses.js';
