;; Part of fusedKernel.wat (scripts/generate.mjs puts it in place of its `@include` line): $collect4,
;; which `run` calls in hybrid's first pass over budget (passes/fusedCollect.ts).
  ;; hybrid's collection (hybridIncremental.ts hybridCollectChunk, first collection) over one
  ;; committed group with a visible lane finer than the floor (`run` checked the others: held lanes
  ;; and lanes at or past the floor that keep their level are settled, a change there is listed):
  ;; preferred levels $level of the visible lanes $vis, metric values $sl / $sh, new blends $nb.
  ;; Returns 1 when a lane needs the collection itself — a chain (its projected diameter in no
  ;; stable range of its (preferred, previous) row, or a previous level outside [preferred,
  ;; floor]) or a finalize entry (a stable lane with a blend to clear) — else 0, with the stable
  ;; lanes counted by previous level ($cF), by range start ($cB) and in all ($cStable); the
  ;; settled cluster's other lanes are in the kernel's own counts (fusedCollect.ts). Rows
  ;; (preferred · 5 + previous) from the frame block: range counts at 2048 (int32), ranges [lo, hi]
  ;; at 2176 (8 per row, float64 pairs), their start levels at 5376.
  (func $collect4 (param $level v128) (param $old v128) (param $vis v128) (param $sl v128) (param $sh v128) (param $nb v128) (result i32)
    (local $floorV v128) (local $ca v128) (local $cb v128) (local $cs v128) (local $cst v128) (local $cm v128) (local $rmask v128) (local $hit v128) (local $h4 v128)
    (local $wL v128) (local $wH v128) (local $vm v128) (local $rowv v128) (local $lo v128) (local $hi v128)
    (local $bits i32) (local $row i32) (local $ra i32) (local $re i32) (local $sa i32)
    (local.set $floorV (i32x4.splat (global.get $cfloor)))
    (local.set $ca (v128.and (local.get $vis) (i32x4.ge_s (local.get $level) (local.get $floorV))))
    (local.set $cb (v128.andnot (local.get $vis) (local.get $ca)))
    (if (v128.any_true (local.get $cb)) (then
      (if (v128.any_true (v128.andnot (local.get $cb)
          (v128.and (i32x4.ge_s (local.get $old) (local.get $level)) (i32x4.le_s (local.get $old) (local.get $floorV))))) (then (return (i32.const 1))))
      ;; the projected diameter as the collection computes it: (value · scale) · bias, at most vmax, NaN → 0
      (local.set $vm (f64x2.splat (global.get $cvmax)))
      (local.set $wL (f64x2.mul (f64x2.mul (local.get $sl) (f64x2.splat (global.get $cscale))) (f64x2.splat (global.get $bias))))
      (local.set $wH (f64x2.mul (f64x2.mul (local.get $sh) (f64x2.splat (global.get $cscale))) (f64x2.splat (global.get $bias))))
      (local.set $wL (v128.bitselect (local.get $vm) (local.get $wL) (f64x2.gt (local.get $wL) (local.get $vm))))
      (local.set $wH (v128.bitselect (local.get $vm) (local.get $wH) (f64x2.gt (local.get $wH) (local.get $vm))))
      (local.set $wL (v128.and (local.get $wL) (f64x2.ge (local.get $wL) (v128.const f64x2 0 0))))
      (local.set $wH (v128.and (local.get $wH) (f64x2.ge (local.get $wH) (v128.const f64x2 0 0))))
      (local.set $rowv (i32x4.add (i32x4.mul (local.get $level) (v128.const i32x4 5 5 5 5)) (local.get $old)))
      (v128.store offset={FB_LANE_ROWS} (i32.const {FUSED_BLOCK}) (local.get $rowv))
      (local.set $cm (local.get $cb))
      ;; neighbours mostly share the row and range of the last hit: those lanes in one test (any
      ;; range holding w gives the same start: ranges meet only at points both proved stable)
      (if (i32.ge_s (global.get $lastRow) (i32.const 0)) (then
        (local.set $lo (f64x2.splat (global.get $lastLo)))
        (local.set $hi (f64x2.splat (global.get $lastHi)))
        (local.set $h4 (v128.and (v128.and (local.get $cm) (i32x4.eq (local.get $rowv) (i32x4.splat (global.get $lastRow))))
          (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
            (v128.and (f64x2.ge (local.get $wL) (local.get $lo)) (f64x2.le (local.get $wL) (local.get $hi)))
            (v128.and (f64x2.ge (local.get $wH) (local.get $lo)) (f64x2.le (local.get $wH) (local.get $hi))))))
        (local.set $cst (v128.and (i32x4.splat (global.get $lastStart)) (local.get $h4)))
        (local.set $cs (local.get $h4))
        (local.set $cm (v128.andnot (local.get $cm) (local.get $h4)))))
      (block $rowsDone (loop $rows
        (local.set $bits (i32x4.bitmask (local.get $cm)))
        (br_if $rowsDone (i32.eqz (local.get $bits)))
        ;; the lanes of the first unresolved lane's row, against each of its ranges
        (local.set $row (i32.load offset={FB_LANE_ROWS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (i32.ctz (local.get $bits)) (i32.const 2)))))
        (local.set $rmask (v128.and (local.get $cm) (i32x4.eq (local.get $rowv) (i32x4.splat (local.get $row)))))
        (local.set $hit (v128.const i32x4 0 0 0 0))
        (local.set $ra (i32.add (i32.const {FUSED_BLOCK + FB_ROW_RANGES}) (i32.shl (local.get $row) (i32.const 7))))
        (local.set $sa (i32.add (i32.const {FUSED_BLOCK + FB_ROW_STARTS}) (i32.shl (local.get $row) (i32.const 5))))
        (local.set $re (i32.add (local.get $ra) (i32.shl (i32.load offset={FB_ROW_COUNTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $row) (i32.const 2)))) (i32.const 4))))
        (block $rangesDone (loop $ranges
          (br_if $rangesDone (i32.ge_u (local.get $ra) (local.get $re)))
          (local.set $lo (f64x2.splat (f64.load (local.get $ra))))
          (local.set $hi (f64x2.splat (f64.load offset=8 (local.get $ra))))
          (local.set $h4 (v128.andnot (v128.and (local.get $rmask) (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
            (v128.and (f64x2.ge (local.get $wL) (local.get $lo)) (f64x2.le (local.get $wL) (local.get $hi)))
            (v128.and (f64x2.ge (local.get $wH) (local.get $lo)) (f64x2.le (local.get $wH) (local.get $hi))))) (local.get $hit)))
          (local.set $cst (v128.bitselect (i32x4.splat (i32.load (local.get $sa))) (local.get $cst) (local.get $h4)))
          (local.set $hit (v128.or (local.get $hit) (local.get $h4)))
          (if (v128.any_true (local.get $h4)) (then
            (global.set $lastRow (local.get $row)) (global.set $lastLo (f64.load (local.get $ra)))
            (global.set $lastHi (f64.load offset=8 (local.get $ra))) (global.set $lastStart (i32.load (local.get $sa)))))
          (local.set $ra (i32.add (local.get $ra) (i32.const 16)))
          (local.set $sa (i32.add (local.get $sa) (i32.const 4)))
          (br $ranges)))
        (if (v128.any_true (v128.andnot (local.get $rmask) (local.get $hit))) (then (return (i32.const 1))))
        (local.set $cs (v128.or (local.get $cs) (local.get $hit)))
        (local.set $cm (v128.andnot (local.get $cm) (local.get $rmask)))
        (br $rows)))
      (if (v128.any_true (v128.andnot (v128.and (local.get $cs) (f32x4.ne (local.get $nb) (v128.const f32x4 0 0 0 0)))
          (i32x4.eq (local.get $old) (local.get $level)))) (then (return (i32.const 1))))))
    ;; the stable lanes by previous level ($cF) and by range start ($cB)
    (global.set $cF0 (i32x4.sub (global.get $cF0) (v128.and (local.get $cs) (i32x4.eq (local.get $old) (v128.const i32x4 0 0 0 0)))))
    (global.set $cF1 (i32x4.sub (global.get $cF1) (v128.and (local.get $cs) (i32x4.eq (local.get $old) (v128.const i32x4 1 1 1 1)))))
    (global.set $cF2 (i32x4.sub (global.get $cF2) (v128.and (local.get $cs) (i32x4.eq (local.get $old) (v128.const i32x4 2 2 2 2)))))
    (global.set $cF3 (i32x4.sub (global.get $cF3) (v128.and (local.get $cs) (i32x4.eq (local.get $old) (v128.const i32x4 3 3 3 3)))))
    (global.set $cF4 (i32x4.sub (global.get $cF4) (v128.and (local.get $cs) (i32x4.eq (local.get $old) (v128.const i32x4 4 4 4 4)))))
    (global.set $cB0 (i32x4.sub (global.get $cB0) (v128.and (local.get $cs) (i32x4.eq (local.get $cst) (v128.const i32x4 0 0 0 0)))))
    (global.set $cB1 (i32x4.sub (global.get $cB1) (v128.and (local.get $cs) (i32x4.eq (local.get $cst) (v128.const i32x4 1 1 1 1)))))
    (global.set $cB2 (i32x4.sub (global.get $cB2) (v128.and (local.get $cs) (i32x4.eq (local.get $cst) (v128.const i32x4 2 2 2 2)))))
    (global.set $cB3 (i32x4.sub (global.get $cB3) (v128.and (local.get $cs) (i32x4.eq (local.get $cst) (v128.const i32x4 3 3 3 3)))))
    (global.set $cB4 (i32x4.sub (global.get $cB4) (v128.and (local.get $cs) (i32x4.eq (local.get $cst) (v128.const i32x4 4 4 4 4)))))
    (global.set $cStable (i32.add (global.get $cStable) (i32.popcnt (i32x4.bitmask (local.get $cs)))))
    (i32.const 0))
