/**
 * usdLod's selection rules as plain data: which LOD item an LOD root shows, without a USD stage.
 *
 * A pipeline reads the USD data once (any reader: an exporter's JSON, a USD parser, hand-written
 * tables) into {@link UsdLodRootData}, compiles it with {@link compileUsdLodRoot} at load time, and
 * asks the compiled root for a decision every frame.
 *
 * Contributor notes — the rules, learned from OpenUSD 26.08's `pxr/usd/usdLod` (schema.usda,
 * overrideAPI.cpp, the query classes and testenv/testUsdLodGetLod.cpp, whose GetLod this composes):
 * - Override first (`UsdLodOverrideAPI::ComputeLODOverride`): walk from the root prim up through its
 *   namespace ancestors (not the pseudo-root). A prim counts only when the API is applied and
 *   `lod:override:mode` is AUTHORED; `inherited` means "keep walking"; any other authored token ends
 *   the walk and is the answer, `noOverride` included (so a `noOverride` below a `noLOD` wins).
 *   `indexedLOD` reads `lod:override:index` (float, schema default 0); a failed read is treated as
 *   `inherited` and the walk goes on. No answer on the whole path = `noOverride`.
 * - GetLod: `indexedLOD` returns the index, `noLOD`/`allLOD` their markers, any other token but
 *   `noOverride` is invalid. Then the `lod:heuristics` targets in relationship order: a target
 *   whose `lod:domain` cannot be read (it has no schema default) or differs from the renderer's
 *   domain is skipped, and so is a prim of a type the renderer does not know; the first distance or
 *   screen-size heuristic of the domain decides. Last, `lod:default:index` (int, schema default 0);
 *   if even that cannot be read the result is invalid.
 * - Schema defaults: screen size `extent` = [(−1,−1,−1), (1,1,1)] as float3, `projectionMethod` =
 *   `projectedSphere`, thresholds and blendThresholds empty; distance `center` = (0,0,0) as point3f
 *   and no extent. Both take the extent of the FIRST `boundingVolume` target that is a Boundable
 *   with a computable extent (float3, possibly empty); for the distance heuristic that is the only
 *   source of an extent.
 *
 * @module
 */
import type { Frustum, InputMode } from '../metrics/frustum.js';
import type { Mat4Like, Vec3Like } from '../metrics/vector.js';
import { DistanceHeuristic } from './distanceHeuristic.js';
import type { Extent } from './extent.js';
import type { HysteresisSemantics } from './lodIndex.js';
import type { LodSelection } from './heuristicQuery.js';
import { ScreenSizeHeuristic, type ScreenSizeProjection } from './screenSizeHeuristic.js';

/** usdLod's predefined `lod:domain` tokens; other (prefixed, custom) domains are allowed. @category USD LOD */
export const USD_LOD_DOMAINS = { imaging: 'imaging', audio: 'audio', physics: 'physics' } as const;

/** The tokens `lod:override:mode` allows. @category USD LOD */
export type UsdLodOverrideMode = 'inherited' | 'noOverride' | 'indexedLOD' | 'noLOD' | 'allLOD';

/**
 * One prim's `UsdLodOverrideAPI` opinion. Leave the prim out (or `undefined`) when the API is not
 * applied. `mode` is the AUTHORED token (`undefined` = not authored; an unknown token is kept and
 * makes the decision invalid, as in OpenUSD). `index`: `undefined` = not authored (schema default
 * 0); `null` or a non-number = a failed read (treated as `inherited`).
 * @category USD LOD
 */
export interface UsdLodOverrideData {
  mode?: string;
  index?: number | null;
}

/** A `boundingVolume` target: its extent, or `null` when it is not a Boundable with a computable extent. @category USD LOD */
export type UsdLodBoundingVolume = Extent | null;

/** A `LODDistanceHeuristic` prim. @category USD LOD */
export interface UsdLodDistanceHeuristicData {
  type: 'LODDistanceHeuristic';
  /** Prim path, for messages. */
  path?: string;
  /** `lod:domain`; `undefined` = not authored (the heuristic is never chosen). */
  domain?: string;
  /** `center` (point3f). Default (0, 0, 0). */
  center?: Vec3Like;
  /** `boundingVolume` targets in order; the first with an extent gives the extent. */
  boundingVolume?: readonly UsdLodBoundingVolume[];
  thresholds?: ArrayLike<number>;
  blendThresholds?: ArrayLike<number>;
}

