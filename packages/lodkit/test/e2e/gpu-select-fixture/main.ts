/// <reference types="@webgpu/types" />
/**
 * Fixture for test/e2e/gpuSelect.test.ts: runs `GpuLodSelector` on seeded scenes in the page and
 * compares with the float32 reference (reference.ts), which it runs from the GPU's previous object
 * records so a counted near-threshold case cannot cascade; returns counts only (the test asserts on
 * them). Expected values never come from the GPU: budgets are set from the reference's preferred
 * cost, costs are re-summed here in float64 from the profiles' own costs.
 */
import { Frustum } from '../../../src/metrics/frustum.js';
import type { LodView } from '../../../src/batch/lodSet.js';
import { FRAME_BYTES, FRESH_STATE, GpuLodSelector, OBJECT_WORDS, packFrame, referenceFrame, type GpuLodUpdateOptions } from '../../../src/adapters/webgpu/index.js';
import type { LodProfileOptions } from '../../../src/batch/core/profiles.js';
import { knownKernelErrors } from '../../helpers/knownKernel.js';

let device: GPUDevice | null = null;

/** Finds an adapter and proves it computes: a 4096-element kernel must write `3i + 1`. */
async function probe(): Promise<{ ok: boolean; reason: string; adapter: string }> {
  if (!('gpu' in navigator)) return { ok: false, reason: 'navigator.gpu is missing', adapter: '' };
  const adapter = await navigator.gpu.requestAdapter();
  if (adapter == null) return { ok: false, reason: 'requestAdapter() returned null', adapter: '' };
  const info = adapter.info ? `${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}` : '';
  device = await adapter.requestDevice();
  device.addEventListener('uncapturederror', (e) => console.error(`WebGPU: ${(e as GPUUncapturedErrorEvent).error.message}`));
  const bad = await knownKernelErrors(device);
  if (bad > 0) return { ok: false, reason: `adapter computes nothing useful (${bad}/4096 wrong in a known kernel)`, adapter: info };
  return { ok: true, reason: '', adapter: info };
}

const MESHES = [{ indexCount: 3000 }, { indexCount: 1200, firstIndex: 3000 }, { indexCount: 300, firstIndex: 4200, baseVertex: 7 }, { indexCount: 60, firstIndex: 4500 }, { indexCount: 12, firstIndex: 4560 }];

/** Hand-worked: distance thresholds [10, 20], eye at the origin looking down −z. */
async function handWorked(): Promise<number[]> {
  const sel = new GpuLodSelector(device!, { capacity: 4, profiles: [{ metric: 'distance', thresholds: [10, 20] }], levels: MESHES.slice(0, 3) });
  // Surface distances 4 (level 0), 14 (level 1), 29 (level 2); the last is behind the eye (culled).
  sel.setObjects(new Float32Array([0, 0, -5, 1, 0, 0, -15, 1, 0, 0, -30, 1, 0, 0, 40, 1]), new Uint32Array(4));
  sel.update({ frustum: Frustum.perspective({ fovY: 60, aspect: 1, near: 0.1, far: 1000 }) });
  const rb = await sel.readback();
  sel.destroy();
  return [...rb.levels, rb.indirect[1], rb.indirect[6], rb.indirect[11], rb.indirect[10 + 2], rb.indirect[10 + 3]];
}

/**
 * Hand-worked blend, min/max, minFrames and budget cases (distance thresholds [10, 20], blend
 * thresholds [12, 24]: the index blends from 0 to 1 over distances 10 … 12). Returns
 * [levels and blend ×1000 of frame 1, levels under maxLevel 1 / minLevel 1, minFrames hold sequence, budget levels and stats].
 */
