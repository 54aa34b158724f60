;; lodkit WebAssembly SIMD kernel (source; compiled by scripts/generate.mjs with the npm package
;; `wabt` into heightKernel.generated.ts, which embeds the bytes).
;;
;; heightPerspective: the perspective screen-height / pixel metric of metricKernels.ts's
;; heightPerspectiveKernel, two objects per f64x2 vector, branch-free (v128.bitselect). Every value is
;; computed with the same IEEE operations in the same order as the JavaScript kernel (f32 → f64
;; promotion, ((a·x + b·y) + c·z) + d plane tests, ((dx² + dy²) + dz²), sqrt, (2r) / (d·wh) · scale),
;; and WebAssembly, like JavaScript, rounds each of them to nearest and never contracts to FMA: the
;; results are bit-identical to the scalar kernel, so no re-check is needed.
;;
;; Memory layout (set up by clusters.ts): per view v, 32 f64 at byte v·256: planes [0, 24), eye x, y, z
;; [24, 27), window height [27], pixel scale [28]. Spheres (x, y, z, r float32) from byte SP_OFFSET;
;; metric values (f64) from byte `work`.
(module
  (import "env" "memory" (memory 1)) ;; the set's kernel memory (clusters.ts), made before the module is compiled
  (global $p0 (mut v128) (v128.const i64x2 0 0))
  (global $p1 (mut v128) (v128.const i64x2 0 0))
  (global $p2 (mut v128) (v128.const i64x2 0 0))
  (global $p3 (mut v128) (v128.const i64x2 0 0))
  (global $p4 (mut v128) (v128.const i64x2 0 0))
  (global $p5 (mut v128) (v128.const i64x2 0 0))
  (global $p6 (mut v128) (v128.const i64x2 0 0))
  (global $p7 (mut v128) (v128.const i64x2 0 0))
  (global $p8 (mut v128) (v128.const i64x2 0 0))
  (global $p9 (mut v128) (v128.const i64x2 0 0))
  (global $p10 (mut v128) (v128.const i64x2 0 0))
  (global $p11 (mut v128) (v128.const i64x2 0 0))
  (global $p12 (mut v128) (v128.const i64x2 0 0))
  (global $p13 (mut v128) (v128.const i64x2 0 0))
  (global $p14 (mut v128) (v128.const i64x2 0 0))
  (global $p15 (mut v128) (v128.const i64x2 0 0))
  (global $p16 (mut v128) (v128.const i64x2 0 0))
  (global $p17 (mut v128) (v128.const i64x2 0 0))
  (global $p18 (mut v128) (v128.const i64x2 0 0))
  (global $p19 (mut v128) (v128.const i64x2 0 0))
  (global $p20 (mut v128) (v128.const i64x2 0 0))
  (global $p21 (mut v128) (v128.const i64x2 0 0))
  (global $p22 (mut v128) (v128.const i64x2 0 0))
  (global $p23 (mut v128) (v128.const i64x2 0 0))
  (global $ex (mut v128) (v128.const i64x2 0 0))
  (global $ey (mut v128) (v128.const i64x2 0 0))
  (global $ez (mut v128) (v128.const i64x2 0 0))
  (global $wh (mut v128) (v128.const i64x2 0 0))
  (global $sc (mut v128) (v128.const i64x2 0 0))
  (global $cv (mut v128) (v128.const i64x2 0 0))
  (global $mode (mut i32) (i32.const 0))
  (global $planes (mut i32) (i32.const 1))

  ;; Metric of the two spheres in $a and $b (x, y, z, r float32 each), combined with $old.
  (func $pair (param $a v128) (param $b v128) (param $old v128) (result v128)
    (local $x v128) (local $y v128) (local $z v128) (local $r v128) (local $nr v128)
    (local $check v128) (local $bad v128) (local $culled v128) (local $dx v128) (local $dy v128) (local $dz v128)
    (local $d v128) (local $val v128) (local $valRes v128) (local $culRes v128) (local $badRes v128) (local $res v128)
    (local.set $x (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 16 17 18 19 0 1 2 3 16 17 18 19 (local.get $a) (local.get $b))))
    (local.set $y (f64x2.promote_low_f32x4 (i8x16.shuffle 4 5 6 7 20 21 22 23 4 5 6 7 20 21 22 23 (local.get $a) (local.get $b))))
    (local.set $z (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 24 25 26 27 8 9 10 11 24 25 26 27 (local.get $a) (local.get $b))))
    (local.set $r (f64x2.promote_low_f32x4 (i8x16.shuffle 12 13 14 15 28 29 30 31 12 13 14 15 28 29 30 31 (local.get $a) (local.get $b))))
    ;; NaN/±∞ anywhere, or a negative radius
    (local.set $check (f64x2.add (f64x2.add (f64x2.add (local.get $x) (local.get $y)) (local.get $z)) (local.get $r)))
    (local.set $bad (v128.or
      (f64x2.ne (f64x2.sub (local.get $check) (local.get $check)) (v128.const f64x2 0 0))
      (f64x2.lt (local.get $r) (v128.const f64x2 0 0))))
    (local.set $nr (f64x2.neg (local.get $r)))
    ;; (planes off: the cluster lies wholly inside every view, so no object can fail a plane test)
    (local.set $culled (if (result v128) (global.get $planes) (then
      (v128.or (v128.or (v128.or
      (f64x2.lt
        (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (global.get $p0) (local.get $x)) (f64x2.mul (global.get $p1) (local.get $y)))
          (f64x2.mul (global.get $p2) (local.get $z))) (global.get $p3))
        (local.get $nr))
      (f64x2.lt
        (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (global.get $p4) (local.get $x)) (f64x2.mul (global.get $p5) (local.get $y)))
          (f64x2.mul (global.get $p6) (local.get $z))) (global.get $p7))
        (local.get $nr)))
      (f64x2.lt
        (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (global.get $p8) (local.get $x)) (f64x2.mul (global.get $p9) (local.get $y)))
          (f64x2.mul (global.get $p10) (local.get $z))) (global.get $p11))
        (local.get $nr)))
      (v128.or (v128.or
      (f64x2.lt
        (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (global.get $p12) (local.get $x)) (f64x2.mul (global.get $p13) (local.get $y)))
          (f64x2.mul (global.get $p14) (local.get $z))) (global.get $p15))
        (local.get $nr))
      (f64x2.lt
        (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (global.get $p16) (local.get $x)) (f64x2.mul (global.get $p17) (local.get $y)))
          (f64x2.mul (global.get $p18) (local.get $z))) (global.get $p19))
        (local.get $nr)))
      (f64x2.lt
        (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (global.get $p20) (local.get $x)) (f64x2.mul (global.get $p21) (local.get $y)))
          (f64x2.mul (global.get $p22) (local.get $z))) (global.get $p23))
        (local.get $nr)))))
      (else (v128.const i64x2 0 0))))
    (local.set $dx (f64x2.sub (local.get $x) (global.get $ex)))
    (local.set $dy (f64x2.sub (local.get $y) (global.get $ey)))
    (local.set $dz (f64x2.sub (local.get $z) (global.get $ez)))
    (local.set $d (f64x2.sqrt (f64x2.add (f64x2.add (f64x2.mul (local.get $dx) (local.get $dx)) (f64x2.mul (local.get $dy) (local.get $dy)))
      (f64x2.mul (local.get $dz) (local.get $dz)))))
    (local.set $val (f64x2.mul (f64x2.div (f64x2.add (local.get $r) (local.get $r)) (f64x2.mul (local.get $d) (global.get $wh))) (global.get $sc)))
    (if (i32.eqz (global.get $mode))
      (then
        (local.set $valRes (local.get $val))
        (local.set $culRes (global.get $cv))
        (local.set $badRes (v128.const f64x2 nan nan)))
      (else
        (local.set $valRes (v128.bitselect (local.get $val) (local.get $old) (f64x2.gt (local.get $val) (local.get $old))))
        (local.set $culRes (v128.bitselect (global.get $cv) (local.get $old) (f64x2.gt (global.get $cv) (local.get $old))))
        (local.set $badRes (local.get $old))))
    ;; eye inside the sphere: +∞ whatever the mode
    (local.set $res (v128.bitselect (v128.const f64x2 inf inf) (local.get $valRes) (f64x2.le (local.get $d) (local.get $r))))
    (local.set $res (v128.bitselect (local.get $culRes) (local.get $res) (local.get $culled)))
    (v128.bitselect (local.get $badRes) (local.get $res) (local.get $bad)))

  ;; Objects [start, end): spheres at sp + 16·i, values at work + 8·i; mode 0 write, 1 max;
  ;; view index, pixels (1: scale by the viewport height), cull (1: culled → −1, else 0; 2: the
  ;; objects lie wholly inside the view, no plane test).
  (func (export "heightPerspective") (param $sp i32) (param $work i32) (param $start i32) (param $end i32)
    (param $mode i32) (param $view i32) (param $px i32) (param $cull i32)
    (local $p i32) (local $i i32) (local $s i32) (local $w i32) (local $a v128)
    (local.set $p (i32.mul (local.get $view) (i32.const {WASM_VIEW_BYTES})))
    (global.set $p0 (f64x2.splat (f64.load offset=0 (local.get $p))))
    (global.set $p1 (f64x2.splat (f64.load offset=8 (local.get $p))))
    (global.set $p2 (f64x2.splat (f64.load offset=16 (local.get $p))))
    (global.set $p3 (f64x2.splat (f64.load offset=24 (local.get $p))))
    (global.set $p4 (f64x2.splat (f64.load offset=32 (local.get $p))))
    (global.set $p5 (f64x2.splat (f64.load offset=40 (local.get $p))))
    (global.set $p6 (f64x2.splat (f64.load offset=48 (local.get $p))))
    (global.set $p7 (f64x2.splat (f64.load offset=56 (local.get $p))))
    (global.set $p8 (f64x2.splat (f64.load offset=64 (local.get $p))))
    (global.set $p9 (f64x2.splat (f64.load offset=72 (local.get $p))))
    (global.set $p10 (f64x2.splat (f64.load offset=80 (local.get $p))))
    (global.set $p11 (f64x2.splat (f64.load offset=88 (local.get $p))))
    (global.set $p12 (f64x2.splat (f64.load offset=96 (local.get $p))))
    (global.set $p13 (f64x2.splat (f64.load offset=104 (local.get $p))))
    (global.set $p14 (f64x2.splat (f64.load offset=112 (local.get $p))))
    (global.set $p15 (f64x2.splat (f64.load offset=120 (local.get $p))))
    (global.set $p16 (f64x2.splat (f64.load offset=128 (local.get $p))))
    (global.set $p17 (f64x2.splat (f64.load offset=136 (local.get $p))))
    (global.set $p18 (f64x2.splat (f64.load offset=144 (local.get $p))))
    (global.set $p19 (f64x2.splat (f64.load offset=152 (local.get $p))))
    (global.set $p20 (f64x2.splat (f64.load offset=160 (local.get $p))))
    (global.set $p21 (f64x2.splat (f64.load offset=168 (local.get $p))))
    (global.set $p22 (f64x2.splat (f64.load offset=176 (local.get $p))))
    (global.set $p23 (f64x2.splat (f64.load offset=184 (local.get $p))))
    (global.set $ex (f64x2.splat (f64.load offset={8 * WV_EYE} (local.get $p))))
    (global.set $ey (f64x2.splat (f64.load offset={8 * WV_EYE + 8} (local.get $p))))
    (global.set $ez (f64x2.splat (f64.load offset={8 * WV_EYE + 16} (local.get $p))))
    (global.set $wh (f64x2.splat (f64.load offset={8 * WV_WINDOW_HEIGHT} (local.get $p))))
    (global.set $sc (select (f64x2.splat (f64.load offset={8 * WV_PIXEL_SCALE} (local.get $p))) (v128.const f64x2 1 1) (local.get $px)))
    (global.set $cv (select (v128.const f64x2 -1 -1) (v128.const f64x2 0 0) (local.get $cull)))
    (global.set $mode (local.get $mode))
    (global.set $planes (i32.ne (local.get $cull) (i32.const 2)))
    (local.set $i (local.get $start))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $end)))
        (local.set $s (i32.add (local.get $sp) (i32.shl (local.get $i) (i32.const 4))))
        (local.set $w (i32.add (local.get $work) (i32.shl (local.get $i) (i32.const 3))))
        (v128.store (local.get $w)
          (call $pair (v128.load (local.get $s)) (v128.load offset=16 (local.get $s)) (v128.load (local.get $w))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $next)))
    ;; an odd last object: both lanes get it, lane 0 is stored
    (if (i32.lt_u (local.get $i) (local.get $end))
      (then
        (local.set $s (i32.add (local.get $sp) (i32.shl (local.get $i) (i32.const 4))))
        (local.set $w (i32.add (local.get $work) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $a (v128.load (local.get $s)))
        (f64.store (local.get $w)
          (f64x2.extract_lane 0 (call $pair (local.get $a) (local.get $a) (f64x2.splat (f64.load (local.get $w))))))))))
