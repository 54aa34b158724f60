/// <reference types="@webgpu/types" />
/**
 * Child-process entry of test/adapters/webgpu/node.test.ts (bundled by the test with Vite, started
 * with {@link dawnEnvironment}'s variables): opens a Dawn device, then runs the hand-worked frames,
 * the seeded scenes and a fast-check property on it, and prints one line `@@lodkit-gpu <json>`.
 * Argument: a JSON {@link RunnerJob}. Never asserts: the test does.
 */
import fc from 'fast-check';
import { Frustum } from '../../src/metrics/frustum.js';
import type { LodView } from '../../src/batch/lodSet.js';
import { FRESH_STATE, GpuLodSelector, OBJECT_WORDS, referenceFrame } from '../../src/adapters/webgpu/index.js';
import { runGpuBench, type GpuBenchResult } from '../../bench/webgpu/gpuBench.js';
import { openDawnDevice } from './dawnDevice.js';
import { SCENE_MESHES, SCENE_PROFILES, checkScene, makeScene, type FrameCheck } from './gpuSelectScenes.js';

export interface RunnerJob {
  /** Dawn `create` options (the test passes `['backend=null']` to prove that adapter is rejected). */
  createArgs?: string[];
  /** Only open and probe the device. */
  probeOnly?: boolean;
  /** `frames`: only the camera path's first frames (for the large scene). */
  scenes?: { seed: number; n: number; h: number; frames?: number }[];
  /** fast-check runs of the random-camera property (0: skip). */
  propertyRuns?: number;
  /** Run the WebGPU bench (bench/webgpu/gpuBench.ts) at these sizes on this default-limits device (a smoke run). */
  benchSizes?: number[];
}

export interface RunnerResult {
  ok: boolean;
  reason: string;
  /** The runner itself threw (a failure, never a skip). */
  crashed?: boolean;
  adapter: string;
  software: boolean;
  /** Per hand-worked frame: the 5 levels, then instanceCount of levels 0–2. */
  handWorked?: number[][];
  scenes?: { seed: number; n: number; h: number; frames?: number; checks: FrameCheck[] }[];
  property?: { runs: number; failure: string | null; visible: number; levelsUsed: number[] };
  bench?: GpuBenchResult;
  errors: string[];
  ms: number;
}

const yaw = (a: number): number[] => [0, Math.sin(a / 2), 0, Math.cos(a / 2)];

/**
 * Pixels metric, thresholds [150, 50], fovY 90° (window height 2 at distance 1), viewport 1000 px:
 * a sphere of radius 1 at distance d covers 2·1 / (d·2) · 1000 = 1000 / d pixels.
 * Objects: d 5 (200 px), d 10 (100 px), d 30 (33.3 px), one 30 units to the side at d 10 (outside
 * the 45° half-angle), one whose sphere holds the eye (finest level).
 */
async function handWorked(device: GPUDevice): Promise<number[][]> {
  const sel = new GpuLodSelector(device, { capacity: 5, profiles: [{ metric: 'pixels', thresholds: [150, 50] }], levels: SCENE_MESHES.slice(0, 3) });
  sel.setObjects(new Float32Array([0, 0, -5, 1, 0, 0, -10, 1, 0, 0, -30, 1, 30, 0, -10, 1, 0, 0, -0.5, 1]), new Uint32Array(5));
  const front: LodView = { frustum: Frustum.perspective({ fovY: 90, aspect: 1, near: 0.1, far: 1000 }), viewportHeight: 1000 };
  // Looks back (+z) from z = −60: sees the side object at distance √(30² + 50²) ≈ 58.3 (17.2 px).
  const back: LodView = { frustum: Frustum.perspective({ fovY: 90, aspect: 1, near: 0.1, far: 1000, position: [0, 0, -60], rotation: yaw(Math.PI) }), viewportHeight: 1000 };
  const out: number[][] = [];
  const frames: [LodView[], number, number][] = [[[front], 1, 0], [[front], 2, 0], [[front], 1, 0.6], [[front, back], 1, 0]];
  for (const [views, bias, hysteresis] of frames) {
    sel.update(views, { bias, hysteresis });
    const rb = await sel.readback();
    out.push([...rb.levels, rb.indirect[1], rb.indirect[6], rb.indirect[11]]);
  }
  sel.destroy();
  return out;
}

/**
 * Property: for any seeded scene of 1–400 objects, any camera (perspective or orthographic, any
 * position and heading) and any band h, two frames (the second moved a little) give GPU levels equal
 * to the reference except flagged near-threshold objects, and consistent counts and lists.
 */
