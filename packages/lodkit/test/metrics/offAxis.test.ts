/**
 * Off-axis honesty (issue 29 item 5): how large a sphere is drawn by a perspective camera, against
 * what lodkit's metrics say. The drawn outline is measured here without lodkit: points of the
 * sphere's silhouette (the circle where lines from the eye touch it) are projected onto the image
 * plane and their extents taken along the radial direction and across it; the standard ellipse
 * formula for a projected sphere is checked against that sampling. The metric side is
 * `sphereScreenHeight` / `sphereScreenArea` on a real `Frustum`. The table pinned in
 * `expectedMajor` is the one in docs/gltf.md ("Where the pixel promise holds").
 */
import { describe, expect, it } from 'vitest';
import { Frustum, sphereScreenArea, sphereScreenHeight } from '../../src/index.js';
import { offAxisStretch, offAxisStretchAt } from '../../src/metrics/offAxis.js';

const ASPECT = 16 / 9;
const FOVS = [30, 60, 90, 110];
/** Where the centre is, as a fraction of the window's half-width (x) and half-height (y). */
const PLACES: Record<string, [number, number]> = {
  'centre': [0, 0], 'half-way up': [0, 0.5], 'top edge': [0, 1], 'right edge': [1, 0], 'corner': [1, 1],
};

