/**
 * `LodManager`'s plain switches (src/adapters/three/managedLevels.ts): a level change written by
 * the manager itself leaves every level's `visible` and the LOD's state exactly as
 * `ScreenSizeLOD.setLevel(level, 0)` would, and frames mixing plain switches with `setLevel`
 * (blend windows, fades, `invalidateVisibility`, ids reused, a shared LOD) show what the batch
 * engine chose.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { BoxGeometry, Mesh, MeshBasicMaterial, Object3D, PerspectiveCamera } from 'three';
import { LodManager } from '../../../src/adapters/three/lodManager.js';
import { ManagedLevels } from '../../../src/adapters/three/managedLevels.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { HIDDEN_LEVEL } from '../../../src/batch/lodSet.js';

const geometry = new BoxGeometry(1, 1, 1), material = new MeshBasicMaterial();

/** A pixels LOD of `levels` unit boxes: thresholds 200, 50, 12.5 … px. */
function lod(levels: number, at: [number, number, number] = [0, 0, 0]): ScreenSizeLOD {
  const l = new ScreenSizeLOD({ metric: 'pixels', viewportHeight: 1000 });
  for (let i = 0; i < levels; i++) l.addLevel(new Mesh(geometry, material), i < levels - 1 ? 200 / 4 ** i : 0);
  l.position.set(...at);
  l.updateMatrixWorld(true);
  return l;
}

const visible = (l: ScreenSizeLOD) => l.levels.map((v) => v.object.visible);
const state = (l: ScreenSizeLOD) => ({
  visible: visible(l), level: l.getCurrentLevel(), blend: l.blend, hidden: l.hiddenByManager,
  displayed: l.displayedLevel, fading: l.fading, plain: l.plainState(),
});

describe('ManagedLevels.trySwitch', () => {
  it('from any plain state, a switch to any level (or hidden) leaves the LOD as setLevel(level, 0) does', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 12 }),
      (count, steps) => {
        const twin = lod(count), managed = lod(count);
        const table = new ManagedLevels();
        table.ensure(1);
        table.capture(0, managed);
        let plain = 0;
        for (const step of steps) {
          const level = step >= count ? HIDDEN_LEVEL : step;
          twin.setLevel(level, 0);
          if (table.trySwitch(0, managed, level, 0)) plain++;
          else { managed.setLevel(level, 0); table.capture(0, managed); }
          expect(state(managed)).toEqual(state(twin));
        }
        // Only the first change (from three's "every level shown") needs setLevel.
        expect(plain).toBeGreaterThanOrEqual(steps.length - 1);
      },
    ));
  });

  it('refuses what is not a plain switch: a blend, a fade, a stale row, a changed level list', () => {
    const l = lod(3), table = new ManagedLevels();
    table.ensure(1);
    l.setLevel(1, 0); table.capture(0, l);
    expect(table.trySwitch(0, l, 1, 0.3)).toBe(false); // a blend pair
    l.fadeDuration = 0.5;
    expect(table.trySwitch(0, l, 2, 0)).toBe(false); // a time-based fade would start
    l.crossFade = false;
    expect(table.trySwitch(0, l, 2, 0)).toBe(true); // (no cross-fade: no fade either)
    l.crossFade = true; l.fadeDuration = 0;
    l.invalidateVisibility();
    expect(table.trySwitch(0, l, 0, 0)).toBe(false); // written elsewhere since the capture
    l.setLevel(0, 0); table.capture(0, l);
    l.addLevel(new Object3D(), 0);
    expect(table.trySwitch(0, l, 1, 0)).toBe(false);
    expect(table.switches).toBe(1);
  });
});

/** What the engine chose, shown: the level alone (or nothing), for every LOD outside a blend window and fade. */
function expectShown(manager: LodManager, lods: ScreenSizeLOD[]): void {
  for (const l of lods) {
    const id = manager.idFor(l), level = manager.set.levels[id];
    if (level === HIDDEN_LEVEL) {
      expect(visible(l).every((v) => !v)).toBe(true);
      expect(l.hiddenByManager).toBe(true);
    } else if (manager.set.blend[id] === 0 && !l.fading) {
      expect(visible(l)).toEqual(l.levels.map((_, i) => i === level));
      expect([l.getCurrentLevel(), l.displayedLevel, l.blend, l.hiddenByManager]).toEqual([level, level, 0, false]);
    }
  }
}

