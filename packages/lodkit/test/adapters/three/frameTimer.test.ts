import { describe, expect, it } from 'vitest';
import { LodSet } from '../../../src/batch/lodSet.js';
import { FrameTimer, webglContextOf, type TimerQueryContext } from '../../../src/adapters/three/frameTimer.js';
import { camera } from '../../batch/helpers.js';
import { Mesh, MeshBasicMaterial, PerspectiveCamera, SphereGeometry } from 'three';
import { LodManager } from '../../../src/adapters/three/lodManager.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';

/** A WebGL2 stand-in with EXT_disjoint_timer_query_webgl2: each query's result arrives `latency` reads after it ended. */
function fakeTimerContext(gpuNs: () => number, latency = 2) {
  const TIME_ELAPSED_EXT = 0x88bf, GPU_DISJOINT_EXT = 0x8fbb;
  const queries: Array<{ ended: number; result: number; active: boolean }> = [];
  let tick = 0, disjoint = false;
  const calls: string[] = [];
  const gl: TimerQueryContext & { setDisjoint(v: boolean): void } = {
    QUERY_RESULT: 0x8866, QUERY_RESULT_AVAILABLE: 0x8867,
    getExtension: (name) => (name === 'EXT_disjoint_timer_query_webgl2' ? { TIME_ELAPSED_EXT, GPU_DISJOINT_EXT } : null),
    createQuery: () => { const q = { ended: -1, result: 0, active: false }; queries.push(q); return q; },
    beginQuery: (target, q) => { expect(target).toBe(TIME_ELAPSED_EXT); (q as { active: boolean }).active = true; calls.push('begin'); },
    endQuery: (target) => {
      expect(target).toBe(TIME_ELAPSED_EXT);
      const q = queries.find((x) => x.active)!;
      q.active = false; q.ended = tick; q.result = gpuNs(); calls.push('end');
    },
    getQueryParameter: (q, pname) => {
      const x = q as { ended: number; result: number };
      if (pname === 0x8867) return x.ended >= 0 && tick - x.ended >= latency;
      return x.result;
    },
    getParameter: (pname) => { tick++; return pname === GPU_DISJOINT_EXT ? disjoint : null; },
    setDisjoint: (v) => { disjoint = v; },
  };
  return { gl, calls };
}

function scene() {
  const set = new LodSet(8);
  const p = set.addProfile({ metric: 'pixels', thresholds: [100, 20], costs: [10000, 1000, 100] });
  for (let i = 0; i < 5; i++) set.add({ center: [i * 3 - 6, 0, -20 - i * 10], radius: 2, profile: p });
  return { set, view: { frustum: camera([0, 0, 0], [0, 0, -1], 60), viewportHeight: 1080 } };
}

describe('FrameTimer (lodkit/three, budget: { frameMs })', () => {
  it('uses WebGL2 timer queries when the context has them: one query per frame, results paired with that frame\'s stats', () => {
    const { gl, calls } = fakeTimerContext(() => 12e6); // every frame takes 12 ms of GPU time
    const timer = new FrameTimer(gl);
    expect(timer.source).toBe('gpu');
    const { set, view } = scene();
    for (let f = 0; f < 10; f++) {
      const stats = set.update(view, { policy: 'budget', budget: { frameMs: 16.7 } });
      timer.afterUpdate(set, stats);
    }
    expect(calls.slice(0, 3)).toEqual(['begin', 'end', 'begin']);
    expect(timer.measured).toBeGreaterThanOrEqual(6); // results arrive 2 frames late
    expect(set.frameTimeGovernor!.observed).toBe(timer.measured);
    timer.dispose();
  });

  it('drops results measured while the GPU was disjoint', () => {
    const { gl } = fakeTimerContext(() => 12e6, 1);
    const timer = new FrameTimer(gl);
    const { set, view } = scene();
    gl.setDisjoint(true);
    for (let f = 0; f < 6; f++) timer.afterUpdate(set, set.update(view, { policy: 'budget', budget: { frameMs: 16.7 } }));
    expect(timer.measured).toBe(0);
    expect(timer.disjoint).toBeGreaterThan(0);
  });

  it('falls back to frame intervals without timer queries; an overloaded frame lowers the budget', () => {
    let now = 0;
    const timer = new FrameTimer(null, () => now);
    expect(timer.source).toBe('interval');
    const { set, view } = scene();
    const budgets: number[] = [];
    for (let f = 0; f < 8; f++) {
      now += f < 4 ? 10 : 40; // 10 ms frames, then 40 ms ones
      timer.afterUpdate(set, set.update(view, { policy: 'budget', budget: { frameMs: 16.7 } }));
      budgets.push(set.frameTimeGovernor!.budget);
    }
    expect(timer.measured).toBe(7);
    expect(budgets[7]).toBeLessThan(budgets[4]);
  });

  it('webglContextOf reads renderer.getContext() and tolerates renderers without one', () => {
    expect(webglContextOf(null)).toBe(null);
    expect(webglContextOf({ getDrawingBufferSize: () => null })).toBe(null);
    const { gl } = fakeTimerContext(() => 1);
    expect(webglContextOf({ getContext: () => gl })).toBe(gl);
  });

  it('LodManager: budget { frameMs } measures with the renderer\'s timer queries and keeps the budget', () => {
    const { gl } = fakeTimerContext(() => 30e6, 1); // 30 ms a frame: over a 16.7 ms target
    const renderer = { getContext: () => gl, getDrawingBufferSize: (v: { set(x: number, y: number): unknown }) => v.set(1920, 1000) };
    const manager = new LodManager({ renderer: renderer as never });
    const material = new MeshBasicMaterial();
    for (let i = 0; i < 6; i++) {
      const lod = new ScreenSizeLOD({ metric: 'pixels', viewportHeight: 1000 });
      lod.addLevel(new Mesh(new SphereGeometry(1, 32, 16), material), 80);
      lod.addLevel(new Mesh(new SphereGeometry(1, 8, 4), material), 0);
      lod.position.set(i * 3 - 8, 0, -15);
      lod.updateMatrixWorld(true);
      manager.add(lod);
    }
    const cam = new PerspectiveCamera(50, 1.9, 0.1, 1000);
    cam.updateMatrixWorld(true);
    let stats = manager.update(cam, { policy: 'budget', budget: { frameMs: 16.7 } });
    const first = stats.totalCost;
    for (let f = 0; f < 8; f++) stats = manager.update(cam, { policy: 'budget', budget: { frameMs: 16.7 } });
    expect(manager.frameTimer?.source).toBe('gpu');
    expect(manager.frameTimer!.measured).toBeGreaterThan(3);
    expect(stats.totalCost).toBeLessThan(first); // over target: the governor cut the budget
    // 30 ms whatever is drawn: the budget falls below the coarsest levels' cost, which is then drawn.
    expect(stats.totalCost).toBe(stats.minimumCost);
  });
});
