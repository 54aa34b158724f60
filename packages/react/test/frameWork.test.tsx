/**
 * What a manager frame does NOT do: re-read a `dynamic` object that did not move (its world matrix
 * and bounding sphere are compared with the last read, bit for bit), write the visibility of an
 * object whose level did not change, or make a stats snapshot nobody reads. And what it still does:
 * a moved object, a moved parent group or a changed bounding sphere is re-read and gets the level of
 * its new place (the rule written out in helpers.ts). And the registration order that makes the
 * engine's clusters compact.
 */
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Group, Matrix4, Mesh, SphereGeometry, type PerspectiveCamera } from 'three';
import { ScreenSizeLOD } from 'lodkit/three';
import { LodManager, ScreenSizeDetailed, type LodRuntime } from '../src/index.js';
import { compactOrder } from '../src/compactOrder.js';
import { DynamicSet } from '../src/dynamicSet.js';
import { clearOf, levelForSize, pixelDiameter, render, visibleIndex } from './helpers.js';

const T = [80, 20];
const Levels = () => (
  <>
    <mesh><sphereGeometry args={[1, 16, 8]} /><meshBasicMaterial /></mesh>
    <mesh><sphereGeometry args={[1, 8, 4]} /><meshBasicMaterial /></mesh>
    <mesh><sphereGeometry args={[1, 4, 2]} /><meshBasicMaterial /></mesh>
  </>
);

afterEach(() => { vi.restoreAllMocks(); });

/** A ScreenSizeLOD with three levels, at `z` on the axis, outside any scene. */
function lodAt(z: number): ScreenSizeLOD {
  const lod = new ScreenSizeLOD({ metric: 'pixels' });
  lod.addLevel(new Mesh(new SphereGeometry(1, 8, 4)), 80).addLevel(new Mesh(new SphereGeometry(1, 4, 2)), 20).addLevel(new Mesh(new SphereGeometry(1, 3, 2)));
  lod.position.z = z;
  lod.computeBoundingSphere();
  return lod;
}

