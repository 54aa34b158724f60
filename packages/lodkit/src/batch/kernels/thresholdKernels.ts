/**
 * The threshold decision kernels: metric value → bias → OpenUSD fractional LOD → min/max clamp →
 * hysteresis → integer level + blend, with the changed-id list and the frame stats, for a range of
 * objects. One variant for descending (screen) metrics and one for ascending (distance) metrics.
 *
 * Contributor notes:
 * - `levels[i]` is USD's non-blending choice `round(index)` (half up); `blend[i]` is the fractional
 *   part `index − floor(index)`. A blending renderer draws `lower = blend ≥ 0.5 ? level − 1 : level`
 *   and `lower + 1` with weight `blend` (see `blendLowerLevel`).
 * - Hysteresis is a relative band `h` around the threshold structure, tested in level space: when
 *   the level would change from the previous one `Lp`, the kernel also evaluates the sizes
 *   `v·(1+h)` and `v·(1−h)`; if `Lp` lies between their two levels the object keeps `Lp` and its
 *   previous size. So a size oscillating inside `(t/(1+h), t/(1−h))` around a threshold `t` never
 *   flips the level. The extra evaluations happen only when the level would change (rare per frame).
 * - `minFramesBetweenChanges` holds the previous level the same way while
 *   `frame − lastChange < minFrames`. Neither rule applies after a hidden or invalid frame.
 * - Inside the loops, flags, marks and sentinels are written as literals (1 hidden, 2 removed, 255
 *   hidden level / no forced level; marks 0 adjustable, 1 fixed, 2 not drawn — see frameState.ts):
 *   an imported constant merging with computed doubles makes TurboFan box values (allocation).
 * - The OpenUSD index rule (`computeLodDescending` / `computeLodAscending` in heuristics/lodIndex.ts,
 *   the reference) is inlined in the decision loops with offsets into the flat profile arrays: the
 *   reference takes whole arrays (sub-arrays would allocate per call) and a call per object would box
 *   its doubles. test/batch/generatedKernels.test.ts checks every variant against it.
 * - The functions are generated (thresholdKernels.generated.ts) from the one template of the rule,
 *   scripts/templates/decide.template.ts, with the mapped, single and next variants: edit the
 *   template and run `npm run generate` (scripts/generate.mjs), never the generated file.
 *
 * @module
 */
export { decideAscending, decideDescending } from './thresholdKernels.generated.js';
