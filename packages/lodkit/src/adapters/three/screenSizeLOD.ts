/**
 * `ScreenSizeLOD`: a drop-in `THREE.LOD` that chooses its level by any lodkit metric — distance,
 * pixels, screen height or OpenUSD screen area — measured on the bounding sphere of its content in
 * world space, for perspective and orthographic cameras (zoom, view offsets, any aspect) and
 * stereo `ArrayCamera`s, with hysteresis bands, OpenUSD blend windows and screen-door cross-fades.
 *
 * Contributor notes:
 * - It extends `THREE.LOD` so `isLOD` is set and WebGLRenderer calls `update(camera)` for it when
 *   `autoUpdate` is true; every method the renderer or user code reaches is overridden.
 * - Level semantics follow three's: `addLevel(object, threshold)` keeps the levels sorted finest
 *   first. For `'distance'` a level is drawn from its threshold on (level 0's threshold is ignored,
 *   as in three); for the screen-size metrics a level is drawn while the size is above its
 *   threshold (the coarsest level's threshold is ignored). Add an empty `Object3D` as the coarsest
 *   level to draw nothing below a size. The resulting threshold array is exactly a lodkit profile's
 *   (`thresholds` getter), so `LodManager` can run the same choice in batch.
 * - Measurement uses the core's reference sphere metrics per view (max over views for sizes, min
 *   for distances). A sphere outside every view keeps its level: three culls it anyway, and its
 *   shadow must not change level.
 * - The frustum of a camera is rebuilt only when the camera's matrices change (shared
 *   `CameraViewCache`), so N objects against one camera cost N metric evaluations, not N
 *   frustum builds. Measured in bench/three-manager.bench.ts.
 * - Hysteresis: per boundary, lodkit's relative band (the rule of `LodSet` with `hysteresis = h`):
 *   leaving a level across a threshold `t` requires the size to cross `t` by the factor `1 ± h`.
 * - Speed (bench/three-manager.bench.ts, 100k objects, shared 2-core machine): the first version
 *   returned doubles from `measure`/`fractionalLevel` and passed the world sphere as arguments;
 *   V8 boxed each (garbage collection was ~25 % of a CPU profile) and `update` cost ~840 ns per
 *   object. Passing doubles through module-level Float64Arrays and remembering the level shown
 *   (so an unchanged frame reads no level object) brought it to ~300 ns (340–390 ns in the 2026-12-02
 *   runs on the built package), against 180–210 ns for `THREE.LOD.update`, which measures only the
 *   origin distance (the bounding sphere and its centre are two more cold objects per call).
 *   `LodManager` is the fast path.
 *
 * @module
 */
import { LOD, Object3D, Sphere, Vector2, type Camera, type Intersection, type Raycaster } from 'three';
import { writeLodAscending, writeLodDescending } from '../../heuristics/lodIndex.js';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import { validateThresholds } from '../../heuristics/thresholds.js';
import { LevelVisibility } from './levelVisibility.js';
import { CameraViewCache } from './cameraView.js';
import { computeContentSphere } from './contentSphere.js';
import { measureScratchSphere, sphereArgs } from './sphereMeasure.js';
import {
  requireFiniteNumber, SCREEN_SIZE_LOD_DEFAULTS, SCREEN_SIZE_LOD_METRICS as METRICS, warnNoViewport,
  type ScreenSizeLODLevel, type ScreenSizeLODOptions, type ViewportSource,
} from './screenSizeLODOptions.js';

export { resetScreenSizeLODWarnings, SCREEN_SIZE_LOD_DEFAULTS, type ScreenSizeLODLevel, type ScreenSizeLODOptions, type ViewportSource } from './screenSizeLODOptions.js';

const sharedCache = new CameraViewCache();
const scratchSize = new Vector2();


/** [0] measured value, [1] fractional level. */
const frameScratch = new Float64Array(2);


/**
 * A `THREE.LOD` whose thresholds are in any lodkit metric, measured on the bounding sphere of its
 * content, with lodkit hysteresis, OpenUSD blend windows and cross-fades.
 *
 * @example
 * ```ts
 * import { ScreenSizeLOD } from 'lodkit/three';
 * const lod = new ScreenSizeLOD({ metric: 'pixels', renderer });
 * lod.addLevel(bikeHigh, 80);   // drawn while the bike is taller than 80 px
 * lod.addLevel(bikeMedium, 20); // 80 … 20 px
 * lod.addLevel(bikeLow);        // below 20 px
 * scene.add(lod);               // the renderer calls lod.update(camera) every frame
 * ```
 * @category three.js
 */