describe('DynamicSet', () => {
  it('re-reads each member at its first sync, then only the moved ones, across removals and re-additions', () => {
    const set = new DynamicSet();
    const [a, b, c] = [lodAt(-5), lodAt(-10), lodAt(-15)];
    const read: ScreenSizeLOD[] = [];
    const sync = () => { read.length = 0; set.sync((lod) => read.push(lod)); return [...read]; };
    for (const lod of [a, b, c]) set.add(lod);
    set.add(b); // already a member: nothing changes
    expect(set.size).toBe(3);
    expect(new Set(sync())).toEqual(new Set([a, b, c]));
    expect(sync()).toEqual([]);
    c.position.x = 2; // moved; the sync brings its matrix up to date itself
    expect(sync()).toEqual([c]);
    expect(c.matrixWorld.elements[12]).toBe(2);
    expect(set.delete(a)).toBe(true); // c takes a's slot: its last read moves with it
    expect(set.delete(a)).toBe(false);
    expect(sync()).toEqual([]);
    b.boundingSphere!.radius = 2; // a new local sphere, same matrix
    expect(sync()).toEqual([b]);
    set.add(a);
    expect(sync()).toEqual([a]);
    set.clear();
    expect(set.size).toBe(0);
    expect(sync()).toEqual([]);
  });

  it('re-reads after any input of the world matrix changed: a rotation, a parent that moved (in runs apart), a new parent, a matrix set by hand', () => {
    const [g1, g2, g3] = [new Group(), new Group(), new Group()], set = new DynamicSet();
    const members = [lodAt(-5), lodAt(-10), lodAt(-15), lodAt(-20), lodAt(-25)];
    members.forEach((lod, i) => { (i % 2 === 0 ? g1 : g2).add(lod); set.add(lod); }); // runs of one: g1, g2, g1, g2, g1
    const read: ScreenSizeLOD[] = [];
    const sync = () => { read.length = 0; set.sync((lod) => read.push(lod)); return [...read]; };
    expect(sync()).toEqual(members);
    expect(sync()).toEqual([]);
    members[1].rotation.y = 0.5; // (through the quaternion)
    expect(sync()).toEqual([members[1]]);
    g1.position.x = 4; // every member of g1, though g2's members sit between them
    expect(sync()).toEqual([members[0], members[2], members[4]]);
    for (const i of [0, 2, 4]) expect(members[i].matrixWorld.elements[12]).toBe(4);
    expect(sync()).toEqual([]);
    g3.position.y = 7;
    g3.add(members[3]); // a new parent, same local inputs
    expect(sync()).toEqual([members[3]]);
    expect(members[3].matrixWorld.elements[13]).toBe(7);
    members[4].matrixAutoUpdate = false; // compared by its world matrix every sync, as before
    expect(sync()).toEqual([]);
    members[4].matrix.makeTranslation(1, 2, 3);
    members[4].matrixWorldNeedsUpdate = true; // (three's rule after writing `matrix`)
    expect(sync()).toEqual([members[4]]);
    expect(Array.from(members[4].matrixWorld.elements.slice(12, 15))).toEqual([5, 2, 3]);
  });

  it('random edits: a sync re-reads exactly the members whose world matrix (recomputed here) or sphere differs from their last read', () => {
    const op = fc.record({ what: fc.integer({ min: 0, max: 7 }), k: fc.nat(), v: fc.integer({ min: -3, max: 3 }) });
    fc.assert(fc.property(fc.array(fc.array(op, { maxLength: 4 }), { minLength: 1, maxLength: 12 }), (frames) => {
      const groups = [new Group(), new Group(), new Group()], set = new DynamicSet();
      groups[2].add(groups[1]); // a nested parent
      const members = Array.from({ length: 6 }, (_, i) => lodAt(-5 - i));
      members.forEach((lod, i) => { groups[i % 3].add(lod); set.add(lod); });
      const last = new Map<ScreenSizeLOD, number[]>(); // world matrix and sphere of the last read
      const state = (lod: ScreenSizeLOD) => {
        const world = new Matrix4().compose(lod.position, lod.quaternion, lod.scale);
        if (lod.parent !== null) { lod.parent.updateWorldMatrix(true, false); world.premultiply(lod.parent.matrixWorld); }
        const s = lod.boundingSphere!;
        return [...world.elements, s.center.x, s.center.y, s.center.z, s.radius];
      };
      for (const edits of frames) {
        for (const { what, k, v } of edits) {
          const lod = members[k % members.length], g = groups[k % groups.length];
          if (what === 0) lod.position.x = v;
          else if (what === 1) lod.rotation.z = v / 4;
          else if (what === 2) lod.scale.setScalar(1 + Math.abs(v));
          else if (what === 3) g.position.y = v;
          else if (what === 4) g.rotation.y = v / 4;
          else if (what === 5) g.add(lod); // a new parent (or the same one)
          else if (what === 6) lod.boundingSphere!.radius = 1 + Math.abs(v);
          else { set.delete(lod); set.add(lod); last.delete(lod); } // a new member: read at the next sync
        }
        const expected = members.filter((lod) => { const was = last.get(lod); return was === undefined || state(lod).some((x, i) => x !== was[i]); });
        const read: ScreenSizeLOD[] = [];
        set.sync((lod) => read.push(lod));
        expect(new Set(read)).toEqual(new Set(expected));
        for (const lod of read) last.set(lod, state(lod));
        for (const lod of members) expect(Array.from(lod.matrixWorld.elements)).toEqual(state(lod).slice(0, 16));
      }
    }));
  });

  it('updates a parent shared by a run of members once, and every member as updateWorldMatrix(true, false) would', () => {
    const group = new Group(), set = new DynamicSet();
    const members = [lodAt(-5), lodAt(-10), lodAt(-15)];
    for (const lod of members) { group.add(lod); set.add(lod); }
    set.sync(() => {});
    const spy = vi.spyOn(group, 'updateWorldMatrix');
    group.position.y = 3;
    const read: ScreenSizeLOD[] = [];
    set.sync((lod) => read.push(lod));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(read).toEqual(members);
    for (const lod of members) expect(lod.matrixWorld.elements[13]).toBe(3);
  });
});

