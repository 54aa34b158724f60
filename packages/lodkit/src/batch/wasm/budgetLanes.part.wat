;; Part of fusedKernel.wat (scripts/generate.mjs puts it in place of its `@include` line): the
;; budget policy's per-object classification of one cluster (passes/budgetKernel.ts), which
;; budgetIncremental.ts budgetFeedChunk otherwise does in JavaScript, scalar, with its operations:
;; after the pixels kernel left the objects' projected diameters at $work, every live object gets
;; its blend cleared (slot copy and id); an object that is shown, valid, not forced, at a previous
;; level in [finest, coarsest] whose diameter — (value · bias), at most vmax, below 0 → 0 — lies in
;; one of the first ranges of its previous level's row (the first one holding it, as the
;; JavaScript pass) is stable: its size is stored (in slot order: clusters.ts `sizesS`) and it is counted
;; by previous level and by range start; a hidden or culled one already hidden (level 255) needs
;; nothing but its size (NaN) and the count of hidden objects. Every other live object is listed
;; for the JavaScript pass.
  ;; Slots [start, end) (at most 64). Inputs (frame block): bias 1424, vmax 1432 (float64), finest
  ;; 1440, coarsest 1444 (at most 4) (int32); row L = previous level L
  ;; of hybrid's collection rows (range counts, ranges, starts). Outputs: the stable objects' counts
  ;; by previous level and by range start (int32 × 5 each), how many (int32), the listed slots
  ;; (absolute) at the redo slots, the hidden objects not listed at 104 (int32); returns how many are listed.
  (func (export "budget") (param $work i32) (param $start i32) (param $end i32) (result i32)
    (local $s i32) (local $fl i32) (local $x f64) (local $size f64) (local $w f64) (local $prev i32) (local $b i32)
    (local $n i32) (local $stable i32) (local $ra i32) (local $re i32) (local $sa i32) (local $c i32)
    (local $bias f64) (local $vmax f64) (local $lo i32) (local $hi i32)
    (local $hid i32)
    (local.set $bias (f64.load offset={FB_BUDGET_BIAS} (i32.const {FUSED_BLOCK})))
    (local.set $vmax (f64.load offset={FB_BUDGET_VMAX} (i32.const {FUSED_BLOCK})))
    (local.set $lo (i32.load offset={FB_BUDGET_LO} (i32.const {FUSED_BLOCK})))
    (local.set $hi (i32.load offset={FB_BUDGET_HI} (i32.const {FUSED_BLOCK})))
    (v128.store offset={FB_STABLE_PREV} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
    (i32.store offset={FB_STABLE_PREV + 16} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (v128.store offset={FB_STABLE_START} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
    (i32.store offset={FB_STABLE_START + 16} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (local.set $s (local.get $start))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $s) (local.get $end)))
      (local.set $fl (i32.load8_u (i32.add (global.get $flagsAt) (local.get $s))))
      (block $skip
        (br_if $skip (i32.and (local.get $fl) (i32.const 2))) ;; removed
        (local.set $b (i32.add (global.get $blendAt) (i32.shl (local.get $s) (i32.const 2))))
        (if (f32.ne (f32.load (local.get $b)) (f32.const 0)) (then
          (f32.store (local.get $b) (f32.const 0))
          (f32.store (i32.add (global.get $blendIdAt)
            (i32.shl (i32.load (i32.add (global.get $slotIdAt) (i32.shl (local.get $s) (i32.const 2)))) (i32.const 2))) (f32.const 0))))
        (block $list
          (local.set $x (f64.load (i32.add (local.get $work) (i32.shl (local.get $s) (i32.const 3)))))
          (if (i32.or (i32.and (local.get $fl) (i32.const 1)) (f64.eq (local.get $x) (f64.const -1))) (then ;; hidden or culled
            (br_if $list (i32.ne (i32.load8_u (i32.add (global.get $levelsAt) (local.get $s))) (i32.const 255))) ;; (a change: listed)
            (f32.store (i32.add (global.get $sizesSAt) (i32.shl (local.get $s) (i32.const 2))) (f32.const nan))
            (local.set $hid (i32.add (local.get $hid) (i32.const 1)))
            (br $skip)))
          (br_if $list (f64.ne (local.get $x) (local.get $x))) ;; invalid sphere
          (br_if $list (i32.ne (i32.load8_u (i32.add (global.get $forcedAt) (local.get $s))) (i32.const 255)))
          (local.set $prev (i32.load8_u (i32.add (global.get $levelsAt) (local.get $s))))
          (br_if $list (i32.lt_u (local.get $prev) (local.get $lo)))
          (br_if $list (i32.gt_u (local.get $prev) (local.get $hi)))
          (local.set $size (f64.mul (local.get $x) (local.get $bias)))
          (if (f64.gt (local.get $size) (local.get $vmax)) (then (local.set $size (local.get $vmax))))
          (local.set $w (local.get $size))
          (if (i32.eqz (f64.ge (local.get $w) (f64.const 0))) (then (local.set $w (f64.const 0))))
          (local.set $ra (i32.add (i32.const {FUSED_BLOCK + FB_ROW_RANGES}) (i32.shl (local.get $prev) (i32.const 7))))
          (local.set $sa (i32.add (i32.const {FUSED_BLOCK + FB_ROW_STARTS}) (i32.shl (local.get $prev) (i32.const 5))))
          (local.set $re (i32.add (local.get $ra)
            (i32.shl (i32.load offset={FB_ROW_COUNTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $prev) (i32.const 2)))) (i32.const 4))))
          ;; (ranges ascend: budgetStable.ts fillRow — past w's place, no later one holds it)
          (block $found (loop $ranges
            (br_if $list (i32.ge_u (local.get $ra) (local.get $re)))
            (br_if $list (f64.lt (local.get $w) (f64.load (local.get $ra))))
            (br_if $found (f64.le (local.get $w) (f64.load offset=8 (local.get $ra)))) ;; (w ≥ its start: checked above)
            (local.set $ra (i32.add (local.get $ra) (i32.const 16)))
            (local.set $sa (i32.add (local.get $sa) (i32.const 4)))
            (br $ranges)))
          ;; stable: its size, its counts
          (f32.store (i32.add (global.get $sizesSAt) (i32.shl (local.get $s) (i32.const 2))) (f32.demote_f64 (local.get $size)))
          (local.set $c (i32.add (i32.const {FUSED_BLOCK + FB_STABLE_PREV}) (i32.shl (local.get $prev) (i32.const 2))))
          (i32.store (local.get $c) (i32.add (i32.load (local.get $c)) (i32.const 1)))
          (local.set $c (i32.add (i32.const {FUSED_BLOCK + FB_STABLE_START}) (i32.shl (i32.load (local.get $sa)) (i32.const 2))))
          (i32.store (local.get $c) (i32.add (i32.load (local.get $c)) (i32.const 1)))
          (local.set $stable (i32.add (local.get $stable) (i32.const 1)))
          (br $skip))
        (i32.store offset={FB_REDO_SLOTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $n) (i32.const 2))) (local.get $s))
        (local.set $n (i32.add (local.get $n) (i32.const 1))))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br $next)))
    (i32.store offset={FB_STABLE} (i32.const {FUSED_BLOCK}) (local.get $stable))
    (i32.store offset={FB_HIDDEN} (i32.const {FUSED_BLOCK}) (local.get $hid))
    (local.get $n))
