/**
 * `GpuInstancedLOD`: millions of instances of one model with per-instance levels chosen on the GPU
 * by `GpuLodSelector` (lodkit/webgpu) and drawn by three.js's `WebGPURenderer` straight from the
 * selector's indirect arguments and id lists. A frame writes one uniform block (the views) and
 * nothing per instance. Without a WebGPU backend (WebGPURenderer's WebGL 2 fallback, or a
 * `WebGLRenderer`) the same object runs the CPU engine: an `InstancedLOD` child.
 *
 * Contributor notes:
 * - GPU path, per level `l`: one `Mesh` whose geometry (a shallow copy of the level geometry:
 *   same attributes and index) has `setIndirect(indirect, l × 20)`, so three issues
 *   `drawIndexedIndirect` with the selector's arguments (`instanceCount` written by the compute
 *   pass). Its material's `positionNode` reads `id = ids[l·stride + instanceIndex]` and the
 *   sphere `s = spheres[id]`, and places the local vertex `p` at `s.xyz + (p − c)·(s.w / r)`
 *   (`c, r` the local bounding sphere of one instance): translation and uniform scale — the
 *   sphere is the whole instance transform unless rotations are on, so only spheres are stored.
 * - The three attributes behind `ids`, `spheres` and the indirect arguments are 1-element stand-ins
 *   whose GPU buffers are the selector's (gpuBuffers.ts): nothing is copied or uploaded per frame.
 * - Optional rotations (`rotations: true`): a quaternion per instance in a storage buffer three owns
 *   (uploaded by `setSpheres` only), applied to positions and normals about the local sphere centre.
 *   Optional colours (`colors: true`): RGBA8 per instance, multiplying the material's colour node.
 * - Spheres are world space (the selector culls them against the camera as given): keep this
 *   object at the origin, unrotated, unscaled.
 * - CPU path: an `InstancedLOD` with matrices built from the spheres (the same transform:
 *   gpuInstancedNodes.ts), updated with the thresholds policy and the same bias and hysteresis;
 *   levels equal the GPU's up to the float32 rule of docs/webgpu.md.
 *
 * @module
 */
import { BufferAttribute, BufferGeometry, Color, Mesh, Object3D, Sphere, Vector2, type Camera, type Material } from 'three';
import { IndirectStorageBufferAttribute, StorageBufferAttribute } from 'three/webgpu';
import { instanceIndex, storage, uint } from 'three/tsl';
import { LOD_UPDATE_DEFAULTS, type LodView } from '../../batch/lodSet.js';
import type { SphereMetric } from '../../heuristics/lodThresholds.js';
import { GpuLodSelector } from '../webgpu/gpuLodSelector.js';
import { CameraViewCache, type CameraView } from './cameraView.js';
import { IndirectCountReader, isSharedGpuBuffer, shareGpuBuffer, type GpuBackendLike } from './gpuBuffers.js';
import { identityQuaternions, instanceMatrices, packColors, placementNode, tintNode } from './gpuInstancedNodes.js';
import { InstancedLOD } from './instancedLOD.js';
import { unionSphere, type InstancedLODLevel } from './instancedLODOptions.js';
import type { ViewportSource } from './screenSizeLOD.js';

// TSL's generic node typings do not follow storage elements through swizzles; the graph is checked
// by the Chromium WebGPU test (test/e2e/gpuInstanced.test.ts) instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type N = any;

/** What `GpuInstancedLOD` needs of a renderer: `WebGPURenderer` (after `init()`) or `WebGLRenderer`. @category three.js */
export interface GpuInstancedRenderer extends ViewportSource {
  /** three's backend; a WebGPU one (with its device) selects the GPU path. */
  readonly backend?: unknown;
  /** `WebGPURenderer`'s node library, used to turn classic materials into node materials. */
  readonly library?: {
    /** The node material equivalent to `material`, or `null` if there is none. */
    fromMaterial(material: Material): Material | null;
  };
  /** `WebGPURenderer`: whether `init()` has finished (the backend, WebGPU or WebGL 2, is chosen there). */
  hasInitialized?(): boolean;
  /** `WebGPURenderer.init()`. */
  init?(): Promise<unknown>;
}

