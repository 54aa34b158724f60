/**
 * docs/defaults.md, one adapter at a time: the table's values are written out here by hand (not
 * read from the table, not taken from the code under test), then checked against the exported
 * defaults objects and against freshly constructed adapters; a last test checks that the table
 * still holds those rows. Also the one missing-viewport rule (skip, count, warn once, never throw),
 * `addInstances` with a plain `number[]`, and `addBatched` turning three's per-instance culling off.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BatchedMesh, BoxGeometry, IcosahedronGeometry, Matrix4, Mesh, MeshBasicMaterial, PerspectiveCamera, Vector2,
} from 'three';
import { LOD_UPDATE_DEFAULTS } from '../../../src/batch/lodSet.js';
import { resetScreenSizeLODWarnings, SCREEN_SIZE_LOD_DEFAULTS, ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { LOD_MANAGER_DEFAULTS, LodManager } from '../../../src/adapters/three/lodManager.js';
import { INSTANCED_LOD_DEFAULTS, InstancedLOD } from '../../../src/adapters/three/instancedLOD.js';
import { GPU_INSTANCED_LOD_DEFAULTS, GpuInstancedLOD } from '../../../src/adapters/three/gpuInstancedLOD.js';
import { engineOf } from '../../../src/batch/engineSeam.js';
import type { LodSet } from '../../../src/batch/lodSet.js';

const material = new MeshBasicMaterial();
const levels = [0, 1, 2].map((d) => ({ geometry: new IcosahedronGeometry(1, d), material }));

function camera(): PerspectiveCamera {
  const c = new PerspectiveCamera(60, 1, 0.1, 1000); // at the origin, looking down −z
  c.updateMatrixWorld(true);
  return c;
}

/** The initial capacity a LodSet was made with (the adapters pass `capacity` straight to it), through the engine seam. */
const capacityOf = (set: LodSet) => engineOf(set).capacity;

/** Spies on console.warn; restored after each test. */
function spyWarn() {
  resetScreenSizeLODWarnings();
  return vi.spyOn(console, 'warn').mockImplementation(() => undefined);
}
afterEach(() => { vi.restoreAllMocks(); });

// The per-frame options every adapter's update uses when none are given (rows "hysteresis", "bias").
const UPDATE = { hysteresis: 0, bias: 1 };

describe('docs/defaults.md: ScreenSizeLOD', () => {
  const TABLE = { metric: 'distance', viewportHeight: null, renderer: null, bias: 1, fadeDuration: 0, crossFade: true, hysteresis: 0 };

  it('SCREEN_SIZE_LOD_DEFAULTS and a new ScreenSizeLOD match the table', () => {
    const { hysteresis, ...options } = TABLE;
    expect(SCREEN_SIZE_LOD_DEFAULTS).toEqual(options);
    const lod = new ScreenSizeLOD();
    expect(lod.metric).toBe(TABLE.metric);
    expect([lod.viewportHeight, lod.renderer, lod.bias, lod.fadeDuration, lod.crossFade]).toEqual([null, null, 1, 0, true]);
    lod.addLevel(new Mesh(new BoxGeometry(), material), 0); // THREE.LOD's signature: hysteresis defaults to 0
    expect(lod.levels[0].hysteresis).toBe(hysteresis);
  });

  it("'pixels' without a viewport: skipped, counted in skippedUpdates, one warning, no throw", () => {
    const warn = spyWarn();
    const lods = [0, 1].map(() => {
      const lod = new ScreenSizeLOD({ metric: 'pixels' });
      lod.addLevel(new Mesh(new BoxGeometry(), material), 100).addLevel(new Mesh(new BoxGeometry(), material), 10);
      lod.position.set(0, 0, -5);
      lod.updateMatrixWorld(true);
      return lod;
    });
    for (let f = 0; f < 3; f++) for (const lod of lods) expect(() => lod.update(camera())).not.toThrow();
    expect(lods.map((l) => l.skippedUpdates)).toEqual([3, 3]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/ScreenSizeLOD.*viewport height.*skippedUpdates/);
  });
});

