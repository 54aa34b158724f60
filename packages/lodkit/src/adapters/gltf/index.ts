/**
 * `lodkit/gltf` — glTF LOD support: the `MSFT_lod` extension for glTF-Transform, reading and writing
 * LOD groups with `MSFT_screencoverage` thresholds, and generating LOD chains whose thresholds come
 * from measured geometric error. Needs the optional peer dependencies `@gltf-transform/core` and
 * (for generation) `meshoptimizer`; the core `lodkit` entry never imports them.
 *
 * @packageDocumentation
 */
export {
  Lod, MSFTLod, MSFT_LOD, MSFT_SCREENCOVERAGE, describeOwner, validateLodJsonArray,
  type LodIssue, type LodIssueCode, type MsftLodJson,
} from './extension.js';
export {
  GltfLodError, GltfReadError, ISSUES_LISTED, LODKIT_GEOMETRIC_ERROR, READ_LOD_DEFAULTS, coverageToThresholds,
  lastLodGraphWork, readLodGroups,
  type GltfLodGroup, type GltfLodLevel, type GltfMaterialLod,
  type LodCoverage, type LodReadResult, type ReadLodOptions,
} from './read.js';
export { readGltfDocument, type GltfSource, type ReadGltfOptions } from './readDocument.js';
export { CYCLE_SHOWN, LOD_GRAPH_LIMITS, LodGraph, NodeForest } from './lodGraph.js';
export { GLTF_READ_LIMITS, type GltfReadLimits } from './source.js';
export { checkCoverageList, type CoverageLayout, type CoverageProblem, type CoverageProblemCode, type LodCheckCode } from './coverage.js';
export {
  coverageFromThresholds, createLodIO, getOrCreateLodExtension, writeLodGroup, writeLodGroups, writeMaterialLod,
  type CoverageFromThresholdsOptions, type LodGroupInput,
} from './write.js';
export {
  GENERATE_LOD_DEFAULTS, generateLodChain, heightThresholdForError, resolveGenerateOptions,
  type GeneratedLevel, type GeneratedLodChain, type GenerateLodOptions,
} from './generate.js';
export {
  loadLodGroupsFromGltf,
  type LoadedLodGroup, type LoadedLodGroups, type LoadedLodLevel,
} from './loader.js';
export { measureDeviation } from './deviation.js';
export {
  maxAxisScale, meshBoundingSphere, meshTriangleCount, nodeTriangleCount, nodeWorldBoundingSphere,
  type BoundingSphere,
} from './geometry.js';