/** Options of {@link GpuInstancedLOD}. @category three.js */
export interface GpuInstancedLODOptions {
  /** Levels, finest first (one material each; indexed or not). */
  levels: InstancedLODLevel[];
  /** Metric of `thresholds`. Default `'pixels'` (as `InstancedLOD`; `ScreenSizeLOD`'s is `'distance'`: docs/defaults.md). */
  metric?: SphereMetric;
  /** lodkit thresholds (levels − 1 values): descending sizes, or ascending distances. */
  thresholds: ArrayLike<number>;
  /** Largest number of instances (GPU buffers are sized once). */
  capacity: number;
  /** Local bounding sphere of one instance; default: the union of the level geometries' spheres. */
  sphere?: Sphere;
  /** Viewport height in pixels for `'pixels'`; default: the renderer's drawing-buffer height. */
  viewportHeight?: number | null;
  /** Run the CPU engine even on a WebGPU backend (comparisons, debugging). Default false. */
  forceCpu?: boolean;
  /**
   * Per-instance rotations (a unit quaternion `x, y, z, w` each, about the local sphere's centre,
   * given to `setSpheres`): 16 B per instance more on the GPU (uploaded by `setSpheres` only) and a
   * CPU copy of the same size. Default false: translation and scale only.
   */
  rotations?: boolean;
  /**
   * Per-instance colours (linear RGB, given to `setSpheres`), multiplying each level material's
   * colour: 4 B per instance on the GPU (8 bits per channel) and a CPU copy of the same size.
   * Default false.
   */
  colors?: boolean;
}

/** Optional per-instance data of {@link GpuInstancedLOD.setSpheres}. @category three.js */
export interface GpuInstanceAttributes {
  /** Unit quaternions `x, y, z, w` per instance (needs the `rotations` option); identity where omitted. */
  rotations?: Float32Array;
  /** Linear RGB in [0, 1] per instance (needs the `colors` option); white where omitted. */
  colors?: Float32Array;
}

/** Defaults of {@link GpuInstancedLODOptions}. @category three.js */
export const GPU_INSTANCED_LOD_DEFAULTS = { metric: 'pixels' as SphereMetric, viewportHeight: null as number | null, forceCpu: false, rotations: false, colors: false };

/** Per-frame options of {@link GpuInstancedLOD.update}. @category three.js */
export interface GpuInstancedUpdateOptions {
  /** Multiplies screen sizes, divides distances. Default 1 (`LOD_UPDATE_DEFAULTS.bias`, as every adapter). */
  bias?: number;
  /** Relative hysteresis band in [0, 1). Default 0 (`LOD_UPDATE_DEFAULTS.hysteresis`, as every adapter). */
  hysteresis?: number;
}

/** The two device limits that bound a `GpuInstancedLOD`'s capacity (`GPUSupportedLimits` has both). @category three.js */
export interface GpuInstancedLimits {
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
}

/**
 * Bytes of the largest buffer a `GpuInstancedLOD` of `capacity` instances and `levelCount` levels
 * binds whole: the spheres (16 B each) or the per-level id lists (`levelCount × ⌈capacity/64⌉·64 × 4` B).
 * @category three.js
 */
export function gpuInstancedBindingBytes(capacity: number, levelCount: number): number {
  return Math.max(capacity * 16, levelCount * Math.ceil(capacity / 64) * 64 * 4);
}

/**
 * The most instances a device with `limits` can hold at `levelCount` levels. The defaults
 * (128 MiB bindings) allow 8,388,608 at 4 levels; request the adapter's own limits for more, e.g.
 * `new WebGPURenderer({ requiredLimits: { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, maxBufferSize: adapter.limits.maxBufferSize } })`.
 * @example
 * ```ts
 * const n = Math.min(10_000_000, gpuInstancedCapacity(adapter.limits, 4));
 * ```
 * @category three.js
 */
