/**
 * Shadow casters outside the camera's view: the frustum of a light's shadow camera, and the sphere
 * test against it. `LodManager` and `InstancedLOD` keep culled objects that this frustum contains
 * drawn (at a shadow level) so their shadows do not vanish at the screen edge.
 *
 * Contributor notes:
 * - three updates a light's shadow camera only inside `renderer.render` (`LightShadow.updateMatrices`).
 *   LOD selection runs before the render, so it calls `updateMatrices` itself after updating the
 *   light's and its target's world matrices; the renderer then recomputes the same matrices.
 * - Directional and spot lights only: a point light's shadow is six cube faces (no single frustum).
 *
 * @module
 */
import type { Camera, Light, Object3D } from 'three';
import type { CameraFrustumCache } from './frustumFromCamera.js';
import type { CameraViewCache } from './cameraView.js';

/** A light whose shadow camera decides the off-screen shadow casters (directional or spot). @category three.js */
export type ShadowLight = Light & {
  shadow: {
    camera: Camera;
    /** three's `LightShadow.updateMatrices`: brings the shadow camera up to date with the light. */
    updateMatrices(light: Light): void;
  };
};

/** Something whose `shadowMap.enabled` says whether shadows are rendered (a WebGL/WebGPU renderer). @category three.js */
export interface ShadowMapSource { shadowMap?: { enabled: boolean } }

/**
 * The world-space planes (6 × `nx, ny, nz, w`, inward) of `light`'s shadow frustum in `cache`, or
 * null when its camera is unusable. `rebuilt` on the cache tells whether the light moved.
 * @example
 * ```ts
 * const cache = new CameraViewCache();
 * const planes = shadowFrustumPlanes(sun, cache);
 * ```
 * @category three.js
 */
export function shadowFrustumPlanes(light: ShadowLight, cache: CameraViewCache | CameraFrustumCache): Float64Array | null {
  light.updateWorldMatrix(true, false);
  const target = (light as { target?: Object3D }).target;
  if (target !== undefined) target.updateWorldMatrix(true, false);
  light.shadow.updateMatrices(light);
  const camera = light.shadow.camera;
  camera.updateMatrixWorld(true);
  if (!(cache.update(camera) > 0)) return null;
  return 'views' in cache ? cache.views[0].planes : cache.frusta[0].planes;
}

/**
 * True when the sphere is not wholly outside the planes (a conservative "may cast into the map").
 * @example
 * ```ts
 * if (sphereInPlanes(planes, x, y, z, r)) keepForShadow(id);
 * ```
 * @category three.js
 */
export function sphereInPlanes(planes: Float64Array, x: number, y: number, z: number, r: number): boolean {
  for (let p = 0; p < 24; p += 4) if (planes[p] * x + planes[p + 1] * y + planes[p + 2] * z + planes[p + 3] < -r) return false;
  return true;
}