/** A `LODScreenSizeHeuristic` prim. @category USD LOD */
export interface UsdLodScreenSizeHeuristicData {
  type: 'LODScreenSizeHeuristic';
  path?: string;
  domain?: string;
  /** `extent` (float3[2]). Default ±1. */
  extent?: Extent;
  boundingVolume?: readonly UsdLodBoundingVolume[];
  /** `projectionMethod` token. Default `projectedSphere`; OpenUSD measures an unknown token as `projectedExtent`. */
  projectionMethod?: string;
  thresholds?: ArrayLike<number>;
  blendThresholds?: ArrayLike<number>;
}

/** Any other `lod:heuristics` target (a Scope, a heuristic type this renderer does not know…). @category USD LOD */
export interface UsdLodOtherTargetData {
  type: string;
  path?: string;
  domain?: string;
}

/** A `lod:heuristics` target. @category USD LOD */
export type UsdLodHeuristicData = UsdLodDistanceHeuristicData | UsdLodScreenSizeHeuristicData | UsdLodOtherTargetData;

/** A prim with `UsdLodRootAPI`: its LOD items (children, in namespace order) and its LOD opinions. @category USD LOD */
export interface UsdLodRootData {
  /** Prim path, e.g. `/World/Tree`; the override walk starts here. */
  path: string;
  /** Names of the LOD item children in namespace order: item i is LOD index i. */
  items?: readonly string[];
  /** `lod:default:index`: `undefined` = not authored (schema default 0); `null` or a non-integer = a failed read. */
  defaultIndex?: number | null;
  /** `lod:heuristics` targets in relationship order. */
  heuristics?: readonly UsdLodHeuristicData[];
}

/** How {@link CompiledUsdLodRoot.select} decided. @category USD LOD */
export type UsdLodDecision = 'indexedLOD' | 'noLOD' | 'allLOD' | 'heuristic' | 'default' | 'invalid';

/** Result of {@link CompiledUsdLodRoot.select}. @category USD LOD */
export interface UsdLodSelection {
  decision: UsdLodDecision;
  /** The LOD index (fractional when blending or overridden so); NaN for `noLOD`, `allLOD` and `invalid`. */
  lod: number;
  /** Index into `heuristics` of the heuristic that decided, else −1. */
  heuristic: number;
  /** The screen size or distance the heuristic used (after hysteresis): pass it back as `prev` next frame. NaN when no heuristic decided. */
  value: number;
}

/** Options for {@link compileUsdLodRoot}. @category USD LOD */
export interface UsdLodCompileOptions {
  /** The renderer's domain. Default `'imaging'`. */
  domain?: string;
  /**
   * `UsdLodOverrideAPI` opinions by prim path (a `Map` or a plain object). The walk reads the root's
   * path and each ancestor's, e.g. `/World/Tree`, then `/World`.
   */
  overrides?: ReadonlyMap<string, UsdLodOverrideData> | Readonly<Record<string, UsdLodOverrideData>>;
  /** Semantics of the heuristics built. Default `'openusd'`: the numbers OpenUSD's code computes. */
  semantics?: HysteresisSemantics;
  /**
   * `'strict'` (default) rejects heuristic data OpenUSD would still evaluate (unsorted thresholds,
   * extra blend thresholds) with an error naming the target; `'openusd'` evaluates it as OpenUSD does.
   */
  input?: InputMode;
}

const USD_LOD_COMPILE_DEFAULTS = { domain: 'imaging', semantics: 'openusd' as HysteresisSemantics, input: 'strict' as InputMode };

/** The result of {@link computeUsdLodOverride}: the mode, and the index for `indexedLOD`. @category USD LOD */
export interface UsdLodOverrideResult {
  /** `noOverride` when no prim on the path overrides; an unknown authored token is returned as is. */
  mode: string;
  /** The float32 index for `indexedLOD`, else NaN. */
  index: number;
}

/**
 * The namespace path `path` and its ancestors up to (not including) the pseudo-root:
 * `/World/Tree` → `['/World/Tree', '/World']`.
 * @category USD LOD
 */
export function usdAncestorPaths(path: string): string[] {
  if (typeof path !== 'string' || !path.startsWith('/')) throw new RangeError(`usdAncestorPaths: path must be an absolute prim path, got ${String(path)}`);
  const out: string[] = [];
  let p = path.replace(/\/+$/, '');
  while (p.length > 0) {
    out.push(p);
    p = p.slice(0, p.lastIndexOf('/'));
  }
  return out;
}

function lookup(overrides: UsdLodCompileOptions['overrides'], path: string): UsdLodOverrideData | undefined {
  if (overrides == null) return undefined;
  if (overrides instanceof Map) return overrides.get(path);
  return Object.prototype.hasOwnProperty.call(overrides, path) ? (overrides as Record<string, UsdLodOverrideData>)[path] : undefined;
}