export function gpuInstancedCapacity(limits: GpuInstancedLimits, levelCount: number): number {
  const bytes = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  let n = Math.floor(bytes / Math.max(16, levelCount * 4) / 64) * 64;
  while (n > 0 && gpuInstancedBindingBytes(n, levelCount) > bytes) n -= 64;
  return n;
}

const NO_OPTIONS: GpuInstancedUpdateOptions = {};
// Reused per-frame options of the CPU path (no allocation per frame).
const cpuOptions = { policy: 'thresholds' as const, bias: LOD_UPDATE_DEFAULTS.bias as number, hysteresis: LOD_UPDATE_DEFAULTS.hysteresis as number };
const scratchSize = new Vector2();

/**
 * GPU-driven per-instance LOD for `WebGPURenderer`, with a CPU fallback behind the same API.
 * @example
 * ```ts
 * import { WebGPURenderer } from 'three/webgpu';
 * import { GpuInstancedLOD } from 'lodkit/three/webgpu';
 * const renderer = new WebGPURenderer();
 * await renderer.init();
 * const rocks = new GpuInstancedLOD(renderer, {
 *   levels: [{ geometry: high, material }, { geometry: mid, material }, { geometry: low, material }],
 *   metric: 'pixels', thresholds: [80, 20], capacity: spheres.length / 4,
 * });
 * rocks.setSpheres(spheres);                        // x, y, z, r per instance (world space)
 * scene.add(rocks);
 * renderer.setAnimationLoop(() => { rocks.update(camera, { hysteresis: 0.1 }); renderer.render(scene, camera); });
 * ```
 * @category three.js
 */
export class GpuInstancedLOD extends Object3D {
  readonly isGpuInstancedLOD = true;
  /** `'gpu'`: selection and draws on the GPU; `'cpu'`: the `InstancedLOD` fallback. */
  readonly mode: 'gpu' | 'cpu';
  readonly levelCount: number;
  readonly capacity: number;
  /** GPU path: the selector (its buffers are the ones drawn). `null` on the CPU path. */
  readonly selector: GpuLodSelector | null = null;
  /** CPU path: the engine (a child). `null` on the GPU path. */
  readonly cpu: InstancedLOD | null = null;
  /**
   * One mesh per level, finest first. GPU path: plain meshes drawing indirectly (their materials are
   * the given node materials, or node copies of classic ones, with `positionNode` set); CPU path: the
   * `InstancedLOD`'s `InstancedMesh`es.
   */
  readonly levelMeshes: Mesh[];
  /**
   * GPU path: per level, the TSL node of the instance id being drawn (`ids[l·stride + instanceIndex]`),
   * for colour nodes that vary per instance; empty on the CPU path.
   */
  readonly instanceIdNodes: N[] = [];
  viewportHeight: number | null;
  /** Frames skipped for an unusable camera or a 0-px viewport (levels kept). */
  skippedFrames = 0;
  /** Whether instances carry rotations ({@link GpuInstancedLODOptions.rotations}). */
  readonly rotations: boolean;
  /** Whether instances carry colours ({@link GpuInstancedLODOptions.colors}). */
  readonly colors: boolean;
  /** Rotations replaced by the identity at the last `setSpheres` (non-finite or zero-length quaternions). */
  invalidRotations = 0;

  private readonly renderer: GpuInstancedRenderer;
  private readonly levels: InstancedLODLevel[];
  private readonly metric: SphereMetric;
  private readonly thresholds: number[];
  private readonly localSphere: Sphere;
  private readonly backend: GpuBackendLike | null = null;
  private readonly shared: [BufferAttribute, GPUBuffer][] = [];
  private readonly reader: IndirectCountReader | null = null;
  private readonly cache = new CameraViewCache();
  private readonly views: LodView<CameraView>[] = [];
  private readonly cpuCounts: Uint32Array;
  /** GPU path with rotations: the quaternions' storage attribute (three uploads it when `setSpheres` bumps its version). */
  private readonly rotationAttr: StorageBufferAttribute | null = null;
  /** GPU path with colours: RGBA8 per instance packed in a u32 (three uploads it when `setSpheres` bumps its version). */
  private readonly colorAttr: StorageBufferAttribute | null = null;
  private live = 0;

