/**
 * Converts three.js cameras into lodkit {@link Frustum}s: the projection matrix gives the window
 * (so `zoom`, `camera.view` offsets, any aspect and custom/XR projections are honoured), the
 * camera's world matrix gives the eye position and rotation.
 *
 * Contributor notes:
 * - The window is read from the x/y rows of `camera.projectionMatrix`, not from `fov`/`zoom`:
 *   three bakes zoom and view offsets into that matrix, and WebXR sub-cameras only have a matrix.
 *   For a GL perspective matrix `P`, the window on the plane at depth 1 is
 *   `x ∈ [(P8 − 1)/P0, (P8 + 1)/P0]`, `y ∈ [(P9 − 1)/P5, (P9 + 1)/P5]`; for an orthographic one
 *   `x ∈ [(−1 − P12)/P0, (1 − P12)/P0]` (world units). The depth rows differ between WebGL,
 *   WebGPU and reversed-depth matrices, so near/far come from `camera.near/far` when present and
 *   from the GL depth row only as a fallback.
 * - `Frustum.set()` validates and recomputes planes (~1 µs). {@link CameraFrustumCache} skips it
 *   when the camera's two matrices are unchanged since the last call (32 number compares), which
 *   is what makes per-object `ScreenSizeLOD.update(camera)` cheap.
 * - No allocation per call: module-level scratch vectors and one reusable init object.
 *
 * @module
 */
import { Matrix4, Quaternion, Vector3, type Camera } from 'three';
import { Frustum, type FrustumInit } from '../../metrics/frustum.js';

const scratchPosition = new Vector3();
const scratchQuaternion = new Quaternion();
const scratchScale = new Vector3();
const initPosition = new Float64Array(3);
const initRotation = new Float64Array(4);
const initWindowMin = new Float64Array(2);
const initWindowMax = new Float64Array(2);
const init: FrustumInit & { position: Float64Array; rotation: Float64Array } = {
  position: initPosition,
  rotation: initRotation,
  window: { min: initWindowMin, max: initWindowMax },
  near: 1,
  far: 10,
  projection: 'perspective',
};

/** True when a three.js projection matrix is orthographic (last row `0 0 0 1`). @category three.js */
export function isOrthographicProjection(projection: Matrix4): boolean {
  const e = projection.elements;
  return e[3] === 0 && e[7] === 0 && e[11] === 0 && e[15] === 1;
}

interface NearFarCamera { near?: unknown; far?: unknown }

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
  const e = camera.projectionMatrix.elements;
  const ortho = isOrthographicProjection(camera.projectionMatrix);
  const p0 = e[0], p5 = e[5];
  if (!(Number.isFinite(p0) && Number.isFinite(p5) && p0 !== 0 && p5 !== 0)) {
    throw new RangeError('frustumFromCamera: camera.projectionMatrix has a zero or non-finite scale; call camera.updateProjectionMatrix()');
  }
  const c = camera as Camera & NearFarCamera;
  let near: number, far: number;
  if (typeof c.near === 'number' && typeof c.far === 'number' && c.far > c.near) {
    near = c.near; far = c.far;
  } else if (ortho) {
    // GL: P10 = −2/(f − n), P14 = −(f + n)/(f − n).
    near = (e[14] + 1) / e[10]; far = (e[14] - 1) / e[10];
  } else {
    // GL: P10 = −(f + n)/(f − n), P14 = −2fn/(f − n).
    near = e[14] / (e[10] - 1); far = e[14] / (e[10] + 1);
  }
  if (ortho) {
    initWindowMin[0] = (-1 - e[12]) / p0; initWindowMax[0] = (1 - e[12]) / p0;
    initWindowMin[1] = (-1 - e[13]) / p5; initWindowMax[1] = (1 - e[13]) / p5;
    init.projection = 'orthographic';
  } else {
    initWindowMin[0] = (e[8] - 1) / p0; initWindowMax[0] = (e[8] + 1) / p0;
    initWindowMin[1] = (e[9] - 1) / p5; initWindowMax[1] = (e[9] + 1) / p5;
    init.projection = 'perspective';
  }
  // A negative scale on the projection (mirrored cameras) flips min/max.
  if (initWindowMin[0] > initWindowMax[0]) { const t = initWindowMin[0]; initWindowMin[0] = initWindowMax[0]; initWindowMax[0] = t; }
  if (initWindowMin[1] > initWindowMax[1]) { const t = initWindowMin[1]; initWindowMin[1] = initWindowMax[1]; initWindowMax[1] = t; }
  init.near = near;
  init.far = far;
  camera.matrixWorld.decompose(scratchPosition, scratchQuaternion, scratchScale);
  scratchQuaternion.normalize();
  initPosition[0] = scratchPosition.x; initPosition[1] = scratchPosition.y; initPosition[2] = scratchPosition.z;
  initRotation[0] = scratchQuaternion.x; initRotation[1] = scratchQuaternion.y;
  initRotation[2] = scratchQuaternion.z; initRotation[3] = scratchQuaternion.w;
  return out ? out.set(init) : new Frustum(init);
}

