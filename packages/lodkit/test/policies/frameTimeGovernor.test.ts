import { describe, expect, it } from 'vitest';
import { FrameTimeGovernor } from '../../src/policies/frameTimeGovernor.js';
import { lcg } from '../batch/helpers.js';

/** A synthetic GPU: ms = (overhead + a·T + b·D) · load · (1 + σ·z), z standard normal (Box–Muller). */
function plant(seed: number, sigma = 0.03) {
  const rand = lcg(seed);
  return (triangles: number, draws: number, load: number) => {
    const z = Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand());
    return (2 + 25e-6 * triangles + 0.01 * draws) * load * (1 + sigma * Math.max(-3, Math.min(3, z)));
  };
}

/** Lag-k sample autocorrelations (k = 1 … maxLag) of a series. */
function autocorrelation(x: number[], maxLag: number): number[] {
  const m = x.reduce((s, v) => s + v, 0) / x.length;
  const v = x.reduce((s, y) => s + (y - m) ** 2, 0);
  const out: number[] = [];
  for (let k = 1; k <= maxLag; k++) {
    let s = 0;
    for (let i = 0; i + k < x.length; i++) s += (x[i] - m) * (x[i + k] - m);
    out.push(s / v);
  }
  return out;
}

describe('FrameTimeGovernor', () => {
  it('learns ms per triangle, per draw and the overhead online (RLS) from varied frames', () => {
    const gpu = plant(3, 0.01), rand = lcg(9);
    const g = new FrameTimeGovernor({ targetMs: 16.7 });
    for (let k = 0; k < 300; k++) {
      const t = 1e5 + rand() * 5e5, d = 200 + rand() * 2000;
      g.observe(gpu(t, d, 1), t, d);
    }
    expect(g.msPerTriangle).toBeGreaterThan(25e-6 * 0.9);
    expect(g.msPerTriangle).toBeLessThan(25e-6 * 1.1);
    expect(g.msPerDraw).toBeGreaterThan(0.01 * 0.8);
    expect(g.msPerDraw).toBeLessThan(0.01 * 1.2);
    expect(g.overheadMs).toBeGreaterThan(2 * 0.7);
    expect(g.overheadMs).toBeLessThan(2 * 1.3);
  });

  it('settles within ±10 % of the target, recovers from a 2× load in ≤ 30 frames, and does not oscillate', () => {
    for (const seed of [1, 2, 3, 4]) {
      const gpu = plant(seed);
      const g = new FrameTimeGovernor({ targetMs: 16.7 });
      const ms: number[] = [];
      for (let k = 0; k < 900; k++) {
        const load = k >= 400 && k < 650 ? 2 : 1;
        const triangles = g.budget === Infinity ? 2e6 : g.budget; // the scene always wants more than the budget
        const t = gpu(triangles, 100, load); // 2× load: (3 ms + 25 ns·T)·2 = 16.7 ms at T ≈ 214k
        g.noteFrame(triangles, 100);
        g.observe(t);
        ms.push(t);
      }
      const err = ms.map((t) => t / 16.7 - 1);
      const settled = err.filter((_, k) => k >= 30 && !(k >= 400 && k < 430) && !(k >= 650 && k < 680));
      const within = settled.filter((e) => Math.abs(e) <= 0.1).length / settled.length;
      expect(within, `seed ${seed}`).toBeGreaterThanOrEqual(0.95);
      for (const change of [400, 650]) {
        let back = -1;
        for (let r = 0; r < 100 && back < 0; r++) if (err.slice(change + r, change + r + 5).every((e) => Math.abs(e) <= 0.1)) back = r;
        expect(back, `seed ${seed}, load change at frame ${change}`).toBeGreaterThanOrEqual(0);
        expect(back).toBeLessThanOrEqual(30);
      }
      // No sustained oscillation: no strongly negative autocorrelation at any lag up to 30 (docs/simulate.md).
      const steady = err.slice(30, 400);
      expect(Math.min(...autocorrelation(steady, 30)), `seed ${seed}`).toBeGreaterThan(-0.3);
    }
  });

  it('the oscillation test can fail: a controller with gain 1 and a halved slope estimate rings', () => {
    // Deadbeat on an estimate half the true slope overshoots by 100 % every frame: ρ(1) ≈ −1.
    const e: number[] = [];
    let budget = 300000;
    const gpu = plant(5);
    for (let k = 0; k < 200; k++) {
      const t = gpu(budget, 1000, 1);
      e.push(t / 16.7 - 1);
      budget = Math.max(0, budget + (16.7 - t) / (12.5e-6) * 0.99);
    }
    expect(Math.min(...autocorrelation(e.slice(30), 30))).toBeLessThan(-0.3);
  });

  it('a scene that needs less than the target does not wind the budget up', () => {
    const gpu = plant(7);
    const g = new FrameTimeGovernor({ targetMs: 16.7 });
    for (let k = 0; k < 200; k++) {
      const drawn = Math.min(g.budget, 100_000); // the scene needs only 100k triangles (4.5 ms)
      g.observe(gpu(drawn, 500, 1), drawn, 500);
    }
    // Capped at 1.5 × what was drawn plus the full Newton step to the target (≈ 490k).
    expect(g.budget).toBeLessThan(1.5 * 100_000 + (16.7 - 4.5) / 25e-6 * 1.2);
    expect(g.budget).toBeGreaterThan(100_000);
  });

  it('ignores bad measurements (counted) and validates its options', () => {
    const g = new FrameTimeGovernor({ targetMs: 10, initialBudget: 5000 });
    g.noteFrame(5000, 10);
    expect(g.observe(Number.NaN)).toBe(5000);
    expect(g.observe(-1)).toBe(5000);
    expect(g.observe(Infinity)).toBe(5000);
    expect(g.rejected).toBe(3);
    expect(() => new FrameTimeGovernor({ targetMs: 0 })).toThrow(/targetMs/);
    expect(() => new FrameTimeGovernor({ targetMs: 16, gain: 0 })).toThrow(/gain/);
    expect(() => new FrameTimeGovernor({ targetMs: 16, deadband: 0.5 })).toThrow(/deadband/);
  });
});
