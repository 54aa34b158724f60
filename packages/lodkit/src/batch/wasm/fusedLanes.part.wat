;; Part of fusedKernel.wat (scripts/build-wasm.mjs puts it in place of its `@include` line):
;; the once-per-frame and once-per-profile entries, the float64 re-checks, the scalar exact path
;; of one lane ($lane, $rule, $window, $held) and the size / blend stores.
  ;; Once per frame: the float32 plane splats and the bounds nmax, dmax of views [0, views).
  (func (export "setup") (param $views i32)
    (local $v i32) (local $j i32) (local $p i32) (local $q i32) (local $nmax f32) (local $dmax f32) (local $c f32)
    (loop $view
      (if (i32.lt_u (local.get $v) (local.get $views)) (then
        (local.set $p (i32.mul (local.get $v) (i32.const {WASM_VIEW_BYTES})))
        (local.set $q (i32.add (i32.const {SPLATS}) (i32.mul (local.get $v) (i32.const {SPLAT_BYTES}))))
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
        (v128.store offset={SPLAT_NMAX} (local.get $q) (f32x4.splat (local.get $nmax)))
        (v128.store offset={SPLAT_DMAX} (local.get $q) (f32x4.splat (local.get $dmax)))
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
      (local.set $lod (i32.add (local.get $lod) (i32.eqz (f64.gt (local.get $c) (f64.load offset={FB_THRESHOLDS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $q) (i32.const 3))))))))
      (local.set $bi (i32.add (local.get $bi) (i32.eqz (f64.gt (local.get $c) (f64.load offset={FB_BLEND_THRESHOLDS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $q) (i32.const 3))))))))
      (local.set $q (i32.add (local.get $q) (i32.const 1)))
      (br_if $scan (i32.lt_u (local.get $q) (i32.const 4))))
    (local.set $f (f64.convert_i32_s (local.get $lod)))
    (if (global.get $nb) (then
      (if (i32.gt_s (local.get $bi) (local.get $lod)) (then (local.set $bi (local.get $lod))))
      (if (i32.lt_s (local.get $bi) (i32.sub (local.get $lod) (i32.const 1))) (then (local.set $bi (i32.sub (local.get $lod) (i32.const 1)))))
      (if (i32.and (i32.ne (local.get $bi) (local.get $lod)) (i32.lt_s (local.get $bi) (global.get $nb))) (then
        (local.set $a (f64.load offset={FB_THRESHOLDS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $bi) (i32.const 3)))))
        (local.set $e (f64.load offset={FB_BLEND_THRESHOLDS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $bi) (i32.const 3)))))
        (if (i32.lt_s (local.get $lod) (global.get $n)) (then
          (if (f64.gt (f64.load offset={FB_THRESHOLDS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $lod) (i32.const 3)))) (local.get $e))
            (then (local.set $e (f64.load offset={FB_THRESHOLDS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $lod) (i32.const 3)))))))))
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
      (i32.store offset={FB_HIDDEN} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_HIDDEN} (i32.const {FUSED_BLOCK})) (i32.const 1)))
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
      (if (local.get $chg) (then (i32.store offset={FB_MOVED} (i32.const {FUSED_BLOCK}) (i32.add (i32.load offset={FB_MOVED} (i32.const {FUSED_BLOCK})) (i32.const 1)))))))
    (local.set $q (i32.add (i32.const {FUSED_BLOCK + FB_LEVEL_COUNTS}) (i32.shl (local.get $level) (i32.const 2))))
    (i32.store (local.get $q) (i32.add (i32.load (local.get $q)) (i32.const 1)))
    (if (i32.or (local.get $free) (f64.ne (local.get $frac) (f64.const 0)))
      (then (i32.store offset={FB_UFRAC} (i32.const {FUSED_BLOCK}) (i32.const 1))))
    (i32.const 0))

  ;; Slot $k held at its displayed level $old by hysteresis: level and size kept, blend from the rule
  ;; at its previous size (`sizes` by id or by slot, $sizeAt; float32 as the reference reads it), counted per
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
    (local.set $q (i32.add (i32.const {FUSED_BLOCK + FB_HELD_COUNTS}) (i32.shl (local.get $old) (i32.const 2))))
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

  (func (export "bindOwed") (param $owed i32) (param $list i32)
    (global.set $owedAt (local.get $owed)) (global.set $owedListAt (local.get $list)))

  ;; Slots $k + b for the set bits b of $mask: their blend changed in the slot copy only; each one
  ;; not yet owed is marked and appended to the list (so the list never holds a slot twice).
  (func $owe (param $k i32) (param $mask i32)
    (local $s i32) (local $a i32) (local $n i32)
    (local.set $n (i32.load offset={FB_OWED_COUNT} (i32.const {FUSED_BLOCK})))
    (block $done (loop $bit
      (br_if $done (i32.eqz (local.get $mask)))
      (local.set $s (i32.add (local.get $k) (i32.ctz (local.get $mask))))
      (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
      (local.set $a (i32.add (global.get $owedAt) (local.get $s)))
      (if (i32.eqz (i32.load8_u (local.get $a))) (then
        (i32.store8 (local.get $a) (i32.const 1))
        (i32.store (i32.add (global.get $owedListAt) (i32.shl (local.get $n) (i32.const 2))) (local.get $s))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))))
      (br $bit)))
    (i32.store offset={FB_OWED_COUNT} (i32.const {FUSED_BLOCK}) (local.get $n)))

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
    (global.set $t0 (f64x2.splat (f64.load offset={FB_THRESHOLDS} (i32.const {FUSED_BLOCK}))))
    (global.set $t1 (f64x2.splat (f64.load offset={FB_THRESHOLDS + 8} (i32.const {FUSED_BLOCK}))))
    (global.set $t2 (f64x2.splat (f64.load offset={FB_THRESHOLDS + 16} (i32.const {FUSED_BLOCK}))))
    (global.set $t3 (f64x2.splat (f64.load offset={FB_THRESHOLDS + 24} (i32.const {FUSED_BLOCK}))))
    (global.set $b0 (f64x2.splat (f64.load offset={FB_BLEND_THRESHOLDS} (i32.const {FUSED_BLOCK}))))
    (global.set $b1 (f64x2.splat (f64.load offset={FB_BLEND_THRESHOLDS + 8} (i32.const {FUSED_BLOCK}))))
    (global.set $b2 (f64x2.splat (f64.load offset={FB_BLEND_THRESHOLDS + 16} (i32.const {FUSED_BLOCK}))))
    (global.set $b3 (f64x2.splat (f64.load offset={FB_BLEND_THRESHOLDS + 24} (i32.const {FUSED_BLOCK}))))
    (global.set $bias (f64.load offset={FB_BIAS} (i32.const {FUSED_BLOCK})))
    (global.set $marker (f64.load offset={FB_MARKER} (i32.const {FUSED_BLOCK})))
    (global.set $n (i32.load offset={FB_N} (i32.const {FUSED_BLOCK})))
    (global.set $nb (i32.load offset={FB_NB} (i32.const {FUSED_BLOCK})))
    (global.set $lo (i32.load offset={FB_LO} (i32.const {FUSED_BLOCK})))
    (global.set $hi (i32.load offset={FB_HI} (i32.const {FUSED_BLOCK})))
    (global.set $desc (i32.load offset={FB_DESCENDING} (i32.const {FUSED_BLOCK})))
    (global.set $h (f64.load offset={FB_HYSTERESIS} (i32.const {FUSED_BLOCK})))
    (global.set $t0f (f32x4.splat (f32.demote_f64 (f64.load offset={FB_THRESHOLDS} (i32.const {FUSED_BLOCK})))))
    (global.set $t1f (f32x4.splat (f32.demote_f64 (f64.load offset={FB_THRESHOLDS + 8} (i32.const {FUSED_BLOCK})))))
    (global.set $t2f (f32x4.splat (f32.demote_f64 (f64.load offset={FB_THRESHOLDS + 16} (i32.const {FUSED_BLOCK})))))
    (global.set $t3f (f32x4.splat (f32.demote_f64 (f64.load offset={FB_THRESHOLDS + 24} (i32.const {FUSED_BLOCK})))))
    (global.set $b0f (f32x4.splat (f32.demote_f64 (f64.load offset={FB_BLEND_THRESHOLDS} (i32.const {FUSED_BLOCK})))))
    (global.set $b1f (f32x4.splat (f32.demote_f64 (f64.load offset={FB_BLEND_THRESHOLDS + 8} (i32.const {FUSED_BLOCK})))))
    (global.set $b2f (f32x4.splat (f32.demote_f64 (f64.load offset={FB_BLEND_THRESHOLDS + 16} (i32.const {FUSED_BLOCK})))))
    (global.set $b3f (f32x4.splat (f32.demote_f64 (f64.load offset={FB_BLEND_THRESHOLDS + 24} (i32.const {FUSED_BLOCK})))))
    (global.set $holds (i32.load offset={FB_HOLDS} (i32.const {FUSED_BLOCK})))
    (global.set $nextMode (i32.load offset={FB_NEXT_MODE} (i32.const {FUSED_BLOCK})))
    (global.set $nextOut (i32.load offset={FB_NEXT_OUT} (i32.const {FUSED_BLOCK})))
    (global.set $slotSizes (i32.load offset={FB_SLOT_SIZES} (i32.const {FUSED_BLOCK})))
    (global.set $oweBlends (i32.load offset={FB_OWE_BLENDS} (i32.const {FUSED_BLOCK})))
    (global.set $afloor (i32.load offset={FB_AT_FLOOR} (i32.const {FUSED_BLOCK})))
    (global.set $collect (i32.load offset={FB_COLLECT} (i32.const {FUSED_BLOCK})))
    (global.set $cfloor (i32.load offset={FB_COLLECT_FLOOR} (i32.const {FUSED_BLOCK})))
    (global.set $cvmax (f64.load offset={FB_COLLECT_VMAX} (i32.const {FUSED_BLOCK})))
    (global.set $cscale (f64.load offset={FB_COLLECT_SCALE} (i32.const {FUSED_BLOCK})))
    (global.set $lastRow (i32.const -1)))