/**
 * `UsdLodOverrideAPI::ComputeLODOverride` over plain data: `chain[0]` is the root prim's opinion,
 * then its parent's, and so on up to the top-level prim (`undefined` where the API is not applied).
 * @example
 * ```ts
 * computeUsdLodOverride([undefined, { mode: 'indexedLOD', index: 2 }]); // { mode: 'indexedLOD', index: 2 }
 * ```
 * @category USD LOD
 */
export function computeUsdLodOverride(chain: ArrayLike<UsdLodOverrideData | undefined>): UsdLodOverrideResult {
  for (let i = 0; i < chain.length; i++) {
    const o = chain[i];
    if (o == null || o.mode === undefined) continue; // API not applied, or mode not authored
    const mode = o.mode;
    if (typeof mode !== 'string' || mode === 'inherited') continue; // a failed token read leaves "inherited"
    if (mode === 'indexedLOD') {
      const index = o.index === undefined ? 0 : o.index;
      // A failed float read (not a number) counts as inherited: keep walking.
      if (typeof index !== 'number' || Number.isNaN(index)) continue;
      return { mode, index: Math.fround(index) };
    }
    return { mode, index: NaN };
  }
  return { mode: 'noOverride', index: NaN };
}

/** Float32 copy of an extent (USD's float3), or `undefined`. */
function float32Extent(e: Extent): Extent {
  const f = (v: Vec3Like) => [Math.fround(v[0]), Math.fround(v[1]), Math.fround(v[2])];
  return { min: f(e.min), max: f(e.max) };
}

function boundingExtent(targets: readonly UsdLodBoundingVolume[] | undefined): Extent | undefined {
  if (targets == null) return undefined;
  for (const t of targets) if (t != null) return float32Extent(t);
  return undefined;
}

const scratchSelection: LodSelection = { lod: 0, size: 0 };

type Evaluator = { kind: 'distance'; heuristic: DistanceHeuristic } | { kind: 'screenSize'; heuristic: ScreenSizeHeuristic };

/**
 * An LOD root with its override resolved and its heuristics built once; {@link select} is the
 * per-frame call.
 * @category USD LOD
 */
export class CompiledUsdLodRoot {
  readonly path: string;
  readonly items: readonly string[];
  readonly domain: string;
  /** The resolved override (mode, index). */
  readonly override: UsdLodOverrideResult;
  /** Index into the root's `heuristics` of the heuristic that decides, or −1. */
  readonly heuristicIndex: number;
  /** The deciding heuristic, built with the chosen semantics, or `null`. */
  readonly heuristic: DistanceHeuristic | ScreenSizeHeuristic | null;
  /** `lod:default:index` after schema defaults, or NaN when it cannot be read. */
  readonly defaultIndex: number;
  /** Things OpenUSD would warn about (an unknown projectionMethod…), for the pipeline's log. */
  readonly warnings: readonly string[];
  private readonly evaluator: Evaluator | null;

  /** @internal Use {@link compileUsdLodRoot}. */
  constructor(root: UsdLodRootData, options: UsdLodCompileOptions = {}) {
    const owner = 'compileUsdLodRoot';
    if (root == null || typeof root !== 'object') throw new RangeError(`${owner}: root must be an object with a path`);
    const o = { ...USD_LOD_COMPILE_DEFAULTS, ...options };
    if (typeof o.domain !== 'string' || o.domain.length === 0) throw new RangeError(`${owner}: domain must be a non-empty string`);
    this.path = root.path;
    this.items = root.items ?? [];
    this.domain = o.domain;
    const warnings: string[] = [];
    this.override = computeUsdLodOverride(usdAncestorPaths(root.path).map((p) => lookup(o.overrides, p)));
    const d = root.defaultIndex === undefined ? 0 : root.defaultIndex;
    this.defaultIndex = typeof d === 'number' && Number.isInteger(d) ? d : NaN;

    let evaluator: Evaluator | null = null, index = -1;
    const targets = root.heuristics ?? [];
    for (let i = 0; i < targets.length && evaluator === null; i++) {
      const t = targets[i];
      if (t == null || t.domain !== o.domain) continue;
      const where = `${owner}: ${root.path} lod:heuristics[${i}]${t.path ? ` (${t.path})` : ''}`;
      try {
        if (t.type === 'LODDistanceHeuristic') {
          const h = t as UsdLodDistanceHeuristicData;
          const extent = boundingExtent(h.boundingVolume);
          evaluator = { kind: 'distance', heuristic: new DistanceHeuristic({
            center: h.center ?? [0, 0, 0], extent, thresholds: h.thresholds ?? [], blendThresholds: h.blendThresholds, semantics: o.semantics, domain: o.domain, input: o.input,
          }) };
        } else if (t.type === 'LODScreenSizeHeuristic') {
          const h = t as UsdLodScreenSizeHeuristicData;
          let projection: ScreenSizeProjection = 'projectedSphere';
          if (h.projectionMethod === 'projectedExtent') projection = 'projectedExtent';
          else if (h.projectionMethod !== undefined && h.projectionMethod !== 'projectedSphere') {
            warnings.push(`${where}: invalid projectionMethod '${String(h.projectionMethod)}', measured as projectedExtent (as OpenUSD does)`);
            projection = 'projectedExtent';
          }
          const extent = boundingExtent(h.boundingVolume) ?? float32Extent(h.extent ?? { min: [-1, -1, -1], max: [1, 1, 1] });
          evaluator = { kind: 'screenSize', heuristic: new ScreenSizeHeuristic({
            extent, projection, thresholds: h.thresholds, blendThresholds: h.blendThresholds, semantics: o.semantics, domain: o.domain, input: o.input,
          }) };
        } else continue; // a type this renderer does not know
      } catch (error) {
        throw new RangeError(`${where}: ${(error as Error).message}`);
      }
      index = i;
    }
    this.evaluator = evaluator;
    this.heuristicIndex = index;
    this.heuristic = evaluator === null ? null : evaluator.heuristic;
    this.warnings = warnings;
  }

