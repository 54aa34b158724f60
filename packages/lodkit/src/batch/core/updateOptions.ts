/**
 * The public types of `LodSet.update`: its views, options (with their defaults), the frame-time
 * budget, the per-frame stats objects, and the helper that reads the `levels` / `blend` outputs for a
 * blending renderer. Kept apart from lodSet.ts so the batch modules that need only the types
 * (validation, cluster pass, drivers) do not import the class; lodSet.ts re-exports all of them.
 *
 * @module
 */
import type { Frustum } from '../../metrics/frustum.js';
import type { FrameTimeGovernor } from '../../policies/frameTimeGovernor.js';

/**
 * What `LodSet.update` reads of a view's frustum: its planes, eye, window and projection. A lodkit
 * {@link Frustum} is one; so is the three.js adapter's `CameraView`, built straight from a camera's
 * matrices (what `LodManager` and `InstancedLOD` pass: no `Frustum` in their bundles).
 * @category Batch
 */
export interface LodViewFrustum {
  /** Six inward planes `(nx, ny, nz, w)` in `FrustumPlane` order: 24 values. */
  readonly planes: Float64Array;
  /** Eye position (world): 3 values. */
  readonly position: Float64Array;
  /** Window corner `(left, bottom)` on the reference plane (depth 1 in perspective, world units orthographic). */
  readonly windowMin: Float64Array;
  /** Window corner `(right, top)`. */
  readonly windowMax: Float64Array;
  /** True for a perspective projection. */
  readonly isPerspective: boolean;
}

/**
 * One view of a frame: a frustum, plus the viewport height in pixels for the `'pixels'` metric.
 * `LodSet.update` takes any {@link LodViewFrustum} (`LodView<LodViewFrustum>`); the type parameter
 * says which one a view holds — a {@link Frustum} unless given.
 * @category Batch
 */
export interface LodView<F extends LodViewFrustum = Frustum> {
  frustum: F;
  /** Viewport height in pixels; required when any profile uses the `'pixels'` metric. */
  viewportHeight?: number;
}

/** A view of any frustum: what the engine's modules take. @internal */
export type EngineView = LodView<LodViewFrustum>;

/** The name of a level-selection policy. @category Batch */
export type LodPolicyName = 'thresholds' | 'rankQuota' | 'budget' | 'hybrid';

/**
 * A policy other than thresholds as an importable object (`rankQuotaPolicy`, `budgetPolicy`,
 * `hybridPolicy`): an app bundles only the policies it imports. Pass it as `policy`, or register
 * it once with `registerPolicies` so that its name works as a string too. @category Batch
 */
export interface LodPolicyModule {
  readonly name: Exclude<LodPolicyName, 'thresholds'>;
  /** @internal What runs the policy's frames (batch/policyModules.ts); opaque outside the engine. */
  readonly engine: object;
}

/**
 * Level-selection policy of {@link LodSet.update}: `'thresholds'` (always there), a policy object,
 * or the name of a registered one (`registerPolicies`). @category Batch
 */
export type LodPolicy = LodPolicyName | LodPolicyModule;

/** Options of {@link LodSet.update}. @category Batch */
export interface LodUpdateOptions {
  policy: LodPolicy;
  /** rankQuota: objects per level, closest first (MotoGP: `[4, 6]`). */
  quotas?: ArrayLike<number>;
  /**
   * budget / hybrid: maximum total cost (required), or a frame-time target `{ frameMs }` turned into
   * a cost budget by the set's {@link FrameTimeGovernor} (feed it with {@link LodSet.reportFrameTime});
   * thresholds / rankQuota: only reported in `budgetMet`.
   */
  budget?: number | FrameTimeBudget;
  /** budget / hybrid: screen-space error (px) below which a level is as good as full detail. Default 1. */
  tolerance?: number;
  /**
   * budget / hybrid: relative stability band `h` in [0, 1). An object keeps its previous level
   * unless a change improves its screen-space loss + λ·cost by more than `h × max(its SSE, tolerance)`
   * px and, when the budget binds, by more than `h × λ × |Δcost|` (λ: last frame's price, risen by at most `(1 + h) / (1 − h)` a frame). Default 0.4.
   * The band damps changes while the camera moves: on frames whose inputs repeat the last one's (the
   * same views, budget and options, no edit of the set) it narrows to 0 within 8 frames, so a still
   * picture reaches the selection without history.
   */
  stabilityBand?: number;
  /**
   * budget: when the thresholds' selection fits the budget, draw the budget's own least-error
   * selection instead — the cheapest one its error model (`errors`, `tolerance`) sees no loss in,
   * which may be coarser than the thresholds' where that model says they over-draw. Default false:
   * a budget is a cap, and while the thresholds' selection fits, `budget` draws it (as `hybrid`).
   */
  trimOverdraw?: boolean;
  /** Multiplies screen sizes and divides distances (Unity's lodBias). Default 1. */
  bias?: number;
  /** Finest level allowed. Default 0. */
  minLevel?: number;
  /** Coarsest level allowed, clamped per profile. Default 255. */
  maxLevel?: number;
  /**
   * Thresholds / hybrid: relative band `h` in [0, 1). A level change from `Lp` happens only when
   * neither `size·(1+h)` nor `size·(1−h)` (nor anything between) still maps to `Lp`. Default 0.
   */
  hysteresis?: number;
  /** Minimum frames between two level changes of one object (hidden/invalid frames reset it). Default 0. */
  minFramesBetweenChanges?: number;
  /** Objects wholly outside every view are hidden (`HIDDEN_LEVEL`, cost 0). Default true. */
  cull?: boolean;
  /**
   * Use the spatial clusters. Thresholds: cull or skip whole clusters, per-object work only where a
   * level may change. rankQuota, budget, hybrid: clusters wholly outside every view are hidden whole,
   * and the selections are incremental across frames (objects near last frame's cuts, chains only
   * for objects that may change level). `false` runs
   * the per-object reference path over every object; the levels, blend, changed set and stats are
   * the same either way. Default true.
   */
  clusters?: boolean;
  /**
   * Thresholds and hybrid policies: compute `sizes` for every drawn object every frame. By default
   * an object in a cluster skipped as a whole keeps its size from the last frame it was evaluated
   * (see `LodSet.sizes`). Default false.
   */
  exactSizes?: boolean;
}