describe('<LodManager> frame work', () => {
  it('a dynamic object is re-read only after it (or its group, or its bounding sphere) changed, and takes the level of its new place', async () => {
    const runtime = createRef<LodRuntime>();
    const lods = [createRef<ScreenSizeLOD>(), createRef<ScreenSizeLOD>(), createRef<ScreenSizeLOD>()];
    const group = createRef<Group>();
    const r = await render(
      <LodManager ref={runtime}>
        <group ref={group}>
          {lods.map((ref, i) => <ScreenSizeDetailed key={i} ref={ref} dynamic metric="pixels" thresholds={T} position={[i * 0.5 - 0.5, 0, -5 - 10 * i]}><Levels /></ScreenSizeDetailed>)}
        </group>
      </LodManager>,
    );
    const camera = r.state().camera as PerspectiveCamera;
    r.moveCamera(0, 0, 0, [0, 0, -100]);
    await r.frame();
    const refresh = vi.spyOn(runtime.current!.manager, 'refresh');
    const expectLevels = () => {
      let checked = 0;
      for (const ref of lods) {
        const centre = ref.current!.getWorldPosition(ref.current!.position.clone());
        const px = pixelDiameter([0, 0, 0], centre.toArray(), ref.current!.boundingSphere!.radius, camera.fov, r.viewportHeight());
        if (!clearOf(px, T)) continue;
        expect(visibleIndex(ref.current!.children), `object at z = ${centre.z}: ${px.toFixed(1)} px`).toBe(levelForSize(px, T));
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    };
    expectLevels();
    await r.frame();
    await r.frame();
    expect(refresh).not.toHaveBeenCalled();
    lods[1].current!.position.z = -60; // far: a coarser level
    await r.frame();
    expect(refresh.mock.calls.map((c) => c[0])).toEqual([lods[1].current]);
    expectLevels();
    refresh.mockClear();
    group.current!.position.z = 3; // every member moves with its group
    await r.frame();
    expect(new Set(refresh.mock.calls.map((c) => c[0]))).toEqual(new Set(lods.map((l) => l.current)));
    expectLevels();
    refresh.mockClear();
    lods[2].current!.boundingSphere!.radius = 4; // a bigger sphere: a finer level
    await r.frame();
    expect(refresh.mock.calls.map((c) => c[0])).toEqual([lods[2].current]);
    expectLevels();
    await r.renderer.unmount();
  });

  it("an object whose level did not change: its levels' visibility is not written", async () => {
    const near = createRef<ScreenSizeLOD>(), far = createRef<ScreenSizeLOD>();
    const r = await render(
      <LodManager>
        <ScreenSizeDetailed ref={near} metric="pixels" thresholds={T} position={[0, 0, -5]}><Levels /></ScreenSizeDetailed>
        <ScreenSizeDetailed ref={far} metric="pixels" thresholds={T} position={[0, 0, -500]}><Levels /></ScreenSizeDetailed>
      </LodManager>,
    );
    r.moveCamera(0, 0, 0, [0, 0, -100]);
    await r.frame();
    expect(visibleIndex(far.current!.children)).toBe(2);
    let writes = 0;
    for (const child of far.current!.children) {
      let visible = child.visible;
      Object.defineProperty(child, 'visible', { get: () => visible, set: (v: boolean) => { writes++; visible = v; }, configurable: true });
    }
    const levels: number[] = [];
    for (const z of [0, 10, 60, 10, 0]) { // the near object goes through every level, the far one (about 2 px) keeps its
      r.moveCamera(0, 0, z, [0, 0, -100]);
      await r.frame();
      levels.push(visibleIndex(near.current!.children));
    }
    expect(new Set(levels).size).toBeGreaterThan(1);
    expect(writes).toBe(0);
    expect(visibleIndex(far.current!.children)).toBe(2);
    await r.renderer.unmount();
  });

  it('stats snapshots: made when read, the same object until a frame changes the stats, stamped with that frame', async () => {
    const runtime = createRef<LodRuntime>();
    const r = await render(<LodManager ref={runtime}><ScreenSizeDetailed metric="pixels" thresholds={T} position={[0, 0, -5]}><Levels /></ScreenSizeDetailed></LodManager>);
    const rt = runtime.current!;
    r.moveCamera(0, 0, 0, [0, 0, -100]);
    await r.frame();
    await r.frame(); // the first frame's change is over
    const first = rt.getSnapshot();
    expect(rt.getSnapshot()).toBe(first);
    await r.frame(); // nothing changed
    await r.frame();
    expect(rt.getSnapshot()).toBe(first);
    r.moveCamera(0, 0, 100, [0, 0, -100]); // far: the coarsest level
    await r.frame();
    const changedAt = rt.frames;
    await r.frame(); // changes 0 again: published, never read
    r.moveCamera(0, 0, 0, [0, 0, -100]);
    await r.frame();
    const last = rt.getSnapshot();
    expect(last).not.toBe(first);
    expect(last.frame).toBe(rt.frames);
    expect(last.frame).toBeGreaterThan(changedAt);
    expect(last.levelCounts).toEqual(first.levelCounts);
    expect(last.changes).toBe(1);
    expect(rt.getSnapshot()).toBe(last);
    await r.renderer.unmount();
  });
});

describe('compactOrder (the order of registration)', () => {
  it('a shuffled 64 × 64 grid: every run of 64 is one 8 × 8 block, every point once', () => {
    const n = 64 * 64, xyz = new Float64Array(n * 3);
    let seed = 7;
    const rand = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
    const cells = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [cells[i], cells[j]] = [cells[j], cells[i]]; }
    cells.forEach((c, i) => { xyz[i * 3] = c % 64; xyz[i * 3 + 1] = 5; xyz[i * 3 + 2] = Math.floor(c / 64); });
    const order = compactOrder(xyz, n);
    expect(new Set(order).size).toBe(n);
    for (let run = 0; run < n; run += 64) {
      const xs = Array.from(order.subarray(run, run + 64), (i) => xyz[i * 3]), zs = Array.from(order.subarray(run, run + 64), (i) => xyz[i * 3 + 2]);
      expect(Math.max(...xs) - Math.min(...xs), `run ${run / 64}`).toBe(7);
      expect(Math.max(...zs) - Math.min(...zs), `run ${run / 64}`).toBe(7);
      expect(Math.min(...xs) % 8 + (Math.min(...zs) % 8)).toBe(0);
    }
  });

  it('fewer points than a run, equal coordinates and a remainder run', () => {
    expect(Array.from(compactOrder(Float64Array.of(3, 0, 0, 1, 0, 0), 2))).toEqual([0, 1]);
    const n = 200, same = new Float64Array(n * 3).fill(1); // all at one point: any order, each once
    expect(new Set(compactOrder(same, n)).size).toBe(n);
    const line = Float64Array.from({ length: n * 3 }, (_, k) => (k % 3 === 0 ? (k / 3) * 37 % n : 0)); // x = a permutation of 0…199
    const order = compactOrder(line, n);
    for (let run = 0; run < n; run += 64) {
      const xs = Array.from(order.subarray(run, Math.min(n, run + 64)), (i) => line[i * 3]);
      expect(Math.max(...xs) - Math.min(...xs)).toBe(xs.length - 1); // consecutive x values
    }
  });
});