  /**
   * The decision for one view, composed as OpenUSD's GetLod: override, else the first heuristic of
   * the domain (distance from `frustum.position`, or screen size in `frustum`), else the default
   * index. `transform` maps the root's local space to the frustum's (default identity). With
   * `prev` (last frame's `value`) and `hysteresis`, the heuristic applies its hysteresis rule.
   */
  select(frustum: Frustum, transform?: Mat4Like, prev?: number, hysteresis = 0, out: UsdLodSelection = { decision: 'invalid', lod: NaN, heuristic: -1, value: NaN }): UsdLodSelection {
    out.heuristic = -1;
    out.value = NaN;
    const mode = this.override.mode;
    if (mode !== 'noOverride') {
      if (mode === 'indexedLOD') { out.decision = 'indexedLOD'; out.lod = this.override.index; }
      else if (mode === 'noLOD' || mode === 'allLOD') { out.decision = mode; out.lod = NaN; }
      else { out.decision = 'invalid'; out.lod = NaN; }
      return out;
    }
    const e = this.evaluator;
    if (e !== null) {
      out.decision = 'heuristic';
      out.heuristic = this.heuristicIndex;
      const r = e.kind === 'distance'
        ? e.heuristic.select(frustum.position, transform, prev, hysteresis, scratchSelection)
        : e.heuristic.select(frustum, transform, prev, hysteresis, scratchSelection);
      out.lod = r.lod;
      out.value = r.size;
      return out;
    }
    if (Number.isNaN(this.defaultIndex)) { out.decision = 'invalid'; out.lod = NaN; return out; }
    out.decision = 'default';
    out.lod = this.defaultIndex;
    return out;
  }
}

/**
 * Compiles an LOD root for per-frame selection: resolves the override walk, picks the heuristic of
 * the renderer's domain and builds it, once. Throws `RangeError` naming the root and the target
 * when a chosen heuristic's data is invalid.
 *
 * @example
 * ```ts
 * import { compileUsdLodRoot, Frustum } from 'lodkit';
 * const root = compileUsdLodRoot({
 *   path: '/World/Tree', items: ['High', 'Medium', 'Low'], defaultIndex: 2,
 *   heuristics: [{ type: 'LODDistanceHeuristic', domain: 'imaging', center: [0, 0, -5], thresholds: [4, 10], blendThresholds: [6, 12] }],
 * }, { overrides: { '/World': { mode: 'inherited' } } });
 * root.select(new Frustum()); // { decision: 'heuristic', lod: 0.5, heuristic: 0, value: 5 }
 * ```
 * @category USD LOD
 */
export function compileUsdLodRoot(root: UsdLodRootData, options?: UsdLodCompileOptions): CompiledUsdLodRoot {
  return new CompiledUsdLodRoot(root, options);
}

/**
 * The item a renderer shows for an LOD index when it does not blend: rounded to the nearest
 * integer and clamped into `[0, itemCount − 1]`, as the schema asks for override indices. −1 when
 * there are no items or `lod` is NaN.
 * @category USD LOD
 */
export function usdLodItemIndex(lod: number, itemCount: number): number {
  if (!(itemCount > 0) || Number.isNaN(lod)) return -1;
  const i = Math.round(lod);
  return i < 0 ? 0 : i >= itemCount ? itemCount - 1 : i;
}
