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
  ;; Objects [start, end): spheres at sp + 16·i, values at work + 8·i; mode 0 write, 1 max;
  ;; view index, pixels (1: scale by the viewport height), cull (1: culled → −1, else 0; 2: the
  ;; objects lie wholly inside the view, no plane test). One function, the view's constants in
  ;; locals: Node 20 inlines no WebAssembly call, and a v128 global is a memory read at each use
  ;; (a pair function and globals cost ≈ 15 % more).
  (func (export "heightPerspective") (param $sp i32) (param $work i32) (param $start i32) (param $end i32)
    (param $mode i32) (param $view i32) (param $px i32) (param $cull i32)
    (local $p i32) (local $i i32) (local $s i32) (local $w i32) (local $two i32) (local $a v128) (local $b v128) (local $old v128)
    (local $p0 v128) (local $p1 v128) (local $p2 v128) (local $p3 v128) (local $p4 v128) (local $p5 v128) (local $p6 v128) (local $p7 v128) (local $p8 v128) (local $p9 v128) (local $p10 v128) (local $p11 v128)
    (local $p12 v128) (local $p13 v128) (local $p14 v128) (local $p15 v128) (local $p16 v128) (local $p17 v128) (local $p18 v128) (local $p19 v128) (local $p20 v128) (local $p21 v128) (local $p22 v128) (local $p23 v128)
    (local $ex v128) (local $ey v128) (local $ez v128) (local $wh v128) (local $sc v128) (local $cv v128) (local $planes i32)
    (local $x v128) (local $y v128) (local $z v128) (local $r v128) (local $nr v128)
    (local $check v128) (local $bad v128) (local $culled v128) (local $dx v128) (local $dy v128) (local $dz v128)
    (local $d v128) (local $val v128) (local $valRes v128) (local $culRes v128) (local $badRes v128) (local $res v128)
    (local.set $p (i32.mul (local.get $view) (i32.const {WASM_VIEW_BYTES})))
    (local.set $p0 (f64x2.splat (f64.load offset=0 (local.get $p))))
    (local.set $p1 (f64x2.splat (f64.load offset=8 (local.get $p))))
    (local.set $p2 (f64x2.splat (f64.load offset=16 (local.get $p))))
    (local.set $p3 (f64x2.splat (f64.load offset=24 (local.get $p))))
    (local.set $p4 (f64x2.splat (f64.load offset=32 (local.get $p))))
    (local.set $p5 (f64x2.splat (f64.load offset=40 (local.get $p))))
    (local.set $p6 (f64x2.splat (f64.load offset=48 (local.get $p))))
    (local.set $p7 (f64x2.splat (f64.load offset=56 (local.get $p))))
    (local.set $p8 (f64x2.splat (f64.load offset=64 (local.get $p))))
    (local.set $p9 (f64x2.splat (f64.load offset=72 (local.get $p))))
    (local.set $p10 (f64x2.splat (f64.load offset=80 (local.get $p))))
    (local.set $p11 (f64x2.splat (f64.load offset=88 (local.get $p))))
    (local.set $p12 (f64x2.splat (f64.load offset=96 (local.get $p))))
    (local.set $p13 (f64x2.splat (f64.load offset=104 (local.get $p))))
    (local.set $p14 (f64x2.splat (f64.load offset=112 (local.get $p))))
    (local.set $p15 (f64x2.splat (f64.load offset=120 (local.get $p))))
    (local.set $p16 (f64x2.splat (f64.load offset=128 (local.get $p))))
    (local.set $p17 (f64x2.splat (f64.load offset=136 (local.get $p))))
    (local.set $p18 (f64x2.splat (f64.load offset=144 (local.get $p))))
    (local.set $p19 (f64x2.splat (f64.load offset=152 (local.get $p))))
    (local.set $p20 (f64x2.splat (f64.load offset=160 (local.get $p))))
    (local.set $p21 (f64x2.splat (f64.load offset=168 (local.get $p))))
    (local.set $p22 (f64x2.splat (f64.load offset=176 (local.get $p))))
    (local.set $p23 (f64x2.splat (f64.load offset=184 (local.get $p))))
    (local.set $ex (f64x2.splat (f64.load offset={8 * WV_EYE} (local.get $p))))
    (local.set $ey (f64x2.splat (f64.load offset={8 * WV_EYE + 8} (local.get $p))))
    (local.set $ez (f64x2.splat (f64.load offset={8 * WV_EYE + 16} (local.get $p))))
    (local.set $wh (f64x2.splat (f64.load offset={8 * WV_WINDOW_HEIGHT} (local.get $p))))
    (local.set $sc (select (f64x2.splat (f64.load offset={8 * WV_PIXEL_SCALE} (local.get $p))) (v128.const f64x2 1 1) (local.get $px)))
    (local.set $cv (select (v128.const f64x2 -1 -1) (v128.const f64x2 0 0) (local.get $cull)))
    (local.set $planes (i32.ne (local.get $cull) (i32.const 2)))
    (local.set $i (local.get $start))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $s (i32.add (local.get $sp) (i32.shl (local.get $i) (i32.const 4))))
        (local.set $w (i32.add (local.get $work) (i32.shl (local.get $i) (i32.const 3))))
        ;; two objects, or an odd last one in both lanes (lane 0 is stored)
        (local.set $two (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $end)))
        (local.set $a (v128.load (local.get $s)))
        (local.set $b (if (result v128) (local.get $two) (then (v128.load offset=16 (local.get $s))) (else (local.get $a))))
        (local.set $old (if (result v128) (local.get $two) (then (v128.load (local.get $w))) (else (f64x2.splat (f64.load (local.get $w))))))
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
        (local.set $culled (if (result v128) (local.get $planes) (then
          (v128.or (v128.or (v128.or
          (f64x2.lt
            (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $p0) (local.get $x)) (f64x2.mul (local.get $p1) (local.get $y)))
              (f64x2.mul (local.get $p2) (local.get $z))) (local.get $p3))
            (local.get $nr))
          (f64x2.lt
            (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $p4) (local.get $x)) (f64x2.mul (local.get $p5) (local.get $y)))
              (f64x2.mul (local.get $p6) (local.get $z))) (local.get $p7))
            (local.get $nr)))
          (f64x2.lt
            (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $p8) (local.get $x)) (f64x2.mul (local.get $p9) (local.get $y)))
              (f64x2.mul (local.get $p10) (local.get $z))) (local.get $p11))
            (local.get $nr)))
          (v128.or (v128.or
          (f64x2.lt
            (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $p12) (local.get $x)) (f64x2.mul (local.get $p13) (local.get $y)))
              (f64x2.mul (local.get $p14) (local.get $z))) (local.get $p15))
            (local.get $nr))
          (f64x2.lt
            (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $p16) (local.get $x)) (f64x2.mul (local.get $p17) (local.get $y)))
              (f64x2.mul (local.get $p18) (local.get $z))) (local.get $p19))
            (local.get $nr)))
          (f64x2.lt
            (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $p20) (local.get $x)) (f64x2.mul (local.get $p21) (local.get $y)))
              (f64x2.mul (local.get $p22) (local.get $z))) (local.get $p23))
            (local.get $nr)))))
          (else (v128.const i64x2 0 0))))
        (local.set $dx (f64x2.sub (local.get $x) (local.get $ex)))
        (local.set $dy (f64x2.sub (local.get $y) (local.get $ey)))
        (local.set $dz (f64x2.sub (local.get $z) (local.get $ez)))
        (local.set $d (f64x2.sqrt (f64x2.add (f64x2.add (f64x2.mul (local.get $dx) (local.get $dx)) (f64x2.mul (local.get $dy) (local.get $dy)))
          (f64x2.mul (local.get $dz) (local.get $dz)))))
        (local.set $val (f64x2.mul (f64x2.div (f64x2.add (local.get $r) (local.get $r)) (f64x2.mul (local.get $d) (local.get $wh))) (local.get $sc)))
        (if (i32.eqz (local.get $mode))
          (then
            (local.set $valRes (local.get $val))
            (local.set $culRes (local.get $cv))
            (local.set $badRes (v128.const f64x2 nan nan)))
          (else
            (local.set $valRes (v128.bitselect (local.get $val) (local.get $old) (f64x2.gt (local.get $val) (local.get $old))))
            (local.set $culRes (v128.bitselect (local.get $cv) (local.get $old) (f64x2.gt (local.get $cv) (local.get $old))))
            (local.set $badRes (local.get $old))))
        ;; eye inside the sphere: +∞ whatever the mode
        (local.set $res (v128.bitselect (v128.const f64x2 inf inf) (local.get $valRes) (f64x2.le (local.get $d) (local.get $r))))
        (local.set $res (v128.bitselect (local.get $culRes) (local.get $res) (local.get $culled)))
        (local.set $res (v128.bitselect (local.get $badRes) (local.get $res) (local.get $bad)))
        (if (local.get $two)
          (then (v128.store (local.get $w) (local.get $res)))
          (else (f64.store (local.get $w) (f64x2.extract_lane 0 (local.get $res)))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $next))))
)
