/**
 * The simulator's per-frame metrics on tiny hand-made scenes. Every expected number is worked out
 * by hand in the comments (see fixtures.ts for the geometry: a radius-1 sphere at distance d is
 * 100/d px; its screen-height weight for the budget solver is 1/d).
 */
import { describe, expect, it } from 'vitest';
import { parseScene, type SceneInput } from '../../src/simulator/sceneFormat.js';
import { simulate, type PolicyResult } from '../../src/simulator/simulate.js';
import { staticCamera, tinyMovingScene, tinyStaticScene } from './fixtures.js';

function run(input: SceneInput, options = {}): PolicyResult[] {
  return simulate(parseScene(input), options).result.policies;
}

describe('simulate on the tiny static scene (A 50 px, B 10 px, C 2 px, D behind)', () => {
  it('screen-space loss: default errors from the pixel thresholds, max(0, error · px − 1 px) summed (hand-worked)', () => {
    // Thresholds 20 / 5 px → errors [0.05 · 100/1000, 1/20, 1/5] = [0.005, 0.05, 0.2].
    const [screen, coarse] = run(tinyStaticScene({ policies: [{ name: 's', policy: 'thresholds' }, { name: 'c', policy: 'thresholds', minLevel: 2 }] }));
    expect(screen.frames[0].screenSpaceLoss).toBe(0); // A 0.25 px, B 0.5 px, C 0.4 px: all under 1 px
    // All at level 2: A 50 · 0.2 − 1 = 9, B 10 · 0.2 − 1 = 1, C 2 · 0.2 − 1 < 0 → 10; px·levels: 50 · 2 + 10 · 1 = 110.
    expect(coarse.frames[0].screenSpaceLoss).toBe(10);
    expect(coarse.frames[0].qualityLoss).toBe(110);
    expect(coarse.summary.screenSpaceLossMean).toBe(10);
  });

  it('thresholds: A→0, B→1, C→2, D hidden; cost 1000+100+10, no quality loss', () => {
    const [p] = run(tinyStaticScene());
    expect(p.frames).toHaveLength(4); // 1 s at 4 fps
    for (const f of p.frames) {
      expect(f.cost).toBe(1110);
      expect(f.levelsHistogram).toEqual([1, 1, 1]);
      expect(f.hidden).toBe(1);
      expect(f.qualityLoss).toBe(0);
      expect(f.changes).toBe(0);
      expect(f.overBudget).toBe(false); // no budget at all
    }
    expect(p.summary.framesOverBudget).toBeNull();
    expect(p.summary.popsPerSecond).toBe(0);
  });

  it('rankQuota [1]: only the closest (A) at level 0; B drawn 1 level too coarse at 10 px → loss 10', () => {
    const [p] = run(tinyStaticScene({ policies: [{ name: 'q', policy: 'rankQuota', quotas: [1] }] }));
    // A 1000 + B 10 + C 10
    expect(p.frames[0].cost).toBe(1020);
    expect(p.frames[0].levelsHistogram).toEqual([1, 0, 2]);
    expect(p.frames[0].qualityLoss).toBe(10);
    expect(p.summary.qualityLossMean).toBe(10);
    expect(p.summary.qualityLossWorst).toBe(10);
  });

  // Budget solver by hand, errors [0, 1, 2] for costs [1000, 100, 10]: upgrade 2→1 has slope
  // 1/90, 1→0 has 1/900; weights (screen height) A 0.5, B 0.1, C 0.02. Keys (weight × slope):
  // A21 .00556, B21 .00111, A10 .000556, C21 .000222, B10 .000111, C10 .0000222.
  const withErrors = { p: { metric: 'pixels' as const, thresholds: [20, 5], triangles: [1000, 100, 10], errors: [0, 1, 2] } };

  it('budget 1200 with trimOverdraw: start at 30, buy A21, B21, A10, C21 (= 1200), B10 does not fit → A0 B1 C1, no loss', () => {
    const [p] = run(tinyStaticScene({ profiles: withErrors, policies: [{ name: 'b', policy: 'budget', budget: 1200, trimOverdraw: true }] }));
    expect(p.frames[0].cost).toBe(1200);
    expect(p.frames[0].levelsHistogram).toEqual([1, 2, 0]);
    expect(p.frames[0].qualityLoss).toBe(0);
    expect(p.frames[0].overBudget).toBe(false);
  });

  it('budget 1200 (a cap): the thresholds\' selection A0 B1 C2 costs 1110 and fits → drawn as it is, no loss', () => {
    const [p] = run(tinyStaticScene({ profiles: withErrors, policies: [{ name: 'b', policy: 'budget', budget: 1200 }] }));
    expect(p.frames[0].cost).toBe(1110);
    expect(p.frames[0].levelsHistogram).toEqual([1, 1, 1]);
    expect(p.frames[0].qualityLoss).toBe(0);
    expect(p.options.trimOverdraw).toBe(false);
  });

  it('budget 1020: A21, B21 bought (210), A10 (900) does not fit → A1 B1 C2; A 50 px one level coarse → loss 50', () => {
    const [p] = run(tinyStaticScene({ profiles: withErrors, policies: [{ name: 'b', policy: 'budget', budget: 1020 }] }));
    expect(p.frames[0].cost).toBe(210);
    expect(p.frames[0].levelsHistogram).toEqual([0, 2, 1]);
    expect(p.frames[0].qualityLoss).toBe(50);
  });

  it('hybrid: preferred A0 B1 C2 = 1110 fits 1110 (no loss); with 1020 it falls back to A1 B1 C2 (loss 50)', () => {
    const [fits] = run(tinyStaticScene({ profiles: withErrors, policies: [{ name: 'h', policy: 'hybrid', budget: 1110 }] }));
    expect(fits.frames[0].cost).toBe(1110);
    expect(fits.frames[0].qualityLoss).toBe(0);
    const [tight] = run(tinyStaticScene({ profiles: withErrors, policies: [{ name: 'h', policy: 'hybrid', budget: 1020 }] }));
    expect(tight.frames[0].cost).toBe(210);
    expect(tight.frames[0].qualityLoss).toBe(50);
  });

  it('a distance rule in a policy override is judged against the profile\'s screen-size rule', () => {
    // distance thresholds [5, 20] m: A (1 m to its surface) 0, B (9 m) 1, C (49 m) 2 — same as px.
    // With [0.5, 5]: A (1 m) → 1, B (9 m) → 2, C → 2: loss = A 50·1 + B 10·1 = 60; cost 100 + 10 + 10.
    const [same, coarse] = run(tinyStaticScene({
      policies: [
        { name: 'd1', policy: 'thresholds', profiles: { p: { metric: 'distance', thresholds: [5, 20] } } },
        { name: 'd2', policy: 'thresholds', profiles: { p: { metric: 'distance', thresholds: [0.5, 5] } } },
      ],
    }));
    expect(same.frames[0].qualityLoss).toBe(0);
    expect(coarse.frames[0].cost).toBe(120);
    expect(coarse.frames[0].qualityLoss).toBe(60);
  });

  it('clamps an object\'s weight to the viewport height', () => {
    // One sphere at 1.5 m forced coarse (quotas [0] → everything at level 2).
    // fovY 90: 100/1.5 = 66.667 px → loss 2 levels × 66.667 = 133.333.
    // fovY 10: window height 2·tan 5° = 0.17498 → 2/(1.5·0.17498)·100 = 762 px → clamped to 100 → loss 200.
    const scene = (fovY: number) => tinyStaticScene({
      objects: [{ profile: 'p', center: [0, 0, -1.5], radius: 1 }],
      camera: staticCamera(fovY),
      policies: [{ name: 'q', policy: 'rankQuota', quotas: [0] }],
    });
    expect(run(scene(90))[0].frames[0].qualityLoss).toBe(133.333);
    expect(run(scene(10))[0].frames[0].qualityLoss).toBe(200);
  });

  it('orthographic cameras: size = 2R / view height, independent of distance', () => {
    // height 10, radius 1 → 0.2 of the screen = 20 px; 20 is not > 20 → level 1 (at any distance).
    const camera: SceneInput['camera'] = {
      keyframes: [
        { time: 0, position: [0, 0, 0], target: [0, 0, -1], height: 10, viewport: [100, 100] },
        { time: 1, position: [0, 0, 0], target: [0, 0, -1], height: 10, viewport: [100, 100] },
      ],
    };
    const [p] = run(tinyStaticScene({ camera, objects: [{ profile: 'p', center: [0, 0, -3], radius: 1 }, { profile: 'p', center: [0, 0, -300], radius: 1 }] }));
    expect(p.frames[0].levelsHistogram).toEqual([0, 2, 0]);
    expect(p.frames[0].qualityLoss).toBe(0);
  });
});

