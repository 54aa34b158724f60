/**
 * The prop conventions of `<ScreenSizeDetailed>` (levels.ts), as properties over random threshold
 * lists (fast-check, the suite's fixed seed): after a rebuild from `thresholds` (one per boundary)
 * or drei's `distances` (one per child), the ScreenSizeLOD keeps the children in order, and the
 * level it maps a value to is the rule's — sizes: level j while size > t[j]; distances: level j
 * while d < t[j] — computed here; per-boundary hysteresis lands on the level whose threshold is the
 * boundary. Bad lists throw a RangeError naming the prop.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Object3D } from 'three';
import { ScreenSizeLOD } from 'lodkit/three';
import { levelArguments, rebuildLevels } from '../src/levels.js';
import { levelForDistance, levelForSize } from './helpers.js';

/** Strictly monotonic lists of float32-exact values (so the LOD's float32 thresholds equal them). */
const steps = (n: number) => fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: n, maxLength: n });
const descending = (n: number) => steps(n).map((s) => s.map((_, i) => s.slice(i).reduce((a, b) => a + b, 0) / 4));
const ascending = (n: number) => steps(n).map((s) => s.map((_, i) => s.slice(0, i + 1).reduce((a, b) => a + b, 0) / 4));

function children(n: number): Object3D[] {
  return Array.from({ length: n }, (_, i) => Object.assign(new Object3D(), { name: `L${i}` }));
}

describe('<ScreenSizeDetailed> level conventions', () => {
  it('sizes: thresholds per boundary; the level for any size is the first j with size > t[j]', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(descending(n), fc.array(fc.double({ min: 0, max: 2000, noNaN: true }), { minLength: 1, maxLength: 12 }), fc.double({ min: 0, max: 0.9, noNaN: true }))), ([t, sizes, h]) => {
      const objects = children(t.length + 1);
      const lod = new ScreenSizeLOD({ metric: 'pixels' });
      const bands = t.map((_, k) => h * (k + 1) / (t.length + 1));
      rebuildLevels(lod, objects, levelArguments({ metric: 'pixels', thresholds: t, hysteresis: bands }, objects.length), 'pixels');
      expect(lod.levels.map((l) => l.object)).toEqual(objects);
      expect(lod.children).toEqual(objects);
      expect(lod.thresholds).toEqual(t);
      // Boundary k's band is on level k (the finer one, whose threshold it is).
      expect(lod.levels.slice(0, -1).map((l) => l.hysteresis)).toEqual(bands);
      for (const size of sizes) {
        if (t.some((v) => Math.abs(Math.fround(size) - v) < 1e-9)) continue;
        expect(lod.getObjectForValue(size)).toBe(objects[levelForSize(size, t)]);
      }
    }));
  });

  it("distances: drei's one per child, or thresholds per boundary; the level for d is the first j with d < t[j]", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(ascending(n), fc.array(fc.double({ min: 0, max: 2000, noNaN: true }), { minLength: 1, maxLength: 12 }), fc.boolean())), ([t, ds, drei]) => {
      const objects = children(t.length + 1);
      const lod = new ScreenSizeLOD();
      const props = drei ? { distances: [0, ...t], hysteresis: 0.1 } : { thresholds: t, hysteresis: t.map(() => 0.1) };
      rebuildLevels(lod, objects, levelArguments(props, objects.length), 'distance');
      expect(lod.levels.map((l) => l.object)).toEqual(objects);
      expect(lod.thresholds).toEqual(t);
      for (const d of ds) {
        if (t.some((v) => Math.abs(d - v) < 1e-9)) continue;
        expect(lod.getObjectForValue(d)).toBe(objects[levelForDistance(d, t)]);
      }
    }));
  });

  it('a rebuild to a new list of children leaves exactly those as levels and children', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 5 }), fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 5 }), (a, b) => {
      const pool = children(8);
      const first = [...new Set(a)].map((i) => pool[i]), second = [...new Set(b)].map((i) => pool[i]);
      const lod = new ScreenSizeLOD({ metric: 'screenHeight' });
      const args = (n: number) => levelArguments({ metric: 'screenHeight', thresholds: Array.from({ length: n - 1 }, (_, k) => 1 / (k + 2)) }, n);
      for (const o of first) lod.add(o);
      rebuildLevels(lod, first, args(first.length), 'screenHeight');
      for (const o of first) if (!second.includes(o)) lod.remove(o); // what React's reconciler does
      for (const o of second) if (o.parent !== lod) lod.add(o);
      rebuildLevels(lod, second, args(second.length), 'screenHeight');
      expect(lod.levels.map((l) => l.object)).toEqual(second);
      expect(lod.children).toEqual(second);
    }));
  });

  it('rejects counts, order and values that do not fit, naming the prop', () => {
    expect(() => levelArguments({ metric: 'pixels', thresholds: [20, 80] }, 3)).toThrow(/thresholds must be finite, > 0 and decreasing/);
    expect(() => levelArguments({ metric: 'pixels', thresholds: [80] }, 3)).toThrow(/children − 1 = 2, got 1/);
    expect(() => levelArguments({ distances: [0, 10] }, 3)).toThrow(/one value per child \(3\), got 2/);
    expect(() => levelArguments({ metric: 'pixels', distances: [0, 10] }, 2)).toThrow(/distances is drei's prop for metric 'distance'/);
    expect(() => levelArguments({ metric: 'pixels', thresholds: [80], hysteresis: [0.1, 0.2] }, 2)).toThrow(/hysteresis must be a number or 1 values/);
    expect(() => levelArguments({ metric: 'pixels', thresholds: [80], hysteresis: 1 }, 2)).toThrow(/hysteresis must be in \[0, 1\)/);
  });
});
