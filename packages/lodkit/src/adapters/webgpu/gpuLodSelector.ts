/**
 * `GpuLodSelector`: `LodSet`'s thresholds decision (blend, min/max level, hysteresis,
 * `minFramesBetweenChanges`) and the hybrid policy's coarsening under a cost budget as WebGPU
 * compute passes that feed `drawIndexedIndirect`. The spheres, profile ids and per-object state live
 * in GPU buffers; a frame writes one uniform block, clears the scratch block, copies the
 * indirect-argument template and dispatches: one fused pass without a budget, select → cut →
 * compact with one. Nothing per object crosses the bus; {@link GpuLodSelector.readback} is for
 * tests and tools only.
 *
 * Contributor notes:
 * - Draw level `l` with `drawIndexedIndirect(selector.indirect, selector.indirectOffset(l))` and bind
 *   `selector.instances` at `selector.instanceOffset(l)` (size `instanceBytes`) as the vertex shader's
 *   id list (`ids[instance_index]`). The list offset is a multiple of 256 bytes (storage binding
 *   alignment), so `firstInstance` stays 0 and the `indirect-first-instance` feature is not needed.
 * - Levels are global by default: list `l` holds every object at level `l` of its profile. With
 *   `profileMeshes` there is one list and argument record per (profile, level) (lists.ts).
 * - `blend` holds the blend fraction per object (f32, as `LodSet.blend`); `scratch` the frame's
 *   stats and changed ids (layout.ts), for a renderer that wants them on the GPU.
 * - Semantics and the float32 exactness rule: reference.ts, budgetReference.ts. Layouts:
 *   layout.ts. Kernels: wgsl.ts (select / compact), budgetWgsl.ts (cut).
 *
 * @module
 */
import type { LodView, LodViewFrustum } from '../../batch/lodSet.js';
import { validateLodProfile, type LodProfile, type LodProfileOptions } from '../../batch/core/profiles.js';
import {
  costScaleOf, FRAME_BYTES, FRESH_STATE, MAX_GPU_LEVELS, MAX_GPU_MIN_FRAMES, MAX_GPU_VIEWS, OBJECT_WORDS,
  packFrame, packProfiles, Scratch, SCRATCH_CHANGED,
} from './layout.js';
import { BUDGET_CUT_WGSL } from './budgetWgsl.js';
import { CLUSTER_REFIT_WGSL } from './clusterWgsl.js';
import { CLUSTER_SIZE } from '../../batch/spatial/clusters.js';
import { mortonOrder } from '../../batch/spatial/mortonOrder.js';
import { SELECT_WGSL } from './wgsl.js';
import { layoutProfileLists, profileListArgs, writeMeshArgs, type GpuLevelMesh } from './lists.js';

export type { GpuLevelMesh } from './lists.js';

/** Options of {@link GpuLodSelector}. @category WebGPU */
export interface GpuLodSelectorOptions {
  /** Largest number of objects (buffers are sized once). */
  capacity: number;
  /** Profiles (metric, thresholds, blend thresholds, costs, errors, quality floor). Ids are their indices. */
  profiles: readonly LodProfileOptions[];
  /** One mesh range per level, at least as many as the finest profile has levels, at most 16. */
  levels: readonly GpuLevelMesh[];
  /**
   * Cluster culling (LodSet's layout: Morton order, clusters of 64, conservative bounding spheres):
   * a cluster wholly outside a view hides its objects for that view without per-object plane
   * tests, one wholly inside skips them. Same levels as without. Default true.
   */
  clusters?: boolean;
  /**
   * One mesh per (profile, level) — `profileMeshes[p][l]`, exactly the profile's level count each:
   * switches to per-(profile, level) lists and argument records (lists.ts; draw with
   * {@link GpuLodSelector.indirectOffsetOf} / {@link GpuLodSelector.instanceOffsetOf}). Default:
   * global lists, one per entry of `levels`.
   */
  profileMeshes?: readonly (readonly GpuLevelMesh[])[];
}

