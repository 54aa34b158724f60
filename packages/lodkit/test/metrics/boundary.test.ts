// Clear errors at the API boundary (the README's rule): thresholds' sign, sphere metrics' radius and
// centre, NaN cameras. Each check is tested both ways: the bad value throws naming the field, and
// every valid value still gets the unchecked formula's exact result.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Frustum, LodThresholds, lookAtRotation, sphereDistance, spherePixelDiameter, sphereScreenArea, sphereScreenHeight,
} from '../../src/index.js';
import * as raw from '../../src/metrics/sphereMetrics.js';

const camera = Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 1000 });

describe('LodThresholds: sign and range', () => {
  it('rejects negative thresholds in every metric, naming the index', () => {
    expect(() => new LodThresholds({ metric: 'pixels', thresholds: [-5, -10] })).toThrow(/thresholds\[0\] = -5 must be ≥ 0 \(a pixels value is never negative\)/);
    expect(() => new LodThresholds({ metric: 'screenHeight', thresholds: [0.5, -0.1] })).toThrow(/thresholds\[1\] = -0.1 must be ≥ 0/);
    expect(() => new LodThresholds({ metric: 'distance', thresholds: [-1, 10] })).toThrow(/thresholds\[0\] = -1 must be ≥ 0 \(a distance value/);
    expect(() => new LodThresholds({ metric: 'pixels', thresholds: [80, 20], blendThresholds: [70, -3] })).toThrow(/blendThresholds\[1\] = -3 must be ≥ 0/);
  });

  it('rejects a value beyond float32 (stored as Infinity)', () => {
    expect(() => new LodThresholds({ metric: 'distance', thresholds: [10, 1e39] })).toThrow(/thresholds\[1\] = 1e\+39 is beyond float32's range/);
  });

  it('accepts zero and every non-negative, ordered, float32-finite list (property)', () => {
    fc.assert(fc.property(fc.array(fc.float({ min: 0, max: Math.fround(1e30), noNaN: true }), { minLength: 1, maxLength: 8 }), (values) => {
      const descending = [...values].sort((a, b) => b - a);
      const t = new LodThresholds({ metric: 'pixels', thresholds: descending });
      expect(Array.from(t.thresholds)).toEqual(descending.map((v) => Math.fround(v)));
      const ascending = [...values].sort((a, b) => a - b);
      expect(new LodThresholds({ metric: 'distance', thresholds: ascending }).levelCount).toBe(values.length + 1);
    }));
  });
});

describe('sphere metrics: checked at the boundary', () => {
  const fns = [
    ['sphereScreenHeight', (r: number, x = 0) => sphereScreenHeight(camera, x, 0, -10, r)],
    ['sphereScreenArea', (r: number, x = 0) => sphereScreenArea(camera, x, 0, -10, r)],
    ['sphereDistance', (r: number, x = 0) => sphereDistance(camera, x, 0, -10, r)],
    ['spherePixelDiameter', (r: number, x = 0) => spherePixelDiameter(camera, x, 0, -10, r, 1080)],
  ] as const;

  for (const [name, fn] of fns) {
    it(`${name} rejects a negative, NaN or infinite radius and a non-finite centre`, () => {
      expect(() => fn(-1)).toThrow(new RegExp(`${name}: radius must be a finite number ≥ 0, got -1`));
      expect(() => fn(Number.NaN)).toThrow(/radius must be a finite number ≥ 0, got NaN/);
      expect(() => fn(Number.POSITIVE_INFINITY)).toThrow(/radius must be a finite number ≥ 0, got Infinity/);
      expect(() => fn(1, Number.NaN)).toThrow(new RegExp(`${name}: x must be a finite number, got NaN`));
      expect(() => fn(1, Number.NEGATIVE_INFINITY)).toThrow(/x must be a finite number, got -Infinity/);
    });
  }

  it('spherePixelDiameter rejects a viewport height that is not > 0', () => {
    expect(() => spherePixelDiameter(camera, 0, 0, -10, 1, 0)).toThrow(/viewportHeightPx must be a finite number > 0, got 0/);
    expect(() => spherePixelDiameter(camera, 0, 0, -10, 1, Number.NaN)).toThrow(/viewportHeightPx/);
  });

  it('every valid sphere gets exactly the unchecked formula (property; radius 0 included)', () => {
    fc.assert(fc.property(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e6, noNaN: true })),
      (x, y, z, r) => {
        expect(sphereScreenHeight(camera, x, y, z, r)).toBe(raw.sphereScreenHeight(camera, x, y, z, r));
        expect(sphereScreenArea(camera, x, y, z, r)).toBe(raw.sphereScreenArea(camera, x, y, z, r));
        expect(sphereDistance(camera, x, y, z, r)).toBe(raw.sphereDistance(camera, x, y, z, r));
        expect(spherePixelDiameter(camera, x, y, z, r, 720)).toBe(raw.spherePixelDiameter(camera, x, y, z, r, 720));
      },
    ));
  });
});

describe('NaN cameras', () => {
  it('Frustum.update() after a direct edit names the non-finite field', () => {
    const f = Frustum.perspective({ fovY: 50, aspect: 1, near: 0.1, far: 100 });
    f.position[1] = Number.NaN;
    expect(() => f.update()).toThrow(/Frustum.update: position\[1\] must be a finite number, got NaN/);
    f.position[1] = 0;
    f.rotation[3] = Number.POSITIVE_INFINITY;
    expect(() => f.update()).toThrow(/rotation\[3\] must be a finite number, got Infinity/);
    f.rotation[3] = 1;
    expect(() => f.update()).not.toThrow();
  });

  it('lookAtRotation names a NaN eye, target or up instead of "eye and target must differ"', () => {
    expect(() => lookAtRotation([0, 0, 0], [Number.NaN, 0, -1])).toThrow(/target\[0\] must be a finite number, got NaN/);
    expect(() => lookAtRotation([0, Number.POSITIVE_INFINITY, 0], [0, 0, -1])).toThrow(/eye\[1\] must be a finite number/);
    expect(() => lookAtRotation([0, 0, 0], [0, 0, -1], [0, Number.NaN, 0])).toThrow(/up must be 3 finite numbers/);
    expect(() => lookAtRotation([1, 2, 3], [1, 2, 3])).toThrow(/eye and target must differ/);
  });
});
