;; lodkit fused WebAssembly SIMD kernel (source; compiled by scripts/generate.mjs with the npm
;; package `wabt` into fusedKernel.generated.ts, with its parts in place: fusedState.part.wat — the
;; globals —, fusedLanes.part.wat — per-frame entries, re-checks, the scalar lane path —,
;; budgetLanes.part.wat — the budget policy's classification of a cluster's objects — and
;; collectLanes.part.wat — hybrid's collection of a group of lanes). It shares the memory of heightKernel.wat's instance
;; (imported as env.memory) and runs the per-object path of one evaluated cluster of one profile:
;; for 4 objects at a time, the plane tests of every view in f32x4 lanes, the metric of every view in
;; float64 (combined over views as LodSet does: max for sizes, min for distances), then the decision
;; (thresholds, blend window, min/max level, stats). Levels, blend, sizes and stats are identical to
;; decideDescendingSingle / decideAscendingMapped (the JavaScript reference) by construction:
;;
;; - `sizes` is stored at the slot's id, or in slot order (clusters.ts `sizesS`, thresholds frames):
;;   scattered stores into the id-ordered array cost ≈ 0.6 ms of a 1M random-order frame and made
;;   frames 2–4 of a new set up to 2 × slower (bench/RESULTS.md, "Random cold start"). For the
;;   same reason a thresholds frame with sizes in slot order owes the changed blends of its steady
;;   slots ($oweBlends: slot copy, a mark and a list entry) instead of storing them at their ids;
;;   owedBlends.ts copies them when `blend` is observed.
;; - Plane tests (the bulk of the arithmetic: 6 planes × 6 operations per object and view) run in
;;   float32. A lane whose float32 test is not clearly decided — |fl32(d + r)| ≤ M for some plane and
;;   no plane clearly culls it — is "near a plane": the whole group repeats its plane tests in float64
;;   with the reference's operations (counted in `rechecked`). The bound M, per lane and view:
;;     d32 = fl(fl(fl(fl(a'x) + fl(b'y)) + fl(c'z)) + d'), a' = fl32(a) …: the a·x term passes through
;;     5 roundings (coefficient, product, 3 sums), d through 2, so |d32 − d| ≤ γ5 · S with
;;     S = |a||x| + |b||y| + |c||z| + |d|, γ5 = 5u / (1 − 5u), u = 2⁻²⁴. The reference's own float64
;;     value D differs from d by ≤ γ4(2⁻⁵³) · S, so |d32 − D| ≤ 6u · S. t = fl(d32 + r) =
;;     (d32 + r)(1 + ε), |ε| ≤ u: if |t| > M ≥ 6u(1 + u) · S then sign(t) = sign(D + r), i.e. the
;;     reference's `D < −r` is decided. We use S ≤ S̄ = nmax · (|x| + |y| + |z|) + dmax (nmax, dmax:
;;     the view's largest |normal component| and |offset|, each at least 2⁻¹⁰⁰ so that subnormal
;;     coefficients and underflowing products, absolute errors ≤ 2⁻¹⁴⁹ each, stay covered) and
;;     M = 8u · fl32(S̄), computed with 4 float32 roundings: M ≥ 8u(1 − u)⁴ · S̄ > 6u(1 + u) · S.
;;     A non-finite product or coefficient makes M (or t) ±∞/NaN: the lane is "near" and rechecked.
;; - The metric is float64 with the same operations in the same order as metricKernels.ts, so the
;;   value (which `sizes` and the hysteresis rule re-read) is bit-identical and no threshold, blend
;;   edge or rounding midpoint needs a margin: the decision compares exactly what the reference
;;   compares (fl32(v) > t for screen metrics, v < t for distance, both on float64 registers after
;;   promotion, which preserves order), and the blend fraction repeats the reference's roundings.
;; - Distances are decided in a negated space (x ↦ −x, t ↦ −t), where the ascending rule becomes the
;;   descending one; the blend fraction is invariant ((−v) − (−a) = −(v − a) exactly, etc.).
;; - Lanes whose level changes (changed list, minFramesBetweenChanges), forced, hidden with a
;;   visible previous level, or with an invalid sphere are left to the JavaScript kernel (`redo`
;;   list). Steady lanes are decided 4 at a time; lanes whose level would change are classified 4
;;   at a time too (the hysteresis probe, $rule4), the held ones finished 4 at a time as well
;;   (their blend from the rule at the previous size, read in slot order; by $held per lane when
;;   sizes are kept by id), and in hybrid's pass the others — a coarsened object prefers a finer
;;   level than it shows every frame — committed with the steady ones. Only what that cannot
;;   classify takes the scalar float64 path per lane, $lane (counted in `exact`). The blend window
;;   runs per half of a group only when a lane of that half has a candidate.
;; - In hybrid's first pass over budget the kernel also classifies each committed group as the
;;   collection would ($collect4, fusedCollect.ts): a cluster with no chain and no finalize entry
;;   is settled there and skipped by the collection.
;;
;; Memory (bytes): view v's float64 block at v·256 (planes [0,192), eye 192/200/208, window height
;; 216, pixel scale 224, window area 232, perspective 240); its float32 splats at 16384 + v·512
;; (24 plane vectors, nmax 384, dmax 400); the frame block FP = 49152 (layout in wasmKernels.ts).
(module
  (import "env" "memory" (memory 1))
  ;; @include fusedState.part.wat
  ;; @include fusedLanes.part.wat
  ;; @include budgetLanes.part.wat name=budget hybrid=0
  ;; @include budgetLanes.part.wat name=budgetHybrid hybrid=1
  ;; @include collectLanes.part.wat

  ;; Slots [start, end) (at most 64) of one cluster: spheres at $sp, metric values at $work, metric
  ;; $code (0 distance, 1 pixels, 2 screenHeight, 3 screenArea) over views [0, views), culling $cull
  ;; (0 off, 1 on, 2: the cluster's bounding sphere lies wholly inside every view, so every object
  ;; passes every plane test of the reference — clusters.ts pads the bound — and none is run).
  ;; Writes the frame block's outputs; returns the number of slots left to the JavaScript kernel.
  (func (export "run") (param $sp i32) (param $work i32) (param $start i32) (param $end i32) (param $views i32) (param $code i32) (param $cull i32) (result i32)
    (local $k i32) (local $j i32) (local $l i32) (local $s i32) (local $v i32) (local $p i32) (local $q i32) (local $pl i32)
    (local $redo i32) (local $held i32) (local $rechecked i32) (local $exact i32)
    (local $x v128) (local $y v128) (local $z v128) (local $r v128) (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local $xl v128) (local $xh v128) (local $yl v128) (local $yh v128) (local $zl v128) (local $zh v128) (local $rl v128) (local $rh v128)
    (local $bad v128) (local $badl v128) (local $badh v128) (local $m v128) (local $dt v128) (local $out v128) (local $in v128) (local $near v128)
    (local $cul v128) (local $sl v128) (local $sh v128) (local $cv v128) (local $valid v128)
    (local $vl v128) (local $vh v128) (local $cl v128) (local $ch v128) (local $lod v128) (local $bi v128) (local $level v128)
    (local $old v128) (local $fl v128) (local $fo v128) (local $bl v128) (local $marked v128) (local $fast v128) (local $hid v128) (local $vis v128)
    (local $hx v128) (local $hy v128) (local $hz v128) (local $hr v128) (local $hold v128) (local $hbad v128) (local $hcul v128) (local $hf i32)
    (local $dx v128) (local $dy v128) (local $dz v128) (local $d v128) (local $val v128) (local $res v128) (local $special v128) (local $sv v128) (local $persp i32)
    (local $sizeF v128) (local $k4i v128) (local $rs i32)
    (local $cand v128) (local $fL v128) (local $fH v128) (local $lodFL v128) (local $lodFH v128) (local $lodL v128) (local $lodH v128)
    (local $uFL v128) (local $uFH v128) (local $uF v128) (local $uAny v128) (local $fb v128) (local $nb4 v128) (local $loF v128) (local $hiF v128)
    (local $k0 v128) (local $k1 v128) (local $k2 v128) (local $k3 v128) (local $k4 v128) (local $k5 v128) (local $k6 v128) (local $k7 v128) (local $k8 v128) (local $k9 v128) (local $k10 v128) (local $k11 v128) (local $k12 v128) (local $k13 v128) (local $k14 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $a4 v128) (local $ah v128)
    (local $mv v128) (local $la v128) (local $fac v128) (local $pL v128) (local $pH v128) (local $lodp v128) (local $bip v128) (local $hm i32) (local $rm i32) (local $unset i32) (local $nmv v128)
    (local $hv v128) (local $hs v128) (local $hb v128) (local $inh v128) (local $hc0 v128) (local $hc1 v128) (local $hc2 v128) (local $hc3 v128) (local $hc4 v128)
    (local.set $cv (select (v128.const f64x2 -1 -1) (v128.const f64x2 0 0) (local.get $cull)))
    ;; outputs of this call
    (v128.store offset={FB_LEVEL_COUNTS} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
    (v128.store offset={FB_LEVEL_COUNTS + 16} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
    (i32.store offset={FB_UFRAC} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (i32.store offset={FB_HIDDEN} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (i32.store offset={FB_MOVED} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (i32.store offset={FB_TOUCHED} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (v128.store offset={FB_HELD_COUNTS} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
    (i32.store offset={FB_HELD_COUNTS + 16} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (if (global.get $collect) (then
      (global.set $cF0 (v128.const i32x4 0 0 0 0)) (global.set $cF1 (v128.const i32x4 0 0 0 0)) (global.set $cF2 (v128.const i32x4 0 0 0 0))
      (global.set $cF3 (v128.const i32x4 0 0 0 0)) (global.set $cF4 (v128.const i32x4 0 0 0 0))
      (global.set $cB0 (v128.const i32x4 0 0 0 0)) (global.set $cB1 (v128.const i32x4 0 0 0 0)) (global.set $cB2 (v128.const i32x4 0 0 0 0))
      (global.set $cB3 (v128.const i32x4 0 0 0 0)) (global.set $cB4 (v128.const i32x4 0 0 0 0))
      (global.set $cStable (i32.const 0))))
    (local.set $k4i (v128.const i32x4 4 4 4 4))
    (local.set $nmv (select (v128.const i32x4 -1 -1 -1 -1) (v128.const i32x4 0 0 0 0) (global.get $nextMode)))
    (local.set $loF (f64x2.splat (f64.convert_i32_s (global.get $lo))))
    (local.set $hiF (f64x2.splat (f64.convert_i32_s (global.get $hi))))
    (local.set $k (local.get $start))
    ;; constants in locals: V8 (11.x) rebuilds a v128.const from two 64-bit immediates at every use
    (local.set $k0 (v128.const f32x4 0x1p-21 0x1p-21 0x1p-21 0x1p-21))
    (local.set $k1 (v128.const f32x4 nan nan nan nan))
    (local.set $k2 (v128.const f64x2 0.5 0.5))
    (local.set $k3 (v128.const f64x2 0x1.fffffffffffffp+1023 0x1.fffffffffffffp+1023))
    (local.set $k4 (v128.const f64x2 3.141592653589793 3.141592653589793))
    (local.set $k5 (v128.const f64x2 inf inf))
    (local.set $k6 (v128.const f64x2 nan nan))
    (local.set $k7 (v128.const i32x4 0 1 2 3))
    (local.set $k8 (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000))
    (local.set $k9 (v128.const i32x4 1 1 1 1))
    (local.set $k10 (v128.const i32x4 2 2 2 2))
    (local.set $k11 (v128.const i32x4 255 255 255 255))
    (local.set $k12 (v128.const i32x4 3 3 3 3))
    (local.set $k13 (v128.const i32x4 4 4 4 4))
    (local.set $k14 (v128.const i64x2 4 4))
    (block $done (loop $group
      (br_if $done (i32.ge_u (local.get $k) (local.get $end)))
      (local.set $j (i32.sub (local.get $k) (local.get $start)))
      ;; four spheres → x, y, z, r lanes
      (local.set $s (i32.add (local.get $sp) (i32.shl (local.get $k) (i32.const 4))))
      (local.set $t0 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (v128.load (local.get $s)) (v128.load offset=16 (local.get $s))))
      (local.set $t1 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (v128.load offset=32 (local.get $s)) (v128.load offset=48 (local.get $s))))
      (local.set $t2 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (v128.load (local.get $s)) (v128.load offset=16 (local.get $s))))
      (local.set $t3 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (v128.load offset=32 (local.get $s)) (v128.load offset=48 (local.get $s))))
      (local.set $x (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t0) (local.get $t1)))
      (local.set $y (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t0) (local.get $t1)))
      (local.set $z (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t2) (local.get $t3)))
      (local.set $r (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t2) (local.get $t3)))
      (local.set $xl (f64x2.promote_low_f32x4 (local.get $x)))
      (local.set $xh (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $x) (local.get $x))))
      (local.set $yl (f64x2.promote_low_f32x4 (local.get $y)))
      (local.set $yh (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $y) (local.get $y))))
      (local.set $zl (f64x2.promote_low_f32x4 (local.get $z)))
      (local.set $zh (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $z) (local.get $z))))
      (local.set $rl (f64x2.promote_low_f32x4 (local.get $r)))
      (local.set $rh (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $r) (local.get $r))))
      ;; lanes inside [start, end)
      (local.set $valid (i32x4.lt_s (i32x4.add (i32x4.splat (local.get $k)) (local.get $k7)) (i32x4.splat (local.get $end))))
      ;; a non-finite coordinate or radius (exponent all ones), or a negative radius
      (local.set $bad (v128.or (v128.or
        (v128.or (i32x4.eq (v128.and (local.get $x) (local.get $k8)) (local.get $k8))
          (i32x4.eq (v128.and (local.get $y) (local.get $k8)) (local.get $k8)))
        (v128.or (i32x4.eq (v128.and (local.get $z) (local.get $k8)) (local.get $k8))
          (i32x4.eq (v128.and (local.get $r) (local.get $k8)) (local.get $k8))))
        (f32x4.lt (local.get $r) (v128.const f32x4 0 0 0 0))))
      (local.set $badl (i64x2.extend_low_i32x4_s (local.get $bad)))
      (local.set $badh (i64x2.extend_high_i32x4_s (local.get $bad)))
      (local.set $v (i32.const 0))
      (loop $view
        (local.set $p (i32.mul (local.get $v) (i32.const {WASM_VIEW_BYTES})))
        (local.set $cul (v128.const i32x4 0 0 0 0))
        (if (i32.and (i32.ne (i32.or (local.get $code) (local.get $cull)) (i32.const 0)) (i32.ne (local.get $cull) (i32.const 2))) (then
          ;; float32 plane tests with the error bound M (see the header)
          (local.set $pl (i32.add (i32.const {SPLATS}) (i32.mul (local.get $v) (i32.const {SPLAT_BYTES}))))
          (local.set $m (f32x4.add (f32x4.mul (v128.load offset={SPLAT_NMAX} (local.get $pl))
            (f32x4.add (f32x4.add (f32x4.abs (local.get $x)) (f32x4.abs (local.get $y))) (f32x4.abs (local.get $z))))
            (v128.load offset={SPLAT_DMAX} (local.get $pl))))
          (local.set $m (f32x4.mul (local.get $m) (local.get $k0)))
          (local.set $out (v128.const i32x4 0 0 0 0))
          (local.set $in (v128.const i32x4 -1 -1 -1 -1))
          (local.set $q (i32.const 0))
          (loop $plane
            (local.set $dt (f32x4.add (f32x4.add (f32x4.add (f32x4.add
              (f32x4.mul (v128.load (local.get $pl)) (local.get $x))
              (f32x4.mul (v128.load offset=16 (local.get $pl)) (local.get $y)))
              (f32x4.mul (v128.load offset=32 (local.get $pl)) (local.get $z)))
              (v128.load offset=48 (local.get $pl))) (local.get $r)))
            (local.set $out (v128.or (local.get $out) (f32x4.lt (local.get $dt) (f32x4.neg (local.get $m)))))
            (local.set $in (v128.and (local.get $in) (f32x4.gt (local.get $dt) (local.get $m))))
            (local.set $pl (i32.add (local.get $pl) (i32.const 64)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br_if $plane (i32.lt_u (local.get $q) (i32.const 6))))
          (local.set $near (v128.andnot (v128.andnot (local.get $valid) (v128.or (local.get $out) (local.get $in))) (local.get $bad)))
          (if (v128.any_true (local.get $near))
            (then
              (local.set $rechecked (i32.add (local.get $rechecked) (i32.popcnt (i32x4.bitmask (local.get $near)))))
              (local.set $cul (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
                (call $planes64 (local.get $xl) (local.get $yl) (local.get $zl) (local.get $rl) (local.get $p))
                (call $planes64 (local.get $xh) (local.get $yh) (local.get $zh) (local.get $rh) (local.get $p)))))
            (else (local.set $cul (local.get $out))))))
        ;; the metric of the two halves (lanes 0–1, 2–3) with metricKernels.ts's operations: bad →
        ;; NaN (first view) / kept; culled → −1 or 0 (sizes, max-combined) / +∞ (distance, first view)
        ;; or kept; eye inside → +∞ (height) / MAX_VALUE (area, eye at the centre)
        (local.set $persp (f64.ne (f64.load offset={8 * WV_PERSPECTIVE} (local.get $p)) (f64.const 0)))
        (local.set $hf (i32.const 0))
        (loop $half
          (local.set $hx (select (local.get $xh) (local.get $xl) (local.get $hf)))
          (local.set $hy (select (local.get $yh) (local.get $yl) (local.get $hf)))
          (local.set $hz (select (local.get $zh) (local.get $zl) (local.get $hf)))
          (local.set $hr (select (local.get $rh) (local.get $rl) (local.get $hf)))
          (local.set $hold (select (local.get $sh) (local.get $sl) (local.get $hf)))
          (local.set $hbad (select (local.get $badh) (local.get $badl) (local.get $hf)))
          (local.set $hcul (select (i64x2.extend_high_i32x4_s (local.get $cul)) (i64x2.extend_low_i32x4_s (local.get $cul)) (local.get $hf)))
          (local.set $special (v128.const i32x4 0 0 0 0))
          (local.set $res (block $met (result v128)
          (if (i32.or (i32.eqz (local.get $code)) (local.get $persp)) (then
            (local.set $dx (f64x2.sub (local.get $hx) (f64x2.splat (f64.load offset={8 * WV_EYE} (local.get $p)))))
            (local.set $dy (f64x2.sub (local.get $hy) (f64x2.splat (f64.load offset={8 * WV_EYE + 8} (local.get $p)))))
            (local.set $dz (f64x2.sub (local.get $hz) (f64x2.splat (f64.load offset={8 * WV_EYE + 16} (local.get $p)))))
            (local.set $d (f64x2.sqrt (f64x2.add (f64x2.add (f64x2.mul (local.get $dx) (local.get $dx))
              (f64x2.mul (local.get $dy) (local.get $dy))) (f64x2.mul (local.get $dz) (local.get $dz)))))))
          (if (i32.eqz (local.get $code)) (then
            ;; distance: max(d − r, 0), min-combined; culled → +∞ in mode 0, else kept
            (local.set $val (f64x2.sub (local.get $d) (local.get $hr)))
            (local.set $val (v128.and (local.get $val) (f64x2.gt (local.get $val) (v128.const f64x2 0 0))))
            (if (local.get $v) (then
              (local.set $res (v128.bitselect (local.get $val) (local.get $hold) (f64x2.lt (local.get $val) (local.get $hold))))
              (local.set $res (v128.bitselect (local.get $hold) (local.get $res) (v128.or (local.get $hcul) (local.get $hbad)))))
            (else
              (local.set $res (v128.bitselect (local.get $k5) (local.get $val) (local.get $hcul)))
              (local.set $res (v128.bitselect (local.get $k6) (local.get $res) (local.get $hbad)))))
            (br $met (local.get $res))))
          (if (i32.eq (local.get $code) (i32.const 3))
            (then
              (if (local.get $persp)
                (then
                  (local.set $val (f64x2.div (local.get $hr) (local.get $d)))
                  (local.set $val (f64x2.div (f64x2.mul (f64x2.mul (local.get $k4) (local.get $val)) (local.get $val))
                    (f64x2.splat (f64.load offset={8 * WV_WINDOW_AREA} (local.get $p)))))
                  (local.set $special (f64x2.eq (local.get $d) (v128.const f64x2 0 0)))
                  (local.set $sv (local.get $k3)))
                (else
                  (local.set $val (f64x2.div (f64x2.mul (f64x2.mul (local.get $k4) (local.get $hr)) (local.get $hr))
                    (f64x2.splat (f64.load offset={8 * WV_WINDOW_AREA} (local.get $p))))))))
            (else
              (if (local.get $persp)
                (then
                  (local.set $val (f64x2.div (f64x2.add (local.get $hr) (local.get $hr)) (f64x2.mul (local.get $d) (f64x2.splat (f64.load offset={8 * WV_WINDOW_HEIGHT} (local.get $p))))))
                  (local.set $special (f64x2.le (local.get $d) (local.get $hr)))
                  (local.set $sv (local.get $k5)))
                (else
                  (local.set $val (f64x2.div (f64x2.add (local.get $hr) (local.get $hr)) (f64x2.splat (f64.load offset={8 * WV_WINDOW_HEIGHT} (local.get $p)))))))
              (if (i32.eq (local.get $code) (i32.const 1))
                (then (local.set $val (f64x2.mul (local.get $val) (f64x2.splat (f64.load offset={8 * WV_PIXEL_SCALE} (local.get $p)))))))))
          (if (result v128) (local.get $v)
            (then
              (local.set $res (v128.bitselect (local.get $val) (local.get $hold) (f64x2.gt (local.get $val) (local.get $hold))))
              (local.set $res (v128.bitselect (local.get $sv) (local.get $res) (local.get $special)))
              (local.set $res (v128.bitselect (v128.bitselect (local.get $cv) (local.get $hold) (f64x2.gt (local.get $cv) (local.get $hold)))
                (local.get $res) (local.get $hcul)))
              (v128.bitselect (local.get $hold) (local.get $res) (local.get $hbad)))
            (else
              (local.set $res (v128.bitselect (local.get $sv) (local.get $val) (local.get $special)))
              (local.set $res (v128.bitselect (local.get $cv) (local.get $res) (local.get $hcul)))
              (v128.bitselect (local.get $k6) (local.get $res) (local.get $hbad))))))
          (local.set $sl (select (local.get $sl) (local.get $res) (local.get $hf)))
          (local.set $sh (select (local.get $res) (local.get $sh) (local.get $hf)))
          (local.set $hf (i32.add (local.get $hf) (i32.const 1)))
          (br_if $half (i32.lt_u (local.get $hf) (i32.const 2))))
        (local.set $v (i32.add (local.get $v) (i32.const 1)))
        (br_if $view (i32.lt_u (local.get $v) (local.get $views))))
      (v128.store (i32.add (local.get $work) (i32.shl (local.get $k) (i32.const 3))) (local.get $sl))
      (v128.store offset=16 (i32.add (local.get $work) (i32.shl (local.get $k) (i32.const 3))) (local.get $sh))
      ;; decision: lod, bi and the level of the 4 lanes (exact: see the header)
      (if (global.get $desc)
        (then
          (local.set $vl (f64x2.mul (local.get $sl) (f64x2.splat (global.get $bias))))
          (local.set $vh (f64x2.mul (local.get $sh) (f64x2.splat (global.get $bias))))
          (local.set $cl (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $vl))))
          (local.set $ch (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $vh)))))
        (else
          (local.set $vl (f64x2.div (local.get $sl) (f64x2.splat (global.get $bias))))
          (local.set $vh (f64x2.div (local.get $sh) (f64x2.splat (global.get $bias))))
          (local.set $cl (f64x2.neg (local.get $vl)))
          (local.set $ch (f64x2.neg (local.get $vh)))))
      (if (global.get $desc)
        (then
          ;; screen metrics: the reference compares fl32(v) with float32 thresholds, 4 lanes at once
          (local.set $sizeF (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (f32x4.demote_f64x2_zero (local.get $vl)) (f32x4.demote_f64x2_zero (local.get $vh))))
          (local.set $lod (i32x4.add (i32x4.add (i32x4.add (i32x4.add (local.get $k4i)
            (f32x4.gt (local.get $sizeF) (global.get $t0f))) (f32x4.gt (local.get $sizeF) (global.get $t1f)))
            (f32x4.gt (local.get $sizeF) (global.get $t2f))) (f32x4.gt (local.get $sizeF) (global.get $t3f))))
          (local.set $bi (i32x4.add (i32x4.add (i32x4.add (i32x4.add (local.get $k4i)
            (f32x4.gt (local.get $sizeF) (global.get $b0f))) (f32x4.gt (local.get $sizeF) (global.get $b1f)))
            (f32x4.gt (local.get $sizeF) (global.get $b2f))) (f32x4.gt (local.get $sizeF) (global.get $b3f)))))
        (else
          ;; distance: the reference compares the float64 value
          (local.set $lod (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
            (i64x2.add (i64x2.add (i64x2.add (i64x2.add (local.get $k14) (f64x2.gt (local.get $cl) (global.get $t0))) (f64x2.gt (local.get $cl) (global.get $t1))) (f64x2.gt (local.get $cl) (global.get $t2))) (f64x2.gt (local.get $cl) (global.get $t3)))
            (i64x2.add (i64x2.add (i64x2.add (i64x2.add (local.get $k14) (f64x2.gt (local.get $ch) (global.get $t0))) (f64x2.gt (local.get $ch) (global.get $t1))) (f64x2.gt (local.get $ch) (global.get $t2))) (f64x2.gt (local.get $ch) (global.get $t3)))))
          (local.set $bi (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
            (i64x2.add (i64x2.add (i64x2.add (i64x2.add (local.get $k14) (f64x2.gt (local.get $cl) (global.get $b0))) (f64x2.gt (local.get $cl) (global.get $b1))) (f64x2.gt (local.get $cl) (global.get $b2))) (f64x2.gt (local.get $cl) (global.get $b3)))
            (i64x2.add (i64x2.add (i64x2.add (i64x2.add (local.get $k14) (f64x2.gt (local.get $ch) (global.get $b0))) (f64x2.gt (local.get $ch) (global.get $b1))) (f64x2.gt (local.get $ch) (global.get $b2))) (f64x2.gt (local.get $ch) (global.get $b3)))))))
      (local.set $lodL (i64x2.extend_low_i32x4_s (local.get $lod)))
      (local.set $lodH (i64x2.extend_high_i32x4_s (local.get $lod)))
      ;; blend windows: the reference's bi, clamped to [lod − 1, lod], opens one only when bi < lod ≤ nb
      (local.set $cand (v128.and (i32x4.lt_s (local.get $bi) (local.get $lod)) (i32x4.le_s (local.get $lod) (i32x4.splat (global.get $nb)))))
      (local.set $fL (f64x2.convert_low_i32x4_s (local.get $lod)))
      (local.set $fH (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $lod) (local.get $lod))))
      (local.set $lodFL (local.get $fL))
      (local.set $lodFH (local.get $fH))
      ;; (each half only when one of its lanes has a window candidate)
      (local.set $fac (v128.and (local.get $cand) (local.get $valid)))
      (if (v128.any_true (i64x2.extend_low_i32x4_s (local.get $fac))) (then
        (local.set $fL (call $window (select (local.get $vl) (local.get $cl) (global.get $desc)) (local.get $lodL) (i64x2.extend_low_i32x4_s (local.get $cand)) (local.get $fL)))))
      (if (v128.any_true (i64x2.extend_high_i32x4_s (local.get $fac))) (then
        (local.set $fH (call $window (select (local.get $vh) (local.get $ch) (global.get $desc)) (local.get $lodH) (i64x2.extend_high_i32x4_s (local.get $cand)) (local.get $fH)))))
      ;; clamp to [lo, hi] as the reference (pmax/pmin: `f < lo ? lo : f`, `hi < f ? hi : f`), round half up, fraction
      (local.set $uFL (f64x2.ne (local.get $fL) (local.get $lodFL)))
      (local.set $uFH (f64x2.ne (local.get $fH) (local.get $lodFH)))
      (local.set $fL (f64x2.pmin (f64x2.pmax (local.get $fL) (local.get $loF)) (local.get $hiF)))
      (local.set $fH (f64x2.pmin (f64x2.pmax (local.get $fH) (local.get $loF)) (local.get $hiF)))
      (local.set $level (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
        (i32x4.trunc_sat_f64x2_s_zero (f64x2.floor (f64x2.add (local.get $fL) (local.get $k2))))
        (i32x4.trunc_sat_f64x2_s_zero (f64x2.floor (f64x2.add (local.get $fH) (local.get $k2))))))
      (local.set $fL (f64x2.sub (local.get $fL) (f64x2.floor (local.get $fL))))
      (local.set $fH (f64x2.sub (local.get $fH) (f64x2.floor (local.get $fH))))
      (local.set $uF (v128.or (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $uFL) (local.get $uFH))
        (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
          (f64x2.ne (local.get $fL) (v128.const f64x2 0 0)) (f64x2.ne (local.get $fH) (v128.const f64x2 0 0)))))
      (local.set $fb (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (f32x4.demote_f64x2_zero (local.get $fL)) (f32x4.demote_f64x2_zero (local.get $fH))))
      (local.set $l (i32.add (global.get $levelsAt) (local.get $k)))
      (local.set $old (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u (v128.load32_zero (local.get $l)))))
      (local.set $fl (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u (v128.load32_zero (i32.add (global.get $flagsAt) (local.get $k))))))
      (local.set $fo (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u (v128.load32_zero (i32.add (global.get $forcedAt) (local.get $k))))))
      (local.set $l (i32.add (global.get $blendAt) (i32.shl (local.get $k) (i32.const 2))))
      (local.set $bl (v128.load (local.get $l)))
      ;; culled (the reference's marker value) or hidden, not removed, previous level hidden
      (local.set $marked (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (f64x2.eq (local.get $sl) (f64x2.splat (global.get $marker))) (f64x2.eq (local.get $sh) (f64x2.splat (global.get $marker)))))
      ;; (in hybrid's pass also with a visible previous level: no changed list there, finalize
      ;; makes the change; counted with the slots whose preferred level is not the displayed one)
      (local.set $hid (v128.and (v128.and (local.get $valid)
        (v128.or (local.get $marked) (i32x4.eq (v128.and (local.get $fl) (local.get $k9)) (local.get $k9))))
        (v128.and (v128.or (i32x4.eq (local.get $old) (local.get $k11)) (local.get $nmv))
          (i32x4.eq (v128.and (local.get $fl) (local.get $k10)) (v128.const i32x4 0 0 0 0)))))
      (if (global.get $nextMode) (then
        (local.set $fac (v128.andnot (local.get $hid) (i32x4.eq (local.get $old) (local.get $k11))))
        (if (v128.any_true (local.get $fac)) (then
          (if (global.get $collect) (then (local.set $unset (i32.const 1)))) ;; (the collection lists them)
          (i32.store offset={FB_MOVED} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_MOVED} (i32.const {FUSED_BLOCK})) (i32.popcnt (i32x4.bitmask (local.get $fac)))))))))
      ;; visible, valid sphere, not forced, level kept (so no hysteresis or timer rule applies)
      (local.set $vis (v128.and (v128.and (local.get $valid) (v128.and
        (i32x4.eq (local.get $fl) (v128.const i32x4 0 0 0 0))
        (i32x4.eq (local.get $fo) (local.get $k11))))
        (v128.andnot (i32x4.eq (local.get $level) (local.get $old)) (v128.or (local.get $marked)
          (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (f64x2.ne (local.get $sl) (local.get $sl)) (f64x2.ne (local.get $sh) (local.get $sh)))))))
      ;; a visible lane whose level is not its displayed one, classified 4 lanes at once as $lane would:
      ;; with hysteresis and a previous level in [lo, hi], the level of the probe on the previous
      ;; level's side (the rule as above: counts, blend window, clamp, rounding) — held ($hm: $held
      ;; finishes it) iff the previous level does not lie beyond it. Not held: a change — the JavaScript kernel's ($rm), or in hybrid's pass a preferred level,
      ;; committed below like a steady lane (a coarsened object is one every frame).
      (local.set $hm (i32.const 0)) (local.set $rm (i32.const 0)) (local.set $hv (v128.const i32x4 0 0 0 0))
      (local.set $mv (v128.and (v128.and (local.get $valid) (v128.and
        (i32x4.eq (local.get $fl) (v128.const i32x4 0 0 0 0))
        (i32x4.eq (local.get $fo) (local.get $k11))))
        (v128.andnot (v128.not (i32x4.eq (local.get $level) (local.get $old))) (v128.or (local.get $marked)
          (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (f64x2.ne (local.get $sl) (local.get $sl)) (f64x2.ne (local.get $sh) (local.get $sh)))))))
      (if (v128.any_true (local.get $mv)) (then
        (if (global.get $holds) (then
          (local.set $la (i32x4.gt_s (local.get $old) (local.get $level))) ;; previous level coarser
          (local.set $pL (f64x2.splat (f64.sub (f64.const 1) (global.get $h))))
          (local.set $pH (f64x2.splat (f64.add (f64.const 1) (global.get $h))))
          (if (i32.eqz (global.get $desc)) (then (local.set $fac (local.get $pL)) (local.set $pL (local.get $pH)) (local.set $pH (local.get $fac))))
          ;; $pL: the factor on the coarse side, $pH on the fine side
          (local.set $fac (v128.bitselect (local.get $pL) (local.get $pH) (i64x2.extend_low_i32x4_s (local.get $la))))
          (local.set $pH (v128.bitselect (local.get $pL) (local.get $pH) (i64x2.extend_high_i32x4_s (local.get $la))))
          (local.set $pL (f64x2.mul (local.get $vl) (local.get $fac)))
          (local.set $pH (f64x2.mul (local.get $vh) (local.get $pH)))
          ;; (screen metrics: the probe's rounded level is at most max(its un-windowed level, lo) — the
          ;; window only moves it toward the coarser side's lod − 1 —, so when every lane is coarser than
          ;; the level it prefers and than that bound, none is held and $rule4 is not called: a
          ;; coarsened object, hybrid's case every frame)
          (local.set $rs (i32.const 1))
          (if (global.get $desc) (then
            (local.set $sizeF (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (f32x4.demote_f64x2_zero (local.get $pL)) (f32x4.demote_f64x2_zero (local.get $pH))))
            (local.set $lodp (i32x4.add (i32x4.add (i32x4.add (i32x4.add (local.get $k4i)
              (f32x4.gt (local.get $sizeF) (global.get $t0f))) (f32x4.gt (local.get $sizeF) (global.get $t1f)))
              (f32x4.gt (local.get $sizeF) (global.get $t2f))) (f32x4.gt (local.get $sizeF) (global.get $t3f))))
            (local.set $rs (v128.any_true (v128.andnot (local.get $mv)
              (v128.and (local.get $la) (i32x4.gt_s (local.get $old) (i32x4.max_s (local.get $lodp) (i32x4.splat (global.get $lo))))))))))
          (if (local.get $rs) (then
            ;; the probe's level as $rule and the rounding give it
            (local.set $lodp (call $rule4 (local.get $pL) (local.get $pH) (local.get $mv)))
            ;; $la: held; $bip: the rule applies (previous level in [lo, hi])
            (local.set $la (v128.bitselect (i32x4.le_s (local.get $old) (local.get $lodp)) (i32x4.ge_s (local.get $old) (local.get $lodp)) (local.get $la)))
            (local.set $bip (v128.and (local.get $mv) (v128.and (i32x4.ge_s (local.get $old) (i32x4.splat (global.get $lo)))
              (i32x4.le_s (local.get $old) (i32x4.splat (global.get $hi))))))
            (local.set $la (v128.and (local.get $bip) (local.get $la)))
            (local.set $hm (i32x4.bitmask (local.get $la)))
            (local.set $mv (v128.andnot (local.get $mv) (local.get $la)))
            ;; held lanes with a previous size in slot order finished 4 at a time as $held would ($hv:
            ;; blend from the rule at the previous size, 0 unless it rounds to the held level; preferred
            ;; level the held one, mark 1; counted per level at 1312); a NaN size and sizes by id: $held
            (if (i32.and (global.get $slotSizes) (v128.any_true (local.get $la))) (then
              (local.set $hs (v128.load (i32.add (global.get $sizesSAt) (i32.shl (local.get $k) (i32.const 2)))))
              (local.set $hv (v128.and (local.get $la) (f32x4.eq (local.get $hs) (local.get $hs))))
              (local.set $lodp (call $rule4 (f64x2.promote_low_f32x4 (local.get $hs))
                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $hs) (local.get $hs))) (local.get $hv)))
              (local.set $hb (v128.and (i32x4.eq (local.get $lodp) (local.get $old))
                (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                  (f32x4.demote_f64x2_zero (f64x2.sub (global.get $ruleL) (f64x2.floor (global.get $ruleL))))
                  (f32x4.demote_f64x2_zero (f64x2.sub (global.get $ruleH) (f64x2.floor (global.get $ruleH)))))))
              (local.set $hc0 (i32x4.sub (local.get $hc0) (v128.and (local.get $hv) (i32x4.eq (local.get $old) (v128.const i32x4 0 0 0 0)))))
              (local.set $hc1 (i32x4.sub (local.get $hc1) (v128.and (local.get $hv) (i32x4.eq (local.get $old) (local.get $k9)))))
              (local.set $hc2 (i32x4.sub (local.get $hc2) (v128.and (local.get $hv) (i32x4.eq (local.get $old) (local.get $k10)))))
              (local.set $hc3 (i32x4.sub (local.get $hc3) (v128.and (local.get $hv) (i32x4.eq (local.get $old) (local.get $k12)))))
              (local.set $hc4 (i32x4.sub (local.get $hc4) (v128.and (local.get $hv) (i32x4.eq (local.get $old) (local.get $k13)))))
              (local.set $held (i32.add (local.get $held) (i32.popcnt (i32x4.bitmask (local.get $hv)))))
              (local.set $hm (i32x4.bitmask (v128.andnot (local.get $la) (local.get $hv))))))))))
        (if (global.get $nextMode)
          (then
            (local.set $vis (v128.or (local.get $vis) (local.get $mv)))
            (i32.store offset={FB_MOVED} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_MOVED} (i32.const {FUSED_BLOCK})) (i32.popcnt (i32x4.bitmask (local.get $mv))))))
          (else (local.set $rm (i32x4.bitmask (local.get $mv)))))))
      ;; commit the steady lanes: counts, blend (slot copy), size, code (3 when the blend changed)
      (local.set $a0 (i32x4.sub (local.get $a0) (v128.and (local.get $vis) (i32x4.eq (local.get $level) (v128.const i32x4 0 0 0 0)))))
      (local.set $a1 (i32x4.sub (local.get $a1) (v128.and (local.get $vis) (i32x4.eq (local.get $level) (local.get $k9)))))
      (local.set $a2 (i32x4.sub (local.get $a2) (v128.and (local.get $vis) (i32x4.eq (local.get $level) (local.get $k10)))))
      (local.set $a3 (i32x4.sub (local.get $a3) (v128.and (local.get $vis) (i32x4.eq (local.get $level) (local.get $k12)))))
      (local.set $a4 (i32x4.sub (local.get $a4) (v128.and (local.get $vis) (i32x4.eq (local.get $level) (local.get $k13)))))
      (local.set $ah (i32x4.sub (local.get $ah) (local.get $hid)))
      (local.set $uAny (v128.or (local.get $uAny) (v128.and (local.get $vis) (local.get $uF))))
      (local.set $nb4 (v128.bitselect (local.get $fb) (v128.andnot (local.get $bl) (local.get $hid)) (local.get $vis)))
      (local.set $nb4 (v128.bitselect (local.get $hb) (local.get $nb4) (local.get $hv)))
      (if (v128.any_true (f32x4.ne (local.get $nb4) (local.get $bl))) (then (v128.store (local.get $l) (local.get $nb4)))) ;; no store (dirty line) when unchanged
      (local.set $in (v128.or (local.get $vis) (local.get $hid)))
      (local.set $inh (v128.or (local.get $in) (local.get $hv)))
      (if (global.get $nextOut) (then ;; only the `in` lanes' bytes change (the others: the scalar path, JavaScript, or another cluster)
        (local.set $sv (i8x16.narrow_i16x8_s (i16x8.narrow_i32x4_s (local.get $inh) (local.get $inh)) (local.get $inh)))
        (local.set $q (i32.add (global.get $nextAt) (local.get $k)))
        (v128.store32_lane 0 (local.get $q) (v128.bitselect
          (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_u (v128.bitselect (local.get $old) (v128.bitselect (local.get $k11) (local.get $level) (local.get $hid)) (local.get $hv)) (local.get $k11)) (local.get $k11))
          (v128.load32_zero (local.get $q)) (local.get $sv)))
        (local.set $q (i32.add (global.get $fixedAt) (local.get $k)))
        (v128.store32_lane 0 (local.get $q) (v128.bitselect
          (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_u (v128.bitselect (local.get $k9) (v128.and (local.get $hid) (local.get $k10)) (local.get $hv)) (local.get $k11)) (local.get $k11))
          (v128.load32_zero (local.get $q)) (local.get $sv)))))
      ;; sizes: fl32(v) (the reference stores v into a Float32Array), NaN when hidden; blend where it
      ;; changed — straight into the id-ordered public arrays
      (local.set $sv (v128.bitselect (local.get $k1)
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (f32x4.demote_f64x2_zero (local.get $vl)) (f32x4.demote_f64x2_zero (local.get $vh)))
          (local.get $hid)))
      (local.set $s (i32x4.bitmask (local.get $in)))
      (local.set $l (i32x4.bitmask (v128.and (local.get $inh) (f32x4.ne (local.get $nb4) (local.get $bl)))))
      (if (global.get $slotSizes)
        (then ;; sizes of the 4 slots in one store (the other lanes keep theirs); blends at their ids, or owed
          (local.set $pl (i32.add (global.get $sizesSAt) (i32.shl (local.get $k) (i32.const 2))))
          (v128.store (local.get $pl) (v128.bitselect (local.get $sv) (v128.load (local.get $pl)) (local.get $in)))
          (if (i32.and (i32.ne (local.get $l) (i32.const 0)) (global.get $oweBlends)) (then
            ;; the changed lanes not owed yet (one 4-byte load of their marks; most were owed in an earlier frame)
            (local.set $l (i32.and (local.get $l) (i32.xor (i32.const 15) (i32x4.bitmask (i32x4.ne (v128.const i32x4 0 0 0 0)
              (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u (v128.load32_zero (i32.add (global.get $owedAt) (local.get $k))))))))))
            (if (local.get $l) (then (call $owe (local.get $k) (local.get $l))))
            (local.set $l (i32.const 0))))
          (if (local.get $l) (then
            (local.set $pl (i32.add (global.get $slotIdAt) (i32.shl (local.get $k) (i32.const 2))))
            (if (i32.and (local.get $l) (i32.const 1)) (then (f32.store (i32.add (global.get $blendIdAt) (i32.shl (i32.load offset=0 (local.get $pl)) (i32.const 2))) (f32x4.extract_lane 0 (local.get $nb4)))))
            (if (i32.and (local.get $l) (i32.const 2)) (then (f32.store (i32.add (global.get $blendIdAt) (i32.shl (i32.load offset=4 (local.get $pl)) (i32.const 2))) (f32x4.extract_lane 1 (local.get $nb4)))))
            (if (i32.and (local.get $l) (i32.const 4)) (then (f32.store (i32.add (global.get $blendIdAt) (i32.shl (i32.load offset=8 (local.get $pl)) (i32.const 2))) (f32x4.extract_lane 2 (local.get $nb4)))))
            (if (i32.and (local.get $l) (i32.const 8)) (then (f32.store (i32.add (global.get $blendIdAt) (i32.shl (i32.load offset=12 (local.get $pl)) (i32.const 2))) (f32x4.extract_lane 3 (local.get $nb4))))))))
        (else
        (if (i32.and (local.get $s) (i32.const 1)) (then ;; lane 0 (inlined: Node 20's V8 does not inline wasm calls)
          (local.set $pl (i32.shl (i32.load offset=0 (i32.add (global.get $slotIdAt) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))
          (f32.store (i32.add (global.get $sizesAt) (local.get $pl)) (f32x4.extract_lane 0 (local.get $sv)))
          (if (i32.and (local.get $l) (i32.const 1)) (then (f32.store (i32.add (global.get $blendIdAt) (local.get $pl)) (f32x4.extract_lane 0 (local.get $nb4)))))))
        (if (i32.and (local.get $s) (i32.const 2)) (then ;; lane 1 (inlined: Node 20's V8 does not inline wasm calls)
          (local.set $pl (i32.shl (i32.load offset=4 (i32.add (global.get $slotIdAt) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))
          (f32.store (i32.add (global.get $sizesAt) (local.get $pl)) (f32x4.extract_lane 1 (local.get $sv)))
          (if (i32.and (local.get $l) (i32.const 2)) (then (f32.store (i32.add (global.get $blendIdAt) (local.get $pl)) (f32x4.extract_lane 1 (local.get $nb4)))))))
        (if (i32.and (local.get $s) (i32.const 4)) (then ;; lane 2 (inlined: Node 20's V8 does not inline wasm calls)
          (local.set $pl (i32.shl (i32.load offset=8 (i32.add (global.get $slotIdAt) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))
          (f32.store (i32.add (global.get $sizesAt) (local.get $pl)) (f32x4.extract_lane 2 (local.get $sv)))
          (if (i32.and (local.get $l) (i32.const 4)) (then (f32.store (i32.add (global.get $blendIdAt) (local.get $pl)) (f32x4.extract_lane 2 (local.get $nb4)))))))
        (if (i32.and (local.get $s) (i32.const 8)) (then ;; lane 3 (inlined: Node 20's V8 does not inline wasm calls)
          (local.set $pl (i32.shl (i32.load offset=12 (i32.add (global.get $slotIdAt) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))
          (f32.store (i32.add (global.get $sizesAt) (local.get $pl)) (f32x4.extract_lane 3 (local.get $sv)))
          (if (i32.and (local.get $l) (i32.const 8)) (then (f32.store (i32.add (global.get $blendIdAt) (local.get $pl)) (f32x4.extract_lane 3 (local.get $nb4)))))))))
      ;; every other valid, not removed lane: the scalar exact path
      (local.set $q (i32x4.bitmask (v128.andnot (v128.andnot (local.get $valid) (local.get $inh))
        (i32x4.eq (v128.and (local.get $fl) (local.get $k10)) (local.get $k10)))))
      ;; (hybrid's first pass after a frame below the minimum) the lanes finalize at the floor F would
      ;; touch: committed visible ones not displayed at max(level, F), or finer than F with a blend to
      ;; clear; hidden ones shown last frame; the scalar path's (held lanes keep their level and blend)
      (if (i32.ne (global.get $afloor) (i32.const 255)) (then
        (local.set $fac (i32x4.lt_s (local.get $level) (i32x4.splat (global.get $afloor))))
        (local.set $fac (v128.or
          (v128.and (local.get $vis) (v128.bitselect
            (v128.or (i32x4.ne (local.get $old) (i32x4.splat (global.get $afloor))) (f32x4.ne (local.get $nb4) (v128.const f32x4 0 0 0 0)))
            (i32x4.ne (local.get $level) (local.get $old)) (local.get $fac)))
          (v128.and (local.get $hid) (i32x4.ne (local.get $old) (local.get $k11)))))
        (i32.store offset={FB_TOUCHED} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_TOUCHED} (i32.const {FUSED_BLOCK}))
          (i32.add (i32.popcnt (i32x4.bitmask (local.get $fac))) (i32.popcnt (local.get $q)))))))
      ;; hybrid's collection: settled while every group is (a lane on the scalar path: not)
      (if (i32.and (global.get $collect) (i32.eqz (local.get $unset))) (then
        (if (local.get $q)
          (then (local.set $unset (i32.const 1)))
          (else
            ;; a change at or past the floor: the collection lists it; a lane finer than the floor: $collect4
            (local.set $fac (i32x4.ge_s (local.get $level) (i32x4.splat (global.get $cfloor))))
            (if (v128.any_true (v128.andnot (v128.and (local.get $vis) (local.get $fac)) (i32x4.eq (local.get $level) (local.get $old))))
              (then (local.set $unset (i32.const 1)))
              (else (if (v128.any_true (v128.andnot (local.get $vis) (local.get $fac)))
                (then (local.set $unset (call $collect4 (local.get $level) (local.get $old) (local.get $vis) (local.get $sl) (local.get $sh) (local.get $nb4)))))))))))
      (block $slowDone (loop $slow
        (br_if $slowDone (i32.eqz (local.get $q)))
        (local.set $l (i32.ctz (local.get $q)))
        (local.set $q (i32.and (local.get $q) (i32.sub (local.get $q) (i32.const 1))))
        (local.set $p (i32.shl (i32.const 1) (local.get $l)))
        (if (i32.and (local.get $rm) (local.get $p))
          (then (local.set $s (i32.const 1)))
          (else (if (i32.and (local.get $hm) (local.get $p))
            (then (local.set $s (call $held (i32.add (local.get $k) (local.get $l)) (i32.load8_u (i32.add (global.get $levelsAt) (i32.add (local.get $k) (local.get $l)))))))
            (else
              (local.set $s (call $lane (i32.add (local.get $k) (local.get $l)) (i32.add (local.get $j) (local.get $l)) (local.get $work)))
              (local.set $exact (i32.add (local.get $exact) (i32.const 1)))))))
        (if (i32.eq (local.get $s) (i32.const 1)) (then
          (i32.store offset={FB_REDO_SLOTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $redo) (i32.const 2))) (i32.add (local.get $j) (local.get $l)))
          (local.set $redo (i32.add (local.get $redo) (i32.const 1)))))
        (if (i32.eq (local.get $s) (i32.const 2)) (then (local.set $held (i32.add (local.get $held) (i32.const 1)))))
        (br $slow)))
      (local.set $k (i32.add (local.get $k) (i32.const 4)))
      (br $group)))
    ;; per-level counts and hidden count of the branch-free groups, added to the scalar path's
    (i32.store offset={FB_LEVEL_COUNTS} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_LEVEL_COUNTS} (i32.const {FUSED_BLOCK})) (call $sum (local.get $a0))))
    (i32.store offset={FB_LEVEL_COUNTS + 4} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_LEVEL_COUNTS + 4} (i32.const {FUSED_BLOCK})) (call $sum (local.get $a1))))
    (i32.store offset={FB_LEVEL_COUNTS + 8} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_LEVEL_COUNTS + 8} (i32.const {FUSED_BLOCK})) (call $sum (local.get $a2))))
    (i32.store offset={FB_LEVEL_COUNTS + 12} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_LEVEL_COUNTS + 12} (i32.const {FUSED_BLOCK})) (call $sum (local.get $a3))))
    (i32.store offset={FB_LEVEL_COUNTS + 16} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_LEVEL_COUNTS + 16} (i32.const {FUSED_BLOCK})) (call $sum (local.get $a4))))
    (i32.store offset={FB_HIDDEN} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_HIDDEN} (i32.const {FUSED_BLOCK})) (call $sum (local.get $ah))))
    (i32.store offset={FB_HELD_COUNTS} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_HELD_COUNTS} (i32.const {FUSED_BLOCK})) (call $sum (local.get $hc0))))
    (i32.store offset={FB_HELD_COUNTS + 4} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_HELD_COUNTS + 4} (i32.const {FUSED_BLOCK})) (call $sum (local.get $hc1))))
    (i32.store offset={FB_HELD_COUNTS + 8} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_HELD_COUNTS + 8} (i32.const {FUSED_BLOCK})) (call $sum (local.get $hc2))))
    (i32.store offset={FB_HELD_COUNTS + 12} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_HELD_COUNTS + 12} (i32.const {FUSED_BLOCK})) (call $sum (local.get $hc3))))
    (i32.store offset={FB_HELD_COUNTS + 16} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_HELD_COUNTS + 16} (i32.const {FUSED_BLOCK})) (call $sum (local.get $hc4))))
    (if (v128.any_true (local.get $uAny)) (then (i32.store offset={FB_UFRAC} (i32.const {FUSED_BLOCK}) (i32.const 1))))
    (i32.store offset={FB_REDO_COUNT} (i32.const {FUSED_BLOCK}) (local.get $redo))
    (i32.store offset={FB_SETTLED} (i32.const {FUSED_BLOCK}) (i32.and (global.get $collect) (i32.eqz (local.get $unset))))
    (if (i32.and (global.get $collect) (i32.eqz (local.get $unset))) (then
      (i32.store offset={FB_STABLE_PREV} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cF0)))
      (i32.store offset={FB_STABLE_PREV + 4} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cF1)))
      (i32.store offset={FB_STABLE_PREV + 8} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cF2)))
      (i32.store offset={FB_STABLE_PREV + 12} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cF3)))
      (i32.store offset={FB_STABLE_PREV + 16} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cF4)))
      (i32.store offset={FB_STABLE_START} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cB0)))
      (i32.store offset={FB_STABLE_START + 4} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cB1)))
      (i32.store offset={FB_STABLE_START + 8} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cB2)))
      (i32.store offset={FB_STABLE_START + 12} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cB3)))
      (i32.store offset={FB_STABLE_START + 16} (i32.const {FUSED_BLOCK}) (call $sum (global.get $cB4)))
      (i32.store offset={FB_STABLE} (i32.const {FUSED_BLOCK}) (global.get $cStable))))
    (i32.store offset={FB_HELD} (i32.const {FUSED_BLOCK}) (local.get $held))
    (i32.store offset={FB_REDONE} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_REDONE} (i32.const {FUSED_BLOCK})) (local.get $redo)))
    (i32.store offset={FB_SLOTS_RUN} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_SLOTS_RUN} (i32.const {FUSED_BLOCK})) (i32.sub (local.get $end) (local.get $start))))
    (i32.store offset={FB_RECHECKED} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_RECHECKED} (i32.const {FUSED_BLOCK})) (local.get $rechecked)))
    (i32.store offset={FB_EXACT} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_EXACT} (i32.const {FUSED_BLOCK})) (local.get $exact)))
    (local.get $redo))

  ;; OpenUSD's rule for 4 lanes at the values $pL (lanes 0–1) and $pH (2–3), original space, as
  ;; $rule: the level counts on fl32(value) (screen metrics) or the value (distance), the blend
  ;; window (for the lanes of $m only, a half without one skipped), clamp to [lo, hi]; returns the
  ;; rounded levels and leaves the clamped values in $ruleL / $ruleH.
  (func $rule4 (param $pL v128) (param $pH v128) (param $m v128) (result v128)
    (local $sizeF v128) (local $lodp v128) (local $bip v128) (local $fac v128) (local $k4i v128) (local $k14 v128)
    (local.set $k4i (v128.const i32x4 4 4 4 4))
    (local.set $k14 (v128.const i64x2 4 4))
    (if (global.get $desc)
      (then
        (local.set $sizeF (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (f32x4.demote_f64x2_zero (local.get $pL)) (f32x4.demote_f64x2_zero (local.get $pH))))
        (local.set $lodp (i32x4.add (i32x4.add (i32x4.add (i32x4.add (local.get $k4i)
          (f32x4.gt (local.get $sizeF) (global.get $t0f))) (f32x4.gt (local.get $sizeF) (global.get $t1f)))
          (f32x4.gt (local.get $sizeF) (global.get $t2f))) (f32x4.gt (local.get $sizeF) (global.get $t3f))))
        (local.set $bip (i32x4.add (i32x4.add (i32x4.add (i32x4.add (local.get $k4i)
          (f32x4.gt (local.get $sizeF) (global.get $b0f))) (f32x4.gt (local.get $sizeF) (global.get $b1f)))
          (f32x4.gt (local.get $sizeF) (global.get $b2f))) (f32x4.gt (local.get $sizeF) (global.get $b3f)))))
      (else
        (local.set $pL (f64x2.neg (local.get $pL)))
        (local.set $pH (f64x2.neg (local.get $pH)))
        (local.set $lodp (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
          (i64x2.add (i64x2.add (i64x2.add (i64x2.add (local.get $k14) (f64x2.gt (local.get $pL) (global.get $t0))) (f64x2.gt (local.get $pL) (global.get $t1))) (f64x2.gt (local.get $pL) (global.get $t2))) (f64x2.gt (local.get $pL) (global.get $t3)))
          (i64x2.add (i64x2.add (i64x2.add (i64x2.add (local.get $k14) (f64x2.gt (local.get $pH) (global.get $t0))) (f64x2.gt (local.get $pH) (global.get $t1))) (f64x2.gt (local.get $pH) (global.get $t2))) (f64x2.gt (local.get $pH) (global.get $t3)))))
        (local.set $bip (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
          (i64x2.add (i64x2.add (i64x2.add (i64x2.add (local.get $k14) (f64x2.gt (local.get $pL) (global.get $b0))) (f64x2.gt (local.get $pL) (global.get $b1))) (f64x2.gt (local.get $pL) (global.get $b2))) (f64x2.gt (local.get $pL) (global.get $b3)))
          (i64x2.add (i64x2.add (i64x2.add (i64x2.add (local.get $k14) (f64x2.gt (local.get $pH) (global.get $b0))) (f64x2.gt (local.get $pH) (global.get $b1))) (f64x2.gt (local.get $pH) (global.get $b2))) (f64x2.gt (local.get $pH) (global.get $b3)))))))
    ;; blend window (as $window and the decision in `run`), each half only with a candidate among $m's lanes
    (local.set $fac (v128.and (local.get $m) (v128.and (i32x4.lt_s (local.get $bip) (local.get $lodp)) (i32x4.le_s (local.get $lodp) (i32x4.splat (global.get $nb))))))
    (if (v128.any_true (i64x2.extend_low_i32x4_s (local.get $fac)))
      (then (local.set $pL (call $window (local.get $pL) (i64x2.extend_low_i32x4_s (local.get $lodp)) (i64x2.extend_low_i32x4_s (local.get $fac))
        (f64x2.convert_low_i32x4_s (local.get $lodp)))))
      (else (local.set $pL (f64x2.convert_low_i32x4_s (local.get $lodp)))))
    (if (v128.any_true (i64x2.extend_high_i32x4_s (local.get $fac)))
      (then (local.set $pH (call $window (local.get $pH) (i64x2.extend_high_i32x4_s (local.get $lodp)) (i64x2.extend_high_i32x4_s (local.get $fac))
        (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $lodp) (local.get $lodp))))))
      (else (local.set $pH (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $lodp) (local.get $lodp))))))
    (local.set $pL (f64x2.pmin (f64x2.pmax (local.get $pL) (f64x2.splat (f64.convert_i32_s (global.get $lo)))) (f64x2.splat (f64.convert_i32_s (global.get $hi)))))
    (local.set $pH (f64x2.pmin (f64x2.pmax (local.get $pH) (f64x2.splat (f64.convert_i32_s (global.get $lo)))) (f64x2.splat (f64.convert_i32_s (global.get $hi)))))
    (global.set $ruleL (local.get $pL))
    (global.set $ruleH (local.get $pH))
    (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
      (i32x4.trunc_sat_f64x2_s_zero (f64x2.floor (f64x2.add (local.get $pL) (v128.const f64x2 0.5 0.5))))
      (i32x4.trunc_sat_f64x2_s_zero (f64x2.floor (f64x2.add (local.get $pH) (v128.const f64x2 0.5 0.5))))))

  (func $sum (param $a v128) (result i32)
    (i32.add (i32.add (i32x4.extract_lane 0 (local.get $a)) (i32x4.extract_lane 1 (local.get $a)))
      (i32.add (i32x4.extract_lane 2 (local.get $a)) (i32x4.extract_lane 3 (local.get $a))))))
