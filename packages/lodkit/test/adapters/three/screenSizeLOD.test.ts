import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import {
  ArrayCamera, BoxGeometry, Mesh, MeshBasicMaterial, Object3D, ObjectLoader, OrthographicCamera, PerspectiveCamera,
  Raycaster, SphereGeometry, Vector2, Vector3, type Camera,
} from 'three';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { isFading, fadeOf } from '../../../src/adapters/three/crossFade.js';

const material = new MeshBasicMaterial();

/** A level mesh: a sphere of radius `r` centred at `(cx, cy, cz)` in the LOD's local space. */
function ball(r: number, cx = 0, cy = 0, cz = 0): Mesh {
  const m = new Mesh(new SphereGeometry(r, 8, 6), material);
  m.position.set(cx, cy, cz);
  return m;
}

function look(camera: Camera, eye: number[], target: number[]): void {
  camera.position.set(eye[0], eye[1], eye[2]);
  camera.lookAt(target[0], target[1], target[2]);
  camera.updateMatrixWorld(true);
}

/** Expected level for DESCENDING thresholds: the number of thresholds the size does not exceed. */
function expectedDescending(thresholds: number[], size: number): number {
  let l = 0;
  while (l < thresholds.length && !(size > thresholds[l])) l++;
  return l;
}

function expectedAscending(thresholds: number[], distance: number): number {
  let l = 0;
  while (l < thresholds.length && !(distance < thresholds[l])) l++;
  return l;
}

/** Tests avoid sizes within 1e-4 (relative) of a threshold, where float32 thresholds could decide either way. */
function farFromThresholds(thresholds: number[], v: number): boolean {
  return thresholds.every((t) => Math.abs(v - t) > 1e-4 * Math.max(1, Math.abs(t)));
}

// A LOD at (3, 1, −2), scaled ×2, whose content is a sphere of local radius 1.5 centred at (0, 2, 0)
// — world centre (3, 5, −2), world radius 3, away from the LOD's origin on purpose.
function makeLod(metric: 'distance' | 'pixels' | 'screenHeight' | 'screenArea', thresholds: number[], viewportHeight?: number): ScreenSizeLOD {
  const lod = new ScreenSizeLOD({ metric, viewportHeight: viewportHeight ?? null });
  const n = thresholds.length + 1;
  for (let i = 0; i < n; i++) {
    const t = metric === 'distance' ? (i === 0 ? 0 : thresholds[i - 1]) : (i < thresholds.length ? thresholds[i] : 0);
    lod.addLevel(ball(1.5, 0, 2, 0), t);
  }
  lod.position.set(3, 1, -2);
  lod.scale.setScalar(2);
  lod.updateMatrixWorld(true);
  return lod;
}
const CENTER = new Vector3(3, 5, -2), RADIUS = 3;

const eyeArb = fc.tuple(fc.double({ min: -400, max: 400, noNaN: true }), fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: -400, max: 400, noNaN: true }));
const aimArb = fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }));

