/**
 * What OpenUSD's two heuristic queries (distance and screen size) share besides their geometry:
 * the options `thresholds`, `blendThresholds`, `semantics`, `domain` and `input`, read and checked
 * in one place, and `computeLod` / `select` over the value each query measures.
 *
 * @module
 */
import type { InputMode } from '../metrics/frustum.js';
import type { Mat4Like } from '../metrics/vector.js';
import { writeLod, type HysteresisSemantics } from './lodIndex.js';
import { checkSemanticsAndDomain, readHeuristicThresholds, type ThresholdOrder } from './thresholds.js';

/** Result of {@link ScreenSizeHeuristic.select} and {@link DistanceHeuristic.select}. @category Heuristics */
export interface LodSelection {
  /** Fractional LOD index (OpenUSD's `float` result). */
  lod: number;
  /** The size (or distance) used, after hysteresis: pass it back as `prev…` next frame. */
  size: number;
}

/** The options every heuristic query takes, after the defaults. @internal */
export interface HeuristicQueryOptions {
  thresholds?: ArrayLike<number>;
  blendThresholds?: ArrayLike<number>;
  semantics: HysteresisSemantics;
  domain: string;
  input: InputMode;
}

/**
 * Where a query's `measure` leaves its value (after hysteresis) and where `computeLod` / `select`
 * write the index: a double returned from a call V8 does not inline is boxed on the heap.
 * @internal
 */
export const queryResult = new Float64Array(1);

/**
 * The common part of {@link DistanceHeuristic} and {@link ScreenSizeHeuristic}: checks `input`,
 * `semantics` and `domain`, reads the thresholds in `order` (validated, or as OpenUSD takes them
 * under `input: 'openusd'`) and maps a measured value to OpenUSD's fractional LOD index.
 * `V` is what the query measures from (a frustum, or a viewpoint).
 * @category Heuristics
 */
export abstract class HeuristicQuery<V> {
  readonly thresholds: Float32Array;
  readonly blendThresholds: Float32Array;
  readonly semantics: HysteresisSemantics;
  readonly domain: string;
  readonly input: InputMode;
  /** `input === 'openusd'`: thresholds in any order, read with OpenUSD's binary searches. */
  protected readonly unchecked: boolean;
  /** Sizes descend, distances ascend. */
  private readonly descending: boolean;

  protected constructor(o: HeuristicQueryOptions, order: ThresholdOrder, owner: string) {
    if (o.input !== 'strict' && o.input !== 'openusd') throw new RangeError(`${owner}: input must be 'strict' or 'openusd', got ${String(o.input)}`);
    checkSemanticsAndDomain(o, owner);
    const unchecked = o.input === 'openusd';
    const t = readHeuristicThresholds(o, unchecked, order, owner);
    this.input = o.input;
    this.unchecked = unchecked;
    this.descending = order === 'descending';
    this.thresholds = t.thresholds;
    this.blendThresholds = t.blendThresholds;
    this.semantics = o.semantics;
    this.domain = o.domain;
  }

  /** Leaves the measured value (after hysteresis against `prev` when given) in `queryResult[0]` (a module scratch, not exported from the package). */
  protected abstract measure(view: V, transform: Mat4Like | undefined, prev: number | undefined, hysteresis: number): void;

  /** Fractional LOD index for a measured value, exactly as OpenUSD's `ComputeLOD(double)`; in `[0, thresholds.length]`. */
  computeLod(value: number): number {
    writeLod(this.thresholds, this.blendThresholds, value, this.descending, this.unchecked, queryResult, 0);
    return queryResult[0];
  }

  /**
   * The measured value (with hysteresis against `prev`) and its LOD in one call, OpenUSD's
   * `ComputeLOD` overload with `sizeOut`; `size` holds the value used. Pass `out` to reuse one
   * result object across calls.
   */
  select(view: V, transform?: Mat4Like, prev?: number, hysteresis = 0, out: LodSelection = { lod: 0, size: 0 }): LodSelection {
    this.measure(view, transform, prev, hysteresis);
    const value = queryResult[0];
    out.size = value;
    writeLod(this.thresholds, this.blendThresholds, value, this.descending, this.unchecked, queryResult, 0);
    out.lod = queryResult[0];
    return out;
  }
}
