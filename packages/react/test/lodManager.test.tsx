/**
 * `<LodManager>`: every `<ScreenSizeDetailed>` inside it gets the level of lodkit's rule computed
 * here (pixels, the manager's hysteresis band or the object's own per-level bands), as the camera moves; exactly one `LodSet.update` per
 * frame for the ScreenSizeLODs however many there are (a spy on `LodSet.prototype.update`, the
 * documented batch entry point), `<InstancedLOD>` instances included, and one budget over both; budgets pass through; StrictMode
 * registers each object once; `useLodStats` reports the frame's counts.
 */
import { createRef, StrictMode, useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoxGeometry, MeshBasicMaterial, SphereGeometry, type Mesh, type PerspectiveCamera } from 'three';
import { LodSet } from 'lodkit';
import type { InstancedLOD as InstancedLODObject, ScreenSizeLOD } from 'lodkit/three';
import { InstancedLOD, LodInstance, LodManager, ScreenSizeDetailed, useLodStats, type LodRuntime, type LodStatsSnapshot } from '../src/index.js';
import { clearOf, levelForSize, levelWithBand, pixelDiameter, render, visibleIndex } from './helpers.js';

const T = [80, 20];
const Levels = () => (
  <>
    <mesh><sphereGeometry args={[1, 32, 16]} /><meshBasicMaterial /></mesh>
    <mesh><sphereGeometry args={[1, 12, 6]} /><meshBasicMaterial /></mesh>
    <mesh><sphereGeometry args={[1, 4, 2]} /><meshBasicMaterial /></mesh>
  </>
);

/** n objects on a line along −z, spread sideways so all stay in view. */
const positions = (n: number): [number, number, number][] => Array.from({ length: n }, (_, i) => [((i % 7) - 3) * 0.8, ((i % 3) - 1) * 0.5, -3 * i]);

function Field({ n, refs }: { n: number; refs: (ScreenSizeLOD | null)[] }) {
  return <>{positions(n).map((p, i) => <ScreenSizeDetailed key={i} ref={(o) => { refs[i] = o; }} metric="pixels" thresholds={T} position={p}><Levels /></ScreenSizeDetailed>)}</>;
}

afterEach(() => { vi.restoreAllMocks(); });

