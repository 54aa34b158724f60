/**
 * The batch engine's data layouts, written once: the per-view blocks the passes and kernels read,
 * the WebAssembly memory map and the fused kernel's frame block. The TypeScript imports these
 * constants; scripts/generate.mjs substitutes them into the WebAssembly text sources
 * (`{NAME}` or `{NAME + 8}` in a `.wat` file) before compiling, so both sides read one table.
 *
 * Contributor notes:
 * - Only `export const NAME = <number or arithmetic on earlier names>` here: the generator
 *   evaluates this file on its own (no imports).
 * - Changing a number changes the WebAssembly bytes (`npm run build:wasm`, committed) and every
 *   TypeScript reader at once (the worker threads import the same modules: drivers/threadWorker.ts).
 * - The TypeScript indexes the frame block through its `F64_*` / `I32_*` word indices (below), never
 *   through literal offsets.
 * - Per-object state codes (flags 1 hidden, 2 removed; level 255 hidden / no forced level; marks
 *   0 adjustable, 1 fixed, 2 not drawn) stay literals inside the kernels' loops (an imported
 *   constant meeting computed doubles makes TurboFan box them); core/frameState.ts documents them.
 *
 * @module
 */

// ---- The clustered passes' view block (`ClusterViews.block`, float64 slots per view) ----

/** Float64 slots per view in `ClusterViews.block`. */
export const VB = 32;
/** View block slots: the 6 planes `(a, b, c, d)` from 0 (24 values), the eye `(x, y, z)` from 24. */
export const VB_PLANES = 0, VB_EYE = 24;
/** Values of the 6 planes `(a, b, c, d)` (a view block's, a WebAssembly view block's, `Frustum.planes`). */
export const PLANE_VALUES = 24;
/** View block slots: window height, window area, pixel scale (viewport height), perspective (0/1). */
export const VB_WINDOW_HEIGHT = 27, VB_WINDOW_AREA = 28, VB_PIXEL_SCALE = 29, VB_PERSPECTIVE = 30;

// ---- The JavaScript metric kernels' view parameters (kernels/metricKernels.ts) ----

/**
 * Per-view scalars shared by every JavaScript metric kernel (a `Float64Array` of
 * {@link VIEW_PARAMS} slots): eye `[0..3)`, window min `[3..5)`, window max `[5..7)`, pixel scale `[7]`.
 */
export const VIEW_EYE = 0, VIEW_WINDOW_MIN = 3, VIEW_WINDOW_MAX = 5, VIEW_SCALE = 7;
/** Number of slots of a view-parameter array. */
export const VIEW_PARAMS = 8;

// ---- WebAssembly memory (bytes; wasm/heightKernel.wat, wasm/fusedKernel.wat) ----

/** Views the WebAssembly kernels can take (one parameter block of {@link WASM_VIEW_BYTES} each). */
export const WASM_MAX_VIEWS = 64;
/** Bytes per view of the WebAssembly view parameters, which start at byte 0. */
export const WASM_VIEW_BYTES = 256;
/**
 * Float64 slots per view of a WebAssembly view block (`ClusterIndex.wasmParams`): planes from
 * 0, eye from 24, window height, pixel scale, window area, perspective (0/1).
 */
export const WV = WASM_VIEW_BYTES / 8;
/** Float64 slots of a WebAssembly view block, from the view's `v * WV`. */
export const WV_PLANES = 0, WV_EYE = 24, WV_WINDOW_HEIGHT = 27, WV_PIXEL_SCALE = 28, WV_WINDOW_AREA = 29, WV_PERSPECTIVE = 30;
/** Byte offset of the fused kernel's float32 plane splats ({@link SPLAT_BYTES} per view). */
export const SPLATS = 16384;
/** Bytes per view of the splats: 24 plane vectors, then the largest |normal component| and |offset|. */
export const SPLAT_BYTES = 512, SPLAT_NMAX = 384, SPLAT_DMAX = 400;
/** Byte offset of the fused kernel's frame block (the `FB_*` offsets below are from here). */
export const FUSED_BLOCK = SPLATS + WASM_MAX_VIEWS * SPLAT_BYTES;
/** Byte offset of the spheres in a kernel instance's memory (then clusters.ts's per-slot arrays). */
export const SP_OFFSET = 65536;

// ---- The fused kernel's frame block (bytes from FUSED_BLOCK) ----