/**
 * The sub-cameras to measure for a camera: the `cameras` of an `ArrayCamera` (stereo / WebXR eyes,
 * multi-view) when it has any, otherwise the camera itself. Writes into `out` and returns the count.
 * @example
 * ```ts
 * const views: Camera[] = [];
 * const n = cameraViews(renderer.xr.getCamera(), views);
 * ```
 * @category three.js
 */
export function cameraViews(camera: Camera, out: Camera[]): number {
  const sub = (camera as Camera & { isArrayCamera?: boolean; cameras?: Camera[] }).cameras;
  if ((camera as { isArrayCamera?: boolean }).isArrayCamera === true && sub !== undefined && sub.length > 0) {
    for (let i = 0; i < sub.length; i++) out[i] = sub[i];
    if (out.length !== sub.length) out.length = sub.length;
    return sub.length;
  }
  out[0] = camera;
  if (out.length !== 1) out.length = 1;
  return 1;
}

/**
 * Caches frusta for a few cameras and rebuilds one only when its camera's projection or world
 * matrix changed (or the camera object changed). Used by {@link ScreenSizeLOD} and `LodManager` so
 * that measuring many objects against one camera builds its frustum once per frame.
 * @example
 * ```ts
 * const cache = new CameraFrustumCache();
 * const n = cache.update(camera);       // 1, or the number of ArrayCamera eyes
 * const frustum = cache.frusta[0];
 * ```
 * @category three.js
 */
export class CameraFrustumCache {
  /** One frustum per view of the last camera given to {@link CameraFrustumCache.update}. */
  readonly frusta: Frustum[] = [];
  /** Number of valid entries in {@link CameraFrustumCache.frusta}. */
  count = 0;
  /** How many times a frustum was rebuilt (for tests and profiling). */
  rebuilds = 0;
  private readonly cameras: (Camera | null)[] = [];
  private readonly snapshots: Float64Array[] = [];
  private readonly valid: boolean[] = [];
  private readonly views: Camera[] = [];

  /**
   * Makes `frusta[0 … count)` match `camera` (its eyes for an `ArrayCamera`) and returns `count`;
   * returns 0 when a camera's matrices do not form a valid frustum (no throw inside a frame).
   */
  update(camera: Camera): number {
    const n = cameraViews(camera, this.views);
    for (let i = 0; i < n; i++) {
      if (!this.refresh(i, this.views[i])) { this.count = 0; return 0; }
    }
    this.count = n;
    return n;
  }

  private refresh(i: number, camera: Camera): boolean {
    while (this.frusta.length <= i) {
      this.frusta.push(new Frustum());
      this.cameras.push(null);
      this.snapshots.push(new Float64Array(34));
      this.valid.push(false);
    }
    const snap = this.snapshots[i];
    const p = camera.projectionMatrix.elements, w = camera.matrixWorld.elements;
    const c = camera as Camera & NearFarCamera;
    const near = typeof c.near === 'number' ? c.near : NaN, far = typeof c.far === 'number' ? c.far : NaN;
    let same = this.cameras[i] === camera && snap[32] === near && snap[33] === far;
    for (let k = 0; same && k < 16; k++) same = snap[k] === p[k] && snap[16 + k] === w[k];
    if (same) return this.valid[i];
    for (let k = 0; k < 16; k++) { snap[k] = p[k]; snap[16 + k] = w[k]; }
    snap[32] = near; snap[33] = far;
    this.cameras[i] = camera;
    this.rebuilds++;
    try {
      frustumFromCamera(camera, this.frusta[i]);
      this.valid[i] = true;
    } catch {
      this.valid[i] = false;
    }
    return this.valid[i];
  }
}