describe('ScreenSizeLOD level choice equals the sphere-metric formulas', () => {
  it('perspective screen height, with zoom and view offset: 2R / (d · 2tan(fov/2)/zoom · h/fullHeight)', () => {
    const thresholds = [0.3, 0.1, 0.02];
    const lod = makeLod('screenHeight', thresholds);
    fc.assert(fc.property(eyeArb, aimArb, fc.double({ min: 2, max: 90, noNaN: true }), fc.double({ min: 0.5, max: 6, noNaN: true }), fc.boolean(),
      (eye, aim, fov, zoom, offset) => {
        const camera = new PerspectiveCamera(fov, 16 / 9, 0.1, 5000);
        camera.zoom = zoom;
        if (offset) camera.setViewOffset(1920, 1080, 480, 270, 960, 540);
        camera.updateProjectionMatrix();
        // Aim near the content so it is in view.
        look(camera, eye, [CENTER.x + aim[0], CENTER.y + aim[1], CENTER.z + aim[2]]);
        const d = new Vector3(...eye).distanceTo(CENTER);
        fc.pre(d > RADIUS * 1.01);
        const windowHeight = ((2 * Math.tan((fov * Math.PI) / 360)) / zoom) * (offset ? 0.5 : 1);
        const size = (2 * RADIUS) / (d * windowHeight);
        fc.pre(farFromThresholds(thresholds, size));
        const ndc = CENTER.clone().project(camera);
        fc.pre(Math.abs(ndc.x) < 1 && Math.abs(ndc.y) < 1 && ndc.z < 1); // in view (three's own projection)
        lod.update(camera);
        expect(Math.abs(lod.size - size)).toBeLessThan(1e-6 * size); // float32 vertex positions bound the sphere
        expect(lod.getCurrentLevel()).toBe(expectedDescending(thresholds, size));
        lod.levels.forEach((l, i) => expect(l.object.visible).toBe(i === lod.getCurrentLevel()));
      }), { numRuns: 200 });
  });

  it('pixels = screen height × viewport height; area = π(R/d)² / window area', () => {
    const px = [300, 80, 20];
    const lodPx = makeLod('pixels', px, 1080);
    const areas = [0.05, 0.005, 0.0002];
    const lodArea = makeLod('screenArea', areas);
    fc.assert(fc.property(eyeArb, aimArb, fc.double({ min: 5, max: 90, noNaN: true }), fc.double({ min: 0.5, max: 3, noNaN: true }),
      (eye, aim, fov, aspect) => {
        const camera = new PerspectiveCamera(fov, aspect, 0.1, 5000);
        camera.updateProjectionMatrix();
        look(camera, eye, [CENTER.x + aim[0], CENTER.y + aim[1], CENTER.z + aim[2]]);
        const d = new Vector3(...eye).distanceTo(CENTER);
        fc.pre(d > RADIUS * 1.01);
        const wh = 2 * Math.tan((fov * Math.PI) / 360);
        const pixels = ((2 * RADIUS) / (d * wh)) * 1080;
        const area = (Math.PI * (RADIUS / d) ** 2) / (wh * wh * aspect);
        fc.pre(farFromThresholds(px, pixels) && farFromThresholds(areas, area));
        // Off-screen objects keep their level (documented), so only judge objects whose centre three.js
        // itself projects inside the view (a narrow lens aimed a few metres off can miss the sphere).
        camera.updateMatrixWorld();
        const ndc = CENTER.clone().project(camera);
        fc.pre(Math.abs(ndc.x) < 1 && Math.abs(ndc.y) < 1 && ndc.z < 1);
        lodPx.update(camera);
        lodArea.update(camera);
        expect(lodPx.getCurrentLevel()).toBe(expectedDescending(px, pixels));
        expect(lodArea.getCurrentLevel()).toBe(expectedDescending(areas, area));
      }), { numRuns: 200 });
  });

  it('orthographic with zoom and view offset: 2R / ((top − bottom)/zoom · h/fullHeight), independent of distance', () => {
    const thresholds = [0.2, 0.05];
    const lod = makeLod('screenHeight', thresholds);
    fc.assert(fc.property(eyeArb, fc.double({ min: 5, max: 300, noNaN: true }), fc.double({ min: 0.25, max: 8, noNaN: true }), fc.boolean(),
      (eye, height, zoom, offset) => {
        const camera = new OrthographicCamera(-height, height, height / 2, -height / 2, -1000, 1000);
        camera.zoom = zoom;
        if (offset) camera.setViewOffset(800, 800, 200, 200, 400, 400);
        camera.updateProjectionMatrix();
        fc.pre(new Vector3(...eye).distanceTo(CENTER) > 1);
        look(camera, eye, [CENTER.x, CENTER.y, CENTER.z]);
        const size = (2 * RADIUS) / ((height / zoom) * (offset ? 0.5 : 1));
        fc.pre(farFromThresholds(thresholds, size));
        lod.update(camera);
        expect(lod.getCurrentLevel()).toBe(expectedDescending(thresholds, size));
      }), { numRuns: 200 });
  });

  it('distance is measured to the sphere surface (not the origin) and ignores zoom', () => {
    const thresholds = [20, 60, 150];
    const lod = makeLod('distance', thresholds);
    fc.assert(fc.property(eyeArb, fc.double({ min: 0.5, max: 8, noNaN: true }), (eye, zoom) => {
      const camera = new PerspectiveCamera(50, 1, 0.1, 5000);
      camera.zoom = zoom;
      camera.updateProjectionMatrix();
      look(camera, eye, [0, 0, 0]);
      const dist = Math.max(0, new Vector3(...eye).distanceTo(CENTER) - RADIUS);
      fc.pre(farFromThresholds(thresholds, dist));
      lod.update(camera);
      expect(lod.getCurrentLevel()).toBe(expectedAscending(thresholds, dist));
    }), { numRuns: 200 });
  });

  it('an ArrayCamera (stereo) gives every eye the level of the largest size over the eyes', () => {
    const lod = makeLod('screenHeight', [0.3, 0.1]);
    const left = new PerspectiveCamera(60, 1, 0.1, 1000);
    const right = new PerspectiveCamera(10, 1, 0.1, 1000); // narrower: sees the sphere larger
    for (const c of [left, right]) { c.updateProjectionMatrix(); look(c, [3, 5, 60], [3, 5, -2]); }
    const d = 62;
    const sizeLeft = (2 * RADIUS) / (d * 2 * Math.tan((30 * Math.PI) / 180));
    const sizeRight = (2 * RADIUS) / (d * 2 * Math.tan((5 * Math.PI) / 180));
    expect(expectedDescending([0.3, 0.1], sizeLeft)).toBe(2);
    lod.update(new ArrayCamera([left, right]));
    expect(lod.size / Math.max(sizeLeft, sizeRight)).toBeCloseTo(1, 6);
    expect(lod.getCurrentLevel()).toBe(expectedDescending([0.3, 0.1], sizeRight));
  });
});

