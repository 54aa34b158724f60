/**
 * Sharing lodkit's GPU buffers with three.js's `WebGPURenderer`, and a small readback of indirect
 * draw arguments. Used by `GpuInstancedLOD` (gpuInstancedLOD.ts).
 *
 * Contributor notes:
 * - three's WebGPU backend keeps each attribute's `GPUBuffer` in `backend.get(attribute).buffer`
 *   and creates one only when that slot is empty (`WebGPUAttributeUtils.createAttribute`). Putting
 *   the selector's buffer there before the attribute's first use makes three bind and draw from the
 *   very buffer the compute pass wrote: no copy, no upload. The attribute's CPU array is never
 *   uploaded (its `version` never moves, its usage stays static), so it is a 1-element stand-in.
 * - This relies on that backend convention (stable since r16x, checked in r187). {@link isSharedGpuBuffer}
 *   tells whether three kept our buffer after a render; `GpuInstancedLOD.sharedBuffers` reports it
 *   and the Chromium test asserts it. A selector option taking externally created buffers (or a three
 *   attribute wrapping an existing `GPUBuffer`) would make this public API on either side.
 *
 * @module
 */
import type { BufferAttribute } from 'three';

/** The part of three's `WebGPUBackend` this module touches. @category three.js */
export interface GpuBackendLike {
  readonly isWebGPUBackend?: boolean;
  readonly device?: GPUDevice | null;
  /** The backend's record for `object` (for an attribute, `buffer` is the `GPUBuffer` three draws it from). */
  get(object: object): { buffer?: GPUBuffer };
}

/**
 * Makes three draw `attribute` from `buffer` (created by lodkit on the renderer's own device).
 * Call before the attribute is first rendered. Throws if three already made its own buffer for it.
 * @category three.js
 */
export function shareGpuBuffer(backend: GpuBackendLike, attribute: BufferAttribute, buffer: GPUBuffer): void {
  const data = backend.get(attribute);
  if (data.buffer !== undefined && data.buffer !== buffer) throw new Error('shareGpuBuffer: three already created a GPU buffer for this attribute');
  data.buffer = buffer;
}

/** Whether three still draws `attribute` from `buffer`. @category three.js */
export function isSharedGpuBuffer(backend: GpuBackendLike, attribute: BufferAttribute, buffer: GPUBuffer): boolean {
  return backend.get(attribute).buffer === buffer;
}

// GPUBufferUsage / GPUMapMode values (spec constants), so this module loads where WebGPU is absent.
const MAP_READ = 0x1, COPY_DST = 0x8, MAP_MODE_READ = 0x1;

/**
 * Reads the `instanceCount` word of each level's `drawIndexedIndirect` arguments (5 words per level)
 * into a reused array: one small copy into one reused staging buffer, at most one read in flight (a
 * call while one is pending returns the pending promise). For HUDs a few times a second, not per frame.
 * @example
 * ```ts
 * const reader = new IndirectCountReader(device, 4);
 * const counts = await reader.read(selector.indirect); // Uint32Array(4), reused
 * ```
 * @category three.js
 */
export class IndirectCountReader {
  readonly counts: Uint32Array;
  private readonly staging: GPUBuffer;
  private pending: Promise<Uint32Array> | null = null;

  constructor(private readonly device: GPUDevice, private readonly levelCount: number) {
    this.counts = new Uint32Array(levelCount);
    this.staging = device.createBuffer({ size: levelCount * 20, usage: MAP_READ | COPY_DST, label: 'lodkit.indirectCounts' });
  }

  /** Copies `indirect` (at byte `offset`) and resolves with the per-level instance counts. */
  read(indirect: GPUBuffer, offset = 0): Promise<Uint32Array> {
    if (this.pending !== null) return this.pending;
    const enc = this.device.createCommandEncoder({ label: 'lodkit.indirectCounts' });
    enc.copyBufferToBuffer(indirect, offset, this.staging, 0, this.levelCount * 20);
    this.device.queue.submit([enc.finish()]);
    this.pending = this.staging.mapAsync(MAP_MODE_READ).then(() => {
      const words = new Uint32Array(this.staging.getMappedRange());
      for (let l = 0; l < this.levelCount; l++) this.counts[l] = words[l * 5 + 1];
      this.staging.unmap();
      this.pending = null;
      return this.counts;
    }, (e: unknown) => { this.pending = null; throw e; });
    return this.pending;
  }

  /** Destroys the staging buffer; the reader cannot be used afterwards. */
  destroy(): void { this.staging.destroy(); }
}
