/**
 * Per-level hysteresis under `LodManager`: a registered `ScreenSizeLOD` whose levels carry bands
 * keeps them (its profile's own bands, `LodProfileOptions.hysteresis`), so the manager's batch
 * frame shows the level the object's own `update` shows; objects without bands take the update's
 * `hysteresis`.
 */
import { describe, expect, it } from 'vitest';
import { IcosahedronGeometry, Mesh, MeshBasicMaterial, PerspectiveCamera } from 'three';
import { LodManager } from '../../../src/adapters/three/lodManager.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { lcg } from '../../helpers/random.js';

const material = new MeshBasicMaterial();
const geometries = [new IcosahedronGeometry(1, 2), new IcosahedronGeometry(1, 1), new IcosahedronGeometry(1, 0)];
/** Band sets per level (finest first; a screen metric's boundary k takes level k's band). */
const BANDS = [[0, 0, 0], [0.3, 0.05, 0], [0.1, 0.4, 0], [0.2, 0.2, 0]];

function lodAt(x: number, y: number, z: number, bands: number[]): ScreenSizeLOD {
  const lod = new ScreenSizeLOD({ metric: 'pixels', viewportHeight: 1000 });
  lod.addLevel(new Mesh(geometries[0], material), 80, bands[0]);
  lod.addLevel(new Mesh(geometries[1], material), 20, bands[1]);
  lod.addLevel(new Mesh(geometries[2], material), 0, bands[2]);
  lod.position.set(x, y, z);
  lod.updateMatrixWorld(true);
  return lod;
}

function shown(lod: ScreenSizeLOD): number {
  const v = lod.levels.map((l) => l.object.visible);
  return v.filter(Boolean).length === 1 ? v.indexOf(true) : -1;
}

/** Two copies of one scene: one registered in a manager, one updated object by object. */
function twins(count: number, seed: number): { managed: ScreenSizeLOD[]; own: ScreenSizeLOD[] } {
  const r = lcg(seed), managed: ScreenSizeLOD[] = [], own: ScreenSizeLOD[] = [];
  for (let i = 0; i < count; i++) {
    // In front of every camera position below (no culling: a culled LOD keeps its level on its own
    // but is hidden by the manager, which would restart its hysteresis).
    const x = (r() - 0.5) * 6, y = (r() - 0.5) * 4, z = -20 - r() * 120, bands = BANDS[Math.floor(r() * BANDS.length)];
    managed.push(lodAt(x, y, z, bands));
    own.push(lodAt(x, y, z, bands));
  }
  return { managed, own };
}

describe('LodManager: a ScreenSizeLOD\'s per-level hysteresis', () => {
  it('the manager shows the level each object\'s own update shows, frame after frame (the camera back and forth)', () => {
    const { managed, own } = twins(400, 3);
    const manager = new LodManager({ viewportHeight: 1000 });
    managed.forEach((l) => manager.add(l));
    const camera = new PerspectiveCamera(50, 1, 0.1, 1e5);
    camera.updateProjectionMatrix();
    let held = 0;
    // Frame 0 from far away: every object tiny, so both start at the coarsest level (a ScreenSizeLOD
    // starts at level 0 and its bands apply from there; the manager starts hidden).
    for (let f = -1; f < 40; f++) {
      camera.position.set(0, 0, f < 0 ? 3000 : 25 * Math.sin(f * 0.3) + 20); // 15 to 185 units from the objects
      camera.lookAt(0, 0, -1000);
      camera.updateMatrixWorld(true);
      manager.update(camera);
      for (let i = 0; i < own.length; i++) {
        own[i].update(camera);
        const want = shown(own[i]);
        if (shown(managed[i]) !== want) throw new Error(`frame ${f} object ${i}: manager ${shown(managed[i])}, own update ${want}`);
        // held: the level differs from what the size alone gives
        const s = own[i].size, free = s > 80 ? 0 : s > 20 ? 1 : 2;
        if (want !== free) held++;
      }
    }
    expect(held).toBeGreaterThan(100); // the bands held objects (without them the comparison is trivial)
  });

  it('an object without bands takes the update\'s hysteresis; one with bands keeps its own', () => {
    const plain = lodAt(0, 0, -40, [0, 0, 0]), banded = lodAt(0.01, 0, -40, [0.02, 0.02, 0]);
    const manager = new LodManager({ viewportHeight: 1000 });
    manager.add(plain); manager.add(banded);
    const camera = new PerspectiveCamera(50, 1, 0.1, 2000);
    camera.updateProjectionMatrix();
    // pixels of a unit sphere at distance d: 2 / (d · 2 tan 25°) · 1000
    const at = (px: number) => {
      const d = 2000 / (px * 2 * Math.tan((25 * Math.PI) / 180));
      camera.position.set(0, 0, -40 + d);
      camera.lookAt(0, 0, -1000);
      camera.updateMatrixWorld(true);
      manager.update(camera, { policy: 'thresholds', hysteresis: 0.2 });
      return [shown(plain), shown(banded)];
    };
    expect(at(85)).toEqual([0, 0]);
    expect(at(75)).toEqual([0, 1]); // 75 · 1.2 = 90 > 80 holds the plain one; 75 · 1.02 = 76.5 does not hold the banded one
    expect(at(70)).toEqual([0, 1]); // 70 · 1.2 = 84 > 80: still held
    expect(at(60)).toEqual([1, 1]); // 60 · 1.2 = 72: the plain one follows
  });
});