describe('<LodManager>', () => {
  it('each object gets level(R / (d·tan(fov/2)) · H) as the camera moves, under StrictMode, one registration each', async () => {
    const refs: (ScreenSizeLOD | null)[] = [];
    const manager = createRef<LodRuntime>();
    const r = await render(<StrictMode><LodManager ref={manager}><Field n={12} refs={refs} /></LodManager></StrictMode>);
    expect(manager.current!.registered).toBe(12);
    expect(manager.current!.manager.count).toBeLessThanOrEqual(12 * 2); // ids may be reused, never one per render
    const camera = r.state().camera as PerspectiveCamera;
    let checked = 0;
    const seen = new Set<number>();
    for (const z of [6, 2, 10, 20, -10, -20]) {
      r.moveCamera(0.3, 0.2, z, [0, 0, z - 50]);
      await r.frame();
      positions(12).forEach((p, i) => {
        if (p[2] > z - 0.5) return; // behind or around the camera
        const px = pixelDiameter([0.3, 0.2, z], p, 1, camera.fov, r.viewportHeight());
        if (!clearOf(px, T)) return;
        const want = levelForSize(px, T);
        expect(visibleIndex(refs[i]!.children), `object ${i} at z = ${p[2]}, camera z = ${z}: ${px.toFixed(1)} px`).toBe(want);
        seen.add(want); checked++;
      });
    }
    expect(checked).toBeGreaterThan(30);
    expect([...seen].sort()).toEqual([0, 1, 2]);
    await r.renderer.unmount();
    expect(manager.current === null || manager.current.registered === 0).toBe(true);
  });

  it("the manager's hysteresis band: each level follows the band rule from the previous frame's level", async () => {
    const ref = createRef<ScreenSizeLOD>();
    const h = 0.15;
    const r = await render(
      <LodManager hysteresis={h}>
        <ScreenSizeDetailed ref={ref} metric="pixels" thresholds={T}><Levels /></ScreenSizeDetailed>
      </LodManager>,
    );
    const camera = r.state().camera as PerspectiveCamera;
    let prev = -1, held = 0, checked = 0;
    const path = Array.from({ length: 80 }, (_, i) => 3 + 0.6 * (i < 40 ? i : 79 - i));
    for (const z of path) {
      r.moveCamera(0, 0, z);
      await r.frame();
      const px = pixelDiameter([0, 0, z], [0, 0, 0], 1, camera.fov, r.viewportHeight());
      const level = visibleIndex(ref.current!.children);
      const margins = [1, 1 + h, 1 - h].every((f) => clearOf(px * f, T));
      if (margins) {
        const want = prev < 0 ? levelForSize(px, T) : levelWithBand(px, T, [h, h], prev);
        if (want !== levelForSize(px, T)) held++;
        expect(level, `z = ${z.toFixed(1)}, ${px.toFixed(1)} px, from level ${prev}`).toBe(want);
        checked++;
      }
      prev = level;
    }
    expect(checked).toBeGreaterThan(60);
    expect(held).toBeGreaterThan(0);
    await r.renderer.unmount();
  });

  it("per-level hysteresis under a manager: an object's own bands are its own, the others take the manager's band; nothing warned", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const own = createRef<ScreenSizeLOD>(), plain = createRef<ScreenSizeLOD>();
    const h = 0.1, bands = [0.3, 0.05];
    const r = await render(
      <LodManager hysteresis={h}>
        <ScreenSizeDetailed ref={own} metric="pixels" thresholds={T} hysteresis={bands}><Levels /></ScreenSizeDetailed>
        <ScreenSizeDetailed ref={plain} metric="pixels" thresholds={T} position={[0.001, 0, 0]}><Levels /></ScreenSizeDetailed>
      </LodManager>,
    );
    const camera = r.state().camera as PerspectiveCamera;
    const prev = [-1, -1], held = [0, 0];
    let checked = 0;
    const path = Array.from({ length: 80 }, (_, i) => 3 + 0.6 * (i < 40 ? i : 79 - i));
    for (const z of path) {
      r.moveCamera(0, 0, z);
      await r.frame();
      const px = pixelDiameter([0, 0, z], [0, 0, 0], 1, camera.fov, r.viewportHeight());
      const levels = [visibleIndex(own.current!.children), visibleIndex(plain.current!.children)];
      [bands, [h, h]].forEach((b, k) => {
        if (![1, 1 + b[0], 1 - b[0], 1 + b[1], 1 - b[1]].every((f) => clearOf(px * f, T))) return;
        const want = prev[k] < 0 ? levelForSize(px, T) : levelWithBand(px, T, b, prev[k]);
        if (want !== levelForSize(px, T)) held[k]++;
        expect(levels[k], `${k === 0 ? 'own bands' : "manager's band"}: z = ${z.toFixed(1)}, ${px.toFixed(1)} px, from level ${prev[k]}`).toBe(want);
        checked++;
      });
      prev[0] = levels[0]; prev[1] = levels[1];
    }
    expect(checked).toBeGreaterThan(100);
    expect(held[0]).toBeGreaterThan(held[1]); // the wider own band (0.3 at 80 px) held the first one longer
    expect(held[1]).toBeGreaterThan(0);
    expect(warn.mock.calls.filter((c) => String(c[0]).includes('lodkit'))).toEqual([]);
    await r.renderer.unmount();
  });

  it('one LodSet.update per frame for 1, 10 and 200 objects, <InstancedLOD>s included', async () => {
    const spy = vi.spyOn(LodSet.prototype, 'update');
    for (const n of [1, 10, 200]) {
      const refs: (ScreenSizeLOD | null)[] = [];
      const r = await render(<LodManager><Field n={n} refs={refs} /></LodManager>);
      r.moveCamera(0, 0, 5);
      spy.mockClear();
      for (let f = 0; f < 5; f++) await r.frame();
      expect(spy, `${n} objects, 5 frames`).toHaveBeenCalledTimes(5);
      await r.renderer.unmount();
    }
    const box = new BoxGeometry(), small = new BoxGeometry(0.5, 0.5, 0.5), material = new MeshBasicMaterial();
    const levels = [{ geometry: box, material }, { geometry: small, material }];
    const refs: (ScreenSizeLOD | null)[] = [];
    const r = await render(
      <LodManager>
        <Field n={50} refs={refs} />
        <InstancedLOD levels={levels} thresholds={[40]}>{positions(30).map((p, i) => <LodInstance key={i} position={p} />)}</InstancedLOD>
        <InstancedLOD levels={levels} thresholds={[40]}>{positions(5).map((p, i) => <LodInstance key={i} position={p} />)}</InstancedLOD>
      </LodManager>,
    );
    r.moveCamera(0, 0, 5);
    spy.mockClear();
    for (let f = 0; f < 4; f++) await r.frame();
    expect(spy).toHaveBeenCalledTimes(4); // the instanced objects are objects of the manager's set
    await r.renderer.unmount();
  });

  it('one budget spans <ScreenSizeDetailed>s and <InstancedLOD> instances: the triangles three draws stay under it', async () => {
    const fine = new SphereGeometry(1, 32, 16), coarse = new SphereGeometry(1, 4, 2), material = new MeshBasicMaterial();
    const tris = (g: SphereGeometry) => g.index!.count / 3;
    const levels = [{ geometry: fine, material }, { geometry: coarse, material }];
    const refs: (ScreenSizeLOD | null)[] = [];
    const inst = createRef<InstancedLODObject>();
    const scene = (budget: number | undefined) => (
      <LodManager policy={budget === undefined ? 'thresholds' : 'budget'} budget={budget}>
        <Field n={30} refs={refs} />
        <InstancedLOD ref={inst} levels={levels} thresholds={[40]}>{positions(30).map((p, i) => <LodInstance key={i} position={[p[0] + 0.3, p[1], p[2]]} />)}</InstancedLOD>
      </LodManager>
    );
    const drawn = () => {
      const lodTris = refs.reduce((s, lod) => s + lod!.children.reduce((t, c) => t + (c.visible ? ((c as Mesh).geometry.index!.count / 3) : 0), 0), 0);
      const instTris = inst.current!.levelMeshes.reduce((s, m, l) => s + m.count * tris(l === 0 ? fine : coarse), 0);
      return [lodTris, instTris];
    };
    const r = await render(scene(undefined));
    r.moveCamera(0, 0, 5);
    await r.frame();
    const [lodsFree, instFree] = drawn();
    const budget = Math.round(0.9 * Math.max(lodsFree, instFree));
    // Each kind alone could be drawn under this budget, so two separate budgets would allow almost 2 ×.
    expect(Math.min(lodsFree, instFree)).toBeGreaterThan(budget / 2);
    await r.renderer.update(scene(budget));
    for (let f = 0; f < 20; f++) await r.frame();
    const [lods, instances] = drawn();
    expect(lods + instances).toBeLessThanOrEqual(budget);
    expect(lods + instances).toBeGreaterThan(0.5 * budget); // spent, not everything dropped to the coarsest
    await r.renderer.unmount();
  });

  it('passes the policy through: budget 0 draws every object at its coarsest level, a large budget keeps the finest', async () => {
    const refs: (ScreenSizeLOD | null)[] = [];
    const r = await render(<LodManager policy="budget" budget={0}><Field n={6} refs={refs} /></LodManager>);
    r.moveCamera(0, 0, 3);
    await r.frame();
    refs.forEach((lod, i) => { expect(visibleIndex(lod!.children), `object ${i}`).toBe(2); });
    await r.renderer.update(<LodManager policy="budget" budget={1e9}><Field n={6} refs={refs} /></LodManager>);
    await r.frame();
    expect(visibleIndex(refs[0]!.children)).toBe(0);
    await r.renderer.unmount();
  });

  it('useLodStats: per-level counts equal the levels drawn, published only when they change', async () => {
    const refs: (ScreenSizeLOD | null)[] = [];
    const snapshots: LodStatsSnapshot[] = [];
    function Overlay() {
      const stats = useLodStats();
      useEffect(() => { snapshots.push(stats); }, [stats]);
      return null;
    }
    const r = await render(<LodManager><Field n={9} refs={refs} /><Overlay /></LodManager>);
    r.moveCamera(0, 0, 4);
    await r.frame();
    const last = snapshots[snapshots.length - 1];
    const counts = [0, 0, 0];
    for (const lod of refs) counts[visibleIndex(lod!.children)]++;
    expect(last.levelCounts).toEqual(counts);
    expect(last.objects).toBe(9);
    await r.frame(); // nothing moved: `changes` drops to 0, one more snapshot
    expect(snapshots[snapshots.length - 1].changes).toBe(0);
    const before = snapshots.length;
    await r.frame(); await r.frame(); // still nothing: no new snapshot, no re-render
    expect(snapshots.length).toBe(before);
    await r.renderer.unmount();
  });
});