describe('ScreenSizeLOD behaviour', () => {
  it('hysteresis: a level is kept until the size crosses its threshold by the band', () => {
    const lod = new ScreenSizeLOD({ metric: 'screenHeight' });
    lod.addLevel(ball(1), 0.5, 0.2).addLevel(ball(1), 0);
    expect(lod.chooseLevel(0.6)).toBe(0);
    expect(lod.chooseLevel(0.45)).toBe(0);     // 0.45 · 1.2 = 0.54 > 0.5: held
    expect(lod.chooseLevel(0.41)).toBe(1);     // 0.41 · 1.2 = 0.492 ≤ 0.5: leaves
    expect(lod.chooseLevel(0.55)).toBe(1);     // 0.55 · 0.8 = 0.44 ≤ 0.5: held
    expect(lod.chooseLevel(0.63)).toBe(0);     // 0.63 · 0.8 = 0.504 > 0.5: back to 0
  });

  it('hidden by a manager: every level off; a running cross-fade put back to 1, and no material read when none ran', () => {
    const lod = new ScreenSizeLOD({ metric: 'screenHeight' });
    const fine = ball(1), coarse = ball(1);
    lod.addLevel(fine, 0.5).addLevel(coarse, 0);
    lod.setLevel(1, 0);
    const walks = [vi.spyOn(fine, 'traverse'), vi.spyOn(coarse, 'traverse')];
    lod.setLevel(255, 0); // culled: no fade ran, so no level is traversed for its materials
    expect([fine.visible, coarse.visible]).toEqual([false, false]);
    expect(walks.map((w) => w.mock.calls.length)).toEqual([0, 0]);
    expect(lod.hiddenByManager).toBe(true);
    lod.setLevel(0, 0.25); // a blend: both levels drawn with fades
    expect(isFading(fine) && isFading(coarse)).toBe(true);
    lod.setLevel(255, 0);
    expect([fine.visible, coarse.visible]).toEqual([false, false]);
    expect([fadeOf(fine), fadeOf(coarse)]).toEqual([1, 1]);
    expect(isFading(fine) || isFading(coarse)).toBe(false);
    lod.setLevel(1, 0); // shown again: exactly the level
    expect([fine.visible, coarse.visible]).toEqual([false, true]);
  });

  it('any sequence of levels, blends, hides, level edits and outside writes: the levels drawn are exactly those of the last call (fast-check)', () => {
    // The object writes only the two levels it switches between (levelVisibility.ts); what it draws
    // must still be: nothing while hidden; levels a and a + 1 (a = level − 1 when blend ≥ 0.5) inside
    // a blend; else the level alone — also after `invalidateVisibility()` following outside writes.
    const op = fc.record({ kind: fc.constantFrom('level', 'level', 'level', 'hide', 'blend', 'add', 'remove', 'outside'), level: fc.nat(5), blend: fc.constantFrom(0.25, 0.75) });
    fc.assert(fc.property(fc.integer({ min: 2, max: 5 }), fc.array(op, { minLength: 1, maxLength: 30 }), (n, ops) => {
      const lod = new ScreenSizeLOD({ metric: 'screenHeight' });
      for (let i = 0; i < n; i++) lod.addLevel(ball(1), 1 - i / n);
      let expected: number[] = [];
      for (const o of ops) {
        const k = lod.levels.length, level = o.level % k;
        if (o.kind === 'level') { lod.setLevel(level, 0); expected = [level]; }
        if (o.kind === 'hide') { lod.setLevel(255, 0); expected = []; }
        if (o.kind === 'blend') {
          // (as the engine gives them: level = round(index), blend = its fraction, so index = level ± …)
          if (o.blend >= 0.5 ? level === 0 : level === k - 1) continue;
          lod.setLevel(level, o.blend);
          const a = o.blend >= 0.5 ? level - 1 : level;
          expected = [a, a + 1];
        }
        if (o.kind === 'add') { lod.addLevel(ball(1), Math.min(...lod.levels.map((l) => l.threshold)) / 2); continue; } // (nothing re-applied until the next call)
        if (o.kind === 'remove' && k > 2) { lod.removeLevel(lod.levels[k - 1].threshold); continue; }
        if (o.kind === 'outside') { lod.levels.forEach((l) => { l.object.visible = true; }); lod.invalidateVisibility(); continue; }
        if (o.kind === 'remove') continue;
        const drawn = lod.levels.flatMap((l, i) => (l.object.visible ? [i] : []));
        expect(drawn, JSON.stringify(o)).toEqual(expected);
      }
    }));
  });

  it('blend thresholds give the OpenUSD fraction and draw both levels with complementary dither', () => {
    const lod = new ScreenSizeLOD({ metric: 'screenHeight' });
    const fine = ball(1), coarse = ball(1);
    lod.addLevel(fine, 0.5).addLevel(coarse, 0);
    lod.setBlendThresholds([0.3]);
    // Inside [0.3, 0.5]: fraction (size − 0.5)/(0.3 − 0.5).
    expect(lod.chooseLevel(0.45)).toBe(0);
    expect(lod.blend).toBeCloseTo(0.25, 6);
    lod.applyVisibility(lod.getCurrentLevel(), lod.blend);
    expect(fine.visible && coarse.visible).toBe(true);
    expect(fadeOf(fine)).toBeCloseTo(0.75, 6);
    expect(fadeOf(coarse)).toBeCloseTo(-0.25, 6);
    expect(lod.chooseLevel(0.35)).toBe(1);   // fraction 0.75 rounds to level 1
    lod.applyVisibility(lod.getCurrentLevel(), lod.blend);
    expect(fadeOf(fine)).toBeCloseTo(0.25, 6);
    lod.chooseLevel(0.9);
    lod.applyVisibility(lod.getCurrentLevel(), lod.blend);
    expect(fine.visible).toBe(true);
    expect(coarse.visible).toBe(false);
    expect(isFading(fine)).toBe(false);
    expect(() => lod.setBlendThresholds([0.7])).toThrow(/blendThresholds\[0\]/);
  });

  it('time-based fade (no blend thresholds): old and new level dither over fadeDuration, then only the new one', () => {
    const clock = vi.spyOn(performance, 'now');
    try {
      const lod = new ScreenSizeLOD({ metric: 'screenHeight', fadeDuration: 1 });
      const fine = ball(1), coarse = ball(1);
      lod.addLevel(fine, 0.5).addLevel(coarse, 0);
      clock.mockReturnValue(0);
      lod.setLevel(0, 0);
      expect([fine.visible, coarse.visible]).toEqual([true, false]);
      lod.setLevel(1, 0);                       // change at t = 0 s
      expect(lod.fading).toBe(true);
      clock.mockReturnValue(250);                // t = 0.25 s
      lod.applyVisibility(1, 0);
      expect([fine.visible, coarse.visible]).toEqual([true, true]);
      expect(fadeOf(fine)).toBeCloseTo(0.75, 9);
      expect(fadeOf(coarse)).toBeCloseTo(-0.25, 9);
      clock.mockReturnValue(1100);               // past the duration
      lod.applyVisibility(1, 0);
      expect(lod.fading).toBe(false);
      expect([fine.visible, coarse.visible]).toEqual([false, true]);
      expect(isFading(fine) || isFading(coarse)).toBe(false);
    } finally {
      clock.mockRestore();
    }
  });

  it('raycast hits only the level that is drawn', () => {
    // Level 0: a wide box; level 1: a thin box off to the side. A ray through the centre hits level 0 only.
    const lod = new ScreenSizeLOD({ metric: 'distance' });
    const wide = new Mesh(new BoxGeometry(4, 4, 4), material);
    const thin = new Mesh(new BoxGeometry(0.5, 0.5, 0.5), material);
    thin.position.set(0, 0, 0);
    const side = new Mesh(new BoxGeometry(1, 1, 1), material);
    side.position.set(10, 0, 0);
    lod.addLevel(wide, 0).addLevel(thin, 50);
    lod.add(side); // a non-level child stays pickable
    lod.updateMatrixWorld(true);
    const camera = new PerspectiveCamera(50, 1, 0.1, 1000);
    const raycaster = new Raycaster(new Vector3(1.5, 0, 30), new Vector3(0, 0, -1));
    look(camera, [0, 0, 30], [0, 0, 0]);
    lod.update(camera);
    expect(lod.getCurrentLevel()).toBe(0);
    let hits = raycaster.intersectObject(lod, true);
    expect(hits.map((h) => h.object)).toEqual([wide, wide].slice(0, hits.length));
    expect(hits.length).toBeGreaterThan(0);
    look(camera, [0, 0, 300], [0, 0, 0]);
    lod.update(camera);
    expect(lod.getCurrentLevel()).toBe(1);
    hits = raycaster.intersectObject(lod, true);
    expect(hits).toHaveLength(0); // the ray at x = 1.5 misses the thin box and the hidden wide box is skipped
    const sideRay = new Raycaster(new Vector3(10, 0, 30), new Vector3(0, 0, -1));
    expect(sideRay.intersectObject(lod, true)[0]?.object).toBe(side);
    // Hidden as a whole (LodManager's HIDDEN_LEVEL): no level is hit, other children still are.
    lod.setLevel(0, 0);
    const centre = new Raycaster(new Vector3(0, 0, 30), new Vector3(0, 0, -1));
    expect(centre.intersectObject(lod, true)[0]?.object).toBe(wide);
    lod.setLevel(255, 0);
    expect(centre.intersectObject(lod, true)).toHaveLength(0);
    expect(sideRay.intersectObject(lod, true)[0]?.object).toBe(side);
  });

  it('a sphere outside the view keeps its level; pixels without a viewport height is counted, not thrown', () => {
    const lod = makeLod('screenHeight', [0.3, 0.1]);
    const camera = new PerspectiveCamera(50, 1, 0.1, 1000);
    look(camera, [3, 5, 10], [3, 5, -2]);
    lod.update(camera);
    expect(lod.getCurrentLevel()).toBe(0);
    look(camera, [3, 5, 500], [3, 5, 1000]); // looking away and far
    lod.update(camera);
    expect(lod.getCurrentLevel()).toBe(0);
    const px = makeLod('pixels', [80, 20]);
    px.update(camera);
    expect(px.skippedUpdates).toBe(1);
    px.renderer = { getDrawingBufferSize: (t: Vector2) => t.set(1920, 1080) };
    look(camera, [3, 5, 60], [3, 5, -2]);
    px.update(camera);
    expect(px.skippedUpdates).toBe(1);
    const expectedPx = ((2 * RADIUS) / (62 * 2 * Math.tan((25 * Math.PI) / 180))) * 1080;
    expect(px.size).toBeCloseTo(expectedPx, 6);
  });

  it('rejects bad levels and options at the boundary', () => {
    const lod = new ScreenSizeLOD({ metric: 'pixels' });
    expect(() => lod.addLevel(ball(1), -1)).toThrow(RangeError);
    expect(() => lod.addLevel(ball(1), 10, 1.5)).toThrow(/hysteresis/);
    expect(() => lod.addLevel({} as Object3D, 10)).toThrow(TypeError);
    expect(() => new ScreenSizeLOD({ metric: 'feet' as 'pixels' })).toThrow(/metric/);
  });

  it('sorts levels finest first for both metric directions and removes by threshold', () => {
    const a = ball(1), b = ball(1), c = ball(1);
    const px = new ScreenSizeLOD({ metric: 'pixels', viewportHeight: 1000 });
    px.addLevel(c, 0).addLevel(a, 100).addLevel(b, 20);
    expect(px.levels.map((l) => l.object)).toEqual([a, b, c]);
    expect(px.thresholds).toEqual([100, 20]);
    const dist = new ScreenSizeLOD();
    dist.addLevel(c, 300).addLevel(a, 0).addLevel(b, 50);
    expect(dist.levels.map((l) => l.object)).toEqual([a, b, c]);
    expect(dist.thresholds).toEqual([50, 300]);
    expect(dist.removeLevel(50)).toBe(true);
    expect(dist.children).not.toContain(b);
    expect(dist.thresholds).toEqual([300]);
  });

  it('clone() and toJSON()/fromJSON() keep metric, thresholds, blends and options', () => {
    const lod = new ScreenSizeLOD({ metric: 'screenHeight', bias: 1.5, fadeDuration: 0.25 });
    lod.addLevel(ball(1), 0.4, 0.1).addLevel(ball(1), 0.1).addLevel(ball(1), 0);
    lod.setBlendThresholds([0.3]);
    const copy = lod.clone();
    expect(copy).toBeInstanceOf(ScreenSizeLOD);
    expect(copy.metric).toBe('screenHeight');
    expect(copy.thresholds).toEqual(lod.thresholds);
    expect(copy.blendThresholds).toEqual([0.3]);
    expect(copy.levels[0].hysteresis).toBeCloseTo(0.1, 9);
    expect(copy.levels[0].object).not.toBe(lod.levels[0].object);
    const json = lod.toJSON();
    const loaded = new ObjectLoader().parse(json);
    const back = ScreenSizeLOD.fromJSON((json as unknown as { object: Parameters<typeof ScreenSizeLOD.fromJSON>[0] }).object, loaded);
    expect(back.metric).toBe('screenHeight');
    expect(back.bias).toBe(1.5);
    expect(back.thresholds.map((t) => Math.fround(t))).toEqual(lod.thresholds);
    expect(back.blendThresholds).toEqual([0.3]);
    expect(back.levels).toHaveLength(3);
  });
});