/** Drawn outline of a sphere (eye at the origin looking down −z), on the plane z = −1, by sampling its silhouette. */
function drawnBySampling(c: number[], r: number): { major: number; minor: number } {
  const d = Math.sqrt(c[0] ** 2 + c[1] ** 2 + c[2] ** 2);
  const u = c.map((v) => v / d);
  // Silhouette circle: centre c·(1 − r²/d²), radius r·√(d² − r²)/d, in the plane perpendicular to u.
  const m = c.map((v) => v * (1 - (r * r) / (d * d)));
  const rho = (r * Math.sqrt(d * d - r * r)) / d;
  const helper = Math.abs(u[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const norm = (a: number[]): number[] => { const l = Math.sqrt(a[0] ** 2 + a[1] ** 2 + a[2] ** 2); return a.map((v) => v / l); };
  const e1 = norm(cross(u, helper)), e2 = cross(u, e1);
  const radial2d = Math.hypot(c[0], c[1]) > 0 ? [c[0] / Math.hypot(c[0], c[1]), c[1] / Math.hypot(c[0], c[1])] : [1, 0];
  const across2d = [-radial2d[1], radial2d[0]];
  let minA = Infinity, maxA = -Infinity, minB = Infinity, maxB = -Infinity;
  const N = 20_000;
  for (let k = 0; k < N; k++) {
    const phi = (2 * Math.PI * k) / N;
    const p = [0, 1, 2].map((i) => m[i] + rho * (Math.cos(phi) * e1[i] + Math.sin(phi) * e2[i]));
    const x = p[0] / -p[2], y = p[1] / -p[2];
    const a = x * radial2d[0] + y * radial2d[1], b = x * across2d[0] + y * across2d[1];
    minA = Math.min(minA, a); maxA = Math.max(maxA, a); minB = Math.min(minB, b); maxB = Math.max(maxB, b);
  }
  return { major: maxA - minA, minor: maxB - minB };
}

/** The standard formula: angles θ (centre off the axis) and α = asin(r/d); major tan(θ+α) − tan(θ−α), minor 2r/√(z² − r²) with z the depth. */
function drawnByFormula(c: number[], r: number): { major: number; minor: number } {
  const d = Math.sqrt(c[0] ** 2 + c[1] ** 2 + c[2] ** 2);
  const theta = Math.acos(-c[2] / d), alpha = Math.asin(r / d);
  return { major: Math.tan(theta + alpha) - Math.tan(theta - alpha), minor: (2 * r) / Math.sqrt(c[2] * c[2] - r * r) };
}

function case_(fovY: number, place: [number, number], rOverD: number) {
  const frustum = Frustum.perspective({ fovY, aspect: ASPECT, near: 1e-3, far: 1e6 });
  const t = Math.tan((fovY * Math.PI) / 360);
  const dir = [place[0] * t * ASPECT, place[1] * t, -1];
  const len = Math.hypot(dir[0], dir[1], dir[2]);
  const d = 100;
  const c = dir.map((v) => (v / len) * d);
  const r = rOverD * d;
  const windowHeight = 2 * t;
  const metricHeight = sphereScreenHeight(frustum, c[0], c[1], c[2], r) * windowHeight; // on the plane at distance 1
  const metricArea = sphereScreenArea(frustum, c[0], c[1], c[2], r) * windowHeight * windowHeight * ASPECT;
  return { c, r, metricHeight, metricArea, sampled: drawnBySampling(c, r), formula: drawnByFormula(c, r), theta: Math.acos(1 / len) };
}

// Drawn major axis ÷ lodkit's diameter for a small sphere (R/d = 0.01), 16:9: cos α / (cos²θ − sin²α)
// with tan θ = √((x·tan(fovY/2)·aspect)² + (y·tan(fovY/2))²), worked out by hand to 3 decimals (≈ 1/cos²θ).
// The same numbers are in docs/gltf.md.
const expectedMajor: Record<number, number[]> = {
  //    centre  half-up  top    right  corner
  30: [1.000, 1.018, 1.072, 1.227, 1.299],
  60: [1.000, 1.083, 1.333, 2.054, 2.387],
  90: [1.000, 1.250, 2.000, 4.162, 5.163],
  110: [1.000, 1.510, 3.040, 7.451, 9.494],
};

describe('an off-axis sphere is drawn larger than the metric says', () => {
  it('sampling the silhouette agrees with the ellipse formula', () => {
    for (const fovY of FOVS) {
      for (const place of Object.values(PLACES)) {
        for (const rOverD of [0.01, 0.1]) {
          const { sampled, formula } = case_(fovY, place, rOverD);
          expect(sampled.major / formula.major).toBeCloseTo(1, 6);
          expect(sampled.minor / formula.minor).toBeCloseTo(1, 6);
        }
      }
    }
  });

  it('on the view axis the metric is exact to 1/cos α; off the axis the major axis grows by 1/cos²θ (table)', () => {
    for (const fovY of FOVS) {
      const row = Object.values(PLACES).map((place) => {
        const { sampled, metricHeight } = case_(fovY, place, 0.01);
        return sampled.major / metricHeight;
      });
      row.forEach((v, k) => expect(v, `fovY ${fovY}, ${Object.keys(PLACES)[k]}`).toBeCloseTo(expectedMajor[fovY][k], 3));
    }
    // On the axis: 2 tan α drawn against 2 sin α, so 1/cos α = 1.00005 for R/d = 0.01.
    const onAxis = case_(60, [0, 0], 0.01);
    expect(onAxis.sampled.major / onAxis.metricHeight).toBeCloseTo(1 / Math.cos(Math.asin(0.01)), 9);
    // Area: the ellipse π·a·b against the metric's disc.
    const corner = case_(60, [1, 1], 0.01);
    const area = (Math.PI * corner.sampled.major * corner.sampled.minor) / 4;
    expect(area / corner.metricArea).toBeCloseTo(1 / Math.cos(corner.theta) ** 3, 2);
  });

  it('offAxisStretchAt / offAxisStretch give the sampled ratio, the corner being the worst case', () => {
    for (const fovY of FOVS) {
      for (const rOverD of [0.01, 0.1]) {
        let worst = 0;
        for (const place of Object.values(PLACES)) {
          const { sampled, metricHeight, theta } = case_(fovY, place, rOverD);
          const ratio = sampled.major / metricHeight;
          expect(offAxisStretchAt(theta, Math.asin(rOverD)) / ratio).toBeCloseTo(1, 6);
          worst = Math.max(worst, ratio);
        }
        expect(offAxisStretch(fovY, ASPECT, Math.asin(rOverD)) / worst).toBeCloseTo(1, 6);
      }
    }
    // Small sphere: 1 + tan²(fovY/2)·(1 + aspect²); 60°, 16:9 → 1 + (1/3)(1 + 256/81).
    expect(offAxisStretch(60, ASPECT)).toBeCloseTo(1 + (1 / 3) * (1 + 256 / 81), 12);
    expect(offAxisStretchAt(1.2, 0.4)).toBe(Infinity); // θ + α ≥ 90°: not an ellipse
    expect(() => offAxisStretch(180, 1)).toThrow(RangeError);
  });
});
