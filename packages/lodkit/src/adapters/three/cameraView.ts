/**
 * The view of a three.js camera that the sphere metrics read — six planes, eye, window size and
 * projection — built straight from the camera's matrices, and a cache that rebuilds one only when
 * its camera moved. `ScreenSizeLOD` measures with these, and `LodManager`, `InstancedLOD` and
 * `GpuInstancedLOD` hand them to the batch engine (a `LodViewFrustum`: planes, eye, window corners,
 * projection); `frustumFromCamera` builds a full `Frustum` for apps that want OpenUSD's camera math.
 *
 * Contributor notes:
 * - Why not a `Frustum` here: a `Frustum` carries OpenUSD's exact camera math (`GfRotation`
 *   through correctly rounded acos/sin/cos, `GfFrustum`'s corner planes for `input: 'openusd'`),
 *   about 7.5 KB minified that `ScreenSizeLOD` — and so every browser bundle of
 *   `MSFTLodLoaderPlugin` — never uses. Measured with the release bundle test's settings: the
 *   plugin bundle is 45.7 KB with `Frustum`, under 40 KB with `CameraView`; likewise ≈ 10 kB of an
 *   `InstancedLOD` app (`Frustum`, its OpenUSD rotation and rounded trigonometry).
 * - The rotation is the world matrix's normalised columns (scale ignored, as in
 *   `frustumFromCamera`); the planes come from the same code as a `Frustum`'s
 *   (metrics/frustumPlanes.ts), so sizes agree with a `Frustum` of the same camera to rounding.
 * - {@link readCameraWindow} is the one place that reads the window and near/far from a camera.
 *
 * @module
 */
import type { Camera } from 'three';
import { FRUSTUM_PLANE_INPUTS, writeFrustumPlanes } from '../../metrics/frustumPlanes.js';
import type { FrustumView } from '../../metrics/frustumView.js';

/** True when a three.js projection matrix is orthographic (last row `0 0 0 1`). @category three.js */
export function isOrthographicProjection(projection: { elements: ArrayLike<number> }): boolean {
  const e = projection.elements;
  return e[3] === 0 && e[7] === 0 && e[11] === 0 && e[15] === 1;
}

interface NearFarCamera { near?: unknown; far?: unknown }

/**
 * Reads a camera's window and near/far into `out` as `[minX, minY, maxX, maxY, near, far]` and
 * returns true for an orthographic projection. The window comes from the x/y rows of
 * `camera.projectionMatrix` (zoom, view offsets and XR projections included): for a GL
 * perspective matrix `P` the window on the plane at depth 1 is `x ∈ [(P8 − 1)/P0, (P8 + 1)/P0]`,
 * `y ∈ [(P9 − 1)/P5, (P9 + 1)/P5]`; orthographic `x ∈ [(−1 − P12)/P0, (1 − P12)/P0]` (world
 * units). near/far from `camera.near/far` when present (the depth rows differ between WebGL, WebGPU
 * and reversed depth), else from the GL depth row. Throws `RangeError` for a zero or non-finite scale.
 * @category three.js
 */
