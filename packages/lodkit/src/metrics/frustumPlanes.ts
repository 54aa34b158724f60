/**
 * The six inward planes of a camera frustum from its axes, eye, window and near/far: the one
 * plane construction that {@link Frustum} and the three.js adapter's light camera views share.
 *
 * Contributor notes:
 * - Inputs travel in a caller's `Float64Array` (see {@link FRUSTUM_PLANE_INPUTS}), not as
 *   arguments: V8 boxes a double passed to a call it does not inline, and this runs every frame.
 * - Perspective side planes go through the eye and the window's edges on the plane at depth 1;
 *   orthographic ones are the window's edges. Unit normals, in `FrustumPlane` order
 *   (left, right, bottom, top, near, far); signed distance = n·p + w, ≥ 0 inside.
 *
 * @module
 */

/**
 * Slots of the input array of {@link writeFrustumPlanes}: the camera's x (right), y (up) and z
 * (back) axes in world space, the eye, the window `[l, r] × [b, t]`, near and far.
 * @internal
 */
export const FRUSTUM_PLANE_INPUTS = { axes: 0, eye: 9, window: 12, near: 16, far: 17, length: 18 } as const;

const local = new Float64Array(24);

/**
 * Writes the six world-space planes (24 numbers) of the camera described by `input` (laid out as
 * {@link FRUSTUM_PLANE_INPUTS}) into `planes`.
 * @internal
 */
export function writeFrustumPlanes(input: Float64Array, isPerspective: boolean, planes: Float64Array): void {
  const xx = input[0], xy = input[1], xz = input[2];
  const yx = input[3], yy = input[4], yz = input[5];
  const zx = input[6], zy = input[7], zz = input[8];
  const px = input[9], py = input[10], pz = input[11];
  const l = input[12], r = input[13], b = input[14], t = input[15];
  const n = input[16], f = input[17];
  // Local-space inward planes (nx, ny, nz, w), unit normals, in FrustumPlane order.
  if (isPerspective) {
    let k = 1 / Math.sqrt(1 + l * l);
    local[0] = k; local[1] = 0; local[2] = l * k; local[3] = 0;
    k = 1 / Math.sqrt(1 + r * r);
    local[4] = -k; local[5] = 0; local[6] = -r * k; local[7] = 0;
    k = 1 / Math.sqrt(1 + b * b);
    local[8] = 0; local[9] = k; local[10] = b * k; local[11] = 0;
    k = 1 / Math.sqrt(1 + t * t);
    local[12] = 0; local[13] = -k; local[14] = -t * k; local[15] = 0;
  } else {
    local[0] = 1; local[1] = 0; local[2] = 0; local[3] = -l;
    local[4] = -1; local[5] = 0; local[6] = 0; local[7] = r;
    local[8] = 0; local[9] = 1; local[10] = 0; local[11] = -b;
    local[12] = 0; local[13] = -1; local[14] = 0; local[15] = t;
  }
  local[16] = 0; local[17] = 0; local[18] = -1; local[19] = -n;
  local[20] = 0; local[21] = 0; local[22] = 1; local[23] = f;
  for (let i = 0; i < 24; i += 4) {
    const lx = local[i], ly = local[i + 1], lz = local[i + 2];
    const wx = xx * lx + yx * ly + zx * lz;
    const wy = xy * lx + yy * ly + zy * lz;
    const wz = xz * lx + yz * ly + zz * lz;
    planes[i] = wx; planes[i + 1] = wy; planes[i + 2] = wz;
    planes[i + 3] = local[i + 3] - (wx * px + wy * py + wz * pz);
  }
}
