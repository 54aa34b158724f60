/**
 * WGSL of the cluster refit pass: one workgroup per cluster of `CLUSTER_SIZE` (64) consecutive
 * slots of the Morton order (layout.ts), writing the cluster's conservative bounding sphere after
 * the object spheres. It runs only in frames after `setObjects` / `writeSpheres` (the bounds do not
 * change otherwise), so a frame with static objects pays nothing for it.
 *
 * The sphere: centre = the middle of the members' bounding box, radius = the largest
 * `|c_i − C| + r_i`, grown by a relative 2^-20 plus 2^-22 × the coordinates' magnitude to cover the
 * float32 rounding of this pass. A cluster with an invalid member (NaN/±∞ or a negative radius)
 * gets radius −1 and is never decided as a whole (the member must get its coarsest level, not be
 * hidden). The selection pass (`clusterMask` in wgsl.ts) adds its own margin on top.
 *
 * @module
 */
import { FRAME_STRUCT_WGSL } from './wgsl.js';

/** The refit kernel; entry point `main`, workgroup size 64, 2D dispatch. @category WebGPU */
export const CLUSTER_REFIT_WGSL = /* wgsl */ `
${FRAME_STRUCT_WGSL}
@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> spheres: array<vec4f>;
@group(0) @binding(2) var<storage, read> profileIds: array<u32>;

const BIG = 0x1.fffffep+127f;

var<workgroup> lo: array<vec3f, 64>;
var<workgroup> hi: array<vec3f, 64>;
var<workgroup> rad: array<f32, 64>;
var<workgroup> bad: atomic<u32>;

fn finite(v: vec4f) -> bool {
  let e = bitcast<vec4u>(v) & vec4u(0x7f800000u);
  return all(e != vec4u(0x7f800000u));
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) li: u32, @builtin(num_workgroups) nwg: vec3u) {
  let c = wid.x + wid.y * nwg.x;
  let slot = c * 64u + li;
  let live = slot < frame.count;
  var s = vec4f(0.0);
  var ok = false;
  if (live) {
    s = spheres[profileIds[frame.capacity + slot]];
    ok = finite(s) && s.w >= 0.0;
    if (!ok) { atomicOr(&bad, 1u); }
  }
  lo[li] = select(vec3f(BIG), s.xyz - vec3f(s.w), ok);
  hi[li] = select(vec3f(-BIG), s.xyz + vec3f(s.w), ok);
  workgroupBarrier();
  for (var d = 32u; d > 0u; d >>= 1u) {
    if (li < d) { lo[li] = min(lo[li], lo[li + d]); hi[li] = max(hi[li], hi[li + d]); }
    workgroupBarrier();
  }
  let centre = (lo[0] + hi[0]) * 0.5;
  rad[li] = select(0.0, length(s.xyz - centre) + s.w, ok);
  workgroupBarrier();
  for (var d = 32u; d > 0u; d >>= 1u) {
    if (li < d) { rad[li] = max(rad[li], rad[li + d]); }
    workgroupBarrier();
  }
  if (li == 0u && c * 64u < frame.count) {
    let r = rad[0];
    let magnitude = abs(centre.x) + abs(centre.y) + abs(centre.z) + r;
    let grown = r * (1.0 + 0x1p-20f) + magnitude * 0x1p-22f;
    spheres[frame.capacity + c] = vec4f(centre, select(grown, -1.0, atomicLoad(&bad) != 0u || !(lo[0].x <= hi[0].x)));
  }
}
`;