export function readCameraWindow(camera: Camera, out: Float64Array): boolean {
  const e = camera.projectionMatrix.elements;
  const ortho = isOrthographicProjection(camera.projectionMatrix);
  const p0 = e[0], p5 = e[5];
  if (!(Number.isFinite(p0) && Number.isFinite(p5) && p0 !== 0 && p5 !== 0)) {
    throw new RangeError('frustumFromCamera: camera.projectionMatrix has a zero or non-finite scale; call camera.updateProjectionMatrix()');
  }
  const c = camera as Camera & NearFarCamera;
  if (typeof c.near === 'number' && typeof c.far === 'number' && c.far > c.near) {
    out[4] = c.near; out[5] = c.far;
  } else if (ortho) {
    // GL: P10 = −2/(f − n), P14 = −(f + n)/(f − n).
    out[4] = (e[14] + 1) / e[10]; out[5] = (e[14] - 1) / e[10];
  } else {
    // GL: P10 = −(f + n)/(f − n), P14 = −2fn/(f − n).
    out[4] = e[14] / (e[10] - 1); out[5] = e[14] / (e[10] + 1);
  }
  if (ortho) {
    out[0] = (-1 - e[12]) / p0; out[2] = (1 - e[12]) / p0;
    out[1] = (-1 - e[13]) / p5; out[3] = (1 - e[13]) / p5;
  } else {
    out[0] = (e[8] - 1) / p0; out[2] = (e[8] + 1) / p0;
    out[1] = (e[9] - 1) / p5; out[3] = (e[9] + 1) / p5;
  }
  // A negative scale on the projection (mirrored cameras) flips min/max.
  if (out[0] > out[2]) { const t = out[0]; out[0] = out[2]; out[2] = t; }
  if (out[1] > out[3]) { const t = out[1]; out[1] = out[3]; out[3] = t; }
  return ortho;
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
 * A camera's planes, eye, window and projection for the sphere metrics ({@link FrustumView}),
 * without a lodkit `Frustum`. Fill it with {@link setCameraView}.
 * @category three.js
 */
export class CameraView implements FrustumView {
  readonly planes = new Float64Array(24);
  readonly position = new Float64Array(3);
  /** Window corner `(left, bottom)` on the reference plane (a `LodViewFrustum` for `LodSet.update`). */
  readonly windowMin = new Float64Array(2);
  /** Window corner `(right, top)`. */
  readonly windowMax = new Float64Array(2);
  isPerspective = true;
  windowHeight = 2;
  windowArea = 4;
  referencePlaneDepth = 1;

  /** True when the sphere lies wholly outside at least one plane. */
  cullsSphere(x: number, y: number, z: number, radius: number): boolean {
    const pl = this.planes;
    for (let o = 0; o < 24; o += 4) if (pl[o] * x + pl[o + 1] * y + pl[o + 2] * z + pl[o + 3] < -radius) return true;
    return false;
  }
}

const windowScratch = new Float64Array(6);
const planeInputs = new Float64Array(FRUSTUM_PLANE_INPUTS.length);

/**
 * Fills `out` from `camera` (call `updateProjectionMatrix()` / `updateMatrixWorld()` first, as
 * for rendering); returns false, leaving `out` unusable, when the camera's matrices do not form
 * a valid frustum (zero or non-finite scale, empty window, near ≤ 0 in perspective, far ≤ near,
 * NaN in the world matrix) — no throw, since this runs inside a frame.
 * @example
 * ```ts
 * const view = new CameraView();
 * if (setCameraView(camera, view)) sphereScreenHeight(view, 0, 0, -10, 1);
 * ```
 * @category three.js
 */
export function setCameraView(camera: Camera, out: CameraView): boolean {
  let ortho: boolean;
  try { ortho = readCameraWindow(camera, windowScratch); } catch { return false; }
  const l = windowScratch[0], b = windowScratch[1], r = windowScratch[2], t = windowScratch[3];
  const n = windowScratch[4], f = windowScratch[5];
  if (!(r > l && t > b && Number.isFinite(n) && Number.isFinite(f) && f > n && (ortho || n > 0))) return false;
  const m = camera.matrixWorld.elements, input = planeInputs;
  for (let axis = 0; axis < 3; axis++) {
    const ax = m[axis * 4], ay = m[axis * 4 + 1], az = m[axis * 4 + 2];
    const k = 1 / Math.sqrt(ax * ax + ay * ay + az * az);
    if (!(k > 0 && k < Infinity)) return false;
    input[axis * 3] = ax * k; input[axis * 3 + 1] = ay * k; input[axis * 3 + 2] = az * k;
  }
  const px = m[12], py = m[13], pz = m[14];
  if (!(px - px + (py - py) + (pz - pz) === 0)) return false;
  input[9] = px; input[10] = py; input[11] = pz;
  input[12] = l; input[13] = r; input[14] = b; input[15] = t; input[16] = n; input[17] = f;
  writeFrustumPlanes(input, !ortho, out.planes);
  out.position[0] = px; out.position[1] = py; out.position[2] = pz;
  out.isPerspective = !ortho;
  out.windowMin[0] = l; out.windowMin[1] = b; out.windowMax[0] = r; out.windowMax[1] = t;
  out.windowHeight = t - b;
  out.windowArea = (r - l) * (t - b);
  out.referencePlaneDepth = ortho ? 0 : 1;
  return true;
}

/**
 * Keeps one view per camera eye and rebuilds it only when its camera's projection or world matrix
 * (or near/far, or the camera object) changed since the last call — 34 number compares — so that
 * measuring many objects against one camera builds its view once per frame. Subclasses choose
 * what a view is ({@link CameraView} here, a `Frustum` in `CameraFrustumCache`).
 * @category three.js
 */
export abstract class CameraSnapshotCache<View> {
  /** One view per eye of the last camera given to {@link CameraSnapshotCache.update}. */
  protected readonly entries: View[] = [];
  /** Number of valid entries. */
  count = 0;
  /** How many times a view was rebuilt (for tests and profiling). */
  rebuilds = 0;
  private readonly cameras: (Camera | null)[] = [];
  private readonly snapshots: Float64Array[] = [];
  private readonly valid: boolean[] = [];
  private readonly eyes: Camera[] = [];

  /** A new, not yet valid view. */
  protected abstract create(): View;
  /** Rebuilds `view` from `camera`; false when the camera gives no valid view. */
  protected abstract build(camera: Camera, view: View): boolean;

  /**
   * Makes the first `count` views match `camera` (its eyes for an `ArrayCamera`) and returns
   * `count`; returns 0 when a camera's matrices do not form a valid view (no throw inside a frame).
   */
  update(camera: Camera): number {
    const n = cameraViews(camera, this.eyes);
    for (let i = 0; i < n; i++) {
      if (!this.refresh(i, this.eyes[i])) { this.count = 0; return 0; }
    }
    this.count = n;
    return n;
  }

  private refresh(i: number, camera: Camera): boolean {
    while (this.entries.length <= i) {
      this.entries.push(this.create());
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
    this.valid[i] = this.build(camera, this.entries[i]);
    return this.valid[i];
  }
}

/**
 * {@link CameraSnapshotCache} of {@link CameraView}s: what `ScreenSizeLOD` measures against.
 * @example
 * ```ts
 * const cache = new CameraViewCache();
 * const n = cache.update(camera);
 * sphereScreenHeight(cache.views[0], x, y, z, r);
 * ```
 * @category three.js
 */
export class CameraViewCache extends CameraSnapshotCache<CameraView> {
  /** The views, valid up to `count`. */
  get views(): readonly CameraView[] { return this.entries; }
  protected create(): CameraView { return new CameraView(); }
  protected build(camera: Camera, view: CameraView): boolean { return setCameraView(camera, view); }
}
