/**
 * `lodkit/babylon`: lodkit's batch LOD for Babylon.js scenes. `BabylonLodManager` switches many
 * meshes per frame with any lodkit policy from Babylon's own camera matrices. Babylon is imported
 * as types only: the entry bundles no Babylon code.
 *
 * @module
 */
export { BabylonLodManager } from './lodManager.js';
export {
  BABYLON_LOD_MANAGER_DEFAULTS, type BabylonLevelSink, type BabylonLodManagerOptions, type BabylonLodOptions, type BabylonSphere,
} from './lodManagerOptions.js';
export { babylonViewportHeight, frustumFromBabylonCamera } from './cameraFrustum.js';
export {
  LODKIT_MSFT_LOD, LodkitMSFTLod, lodkitManagerOf, registerLodkitMSFTLod,
  type LodkitMSFTLodOptions, type LodkitMSFTLodWarning, type RegisterGLTFExtension,
} from './msftLod.js';
export { BabylonThinInstanceLod, type BabylonThinInstanceOptions } from './thinInstances.js';