/** A frame-time target for the budget policies (see {@link FrameTimeGovernor}). @category Batch */
export interface FrameTimeBudget {
  /** Target frame time, ms (16.7 for 60 fps). */
  frameMs: number;
  /** Controller gain, (0, 1]. Default 0.5. */
  gain?: number;
}

/** Stats of one {@link LodSet.update}; the same object is returned (and overwritten) every frame. @category Batch */
export interface LodFrameStats {
  /** Sum of `costOf(profile, level)` over drawn objects. */
  totalCost: number;
  /** Drawn objects per level (index = level); length = the largest level count of any profile. */
  levelCounts: Uint32Array;
  /** Objects whose level changed this frame (== `changedCount`). */
  changes: number;
  /** True when there is no budget or `totalCost ≤ budget`. */
  budgetMet: boolean;
  /** Cost with every drawn, adjustable object at its coarsest allowed level (hybrid: its quality floor); forced/held/invalid objects at their level. */
  minimumCost: number;
  /** Objects with a NaN/±∞ coordinate or radius, or a negative radius: drawn at their coarsest allowed level. */
  invalid: number;
  /** Objects hidden by `setHidden` or culled by every view. */
  hidden: number;
}

/**
 * What the last update did with the spatial clusters (thresholds policy; all zero on the per-object
 * path): the work a frame saved, for profiling. The same object is overwritten every frame.
 * @category Batch
 */
export interface LodClusterStats {
  /** Clusters in the set. */
  clusters: number;
  /** Clusters wholly outside every view: hidden without a per-object metric. */
  culled: number;
  /** Clusters whose objects provably kept their level: no per-object work. */
  skipped: number;
  /** Objects that ran the per-object kernels. */
  evaluated: number;
}

/**
 * Worker-thread mode (`LodSet.setThreads`): what the last update did with the threads. Clustered
 * thresholds frames with at most 16 views run threaded or on the calling thread alone, as the
 * set's timing of both modes decides; every other frame runs on the calling thread.
 * @category Batch
 */
export interface LodThreadStats {
  /** The last update ran over the worker threads. */
  threaded: boolean;
  /** Chunks it was cut into: of clusters, or of ids with `clusters: false` (0 when not threaded). */
  chunks: number;
  /** How many of them the calling thread did; the workers did the rest. */
  callingThreadChunks: number;
}

/** Defaults of {@link LodUpdateOptions}. @category Batch */
export const LOD_UPDATE_DEFAULTS = {
  bias: 1, minLevel: 0, maxLevel: 255, hysteresis: 0, minFramesBetweenChanges: 0, cull: true, clusters: true, exactSizes: false,
} as const;


/**
 * For a blending renderer: the lower level of the pair to draw, given `levels[id]` and `blend[id]`
 * (`blend > 0` means draw `lower` with weight `1 − blend` and `lower + 1` with weight `blend`).
 * @example
 * ```ts
 * const lower = blendLowerLevel(set.levels[id], set.blend[id]);
 * ```
 * @category Batch
 */
export function blendLowerLevel(level: number, blend: number): number {
  return blend >= 0.5 ? level - 1 : level;
}
