;; Part of fusedKernel.wat (scripts/build-wasm.mjs puts it in place of its `@include` line):
;; the module's globals — where the per-object arrays are, the frame's profile and modes.
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
  ;; Or, when $oweBlends (frame block 1332, read by `profile`; thresholds frames with sizes in slot
  ;; order): a steady slot's changed blend goes to the slot copy only, the slot is marked in the
  ;; slot-ordered bytes at $owedAt and listed once at $owedListAt (count: int32 at 1336 of the frame
  ;; block, kept across calls); owedBlends.ts copies the listed slots to their ids when observed.
  (global $oweBlends (mut i32) (i32.const 0))
  (global $owedAt (mut i32) (i32.const 0))
  (global $owedListAt (mut i32) (i32.const 0))
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
  ;; hybrid's collection in its first pass ($collect, frame block 1344; $collect4): the quality
  ;; floor (1348), the largest projected diameter (1352), the metric's pixel scale (1360); the
  ;; stable lanes' counts by previous level ($cF) and by range start ($cB), and how many
  ;; hybrid's first pass: the quality floor for the count of lanes finalize below the minimum would
  ;; touch (frame block FB_AT_FLOOR; 255: not counted)
  (global $afloor (mut i32) (i32.const 255))
  (global $collect (mut i32) (i32.const 0))
  (global $cfloor (mut i32) (i32.const 0))
  (global $cvmax (mut f64) (f64.const 0))
  (global $cscale (mut f64) (f64.const 0))
  (global $cF0 (mut v128) (v128.const i64x2 0 0))
  (global $cF1 (mut v128) (v128.const i64x2 0 0))
  (global $cF2 (mut v128) (v128.const i64x2 0 0))
  (global $cF3 (mut v128) (v128.const i64x2 0 0))
  (global $cF4 (mut v128) (v128.const i64x2 0 0))
  (global $cB0 (mut v128) (v128.const i64x2 0 0))
  (global $cB1 (mut v128) (v128.const i64x2 0 0))
  (global $cB2 (mut v128) (v128.const i64x2 0 0))
  (global $cB3 (mut v128) (v128.const i64x2 0 0))
  (global $cB4 (mut v128) (v128.const i64x2 0 0))
  (global $cStable (mut i32) (i32.const 0))
  ;; the last stable range a lane hit: its row (−1: none since the profile was loaded), bounds, start
  (global $lastRow (mut i32) (i32.const -1))
  (global $lastLo (mut f64) (f64.const 0))
  (global $lastHi (mut f64) (f64.const 0))
  (global $lastStart (mut i32) (i32.const 0))
  ;; $rule4's clamped values (lanes 0–1, 2–3)
  (global $ruleL (mut v128) (v128.const i64x2 0 0))
  (global $ruleH (mut v128) (v128.const i64x2 0 0))
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