async function handWorkedOptions(): Promise<number[]> {
  const view = { frustum: Frustum.perspective({ fovY: 60, aspect: 1, near: 0.1, far: 1000 }), viewportHeight: 1000 };
  const out: number[] = [];
  {
    const sel = new GpuLodSelector(device!, { capacity: 3, profiles: [{ metric: 'distance', thresholds: [10, 20], blendThresholds: [12, 24] }], levels: MESHES.slice(0, 3) });
    // Surface distances 10.5 (index 0.25), 11.5 (index 0.75 → level 1), 22 (index 1.5 → level 2, blend 0.5).
    sel.setObjects(new Float32Array([0, 0, -11.5, 1, 0, 0, -12.5, 1, 0, 0, -23, 1]), new Uint32Array(3));
    sel.update(view);
    let rb = await sel.readback();
    out.push(...rb.levels, ...Array.from(rb.blend, (b) => Math.round(b * 1000)));
    sel.update(view, { maxLevel: 1 });
    rb = await sel.readback();
    out.push(...rb.levels);
    sel.update(view, { minLevel: 1 });
    rb = await sel.readback();
    out.push(...rb.levels);
    sel.destroy();
  }
  {
    // minFramesBetweenChanges 3: an object alternating 5 / 15 m changes level at most every 3 frames.
    const sel = new GpuLodSelector(device!, { capacity: 1, profiles: [{ metric: 'distance', thresholds: [10, 20] }], levels: MESHES.slice(0, 3) });
    const seq: number[] = [];
    for (let k = 0; k < 7; k++) {
      if (k === 0) sel.setObjects(new Float32Array([0, 0, -6, 1]), new Uint32Array(1));
      else sel.writeSpheres(new Float32Array([0, 0, k % 2 === 0 ? -6 : -16, 1])); // moves, keeps the state
      sel.update(view, { minFramesBetweenChanges: 3 });
      seq.push((await sel.readback()).levels[0]);
    }
    out.push(...seq);
    sel.destroy();
  }
  {
    // Budget: 3 objects, costs [100, 10, 1]; all preferred at level 0 (cost 300); budget 120.
    // Projected diameters 2r/(d·wh)·1000 with wh = 2·tan(30°): larger objects buy their upgrades first.
    const sel = new GpuLodSelector(device!, { capacity: 3, profiles: [{ metric: 'distance', thresholds: [1000, 2000], costs: [100, 10, 1] }], levels: MESHES.slice(0, 3) });
    sel.setObjects(new Float32Array([0, 0, -50, 4, 0, 0, -50, 2, 0, 0, -50, 1]), new Uint32Array(3));
    sel.update(view, { budget: 120 });
    const rb = await sel.readback();
    out.push(...rb.levels, rb.stats.totalCost, rb.stats.budgetMode);
    sel.update(view, { budget: 2 }); // below the minimum 3: floor everywhere, flagged
    const rb2 = await sel.readback();
    out.push(...rb2.levels, rb2.stats.totalCost, rb2.stats.budgetMode, rb2.stats.budgetMet ? 1 : 0);
    sel.destroy();
  }
  return out;
}
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options of one seeded scene run. */
interface SceneConfig {
  hysteresis?: number; minLevel?: number; maxLevel?: number; minFrames?: number; blend?: boolean; passes?: 'auto' | 'split';
  /**
   * Budget per frame from the reference's preferred (P) and minimum (M) cost: `M + f·(P − M)` for
   * f ≥ 0 (1 and above: fits), `M·(1 + f)` for f < 0 (below the minimum); null for none.
   */
  budgetFraction?: number | null;
  /** Camera poses (default 6: 4 walking perspective, 1 orthographic, 1 two-view). */
  frames?: number;
  /** Cluster culling (default true, as the selector). */
  clusters?: boolean;
  /** Per-(profile, level) lists with distinct mesh ranges per profile. */
  perProfile?: boolean;
  /** `cull: false` (default true). */
  cull?: boolean;
}

interface FrameResult {
  visible: number; near: number; mismatches: number; nearMismatches: number; holds: number;
  blendErrors: number; maxBlendError: number; countErrors: number; listErrors: number; argErrors: number;
  changedErrors: number; statsErrors: number; perLevel: number[];
  budget: number; cost: number; mode: number; refMode: number; overBudget: number; budgetMetFlag: number; preferredCost: number; minimumCost: number;
}

const PROFILES = (blend: boolean): LodProfileOptions[] => [
  { metric: 'distance', thresholds: [20, 60, 150, 400], ...(blend ? { blendThresholds: [26, 75, 180, 460] } : {}), costs: [1000, 400, 100, 20, 4] },
  { metric: 'pixels', thresholds: [300, 100, 30, 10], ...(blend ? { blendThresholds: [250, 80, 24, 8] } : {}), costs: [2000, 500, 120, 30, 6], qualityFloor: 3 },
  { metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03, 0.01], ...(blend ? { blendThresholds: [0.25, 0.08, 0.025] } : {}) },
  { metric: 'screenArea', thresholds: [0.05, 0.005, 0.0005], costs: [900, 300, 60, 9] },
];