/** Per-frame options of {@link GpuLodSelector.update}. @category WebGPU */
export interface GpuLodUpdateOptions {
  /** Multiplies screen sizes, divides distances. */
  bias?: number;
  /** Relative hysteresis band `h` in [0, 1), as `LodSet`'s. */
  hysteresis?: number;
  /** Finest level allowed (as `LodSet`'s). Default 0. */
  minLevel?: number;
  /** Coarsest level allowed, clamped per profile. Default 255. */
  maxLevel?: number;
  /** Minimum frames between two level changes of one object, at most 65535 (hidden/invalid frames reset it). Default 0. */
  minFramesBetweenChanges?: number;
  /**
   * Hybrid policy: maximum total cost (`costs` of the profiles summed over drawn objects), or
   * `null` for none. Objects are coarsened toward their quality floor until it fits; never over,
   * unless every adjustable object at its floor is (then floor everywhere, `budgetMet` false).
   */
  budget?: number | null;
  /** Budget: screen-space error (px) below which a level is as good as full detail. Default 1. */
  tolerance?: number;
  /**
   * Budget: `LodSet`'s stability band in [0, 1) — the keep bonus `band × max(sse, tolerance)` px for
   * the previous level (its price terms are not on the GPU, docs/webgpu.md). Default 0.4, as `LodSet`.
   */
  stabilityBand?: number;
  /** `'split'` runs select → cut → compact even without a budget (tests; same result). Default `'auto'`. */
  passes?: 'auto' | 'split';
  /**
   * As `LodSet`'s `cull`: false draws objects outside every view too (a screen size of 0 from a view
   * an object is outside, the distance as if inside). Default true.
   */
  cull?: boolean;
}

/** Defaults of {@link GpuLodUpdateOptions}. @category WebGPU */
export const GPU_LOD_UPDATE_DEFAULTS: Required<GpuLodUpdateOptions> = {
  bias: 1, hysteresis: 0, minLevel: 0, maxLevel: 255, minFramesBetweenChanges: 0, budget: null, tolerance: 1, stabilityBand: 0.4, passes: 'auto', cull: true,
};

/** Frame stats computed on the GPU (see {@link GpuLodReadback.stats}). @category WebGPU */
export interface GpuLodStats {
  /** Sum of the drawn objects' level costs, in real cost (cost units ÷ `costScale`; costs rounded up to units). */
  totalCost: number;
  /** Cost of the thresholds (preferred) levels; budget frames only, else 0. */
  preferredCost: number;
  /** Cost with every adjustable object at its quality floor; budget frames only, else 0. */
  minimumCost: number;
  /** 0 nothing coarsened, 1 coarsened at the cut, 2 over budget even at the floor. */
  budgetMode: number;
  /** True when no budget was set or the total fits in it. */
  budgetMet: boolean;
  /** Cut code of the budget histograms (steps with key code ≥ cut were bought; layout.ts). */
  cut: number;
  hidden: number;
  invalid: number;
  /** Objects held at their previous level by hysteresis or `minFramesBetweenChanges`. */
  held: number;
  /** Drawn objects per level (the GPU's instance counts, summed over profiles with per-profile lists). */
  levelCounts: Uint32Array;
  /** Cluster culling: (cluster, view) pairs decided wholly outside / wholly inside (0 with clusters off). */
  clustersOutside: number;
  clustersInside: number;
  /** Ids whose level changed this frame (in no particular order). */
  changed: Uint32Array;
}

/** What {@link GpuLodSelector.readback} returns. @category WebGPU */
export interface GpuLodReadback {
  /** Level per object (`HIDDEN_LEVEL` 255 when culled). */
  levels: Uint8Array;
  /** Raw object records (`OBJECT_WORDS` per object, layout.ts), for feeding the float32 reference. */
  state: Uint32Array;
  /** Blend fraction per object. */
  blend: Float32Array;
  stats: GpuLodStats;
  /** The indirect arguments, 5 words per level: indexCount, instanceCount, firstIndex, baseVertex, firstInstance. */
  indirect: Uint32Array;
  /** Instance lists; global list `l` is `[l·stride, l·stride + indirect[5l+1])` (per-profile: `instanceOffsetOf / 4`). */
  instances: Uint32Array;
}

