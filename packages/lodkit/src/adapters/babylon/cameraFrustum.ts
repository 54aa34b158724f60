/**
 * Converts Babylon.js cameras into lodkit {@link Frustum}s, from the camera's own view and
 * projection matrices.
 *
 * Contributor notes:
 * - Babylon stores matrices for row vectors (`v' = v · M`); the `m` array reads like a
 *   column-major GL matrix: `m[0], m[4], m[8]` is the view space x axis in world coordinates,
 *   `m[12..14]` the translation.
 * - Left-handed scenes (Babylon's default) look down view +Z; `scene.useRightHandedSystem` looks
 *   down view −Z, as lodkit does. lodkit's camera frame is right-handed and looks down its −Z, so in
 *   a left-handed scene its x axis is Babylon's −x and the window's x range is mirrored: the frustum
 *   is the same set of points either way.
 * - The window comes from the x/y rows of the projection matrix, so `fov`, `fovMode` (vertical or
 *   horizontal), the aspect of `camera.viewport`, orthographic `orthoLeft/Right/Bottom/Top` (or
 *   Babylon's default of the render size) are all honoured. Oblique and tilted projections are read
 *   as the window they have on the reference plane (perspective) or at depth 0 (orthographic).
 * - Near and far come from `camera.minZ` / `camera.maxZ`, not from the matrix, so reverse depth and
 *   WebGPU's half z range change nothing; `maxZ = 0` (Babylon's infinite far plane) or
 *   `ignoreCameraMaxZ` becomes a far of 1e150.
 * - Types only are imported from Babylon: nothing of it is bundled by this module.
 *
 * @module
 */
import type { Camera } from '@babylonjs/core/Cameras/camera.js';
import { Frustum, type FrustumInit } from '../../metrics/frustum.js';
import { rotationFromAxes } from '../../metrics/vector.js';

/** Babylon's `Camera.ORTHOGRAPHIC_CAMERA` (read as a number: no runtime import of Babylon). */
const ORTHOGRAPHIC_CAMERA = 1;
/** The far distance used for Babylon's infinite far plane (`maxZ = 0`). */
const INFINITE_FAR = 1e150;

const initPosition = new Float64Array(3);
const initRotation = new Float64Array(4);
const initMin = new Float64Array(2);
const initMax = new Float64Array(2);
const init: FrustumInit = {
  position: initPosition, rotation: initRotation, window: { min: initMin, max: initMax }, near: 1, far: 10, projection: 'perspective',
};
const basis = new Float64Array(9);

/**
 * Builds (or re-initialises `out`) a lodkit {@link Frustum} equal to what a Babylon.js camera sees:
 * eye and rotation from `camera.getViewMatrix()`, window from `camera.getProjectionMatrix()`
 * (perspective or orthographic, vertical or horizontal `fovMode`), near/far from `minZ`/`maxZ`,
 * handedness from `scene.useRightHandedSystem`. Throws `RangeError` when the matrices do not
 * describe a valid frustum (a collapsed window, a singular view matrix).
 *
 * @example
 * ```ts
 * import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
 * import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
 * import { frustumFromBabylonCamera } from 'lodkit/babylon';
 * const camera = new FreeCamera('cam', new Vector3(0, 2, -10), scene);
 * camera.setTarget(Vector3.Zero());
 * const frustum = frustumFromBabylonCamera(camera);
 * frustum.windowHeight; // 2·tan(fov / 2) for the default vertical fovMode
 * ```
 * @category Babylon
 */
export function frustumFromBabylonCamera(camera: Camera, out?: Frustum): Frustum {
  const rightHanded = camera.getScene().useRightHandedSystem;
  const v = camera.getViewMatrix().m;
  const p = camera.getProjectionMatrix().m;
  const ortho = camera.mode === ORTHOGRAPHIC_CAMERA;
  // View space axes in world coordinates (rows of the view rotation), and the eye.
  let ex = 0, ey = 0, ez = 0;
  for (let a = 0; a < 3; a++) {
    const x = v[a], y = v[4 + a], z = v[8 + a];
    const l2 = x * x + y * y + z * z;
    if (!(l2 > 0) || !Number.isFinite(l2)) throw new RangeError('frustumFromBabylonCamera: the view matrix is singular or not finite');
    const t = -v[12 + a] / l2;
    ex += t * x; ey += t * y; ez += t * z;
    const inv = 1 / Math.sqrt(l2);
    basis[a * 3] = x * inv; basis[a * 3 + 1] = y * inv; basis[a * 3 + 2] = z * inv;
  }
  // lodkit's frame (x, y, z) with the camera looking down −z: right-handed scenes use Babylon's
  // view axes as they are; left-handed ones flip x and z (a rotation: two flips).
  const flip = rightHanded ? 1 : -1;
  for (let k = 0; k < 3; k++) { basis[k] *= flip; basis[6 + k] *= flip; }
  rotationFromAxes(basis[0], basis[1], basis[2], basis[3], basis[4], basis[5], basis[6], basis[7], basis[8], initRotation);
  initPosition[0] = ex; initPosition[1] = ey; initPosition[2] = ez;
  // The window: perspective on the plane at distance 1 in front of the eye, orthographic at depth 0.
  const zFront = ortho ? 0 : rightHanded ? -1 : 1;
  const w = p[11] * zFront + p[15];
  const cx = p[8] * zFront + p[12], cy = p[9] * zFront + p[13];
  const x0 = (-w - cx) / p[0], x1 = (w - cx) / p[0];
  const y0 = (-w - cy) / p[5], y1 = (w - cy) / p[5];
  const xmin = Math.min(x0, x1), xmax = Math.max(x0, x1);
  if (rightHanded) { initMin[0] = xmin; initMax[0] = xmax; } else { initMin[0] = -xmax; initMax[0] = -xmin; }
  initMin[1] = Math.min(y0, y1); initMax[1] = Math.max(y0, y1);
  const near = camera.minZ;
  const maxZ = camera.ignoreCameraMaxZ ? 0 : camera.maxZ;
  init.near = ortho || near > 0 ? near : 0.1; // Babylon itself raises a perspective minZ ≤ 0 to 0.1
  init.far = maxZ > 0 ? maxZ : INFINITE_FAR;
  init.projection = ortho ? 'orthographic' : 'perspective';
  return out ? out.set(init) : new Frustum(init);
}

/**
 * The viewport height in pixels a Babylon camera renders to: `engine.getRenderHeight()` ×
 * `camera.viewport.height` (the camera's share of the canvas; 1 unless split screen).
 * @example
 * ```ts
 * babylonViewportHeight(camera); // 1080 for a full 1080-px canvas
 * ```
 * @category Babylon
 */
export function babylonViewportHeight(camera: Camera): number {
  return camera.getEngine().getRenderHeight() * camera.viewport.height;
}

