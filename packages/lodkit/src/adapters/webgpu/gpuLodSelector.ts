/// <reference types="@webgpu/types" preserve="true" />
/**
 * `GpuLodSelector`: `LodSet`'s thresholds decision as one WebGPU compute dispatch that feeds
 * `drawIndexedIndirect`. The spheres, profile ids and hysteresis state live in GPU buffers; a frame
 * writes one uniform block (views, bias, hysteresis), copies the indirect-argument template and
 * dispatches. Nothing per object crosses the bus; {@link GpuLodSelector.readback} is for tests and
 * tools only.
 *
 * Contributor notes:
 * - Draw level `l` with `drawIndexedIndirect(selector.indirect, selector.indirectOffset(l))` and bind
 *   `selector.instances` at `selector.instanceOffset(l)` (size `instanceBytes`) as the vertex shader's
 *   id list (`ids[instance_index]`). The list offset is a multiple of 256 bytes (storage binding
 *   alignment), so `firstInstance` stays 0 and the `indirect-first-instance` feature is not needed.
 * - Levels are global: list `l` holds every object at level `l` of its profile. A renderer with one
 *   mesh per (profile, level) needs per-profile lists — the next step (issue 13).
 * - Semantics and the float32 exactness rule: reference.ts. Layouts: layout.ts. Kernel: wgsl.ts.
 *
 * @module
 */
import type { LodView } from '../../batch/lodSet.js';
import { validateLodProfile, type LodProfileOptions } from '../../batch/profiles.js';
import { FRAME_BYTES, MAX_GPU_LEVELS, MAX_GPU_VIEWS, NO_REFERENCE, packFrame, packProfiles } from './layout.js';
import { SELECT_WGSL } from './wgsl.js';

/** Index range of one level's mesh in the bound index buffer. @category WebGPU */
export interface GpuLevelMesh {
  indexCount: number;
  /** Default 0. */
  firstIndex?: number;
  /** Default 0. */
  baseVertex?: number;
}

/** Options of {@link GpuLodSelector}. @category WebGPU */
export interface GpuLodSelectorOptions {
  /** Largest number of objects (buffers are sized once). */
  capacity: number;
  /** Profiles (metric + thresholds; blend thresholds are not supported on the GPU yet). Ids are their indices. */
  profiles: readonly LodProfileOptions[];
  /** One mesh range per level, at least as many as the finest profile has levels, at most 16. */
  levels: readonly GpuLevelMesh[];
}

/** Per-frame options of {@link GpuLodSelector.update}. @category WebGPU */
export interface GpuLodUpdateOptions {
  /** Multiplies screen sizes, divides distances. */
  bias?: number;
  /** Relative hysteresis band `h` in [0, 1), as `LodSet`'s. */
  hysteresis?: number;
}

/** Defaults of {@link GpuLodUpdateOptions}. @category WebGPU */
export const GPU_LOD_UPDATE_DEFAULTS: Required<GpuLodUpdateOptions> = { bias: 1, hysteresis: 0 };