const OWNER = 'GpuLodSelector';
// GPUBufferUsage / GPUMapMode values (spec constants), so this module loads where WebGPU is absent.
const MAP_READ = 0x1, COPY_SRC = 0x4, COPY_DST = 0x8, INDIRECT = 0x100, UNIFORM = 0x40, STORAGE = 0x80, MAP_MODE_READ = 0x1;

/**
 * GPU level selection with indirect draw arguments.
 * @example
 * ```ts
 * const sel = new GpuLodSelector(device, { capacity: n, profiles: [{ metric: 'pixels', thresholds: [200, 50] }], levels: meshes });
 * sel.setObjects(spheres, profileIds);
 * sel.update({ frustum, viewportHeight: 1080 }, { hysteresis: 0.1, budget: 2_000_000 }, encoder);
 * pass.drawIndexedIndirect(sel.indirect, sel.indirectOffset(0));
 * ```
 * @category WebGPU
 */
export class GpuLodSelector {
  readonly device: GPUDevice;
  readonly capacity: number;
  /** Elements per level list (capacity rounded up to 64, so list offsets are 256-byte aligned). */
  readonly stride: number;
  readonly levelCount: number;
  readonly profileCount: number;
  /** Per-(profile, level) lists (see {@link GpuLodSelectorOptions.profileMeshes}). */
  readonly perProfile: boolean;
  /** Argument records in {@link indirect}: `levelCount`, or the profiles' levels summed when per profile. */
  readonly listCount: number;
  private readonly validated: LodProfile[];
  private readonly listBase: Uint32Array;
  private readonly listInstanceBase: Uint32Array;
  private readonly listStride: Uint32Array;
  /** Cost units per unit of profile cost on the GPU (a power of two, see `costScaleOf`). */
  readonly costScale: number;
  /** Packed profile records (layout.ts), as uploaded. */
  readonly profileBytes: ArrayBuffer;
  readonly spheres: GPUBuffer;
  readonly profileIds: GPUBuffer;
  /** Object records (`OBJECT_WORDS` u32 per object: state, size, work, weight; layout.ts). */
  readonly state: GPUBuffer;
  /** Blend fraction per object (f32). */
  readonly blend: GPUBuffer;
  /** Stats header, budget histogram and changed-id list (layout.ts). */
  readonly scratch: GPUBuffer;
  readonly indirect: GPUBuffer;
  readonly instances: GPUBuffer;
  /** Bytes of one level's instance list. */
  readonly instanceBytes: number;
  /** The frame block written by the last {@link update} (layout.ts), e.g. for the float32 reference. */
  readonly frameBytes = new ArrayBuffer(FRAME_BYTES);
  private readonly uniform: GPUBuffer;
  private readonly phases: GPUBuffer[];
  private readonly profiles: GPUBuffer;
  private readonly template: GPUBuffer;
  private readonly pipeline: GPUComputePipeline;
  private readonly cutPipeline: GPUComputePipeline;
  private readonly bindGroups: GPUBindGroup[];
  private readonly cutBindGroups: GPUBindGroup[];
  private readonly refitPipeline: GPUComputePipeline;
  private readonly refitBindGroup: GPUBindGroup;
  /** Cluster culling on (see {@link GpuLodSelectorOptions.clusters}). */
  readonly clusters: boolean;
  private boundsDirty = true;
  private readonly viewList: LodView<LodViewFrustum>[] = [];
  private readonly extras = {
    frame: 0, minFrames: 0, minLevel: 0, maxLevel: 255, budgetUnits: null as number | null, tolerance: 1, clusters: false, capacity: 0,
    perProfile: false, cull: true, stabilityBand: 0.4,
  };
  private count = 0;
  private frame = 0;

