/**
 * The quality yardstick of `lodkit simulate`: per object and frame, the level the scene's
 * screen-size rule wants and the on-screen weight of drawing it coarser.
 *
 * **Quality loss** (documented measure, unit "px·levels"): for each visible object,
 * `weight × max(0, drawnLevel − wantedLevel)`, where
 * - `wantedLevel` is the integer level the profile's reference rule picks (its `quality` rule if
 *   given, else its own thresholds; no bias, no hysteresis, no blending: the first level whose
 *   threshold the size exceeds, OpenUSD's scan),
 * - `weight` is the object's projected bounding-sphere diameter in pixels, clamped to the viewport
 *   height (an object taller than the screen cannot show more flaws than a full-height one).
 *
 * A frame's loss is the sum over its objects; a run reports the mean and the worst frame. A
 * 150 px bike drawn two levels too coarse adds 300; drawn finer than wanted adds 0 (that costs
 * triangles, not quality).
 *
 * Contributor notes:
 * - Computed once per frame and shared by every policy. The frustum test reads `frustum.planes`
 *   directly (the six inward planes) instead of calling `cullsSphere` per object.
 * - Sizes use the Euclidean eye–centre distance like the core's sphere metrics, so a profile whose
 *   reference rule equals its selection rule gives zero loss under the `thresholds` policy.
 *
 * @module
 */
import type { Frustum } from 'lodkit';
import type { CompiledScene } from './compiledScene.js';

const METRIC_CODE = { distance: 0, pixels: 1, screenHeight: 2, screenArea: 3 } as const;

/**
 * Per-frame reference levels and loss weights for every object of a compiled scene.
 * @example
 * ```ts
 * const reference = new QualityReference(compiled);
 * reference.update(frustum, 1080, spheres);
 * reference.wanted[id]; reference.weights[id];
 * ```
 * @category Simulator
 */
export class QualityReference {
  /** Clamped pixel diameter per object this frame; 0 when outside the frustum. */
  readonly weights: Float32Array;
  /** Level the reference rule wants per object this frame. */
  readonly wanted: Uint8Array;
  private readonly metricOf: Uint8Array;
  private readonly thresholds: Float32Array[];
  private readonly profileOf: Uint16Array;

  constructor(compiled: CompiledScene) {
    this.weights = new Float32Array(compiled.count);
    this.wanted = new Uint8Array(compiled.count);
    this.profileOf = compiled.profileOf;
    const profiles = compiled.profileNames.map((n) => compiled.scene.profiles[n]);
    this.metricOf = Uint8Array.from(profiles.map((p) => METRIC_CODE[(p.quality ?? p).metric]));
    this.thresholds = profiles.map((p) => Float32Array.from((p.quality ?? p).thresholds));
  }

  /** Recomputes weights and wanted levels for one frame. `spheres` is `x, y, z, r` per object. */
  update(frustum: Frustum, viewportHeight: number, spheres: Float32Array): void {
    const planes = frustum.planes, eye = frustum.position;
    const ex = eye[0], ey = eye[1], ez = eye[2];
    const perspective = frustum.isPerspective;
    const invWindowHeight = 1 / frustum.windowHeight;
    const areaScale = frustum.referencePlaneDepth * frustum.referencePlaneDepth * Math.PI / frustum.windowArea;
    const weights = this.weights, wanted = this.wanted, profileOf = this.profileOf;
    const metricOf = this.metricOf, thresholdsOf = this.thresholds;
    const n = weights.length;
    for (let i = 0; i < n; i++) {
      const o = i * 4;
      const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
      let culled = false;
      for (let p = 0; p < 24; p += 4) {
        if (planes[p] * x + planes[p + 1] * y + planes[p + 2] * z + planes[p + 3] < -r) { culled = true; break; }
      }
      const d = Math.hypot(x - ex, y - ey, z - ez);
      let height: number, area: number;
      if (culled) { height = 0; area = 0; }
      else if (!perspective) { height = 2 * r * invWindowHeight; area = Math.PI * r * r / frustum.windowArea; }
      else if (d <= r) { height = Infinity; area = Number.MAX_VALUE; }
      else { height = (2 * r * invWindowHeight) / d; area = (r * r * areaScale) / (d * d); }
      const px = height * viewportHeight;
      weights[i] = px < viewportHeight ? px : viewportHeight;
      const profile = profileOf[i];
      const metric = metricOf[profile];
      const t = thresholdsOf[profile];
      let level = 0;
      if (metric === 0) {
        const distance = d > r ? d - r : 0;
        while (level < t.length && !(distance < t[level])) level++;
      } else {
        const size = Math.fround(metric === 1 ? px : metric === 2 ? height : area);
        while (level < t.length && !(size > t[level])) level++;
      }
      wanted[i] = level;
    }
  }
}
