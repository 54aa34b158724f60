/**
 * The seed's story, as numbers, on the built-in `motogp` scenario (full run: 780 frames, 48
 * objects, five policies — well under a second).
 */
import { describe, expect, it } from 'vitest';
import { builtInScene } from '../../src/simulator/scenarios/index.js';
import { simulate, type PolicyResult } from '../../src/simulator/simulate.js';

const { result } = simulate(builtInScene('motogp'));
const byKind = (name: string): PolicyResult => {
  const p = result.policies.find((q) => q.name.startsWith(name));
  if (!p) throw new Error(`no policy ${name}`);
  return p;
};
const screen = byKind('screen size');
const distance = byKind('distance');
const quota = byKind('rank quota');
const budget = byKind('budget');
const hybrid = byKind('hybrid');
const budgetLine = result.scene.budget!;

describe('motogp: the seed\'s trade-off, visible in the numbers', () => {
  it('has the three shots and the scenario budget', () => {
    expect(result.scene.shots.map((s) => s.shot)).toEqual(['chase', 'trackside wide', 'TV telephoto']);
    expect(budgetLine).toBe(450_000);
    expect(result.scene.objects).toBe(48);
  });

  it('screen size: zero quality loss, but the telephoto frame costs far more than the mean', () => {
    expect(screen.summary.qualityLossMean).toBe(0);
    expect(screen.summary.worstCostShot).toBe('TV telephoto');
    expect(screen.summary.worstCost).toBeGreaterThanOrEqual(2 * screen.summary.meanCost);
    // In the telephoto shot all 20 bikes are over 80 px: every visible object at level 0.
    const tele = screen.frames[screen.summary.worstCostFrame];
    expect(tele.levelsHistogram[1] + tele.levelsHistogram[2]).toBe(0);
    expect(tele.cost).toBeGreaterThan(3 * budgetLine);
    expect(screen.summary.framesOverBudget).toBeGreaterThan(0);
  });

  it('rank quotas: flat cost (never over the budget), but the largest quality loss of the four non-naive policies', () => {
    expect(quota.summary.worstCost).toBeLessThanOrEqual(budgetLine);
    expect(quota.summary.worstCost).toBeLessThan(1.25 * quota.summary.meanCost);
    expect(quota.summary.worstCost).toBeLessThan(screen.summary.worstCost / 3);
    for (const other of [screen, budget, hybrid]) {
      expect(quota.summary.qualityLossMean).toBeGreaterThan(other.summary.qualityLossMean);
      expect(quota.summary.qualityLossWorst).toBeGreaterThan(other.summary.qualityLossWorst);
    }
    // The loss comes from the telephoto shot: low-detail bikes drawn big.
    expect(quota.frames[quota.summary.qualityLossWorstFrame].shot).toBe('TV telephoto');
  });

  it('budget and hybrid: never over the budget, and far less quality loss than rank quotas', () => {
    for (const p of [budget, hybrid]) {
      expect(p.summary.framesOverBudget).toBe(0);
      expect(p.summary.worstCost).toBeLessThanOrEqual(budgetLine);
      expect(p.summary.framesBudgetInfeasible).toBe(0);
      expect(p.summary.qualityLossMean).toBeLessThan(quota.summary.qualityLossMean / 2);
    }
    // Hybrid keeps the screen-size levels whenever they fit: zero loss outside the telephoto shot.
    for (const f of hybrid.frames) if (f.shot !== 'TV telephoto') expect(f.qualityLoss).toBe(0);
  });

  it('distance (the seed\'s naive version) is cheap but falls apart under the telephoto lens', () => {
    const tele = distance.frames.filter((f) => f.shot === 'TV telephoto');
    const mean = tele.reduce((s, f) => s + f.qualityLoss, 0) / tele.length;
    expect(mean).toBeGreaterThan(quota.summary.qualityLossMean);
  });
});

describe('determinism', () => {
  it('two runs give identical result documents', () => {
    const again = simulate(builtInScene('motogp')).result;
    expect(JSON.stringify(again)).toBe(JSON.stringify(result));
  });

  it('the flightsim scenario runs and is deterministic too', () => {
    const a = simulate(builtInScene('flightsim'), { frames: 90 }).result;
    const b = simulate(builtInScene('flightsim'), { frames: 90 }).result;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.policies.map((p) => p.name)).toHaveLength(5);
  });
});