/** Inputs: thresholds t′ and blend thresholds b′ (4 float64 each, negated for distance, padded with −∞), bias, culled marker. */
export const FB_THRESHOLDS = 0, FB_BLEND_THRESHOLDS = 32, FB_BIAS = 64, FB_MARKER = 72;
/** Inputs (int32): threshold count, blend count, lowest and highest allowed level, descending (0/1). */
export const FB_N = 80, FB_NB = 84, FB_LO = 88, FB_HI = 92, FB_DESCENDING = 96;
/** Outputs (int32) per call: a fraction or held slot (uFrac), hidden, redo count. */
export const FB_UFRAC = 100, FB_HIDDEN = 104, FB_REDO_COUNT = 108;
/** Profile counters (int32, cumulative): lanes re-checked in float64, lanes on the scalar path, slots redone in JavaScript. */
export const FB_RECHECKED = 112, FB_EXACT = 116, FB_REDONE = 120;
/** Output (int32) per call: slots held by hysteresis (finished by the kernel). */
export const FB_HELD = 124;
/** Per-level counts (int32 × 8), then the redo slots (int32, relative to the call's start; up to 68). */
export const FB_LEVEL_COUNTS = 128, FB_REDO_SLOTS = 160;
/** Hysteresis h (float64), holds enabled (int32), slots run (int32, cumulative). */
export const FB_HYSTERESIS = 1024, FB_HOLDS = 1032, FB_SLOTS_RUN = 1036;
/** Hybrid's first pass (int32): next mode, the kernel writes `next`/`fixed`, slots whose preferred level moved (per call), sizes in slot order. */
export const FB_NEXT_MODE = 1296, FB_NEXT_OUT = 1300, FB_MOVED = 1304, FB_SLOT_SIZES = 1308;
/** Held slots per level (int32 × 5). */
export const FB_HELD_COUNTS = 1312;
/** Owe the changed blends of steady slots (int32 0/1), and how many slots are owed (int32, kept across calls; outputs/owedBlends.ts). */
export const FB_OWE_BLENDS = 1332, FB_OWED_COUNT = 1336;
/** Hybrid's collection (passes/fusedCollect.ts): switch, quality floor (int32), largest diameter, pixel scale (float64). */
export const FB_COLLECT = 1344, FB_COLLECT_FLOOR = 1348, FB_COLLECT_VMAX = 1352, FB_COLLECT_SCALE = 1360;
/** Hybrid's collection, per call (int32): settled, stable counts by previous level (× 5), by range start (× 5), all stable. */
export const FB_SETTLED = 1368, FB_STABLE_PREV = 1372, FB_STABLE_START = 1392, FB_STABLE = 1412;
/**
 * Hybrid's first pass (passes/fusedPass.ts `fusedNextCluster`): the quality floor F (int32, in; 255:
 * not counted) and, per call, the lanes that a frame below the minimum would touch in finalize (int32):
 * a level other than max(preferred, F), a blend to clear, or the scalar path.
 */
export const FB_AT_FLOOR = 1416, FB_TOUCHED = 1420;
/** The budget policy's classification (passes/budgetKernel.ts): bias, largest diameter (float64), finest and coarsest level (int32). */
export const FB_BUDGET_BIAS = 1424, FB_BUDGET_VMAX = 1432, FB_BUDGET_LO = 1440, FB_BUDGET_HI = 1444;
/** The same classification for hybrid's binding frames (passes/hybridBinding.ts): mode (int32: 0 budget, 1 hybrid, 2 hybrid with the fused profile loaded), the metric's factor to pixels (float64). */
export const FB_BUDGET_MODE = 1448, FB_BUDGET_SCALE = 1456;
/** Mode 2: how many objects $lane decided in the last call (int32), and their slots (int32 × 64, after the listed ones). */
export const FB_DECIDED = 1452, FB_DECIDED_SLOTS = FB_REDO_SLOTS + 256;
/** Hybrid modes: how many of the last call's stable objects lie in a blend window (int32: they keep the rule's blend). */
export const FB_WINDOWED = 1464;
/** Hybrid modes, scratch of one call: per previous level (int32 × 5), the byte address of the range its last object lay in (the next search starts there). */
export const FB_RANGE_HINTS = 1468;
/** Hybrid's collection rows: the lanes' rows (int32 × 4 scratch), range counts per row (int32), ranges (float64 pairs, 8 per row), their start levels (int32, 8 per row); the budget kernel's hybrid modes lay 5 rows of 24 there. */
export const FB_LANE_ROWS = 2032, FB_ROW_COUNTS = 2048, FB_ROW_RANGES = 2176, FB_ROW_STARTS = 5376;
/** Bytes of the frame block the TypeScript maps (float64 × 1024). */
export const FB_BYTES = 8192;