  constructor(renderer: GpuInstancedRenderer, options: GpuInstancedLODOptions) {
    super();
    const o = { ...GPU_INSTANCED_LOD_DEFAULTS, ...options };
    if (renderer == null || typeof renderer.getDrawingBufferSize !== 'function') throw new TypeError('GpuInstancedLOD: renderer must be a three.js renderer');
    // Before init() a WebGPURenderer has no device yet and may still fall back to WebGL 2: choosing
    // a path now would silently pick the CPU one.
    if (typeof renderer.hasInitialized === 'function' && !renderer.hasInitialized()) {
      throw new Error('GpuInstancedLOD: await renderer.init() first (or use await GpuInstancedLOD.create(renderer, options))');
    }
    if (!Array.isArray(o.levels) || o.levels.length < 1 || o.levels.length > 16) throw new TypeError('GpuInstancedLOD: levels must be an array of 1 … 16 {geometry, material}');
    o.levels.forEach((l, i) => {
      if (l == null || (l.geometry as { isBufferGeometry?: boolean })?.isBufferGeometry !== true) throw new TypeError(`GpuInstancedLOD: levels[${i}].geometry must be a BufferGeometry`);
      if (l.material == null || Array.isArray(l.material)) throw new TypeError(`GpuInstancedLOD: levels[${i}].material must be one material`);
    });
    const L = o.levels.length;
    if (o.thresholds == null || o.thresholds.length !== L - 1) throw new RangeError(`GpuInstancedLOD: thresholds must have levels − 1 = ${L - 1} values, got ${o.thresholds?.length}`);
    if (!Number.isInteger(o.capacity) || o.capacity < 1) throw new RangeError(`GpuInstancedLOD: capacity must be an integer ≥ 1, got ${String(o.capacity)}`);
    this.renderer = renderer;
    this.levels = o.levels;
    this.levelCount = L;
    this.capacity = o.capacity;
    this.metric = o.metric;
    this.thresholds = Array.from(o.thresholds);
    this.viewportHeight = o.viewportHeight;
    this.localSphere = o.sphere?.clone() ?? unionSphere(o.levels.map((l) => l.geometry));
    if (!(this.localSphere.radius > 0)) throw new RangeError('GpuInstancedLOD: the local bounding sphere of one instance must have a radius > 0');
    this.cpuCounts = new Uint32Array(L);
    this.rotations = o.rotations === true;
    this.colors = o.colors === true;
    const backend = renderer.backend as GpuBackendLike | undefined;
    const gpu = !o.forceCpu && backend?.isWebGPUBackend === true && backend.device != null;
    this.mode = gpu ? 'gpu' : 'cpu';
    (this as { type: string }).type = 'GpuInstancedLOD';
    if (!gpu) {
      this.levelMeshes = [];
      this.rebuildCpu(new Float32Array(0), 0, null, null);
      return;
    }
    this.backend = backend!;
    const device = backend!.device!;
    const need = gpuInstancedBindingBytes(o.capacity, L), lim = device.limits;
    if (need > lim.maxStorageBufferBindingSize || need > lim.maxBufferSize) {
      throw new RangeError(`GpuInstancedLOD: capacity ${o.capacity} at ${L} levels needs ${need}-byte storage buffers; this device allows ${Math.min(lim.maxStorageBufferBindingSize, lim.maxBufferSize)} ` +
        `(at most ${gpuInstancedCapacity(lim, L)} instances): create the renderer with requiredLimits from adapter.limits (maxStorageBufferBindingSize, maxBufferSize)`);
    }
    const geometries = o.levels.map((l) => indexedCopy(l.geometry));
    // Validates metric and thresholds with errors naming the field (LodSet's profile rules).
    const sel = new GpuLodSelector(device, {
      capacity: o.capacity, profiles: [{ metric: o.metric, thresholds: this.thresholds }],
      levels: geometries.map((g) => ({ indexCount: g.index!.count })),
    });
    this.selector = sel;
    this.reader = new IndirectCountReader(device, L);
    const indirect = new IndirectStorageBufferAttribute(new Uint32Array(5), 5);
    const idsAttr = new StorageBufferAttribute(new Uint32Array(1), 1);
    const spheresAttr = new StorageBufferAttribute(new Float32Array(4), 4);
    for (const [a, b] of [[indirect, sel.indirect], [idsAttr, sel.instances], [spheresAttr, sel.spheres]] as const) {
      shareGpuBuffer(backend!, a, b);
      this.shared.push([a, b]);
    }
    const ids: N = storage(idsAttr, 'uint', 1).toReadOnly();
    const spheres: N = storage(spheresAttr, 'vec4', 1).toReadOnly();
    let rotations: N = null;
    if (this.rotations) {
      this.rotationAttr = new StorageBufferAttribute(identityQuaternions(o.capacity), 4);
      rotations = storage(this.rotationAttr, 'vec4', o.capacity).toReadOnly();
    }
    let colors: N = null;
    if (this.colors) {
      this.colorAttr = new StorageBufferAttribute(new Uint32Array(o.capacity).fill(0xffffffff), 1);
      colors = storage(this.colorAttr, 'uint', o.capacity).toReadOnly();
    }
    const c = this.localSphere.center, invR = 1 / this.localSphere.radius;
    const seen = new Set<Material>();
    this.levelMeshes = geometries.map((geometry, l) => {
      geometry.setIndirect(indirect, sel.indirectOffset(l));
      const material = nodeMaterial(renderer, o.levels[l].material as Material, seen, l);
      const id: N = ids.element(instanceIndex.add(uint(l * sel.stride)));
      (material as { positionNode?: N }).positionNode = placementNode(spheres, rotations, id, c, invR);
      if (colors !== null) {
        const m = material as { colorNode?: N };
        m.colorNode = tintNode(m.colorNode ?? null, colors, id);
      }
      this.instanceIdNodes.push(id);
      const mesh = new Mesh(geometry, material);
      mesh.frustumCulled = false; // the selector culls per instance
      mesh.name = `GpuInstancedLOD level ${l}`;
      this.add(mesh);
      return mesh;
    });
  }