  constructor(device: GPUDevice, options: GpuLodSelectorOptions) {
    if (device == null || typeof device.createBuffer !== 'function') throw new TypeError(`${OWNER}: device must be a GPUDevice`);
    const cap = options?.capacity;
    if (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 1) throw new RangeError(`${OWNER}: capacity must be a positive integer, got ${String(cap)}`);
    if (!Array.isArray(options.profiles) || options.profiles.length === 0) throw new RangeError(`${OWNER}: profiles must be a non-empty array`);
    if (!Array.isArray(options.levels) || options.levels.length < 1 || options.levels.length > MAX_GPU_LEVELS) {
      throw new RangeError(`${OWNER}: levels must have 1 to ${MAX_GPU_LEVELS} meshes`);
    }
    const profiles = options.profiles.map((p) => validateLodProfile(p));
    profiles.forEach((p, i) => {
      if (p.levelCount > options.levels.length) throw new RangeError(`${OWNER}: profiles[${i}] has ${p.levelCount} levels but levels has ${options.levels.length} meshes`);
      if (p.bands !== null) throw new RangeError(`${OWNER}: profiles[${i}].hysteresis is not supported on the GPU (one band per frame: the update's \`hysteresis\`)`);
    });
    this.device = device;
    this.capacity = cap;
    this.stride = Math.ceil(cap / 64) * 64;
    this.levelCount = options.levels.length;
    this.profileCount = profiles.length;
    this.costScale = costScaleOf(profiles);
    this.profileBytes = packProfiles(profiles, OWNER, this.costScale);
    this.validated = profiles;
    let args = new Uint32Array(this.levelCount * 5);
    writeMeshArgs(options.levels, 'levels', OWNER, args, 0);
    this.perProfile = options.profileMeshes != null;
    this.listBase = new Uint32Array(profiles.length);
    this.listInstanceBase = new Uint32Array(profiles.length);
    this.listStride = new Uint32Array(profiles.length);
    let instanceElements = this.levelCount * this.stride;
    if (this.perProfile) {
      const lists = profileListArgs(profiles, options.profileMeshes!, OWNER);
      args = lists.args; this.listBase = lists.listBase;
      layoutProfileLists(profiles, this.listBase, new Uint32Array(profiles.length), this.profileBytes, this.listInstanceBase, this.listStride);
      instanceElements = MAX_GPU_LEVELS * (this.stride + 64 * profiles.length);
    }
    this.listCount = args.length / 5;
    this.extras.perProfile = this.perProfile;
    this.instanceBytes = this.stride * 4;
    const buffer = (size: number, usage: number, label: string) => device.createBuffer({ size, usage, label: `${OWNER}.${label}` });
    this.clusters = options.clusters ?? true;
    this.extras.clusters = this.clusters; this.extras.capacity = cap;
    // Object spheres, then one bounding sphere per cluster; profile ids, then the slot order (layout.ts).
    this.spheres = buffer((cap + Math.ceil(cap / CLUSTER_SIZE)) * 16, STORAGE | COPY_DST, 'spheres');
    this.profileIds = buffer(cap * 8, STORAGE | COPY_DST, 'profileIds');
    this.state = buffer(cap * OBJECT_WORDS * 4, STORAGE | COPY_DST | COPY_SRC, 'state');
    this.blend = buffer(cap * 4, STORAGE | COPY_DST | COPY_SRC, 'blend');
    this.scratch = buffer((SCRATCH_CHANGED + cap) * 4, STORAGE | COPY_DST | COPY_SRC, 'scratch');
    this.indirect = buffer(args.byteLength, STORAGE | INDIRECT | COPY_DST | COPY_SRC, 'indirect');
    this.template = buffer(args.byteLength, COPY_SRC | COPY_DST, 'indirectTemplate');
    this.instances = buffer(instanceElements * 4, STORAGE | COPY_SRC, 'instances');
    this.uniform = buffer(FRAME_BYTES, UNIFORM | COPY_DST, 'frame');
    this.profiles = buffer(this.profileBytes.byteLength, STORAGE | COPY_DST, 'profiles');
    // Phase uniforms of the one selection entry point: 0 select, 1 compact, 2 fused, 3 refine
    // (wgsl.ts); the cut pass uses 0 (bucket cut) and 1 (sub-bucket cut).
    this.phases = [0, 1, 2, 3].map((ph) => {
      const b = buffer(16, UNIFORM | COPY_DST, `phase${ph}`);
      device.queue.writeBuffer(b, 0, new Uint32Array([ph, 0, 0, 0]));
      return b;
    });
    device.queue.writeBuffer(this.template, 0, args);
    device.queue.writeBuffer(this.indirect, 0, args);
    device.queue.writeBuffer(this.profiles, 0, this.profileBytes);
    device.queue.writeBuffer(this.state, 0, freshRecords(cap));
    const module = device.createShaderModule({ code: SELECT_WGSL, label: `${OWNER}.select` });
    this.pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' }, label: `${OWNER}.select` });
    const layout = this.pipeline.getBindGroupLayout(0);
    const shared = [this.uniform, this.spheres, this.profileIds, this.profiles, this.state, this.blend, this.scratch, this.indirect, this.instances];
    this.bindGroups = this.phases.map((ph) => device.createBindGroup({
      layout, entries: [...shared, ph].map((b, binding) => ({ binding, resource: { buffer: b } })),
    }));
    const cutModule = device.createShaderModule({ code: BUDGET_CUT_WGSL, label: `${OWNER}.cut` });
    this.cutPipeline = device.createComputePipeline({ layout: 'auto', compute: { module: cutModule, entryPoint: 'main' }, label: `${OWNER}.cut` });
    const refitModule = device.createShaderModule({ code: CLUSTER_REFIT_WGSL, label: `${OWNER}.refit` });
    this.refitPipeline = device.createComputePipeline({ layout: 'auto', compute: { module: refitModule, entryPoint: 'main' }, label: `${OWNER}.refit` });
    this.refitBindGroup = device.createBindGroup({
      layout: this.refitPipeline.getBindGroupLayout(0),
      entries: [this.uniform, this.spheres, this.profileIds].map((b, binding) => ({ binding, resource: { buffer: b } })),
    });
    this.cutBindGroups = [0, 1].map((ph) => device.createBindGroup({
      layout: this.cutPipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.uniform } }, { binding: 1, resource: { buffer: this.scratch, size: SCRATCH_CHANGED * 4 } },
        { binding: 2, resource: { buffer: this.phases[ph] } },
      ],
    }));
  }

  /** Number of objects the next {@link update} selects for. */
  get objectCount(): number { return this.count; }

  /** Frames run so far (the counter `minFramesBetweenChanges` is measured in). */
  get frameCount(): number { return this.frame; }

  /**
   * Uploads `count` spheres (`x, y, z, r` f32 each) and their profile ids, and resets their
   * hysteresis state. Throws `RangeError` for a profile id out of range (checked once here, never per frame).
   */
  setObjects(spheres: Float32Array, profileIds: Uint32Array, count = profileIds.length): void {
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) throw new RangeError(`${OWNER}.setObjects: count must be an integer in [0, ${this.capacity}], got ${String(count)}`);
    if (spheres.length < count * 4) throw new RangeError(`${OWNER}.setObjects: spheres has ${spheres.length} floats, ${count * 4} needed`);
    if (profileIds.length < count) throw new RangeError(`${OWNER}.setObjects: profileIds has ${profileIds.length} ids, ${count} needed`);
    const perProfileCount = new Uint32Array(this.profileCount);
    for (let i = 0; i < count; i++) {
      if (profileIds[i] >= this.profileCount) throw new RangeError(`${OWNER}.setObjects: profileIds[${i}] = ${profileIds[i]} is not a profile (${this.profileCount} profiles)`);
      perProfileCount[profileIds[i]]++;
    }
    if (this.perProfile) {
      layoutProfileLists(this.validated, this.listBase, perProfileCount, this.profileBytes, this.listInstanceBase, this.listStride);
      this.device.queue.writeBuffer(this.profiles, 0, this.profileBytes);
    }
    const q = this.device.queue;
    q.writeBuffer(this.spheres, 0, spheres.buffer, spheres.byteOffset, count * 16);
    q.writeBuffer(this.profileIds, 0, profileIds.buffer, profileIds.byteOffset, count * 4);
    if (count > 0) {
      q.writeBuffer(this.state, 0, freshRecords(count));
      // Slot order: Morton order (LodSet's mortonOrder: radius bands, then 10-bit Morton codes).
      if (this.clusters) q.writeBuffer(this.profileIds, this.capacity * 4, mortonOrder(spheres, count));
    }
    this.count = count;
    this.boundsDirty = true;
  }

  /**
   * Moves objects `[first, first + count)`: uploads their spheres and keeps their state (levels,
   * hysteresis, frame counters), as `LodSet.setSphere` does.
   */
  writeSpheres(spheres: Float32Array, first = 0, count = Math.floor(spheres.length / 4)): void {
    if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || first + count > this.count) {
      throw new RangeError(`${OWNER}.writeSpheres: [first, first + count) = [${first}, ${first + count}) must lie in [0, ${this.count})`);
    }
    if (spheres.length < count * 4) throw new RangeError(`${OWNER}.writeSpheres: spheres has ${spheres.length} floats, ${count * 4} needed`);
    if (count > 0) this.device.queue.writeBuffer(this.spheres, first * 16, spheres.buffer, spheres.byteOffset, count * 16);
    this.boundsDirty = true; // the order stays; the bounds are refit on the GPU next update
  }

  /** Byte offset of level `l`'s arguments in {@link indirect} (global lists). */
  indirectOffset(level: number): number { return level * 20; }
  /** Byte offset of level `l`'s id list in {@link instances} (global lists). */
  instanceOffset(level: number): number { return level * this.instanceBytes; }
  /** Byte offset of the arguments of profile `p`'s level `l` (per-profile lists; else as {@link indirectOffset}). */
  indirectOffsetOf(profile: number, level: number): number {
    return this.perProfile ? (this.listBase[profile] + level) * 20 : level * 20;
  }
  /** Byte offset of the id list of profile `p`'s level `l` (per-profile lists: changes with `setObjects`). */
  instanceOffsetOf(profile: number, level: number): number {
    return this.perProfile ? (this.listInstanceBase[profile] + level * this.listStride[profile]) * 4 : this.instanceOffset(level);
  }
  /** Bytes of one id list of profile `p` (per-profile lists; else {@link instanceBytes}). */
  instanceBytesOf(profile: number): number {
    return this.perProfile ? this.listStride[profile] * 4 : this.instanceBytes;
  }

  /**
   * Writes the frame block and encodes the selection into `encoder` (or into its own submission when
   * none is given). `views`: one view or up to 4 (max of screen sizes, min of distances). Without a
   * budget one fused dispatch; with one select → cut → refine → cut → compact (wgsl.ts,
   * budgetWgsl.ts), never over the budget. Throws `RangeError`/`TypeError` naming the option for
   * invalid options; bad sphere data gets the coarsest allowed level and is counted.
   */
  update(views: LodView<LodViewFrustum> | readonly LodView<LodViewFrustum>[], options: GpuLodUpdateOptions = GPU_LOD_UPDATE_DEFAULTS, encoder?: GPUCommandEncoder): void {
    const list = this.viewList;
    list.length = 0;
    if (Array.isArray(views)) { for (const v of views as readonly LodView<LodViewFrustum>[]) list.push(v); } else list.push(views as LodView<LodViewFrustum>);
    if (list.length < 1 || list.length > MAX_GPU_VIEWS) throw new RangeError(`${OWNER}.update: 1 to ${MAX_GPU_VIEWS} views, got ${list.length}`);
    for (let v = 0; v < list.length; v++) if (list[v]?.frustum?.planes == null) throw new TypeError(`${OWNER}.update: views[${v}].frustum must be a Frustum (or a LodViewFrustum such as lodkit/three's CameraView)`);
    const bias = options.bias ?? 1, h = options.hysteresis ?? 0;
    if (!(bias > 0) || !Number.isFinite(bias)) throw new RangeError(`${OWNER}.update: bias must be a finite number > 0, got ${bias}`);
    if (!(h >= 0 && h < 1)) throw new RangeError(`${OWNER}.update: hysteresis must be in [0, 1), got ${h}`);
    const ex = this.extras;
    ex.minLevel = integerOption(options.minLevel, 0, 0, 255, 'minLevel');
    ex.maxLevel = integerOption(options.maxLevel, 255, 0, 255, 'maxLevel');
    ex.minFrames = integerOption(options.minFramesBetweenChanges, 0, 0, MAX_GPU_MIN_FRAMES, 'minFramesBetweenChanges');
    const tol = options.tolerance ?? 1;
    if (!(tol >= 0) || !Number.isFinite(tol)) throw new RangeError(`${OWNER}.update: tolerance must be a finite number ≥ 0, got ${tol}`);
    ex.tolerance = tol;
    const budget = options.budget ?? null;
    if (budget !== null && (typeof budget !== 'number' || !(budget >= 0) || !Number.isFinite(budget))) {
      throw new RangeError(`${OWNER}.update: budget must be a finite number ≥ 0 or null, got ${String(budget)}`);
    }
    // Rounded down in cost units (costs are rounded up), so fitting in units means fitting in cost.
    ex.budgetUnits = budget === null ? null : Math.min(Math.floor(budget * this.costScale), 2 ** 53);
    if (options.cull !== undefined && typeof options.cull !== 'boolean') throw new TypeError(`${OWNER}.update: cull must be a boolean, got ${String(options.cull)}`);
    ex.cull = options.cull ?? true;
    const band = options.stabilityBand ?? 0.4;
    if (!(band >= 0 && band < 1)) throw new RangeError(`${OWNER}.update: stabilityBand must be in [0, 1), got ${String(band)}`);
    ex.stabilityBand = band;
    ex.frame = ++this.frame;
    packFrame(this.frameBytes, list, this.count, this.stride, this.levelCount, bias, h, ex);
    this.device.queue.writeBuffer(this.uniform, 0, this.frameBytes);
    const own = encoder === undefined;
    const enc = encoder ?? this.device.createCommandEncoder({ label: `${OWNER}.update` });
    enc.copyBufferToBuffer(this.template, 0, this.indirect, 0, this.listCount * 20);
    enc.clearBuffer(this.scratch, 0, SCRATCH_CHANGED * 4);
    if (this.count > 0) {
      const pass = enc.beginComputePass({ label: `${OWNER}.select` });
      const groups = Math.ceil(this.count / 64), x = Math.min(groups, 65535), y = Math.ceil(groups / x);
      if (this.clusters && this.boundsDirty) {
        dispatch(pass, this.refitPipeline, this.refitBindGroup, x, y);
        this.boundsDirty = false;
      }
      if (budget === null && options.passes !== 'split') {
        dispatch(pass, this.pipeline, this.bindGroups[2], x, y);
      } else {
        // select → bucket cut → refine the partial bucket → sub-bucket cut → compact.
        dispatch(pass, this.pipeline, this.bindGroups[0], x, y);
        dispatch(pass, this.cutPipeline, this.cutBindGroups[0], 1, 1);
        dispatch(pass, this.pipeline, this.bindGroups[3], x, y);
        dispatch(pass, this.cutPipeline, this.cutBindGroups[1], 1, 1);
        dispatch(pass, this.pipeline, this.bindGroups[1], x, y);
      }
      pass.end();
    }
    if (own) this.device.queue.submit([enc.finish()]);
  }

  /** Reads levels, state, blend, stats, changed ids, indirect arguments and instance lists back (tests and tools; never needed per frame). */
  async readback(): Promise<GpuLodReadback> {
    const d = this.device, n = Math.max(this.count, 1);
    const sources = [this.state, this.indirect, this.instances, this.blend, this.scratch];
    const sizes = [n * OBJECT_WORDS * 4, this.listCount * 20, this.instances.size, n * 4, (SCRATCH_CHANGED + n) * 4];
    const staging = sizes.map((size) => d.createBuffer({ size, usage: MAP_READ | COPY_DST }));
    const enc = d.createCommandEncoder();
    sources.forEach((src, k) => enc.copyBufferToBuffer(src, 0, staging[k], 0, sizes[k]));
    d.queue.submit([enc.finish()]);
    await Promise.all(staging.map((b) => b.mapAsync(MAP_MODE_READ)));
    const [state, indirect, instances, blendWords, scratch] = staging.map((b) => new Uint32Array(b.getMappedRange().slice(0)));
    staging.forEach((b) => b.destroy());
    const levels = new Uint8Array(this.count);
    for (let i = 0; i < this.count; i++) levels[i] = state[i * OBJECT_WORDS] & 0xff;
    const u64 = (at: number) => (scratch[at] + scratch[at + 1] * 2 ** 32) / this.costScale;
    const mode = scratch[Scratch.mode];
    const stats: GpuLodStats = {
      totalCost: u64(Scratch.totalCost), preferredCost: u64(Scratch.preferredCost), minimumCost: u64(Scratch.minimumCost),
      budgetMode: mode, budgetMet: mode !== 2, cut: scratch[Scratch.cut],
      hidden: scratch[Scratch.hidden], invalid: scratch[Scratch.invalid], held: scratch[Scratch.held],
      clustersOutside: scratch[Scratch.clustersOutside], clustersInside: scratch[Scratch.clustersInside],
      levelCounts: this.levelHistogram(indirect),
      changed: scratch.slice(SCRATCH_CHANGED, SCRATCH_CHANGED + Math.min(scratch[Scratch.changed], this.count)),
    };
    return {
      levels, state: state.subarray(0, this.count * OBJECT_WORDS), indirect, instances,
      blend: new Float32Array(blendWords.buffer, 0, this.count), stats,
    };
  }

  private levelHistogram(indirect: Uint32Array): Uint32Array {
    const out = new Uint32Array(this.levelCount);
    if (!this.perProfile) { for (let l = 0; l < this.levelCount; l++) out[l] = indirect[l * 5 + 1]; return out; }
    for (let p = 0; p < this.profileCount; p++) {
      for (let l = 0; l < this.validated[p].levelCount; l++) out[l] += indirect[(this.listBase[p] + l) * 5 + 1];
    }
    return out;
  }

  /** Frees the GPU buffers. */
  destroy(): void {
    for (const b of [this.spheres, this.profileIds, this.state, this.blend, this.scratch, this.indirect, this.template, this.instances, this.uniform, this.profiles, ...this.phases]) b.destroy();
  }
}

/** Object records of fresh objects (hidden, no reference, no recent change). */
/** One step of a frame's compute pass: `pipeline` with `bindGroup` (group 0) over `x × y` workgroups. */
function dispatch(pass: GPUComputePassEncoder, pipeline: GPUComputePipeline, bindGroup: GPUBindGroup, x: number, y: number): void {
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(x, y);
}

function freshRecords(count: number): Uint32Array {
  const out = new Uint32Array(count * OBJECT_WORDS);
  for (let i = 0; i < count; i++) out[i * OBJECT_WORDS] = FRESH_STATE;
  return out;
}

function integerOption(v: number | undefined, fallback: number, min: number, max: number, field: string): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`${OWNER}.update: ${field} must be an integer in [${min}, ${max}], got ${String(v)}`);
  }
  return v;
}