export class ScreenSizeLOD extends LOD {
  /** Marks lodkit's LOD (three's `isLOD` stays true). */
  readonly isScreenSizeLOD = true;
  declare readonly levels: ScreenSizeLODLevel[];
  /** Viewport height in pixels for the `'pixels'` metric; when null, `renderer` is asked. */
  viewportHeight: number | null;
  /** Renderer giving the drawing-buffer height for the `'pixels'` metric. */
  renderer: ViewportSource | null;
  /** Multiplies sizes / divides distances (Unity's lodBias). */
  bias: number;
  /** Seconds of the time-based fade when no blend thresholds are set (0 = switch instantly). */
  fadeDuration: number;
  /** Draw both levels of a transition with a screen-door dither. */
  crossFade: boolean;
  /** True when `LodManager` hid the whole object (culled, hidden or removed). */
  hiddenByManager = false;
  /**
   * @internal Counts this object's own writes of its levels' `visible` (`update`, `setLevel`, fades,
   * `invalidateVisibility`, level edits): managedLevels.ts. Declared beside `crossFade` (read with it).
   */
  visibilityEpoch = 0;
  /**
   * Bounding sphere of the content in this object's local space. Computed from the levels on the
   * first update after a level change; assign your own sphere to override (then call
   * {@link ScreenSizeLOD.computeBoundingSphere} to return to automatic).
   */
  boundingSphere: Sphere | null = null;
  /** Metric value of the last update (after bias); NaN before the first measurement. */
  size = NaN;
  /** OpenUSD fractional part toward the next level (0 outside blend windows). */
  blend = 0;
  /** Number of updates skipped because the camera or the viewport height was unusable. */
  skippedUpdates = 0;

  private metricValue: SphereMetric;
  private current = 0;
  private thresholdArray: Float32Array = new Float32Array(0);
  private blendArray: Float32Array = new Float32Array(0);
  private blendValues: number[] | null = null;
  private autoSphere = true;
  private readonly shown = new LevelVisibility();

  constructor(options: ScreenSizeLODOptions = {}) {
    super();
    const o = { ...SCREEN_SIZE_LOD_DEFAULTS, ...options };
    if (!METRICS.includes(o.metric)) {
      throw new RangeError(`ScreenSizeLOD: metric must be one of ${METRICS.map((m) => `'${m}'`).join(', ')}, got ${String(o.metric)}`);
    }
    this.metricValue = o.metric;
    this.viewportHeight = o.viewportHeight === null ? null : requireFiniteNumber(o.viewportHeight, 'viewportHeight', 1e-9);
    this.renderer = o.renderer;
    this.bias = requireFiniteNumber(o.bias, 'bias', 1e-9);
    this.fadeDuration = requireFiniteNumber(o.fadeDuration, 'fadeDuration', 0);
    this.crossFade = o.crossFade;
    (this as { type: string }).type = 'ScreenSizeLOD';
  }

  /** The metric of the thresholds (set it before adding levels; changing it re-sorts the levels). */
  get metric(): SphereMetric { return this.metricValue; }
  /** Sets the metric; throws a `RangeError` for a value that is not a `SphereMetric`. */
  set metric(metric: SphereMetric) {
    if (!METRICS.includes(metric)) throw new RangeError(`ScreenSizeLOD: metric must be one of ${METRICS.join(', ')}, got ${String(metric)}`);
    this.metricValue = metric;
    this.sortLevels();
    this.rebuildThresholds();
  }

  /** True for the screen-size metrics (thresholds descend), false for distance. */
  get descending(): boolean { return this.metricValue !== 'distance'; }

  /** The lodkit profile thresholds implied by the levels (levels − 1 values), a fresh copy. */
  get thresholds(): number[] { return Array.from(this.thresholdArray); }

  /** The hysteresis band of each boundary (levels − 1 values, boundary k between levels k and k + 1), a fresh copy. */
  get bands(): number[] { return this.thresholdArray.length === 0 ? [] : Array.from(this.thresholdArray, (_, k) => this.bandOf(k)); }