  /** Awaits `renderer.init()` (a `WebGPURenderer`'s backend is chosen there), then constructs. */
  static async create(renderer: GpuInstancedRenderer, options: GpuInstancedLODOptions): Promise<GpuInstancedLOD> {
    if (renderer != null && typeof renderer.hasInitialized === 'function' && !renderer.hasInitialized()) await renderer.init?.();
    return new GpuInstancedLOD(renderer, options);
  }

  /** Instances the next {@link update} selects and draws. */
  get instanceCount(): number { return this.live; }

  /**
   * GPU path: whether three still draws from the selector's buffers (no copy). `true` on the CPU path.
   * three adopts them on the first render; a `false` after one means this three version changed its
   * backend and the draws would read three's own (empty) buffers.
   */
  get sharedBuffers(): boolean {
    return this.backend === null || this.shared.every(([a, b]) => isSharedGpuBuffer(this.backend!, a, b));
  }

  /**
   * Sets the instances: `count` world-space spheres (`x, y, z, r` f32 each). Each instance is the
   * level geometry moved and uniformly scaled so that its local bounding sphere becomes its sphere,
   * rotated about that sphere's centre by `attributes.rotations` (unit quaternions `x, y, z, w`;
   * with the `rotations` option) and tinted by `attributes.colors` (linear RGB; with the `colors`
   * option). Uploads once (GPU) or rebuilds the instance store (CPU); hysteresis restarts. A
   * non-finite or zero quaternion becomes the identity (`invalidRotations`), others are normalised;
   * colour channels are clamped to [0, 1] (NaN → 0).
   */
  setSpheres(spheres: Float32Array, count = Math.floor(spheres.length / 4), attributes: GpuInstanceAttributes = {}): void {
    if (!(spheres instanceof Float32Array)) throw new TypeError('GpuInstancedLOD.setSpheres: spheres must be a Float32Array (x, y, z, r per instance)');
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) throw new RangeError(`GpuInstancedLOD.setSpheres: count must be an integer in [0, ${this.capacity}], got ${String(count)}`);
    if (spheres.length < count * 4) throw new RangeError(`GpuInstancedLOD.setSpheres: spheres has ${spheres.length} floats, ${count * 4} needed`);
    const { rotations, colors } = attributes;
    if (rotations !== undefined) {
      if (!this.rotations) throw new TypeError('GpuInstancedLOD.setSpheres: rotations given, but the object was created without the rotations option');
      if (!(rotations instanceof Float32Array) || rotations.length < count * 4) throw new RangeError(`GpuInstancedLOD.setSpheres: rotations must be a Float32Array of ${count * 4} floats (x, y, z, w per instance)`);
    }
    if (colors !== undefined) {
      if (!this.colors) throw new TypeError('GpuInstancedLOD.setSpheres: colors given, but the object was created without the colors option');
      if (!(colors instanceof Float32Array) || colors.length < count * 3) throw new RangeError(`GpuInstancedLOD.setSpheres: colors must be a Float32Array of ${count * 3} floats (r, g, b per instance)`);
    }
    this.live = count;
    const quats = this.rotations ? this.normalizedRotations(rotations, count) : null;
    const packed = this.colors ? packColors(colors, count, this.colorAttr?.array as Uint32Array | undefined) : null;
    if (this.selector !== null) {
      this.selector.setObjects(spheres, new Uint32Array(count), count);
      if (quats !== null) this.rotationAttr!.needsUpdate = true;
      if (packed !== null) this.colorAttr!.needsUpdate = true;
    } else {
      this.rebuildCpu(spheres, count, quats, packed);
    }
  }

  /**
   * Chooses every instance's level for `camera`; call once per frame before `render`. GPU path: one
   * uniform write and one compute submission (before the render's, so the draws see this frame's
   * lists). An unusable camera or a 0-px viewport skips the frame (`skippedFrames`), keeping levels.
   */
  update(camera: Camera, options: GpuInstancedUpdateOptions = NO_OPTIONS): void {
    const bias = options.bias ?? LOD_UPDATE_DEFAULTS.bias, hysteresis = options.hysteresis ?? LOD_UPDATE_DEFAULTS.hysteresis;
    if (this.cpu !== null) {
      this.cpu.viewportHeight = this.viewportHeight;
      const skipped = this.cpu.skippedFrames;
      cpuOptions.bias = bias; cpuOptions.hysteresis = hysteresis;
      const stats = this.cpu.update(camera, cpuOptions);
      this.skippedFrames += this.cpu.skippedFrames - skipped;
      this.cpuCounts.fill(0);
      for (let l = 0; l < this.levelCount && l < stats.levelCounts.length; l++) this.cpuCounts[l] = stats.levelCounts[l];
      return;
    }
    const n = this.cache.update(camera);
    const viewport = this.viewportHeight ?? this.renderer.getDrawingBufferSize(scratchSize).y;
    if (n === 0 || (this.metric === 'pixels' && !(viewport > 0))) { this.skippedFrames++; return; }
    const views = this.views;
    views.length = Math.min(n, 4);
    for (let i = 0; i < views.length; i++) {
      const v = views[i] ?? (views[i] = { frustum: this.cache.views[i] });
      v.frustum = this.cache.views[i];
      v.viewportHeight = viewport > 0 ? viewport : undefined;
    }
    this.selector!.update(views, { bias, hysteresis });
  }

  /**
   * Instances drawn per level by the last {@link update} (a reused array). GPU path: a 20-byte-per-level
   * readback of the indirect arguments — for HUDs and tests, a few times a second, never needed per frame.
   */
  async readLevelCounts(): Promise<Uint32Array> {
    if (this.reader === null) return this.cpuCounts;
    return this.reader.read(this.selector!.indirect);
  }

  /** Frees the GPU buffers (GPU path) or the instance meshes (CPU path); geometries and materials given are the caller's. */
  override dispose(): void {
    if (this.cpu !== null) { this.cpu.dispose(); return; }
    for (const m of this.levelMeshes) m.geometry.dispose();
    this.reader!.destroy();
    this.selector!.destroy();
  }

  /** Unit quaternions for the first `count` instances: the GPU attribute's array (GPU) or a new one (CPU). */
  private normalizedRotations(src: Float32Array | undefined, count: number): Float32Array {
    const out = this.rotationAttr !== null ? this.rotationAttr.array as Float32Array : new Float32Array(count * 4);
    let invalid = 0;
    for (let i = 0; i < count; i++) {
      const o = i * 4;
      if (src === undefined) { out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 1; continue; }
      const x = src[o], y = src[o + 1], z = src[o + 2], w = src[o + 3];
      const len = Math.sqrt(x * x + y * y + z * z + w * w);
      if (!(len > 0 && len < Infinity)) { out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 1; invalid++; continue; }
      out[o] = x / len; out[o + 1] = y / len; out[o + 2] = z / len; out[o + 3] = w / len;
    }
    this.invalidRotations = invalid;
    return out;
  }

  private rebuildCpu(spheres: Float32Array, count: number, rotations: Float32Array | null, colors: Uint32Array | null): void {
    if (this.cpu !== null) { this.remove(this.cpu); this.cpu.dispose(); }
    const cpu = new InstancedLOD({
      levels: this.levels, metric: this.metric, thresholds: this.thresholds, capacity: Math.max(1, count),
      sphere: this.localSphere, viewportHeight: this.viewportHeight, renderer: this.renderer,
    });
    const m = instanceMatrices(spheres, rotations, count, this.localSphere);
    if (count > 0) cpu.addInstances(m);
    if (colors !== null) {
      // The same 8-bit values as the GPU path, so both draw the same tint.
      const color = new Color();
      for (let i = 0; i < count; i++) {
        const v = colors[i];
        cpu.setColorAt(i, color.setRGB((v & 255) / 255, ((v >>> 8) & 255) / 255, ((v >>> 16) & 255) / 255));
      }
    }
    (this as { cpu: InstancedLOD }).cpu = cpu;
    this.levelMeshes.length = 0;
    this.levelMeshes.push(...cpu.levelMeshes);
    this.add(cpu);
    this.cpuCounts.fill(0);
  }
}

/** A geometry sharing `src`'s attributes and index (a sequential index when it has none). */
function indexedCopy(src: BufferGeometry): BufferGeometry {
  const g = new BufferGeometry();
  for (const name of Object.keys(src.attributes)) g.setAttribute(name, src.attributes[name]);
  let index = src.index;
  if (index === null) {
    const n = src.attributes.position?.count ?? 0;
    const a = new Uint32Array(n);
    for (let i = 0; i < n; i++) a[i] = i;
    index = new BufferAttribute(a, 1);
  }
  g.setIndex(index);
  return g;
}

/** The node material drawn for level `l`: the given one, a node copy of a classic one, or a clone when shared by two levels. */
function nodeMaterial(renderer: GpuInstancedRenderer, material: Material, seen: Set<Material>, l: number): Material {
  let m = material;
  if ((m as { isNodeMaterial?: boolean }).isNodeMaterial !== true) {
    const converted = renderer.library?.fromMaterial(m) ?? null;
    if (converted === null) throw new TypeError(`GpuInstancedLOD: levels[${l}].material (${m.type}) has no node material equivalent; use a NodeMaterial`);
    m = converted;
  } else if (seen.has(m)) {
    m = m.clone();
  }
  seen.add(m);
  return m;
}