async function property(device: GPUDevice, runs: number): Promise<{ failure: string | null; visible: number; levelsUsed: number[] }> {
  const cap = 400;
  const sel = new GpuLodSelector(device, { capacity: cap, profiles: SCENE_PROFILES, levels: SCENE_MESHES });
  const ref = new Uint32Array(cap * OBJECT_WORDS), near = new Uint8Array(cap), blend = new Float32Array(cap);
  // How much the runs saw (the test checks the property was not vacuous).
  let visible = 0;
  const levelsUsed = new Array(SCENE_MESHES.length).fill(0);
  const arb = fc.record({
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), n: fc.integer({ min: 1, max: cap }),
    h: fc.constantFrom(0, 0.05, 0.2, 0.5), ortho: fc.boolean(),
    x: fc.double({ min: -300, max: 300, noNaN: true }), y: fc.double({ min: 0, max: 60, noNaN: true }), z: fc.double({ min: -300, max: 300, noNaN: true }),
    heading: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), fov: fc.double({ min: 15, max: 110, noNaN: true }),
    step: fc.double({ min: 0, max: 3, noNaN: true }),
  });
  try {
    await fc.assert(fc.asyncProperty(arb, async (c) => {
      const { spheres, ids } = makeScene(c.seed, c.n);
      sel.setObjects(spheres, ids, c.n);
      let prev = new Uint32Array(c.n * OBJECT_WORDS);
      for (let i = 0; i < c.n; i++) prev[i * OBJECT_WORDS] = FRESH_STATE;
      for (let f = 0; f < 2; f++) {
        const position = [c.x, c.y, c.z - f * c.step], rotation = yaw(c.heading + 0.01 * f);
        const frustum = c.ortho
          ? Frustum.orthographic({ height: c.fov * 4, aspect: 1.5, near: 0.1, far: 3000, position, rotation })
          : Frustum.perspective({ fovY: c.fov, aspect: 1.5, near: 0.1, far: 3000, position, rotation });
        sel.update({ frustum, viewportHeight: 900 }, { hysteresis: c.h });
        const rb = await sel.readback();
        ref.set(prev);
        referenceFrame(sel.frameBytes, sel.profileBytes, spheres, ids, c.n, ref, blend, near);
        const perLevel = new Array(SCENE_MESHES.length).fill(0);
        for (let i = 0; i < c.n; i++) {
          const g = rb.levels[i];
          const e = ref[i * OBJECT_WORDS] & 0xff;
          if (g !== e && !near[i]) throw new Error(`frame ${f}: object ${i} GPU level ${g}, reference ${e}`);
          if (g !== 255) { perLevel[g]++; visible++; levelsUsed[g]++; }
        }
        for (let l = 0; l < SCENE_MESHES.length; l++) {
          if (rb.indirect[5 * l + 1] !== perLevel[l]) throw new Error(`frame ${f}: level ${l} instanceCount ${rb.indirect[5 * l + 1]}, ${perLevel[l]} objects`);
          for (let k = 0; k < perLevel[l]; k++) {
            const id = rb.instances[l * sel.stride + k];
            if (id >= c.n || rb.levels[id] !== l) throw new Error(`frame ${f}: list ${l} holds id ${id} (level ${rb.levels[id]})`);
          }
        }
        prev = rb.state.slice(0);
      }
    }), { numRuns: runs, seed: 20261201 });
    return { failure: null, visible, levelsUsed };
  } catch (e) {
    return { failure: (e as Error).message.slice(0, 2000), visible, levelsUsed };
  } finally {
    sel.destroy();
  }
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const job = JSON.parse(process.argv[2] ?? '{}') as RunnerJob;
  const result: RunnerResult = { ok: false, reason: '', adapter: '', software: false, errors: [], ms: 0 };
  const dev = await openDawnDevice({ createArgs: job.createArgs });
  result.adapter = dev.description;
  if (!dev.ok) {
    result.reason = dev.reason;
  } else {
    result.ok = true;
    result.software = dev.software;
    const device = dev.device;
    device.addEventListener('uncapturederror', (e) => result.errors.push((e as GPUUncapturedErrorEvent).error.message));
    if (!job.probeOnly) {
      result.handWorked = await handWorked(device);
      result.scenes = [];
      for (const s of job.scenes ?? []) result.scenes.push({ ...s, checks: await checkScene(device, s.seed, s.n, s.h, s.frames) });
      if (job.propertyRuns) result.property = { runs: job.propertyRuns, ...await property(device, job.propertyRuns) };
      if (job.benchSizes) result.bench = await runGpuBench(device, dev.description, dev.software, { sizes: job.benchSizes, frames: 2, warmup: 1, sample: 20_000 });
    }
    device.destroy();
  }
  result.ms = Math.round(performance.now() - t0);
  process.stdout.write(`@@lodkit-gpu ${JSON.stringify(result)}\n`);
}

main().then(() => process.exit(0), (e: unknown) => {
  process.stdout.write(`@@lodkit-gpu ${JSON.stringify({ ok: false, crashed: true, reason: `runner threw: ${(e as Error)?.stack ?? String(e)}`, adapter: '', software: false, errors: [], ms: 0 })}\n`);
  process.exit(1);
});
