;; lodkit fused WebAssembly SIMD kernel (source; compiled by scripts/build-wasm.mjs with the npm
;; package `wabt` into fusedKernel.generated.ts). It shares the memory of heightKernel.wat's instance
;; (imported as env.memory) and runs the per-object path of one evaluated cluster of one profile:
;; for 4 objects at a time, the plane tests of every view in f32x4 lanes, the metric of every view in
;; float64 (combined over views as LodSet does: max for sizes, min for distances), then the decision
;; (thresholds, blend window, min/max level, stats). Levels, blend, sizes and stats are identical to
;; decideDescendingSingle / decideAscendingMapped (the JavaScript reference) by construction:
;;
;; - `sizes` is stored at the slot's id, or in slot order (clusters.ts `sizesS`, thresholds frames):
;;   scattered stores into the id-ordered array cost ≈ 0.6 ms of a 1M random-order frame and made
;;   frames 2–4 of a new set up to 2 × slower (bench/RESULTS.md, "Random cold start").
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
;;   at a time too (the hysteresis probe), the held ones finished by $held (their blend comes from
;;   the previous size), and in hybrid's pass the others — a coarsened object prefers a finer
;;   level than it shows every frame — committed with the steady ones. Only what that cannot
;;   classify takes the scalar float64 path per lane, $lane (counted in `exact`).
;;
;; Memory (bytes): view v's float64 block at v·256 (planes [0,192), eye 192/200/208, window height
;; 216, pixel scale 224, window area 232, perspective 240); its float32 splats at 16384 + v·512
;; (24 plane vectors, nmax 384, dmax 400); the frame block FP = 49152 (layout in wasmKernels.ts).
(module
  (import "env" "memory" (memory 1))
  ;; Slot-ordered per-object arrays (byte offsets, set by `bind`).
  (global $flagsAt (mut i32) (i32.const 0))
  (global $forcedAt (mut i32) (i32.const 0))
  (global $levelsAt (mut i32) (i32.const 0))
  (global $blendAt (mut i32) (i32.const 0))
  ;; The permutation slot → id and the public id-ordered `sizes` and `blend` (set by `bindIds`):
  ;; every slot the kernel decides gets its size and, when it changed, its blend stored there.
  (global $slotIdAt (mut i32) (i32.const 0))
  (global $sizesAt (mut i32) (i32.const 0))
  ;; Or, when $slotSizes (frame block 1308, read by `profile`), the sizes in slot order at
  ;; $sizesSAt (bindSizes): sequential stores instead of scattered ones (clusters.ts `sizesS`).
  (global $sizesSAt (mut i32) (i32.const 0))
  (global $slotSizes (mut i32) (i32.const 0))
  (global $blendIdAt (mut i32) (i32.const 0))
  (global $bias (mut f64) (f64.const 0))
  (global $marker (mut f64) (f64.const 0))
  (global $n (mut i32) (i32.const 0))
  (global $nb (mut i32) (i32.const 0))
  (global $lo (mut i32) (i32.const 0))
  (global $hi (mut i32) (i32.const 0))
  (global $desc (mut i32) (i32.const 0))
  (global $h (mut f64) (f64.const 0))
  (global $holds (mut i32) (i32.const 0))
  ;; hybrid's first pass (track = false, no minFramesBetweenChanges): a level change is a preferred
  ;; level, decided here like a steady lane (counted at 1304 of the frame block), not left to JavaScript
  (global $nextMode (mut i32) (i32.const 0))
  ;; hybrid's first pass: the kernel writes every decided slot's preferred level and mark into the
  ;; slot-ordered `next` / `fixed` (bindNext) — 255 / 2 hidden, else the level / 0 (adjustable) —
  ;; and counts the slots whose preferred level is not the displayed one (frame block 1304)
  (global $nextOut (mut i32) (i32.const 0))
  (global $nextAt (mut i32) (i32.const 0))
  (global $fixedAt (mut i32) (i32.const 0))
  (global $pre (mut f64) (f64.const 0))
  (global $plod (mut i32) (i32.const 0))
  (global $t0 (mut v128) (v128.const i64x2 0 0))
  (global $t0f (mut v128) (v128.const i64x2 0 0))
  (global $t1 (mut v128) (v128.const i64x2 0 0))
  (global $t1f (mut v128) (v128.const i64x2 0 0))
  (global $t2 (mut v128) (v128.const i64x2 0 0))
  (global $t2f (mut v128) (v128.const i64x2 0 0))
  (global $t3 (mut v128) (v128.const i64x2 0 0))
  (global $t3f (mut v128) (v128.const i64x2 0 0))
  (global $b0 (mut v128) (v128.const i64x2 0 0))
  (global $b0f (mut v128) (v128.const i64x2 0 0))
  (global $b1 (mut v128) (v128.const i64x2 0 0))
  (global $b1f (mut v128) (v128.const i64x2 0 0))
  (global $b2 (mut v128) (v128.const i64x2 0 0))
  (global $b2f (mut v128) (v128.const i64x2 0 0))
  (global $b3 (mut v128) (v128.const i64x2 0 0))
  (global $b3f (mut v128) (v128.const i64x2 0 0))

  ;; Once per frame: the float32 plane splats and the bounds nmax, dmax of views [0, views).
  (func (export "setup") (param $views i32)
    (local $v i32) (local $j i32) (local $p i32) (local $q i32) (local $nmax f32) (local $dmax f32) (local $c f32)
    (loop $view
      (if (i32.lt_u (local.get $v) (local.get $views)) (then
        (local.set $p (i32.mul (local.get $v) (i32.const 256)))
        (local.set $q (i32.add (i32.const 16384) (i32.mul (local.get $v) (i32.const 512))))
        (local.set $nmax (f32.const 0x1p-100)) (local.set $dmax (f32.const 0x1p-100)) (local.set $j (i32.const 0))
        (loop $coef
          (local.set $c (f32.demote_f64 (f64.load (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 3))))))
          (v128.store (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 4))) (f32x4.splat (local.get $c)))
          (if (i32.eq (i32.and (local.get $j) (i32.const 3)) (i32.const 3))
            (then (local.set $dmax (f32.max (local.get $dmax) (f32.abs (local.get $c)))))
            (else (local.set $nmax (f32.max (local.get $nmax) (f32.abs (local.get $c))))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br_if $coef (i32.lt_u (local.get $j) (i32.const 24))))
        ;; f32.max(NaN, ·) is NaN: a NaN plane gives M = NaN, so every lane is rechecked.
        (v128.store offset=384 (local.get $q) (f32x4.splat (local.get $nmax)))
        (v128.store offset=400 (local.get $q) (f32x4.splat (local.get $dmax)))
        (local.set $v (i32.add (local.get $v) (i32.const 1)))
        (br $view)))))

  ;; Float64 plane tests of two lanes (the reference's operations): mask of lanes with some D < −r.
  (func $planes64 (param $x v128) (param $y v128) (param $z v128) (param $r v128) (param $p i32) (result v128)
    (local $nr v128) (local $out v128) (local $j i32) (local $q i32)
    (local.set $nr (f64x2.neg (local.get $r)))
    (loop $plane
      (local.set $q (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 5))))
      (local.set $out (v128.or (local.get $out) (f64x2.lt
        (f64x2.add (f64x2.add (f64x2.add
          (f64x2.mul (f64x2.splat (f64.load (local.get $q))) (local.get $x))
          (f64x2.mul (f64x2.splat (f64.load offset=8 (local.get $q))) (local.get $y)))
          (f64x2.mul (f64x2.splat (f64.load offset=16 (local.get $q))) (local.get $z)))
          (f64x2.splat (f64.load offset=24 (local.get $q))))
        (local.get $nr))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br_if $plane (i32.lt_u (local.get $j) (i32.const 6))))
    (local.get $out))

  ;; The blend value of two lanes with a blend window candidate ($cand: bi < lod ≤ nb), as the
  ;; reference: a = t'[lod − 1], e = max(b'[lod − 1], t'[lod] when lod < n) (negated space for
  ;; distance), inside when a ≥ w > e: fl32(bi + fl32((w − a) / fl32(e − a))); otherwise $f.
  (func $window (param $w v128) (param $lod v128) (param $cand v128) (param $f v128) (result v128)
    (local $idx v128) (local $m0 v128) (local $m1 v128) (local $m2 v128) (local $a v128) (local $e v128) (local $tl v128) (local $in v128)
    (local.set $idx (i64x2.sub (local.get $lod) (v128.const i64x2 1 1)))
    (local.set $m0 (i64x2.eq (local.get $idx) (v128.const i64x2 0 0)))
    (local.set $m1 (i64x2.eq (local.get $idx) (v128.const i64x2 1 1)))
    (local.set $m2 (i64x2.eq (local.get $idx) (v128.const i64x2 2 2)))
    (local.set $a (v128.bitselect (global.get $t0) (v128.bitselect (global.get $t1) (v128.bitselect (global.get $t2) (global.get $t3) (local.get $m2)) (local.get $m1)) (local.get $m0)))
    (local.set $e (v128.bitselect (global.get $b0) (v128.bitselect (global.get $b1) (v128.bitselect (global.get $b2) (global.get $b3) (local.get $m2)) (local.get $m1)) (local.get $m0)))
    ;; t'[lod] for lod = idx + 1 ∈ [1, 3]
    (local.set $tl (v128.bitselect (global.get $t1) (v128.bitselect (global.get $t2) (global.get $t3) (local.get $m1)) (local.get $m0)))
    (local.set $e (v128.bitselect (local.get $tl) (local.get $e)
      (v128.and (i64x2.lt_s (local.get $lod) (i64x2.splat (i64.extend_i32_s (global.get $n)))) (f64x2.gt (local.get $tl) (local.get $e)))))
    (local.set $in (v128.and (local.get $cand) (v128.and (f64x2.ge (local.get $a) (local.get $w)) (f64x2.gt (local.get $w) (local.get $e)))))
    (v128.bitselect
      (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.add
        (f64x2.convert_low_i32x4_s (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.get $idx) (local.get $idx)))
        (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.div (f64x2.sub (local.get $w) (local.get $a))
          (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.sub (local.get $e) (local.get $a))))))))))
      (local.get $f) (local.get $in)))

  ;; OpenUSD's rule at value $x (metric value after bias, original space), as the reference: the
  ;; index counts on fl32(x) (screen metrics) or x (distance), the blend window on x; returns the
  ;; index clamped to [lo, hi] and leaves the unclamped index in $pre and the integer count in $plod.
  (func $rule (param $x f64) (result f64)
    (local $c f64) (local $w f64) (local $lod i32) (local $bi i32) (local $q i32) (local $f f64) (local $a f64) (local $e f64)
    (if (global.get $desc)
      (then (local.set $c (f64.promote_f32 (f32.demote_f64 (local.get $x)))) (local.set $w (local.get $x)))
      (else (local.set $c (f64.neg (local.get $x))) (local.set $w (local.get $c))))
    (loop $scan
      (local.set $lod (i32.add (local.get $lod) (i32.eqz (f64.gt (local.get $c) (f64.load (i32.add (i32.const 49152) (i32.shl (local.get $q) (i32.const 3))))))))
      (local.set $bi (i32.add (local.get $bi) (i32.eqz (f64.gt (local.get $c) (f64.load offset=32 (i32.add (i32.const 49152) (i32.shl (local.get $q) (i32.const 3))))))))
      (local.set $q (i32.add (local.get $q) (i32.const 1)))
      (br_if $scan (i32.lt_u (local.get $q) (i32.const 4))))
    (local.set $f (f64.convert_i32_s (local.get $lod)))
    (if (global.get $nb) (then
      (if (i32.gt_s (local.get $bi) (local.get $lod)) (then (local.set $bi (local.get $lod))))
      (if (i32.lt_s (local.get $bi) (i32.sub (local.get $lod) (i32.const 1))) (then (local.set $bi (i32.sub (local.get $lod) (i32.const 1)))))
      (if (i32.and (i32.ne (local.get $bi) (local.get $lod)) (i32.lt_s (local.get $bi) (global.get $nb))) (then
        (local.set $a (f64.load (i32.add (i32.const 49152) (i32.shl (local.get $bi) (i32.const 3)))))
        (local.set $e (f64.load offset=32 (i32.add (i32.const 49152) (i32.shl (local.get $bi) (i32.const 3)))))
        (if (i32.lt_s (local.get $lod) (global.get $n)) (then
          (if (f64.gt (f64.load (i32.add (i32.const 49152) (i32.shl (local.get $lod) (i32.const 3)))) (local.get $e))
            (then (local.set $e (f64.load (i32.add (i32.const 49152) (i32.shl (local.get $lod) (i32.const 3)))))))))
        (if (i32.and (f64.ge (local.get $a) (local.get $w)) (f64.gt (local.get $w) (local.get $e))) (then
          (local.set $f (f64.promote_f32 (f32.demote_f64 (f64.add (f64.convert_i32_s (local.get $bi))
            (f64.promote_f32 (f32.demote_f64 (f64.div (f64.sub (local.get $w) (local.get $a))
              (f64.promote_f32 (f32.demote_f64 (f64.sub (local.get $e) (local.get $a)))))))))))))))))
    (global.set $pre (local.get $f))
    (global.set $plod (local.get $lod))
    (if (f64.lt (local.get $f) (f64.convert_i32_s (global.get $lo))) (then (local.set $f (f64.convert_i32_s (global.get $lo))))
      (else (if (f64.gt (local.get $f) (f64.convert_i32_s (global.get $hi))) (then (local.set $f (f64.convert_i32_s (global.get $hi)))))))
    (local.get $f))

  ;; The scalar exact path of slot $k (relative index $j): returns 0 when done (blend, size, counts,
  ;; uFrac and, in hybrid's pass, next / fixed written), 1 when the JavaScript kernel must redo the
  ;; slot, 2 when the hysteresis rule holds its level and $held finished it.
  (func $lane (param $k i32) (param $j i32) (param $work i32) (result i32)
    (local $fl i32) (local $old i32) (local $s f64) (local $v f64) (local $f f64) (local $level i32) (local $frac f64)
    (local $la i32) (local $lb i32) (local $q i32) (local $fb f32) (local $code i32) (local $chg i32) (local $free i32)
    (local.set $fl (i32.load8_u (i32.add (global.get $flagsAt) (local.get $k))))
    (if (i32.and (local.get $fl) (i32.const 2)) (then (return (i32.const 0))))
    (local.set $old (i32.load8_u (i32.add (global.get $levelsAt) (local.get $k))))
    (local.set $s (f64.load (i32.add (local.get $work) (i32.shl (local.get $k) (i32.const 3)))))
    (local.set $q (i32.add (global.get $blendAt) (i32.shl (local.get $k) (i32.const 2))))
    (if (i32.or (i32.and (local.get $fl) (i32.const 1)) (f64.eq (local.get $s) (global.get $marker))) (then
      (if (i32.ne (local.get $old) (i32.const 255)) (then (return (i32.const 1))))
      (local.set $code (select (i32.const 3) (i32.const 0) (f32.ne (f32.load (local.get $q)) (f32.const 0))))
      (f32.store (local.get $q) (f32.const 0))
      (call $emit (local.get $k) (f32.const nan) (f32.const 0) (i32.eq (local.get $code) (i32.const 3)))
      (if (global.get $nextOut) (then
        (i32.store8 (i32.add (global.get $nextAt) (local.get $k)) (i32.const 255))
        (i32.store8 (i32.add (global.get $fixedAt) (local.get $k)) (i32.const 2))))
      (i32.store offset=104 (i32.const 49152) (i32.add (i32.load offset=104 (i32.const 49152)) (i32.const 1)))
      (return (i32.const 0))))
    (if (f64.ne (local.get $s) (local.get $s)) (then (return (i32.const 1))))
    (if (i32.ne (i32.load8_u (i32.add (global.get $forcedAt) (local.get $k))) (i32.const 255)) (then (return (i32.const 1))))
    (local.set $v (select (f64.mul (local.get $s) (global.get $bias)) (f64.div (local.get $s) (global.get $bias)) (global.get $desc)))
    (local.set $f (call $rule (local.get $v)))
    (local.set $free (f64.ne (global.get $pre) (f64.convert_i32_s (global.get $plod)))) ;; (the hysteresis probes below overwrite $pre, $plod)
    (local.set $level (i32.trunc_f64_s (f64.floor (f64.add (local.get $f) (f64.const 0.5)))))
    (if (i32.ne (local.get $level) (local.get $old)) (then
      ;; hysteresis without a minFramesBetweenChanges timer: hold when the previous level lies
      ;; between the levels at v·(1+h) and v·(1−h) (the reference's k = 0, 1 evaluations)
      ;; The rule is monotone in the value (screen metrics: a larger value never gives a coarser
      ;; level; distance: never a finer one) and fl(v·(1+h)) ≥ v ≥ fl(v·(1−h)), so the two probes
      ;; bracket `level`: a previous level coarser than `level` is held iff it is not coarser than
      ;; the probe on the coarse side (v·(1−h) for screen metrics, v·(1+h) for distance), a finer one
      ;; iff it is not finer than the other probe — one evaluation of the rule, not two.
      (if (i32.and (global.get $holds) (i32.and (i32.ge_s (local.get $old) (global.get $lo)) (i32.le_s (local.get $old) (global.get $hi))))
        (then
          (local.set $la (i32.gt_s (local.get $old) (local.get $level))) ;; old coarser
          (local.set $lb (i32.trunc_f64_s (f64.floor (f64.add (call $rule (f64.mul (local.get $v)
            (select (f64.sub (f64.const 1) (global.get $h)) (f64.add (f64.const 1) (global.get $h))
              (i32.eq (local.get $la) (global.get $desc))))) (f64.const 0.5)))))
          (if (select (i32.le_s (local.get $old) (local.get $lb)) (i32.ge_s (local.get $old) (local.get $lb)) (local.get $la))
            (then (return (call $held (local.get $k) (local.get $old)))))))
      ;; not held: a real change (the changed list, timers: JavaScript), or hybrid's preferred level
      (if (i32.eqz (global.get $nextMode)) (then (return (i32.const 1))))
      (local.set $chg (i32.const 4))))
    (local.set $frac (f64.sub (local.get $f) (f64.floor (local.get $f))))
    (local.set $fb (f32.demote_f64 (local.get $frac)))
    (local.set $code (select (i32.const 3) (i32.const 0) (f32.ne (f32.load (local.get $q)) (local.get $fb))))
    (f32.store (local.get $q) (local.get $fb))
    (call $emit (local.get $k) (f32.demote_f64 (local.get $v)) (local.get $fb) (i32.eq (local.get $code) (i32.const 3)))
    (if (global.get $nextOut) (then
      (i32.store8 (i32.add (global.get $nextAt) (local.get $k)) (local.get $level))
      (i32.store8 (i32.add (global.get $fixedAt) (local.get $k)) (i32.const 0))
      (if (local.get $chg) (then (i32.store offset=1304 (i32.const 49152) (i32.add (i32.load offset=1304 (i32.const 49152)) (i32.const 1)))))))
    (local.set $q (i32.add (i32.const 49280) (i32.shl (local.get $level) (i32.const 2))))
    (i32.store (local.get $q) (i32.add (i32.load (local.get $q)) (i32.const 1)))
    (if (i32.or (local.get $free) (f64.ne (local.get $frac) (f64.const 0)))
      (then (i32.store offset=100 (i32.const 49152) (i32.const 1))))
    (i32.const 0))

  ;; Slot $k held at its displayed level $old by hysteresis: level and size kept, blend from the rule
  ;; at its previous size (the id-ordered `sizes`, float32 as the reference reads it), counted per
  ;; level at 1312 of the frame block (held slots cost their own level at the minimum too); in
  ;; hybrid's pass preferred level $old with mark 1 (fixed). Returns 2, or 1 without a previous size
  ;; (the reference does not hold then: the JavaScript kernel decides the slot in full).
  (func $held (param $k i32) (param $old i32) (result i32)
    (local $o i32) (local $x f64) (local $f f64) (local $fb f32) (local $q i32)
    (local.set $o (i32.shl (i32.load (i32.add (global.get $slotIdAt) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))
    (local.set $x (f64.promote_f32 (f32.load (call $sizeAt (local.get $k)))))
    (if (f64.ne (local.get $x) (local.get $x)) (then (return (i32.const 1))))
    (local.set $f (call $rule (local.get $x)))
    (local.set $fb (f32.demote_f64 (select (f64.sub (local.get $f) (f64.floor (local.get $f))) (f64.const 0)
      (i32.eq (i32.trunc_f64_s (f64.floor (f64.add (local.get $f) (f64.const 0.5)))) (local.get $old)))))
    (local.set $q (i32.add (global.get $blendAt) (i32.shl (local.get $k) (i32.const 2))))
    (if (f32.ne (f32.load (local.get $q)) (local.get $fb)) (then
      (f32.store (local.get $q) (local.get $fb))
      (f32.store (i32.add (global.get $blendIdAt) (local.get $o)) (local.get $fb))))
    (if (global.get $nextOut) (then
      (i32.store8 (i32.add (global.get $nextAt) (local.get $k)) (local.get $old))
      (i32.store8 (i32.add (global.get $fixedAt) (local.get $k)) (i32.const 1))))
    (local.set $q (i32.add (i32.const 50464) (i32.shl (local.get $old) (i32.const 2))))
    (i32.store (local.get $q) (i32.add (i32.load (local.get $q)) (i32.const 1)))
    (i32.const 2))

  (func (export "bind") (param $flags i32) (param $forced i32) (param $levels i32) (param $blend i32)
    (global.set $flagsAt (local.get $flags)) (global.set $forcedAt (local.get $forced))
    (global.set $levelsAt (local.get $levels)) (global.set $blendAt (local.get $blend)))

  (func (export "bindNext") (param $next i32) (param $fixed i32)
    (global.set $nextAt (local.get $next)) (global.set $fixedAt (local.get $fixed)))

  (func (export "bindIds") (param $slotId i32) (param $sizes i32) (param $blend i32)
    (global.set $slotIdAt (local.get $slotId)) (global.set $sizesAt (local.get $sizes)) (global.set $blendIdAt (local.get $blend)))

  (func (export "bindSizes") (param $sizes i32)
    (global.set $sizesSAt (local.get $sizes)))

  ;; Byte address of slot $k's size: in slot order ($slotSizes) or at its id.
  (func $sizeAt (param $k i32) (result i32)
    (if (result i32) (global.get $slotSizes)
      (then (i32.add (global.get $sizesSAt) (i32.shl (local.get $k) (i32.const 2))))
      (else (i32.add (global.get $sizesAt) (i32.shl (i32.load (i32.add (global.get $slotIdAt) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2))))))

  ;; Size (and, when $chg, blend: id-ordered) of slot $k.
  (func $emit (param $k i32) (param $size f32) (param $blend f32) (param $chg i32)
    (f32.store (call $sizeAt (local.get $k)) (local.get $size))
    (if (local.get $chg) (then (f32.store (i32.add (global.get $blendIdAt)
      (i32.shl (i32.load (i32.add (global.get $slotIdAt) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2))) (local.get $blend)))))

  ;; Loads the profile block of the frame block (thresholds, counts, level range, bias, direction).
  (func (export "profile")
    (global.set $t0 (f64x2.splat (f64.load (i32.const 49152))))
    (global.set $t1 (f64x2.splat (f64.load offset=8 (i32.const 49152))))
    (global.set $t2 (f64x2.splat (f64.load offset=16 (i32.const 49152))))
    (global.set $t3 (f64x2.splat (f64.load offset=24 (i32.const 49152))))
    (global.set $b0 (f64x2.splat (f64.load offset=32 (i32.const 49152))))
    (global.set $b1 (f64x2.splat (f64.load offset=40 (i32.const 49152))))
    (global.set $b2 (f64x2.splat (f64.load offset=48 (i32.const 49152))))
    (global.set $b3 (f64x2.splat (f64.load offset=56 (i32.const 49152))))
    (global.set $bias (f64.load offset=64 (i32.const 49152)))
    (global.set $marker (f64.load offset=72 (i32.const 49152)))
    (global.set $n (i32.load offset=80 (i32.const 49152)))
    (global.set $nb (i32.load offset=84 (i32.const 49152)))
    (global.set $lo (i32.load offset=88 (i32.const 49152)))
    (global.set $hi (i32.load offset=92 (i32.const 49152)))
    (global.set $desc (i32.load offset=96 (i32.const 49152)))
    (global.set $h (f64.load offset=1024 (i32.const 49152)))
    (global.set $t0f (f32x4.splat (f32.demote_f64 (f64.load offset=0 (i32.const 49152)))))
    (global.set $t1f (f32x4.splat (f32.demote_f64 (f64.load offset=8 (i32.const 49152)))))
    (global.set $t2f (f32x4.splat (f32.demote_f64 (f64.load offset=16 (i32.const 49152)))))
    (global.set $t3f (f32x4.splat (f32.demote_f64 (f64.load offset=24 (i32.const 49152)))))
    (global.set $b0f (f32x4.splat (f32.demote_f64 (f64.load offset=32 (i32.const 49152)))))
    (global.set $b1f (f32x4.splat (f32.demote_f64 (f64.load offset=40 (i32.const 49152)))))
    (global.set $b2f (f32x4.splat (f32.demote_f64 (f64.load offset=48 (i32.const 49152)))))
    (global.set $b3f (f32x4.splat (f32.demote_f64 (f64.load offset=56 (i32.const 49152)))))
    (global.set $holds (i32.load offset=1032 (i32.const 49152)))
    (global.set $nextMode (i32.load offset=1296 (i32.const 49152)))
    (global.set $nextOut (i32.load offset=1300 (i32.const 49152)))
    (global.set $slotSizes (i32.load offset=1308 (i32.const 49152))))

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
    (local $sizeF v128) (local $k4i v128)
    (local $cand v128) (local $fL v128) (local $fH v128) (local $lodFL v128) (local $lodFH v128) (local $lodL v128) (local $lodH v128)
    (local $uFL v128) (local $uFH v128) (local $uF v128) (local $uAny v128) (local $fb v128) (local $nb4 v128) (local $loF v128) (local $hiF v128)
    (local $k0 v128) (local $k1 v128) (local $k2 v128) (local $k3 v128) (local $k4 v128) (local $k5 v128) (local $k6 v128) (local $k7 v128) (local $k8 v128) (local $k9 v128) (local $k10 v128) (local $k11 v128) (local $k12 v128) (local $k13 v128) (local $k14 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $a4 v128) (local $ah v128)
    (local $mv v128) (local $la v128) (local $fac v128) (local $pL v128) (local $pH v128) (local $lodp v128) (local $bip v128) (local $hm i32) (local $rm i32)
    (local.set $cv (select (v128.const f64x2 -1 -1) (v128.const f64x2 0 0) (local.get $cull)))
    ;; outputs of this call
    (v128.store offset=128 (i32.const 49152) (v128.const i32x4 0 0 0 0))
    (v128.store offset=144 (i32.const 49152) (v128.const i32x4 0 0 0 0))
    (i32.store offset=100 (i32.const 49152) (i32.const 0))
    (i32.store offset=104 (i32.const 49152) (i32.const 0))
    (i32.store offset=1304 (i32.const 49152) (i32.const 0))
    (v128.store offset=1312 (i32.const 49152) (v128.const i32x4 0 0 0 0))
    (i32.store offset=1328 (i32.const 49152) (i32.const 0))
    (local.set $k4i (v128.const i32x4 4 4 4 4))
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
        (local.set $p (i32.mul (local.get $v) (i32.const 256)))
        (local.set $cul (v128.const i32x4 0 0 0 0))
        (if (i32.and (i32.ne (i32.or (local.get $code) (local.get $cull)) (i32.const 0)) (i32.ne (local.get $cull) (i32.const 2))) (then
          ;; float32 plane tests with the error bound M (see the header)
          (local.set $pl (i32.add (i32.const 16384) (i32.mul (local.get $v) (i32.const 512))))
          (local.set $m (f32x4.add (f32x4.mul (v128.load offset=384 (local.get $pl))
            (f32x4.add (f32x4.add (f32x4.abs (local.get $x)) (f32x4.abs (local.get $y))) (f32x4.abs (local.get $z))))
            (v128.load offset=400 (local.get $pl))))
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
        (local.set $persp (f64.ne (f64.load offset=240 (local.get $p)) (f64.const 0)))
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
            (local.set $dx (f64x2.sub (local.get $hx) (f64x2.splat (f64.load offset=192 (local.get $p)))))
            (local.set $dy (f64x2.sub (local.get $hy) (f64x2.splat (f64.load offset=200 (local.get $p)))))
            (local.set $dz (f64x2.sub (local.get $hz) (f64x2.splat (f64.load offset=208 (local.get $p)))))
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
                    (f64x2.splat (f64.load offset=232 (local.get $p)))))
                  (local.set $special (f64x2.eq (local.get $d) (v128.const f64x2 0 0)))
                  (local.set $sv (local.get $k3)))
                (else
                  (local.set $val (f64x2.div (f64x2.mul (f64x2.mul (local.get $k4) (local.get $hr)) (local.get $hr))
                    (f64x2.splat (f64.load offset=232 (local.get $p))))))))
            (else
              (if (local.get $persp)
                (then
                  (local.set $val (f64x2.div (f64x2.add (local.get $hr) (local.get $hr)) (f64x2.mul (local.get $d) (f64x2.splat (f64.load offset=216 (local.get $p))))))
                  (local.set $special (f64x2.le (local.get $d) (local.get $hr)))
                  (local.set $sv (local.get $k5)))
                (else
                  (local.set $val (f64x2.div (f64x2.add (local.get $hr) (local.get $hr)) (f64x2.splat (f64.load offset=216 (local.get $p)))))))
              (if (i32.eq (local.get $code) (i32.const 1))
                (then (local.set $val (f64x2.mul (local.get $val) (f64x2.splat (f64.load offset=224 (local.get $p)))))))))
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
      (if (v128.any_true (v128.and (local.get $cand) (local.get $valid))) (then
        (local.set $fL (call $window (select (local.get $vl) (local.get $cl) (global.get $desc)) (local.get $lodL) (i64x2.extend_low_i32x4_s (local.get $cand)) (local.get $fL)))
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
      (local.set $hid (v128.and (v128.and (local.get $valid)
        (v128.or (local.get $marked) (i32x4.eq (v128.and (local.get $fl) (local.get $k9)) (local.get $k9))))
        (v128.and (i32x4.eq (local.get $old) (local.get $k11))
          (i32x4.eq (v128.and (local.get $fl) (local.get $k10)) (v128.const i32x4 0 0 0 0)))))
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
      (local.set $hm (i32.const 0)) (local.set $rm (i32.const 0))
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
          ;; the probe's level as $rule and the rounding give it: blend window ($window, as the decision above), clamp, round
          (local.set $fac (v128.and (i32x4.lt_s (local.get $bip) (local.get $lodp)) (i32x4.le_s (local.get $lodp) (i32x4.splat (global.get $nb)))))
          (local.set $pL (call $window (local.get $pL) (i64x2.extend_low_i32x4_s (local.get $lodp)) (i64x2.extend_low_i32x4_s (local.get $fac))
            (f64x2.convert_low_i32x4_s (local.get $lodp))))
          (local.set $pH (call $window (local.get $pH) (i64x2.extend_high_i32x4_s (local.get $lodp)) (i64x2.extend_high_i32x4_s (local.get $fac))
            (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $lodp) (local.get $lodp)))))
          (local.set $pL (f64x2.pmin (f64x2.pmax (local.get $pL) (local.get $loF)) (local.get $hiF)))
          (local.set $pH (f64x2.pmin (f64x2.pmax (local.get $pH) (local.get $loF)) (local.get $hiF)))
          (local.set $lodp (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
            (i32x4.trunc_sat_f64x2_s_zero (f64x2.floor (f64x2.add (local.get $pL) (local.get $k2))))
            (i32x4.trunc_sat_f64x2_s_zero (f64x2.floor (f64x2.add (local.get $pH) (local.get $k2))))))
          ;; $la: held; $bip: the rule applies (previous level in [lo, hi])
          (local.set $la (v128.bitselect (i32x4.le_s (local.get $old) (local.get $lodp)) (i32x4.ge_s (local.get $old) (local.get $lodp)) (local.get $la)))
          (local.set $bip (v128.and (local.get $mv) (v128.and (i32x4.ge_s (local.get $old) (i32x4.splat (global.get $lo)))
            (i32x4.le_s (local.get $old) (i32x4.splat (global.get $hi))))))
          (local.set $la (v128.and (local.get $bip) (local.get $la)))
          (local.set $hm (i32x4.bitmask (local.get $la)))
          (local.set $mv (v128.andnot (local.get $mv) (local.get $la)))))
        (if (global.get $nextMode)
          (then
            (local.set $vis (v128.or (local.get $vis) (local.get $mv)))
            (i32.store offset=1304 (i32.const 49152) (i32.add (i32.load offset=1304 (i32.const 49152)) (i32.popcnt (i32x4.bitmask (local.get $mv))))))
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
      (if (v128.any_true (f32x4.ne (local.get $nb4) (local.get $bl))) (then (v128.store (local.get $l) (local.get $nb4)))) ;; no store (dirty line) when unchanged
      (local.set $in (v128.or (local.get $vis) (local.get $hid)))
      (if (global.get $nextOut) (then ;; only the `in` lanes' bytes change (the others: the scalar path, JavaScript, or another cluster)
        (local.set $sv (i8x16.narrow_i16x8_s (i16x8.narrow_i32x4_s (local.get $in) (local.get $in)) (local.get $in)))
        (local.set $q (i32.add (global.get $nextAt) (local.get $k)))
        (v128.store32_lane 0 (local.get $q) (v128.bitselect
          (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_u (v128.bitselect (local.get $k11) (local.get $level) (local.get $hid)) (local.get $k11)) (local.get $k11))
          (v128.load32_zero (local.get $q)) (local.get $sv)))
        (local.set $q (i32.add (global.get $fixedAt) (local.get $k)))
        (v128.store32_lane 0 (local.get $q) (v128.bitselect
          (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_u (v128.and (local.get $hid) (local.get $k10)) (local.get $k11)) (local.get $k11))
          (v128.load32_zero (local.get $q)) (local.get $sv)))))
      ;; sizes: fl32(v) (the reference stores v into a Float32Array), NaN when hidden; blend where it
      ;; changed — straight into the id-ordered public arrays
      (local.set $sv (v128.bitselect (local.get $k1)
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (f32x4.demote_f64x2_zero (local.get $vl)) (f32x4.demote_f64x2_zero (local.get $vh)))
          (local.get $hid)))
      (local.set $s (i32x4.bitmask (local.get $in)))
      (local.set $l (i32x4.bitmask (v128.and (local.get $in) (f32x4.ne (local.get $nb4) (local.get $bl)))))
      (if (global.get $slotSizes)
        (then ;; sizes of the 4 slots in one store (the other lanes keep theirs); blends at their ids
          (local.set $pl (i32.add (global.get $sizesSAt) (i32.shl (local.get $k) (i32.const 2))))
          (v128.store (local.get $pl) (v128.bitselect (local.get $sv) (v128.load (local.get $pl)) (local.get $in)))
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
      (local.set $q (i32x4.bitmask (v128.andnot (v128.andnot (local.get $valid) (local.get $in))
        (i32x4.eq (v128.and (local.get $fl) (local.get $k10)) (local.get $k10)))))
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
          (i32.store offset=160 (i32.add (i32.const 49152) (i32.shl (local.get $redo) (i32.const 2))) (i32.add (local.get $j) (local.get $l)))
          (local.set $redo (i32.add (local.get $redo) (i32.const 1)))))
        (if (i32.eq (local.get $s) (i32.const 2)) (then (local.set $held (i32.add (local.get $held) (i32.const 1)))))
        (br $slow)))
      (local.set $k (i32.add (local.get $k) (i32.const 4)))
      (br $group)))
    ;; per-level counts and hidden count of the branch-free groups, added to the scalar path's
    (i32.store offset=128 (i32.const 49152) (i32.add (i32.load offset=128 (i32.const 49152)) (call $sum (local.get $a0))))
    (i32.store offset=132 (i32.const 49152) (i32.add (i32.load offset=132 (i32.const 49152)) (call $sum (local.get $a1))))
    (i32.store offset=136 (i32.const 49152) (i32.add (i32.load offset=136 (i32.const 49152)) (call $sum (local.get $a2))))
    (i32.store offset=140 (i32.const 49152) (i32.add (i32.load offset=140 (i32.const 49152)) (call $sum (local.get $a3))))
    (i32.store offset=144 (i32.const 49152) (i32.add (i32.load offset=144 (i32.const 49152)) (call $sum (local.get $a4))))
    (i32.store offset=104 (i32.const 49152) (i32.add (i32.load offset=104 (i32.const 49152)) (call $sum (local.get $ah))))
    (if (v128.any_true (local.get $uAny)) (then (i32.store offset=100 (i32.const 49152) (i32.const 1))))
    (i32.store offset=108 (i32.const 49152) (local.get $redo))
    (i32.store offset=124 (i32.const 49152) (local.get $held))
    (i32.store offset=120 (i32.const 49152) (i32.add (i32.load offset=120 (i32.const 49152)) (local.get $redo)))
    (i32.store offset=1036 (i32.const 49152) (i32.add (i32.load offset=1036 (i32.const 49152)) (i32.sub (local.get $end) (local.get $start))))
    (i32.store offset=112 (i32.const 49152) (i32.add (i32.load offset=112 (i32.const 49152)) (local.get $rechecked)))
    (i32.store offset=116 (i32.const 49152) (i32.add (i32.load offset=116 (i32.const 49152)) (local.get $exact)))
    (local.get $redo))

  (func $sum (param $a v128) (result i32)
    (i32.add (i32.add (i32x4.extract_lane 0 (local.get $a)) (i32x4.extract_lane 1 (local.get $a)))
      (i32.add (i32x4.extract_lane 2 (local.get $a)) (i32x4.extract_lane 3 (local.get $a))))))
