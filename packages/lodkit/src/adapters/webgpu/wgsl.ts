/**
 * WGSL of the GPU selection passes, shipped as a string (no build step, no runtime dependency).
 * One module, one entry point `main` run in one of three phases (the `phase` uniform, binding 9):
 *
 * - **fused** (2, no budget): decide and compact in one dispatch;
 * - **select** (0): cull, metric over up to `MAX_GPU_VIEWS` views, thresholds with blend, min/max
 *   level, hysteresis and `minFramesBetweenChanges` (state on the GPU) into the object's `work`
 *   word; with a budget also the hybrid policy's upgrade chain of each adjustable object (quality
 *   floor → preferred level) into the key histogram, and the preferred / minimum cost;
 * - **refine** (3, after the first cut pass of budgetWgsl.ts): the steps of the partial bucket (the
 *   highest bucket not bought whole) into 256 sub-buckets;
 * - **compact** (1, after the second cut pass): each object's final level (the bought prefix of
 *   its chain), state, blend, the changed-id list, the stats and the compaction.
 *
 * The select, refine and compact phases build an object's chain with the very same code (one entry
 * point, the phase a runtime uniform), so the steps the compact phase buys are exactly those the
 * histograms counted: the budget holds bit for bit, whatever rounding the compiler chooses.
 *
 * Compaction: a workgroup counts its objects per level in workgroup memory; one thread per level
 * reserves a range with a single `atomicAdd` on the level's `instanceCount` (the second word of its
 * `drawIndexedIndirect` arguments); every object writes its id into its level's list (ids inside a
 * list in no particular order). The changed-id list and the cost sums are reserved / added the
 * same way, once per workgroup. 64-bit sums are lo/hi word pairs with the carry taken from
 * `atomicAdd`'s returned old value.
 *
 * The operation order matches reference.ts (the float32 CPU reference) term by term; layouts in
 * layout.ts. Non-finite inputs are detected on the bit pattern, because WGSL lets implementations
 * assume no NaN/∞ in float arithmetic; no NaN or ∞ is ever produced (the eye inside a sphere is the
 * largest finite float, saturated under the hysteresis factors).
 *
 * @module
 */

/** The frame uniform's WGSL structs (layout.ts), shared by the selection and cut modules. @category WebGPU */
export const FRAME_STRUCT_WGSL = /* wgsl */ `
struct View { planes: array<vec4f, 6>, eye: vec4f, misc: vec4f }
struct Frame {
  count: u32, viewCount: u32, bias: f32, hysteresis: f32, stride: u32, levelCount: u32, frame: u32, minFrames: u32,
  minLevel: u32, maxLevel: u32, flags: u32, tolerance: f32, budgetLo: u32, budgetHi: u32, viewportMax: f32, capacity: u32,
  band: f32, pad1: u32, pad2: u32, pad3: u32,
  views: array<View, 4>,
}
`;

