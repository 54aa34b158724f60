/**
 * lodkit — level-of-detail selection for the web.
 *
 * Layers, with dependencies pointing one way: `metrics` (frustum, sphere metrics) → `heuristics`
 * (OpenUSD queries, threshold profiles) → batch engine → policies/budgets → adapters → tools.
 *
 * @packageDocumentation
 */
export {
  determinant, IDENTITY_MATRIX, invertMatrix, length3, lookAtRotation, multiplyMatrices, rotateVector, transformPoint,
  type Mat4Like, type QuatLike, type Vec3Like,
} from './metrics/vector.js';
export {
  Frustum, FrustumPlane,
  type FrustumInit, type OrthographicInit, type PerspectiveInit, type Projection, type Window2D,
} from './metrics/frustum.js';
export { sphereDistance, spherePixelDiameter, sphereScreenArea, sphereScreenHeight } from './metrics/sphereMetrics.js';
export { areaToHeight, areaToPixels, heightToArea, heightToPixels, pixelsToArea, pixelsToHeight } from './metrics/conversions.js';
export {
  computeLodAscending, computeLodDescending, hysteresisDocumented, hysteresisOpenUsd, writeLodAscending, writeLodDescending,
  type HysteresisSemantics,
} from './heuristics/lodIndex.js';
export { validateThresholds, type ThresholdOrder, type ValidatedThresholds } from './heuristics/thresholds.js';
export type { Extent } from './heuristics/extent.js';
export {
  ScreenSizeHeuristic,
  type LodSelection, type ScreenSizeHeuristicOptions, type ScreenSizeProjection,
} from './heuristics/screenSizeHeuristic.js';
export { DistanceHeuristic, type DistanceHeuristicOptions } from './heuristics/distanceHeuristic.js';
export { LodThresholds, type LodThresholdsOptions, type SphereMetric } from './heuristics/lodThresholds.js';
export {
  LodSet, HIDDEN_LEVEL, NO_FORCED_LEVEL, LOD_UPDATE_DEFAULTS, blendLowerLevel,
  type LodFrameStats, type LodClusterStats, type LodPolicy, type LodUpdateOptions, type LodView,
} from './batch/lodSet.js';
export { MetricCode, validateLodProfile, type LodProfile, type LodProfileOptions } from './batch/profiles.js';
export { assignQuotaRanks, selectSmallest } from './policies/rankQuota.js';
export { buildUpgradeChain, selectAffordablePrefix } from './policies/budget.js';
