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
;; Hybrid's binding frames (mode 1, passes/hybridBinding.ts) run the same loop over rows keyed by the
;; displayed level whose range starts hold the preferred level (hybridLevelRows.ts), with these
;; differences: a blend is cleared only for a stable object; its size is the metric value × bias as
;; the thresholds rule writes it, not clamped, and its diameter (value · scale) · bias, at most vmax,
;; below 0 → 0 (hybridCollectChunk's); it also gets `next` = its preferred level and `fixed` = 0, and
;; a hidden or culled one already hidden `next` 255, `fixed` 2 and blend 0 (what the thresholds rule
;; writes for it). Mode 2 (a profile the fused kernel takes, loaded for hybrid's first pass) also
;; decides an object outside the rows with the fused kernel's scalar path ($lane): held by the band
;; (level, size kept; blend from the rule at its previous size; counted at 1312 by level), or
;; decided (its size, blend, `next`, `fixed`; listed at the decided slots, their count at 1452), or,
;; where $lane leaves it to JavaScript, listed as in mode 1. In mode 2 a range may also be a blend
;; window's (start P + 16 (bi + 1), P = its level: the blend is the rule's fraction at its size, with
;; $rule's operations; counted at 1464) or the band's hold (start L + 128: $held finishes it). In the
;; hybrid modes a row holds up to 24 ranges (budgetKernel.ts LEVEL_KERNEL_RANGES), and the search
;; for w starts at the range the last object of the same level lay in (kept at FB_RANGE_HINTS).
  ;; Slots [start, end) (at most 64). Inputs (frame block): bias 1424, vmax 1432 (float64), finest
  ;; 1440, coarsest 1444 (at most 4) (int32); row L = previous level L
  ;; of hybrid's collection rows (range counts, ranges, starts). Outputs: the stable objects' counts
  ;; by previous level and by range start (int32 × 5 each), how many (int32), the listed slots
  ;; (absolute) at the redo slots, the hidden objects not listed at 104 (int32); returns how many are listed.
  ;; Two variants of this source (fusedKernel.wat includes it twice): `budget` for the budget policy,
  ;; where $hybrid is the constant 0 and every branch on it folds away, and `budgetHybrid` for the
  ;; hybrid modes ($hybrid 1 or 2 from the frame block).
;; @if hybrid
  ;; Clears slot $s's blend (its slot copy at $b and by id) unless it is 0.
  (func $clearBlend (param $s i32) (param $b i32)
    (if (f32.ne (f32.load (local.get $b)) (f32.const 0)) (then
      (f32.store (local.get $b) (f32.const 0))
      (f32.store (i32.add (global.get $blendIdAt)
        (i32.shl (i32.load (i32.add (global.get $slotIdAt) (i32.shl (local.get $s) (i32.const 2)))) (i32.const 2))) (f32.const 0)))))
;; @endif

  (func (export "@{name}") (param $work i32) (param $start i32) (param $end i32) (result i32)
    (local $s i32) (local $fl i32) (local $x f64) (local $size f64) (local $w f64) (local $prev i32) (local $b i32)
    (local $n i32) (local $stable i32) (local $ra i32) (local $re i32) (local $sa i32) (local $c i32)
    (local $bias f64) (local $vmax f64) (local $lo i32) (local $hi i32)
    (local $hid i32) (local $hybrid i32) (local $scale f64) (local $n2 i32)
    (local $st i32) (local $bi i32) (local $wa f64) (local $we f64) (local $fb f32) (local $win i32) (local $row i32) (local $rowEnd i32)
    (local.set $bias (f64.load offset={FB_BUDGET_BIAS} (i32.const {FUSED_BLOCK})))
;; @if hybrid
    (local.set $hybrid (i32.load offset={FB_BUDGET_MODE} (i32.const {FUSED_BLOCK})))
;; @else
    (local.set $hybrid (i32.const 0))
;; @endif
    (local.set $scale (f64.load offset={FB_BUDGET_SCALE} (i32.const {FUSED_BLOCK})))
    (local.set $vmax (f64.load offset={FB_BUDGET_VMAX} (i32.const {FUSED_BLOCK})))
    (local.set $lo (i32.load offset={FB_BUDGET_LO} (i32.const {FUSED_BLOCK})))
    (local.set $hi (i32.load offset={FB_BUDGET_HI} (i32.const {FUSED_BLOCK})))
    (v128.store offset={FB_STABLE_PREV} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
    (i32.store offset={FB_STABLE_PREV + 16} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (v128.store offset={FB_STABLE_START} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
    (i32.store offset={FB_STABLE_START + 16} (i32.const {FUSED_BLOCK}) (i32.const 0))
    (if (i32.eq (local.get $hybrid) (i32.const 2)) (then ;; ($lane's and $held's counts)
      (v128.store offset={FB_LEVEL_COUNTS} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
      (i32.store offset={FB_LEVEL_COUNTS + 16} (i32.const {FUSED_BLOCK}) (i32.const 0))
      (v128.store offset={FB_HELD_COUNTS} (i32.const {FUSED_BLOCK}) (v128.const i32x4 0 0 0 0))
      (i32.store offset={FB_HELD_COUNTS + 16} (i32.const {FUSED_BLOCK}) (i32.const 0))))
;; @if hybrid
    ;; (each level's search starts at its row's first range)
    (i32.store offset={FB_RANGE_HINTS} (i32.const {FUSED_BLOCK}) (i32.const {FUSED_BLOCK + FB_ROW_RANGES}))
    (i32.store offset={FB_RANGE_HINTS + 4} (i32.const {FUSED_BLOCK}) (i32.const {FUSED_BLOCK + FB_ROW_RANGES + 384}))
    (i32.store offset={FB_RANGE_HINTS + 8} (i32.const {FUSED_BLOCK}) (i32.const {FUSED_BLOCK + FB_ROW_RANGES + 768}))
    (i32.store offset={FB_RANGE_HINTS + 12} (i32.const {FUSED_BLOCK}) (i32.const {FUSED_BLOCK + FB_ROW_RANGES + 1152}))
    (i32.store offset={FB_RANGE_HINTS + 16} (i32.const {FUSED_BLOCK}) (i32.const {FUSED_BLOCK + FB_ROW_RANGES + 1536}))
;; @endif
    (local.set $s (local.get $start))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $s) (local.get $end)))
      (local.set $fl (i32.load8_u (i32.add (global.get $flagsAt) (local.get $s))))
      (block $skip
        (br_if $skip (i32.and (local.get $fl) (i32.const 2))) ;; removed
        (local.set $b (i32.add (global.get $blendAt) (i32.shl (local.get $s) (i32.const 2))))
        (if (i32.eqz (local.get $hybrid)) (then (if (f32.ne (f32.load (local.get $b)) (f32.const 0)) (then
          (f32.store (local.get $b) (f32.const 0))
          (f32.store (i32.add (global.get $blendIdAt)
            (i32.shl (i32.load (i32.add (global.get $slotIdAt) (i32.shl (local.get $s) (i32.const 2)))) (i32.const 2))) (f32.const 0))))))
        (block $list
          (local.set $x (f64.load (i32.add (local.get $work) (i32.shl (local.get $s) (i32.const 3)))))
          (if (i32.or (i32.and (local.get $fl) (i32.const 1)) (f64.eq (local.get $x) (f64.const -1))) (then ;; hidden or culled
            (br_if $list (i32.ne (i32.load8_u (i32.add (global.get $levelsAt) (local.get $s))) (i32.const 255))) ;; (a change: listed)
            (f32.store (i32.add (global.get $sizesSAt) (i32.shl (local.get $s) (i32.const 2))) (f32.const nan))
            (local.set $hid (i32.add (local.get $hid) (i32.const 1)))
            (if (local.get $hybrid) (then
              (if (f32.ne (f32.load (local.get $b)) (f32.const 0)) (then (call $clearBlend (local.get $s) (local.get $b))))
              (i32.store8 (i32.add (global.get $nextAt) (local.get $s)) (i32.const 255))
              (i32.store8 (i32.add (global.get $fixedAt) (local.get $s)) (i32.const 2))))
            (br $skip)))
          (br_if $list (f64.ne (local.get $x) (local.get $x))) ;; invalid sphere
          (br_if $list (i32.ne (i32.load8_u (i32.add (global.get $forcedAt) (local.get $s))) (i32.const 255)))
          (local.set $prev (i32.load8_u (i32.add (global.get $levelsAt) (local.get $s))))
          (br_if $list (i32.lt_u (local.get $prev) (local.get $lo)))
          (br_if $list (i32.gt_u (local.get $prev) (local.get $hi)))
          (local.set $size (f64.mul (local.get $x) (local.get $bias)))
          (if (local.get $hybrid)
            (then (local.set $w (f64.mul (f64.mul (local.get $x) (local.get $scale)) (local.get $bias))))
            (else
              (if (f64.gt (local.get $size) (local.get $vmax)) (then (local.set $size (local.get $vmax))))
              (local.set $w (local.get $size))))
          (if (f64.gt (local.get $w) (local.get $vmax)) (then (local.set $w (local.get $vmax))))
          (if (i32.eqz (f64.ge (local.get $w) (f64.const 0))) (then (local.set $w (f64.const 0))))
          (block $miss
          (block $found
;; @if hybrid
            ;; From the range the last object of the same level lay in (neighbours share ranges, or lie
            ;; a few apart): up or down to the first range of the row whose end is ≥ w, which holds w
            ;; when its start is ≤ w. (Ranges ascend, each ending at or below the next one's start:
            ;; hybridLevelRows.ts cuts ascending pieces, test/batch/hybridLevelRows.test.ts checks it; so
            ;; this is the first range holding w, as the scan from the row's start finds it. Rows of 24
            ;; ranges: budgetKernel.ts LEVEL_KERNEL_RANGES.)
            (local.set $row (i32.add (i32.const {FUSED_BLOCK + FB_ROW_RANGES}) (i32.mul (local.get $prev) (i32.const 384))))
            (local.set $rowEnd (i32.add (local.get $row)
              (i32.shl (i32.load offset={FB_ROW_COUNTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $prev) (i32.const 2)))) (i32.const 4))))
            (local.set $ra (i32.load offset={FB_RANGE_HINTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $prev) (i32.const 2)))))
            (br_if $miss (i32.ge_u (local.get $ra) (local.get $rowEnd))) ;; (an empty row)
            (if (f64.gt (local.get $w) (f64.load (local.get $ra))) (then
              (br_if $found (f64.le (local.get $w) (f64.load offset=8 (local.get $ra))))
              (loop $up
                (local.set $ra (i32.add (local.get $ra) (i32.const 16)))
                (br_if $miss (i32.ge_u (local.get $ra) (local.get $rowEnd)))
                (br_if $up (f64.lt (f64.load offset=8 (local.get $ra)) (local.get $w))))
              (br_if $miss (f64.lt (local.get $w) (f64.load (local.get $ra))))
              (br $found)))
            ;; (w at or below this range's start: the ranges before it that end at or above w)
            (loop $down
              (if (i32.gt_u (local.get $ra) (local.get $row)) (then
                (if (f64.ge (f64.load offset=8 (i32.sub (local.get $ra) (i32.const 16))) (local.get $w)) (then
                  (local.set $ra (i32.sub (local.get $ra) (i32.const 16)))
                  (br $down))))))
            (br_if $miss (f64.lt (local.get $w) (f64.load (local.get $ra)))))
          (i32.store offset={FB_RANGE_HINTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $prev) (i32.const 2))) (local.get $ra))
          (local.set $sa (i32.add (i32.const {FUSED_BLOCK + FB_ROW_STARTS}) (i32.shr_u (i32.sub (local.get $ra) (i32.const {FUSED_BLOCK + FB_ROW_RANGES})) (i32.const 2))))
;; @else
            ;; the row's first range holding w (rows of 8 ranges)
            (local.set $ra (i32.add (i32.const {FUSED_BLOCK + FB_ROW_RANGES}) (i32.mul (local.get $prev) (i32.const 128))))
            (local.set $sa (i32.add (i32.const {FUSED_BLOCK + FB_ROW_STARTS}) (i32.mul (local.get $prev) (i32.const 32))))
            (local.set $re (i32.add (local.get $ra)
              (i32.shl (i32.load offset={FB_ROW_COUNTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $prev) (i32.const 2)))) (i32.const 4))))
            ;; (ranges ascend: budgetStable.ts fillRow — past w's place, no later one holds it)
            (loop $ranges
              (br_if $miss (i32.ge_u (local.get $ra) (local.get $re)))
              (br_if $miss (f64.lt (local.get $w) (f64.load (local.get $ra))))
              (br_if $found (f64.le (local.get $w) (f64.load offset=8 (local.get $ra)))) ;; (w ≥ its start: checked above)
              (local.set $ra (i32.add (local.get $ra) (i32.const 16)))
              (local.set $sa (i32.add (local.get $sa) (i32.const 4)))
              (br $ranges)))