  /** OpenUSD blend thresholds (one per threshold at most), or an empty array. */
  get blendThresholds(): number[] { return this.blendValues === null ? [] : this.blendValues.slice(); }

  /**
   * Sets OpenUSD blend thresholds in the core's convention (for screen sizes `blend[i] ≤
   * thresholds[i]`, for distance `blend[i] ≥ thresholds[i]`); `null` or `[]` removes them. While the
   * size is inside a blend window both levels are drawn (cross-fade) and `blend` says how far.
   * Throws `RangeError` naming the index when a value is outside its window.
   */
  setBlendThresholds(values: ArrayLike<number> | null): this {
    const copy = values === null || values.length === 0 ? null : Array.from(values);
    const v = validateThresholds(this.thresholdArray, copy ?? undefined, this.descending ? 'descending' : 'ascending', 'ScreenSizeLOD');
    this.blendValues = copy;
    this.blendArray = v.blendThresholds;
    return this;
  }

  /**
   * Adds a level. For `'distance'` the level is drawn from `threshold` on (three's meaning); for
   * the screen-size metrics it is drawn while the size is above `threshold` (pixels, fraction of
   * the viewport height, or OpenUSD area fraction). `hysteresis` is the relative band around this
   * level's threshold, in [0, 1).
   */
  override addLevel(object: Object3D, threshold = 0, hysteresis = 0): this {
    requireFiniteNumber(threshold, 'threshold', this.descending ? 0 : -Infinity);
    requireFiniteNumber(hysteresis, 'hysteresis', 0, 0.999999);
    if (!(object instanceof Object3D)) throw new TypeError('ScreenSizeLOD.addLevel: object must be a THREE.Object3D');
    const value = this.descending ? threshold : Math.abs(threshold);
    const levels = this.levels;
    let at = 0;
    while (at < levels.length && (this.descending ? value <= levels[at].threshold : value >= levels[at].threshold)) at++;
    levels.splice(at, 0, { object, threshold: value, distance: value, hysteresis });
    this.add(object);
    this.levelsChanged();
    return this;
  }

  /** Removes the first level whose threshold equals `threshold`; true when one was removed. */
  override removeLevel(threshold: number): boolean {
    const levels = this.levels;
    for (let i = 0; i < levels.length; i++) {
      if (levels[i].threshold === threshold) {
        const [removed] = levels.splice(i, 1);
        this.remove(removed.object);
        if (this.current >= levels.length) this.current = Math.max(0, levels.length - 1);
        this.levelsChanged();
        return true;
      }
    }
    return false;
  }

  /** Index of the level drawn without blending (OpenUSD rounds the fractional index). */
  override getCurrentLevel(): number {
    return this.current;
  }

  /** The level object a metric value maps to, ignoring hysteresis (`getObjectForDistance` for any metric). */
  getObjectForValue(value: number): Object3D | null {
    if (this.levels.length === 0) return null;
    const f = this.fractionalLevel(value);
    return this.levels[Math.floor(f + 0.5)].object;
  }

  /** For `'distance'` LODs, the same as three's; for other metrics it maps the value in that metric. */
  override getObjectForDistance(distance: number): Object3D | null {
    return this.getObjectForValue(distance);
  }

  /** Recomputes {@link ScreenSizeLOD.boundingSphere} from the levels' geometry (local space). */
  computeBoundingSphere(): Sphere {
    this.autoSphere = true;
    this.boundingSphere = computeContentSphere(this, this.boundingSphere ?? new Sphere());
    return this.boundingSphere;
  }

  /** OpenUSD fractional level index for a metric value (after bias is applied by the caller). */
  fractionalLevel(value: number): number {
    this.writeFractionalLevel(value);
    return frameScratch[1];
  }

  private writeFractionalLevel(value: number): void {
    if (this.descending) writeLodDescending(this.thresholdArray, this.blendArray, value, frameScratch, 1);
    else writeLodAscending(this.thresholdArray, this.blendArray, value, frameScratch, 1);
  }