/** A seeded scene and a camera path; per frame GPU vs the float32 reference. */
async function scene(seed: number, n: number, cfg: SceneConfig): Promise<FrameResult[]> {
  const rnd = mulberry32(seed);
  const spheres = new Float32Array(n * 4), ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    spheres[4 * i] = (rnd() - 0.5) * 1000; spheres[4 * i + 1] = rnd() * 40; spheres[4 * i + 2] = (rnd() - 0.5) * 1000;
    spheres[4 * i + 3] = 0.5 + rnd() * 4.5;
    ids[i] = Math.floor(rnd() * 4);
  }
  // A few bad spheres: NaN, +∞, negative radius (coarsest level, counted as invalid by the engine).
  spheres[4 * 7] = Number.NaN; spheres[4 * 11 + 2] = Number.POSITIVE_INFINITY; spheres[4 * 13 + 3] = -1;
  const profiles = PROFILES(cfg.blend ?? false);
  const levelsOf = profiles.map((p) => p.thresholds.length + 1);
  // Per profile p: mesh l = MESHES[l] shifted by 10000·p indices and p vertices (distinct records).
  const profileMeshes = levelsOf.map((lc, p) => MESHES.slice(0, lc).map((m) => ({ indexCount: m.indexCount + p, firstIndex: (m.firstIndex ?? 0) + 10_000 * p, baseVertex: (m.baseVertex ?? 0) + p })));
  const sel = new GpuLodSelector(device!, { capacity: n, levels: MESHES, profiles, clusters: cfg.clusters, ...(cfg.perProfile ? { profileMeshes } : {}) });
  sel.setObjects(spheres, ids);
  // The draw lists to check: global (profile −1) or one per (profile, level).
  const lists = cfg.perProfile
    ? levelsOf.flatMap((lc, p) => Array.from({ length: lc }, (_, l) => ({ p, l, mesh: profileMeshes[p][l] })))
    : MESHES.map((mesh, l) => ({ p: -1, l, mesh }));
  const costTable = profiles.map((p) => p.costs ? Array.from(p.costs) : Array.from({ length: p.thresholds.length + 1 }, (_, l) => 4 ** (p.thresholds.length - l)));
  const yaw = (a: number) => [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
  const path: LodView[][] = [];
  const walk = Math.max(1, (cfg.frames ?? 6) - 2);
  for (let k = 0; k < walk; k++) {
    path.push([{ frustum: Frustum.perspective({ fovY: 60, aspect: 16 / 9, near: 0.1, far: 2000, position: [0, 10, 300 - 3 * k], rotation: yaw(0.01 * k) }), viewportHeight: 1080 }]);
  }
  path.push([{ frustum: Frustum.orthographic({ height: 400, aspect: 1.5, near: 0.1, far: 3000, position: [0, 20, 600], rotation: yaw(0.3) }), viewportHeight: 720 }]);
  path.push([
    { frustum: Frustum.perspective({ fovY: 50, aspect: 1, near: 0.1, far: 1500, position: [100, 5, 100], rotation: yaw(1.2) }), viewportHeight: 900 },
    { frustum: Frustum.perspective({ fovY: 70, aspect: 2, near: 0.1, far: 800, position: [-200, 15, -50], rotation: yaw(-2) }), viewportHeight: 600 },
  ]);
  const out: FrameResult[] = [];
  let prev = new Uint32Array(n * OBJECT_WORDS);
  for (let i = 0; i < n; i++) prev[i * OBJECT_WORDS] = FRESH_STATE;
  const ref = new Uint32Array(n * OBJECT_WORDS), noHold = new Uint32Array(n * OBJECT_WORDS);
  const blendRef = new Float32Array(n), blend0 = new Float32Array(n), near = new Uint8Array(n), near0 = new Uint8Array(n);
  const probe = new ArrayBuffer(FRAME_BYTES);
  for (const views of path) {
    const opts: GpuLodUpdateOptions = {
      hysteresis: cfg.hysteresis ?? 0, minLevel: cfg.minLevel, maxLevel: cfg.maxLevel, minFramesBetweenChanges: cfg.minFrames, passes: cfg.passes, cull: cfg.cull,
    };
    let budget: number | null = null, minimumCost = 0;
    if (cfg.budgetFraction != null) {
      // The budget from the reference's preferred cost of this frame (no budget), never from the GPU.
      packFrame(probe, views, n, sel.stride, MESHES.length, 1, opts.hysteresis ?? 0, {
        frame: sel.frameCount + 1, minFrames: cfg.minFrames ?? 0, minLevel: cfg.minLevel ?? 0, maxLevel: cfg.maxLevel ?? 255, budgetUnits: 0, cull: cfg.cull,
      });
      noHold.set(prev);
      const st = referenceFrame(probe, sel.profileBytes, spheres, ids, n, noHold, blend0, near0);
      const P = st.preferredUnits / sel.costScale, M = st.minimumUnits / sel.costScale, f = cfg.budgetFraction;
      budget = Math.floor(f >= 0 ? M + f * (P - M) : M * (1 + f));
      minimumCost = M;
      opts.budget = budget;
    }
    sel.update(views, opts);
    const rb = await sel.readback();
    ref.set(prev); noHold.set(prev);
    const rs = referenceFrame(sel.frameBytes, sel.profileBytes, spheres, ids, n, ref, blendRef, near);
    const r: FrameResult = {
      visible: 0, near: 0, mismatches: 0, nearMismatches: 0, holds: rs.held, blendErrors: 0, maxBlendError: 0,
      countErrors: 0, listErrors: 0, argErrors: 0, changedErrors: 0, statsErrors: 0, perLevel: [],
      budget: budget ?? -1, cost: 0, mode: rb.stats.budgetMode, refMode: rs.mode, overBudget: 0, budgetMetFlag: rb.stats.budgetMet ? 1 : 0,
      preferredCost: rs.preferredUnits / sel.costScale, minimumCost,
    };
    const perLevel = new Array(MESHES.length).fill(0);
    const perList = new Map<string, number>();
    let cost = 0;
    for (let i = 0; i < n; i++) {
      const g = rb.levels[i], e = ref[i * OBJECT_WORDS] & 0xff;
      if (g !== 255) {
        r.visible++; perLevel[g]++; cost += costTable[ids[i]][g];
        const key = cfg.perProfile ? `${ids[i]}/${g}` : `-1/${g}`;
        perList.set(key, (perList.get(key) ?? 0) + 1);
      }
      if (near[i]) r.near++;
      if (g !== e) { if (near[i]) r.nearMismatches++; else r.mismatches++; }
      const be = Math.abs(rb.blend[i] - blendRef[i]);
      if (!near[i] && g === e) { if (be > 2 ** -16) r.blendErrors++; if (be > r.maxBlendError) r.maxBlendError = be; }
    }
    r.cost = cost;
    if (budget !== null && rs.mode !== 2 && cost > budget) r.overBudget = 1;
    for (const { p, l, mesh: m } of lists) {
      const ao = (p < 0 ? sel.indirectOffset(l) : sel.indirectOffsetOf(p, l)) / 4;
      const a = rb.indirect.subarray(ao, ao + 5);
      if (a[0] !== m.indexCount || a[2] !== (m.firstIndex ?? 0) || a[3] !== (m.baseVertex ?? 0) || a[4] !== 0) r.argErrors++;
      if (a[1] !== (perList.get(`${p}/${l}`) ?? 0)) r.countErrors++;
      // The list must hold exactly the ids at level l (of profile p), each once.
      const io = (p < 0 ? sel.instanceOffset(l) : sel.instanceOffsetOf(p, l)) / 4, cap = (p < 0 ? sel.instanceBytes : sel.instanceBytesOf(p)) / 4;
      const seen = new Uint8Array(n);
      if (a[1] > cap) r.listErrors++;
      for (let q = 0; q < Math.min(a[1], cap); q++) {
        const id = rb.instances[io + q];
        if (id >= n || seen[id] || rb.levels[id] !== l || (p >= 0 && ids[id] !== p)) r.listErrors++; else seen[id] = 1;
      }
    }
    // Changed ids: the reference's set (from the same previous levels), near objects excepted.
    const gotChanged = new Uint8Array(n);
    for (const id of rb.stats.changed) { if (id >= n || gotChanged[id]) r.changedErrors++; else gotChanged[id] = 1; }
    const refChanged = new Uint8Array(n);
    for (const id of rs.changed) refChanged[id] = 1;
    for (let i = 0; i < n; i++) if (gotChanged[i] !== refChanged[i] && !near[i]) r.changedErrors++;
    // Stats: exact against an independent float64 re-count of the GPU levels and the reference's counts.
    if (Math.abs(rb.stats.totalCost - Math.ceil(cost * sel.costScale) / sel.costScale) > 1e-9 * Math.max(1, cost)) r.statsErrors++;
    if (rb.stats.hidden + r.visible !== n) r.statsErrors++;
    if (rb.stats.invalid !== rs.invalid) r.statsErrors++;
    for (let l = 0; l < MESHES.length; l++) if (rb.stats.levelCounts[l] !== perLevel[l] || (r.nearMismatches === 0 && r.mismatches === 0 && perLevel[l] !== rs.levelCounts[l])) r.statsErrors++;
    if (r.nearMismatches === 0 && (rb.stats.held !== rs.held || rb.stats.budgetMode !== rs.mode || rb.stats.changed.length !== rs.changed.length)) r.statsErrors++;
    r.perLevel = perLevel;
    out.push(r);
    prev = rb.state.slice(0);
  }
  sel.destroy();
  return out;
}