describe('docs/defaults.md: LodManager', () => {
  const TABLE = { capacity: 1024, viewportHeight: null, renderer: null, shadowLight: null, shadowCasters: null };

  it('LOD_MANAGER_DEFAULTS, LOD_UPDATE_DEFAULTS and a new LodManager match the table', () => {
    expect(LOD_MANAGER_DEFAULTS).toEqual(TABLE);
    expect({ hysteresis: LOD_UPDATE_DEFAULTS.hysteresis, bias: LOD_UPDATE_DEFAULTS.bias }).toEqual(UPDATE);
    const m = new LodManager();
    expect([m.viewportHeight, m.renderer, m.shadowLight, m.shadowCasters]).toEqual([null, null, null, null]);
    expect(capacityOf(m.set)).toBe(TABLE.capacity);
  });

  it('add keeps the LOD\'s own metric: a distance LOD chooses by distance with no viewport at all', () => {
    const lod = new ScreenSizeLOD(); // 'distance'
    lod.addLevel(new Mesh(new BoxGeometry(2, 2, 2), material), 0).addLevel(new Mesh(new BoxGeometry(2, 2, 2), material), 10);
    lod.position.set(0, 0, -30);
    lod.updateMatrixWorld(true);
    const m = new LodManager();
    m.add(lod);
    m.update(camera());
    // Surface distance 30 − √3 ≈ 28.3 > 10: level 1; nothing skipped, no viewport needed.
    expect(lod.getCurrentLevel()).toBe(1);
    expect(m.skippedFrames).toBe(0);
  });

  it("'pixels' without a viewport: skipped, counted in skippedFrames, one warning, no throw", () => {
    const warn = spyWarn();
    const lod = new ScreenSizeLOD({ metric: 'pixels' });
    lod.addLevel(new Mesh(new BoxGeometry(), material), 100).addLevel(new Mesh(new BoxGeometry(), material), 10);
    const m = new LodManager();
    m.add(lod);
    for (let f = 0; f < 4; f++) expect(() => m.update(camera())).not.toThrow();
    expect(m.skippedFrames).toBe(4);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/LodManager.*viewport height.*skippedFrames/);
  });

  it('an unusable camera is a skipped frame too, counted in skippedFrames as InstancedLOD and GpuInstancedLOD count it', () => {
    const lod = new ScreenSizeLOD();
    lod.addLevel(new Mesh(new BoxGeometry(), material), 0).addLevel(new Mesh(new BoxGeometry(), material), 10);
    const m = new LodManager();
    m.add(lod);
    const bad = camera();
    bad.projectionMatrix.elements[0] = Number.NaN;
    expect(() => m.update(bad)).not.toThrow();
    expect(m.skippedFrames).toBe(1);
    expect(m.touched).toBe(0);
    const inst = new InstancedLOD({ levels, metric: 'distance', thresholds: [10, 20] });
    inst.addInstance(new Matrix4());
    inst.update(bad);
    expect(inst.skippedFrames).toBe(1);
  });

  it('addBatched sets perObjectFrustumCulled = false on its BatchedMesh (three defaults to true)', () => {
    const batched = new BatchedMesh(2, 2000, 8000, material);
    expect(batched.perObjectFrustumCulled).toBe(true);
    const gids = levels.map((l) => batched.addGeometry(l.geometry));
    const id = batched.addInstance(gids[0]);
    batched.setMatrixAt(id, new Matrix4().makeTranslation(0, 0, -10));
    new LodManager({ viewportHeight: 1000 }).addBatched(batched, [id], { metric: 'pixels', thresholds: [80, 20], levelGeometryIds: gids });
    expect(batched.perObjectFrustumCulled).toBe(false);
  });
});

describe('docs/defaults.md: InstancedLOD', () => {
  const TABLE = {
    metric: 'pixels', capacity: 1024, viewportHeight: null, shadowLight: null, shadowCasters: null, shadowLevel: null, shadowLayer: 31, shadowLOD: 'offscreen',
  };

  it('INSTANCED_LOD_DEFAULTS and a new InstancedLOD match the table', () => {
    expect(INSTANCED_LOD_DEFAULTS).toEqual(TABLE);
    const lod = new InstancedLOD({ levels, thresholds: [80, 20] });
    expect(lod.set.getProfile(0).metric).toBe(TABLE.metric);
    expect(capacityOf(lod.set)).toBe(TABLE.capacity);
    expect([lod.viewportHeight, lod.renderer ?? null, lod.shadowLight, lod.shadowCasters]).toEqual([null, null, null, null]);
    expect([lod.shadowLevel, lod.shadowLayer, lod.shadowLOD]).toEqual([2, 31, 'offscreen']); // null: the coarsest level
  });

  it("'pixels' without a viewport: skipped, counted in skippedFrames, one warning, no throw (was a RangeError)", () => {
    const warn = spyWarn();
    const lod = new InstancedLOD({ levels, thresholds: [80, 20] });
    lod.addInstance(new Matrix4().makeTranslation(0, 0, -10));
    for (let f = 0; f < 3; f++) expect(() => lod.update(camera())).not.toThrow();
    expect(lod.skippedFrames).toBe(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/InstancedLOD.*viewport height.*skippedFrames/);
    // With a viewport the same instance is measured: diameter 2 at distance 10, 60° fov, 1000 px:
    // 2 / (10 · 2 tan 30°) · 1000 ≈ 173 px > 80: level 0.
    lod.viewportHeight = 1000;
    lod.update(camera());
    expect(lod.levelOf(0)).toBe(0);
    expect(lod.skippedFrames).toBe(3);
  });

  it('addInstances takes a plain number[] (16 per instance) like a Float32Array, and rejects bad ones', () => {
    const lod = new InstancedLOD({ levels, metric: 'distance', thresholds: [10, 20] });
    const a = new Matrix4().makeTranslation(0, 0, -5), b = new Matrix4().makeTranslation(0, 0, -40);
    const first = lod.addInstances([...a.elements, ...b.elements]);
    expect(first).toBe(0);
    lod.update(camera());
    // Surface distances 5 − 1 = 4 (level 0) and 40 − 1 = 39 (level 2).
    expect([lod.levelOf(0), lod.levelOf(1)]).toEqual([0, 2]);
    expect(() => lod.addInstances(new Array(15).fill(0))).toThrow(TypeError);
    expect(() => lod.addInstances([...a.elements.slice(0, 15), Number.NaN])).toThrow(/matrices\[15\] must be a finite number/);
    expect(() => lod.addInstances(['1'] as never)).toThrow(TypeError);
  });
});

