/**
 * What the sphere metrics read from a camera: the six planes, the eye, the window on the reference
 * plane and the projection. {@link Frustum} is one; the three.js adapter's `CameraView` is a
 * lighter one built straight from a three.js camera.
 *
 * @module
 */

/**
 * The read-only view of a camera frustum that the sphere metric functions take.
 * @category Frustum
 */
export interface FrustumView {
  /** Six inward planes, `(nx, ny, nz, w)` each, in `FrustumPlane` order; distance = n·p + w. */
  readonly planes: Float64Array;
  /** Eye position (world). */
  readonly position: Float64Array;
  /** True for a perspective projection. */
  readonly isPerspective: boolean;
  /** Window height (y extent) on the reference plane (depth 1 in perspective, world units orthographic). */
  readonly windowHeight: number;
  /** Window area on the reference plane. */
  readonly windowArea: number;
  /** 1 for perspective, 0 for orthographic (GfFrustum's reference plane depth). */
  readonly referencePlaneDepth: number;
  /** True when the sphere lies wholly outside at least one plane. */
  cullsSphere(x: number, y: number, z: number, radius: number): boolean;
}