  /** Viewport height used for `'pixels'`, or NaN when neither `viewportHeight` nor `renderer` gives one. */
  resolveViewportHeight(): number {
    if (this.viewportHeight !== null) return this.viewportHeight;
    if (this.renderer !== null) {
      const h = this.renderer.getDrawingBufferSize(scratchSize).y;
      if (h > 0) return h;
    }
    return NaN;
  }

  /**
   * Measures the content's bounding sphere in world space against `camera` (both eyes of an
   * `ArrayCamera`: the largest size over the views) and returns the metric value after bias:
   * NaN when the camera or the viewport height is unusable, 0 / +∞ when outside every view.
   * Uses `matrixWorld` as it is; the renderer updates it before calling `update`.
   */
  measure(camera: Camera): number {
    this.measureInto(camera);
    return frameScratch[0];
  }

  /** {@link ScreenSizeLOD.measure} into the module scratch (no heap number per call). */
  private measureInto(camera: Camera): void {
    frameScratch[0] = NaN;
    if (this.boundingSphere === null || (this.autoSphere && this.boundingSphere.isEmpty())) this.computeBoundingSphere();
    const sphere = this.boundingSphere!;
    const views = sharedCache.update(camera);
    if (views === 0) return;
    let viewport = 1;
    if (this.metricValue === 'pixels') {
      viewport = this.resolveViewportHeight();
      if (!(viewport > 0)) { if (this.viewportHeight === null && this.renderer === null) warnNoViewport(this.name); return; }
    }
    // World sphere: centre through matrixWorld, radius × the largest axis scale (written to
    // sphereArgs directly so no double crosses a call boundary).
    const e = this.matrixWorld.elements, c = sphere.center;
    const cx = c.x, cy = c.y, cz = c.z;
    sphereArgs[0] = e[0] * cx + e[4] * cy + e[8] * cz + e[12];
    sphereArgs[1] = e[1] * cx + e[5] * cy + e[9] * cz + e[13];
    sphereArgs[2] = e[2] * cx + e[6] * cy + e[10] * cz + e[14];
    const sx = e[0] * e[0] + e[1] * e[1] + e[2] * e[2], sy = e[4] * e[4] + e[5] * e[5] + e[6] * e[6], sz = e[8] * e[8] + e[9] * e[9] + e[10] * e[10];
    sphereArgs[3] = sphere.radius * Math.sqrt(Math.max(sx, sy, sz));
    sphereArgs[4] = viewport;
    measureScratchSphere(this.metricValue, sharedCache.views, views, frameScratch, 0);
    if (this.bias !== 1) frameScratch[0] = this.descending ? frameScratch[0] * this.bias : frameScratch[0] / this.bias;
  }

  /**
   * Chooses the level for `camera` and sets the levels' visibility (and cross-fade materials).
   * Called by WebGLRenderer when `autoUpdate` is true. Never throws for bad data: an unusable
   * camera or viewport counts in {@link ScreenSizeLOD.skippedUpdates} and keeps the level.
   */
  override update(camera: Camera): void {
    const levels = this.levels;
    if (levels.length === 0) return;
    if (levels.length === 1) { this.current = 0; this.blend = 0; this.applyVisibility(0, 0); return; }
    this.measureInto(camera);
    const value = frameScratch[0];
    if (value !== value) { this.skippedUpdates++; this.applyVisibility(this.current, this.blend); return; }
    const culled = this.descending ? value === 0 : value === Infinity;
    if (culled) { this.applyVisibility(this.current, this.blend); return; }
    this.size = value;
    this.chooseLevel(value);
    this.applyVisibility(this.current, this.blend);
  }

  /** Applies the level rule (with hysteresis) to a metric value; used by `update` and `LodManager`. */
  chooseLevel(value: number): number {
    const old = this.current;
    this.writeFractionalLevel(value);
    const f = frameScratch[1];
    const level = Math.floor(f + 0.5);
    const frac = f - Math.floor(f);
    if (frac !== 0 || level === old || old >= this.levels.length) {
      this.current = level; this.blend = frac; return level;
    }
    // Hysteresis: leaving `old` across its boundary needs the value to pass it by the band.
    const t = this.thresholdArray;
    let hold = false;
    if (level > old) {
      const h = this.bandOf(old);
      if (h > 0) hold = this.descending ? value * (1 + h) > t[old] : value * (1 - h) < t[old];
    } else {
      const h = this.bandOf(old - 1);
      if (h > 0) hold = this.descending ? value * (1 - h) <= t[old - 1] : value * (1 + h) >= t[old - 1];
    }
    this.current = hold ? old : level;
    this.blend = 0;
    return this.current;
  }