;; @endif
          ;; stable: its size, its counts
          (local.set $st (i32.load (local.get $sa)))
          (if (i32.ge_u (local.get $st) (i32.const 16)) (then
            (if (i32.ge_u (local.get $st) (i32.const 128)) (then
              ;; held by the band at its level (hybridLevelRows.ts LEVEL_ROW_HELD; mode 2 with holds): $held
              ;; finishes it from its previous size, or lists it without one
              (br_if $list (i32.or (i32.ne (local.get $hybrid) (i32.const 2)) (i32.eqz (global.get $holds))))
              (br_if $list (i32.eq (call $held (local.get $s) (local.get $prev)) (i32.const 1)))
              (br $skip)))
            ;; inside blend window bi = st / 16 − 1 at its level (hybridLevelRows.ts LEVEL_ROW_WINDOW; mode 2 only:
            ;; the fused profile's thresholds are loaded): the blend is the rule's fraction at its size ($rule's operations)
            (br_if $list (i32.ne (local.get $hybrid) (i32.const 2)))
            (local.set $bi (i32.sub (i32.shr_u (local.get $st) (i32.const 4)) (i32.const 1)))
            (local.set $wa (f64.load offset={FB_THRESHOLDS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $bi) (i32.const 3)))))
            (local.set $we (f64.load offset={FB_BLEND_THRESHOLDS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $bi) (i32.const 3)))))
            (if (i32.lt_s (i32.add (local.get $bi) (i32.const 1)) (global.get $n)) (then
              (local.set $x (f64.load offset={FB_THRESHOLDS + 8} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $bi) (i32.const 3)))))
              (if (f64.gt (local.get $x) (local.get $we)) (then (local.set $we (local.get $x))))))
            (local.set $x (f64.promote_f32 (f32.demote_f64 (f64.add (f64.convert_i32_s (local.get $bi))
              (f64.promote_f32 (f32.demote_f64 (f64.div (f64.sub (local.get $size) (local.get $wa))
                (f64.promote_f32 (f32.demote_f64 (f64.sub (local.get $we) (local.get $wa)))))))))))
            (local.set $fb (f32.demote_f64 (f64.sub (local.get $x) (f64.floor (local.get $x)))))
            (if (f32.ne (f32.load (local.get $b)) (local.get $fb)) (then
              (f32.store (local.get $b) (local.get $fb))
              (f32.store (i32.add (global.get $blendIdAt)
                (i32.shl (i32.load (i32.add (global.get $slotIdAt) (i32.shl (local.get $s) (i32.const 2)))) (i32.const 2))) (local.get $fb))))
            (local.set $win (i32.add (local.get $win) (i32.const 1)))
            (local.set $st (i32.and (local.get $st) (i32.const 15))))
            (else (if (i32.and (i32.ne (local.get $hybrid) (i32.const 0)) (f32.ne (f32.load (local.get $b)) (f32.const 0))) (then ;; ($clearBlend)
              (f32.store (local.get $b) (f32.const 0))
              (f32.store (i32.add (global.get $blendIdAt)
                (i32.shl (i32.load (i32.add (global.get $slotIdAt) (i32.shl (local.get $s) (i32.const 2)))) (i32.const 2))) (f32.const 0))))))
          (f32.store (i32.add (global.get $sizesSAt) (i32.shl (local.get $s) (i32.const 2))) (f32.demote_f64 (local.get $size)))
          (if (local.get $hybrid) (then
            (i32.store8 (i32.add (global.get $nextAt) (local.get $s)) (local.get $st))
            (i32.store8 (i32.add (global.get $fixedAt) (local.get $s)) (i32.const 0))))
          (local.set $c (i32.add (i32.const {FUSED_BLOCK + FB_STABLE_PREV}) (i32.shl (local.get $prev) (i32.const 2))))
          (i32.store (local.get $c) (i32.add (i32.load (local.get $c)) (i32.const 1)))
          (local.set $c (i32.add (i32.const {FUSED_BLOCK + FB_STABLE_START}) (i32.shl (local.get $st) (i32.const 2))))
          (i32.store (local.get $c) (i32.add (i32.load (local.get $c)) (i32.const 1)))
          (local.set $stable (i32.add (local.get $stable) (i32.const 1)))
          (br $skip))
          ;; outside the rows: mode 2 decides it with the fused kernel's scalar path ($lane: held → done,
          ;; decided → the second list, else the first)
          (br_if $list (i32.ne (local.get $hybrid) (i32.const 2)))
          (local.set $c (call $lane (local.get $s) (i32.const 0) (local.get $work)))
          (br_if $list (i32.eq (local.get $c) (i32.const 1)))
          (if (i32.eqz (local.get $c)) (then
            (i32.store offset={FB_DECIDED_SLOTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $n2) (i32.const 2))) (local.get $s))
            (local.set $n2 (i32.add (local.get $n2) (i32.const 1)))))
          (br $skip))
        (i32.store offset={FB_REDO_SLOTS} (i32.add (i32.const {FUSED_BLOCK}) (i32.shl (local.get $n) (i32.const 2))) (local.get $s))
        (local.set $n (i32.add (local.get $n) (i32.const 1))))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br $next)))
    (i32.store offset={FB_STABLE} (i32.const {FUSED_BLOCK}) (local.get $stable))
    (i32.store offset={FB_DECIDED} (i32.const {FUSED_BLOCK}) (local.get $n2))
    (i32.store offset={FB_WINDOWED} (i32.const {FUSED_BLOCK}) (local.get $win))
    (i32.store offset={FB_HIDDEN} (i32.const {FUSED_BLOCK}) (local.get $hid))
    (local.get $n))