describe('LodManager frames with plain switches', () => {
  it('random flights with edits between frames show the engine\'s levels', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('move' as const), x: fc.double({ min: -60, max: 60, noNaN: true }), z: fc.double({ min: -40, max: 120, noNaN: true }), yaw: fc.double({ min: -1.2, max: 1.2, noNaN: true }) }),
      fc.record({ kind: fc.constant('scribble' as const), k: fc.nat(), bits: fc.nat() }),
      fc.record({ kind: fc.constant('readd' as const), k: fc.nat() }),
      fc.record({ kind: fc.constant('fade' as const), k: fc.nat() }),
    );
    let plain = 0, viaSetLevel = 0;
    fc.assert(fc.property(fc.array(op, { minLength: 4, maxLength: 30 }), (ops) => {
      const manager = new LodManager({ viewportHeight: 1000 });
      const lods: ScreenSizeLOD[] = [];
      for (let i = 0; i < 24; i++) {
        const l = lod(2 + (i % 3), [(i % 6) * 8 - 20, 0, -Math.floor(i / 6) * 15]);
        if (i % 5 === 0) l.setBlendThresholds(l.thresholds.map((t) => t * 0.7)); // blend windows
        manager.add(l);
        lods.push(l);
      }
      const spy = vi.spyOn(ScreenSizeLOD.prototype, 'setLevel');
      const camera = new PerspectiveCamera(60, 1.5, 0.1, 500);
      try {
        for (const o of ops) {
          if (o.kind === 'move') {
            camera.position.set(o.x, 1, o.z); camera.rotation.set(0, o.yaw, 0); camera.updateMatrixWorld(true);
          } else if (o.kind === 'scribble') {
            // Levels written by someone else, then the documented repair.
            const l = lods[o.k % lods.length];
            l.levels.forEach((v, i) => { v.object.visible = ((o.bits >> i) & 1) === 1; });
            manager.resync();
          } else if (o.kind === 'readd') {
            // Unregister one LOD and register another, which gets its id (the row's room reused).
            const k = o.k % lods.length, old = lods[k];
            manager.remove(old);
            const l = lod(2 + ((o.k >> 3) % 4), [old.position.x, 0, old.position.z]);
            manager.add(l);
            lods[k] = l;
          } else {
            const l = lods[o.k % lods.length];
            l.fadeDuration = l.fadeDuration > 0 ? 0 : 1e-9; // a fade that has ended by the next frame
          }
          manager.update(camera);
          expectShown(manager, lods);
        }
      } finally {
        viaSetLevel += spy.mock.calls.length;
        spy.mockRestore();
      }
      plain += manager.managedLevels.switches;
    }));
    // Both paths ran (the property is not about one of them only).
    expect(plain).toBeGreaterThan(100);
    expect(viaSetLevel).toBeGreaterThan(100);
  });

  it('a LOD shared by two managers: a plain switch of one makes the other go through setLevel', () => {
    const l = lod(3);
    const a = new LodManager({ viewportHeight: 1000 }), b = new LodManager({ viewportHeight: 1000 });
    a.add(l); b.add(l);
    const camera = new PerspectiveCamera(60, 1.5, 0.1, 500);
    const at = (z: number) => { camera.position.set(0, 0, z); camera.updateMatrixWorld(true); };
    at(3); a.update(camera); b.update(camera); // level 0 (each through setLevel: the other wrote last)
    at(10); a.update(camera); // level 1, through setLevel: b's write made a's row stale
    at(40); a.update(camera); // level 2: a plain switch by a
    expect(a.managedLevels.switches).toBe(1);
    at(10); b.update(camera); // level 1 for b, whose row says 0 is shown: setLevel, from a's 2
    expect(b.managedLevels.switches).toBe(0);
    expect(b.set.levels[0]).toBe(1);
    expect(visible(l)).toEqual([false, true, false]);
  });
});