  /**
   * Sets the level chosen elsewhere (by `LodManager`): `HIDDEN_LEVEL` (255) hides every level,
   * otherwise the level (and its blend pair) is shown as `update` would.
   */
  setLevel(level: number, blend: number): void {
    if (level >= this.levels.length) {
      this.visibilityEpoch = (this.visibilityEpoch + 1) | 0;
      this.shown.hide(this.levels);
      this.hiddenByManager = true;
      return;
    }
    this.hiddenByManager = false;
    this.current = level;
    this.blend = blend;
    this.applyVisibility(level, blend);
  }

  /**
   * Makes the next level change (or `LodManager.resync()`) write every level's `visible` again. The
   * object (and `LodManager`) writes only the levels it switches between, so call this after
   * writing them yourself, or after editing `levels` other than by `addLevel` / `removeLevel`.
   */
  invalidateVisibility(): void { this.visibilityEpoch = (this.visibilityEpoch + 1) | 0; this.shown.reset(); }

  /** @internal `LodManager`'s plain switches (managedLevels.ts): `LevelVisibility.plainState`. */
  plainState(): number { return this.shown.plainState(); }

  /** @internal The state `setLevel(level, 0)` leaves, after the caller wrote the levels' `visible`. */
  noteManagedLevel(level: number): void {
    this.hiddenByManager = false; this.current = level; this.blend = 0;
    this.shown.noteSwitch(level);
  }

  /** @internal The state `setLevel(HIDDEN_LEVEL, 0)` leaves, after the caller hid the levels. */
  noteManagedHidden(): void { this.hiddenByManager = true; this.shown.noteHidden(); }

  /** The level whose visibility was last applied (the target of a running fade); −1 before the first, or while hidden by `LodManager`. */
  get displayedLevel(): number { return this.shown.level; }

  /** True while a time-based fade is running (call `applyVisibility` each frame until it ends). */
  get fading(): boolean { return this.shown.fading; }

  /** Band of boundary `k` (between levels k and k + 1). */
  private bandOf(k: number): number {
    const lv = this.descending ? this.levels[k] : this.levels[k + 1];
    return lv === undefined ? 0 : lv.hysteresis;
  }

  /**
   * Shows `level` (and `level + 1` with complementary dither when `blend > 0` and cross-fading),
   * hides the others; runs the time-based fade when configured. Public for `LodManager`.
   */
  applyVisibility(level: number, blend: number): void {
    this.visibilityEpoch = (this.visibilityEpoch + 1) | 0;
    this.shown.apply(this.levels, level, blend, this.crossFade, this.fadeDuration);
  }


  /**
   * Raycasts the level that is drawn (the dominant one of a cross-fade pair) and its descendants, then
   * stops the raycaster from descending into the hidden levels; other children are still tested.
   */
  override raycast(raycaster: Raycaster, intersects: Intersection[]): boolean {
    const levels = this.levels;
    if (levels.length === 0) return true;
    // Nothing of the levels is drawn while LodManager hides the object (culled or hidden).
    if (!this.hiddenByManager) raycaster.intersectObject(levels[Math.min(this.current, levels.length - 1)].object, true, intersects);
    for (const child of this.children) {
      let isLevel = false;
      for (let i = 0; i < levels.length; i++) if (levels[i].object === child) { isLevel = true; break; }
      if (!isLevel) raycaster.intersectObject(child, true, intersects);
    }
    return false;
  }

  /** Copies levels (cloned), metric, thresholds, blend thresholds and options from `source`. */
  override copy(source: this, recursive?: boolean): this {
    void recursive;
    Object3D.prototype.copy.call(this, source, false);
    this.metricValue = source.metric;
    this.viewportHeight = source.viewportHeight;
    this.renderer = source.renderer;
    this.bias = source.bias;
    this.fadeDuration = source.fadeDuration;
    this.crossFade = source.crossFade;
    this.autoUpdate = source.autoUpdate;
    for (const level of source.levels) this.addLevel(level.object.clone(), level.threshold, level.hysteresis);
    if (source.blendValues !== null) this.setBlendThresholds(source.blendValues);
    if (!source.autoSphere && source.boundingSphere !== null) { this.boundingSphere = source.boundingSphere.clone(); this.autoSphere = false; }
    return this;
  }

