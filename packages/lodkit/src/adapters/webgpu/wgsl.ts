/**
 * WGSL of the GPU selection pass, shipped as a string (no build step, no runtime dependency).
 * One dispatch: per object cull + metric over up to `MAX_GPU_VIEWS` views, thresholds with the
 * hysteresis state kept in `state`, then compaction: a workgroup counts its objects per level in
 * workgroup memory, one thread per level reserves a range with a single `atomicAdd` on the level's
 * `instanceCount` (the second word of its `drawIndexedIndirect` arguments), and every object writes
 * its id into its level's list. Ids inside a list are therefore in no particular order.
 *
 * The operation order matches reference.ts (the float32 CPU reference) term by term; the layouts
 * are documented in layout.ts. Non-finite inputs are detected on the bit pattern, because WGSL lets
 * implementations assume no NaN/∞ in float arithmetic.
 *
 * @module
 */

/** The selection kernel; entry point `main`, workgroup size 64, 2D dispatch for > 4M objects. @category WebGPU */
export const SELECT_WGSL = /* wgsl */ `
struct View { planes: array<vec4f, 6>, eye: vec4f, misc: vec4f }
struct Frame { count: u32, viewCount: u32, bias: f32, hysteresis: f32, stride: u32, levelCount: u32, pad0: u32, pad1: u32, views: array<View, 4> }
struct Profile { metric: u32, count: u32, levels: u32, pad: u32, t: array<vec4f, 4> }

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read> spheres: array<vec4f>;
@group(0) @binding(2) var<storage, read> profileIds: array<u32>;
@group(0) @binding(3) var<storage, read> profiles: array<Profile>;
@group(0) @binding(4) var<storage, read_write> state: array<u32>;
@group(0) @binding(5) var<storage, read_write> args: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> instances: array<u32>;

const MAXF = 0x1.fffffep+127f; // largest finite f32
const PI32 = 3.14159274f;
const NO_REFERENCE = 256u;

var<workgroup> wgCount: array<atomic<u32>, 16>;
var<workgroup> wgBase: array<u32, 16>;

fn thresholdAt(p: u32, j: u32) -> f32 { return profiles[p].t[j >> 2u][j & 3u]; }

fn levelOf(p: u32, metric: u32, x: f32) -> u32 {
  let n = profiles[p].count;
  var lod = 0u;
  for (var j = 0u; j < n; j++) {
    let t = thresholdAt(p, j);
    if (metric == 0u) { lod += select(0u, 1u, !(x < t)); } else { lod += select(0u, 1u, !(x > t)); }
  }
  return lod;
}

fn finite(v: vec4f) -> bool {
  let e = bitcast<vec4u>(v) & vec4u(0x7f800000u);
  return all(e != vec4u(0x7f800000u));
}

fn decide(i: u32) -> u32 {
  let s = spheres[i];
  let p = profileIds[i];
  let metric = profiles[p].metric;
  let levels = profiles[p].levels;
  let r = s.w;
  if (!finite(s) || r < 0.0) { state[i] = (levels - 1u) | NO_REFERENCE; return levels - 1u; }
  var visible = false;
  var inside = false;
  var acc = select(0.0, MAXF, metric == 0u);
  for (var v = 0u; v < frame.viewCount; v++) {
    let view = frame.views[v];
    var culled = false;
    for (var k = 0u; k < 6u; k++) {
      let q = view.planes[k];
      let a = q.x * s.x; let b = q.y * s.y; let c = q.z * s.z;
      let sum = ((a + b) + c) + q.w;
      if (sum < -r) { culled = true; }
    }
    if (culled) { continue; }
    visible = true;
    let persp = view.eye.w != 0.0;
    let wh = view.misc.x; let wa = view.misc.y;
    let scale = select(1.0, view.misc.z, metric == 1u);
    var dist = 0.0;
    if (metric == 0u || persp) {
      let dx = s.x - view.eye.x; let dy = s.y - view.eye.y; let dz = s.z - view.eye.z;
      let xx = dx * dx; let yy = dy * dy; let zz = dz * dz;
      dist = sqrt((xx + yy) + zz);
    }
    if (metric == 0u) {
      let dv = dist - r;
      acc = min(acc, select(0.0, dv, dv > 0.0));
    } else if (metric == 3u) {
      if (persp) {
        if (dist == 0.0) { inside = true; continue; }
        let rr = r / dist;
        acc = max(acc, ((PI32 * rr) * rr) / wa);
      } else {
        acc = max(acc, ((PI32 * r) * r) / wa);
      }
    } else if (persp) {
      if (dist <= r) { inside = true; continue; }
      acc = max(acc, ((2.0 * r) / (dist * wh)) * scale);
    } else {
      acc = max(acc, ((2.0 * r) / wh) * scale);
    }
  }
  if (!visible) { state[i] = 255u | NO_REFERENCE; return 255u; }
  let prev = state[i];
  let old = prev & 255u;
  let hasRef = (prev & NO_REFERENCE) == 0u;
  var level: u32;
  if (inside) {
    level = levelOf(p, metric, MAXF);
  } else {
    let h = frame.hysteresis;
    let xv = select(acc * frame.bias, acc / frame.bias, metric == 0u);
    level = levelOf(p, metric, xv);
    if (h > 0.0 && level != old && hasRef && old < levels) {
      let la = levelOf(p, metric, xv * (1.0 + h));
      let lb = levelOf(p, metric, xv * (1.0 - h));
      let hold = select(lb <= old && old <= la, la <= old && old <= lb, la <= lb);
      if (hold) { level = old; }
    }
  }
  state[i] = level;
  return level;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) li: u32, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 64u;
  var level = 255u;
  if (i < frame.count) { level = decide(i); }
  var slot = 0u;
  if (level < 16u) { slot = atomicAdd(&wgCount[level], 1u); }
  workgroupBarrier();
  if (li < frame.levelCount) {
    let c = atomicLoad(&wgCount[li]);
    if (c > 0u) { wgBase[li] = atomicAdd(&args[li * 5u + 1u], c); }
  }
  workgroupBarrier();
  if (level < 16u) { instances[level * frame.stride + wgBase[level] + slot] = i; }
}
`;
