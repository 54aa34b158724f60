/**
 * Converts three.js cameras into lodkit {@link Frustum}s: the projection matrix gives the window
 * (so `zoom`, `camera.view` offsets, any aspect and custom/XR projections are honoured), the
 * camera's world matrix gives the eye position and rotation.
 *
 * Contributor notes:
 * - The window is read from the x/y rows of `camera.projectionMatrix`, not from `fov`/`zoom`:
 *   three bakes zoom and view offsets into that matrix, and WebXR sub-cameras only have a matrix
 *   (`readCameraWindow` in cameraView.ts, shared with `ScreenSizeLOD`'s lighter views).
 * - `Frustum.set()` validates and recomputes planes (~1 µs). {@link CameraFrustumCache} skips it
 *   when the camera's two matrices are unchanged since the last call (32 number compares), which
 *   is what makes per-object `ScreenSizeLOD.update(camera)` cheap.
 * - No allocation per call: module-level scratch vectors and one reusable init object.
 *
 * @module
 */
import { Quaternion, Vector3, type Camera } from 'three';
import { Frustum, type FrustumInit } from '../../metrics/frustum.js';
import { CameraSnapshotCache, readCameraWindow } from './cameraView.js';

export { cameraViews, isOrthographicProjection } from './cameraView.js';

const scratchPosition = new Vector3();
const scratchQuaternion = new Quaternion();
const scratchScale = new Vector3();
const initPosition = new Float64Array(3);
const initRotation = new Float64Array(4);
const initWindowMin = new Float64Array(2);
const initWindowMax = new Float64Array(2);
const windowScratch = new Float64Array(6);
const init: FrustumInit & { position: Float64Array; rotation: Float64Array } = {
  position: initPosition,
  rotation: initRotation,
  window: { min: initWindowMin, max: initWindowMax },
  near: 1,
  far: 10,
  projection: 'perspective',
};


/**
 * Builds (or re-initialises `out`) a lodkit {@link Frustum} equal to what a three.js camera sees:
 * window from `camera.projectionMatrix` (zoom, view offset and aspect included), near/far from the
 * camera, eye position and rotation from `camera.matrixWorld` (scale ignored).
 *
 * Call `camera.updateProjectionMatrix()` and `camera.updateMatrixWorld()` first, as for rendering.
 * Throws `RangeError` when the camera's matrices do not describe a valid frustum.
 *
 * @example
 * ```ts
 * import { PerspectiveCamera } from 'three';
 * import { frustumFromCamera } from 'lodkit/three';
 * const camera = new PerspectiveCamera(50, 16 / 9, 0.1, 1000);
 * camera.position.set(0, 2, 10);
 * camera.updateMatrixWorld();
 * const frustum = frustumFromCamera(camera);
 * frustum.windowHeight; // 2·tan(25°)
 * ```
 * @category three.js
 */
export function frustumFromCamera(camera: Camera, out?: Frustum): Frustum {
  const ortho = readCameraWindow(camera, windowScratch);
  initWindowMin[0] = windowScratch[0]; initWindowMin[1] = windowScratch[1];
  initWindowMax[0] = windowScratch[2]; initWindowMax[1] = windowScratch[3];
  init.near = windowScratch[4];
  init.far = windowScratch[5];
  init.projection = ortho ? 'orthographic' : 'perspective';
  camera.matrixWorld.decompose(scratchPosition, scratchQuaternion, scratchScale);
  scratchQuaternion.normalize();
  initPosition[0] = scratchPosition.x; initPosition[1] = scratchPosition.y; initPosition[2] = scratchPosition.z;
  initRotation[0] = scratchQuaternion.x; initRotation[1] = scratchQuaternion.y;
  initRotation[2] = scratchQuaternion.z; initRotation[3] = scratchQuaternion.w;
  return out ? out.set(init) : new Frustum(init);
}

/**
 * Caches frusta for a few cameras and rebuilds one only when its camera's projection or world
 * matrix changed (or the camera object changed). Used by `LodManager` and `InstancedLOD` so
 * that measuring many objects against one camera builds its frustum once per frame.
 * @example
 * ```ts
 * const cache = new CameraFrustumCache();
 * const n = cache.update(camera);       // 1, or the number of ArrayCamera eyes
 * const frustum = cache.frusta[0];
 * ```
 * @category three.js
 */
export class CameraFrustumCache extends CameraSnapshotCache<Frustum> {
  /** One frustum per view of the last camera given to {@link CameraFrustumCache.update}, valid up to `count`. */
  get frusta(): readonly Frustum[] { return this.entries; }
  protected create(): Frustum { return new Frustum(); }
  protected build(camera: Camera, frustum: Frustum): boolean {
    try {
      frustumFromCamera(camera, frustum);
      return true;
    } catch {
      return false;
    }
  }
}
