/**
 * WGSL of the budget cut pass: one workgroup of 256 threads between the select and compact phases
 * of {@link SELECT_WGSL}. It reads the preferred and minimum cost and the key histogram the select
 * phase accumulated (64-bit lo/hi sums in cost units) and writes the mode and the cut bucket:
 *
 * - no budget, or the preferred levels fit → mode 0 (nothing coarsened);
 * - even every adjustable object at its quality floor is over the budget → mode 2 (floor
 *   everywhere, flagged: `LodSet`'s hybrid does the same and reports `budgetMet: false`);
 * - else mode 1 and the cut: the smallest bucket `c` whose suffix sum `Σ_{b ≥ c} cost[b]` fits in
 *   `budget − minimum`; bucket `c − 1` (the partial bucket) is then split by the refine phase into
 *   256 sub-buckets and the second run of this pass (phase 1) finds the smallest sub-bucket `s`
 *   whose suffix fits in what is left. The compact phase buys every step whose key code
 *   (bucket · 256 + sub-bucket) is ≥ `(c − 1) · 256 + s`, so the bought cost is exactly the two
 *   suffix sums and the frame never exceeds the budget.
 *
 * The suffix sums are a Hillis–Steele scan over 256 partial sums (8 buckets or 1 sub-bucket each).
 *
 * @module
 */
import { FRAME_STRUCT_WGSL } from './wgsl.js';

/** The cut kernel; entry point `main`, one workgroup of 256; `phase.x` 0 = bucket cut, 1 = sub-bucket cut. @category WebGPU */
export const BUDGET_CUT_WGSL = /* wgsl */ `
${FRAME_STRUCT_WGSL}
@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> scratch: array<u32>;
@group(0) @binding(2) var<uniform> phase: vec4u;

const NB = 2048u;
const HIST = 64u;
const SUB = 4160u;

var<workgroup> part: array<vec2u, 256>;
var<workgroup> wgMode: u32;
var<workgroup> cutMin: atomic<u32>;

fn add(a: vec2u, b: vec2u) -> vec2u { let lo = a.x + b.x; return vec2u(lo, a.y + b.y + select(0u, 1u, lo < a.x)); }
fn sub(a: vec2u, b: vec2u) -> vec2u { return vec2u(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x)); }
fn le(a: vec2u, b: vec2u) -> bool { return a.y < b.y || (a.y == b.y && a.x <= b.x); }
fn pair(at: u32) -> vec2u { return vec2u(scratch[at], scratch[at + 1u]); }

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32) {
  let ph = phase.x;
  let budget = vec2u(frame.budgetLo, frame.budgetHi);
  let minimum = pair(4u);
  if (t == 0u) {
    var m = scratch[1];
    if (ph == 0u) {
      let pref = pair(2u);
      m = 1u;
      if ((frame.flags & 1u) == 0u || le(pref, budget)) { m = 0u; } else if (!le(minimum, budget)) { m = 2u; }
    } else if (m == 1u && scratch[14] >= NB) {
      m = 3u; // nothing to refine
    }
    wgMode = m;
    atomicStore(&cutMin, select(NB, 256u, ph == 1u));
  }
  let mode = workgroupUniformLoad(&wgMode);
  if (mode != 1u) {
    if (t == 0u && ph == 0u) {
      scratch[0] = select(0u, NB * 256u, mode == 2u); scratch[1] = mode; scratch[12] = 0u; scratch[13] = 0u; scratch[14] = NB;
    }
    return;
  }
  // Bucket cut: 8 buckets per thread, budget − minimum. Sub-bucket cut: 1 per thread, what is left.
  let per = select(8u, 1u, ph == 1u);
  let base = select(HIST, SUB, ph == 1u);
  let remaining = select(sub(budget, minimum), pair(16u), ph == 1u);
  var s = vec2u(0u, 0u);
  for (var k = 0u; k < per; k++) { s = add(s, pair(base + 2u * (per * t + k))); }
  part[t] = s;
  workgroupBarrier();
  for (var d = 1u; d < 256u; d <<= 1u) {
    var v = part[t];
    if (t + d < 256u) { v = add(v, part[t + d]); }
    workgroupBarrier();
    part[t] = v;
    workgroupBarrier();
  }
  // part[t] = Σ over the entries ≥ per·t; the suffix above this thread's range is part[t + 1].
  var run = vec2u(0u, 0u);
  if (t < 255u) { run = part[t + 1u]; }
  let none = select(NB, 256u, ph == 1u);
  var best = none;
  var bestRun = vec2u(0u, 0u);
  for (var k = i32(per) - 1; k >= 0; k--) {
    let b = per * t + u32(k);
    run = add(run, pair(base + 2u * b));
    if (le(run, remaining)) { best = b; bestRun = run; }
  }
  atomicMin(&cutMin, best);
  workgroupBarrier();
  let c = atomicLoad(&cutMin);
  if (ph == 0u) {
    // Whole buckets ≥ c are bought; bucket c − 1 is refined with what is left.
    if (best == c && best < NB) {
      scratch[12] = bestRun.x; scratch[13] = bestRun.y;
      let left = sub(remaining, bestRun);
      scratch[16] = left.x; scratch[17] = left.y;
    }
    if (t == 0u) {
      scratch[0] = c * 256u; scratch[1] = 1u; scratch[14] = select(c - 1u, NB, c == 0u);
      if (c == NB) { scratch[12] = 0u; scratch[13] = 0u; scratch[16] = remaining.x; scratch[17] = remaining.y; }
    }
  } else {
    if (best == c && best < 256u) {
      let total = add(pair(12u), bestRun);
      scratch[12] = total.x; scratch[13] = total.y;
    }
    if (t == 0u) { scratch[0] = scratch[14] * 256u + c; }
  }
}
`;