/** Int32 indices of the frame block words {@link FB_OWE_BLENDS} and {@link FB_OWED_COUNT}. */
export const OWE_BLENDS = FB_OWE_BLENDS / 4, OWED_BLEND_COUNT = FB_OWED_COUNT / 4;

// ---- The same frame block as the TypeScript indexes it (`FusedKernel.f64` / `.i32` start at FUSED_BLOCK) ----

/** Float64 indices: thresholds, blend thresholds, bias, culled marker, hysteresis; the collection's largest diameter, pixel scale, row ranges. */
export const F64_THRESHOLDS = FB_THRESHOLDS / 8, F64_BLEND_THRESHOLDS = FB_BLEND_THRESHOLDS / 8, F64_BIAS = FB_BIAS / 8, F64_MARKER = FB_MARKER / 8;
export const F64_HYSTERESIS = FB_HYSTERESIS / 8, F64_COLLECT_VMAX = FB_COLLECT_VMAX / 8, F64_COLLECT_SCALE = FB_COLLECT_SCALE / 8, F64_ROW_RANGES = FB_ROW_RANGES / 8;
/** Int32 indices of the profile inputs and the per-call outputs and counters. */
export const I32_N = FB_N / 4, I32_NB = FB_NB / 4, I32_LO = FB_LO / 4, I32_HI = FB_HI / 4, I32_DESCENDING = FB_DESCENDING / 4;
export const I32_UFRAC = FB_UFRAC / 4, I32_HIDDEN = FB_HIDDEN / 4, I32_RECHECKED = FB_RECHECKED / 4, I32_EXACT = FB_EXACT / 4, I32_REDONE = FB_REDONE / 4;
export const I32_HELD = FB_HELD / 4, I32_LEVEL_COUNTS = FB_LEVEL_COUNTS / 4, I32_REDO_SLOTS = FB_REDO_SLOTS / 4, I32_HOLDS = FB_HOLDS / 4, I32_SLOTS_RUN = FB_SLOTS_RUN / 4;
export const I32_NEXT_MODE = FB_NEXT_MODE / 4, I32_NEXT_OUT = FB_NEXT_OUT / 4, I32_MOVED = FB_MOVED / 4, I32_SLOT_SIZES = FB_SLOT_SIZES / 4, I32_HELD_COUNTS = FB_HELD_COUNTS / 4;
/** Int32 indices of hybrid's collection (passes/fusedCollect.ts). */
export const I32_COLLECT = FB_COLLECT / 4, I32_COLLECT_FLOOR = FB_COLLECT_FLOOR / 4, I32_SETTLED = FB_SETTLED / 4, I32_STABLE_PREV = FB_STABLE_PREV / 4;
export const I32_AT_FLOOR = FB_AT_FLOOR / 4, I32_TOUCHED = FB_TOUCHED / 4;
export const I32_STABLE_START = FB_STABLE_START / 4, I32_STABLE = FB_STABLE / 4, I32_ROW_COUNTS = FB_ROW_COUNTS / 4, I32_ROW_STARTS = FB_ROW_STARTS / 4;
/** Float64 and int32 indices of the budget policy's classification inputs (passes/budgetKernel.ts). */
export const F64_BUDGET_BIAS = FB_BUDGET_BIAS / 8, F64_BUDGET_VMAX = FB_BUDGET_VMAX / 8;
export const I32_BUDGET_LO = FB_BUDGET_LO / 4, I32_BUDGET_HI = FB_BUDGET_HI / 4, I32_BUDGET_MODE = FB_BUDGET_MODE / 4;
export const F64_BUDGET_SCALE = FB_BUDGET_SCALE / 8, I32_DECIDED = FB_DECIDED / 4, I32_DECIDED_SLOTS = FB_DECIDED_SLOTS / 4, I32_WINDOWED = FB_WINDOWED / 4;
