/**
 * The result records of {@link simulate}: what one frame of one policy measured, the per-policy
 * summaries, the whole deterministic {@link SimulationResult} (the JSON the report reads) and the
 * measured {@link SimulationTimings}. Definitions of the fields: simulate.ts and docs/simulate.md.
 *
 * @module
 */
import type { FrameTimeSummary } from './frameTimeStats.js';
import type { ScenePolicy } from './sceneFormat.js';

/** Format id of {@link SimulationResult}. @category Simulator */
export const SIMULATION_FORMAT = 'lodkit-simulation';
/** Version of {@link SimulationResult}; bumped on any incompatible change. @category Simulator */
export const SIMULATION_FORMAT_VERSION = 2;

/** One frame of one policy. @category Simulator */
export interface FrameRecord {
  frame: number;
  /** Scene time in seconds. */
  time: number;
  /** Camera shot label. */
  shot: string;
  /** Triangles drawn. */
  cost: number;
  overBudget: boolean;
  /** px·levels, rounded to 0.001. */
  qualityLoss: number;
  /** Screen-space error above the tolerance, px, summed over visible objects, rounded to 0.001 (the budgets' objective). */
  screenSpaceLoss: number;
  /** Frame time on the scene's synthetic GPU, ms, rounded to 0.001. */
  gpuMs: number;
  /** Cost budget the engine was given this frame (a frame-time policy: its governor's); null without one. */
  budget: number | null;
  /** Visible level changes (pops). */
  changes: number;
  /** Visible objects per level. */
  levelsHistogram: number[];
  /** Culled or hidden objects. */
  hidden: number;
}

/** Per-policy summary over all frames. @category Simulator */
export interface PolicySummary {
  meanCost: number;
  worstCost: number;
  worstCostFrame: number;
  worstCostShot: string;
  /** Frames with `overBudget`; null when there is no budget. */
  framesOverBudget: number | null;
  qualityLossMean: number;
  qualityLossWorst: number;
  qualityLossWorstFrame: number;
  /** Mean and worst screen-space loss (px). */
  screenSpaceLossMean: number;
  screenSpaceLossWorst: number;
  /** Mean and worst synthetic-GPU frame time (ms). */
  gpuMsMean: number;
  gpuMsWorst: number;
  /** Frame-time policies: how well the governor held its target; null otherwise. */
  frameTime: FrameTimeSummary | null;
  totalChanges: number;
  /** totalChanges ÷ simulated seconds. */
  popsPerSecond: number;
  /** Frames where the engine reported the budget could not be met even at the coarsest levels. */
  framesBudgetInfeasible: number;
  /** Objects with invalid spheres, summed over frames (0 for a valid scene). */
  invalidObjectFrames: number;
}

/** One policy's run. @category Simulator */
export interface PolicyResult {
  name: string;
  policy: ScenePolicy['policy'];
  /** The options passed to the engine (budget resolved). */
  options: {
    bias: number; hysteresis: number; minFramesBetweenChanges: number;
    budget: number | null; quotas: number[] | null; quotaScope: 'profile' | 'scene' | null;
    /** Frame-time target (ms) of a governed budget/hybrid policy; null otherwise. */
    frameMs: number | null;
    stabilityBand: number;
    /** budget: the knapsack also when the thresholds' selection fits (lodkit's `trimOverdraw`). */
    trimOverdraw: boolean;
    minLevel: number; maxLevel: number;
    profiles: Record<string, { metric: string; thresholds: number[]; blendThresholds: number[] }>;
  };
  summary: PolicySummary;
  frames: FrameRecord[];
}

/** The deterministic result document of a simulation (`--json`). @category Simulator */
export interface SimulationResult {
  format: typeof SIMULATION_FORMAT;
  version: typeof SIMULATION_FORMAT_VERSION;
  scene: {
    name: string;
    description: string;
    seed: number | null;
    objects: number;
    profiles: Record<string, { objects: number; metric: string; thresholds: number[]; triangles: number[]; errors: number[]; quality: { metric: string; thresholds: number[] } }>;
    /** Screen-space error tolerance, px. */
    tolerance: number;
    /** The synthetic GPU (resolved parameters). */
    gpu: { overheadMs: number; msPerTriangle: number; msPerDraw: number; noise: number; spikes: Array<{ start: number; end: number; factor: number }> };
    parameters: Record<string, string | number | boolean>;
    startTime: number;
    duration: number;
    frames: number;
    fps: number;
    budget: number | null;
    shots: Array<{ shot: string; startTime: number }>;
  };
  qualityLossUnit: 'px·levels';
  screenSpaceLossUnit: 'px';
  policies: PolicyResult[];
}

/** Measured (non-deterministic) selection times per policy, in milliseconds. @category Simulator */
export interface SimulationTimings {
  [policyName: string]: { meanMs: number; worstMs: number; totalMs: number; perObjectNs: number };
}
