// The reference formulas are tested against hand-worked numbers, so a wrong factor in them cannot
// hide a wrong factor in lodkit (the tests that use them compare lodkit to these).
import { describe, expect, it } from 'vitest';
import {
  referenceCulls, referenceDistance, referencePixelDiameter, referenceScreenArea, referenceScreenHeight, type ReferenceCamera,
} from './reference.js';

// fovY 90° (window half-height tan 45° = 1), aspect 2: window [-2, 2] × [-1, 1]; eye at the origin
// looking down −Z (identity rotation), near 1, far 100.
const cam: ReferenceCamera = { position: [0, 0, 0], rotation: [0, 0, 0, 1], windowMin: [-2, -1], windowMax: [2, 1], near: 1, far: 100, isPerspective: true };
const ortho: ReferenceCamera = { ...cam, isPerspective: false, windowMin: [-20, -10], windowMax: [20, 10], near: -50, far: 50 };

describe('reference sphere formulas (hand-worked)', () => {
  it('perspective: radius 1 at distance 10 is 2 / (10 · 2) = 0.1 of the screen height, 108 px of 1080', () => {
    expect(referenceScreenHeight(cam, 0, 0, -10, 1)).toBeCloseTo(0.1, 15);
    expect(referencePixelDiameter(cam, 0, 0, -10, 1, 1080)).toBeCloseTo(108, 12);
  });
  it('perspective area: π (1/10)² / (4 · 2) = π / 800', () => {
    expect(referenceScreenArea(cam, 0, 0, -10, 1)).toBeCloseTo(Math.PI / 800, 15);
  });
  it('distance to the closest point: 10 − 1 = 9, and 0 inside', () => {
    expect(referenceDistance(cam, 0, 0, -10, 1)).toBe(9);
    expect(referenceDistance(cam, 0, 0, -0.5, 1)).toBe(0);
  });
  it('eye inside the sphere: +∞ height; area: the largest double only with the eye at the centre, else the formula (+∞ where it overflows)', () => {
    expect(referenceScreenHeight(cam, 0, 0, -1.5, 2)).toBe(Infinity);
    expect(referenceScreenArea(cam, 0, 0, 0, 2)).toBe(Number.MAX_VALUE);
    expect(referenceScreenArea(cam, 0, 0, -1e-160, 2)).toBe(Infinity); // (2 / 1e-160)² overflows
  });
  it('culling: behind the eye, past far, and just outside the left plane x = −2·depth', () => {
    expect(referenceCulls(cam, 0, 0, 10, 1)).toBe(true);
    expect(referenceCulls(cam, 0, 0, -102, 1)).toBe(true);
    expect(referenceCulls(cam, 0, 0, -100.5, 1)).toBe(false);
    // Left plane normal (1, 0, −2)/√5 in (x, y, depth): centre (−2·10 − 1.2·√5, 0, depth 10) is 1.2 outside.
    expect(referenceCulls(cam, -20 - 1.2 * Math.sqrt(5), 0, -10, 1)).toBe(true);
    expect(referenceCulls(cam, -20 - 0.8 * Math.sqrt(5), 0, -10, 1)).toBe(false);
  });
  it('orthographic: 2r / window height, π r² / window area, box culling', () => {
    expect(referenceScreenHeight(ortho, 0, 0, -10, 1)).toBeCloseTo(0.1, 15);
    expect(referenceScreenArea(ortho, 0, 0, -10, 1)).toBeCloseTo(Math.PI / 800, 15);
    expect(referenceCulls(ortho, 21.5, 0, 0, 1)).toBe(true);
    expect(referenceCulls(ortho, 20.5, 0, 0, 1)).toBe(false);
  });
  it('a rotated camera: quarter turn about +Y looks down −X', () => {
    const s = Math.SQRT1_2;
    const turned: ReferenceCamera = { ...cam, rotation: [0, s, 0, s] };
    expect(referenceScreenHeight(turned, -10, 0, 0, 1)).toBeCloseTo(0.1, 12);
    expect(referenceCulls(turned, 10, 0, 0, 1)).toBe(true);
  });
});