describe('docs/defaults.md: GpuInstancedLOD', () => {
  const TABLE = { metric: 'pixels', viewportHeight: null, forceCpu: false, rotations: false, colors: false };
  const renderer = { getDrawingBufferSize: (v: Vector2) => v.set(800, 1000) }; // no WebGPU backend: the CPU engine

  it('GPU_INSTANCED_LOD_DEFAULTS and a new GpuInstancedLOD match the table; its renderer supplies the viewport', () => {
    expect(GPU_INSTANCED_LOD_DEFAULTS).toEqual(TABLE);
    const warn = spyWarn();
    const lod = new GpuInstancedLOD(renderer, { levels, thresholds: [80, 20], capacity: 4 });
    expect(lod.cpu!.set.getProfile(0).metric).toBe(TABLE.metric);
    expect([lod.viewportHeight, lod.rotations, lod.colors]).toEqual([null, false, false]);
    // Radius 1 at distance 10, 60° fov, 1000 px tall: ≈ 173 px (level 0); at 50: ≈ 34.6 px (level 1).
    lod.setSpheres(new Float32Array([0, 0, -10, 1, 0, 0, -50, 1]));
    lod.update(camera());
    expect([lod.cpu!.levelOf(0), lod.cpu!.levelOf(1)]).toEqual([0, 1]);
    expect(lod.skippedFrames).toBe(0);
    expect(warn).not.toHaveBeenCalled();
    expect(() => new GpuInstancedLOD(null as never, { levels, thresholds: [80, 20], capacity: 1 })).toThrow(/renderer/);
  });
});

describe('docs/defaults.md holds the rows above', () => {
  const table = readFileSync(new URL('../../../../../docs/defaults.md', import.meta.url), 'utf8');
  const row = (name: string) => table.split('\n').find((l) => l.startsWith(`| ${name} |`))?.split('|').slice(2, -1).map((c) => c.trim());

  it.each([
    ['`metric`', ["`'distance'`", "the LOD's own (`add`); required (`addBatched`)", "`'pixels'`", "`'pixels'`"]],
    ['hysteresis', ["`0` (per level: `addLevel`'s third argument)", '`0` (`update` option)', '`0` (`update` option)', '`0` (`update` option)']],
    ['bias', ['`1` (`bias` option)', '`1` (`update` option)', '`1` (`update` option)', '`1` (`update` option)']],
    ['`fadeDuration` (seconds)', ['`0` (switch at once)', "the LOD's own", 'none', 'none']],
    ['`capacity`', ['none', '`1024` (grows)', '`1024` (grows)', 'required (fixed)']],
    ['`BatchedMesh.perObjectFrustumCulled`', ['none', 'set to `false` by `addBatched`', 'none', 'none']],
  ])('%s', (name, cells) => {
    expect(row(name)).toEqual(cells);
  });

  it('the missing-viewport row says skip, count, warn once for the three adapters that can lack one', () => {
    const cells = row("`'pixels'` without `viewportHeight` or `renderer`")!;
    expect(cells.slice(0, 3)).toEqual([
      'frame skipped, counted in `skippedUpdates`, one warning per page',
      'frame skipped, counted in `skippedFrames`, one warning per page',
      'frame skipped, counted in `skippedFrames`, one warning per page',
    ]);
  });
});
