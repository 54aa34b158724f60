/**
 * WGSL of the budget cut pass: one workgroup of 256 threads between the select and compact phases
 * of {@link SELECT_WGSL}. It reads the preferred and minimum cost and the key histogram the select
 * phase accumulated (64-bit lo/hi sums in cost units) and writes the mode and the cut bucket:
 *
 * - no budget, or the preferred levels fit → mode 0 (nothing coarsened);
 * - even every adjustable object at its quality floor is over the budget → mode 2 (floor
 *   everywhere, flagged: `LodSet`'s hybrid does the same and reports `budgetMet: false`);
 * - else mode 1 and the cut: the smallest bucket `c` whose suffix sum `Σ_{b ≥ c} cost[b]` fits in
 *   `budget − minimum`. The compact phase buys every step whose bucket is ≥ `c`, so the bought
 *   cost is exactly that suffix sum and the frame never exceeds the budget.
 *
 * The suffix sums are a Hillis–Steele scan over 256 partial sums of 8 buckets each.
 *
 * @module
 */
import { FRAME_STRUCT_WGSL } from './wgsl.js';

/** The cut kernel; entry point `main`, one workgroup of 256. @category WebGPU */
export const BUDGET_CUT_WGSL = /* wgsl */ `
${FRAME_STRUCT_WGSL}
@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> scratch: array<u32>;

const NB = 2048u;
const HIST = 64u;

var<workgroup> part: array<vec2u, 256>;
var<workgroup> wgMode: u32;
var<workgroup> cutMin: atomic<u32>;

fn add(a: vec2u, b: vec2u) -> vec2u { let lo = a.x + b.x; return vec2u(lo, a.y + b.y + select(0u, 1u, lo < a.x)); }
fn sub(a: vec2u, b: vec2u) -> vec2u { return vec2u(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x)); }
fn le(a: vec2u, b: vec2u) -> bool { return a.y < b.y || (a.y == b.y && a.x <= b.x); }
fn bucket(b: u32) -> vec2u { return vec2u(scratch[HIST + 2u * b], scratch[HIST + 2u * b + 1u]); }

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32) {
  let budget = vec2u(frame.budgetLo, frame.budgetHi);
  let minimum = vec2u(scratch[4], scratch[5]);
  if (t == 0u) {
    let pref = vec2u(scratch[2], scratch[3]);
    var m = 1u;
    if ((frame.flags & 1u) == 0u || le(pref, budget)) { m = 0u; } else if (!le(minimum, budget)) { m = 2u; }
    wgMode = m;
    atomicStore(&cutMin, NB);
  }
  let mode = workgroupUniformLoad(&wgMode);
  if (mode != 1u) {
    if (t == 0u) { scratch[0] = select(0u, NB, mode == 2u); scratch[1] = mode; scratch[12] = 0u; scratch[13] = 0u; }
    return;
  }
  let remaining = sub(budget, minimum);
  var s = vec2u(0u, 0u);
  for (var k = 0u; k < 8u; k++) { s = add(s, bucket(8u * t + k)); }
  part[t] = s;
  workgroupBarrier();
  for (var d = 1u; d < 256u; d <<= 1u) {
    var v = part[t];
    if (t + d < 256u) { v = add(v, part[t + d]); }
    workgroupBarrier();
    part[t] = v;
    workgroupBarrier();
  }
  // part[t] = Σ over buckets ≥ 8t; the suffix above this thread's range is part[t + 1].
  var run = vec2u(0u, 0u);
  if (t < 255u) { run = part[t + 1u]; }
  var best = NB;
  var bestRun = vec2u(0u, 0u);
  for (var k = 7i; k >= 0i; k--) {
    let b = 8u * t + u32(k);
    run = add(run, bucket(b));
    if (le(run, remaining)) { best = b; bestRun = run; }
  }
  atomicMin(&cutMin, best);
  workgroupBarrier();
  let c = atomicLoad(&cutMin);
  if (best == c && best < NB) { scratch[12] = bestRun.x; scratch[13] = bestRun.y; }
  if (t == 0u) {
    scratch[0] = c; scratch[1] = 1u;
    if (c == NB) { scratch[12] = 0u; scratch[13] = 0u; }
  }
}
`;