/**
 * The same seeded scene and camera path through two selectors, cluster culling on and off: per
 * frame the number of objects whose state word, blend or level differs, indirect counts that
 * differ, and the (cluster, view) pairs decided whole. Spheres in a grid-free random order; the
 * selector sorts them into Morton order itself. Also moves a block of objects between frames
 * (`writeSpheres`, refit on the GPU).
 */
async function clusterCompare(seed: number, n: number, cfg: SceneConfig): Promise<{ diff: number; argDiff: number; outside: number; inside: number; visible: number }[]> {
  const rnd = mulberry32(seed);
  const spheres = new Float32Array(n * 4), ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    spheres[4 * i] = (rnd() - 0.5) * 2000; spheres[4 * i + 1] = rnd() * 40; spheres[4 * i + 2] = (rnd() - 0.5) * 2000;
    spheres[4 * i + 3] = 0.5 + rnd() * 4.5;
    ids[i] = Math.floor(rnd() * 4);
  }
  spheres[4 * 7] = Number.NaN; spheres[4 * 13 + 3] = -1;
  const profiles = PROFILES(cfg.blend ?? false);
  const on = new GpuLodSelector(device!, { capacity: n, levels: MESHES, profiles, clusters: true });
  const off = new GpuLodSelector(device!, { capacity: n, levels: MESHES, profiles, clusters: false });
  on.setObjects(spheres, ids); off.setObjects(spheres, ids);
  const yaw = (a: number) => [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
  const out: { diff: number; argDiff: number; outside: number; inside: number; visible: number }[] = [];
  for (let k = 0; k < (cfg.frames ?? 6); k++) {
    const views: LodView[] = k === 3
      ? [{ frustum: Frustum.orthographic({ height: 300, aspect: 1.5, near: 0.1, far: 3000, position: [0, 20, 600], rotation: yaw(0.3) }), viewportHeight: 720 }]
      : [{ frustum: Frustum.perspective({ fovY: 50, aspect: 16 / 9, near: 0.1, far: 900, position: [20 * k, 8, 400 - 40 * k], rotation: yaw(0.2 * k) }), viewportHeight: 1080 }];
    if (k === 4) views.push({ frustum: Frustum.perspective({ fovY: 70, aspect: 2, near: 0.1, far: 600, position: [-300, 15, -50], rotation: yaw(-2) }), viewportHeight: 600 });
    if (k === 2) {
      // Move the first 1000 objects 30 m along x: state kept, bounds refit on the GPU.
      const moved = spheres.slice(0, 4000);
      for (let i = 0; i < 1000; i++) moved[4 * i] += 30;
      spheres.set(moved, 0);
      on.writeSpheres(moved, 0, 1000); off.writeSpheres(moved, 0, 1000);
    }
    const opts: GpuLodUpdateOptions = { hysteresis: cfg.hysteresis ?? 0, minFramesBetweenChanges: cfg.minFrames, budget: cfg.budgetFraction != null ? 60_000 : null };
    on.update(views, opts); off.update(views, opts);
    const [a, b] = [await on.readback(), await off.readback()];
    let diff = 0, argDiff = 0, visible = 0;
    for (let i = 0; i < n; i++) {
      if (a.state[i * OBJECT_WORDS] !== b.state[i * OBJECT_WORDS] || a.state[i * OBJECT_WORDS + 1] !== b.state[i * OBJECT_WORDS + 1] || a.blend[i] !== b.blend[i]) diff++;
      if (a.levels[i] !== 255) visible++;
    }
    for (let w = 0; w < a.indirect.length; w++) if (a.indirect[w] !== b.indirect[w]) argDiff++;
    if (a.stats.changed.length !== b.stats.changed.length || a.stats.totalCost !== b.stats.totalCost) argDiff++;
    out.push({ diff, argDiff, outside: a.stats.clustersOutside, inside: a.stats.clustersInside, visible });
  }
  on.destroy(); off.destroy();
  return out;
}

(window as unknown as { gpuSelect: object }).gpuSelect = { probe, handWorked, handWorkedOptions, scene, clusterCompare };
document.body.dataset.ready = '1';