describe('simulate on the tiny moving scene (50, 7.14, 3.85, 2.63 px → levels 0, 1, 2, 2)', () => {
  it('costs, budget line, pops and summary', () => {
    const [p] = run(tinyMovingScene());
    expect(p.frames.map((f) => f.time)).toEqual([0, 0.25, 0.5, 0.75]);
    expect(p.frames.map((f) => f.cost)).toEqual([1000, 100, 10, 10]);
    expect(p.frames.map((f) => f.overBudget)).toEqual([true, false, false, false]); // budget 500
    expect(p.frames.map((f) => f.changes)).toEqual([0, 1, 1, 0]);
    expect(p.summary).toMatchObject({
      meanCost: 280, worstCost: 1000, worstCostFrame: 0, framesOverBudget: 1,
      totalChanges: 2, popsPerSecond: 2, qualityLossMean: 0, qualityLossWorst: 0,
    });
  });

  it('bias 0.5 halves sizes: 25, 3.57, 1.92, 1.32 px → levels 0, 2, 2, 2; frame 1 loses 100/14 px × 1 level', () => {
    const [p] = run(tinyMovingScene({ policies: [{ name: 'half', policy: 'thresholds', bias: 0.5 }] }));
    expect(p.frames.map((f) => f.cost)).toEqual([1000, 10, 10, 10]);
    expect(p.frames.map((f) => f.qualityLoss)).toEqual([0, 7.143, 0, 0]);
    expect(p.summary.qualityLossMean).toBe(1.786); // 7.143 / 4
    expect(p.summary.qualityLossWorstFrame).toBe(1);
    expect(p.summary.totalChanges).toBe(1);
  });

  it('--budget overrides the scene budget line; --frames resamples the duration', () => {
    const [p] = run(tinyMovingScene(), { budget: 50, frames: 2 });
    // t = 0, 0.5 → 50 px (level 0), 100/26 = 3.85 px (level 2)
    expect(p.frames.map((f) => f.cost)).toEqual([1000, 10]);
    expect(p.summary.framesOverBudget).toBe(1);
    expect(p.options.budget).toBe(50);
  });

  it('a camera cut is not a pop: the zoom at the cut changes levels but counts 0 changes', () => {
    const cam = (fovY: number, time: number, cut?: boolean) => ({ time, position: [0, 0, 0] as [number, number, number], target: [0, 0, -1] as [number, number, number], fovY, viewport: [100, 100] as [number, number], shot: `fov ${fovY}`, ...(cut ? { cut } : {}) });
    const scene = tinyStaticScene({ camera: { keyframes: [cam(90, 0), cam(90, 0.5), cam(10, 0.5, true), cam(10, 1)] } });
    const { result } = simulate(parseScene(scene));
    const p = result.policies[0];
    // fov 10 multiplies sizes by 1/tan(5°) = 11.43: B 114 px → level 0, C 22.9 px → level 0.
    expect(p.frames.map((f) => f.cost)).toEqual([1110, 1110, 3000, 3000]);
    expect(p.frames.map((f) => f.changes)).toEqual([0, 0, 0, 0]);
    expect(p.frames.map((f) => f.shot)).toEqual(['fov 90', 'fov 90', 'fov 10', 'fov 10']);
    expect(result.scene.shots).toEqual([{ shot: 'fov 90', startTime: 0 }, { shot: 'fov 10', startTime: 0.5 }]);
  });
});

describe('simulate options', () => {
  it('selects policies by name or kind and rejects unknown ones', () => {
    const scene = parseScene(tinyStaticScene({
      budget: 2000,
      policies: [{ name: 'screen', policy: 'thresholds' }, { name: 'b', policy: 'budget' }, { name: 'h', policy: 'hybrid' }],
    }));
    expect(simulate(scene, { policies: ['budget'] }).result.policies.map((p) => p.name)).toEqual(['b']);
    expect(simulate(scene, { policies: ['screen', 'h'] }).result.policies.map((p) => p.name)).toEqual(['screen', 'h']);
    expect(() => simulate(scene, { policies: ['nope'] })).toThrow(/unknown policy "nope"; the scene has "screen" \(thresholds\)/);
    expect(() => simulate(scene, { frames: 0 })).toThrow(RangeError);
    expect(() => simulate(scene, { budget: -1 })).toThrow(RangeError);
  });

  it('reports progress once per frame', () => {
    const calls: number[] = [];
    simulate(parseScene(tinyStaticScene()), { onProgress: (done, total) => { calls.push(done); expect(total).toBe(4); } });
    expect(calls).toEqual([1, 2, 3, 4]);
  });
});