  /**
   * Serialises like `THREE.LOD` (levels as `{object: uuid, distance, hysteresis}`) plus a `lodkit`
   * block `{metric, thresholds, blendThresholds, bias, viewportHeight, fadeDuration, crossFade}`;
   * {@link ScreenSizeLOD.fromJSON} rebuilds it from what `ObjectLoader` returns.
   */
  override toJSON(meta?: Parameters<LOD['toJSON']>[0]): ReturnType<LOD['toJSON']> {
    const data = super.toJSON(meta);
    const obj = data.object as unknown as Record<string, unknown>;
    obj.lodkit = {
      metric: this.metricValue, thresholds: this.levels.map((l) => l.threshold), blendThresholds: this.blendThresholds,
      bias: this.bias, viewportHeight: this.viewportHeight, fadeDuration: this.fadeDuration, crossFade: this.crossFade,
    };
    return data;
  }

  /**
   * Rebuilds a `ScreenSizeLOD` from `ObjectLoader` output: `loaded` is the object the loader made
   * for a serialised `ScreenSizeLOD` (a plain `Object3D` carrying the children), `json` its entry
   * in the file's `object` tree. Throws `RangeError` when the entry has no `lodkit` block.
   * @example
   * ```ts
   * const root = new ObjectLoader().parse(json);
   * const lod = ScreenSizeLOD.fromJSON(json.object, root);
   * ```
   */
  static fromJSON(json: { levels?: { object: string; distance: number; hysteresis: number }[]; lodkit?: Record<string, unknown> }, loaded: Object3D): ScreenSizeLOD {
    const k = json.lodkit;
    if (k === undefined || json.levels === undefined) throw new RangeError('ScreenSizeLOD.fromJSON: json has no lodkit block or levels');
    const lod = new ScreenSizeLOD({
      metric: k.metric as SphereMetric, bias: k.bias as number, viewportHeight: (k.viewportHeight as number | null) ?? null,
      fadeDuration: k.fadeDuration as number, crossFade: k.crossFade as boolean,
    });
    lod.name = loaded.name;
    lod.position.copy(loaded.position); lod.quaternion.copy(loaded.quaternion); lod.scale.copy(loaded.scale);
    for (const level of json.levels) {
      const child = loaded.children.find((c) => c.uuid === level.object);
      if (child === undefined) throw new RangeError(`ScreenSizeLOD.fromJSON: level object ${level.object} not found`);
      lod.addLevel(child, level.distance, level.hysteresis);
    }
    const blends = k.blendThresholds as number[] | undefined;
    if (blends !== undefined && blends.length > 0) lod.setBlendThresholds(blends);
    return lod;
  }

  private sortLevels(): void {
    const d = this.descending;
    this.levels.sort((a, b) => (d ? b.threshold - a.threshold : a.threshold - b.threshold));
  }

  private levelsChanged(): void {
    this.invalidateVisibility();
    this.rebuildThresholds();
    if (this.autoSphere) this.boundingSphere = null;
  }

  private rebuildThresholds(): void {
    const levels = this.levels;
    const n = Math.max(0, levels.length - 1);
    const t = new Float32Array(n);
    for (let i = 0; i < n; i++) t[i] = this.descending ? levels[i].threshold : levels[i + 1].threshold;
    this.thresholdArray = t;
    if (this.blendValues !== null) {
      if (this.blendValues.length > n) this.blendValues.length = n;
      try {
        this.blendArray = validateThresholds(t, this.blendValues, this.descending ? 'descending' : 'ascending', 'ScreenSizeLOD').blendThresholds;
      } catch (error) {
        this.blendValues = null; this.blendArray = new Float32Array(0);
        throw error;
      }
    } else {
      this.blendArray = new Float32Array(0);
    }
  }

  /** Assigning a sphere turns automatic bounds off. */
  setBoundingSphere(sphere: Sphere): this {
    this.boundingSphere = sphere;
    this.autoSphere = false;
    return this;
  }
}