/** The selection kernel; entry point `main`, workgroup size 64, 2D dispatch for > 4M objects. @category WebGPU */
export const SELECT_WGSL = /* wgsl */ `
${FRAME_STRUCT_WGSL}struct Profile {
  metric: u32, count: u32, levels: u32, blendCount: u32,
  t: array<vec4f, 4>, b: array<vec4f, 4>, cost: array<vec4u, 4>, err: array<vec4f, 4>,
  qualityFloor: u32, listBase: u32, instanceBase: u32, listStride: u32,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read> spheres: array<vec4f>;
@group(0) @binding(2) var<storage, read> profileIds: array<u32>;
@group(0) @binding(3) var<storage, read> profiles: array<Profile>;
@group(0) @binding(4) var<storage, read_write> objects: array<vec4u>;
@group(0) @binding(5) var<storage, read_write> blend: array<f32>;
@group(0) @binding(6) var<storage, read_write> scratch: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> args: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> instances: array<u32>;
@group(0) @binding(9) var<uniform> phase: vec4u;

const MAXF = 0x1.fffffep+127f; // largest finite f32
const PI32 = 3.14159274f;
const NO_REFERENCE = 256u;
const NB = 2048u;           // budget buckets
const BUCKET_BASE = 1008u;  // (127 − 64) · 16: bucket 1 starts at key 2^-64
const HIST = 64u;           // scratch: histogram offset (words)
const SUB = 4160u;          // scratch: refinement histogram offset (64 + 2 · NB)
const CHANGED = 4672u;      // scratch: changed-id list offset (SUB + 2 · 256)
const S_CUT = 0u; const S_MODE = 1u; const S_PREF = 2u; const S_MIN = 4u; const S_TOTAL = 6u;
const S_HIDDEN = 8u; const S_INVALID = 9u; const S_CHANGED = 10u; const S_HELD = 11u; const S_PARTIAL = 14u;

var<workgroup> wgCount: array<atomic<u32>, 16>;
var<workgroup> wgBase: array<u32, 16>;
var<workgroup> wgSum: array<atomic<u32>, 8>; // 0 pref, 1 min, 2 total, 3 hidden, 4 invalid, 5 changed, 6 held
var<workgroup> wgChangedBase: u32;

fn thresholdAt(p: u32, j: u32) -> f32 { return profiles[p].t[j >> 2u][j & 3u]; }
fn blendAt(p: u32, j: u32) -> f32 { return profiles[p].b[j >> 2u][j & 3u]; }
fn costAt(p: u32, l: u32) -> u32 { return profiles[p].cost[l >> 2u][l & 3u]; }
fn errAt(p: u32, l: u32) -> f32 { return profiles[p].err[l >> 2u][l & 3u]; }

// OpenUSD's fractional LOD index (lodkit's computeLodDescending / computeLodAscending) at value x,
// clamped to [lo, hi]. Descending for screen metrics, ascending for distance.
fn lodIndex(p: u32, desc: bool, x: f32, lo: u32, hi: u32) -> f32 {
  let n = profiles[p].count;
  let nb = profiles[p].blendCount;
  var lod = 0u;
  var bi = 0u;
  for (var j = 0u; j < n; j++) {
    let t = thresholdAt(p, j);
    lod += select(select(0u, 1u, !(x < t)), select(0u, 1u, !(x > t)), desc);
  }
  var f = f32(lod);
  if (nb != 0u) {
    for (var j = 0u; j < nb; j++) {
      let t = blendAt(p, j);
      bi += select(select(0u, 1u, !(x < t)), select(0u, 1u, !(x > t)), desc);
    }
    bi = min(bi, lod);
    if (lod > 0u && bi < lod - 1u) { bi = lod - 1u; }
    if (bi != lod && bi < nb) {
      let a = thresholdAt(p, bi);
      var e = blendAt(p, bi);
      if (desc) {
        if (lod < n && thresholdAt(p, lod) > e) { e = thresholdAt(p, lod); }
        if (a >= x && x > e) { f = f32(bi) + (x - a) / (e - a); }
      } else {
        if (lod < n && thresholdAt(p, lod) < e) { e = thresholdAt(p, lod); }
        if (a <= x && x < e) { f = f32(bi) + (x - a) / (e - a); }
      }
    }
  }
  return clamp(f, f32(lo), f32(hi));
}

fn roundIndex(f: f32) -> u32 { return u32(floor(f + 0.5)); }

// x · k, saturated at MAXF (the eye-inside value): no ∞ ever reaches the arithmetic.
fn scaled(x: f32, k: f32) -> f32 { return select(x * k, MAXF, x == MAXF); }

fn finite(v: vec4f) -> bool {
  let e = bitcast<vec4u>(v) & vec4u(0x7f800000u);
  return all(e != vec4u(0x7f800000u));
}

fn levelRange(p: u32) -> vec2u {
  let hi = min(frame.maxLevel, profiles[p].levels - 1u);
  return vec2u(min(frame.minLevel, hi), hi);
}

// Key code of an upgrade step: bucket · 256 + sub-bucket, monotone in the key. Key > 0: the float
// bits >> 11 (exponent and 12 mantissa bits) rebased so that bucket 1 starts at 2^-64, clamped to
// buckets [1, NB − 1]. Key 0 (a loss-free step, bought last): bucket 0, sub-bucket by id range
// (lower ids first), so the refinement can split it deterministically too.
fn keyCode(key: f32, i: u32) -> u32 {
  if (!(key > 0.0)) {
    let per = max(1u, (frame.count + 255u) / 256u);
    return 255u - min(255u, i / per);
  }
  let c = i32(bitcast<u32>(key) >> 11u) - i32(BUCKET_BASE << 8u);
  return u32(clamp(c, 256, i32(NB * 256u) - 1));
}

fn add64(at: u32, v: u32) {
  if (v == 0u) { return; }
  let old = atomicAdd(&scratch[at], v);
  if (old + v < old) { atomicAdd(&scratch[at + 1u], 1u); }
}

// The hybrid policy's upgrade chain of object i (profile p) from its quality floor fl up to its
// preferred level pref at weight w px (lodkit's buildObjectChain without the price terms): start at
// the best level costing as little as fl, then repeatedly the finer level of largest Δbenefit /
// Δcost (ties: the finer), benefit = −max(0, error · w − tolerance) (+ the previous level's keep
// bonus). A step's key code is never above the previous step's (so the bought steps are a
// prefix). op 0: add each step's Δcost to its bucket; op 1: add the steps of bucket thr to their
// sub-bucket; both return the start. op 2: return the finest level whose step's code is ≥ thr.
fn chain(i: u32, p: u32, pref: u32, fl: u32, w: f32, op: u32, thr: u32) -> u32 {
  var ben: array<f32, 16>;
  let tol = frame.tolerance;
  for (var l = pref; l <= fl; l++) {
    let e = errAt(p, l) * w - tol;
    ben[l] = select(0.0, -e, e > 0.0);
  }
  // Stability band: the previous level's keep bonus band · max(sse, tolerance), unless its next
  // coarser level is finer than needed by the band's margin (buildObjectChain).
  let prev = objects[i].x & 255u;
  let band = frame.band;
  if (band > 0.0 && prev >= pref && prev <= fl) {
    let sse = errAt(p, prev) * w;
    var coarser = MAXF;
    if (prev < fl) { coarser = errAt(p, prev + 1u) * w; }
    if (coarser > (1.0 - band) * tol) { ben[prev] = ben[prev] + band * max(sse, tol); }
  }
  let c0 = costAt(p, fl);
  var cur = fl;
  var l = i32(fl) - 1;
  loop {
    if (l < i32(pref) || costAt(p, u32(l)) != c0) { break; }
    if (ben[u32(l)] >= ben[cur]) { cur = u32(l); }
    l--;
  }
  let start = cur;
  var level = start;
  var cap = NB * 256u - 1u;
  loop {
    if (cur <= pref) { break; }
    let cc = f32(costAt(p, cur));
    let cb = ben[cur];
    var best = -1;
    var bestSlope = 0.0;
    for (var k = i32(cur) - 1; k >= i32(pref); k--) {
      let dc = f32(costAt(p, u32(k))) - cc;
      if (!(dc > 0.0)) { continue; }
      let slope = (ben[u32(k)] - cb) / dc;
      if (slope >= 0.0 && (best < 0 || slope >= bestSlope)) { best = k; bestSlope = slope; }
    }
    if (best < 0) { break; }
    let code = min(keyCode(bestSlope, i), cap);
    cap = code;
    let dcost = costAt(p, u32(best)) - costAt(p, cur);
    if (op == 0u) {
      add64(HIST + 2u * (code >> 8u), dcost);
    } else if (op == 1u) {
      if ((code >> 8u) == thr) { add64(SUB + 2u * (code & 255u), dcost); }
      if ((code >> 8u) < thr) { break; }
    } else {
      if (code < thr) { break; }
      level = u32(best);
    }
    cur = u32(best);
  }
  return select(level, start, op != 2u);
}

// Select: the thresholds decision of object i. Writes size, weight and work into objects[i] and the
// preferred blend into blend[i]; returns the work word.
fn decide(i: u32, cmask: u32) -> u32 {
  let s = spheres[i];
  let p = profileIds[i];
  let metric = profiles[p].metric;
  let desc = metric != 0u;
  let range = levelRange(p);
  let lo = range.x; let hi = range.y;
  let r = s.w;
  let st = objects[i];
  if (!finite(s) || r < 0.0) {
    let work = hi | (1u << 8u) | (1u << 10u) | (1u << 11u);
    objects[i] = vec4u(st.x, 0u, work, 0u);
    blend[i] = 0.0;
    return work;
  }
  let cullOn = (frame.flags & 8u) == 0u;
  var visible = false;
  var inside = false;
  var insidePx = false;
  var acc = select(0.0, MAXF, metric == 0u);
  var px = 0.0;
  for (var v = 0u; v < frame.viewCount; v++) {
    let view = frame.views[v];
    let cs = (cmask >> (2u * v)) & 3u; // cluster status: 0 test, 1 wholly outside, 2 wholly inside
    var culled = cs == 1u;
    if (cs == 0u) {
      for (var k = 0u; k < 6u; k++) {
        let q = view.planes[k];
        let a = q.x * s.x; let b = q.y * s.y; let c = q.z * s.z;
        let sum = ((a + b) + c) + q.w;
        if (sum < -r) { culled = true; }
      }
    }
    if (culled && cullOn) { continue; }
    visible = true;
    // cull: false — outside this view a screen size (and the budget weight) is 0, a no-op in the
    // max; the distance is taken as if inside (LodSet's kernels).
    if (culled && metric != 0u) { continue; }
    let persp = view.eye.w != 0.0;
    let wh = view.misc.x; let wa = view.misc.y; let vp = view.misc.z;
    var dist = 0.0;
    if (metric == 0u || persp) {
      let dx = s.x - view.eye.x; let dy = s.y - view.eye.y; let dz = s.z - view.eye.z;
      let xx = dx * dx; let yy = dy * dy; let zz = dz * dz;
      dist = sqrt((xx + yy) + zz);
    }
    // Projected diameter in px (the budget's weight), as the 'pixels' metric.
    if (culled) {
      // (cull off, distance metric: no weight from a view the object is outside)
    } else if (persp) {
      if (dist <= r) { insidePx = true; } else { px = max(px, ((2.0 * r) / (dist * wh)) * vp); }
    } else {
      px = max(px, ((2.0 * r) / wh) * vp);
    }
    let scale = select(1.0, vp, metric == 1u);
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
  if (!visible) {
    let work = 255u | (2u << 8u) | (1u << 11u);
    objects[i] = vec4u(st.x, 0u, work, 0u);
    blend[i] = 0.0;
    return work;
  }
  let xv = select(select(acc * frame.bias, acc / frame.bias, metric == 0u), MAXF, inside);
  var f = lodIndex(p, desc, xv, lo, hi);
  var level = roundIndex(f);
  var frac = f - floor(f);
  var used = xv;
  var mark = 0u;
  let old = st.x & 255u;
  let hasRef = (st.x & NO_REFERENCE) == 0u;
  let h = frame.hysteresis;
  if ((h > 0.0 || frame.minFrames > 0u) && level != old && hasRef && old >= lo && old <= hi) {
    var hold = frame.minFrames > 0u && (st.x >> 16u) + 1u < frame.minFrames;
    if (!hold && h > 0.0) {
      let la = roundIndex(lodIndex(p, desc, scaled(xv, 1.0 + h), lo, hi));
      let lb = roundIndex(lodIndex(p, desc, scaled(xv, 1.0 - h), lo, hi));
      hold = select(lb <= old && old <= la, la <= old && old <= lb, la <= lb);
    }
    if (hold) {
      let prev = bitcast<f32>(st.y);
      let fp = lodIndex(p, desc, prev, lo, hi);
      frac = select(0.0, fp - floor(fp), roundIndex(fp) == old);
      level = old; used = prev; mark = 1u;
    }
  }
  let w = select(min(px * frame.bias, frame.viewportMax), frame.viewportMax, insidePx);
  let work = level | (mark << 8u);
  objects[i] = vec4u(st.x, bitcast<u32>(used), work, bitcast<u32>(w));
  blend[i] = frac;
  return work;
}

// Select phase, budget part: preferred cost, minimum cost, and the chain's steps into the histogram.
fn account(i: u32, work: u32) {
  let mark = (work >> 8u) & 3u;
  if (mark == 2u) { return; }
  let p = profileIds[i];
  let pref = work & 255u;
  let fl = clamp(profiles[p].qualityFloor, levelRange(p).x, levelRange(p).y);
  atomicAdd(&wgSum[0], costAt(p, pref));
  if (mark == 1u || pref >= fl) { atomicAdd(&wgSum[1], costAt(p, pref)); return; }
  let start = chain(i, p, pref, fl, bitcast<f32>(objects[i].w), 0u, 0u);
  atomicAdd(&wgSum[1], costAt(p, start));
}

// Compact phase: the final level of object i from its work word and the cut.
fn finalLevel(i: u32, work: u32) -> u32 {
  let pref = work & 255u;
  let mark = (work >> 8u) & 3u;
  let mode = atomicLoad(&scratch[S_MODE]);
  if (mark != 0u || mode == 0u) { return pref; }
  let p = profileIds[i];
  let fl = clamp(profiles[p].qualityFloor, levelRange(p).x, levelRange(p).y);
  if (pref >= fl) { return pref; }
  let thr = select(atomicLoad(&scratch[S_CUT]), NB * 256u, mode == 2u);
  return chain(i, p, pref, fl, bitcast<f32>(objects[i].w), 2u, thr);
}

// Refine phase: the steps of the partial bucket (the first one not bought whole) into sub-buckets.
fn refine(i: u32) {
  let work = objects[i].z;
  let partial = atomicLoad(&scratch[S_PARTIAL]);
  if (((work >> 8u) & 3u) != 0u || atomicLoad(&scratch[S_MODE]) != 1u || partial >= NB) { return; }
  let p = profileIds[i];
  let pref = work & 255u;
  let fl = clamp(profiles[p].qualityFloor, levelRange(p).x, levelRange(p).y);
  if (pref >= fl) { return; }
  chain(i, p, pref, fl, bitcast<f32>(objects[i].w), 1u, partial);
}

// Cluster status per view (2 bits each: 1 wholly outside a plane, 2 wholly inside every plane, 0
// test per object) of cluster sphere cs. The margin 2^-18 × the magnitudes dwarfs the float32
// error of a member's own plane test, so "outside" / "inside" hold for every member exactly as
// its per-object test computes them; planes whose normal is not unit length get 0.
fn clusterMask(cs: vec4f) -> u32 {
  if (!(cs.w >= 0.0) || !finite(cs)) { return 0u; }
  var mask = 0u;
  for (var v = 0u; v < frame.viewCount; v++) {
    var outside = false;
    var inside = true;
    for (var k = 0u; k < 6u; k++) {
      let q = frame.views[v].planes[k];
      let nn = dot(q.xyz, q.xyz);
      if (abs(nn - 1.0) > 0x1p-20f) { inside = false; continue; }
      let sum = dot(q.xyz, cs.xyz) + q.w;
      let m = (abs(q.x * cs.x) + abs(q.y * cs.y) + abs(q.z * cs.z) + abs(q.w) + cs.w) * 0x1p-18f;
      if (sum < -cs.w - m) { outside = true; }
      if (!(sum - cs.w - m >= 0.0)) { inside = false; }
    }
    mask |= select(select(0u, 2u, inside), 1u, outside) << (2u * v);
  }
  return mask;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) li: u32, @builtin(num_workgroups) nwg: vec3u) {
  let slot = gid.x + gid.y * nwg.x * 64u;
  let ph = phase.x;
  let live = slot < frame.count;
  // With clusters, workgroup w runs cluster w: slots [64w, 64w + 64) of the Morton order.
  let clustered = (frame.flags & 2u) != 0u;
  var i = slot;
  if (clustered && live) { i = profileIds[frame.capacity + slot]; }
  var cmask = 0u;
  if (clustered && ph != 1u && ph != 3u) {
    cmask = clusterMask(spheres[frame.capacity + slot / 64u]);
    if (li == 0u) {
      var outs = 0u; var ins = 0u;
      for (var v = 0u; v < frame.viewCount; v++) {
        let c = (cmask >> (2u * v)) & 3u;
        outs += select(0u, 1u, c == 1u); ins += select(0u, 1u, c == 2u);
      }
      atomicAdd(&scratch[18], outs); atomicAdd(&scratch[19], ins);
    }
  }
  if (ph == 3u) {
    if (live) { refine(i); }
    return;
  }
  var work = 255u | (2u << 8u);
  if (ph != 1u) {
    if (live) { work = decide(i, cmask); }
  } else if (live) {
    work = objects[i].z;
  }
  if (ph == 0u) {
    // Select with a budget: sums and histogram only; compaction waits for the cut.
    if (live) { account(i, work); }
    workgroupBarrier();
    if (li == 0u) {
      add64(S_PREF, atomicLoad(&wgSum[0]));
      add64(S_MIN, atomicLoad(&wgSum[1]));
    }
    return;
  }
  let perProfile = (frame.flags & 4u) != 0u;
  var level = 255u;
  var lslot = 0u;
  var cslot = 0u;
  var changed = false;
  if (live) {
    level = finalLevel(i, work);
    let p = profileIds[i];
    let st = objects[i];
    let old = st.x & 255u;
    changed = level != old;
    let since = select(min((st.x >> 16u) + 1u, 65535u), 0u, changed);
    let noRef = select(0u, NO_REFERENCE, (work & (1u << 11u)) != 0u);
    objects[i].x = level | noRef | (since << 16u);
    if (level != (work & 255u)) { blend[i] = 0.0; } // coarsened by the budget: no blending
    if (level < 16u) { atomicAdd(&wgSum[2], costAt(p, level)); }
    let mark = (work >> 8u) & 3u;
    if (mark == 2u) { atomicAdd(&wgSum[3], 1u); }
    if ((work & (1u << 10u)) != 0u) { atomicAdd(&wgSum[4], 1u); }
    if (mark == 1u && (work & (1u << 10u)) == 0u) { atomicAdd(&wgSum[6], 1u); }
    if (changed) { cslot = atomicAdd(&wgSum[5], 1u); }
    if (level < 16u) {
      if (perProfile) {
        // Per-(profile, level) lists: objects of a workgroup may have any profile, so one atomic each.
        let pr = profiles[p];
        let at = atomicAdd(&args[(pr.listBase + level) * 5u + 1u], 1u);
        instances[pr.instanceBase + level * pr.listStride + at] = i;
      } else {
        lslot = atomicAdd(&wgCount[level], 1u);
      }
    }
  }
  workgroupBarrier();
  if (li < frame.levelCount && !perProfile) {
    let c = atomicLoad(&wgCount[li]);
    if (c > 0u) { wgBase[li] = atomicAdd(&args[li * 5u + 1u], c); }
  }
  if (li == 0u) {
    add64(S_TOTAL, atomicLoad(&wgSum[2]));
    atomicAdd(&scratch[S_HIDDEN], atomicLoad(&wgSum[3]));
    atomicAdd(&scratch[S_INVALID], atomicLoad(&wgSum[4]));
    atomicAdd(&scratch[S_HELD], atomicLoad(&wgSum[6]));
    let nc = atomicLoad(&wgSum[5]);
    if (nc > 0u) { wgChangedBase = atomicAdd(&scratch[S_CHANGED], nc); }
  }
  workgroupBarrier();
  if (changed) { atomicStore(&scratch[CHANGED + wgChangedBase + cslot], i); }
  if (level < 16u && !perProfile) { instances[level * frame.stride + wgBase[level] + lslot] = i; }
}
`;
