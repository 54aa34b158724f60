/**
 * `<ScreenSizeDetailed>` on its own (no manager): the level it draws, as the camera moves, equals
 * lodkit's rule computed here from the formulas (helpers.tsx), for pixels, screen height with
 * per-boundary hysteresis, and drei's `distances`; children added, removed and reordered at runtime
 * leave exactly the current children as levels; the ref is the ScreenSizeLOD.
 */
import { createRef, StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import type { PerspectiveCamera } from 'three';
import { ScreenSizeLOD } from 'lodkit/three';
import { ScreenSizeDetailed } from '../src/index.js';
import { clearOf, levelForDistance, levelForSize, levelWithBand, pixelDiameter, render, screenHeight, sphereDistance, visibleIndex } from './helpers.js';

const Ball = ({ name, detail }: { name: string; detail: number }) => (
  <mesh name={name}><sphereGeometry args={[1, 4 * detail, 2 * detail]} /><meshBasicMaterial /></mesh>
);

/** Camera distances along +z, near to far and back. */
const PATH = [2.2, 3, 4, 6, 9, 13, 18, 25, 35, 50, 70, 100, 140, 100, 70, 50, 35, 25, 18, 13, 9, 6, 4, 3, 2.2];

describe('<ScreenSizeDetailed> without a manager', () => {
  it('pixels: the level drawn follows size = R / (d·tan(fov/2)) · viewport height against [80, 20] px, along a dolly', async () => {
    const ref = createRef<ScreenSizeLOD>();
    const r = await render(
      <ScreenSizeDetailed ref={ref} metric="pixels" thresholds={[80, 20]} position={[0, 0, 0]}>
        <Ball name="high" detail={16} /><Ball name="mid" detail={6} /><Ball name="low" detail={2} />
      </ScreenSizeDetailed>,
    );
    expect(ref.current).toBeInstanceOf(ScreenSizeLOD);
    const camera = r.state().camera as PerspectiveCamera;
    const seen = new Set<number>();
    let checked = 0;
    for (const z of PATH) {
      r.moveCamera(0, 0, z);
      await r.frame();
      const px = pixelDiameter([0, 0, z], [0, 0, 0], 1, camera.fov, r.viewportHeight());
      if (!clearOf(px, [80, 20])) continue;
      const want = levelForSize(px, [80, 20]);
      expect(visibleIndex(ref.current!.children), `camera at z = ${z}: ${px.toFixed(2)} px`).toBe(want);
      expect(ref.current!.getCurrentLevel()).toBe(want);
      seen.add(want); checked++;
    }
    expect(checked).toBeGreaterThan(20);
    expect([...seen].sort()).toEqual([0, 1, 2]);
    await r.renderer.unmount();
  });

  it('screenHeight with one hysteresis band per boundary: the band rule from the previous level, in and out', async () => {
    const ref = createRef<ScreenSizeLOD>();
    const t = [0.5, 0.15], h = [0.2, 0.1];
    const r = await render(
      <StrictMode>
        <ScreenSizeDetailed ref={ref} metric="screenHeight" thresholds={t} hysteresis={h} position={[1, 0.5, -2]}>
          <Ball name="a" detail={8} /><Ball name="b" detail={4} /><Ball name="c" detail={2} />
        </ScreenSizeDetailed>
      </StrictMode>,
    );
    const camera = r.state().camera as PerspectiveCamera;
    const centre = [1, 0.5, -2];
    let prev = -1, held = 0, checked = 0;
    const path = Array.from({ length: 60 }, (_, i) => 1.5 + 0.35 * (i < 30 ? i : 59 - i)); // out to ~11.7 and back
    for (const z of path) {
      r.moveCamera(1, 0.5, -2 + z, [1, 0.5, -2]);
      await r.frame();
      const size = screenHeight([1, 0.5, -2 + z], centre, 1, camera.fov);
      const level = ref.current!.getCurrentLevel();
      if (!clearOf(size, t, 1e-3) || !clearOf(size * 1.2, t, 1e-3) || !clearOf(size * 0.8, t, 1e-3) || !clearOf(size * 1.1, t, 1e-3) || !clearOf(size * 0.9, t, 1e-3)) { prev = level; continue; }
      const want = prev < 0 ? levelForSize(size, t) : levelWithBand(size, t, h, prev);
      if (want !== levelForSize(size, t)) held++;
      expect(level, `distance ${z.toFixed(2)}, size ${size.toFixed(4)}, from level ${prev}`).toBe(want);
      expect(visibleIndex(ref.current!.children)).toBe(want);
      prev = level; checked++;
    }
    expect(checked).toBeGreaterThan(40);
    expect(held, 'frames where the band kept the previous level').toBeGreaterThan(0);
    await r.renderer.unmount();
  });

  it("drei's distances: level i from distances[i] on, measured to the sphere's nearest point", async () => {
    const ref = createRef<ScreenSizeLOD>();
    const r = await render(
      <ScreenSizeDetailed ref={ref} distances={[0, 10, 25]}>
        <Ball name="a" detail={8} /><Ball name="b" detail={4} /><Ball name="c" detail={2} />
      </ScreenSizeDetailed>,
    );
    const seen = new Set<number>();
    for (const z of PATH) {
      r.moveCamera(0, 0, z);
      await r.frame();
      const d = sphereDistance([0, 0, z], [0, 0, 0], 1);
      if (!clearOf(d, [10, 25])) continue;
      const want = levelForDistance(d, [10, 25]);
      expect(visibleIndex(ref.current!.children), `z = ${z}`).toBe(want);
      seen.add(want);
    }
    expect([...seen].sort()).toEqual([0, 1, 2]);
    await r.renderer.unmount();
  });

  it('children added, removed and reordered at runtime: the levels are exactly the current children, finest first', async () => {
    const ref = createRef<ScreenSizeLOD>();
    const scene = (names: string[], thresholds: number[]) => (
      <ScreenSizeDetailed ref={ref} metric="pixels" thresholds={thresholds}>
        {names.map((n) => <Ball key={n} name={n} detail={4} />)}
      </ScreenSizeDetailed>
    );
    const r = await render(scene(['A', 'B', 'C'], [80, 20]));
    const names = () => ref.current!.levels.map((l) => l.object.name);
    const children = () => ref.current!.children.map((c) => c.name);
    expect(names()).toEqual(['A', 'B', 'C']);
    expect(ref.current!.thresholds).toEqual([80, 20]);
    const steps: [string[], number[]][] = [[['A', 'C'], [50]], [['C', 'A'], [50]], [['C', 'D', 'A'], [90, 30]], [['D'], []], [['B', 'D', 'C', 'A'], [200, 90, 30]]];
    for (const [list, t] of steps) {
      await r.renderer.update(scene(list, t));
      expect(names(), `levels after ${list.join(',')}`).toEqual(list);
      expect(children(), 'no stale child').toEqual(list);
      expect(ref.current!.thresholds).toEqual(t.map(Math.fround));
      // The level chosen against the new thresholds, close up and far away.
      const camera = r.state().camera as PerspectiveCamera;
      for (const z of [3, 60]) {
        r.moveCamera(0, 0, z);
        await r.frame();
        const want = levelForSize(pixelDiameter([0, 0, z], [0, 0, 0], 1, camera.fov, r.viewportHeight()), t);
        expect(ref.current!.children.filter((c) => c.visible).map((c) => c.name), `z = ${z}`).toEqual([list[want]]);
      }
    }
    await r.renderer.unmount();
  });

  it('rejects thresholds that do not fit the children, naming the prop', async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => { errors.push(args); };
    try {
      await expect(render(
        <ScreenSizeDetailed metric="pixels" thresholds={[80]}><Ball name="a" detail={2} /><Ball name="b" detail={2} /><Ball name="c" detail={2} /></ScreenSizeDetailed>,
      )).rejects.toThrow(/thresholds must have one value per boundary, children − 1 = 2, got 1/);
    } finally {
      console.error = original;
    }
  });
});