/** What {@link GpuLodSelector.readback} returns. @category WebGPU */
export interface GpuLodReadback {
  /** Level per object (`HIDDEN_LEVEL` 255 when culled). */
  levels: Uint8Array;
  /** Raw state words (level | `NO_REFERENCE`), for feeding the float32 reference. */
  state: Uint32Array;
  /** The indirect arguments, 5 words per level: indexCount, instanceCount, firstIndex, baseVertex, firstInstance. */
  indirect: Uint32Array;
  /** Instance lists (`levelCount × stride` ids); list `l` is `[l·stride, l·stride + indirect[5l+1])`. */
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
 * sel.update({ frustum, viewportHeight: 1080 }, { hysteresis: 0.1 }, encoder);
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
  /** Packed profile records (layout.ts), as uploaded. */
  readonly profileBytes: ArrayBuffer;
  readonly spheres: GPUBuffer;
  readonly profileIds: GPUBuffer;
  readonly state: GPUBuffer;
  readonly indirect: GPUBuffer;
  readonly instances: GPUBuffer;
  /** Bytes of one level's instance list. */
  readonly instanceBytes: number;
  /** The frame block written by the last {@link update} (layout.ts), e.g. for the float32 reference. */
  readonly frameBytes = new ArrayBuffer(FRAME_BYTES);
  private readonly uniform: GPUBuffer;
  private readonly profiles: GPUBuffer;
  private readonly template: GPUBuffer;
  private readonly pipeline: GPUComputePipeline;
  private readonly bindGroup: GPUBindGroup;
  private readonly viewList: LodView[] = [];
  private count = 0;

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
    });
    this.device = device;
    this.capacity = cap;
    this.stride = Math.ceil(cap / 64) * 64;
    this.levelCount = options.levels.length;
    this.profileCount = profiles.length;
    this.profileBytes = packProfiles(profiles, OWNER);
    const args = new Uint32Array(this.levelCount * 5);
    options.levels.forEach((m, l) => {
      for (const [k, v] of [['indexCount', m.indexCount], ['firstIndex', m.firstIndex ?? 0], ['baseVertex', m.baseVertex ?? 0]] as const) {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new RangeError(`${OWNER}: levels[${l}].${k} must be an integer ≥ 0, got ${String(v)}`);
      }
      args[l * 5] = m.indexCount; args[l * 5 + 2] = m.firstIndex ?? 0; args[l * 5 + 3] = m.baseVertex ?? 0;
    });
    this.instanceBytes = this.stride * 4;
    const buffer = (size: number, usage: number, label: string) => device.createBuffer({ size, usage, label: `${OWNER}.${label}` });
    this.spheres = buffer(cap * 16, STORAGE | COPY_DST, 'spheres');
    this.profileIds = buffer(cap * 4, STORAGE | COPY_DST, 'profileIds');
    this.state = buffer(cap * 4, STORAGE | COPY_DST | COPY_SRC, 'state');
    this.indirect = buffer(args.byteLength, STORAGE | INDIRECT | COPY_DST | COPY_SRC, 'indirect');
    this.template = buffer(args.byteLength, COPY_SRC | COPY_DST, 'indirectTemplate');
    this.instances = buffer(this.levelCount * this.instanceBytes, STORAGE | COPY_SRC, 'instances');
    this.uniform = buffer(FRAME_BYTES, UNIFORM | COPY_DST, 'frame');
    this.profiles = buffer(this.profileBytes.byteLength, STORAGE | COPY_DST, 'profiles');
    device.queue.writeBuffer(this.template, 0, args);
    device.queue.writeBuffer(this.indirect, 0, args);
    device.queue.writeBuffer(this.profiles, 0, this.profileBytes);
    device.queue.writeBuffer(this.state, 0, new Uint32Array(cap).fill(255 | NO_REFERENCE));
    const module = device.createShaderModule({ code: SELECT_WGSL, label: `${OWNER}.select` });
    this.pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' }, label: `${OWNER}.select` });
    this.bindGroup = device.createBindGroup({
      layout: this.pipeline.getBindGroupLayout(0),
      entries: [this.uniform, this.spheres, this.profileIds, this.profiles, this.state, this.indirect, this.instances]
        .map((b, binding) => ({ binding, resource: { buffer: b } })),
    });
  }

  /** Number of objects the next {@link update} selects for. */
  get objectCount(): number { return this.count; }

  /**
   * Uploads `count` spheres (`x, y, z, r` f32 each) and their profile ids, and resets their
   * hysteresis state. Throws `RangeError` for a profile id out of range (checked once here, never per frame).
   */
  setObjects(spheres: Float32Array, profileIds: Uint32Array, count = profileIds.length): void {
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) throw new RangeError(`${OWNER}.setObjects: count must be an integer in [0, ${this.capacity}], got ${String(count)}`);
    if (spheres.length < count * 4) throw new RangeError(`${OWNER}.setObjects: spheres has ${spheres.length} floats, ${count * 4} needed`);
    if (profileIds.length < count) throw new RangeError(`${OWNER}.setObjects: profileIds has ${profileIds.length} ids, ${count} needed`);
    for (let i = 0; i < count; i++) {
      if (profileIds[i] >= this.profileCount) throw new RangeError(`${OWNER}.setObjects: profileIds[${i}] = ${profileIds[i]} is not a profile (${this.profileCount} profiles)`);
    }
    const q = this.device.queue;
    q.writeBuffer(this.spheres, 0, spheres.buffer, spheres.byteOffset, count * 16);
    q.writeBuffer(this.profileIds, 0, profileIds.buffer, profileIds.byteOffset, count * 4);
    q.writeBuffer(this.state, 0, new Uint32Array(Math.max(count, 1)).fill(255 | NO_REFERENCE), 0, count);
    this.count = count;
  }

  /** Byte offset of level `l`'s arguments in {@link indirect}. */
  indirectOffset(level: number): number { return level * 20; }
  /** Byte offset of level `l`'s id list in {@link instances}. */
  instanceOffset(level: number): number { return level * this.instanceBytes; }

  /**
   * Writes the frame block and encodes the selection into `encoder` (or into its own submission when
   * none is given). `views`: one view or up to 4 (max of screen sizes, min of distances).
   */
  update(views: LodView | readonly LodView[], options: GpuLodUpdateOptions = GPU_LOD_UPDATE_DEFAULTS, encoder?: GPUCommandEncoder): void {
    const list = this.viewList;
    list.length = 0;
    if (Array.isArray(views)) { for (const v of views as readonly LodView[]) list.push(v); } else list.push(views as LodView);
    if (list.length < 1 || list.length > MAX_GPU_VIEWS) throw new RangeError(`${OWNER}.update: 1 to ${MAX_GPU_VIEWS} views, got ${list.length}`);
    for (let v = 0; v < list.length; v++) if (list[v]?.frustum?.planes == null) throw new TypeError(`${OWNER}.update: views[${v}].frustum must be a Frustum`);
    const bias = options.bias ?? 1, h = options.hysteresis ?? 0;
    if (!(bias > 0) || !Number.isFinite(bias)) throw new RangeError(`${OWNER}.update: bias must be a finite number > 0, got ${bias}`);
    if (!(h >= 0 && h < 1)) throw new RangeError(`${OWNER}.update: hysteresis must be in [0, 1), got ${h}`);
    packFrame(this.frameBytes, list, this.count, this.stride, this.levelCount, bias, h);
    this.device.queue.writeBuffer(this.uniform, 0, this.frameBytes);
    const own = encoder === undefined;
    const enc = encoder ?? this.device.createCommandEncoder({ label: `${OWNER}.update` });
    enc.copyBufferToBuffer(this.template, 0, this.indirect, 0, this.levelCount * 20);
    if (this.count > 0) {
      const pass = enc.beginComputePass({ label: `${OWNER}.select` });
      pass.setPipeline(this.pipeline);
      pass.setBindGroup(0, this.bindGroup);
      const groups = Math.ceil(this.count / 64), x = Math.min(groups, 65535);
      pass.dispatchWorkgroups(x, Math.ceil(groups / x));
      pass.end();
    }
    if (own) this.device.queue.submit([enc.finish()]);
  }

  /** Reads levels, state, indirect arguments and instance lists back (tests and tools; never needed per frame). */
  async readback(): Promise<GpuLodReadback> {
    const d = this.device, n = Math.max(this.count, 1);
    const sizes = [n * 4, this.levelCount * 20, this.levelCount * this.instanceBytes];
    const staging = sizes.map((size) => d.createBuffer({ size, usage: MAP_READ | COPY_DST }));
    const enc = d.createCommandEncoder();
    enc.copyBufferToBuffer(this.state, 0, staging[0], 0, sizes[0]);
    enc.copyBufferToBuffer(this.indirect, 0, staging[1], 0, sizes[1]);
    enc.copyBufferToBuffer(this.instances, 0, staging[2], 0, sizes[2]);
    d.queue.submit([enc.finish()]);
    await Promise.all(staging.map((b) => b.mapAsync(MAP_MODE_READ)));
    const [state, indirect, instances] = staging.map((b) => new Uint32Array(b.getMappedRange().slice(0)));
    staging.forEach((b) => b.destroy());
    const levels = new Uint8Array(this.count);
    for (let i = 0; i < this.count; i++) levels[i] = state[i] & 0xff;
    return { levels, state: state.subarray(0, this.count), indirect, instances };
  }

  /** Frees the GPU buffers. */
  destroy(): void {
    for (const b of [this.spheres, this.profileIds, this.state, this.indirect, this.template, this.instances, this.uniform, this.profiles]) b.destroy();
  }
}
