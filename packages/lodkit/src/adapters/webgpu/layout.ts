/**
 * Buffer layouts shared by the WGSL kernel ({@link SELECT_WGSL}) and the float32 CPU reference
 * (reference.ts): the frame uniform block (views, bias, hysteresis) and the profile table. Both
 * sides read the very same packed bytes, so the reference sees exactly the float32 inputs the GPU
 * sees (window height/area are computed once here, in float64, then rounded).
 *
 * Frame block (`FRAME_BYTES`): u32 `count`, u32 `viewCount`, f32 `bias`, f32 `hysteresis`, u32
 * `stride` (elements per level in the instance lists), u32 `levelCount`, 2 × pad; then
 * `MAX_GPU_VIEWS` views of 32 floats: planes `[0, 24)` (a, b, c, d; inside where `a·x+b·y+c·z+d ≥
 * −r`), eye `[24, 27)`, perspective flag `[27]`, window height `[28]`, window area `[29]`, pixel
 * scale `[30]` (viewport height for the `'pixels'` metric), pad.
 *
 * Profile record (`PROFILE_BYTES`): u32 metric code, u32 threshold count, u32 level count, pad,
 * then 16 f32 thresholds.
 *
 * @module
 */
import type { LodView } from '../../batch/lodSet.js';
import type { LodProfile } from '../../batch/profiles.js';

/** Views a frame may combine (max of screen sizes, min of distances). @category WebGPU */
export const MAX_GPU_VIEWS = 4;
/** Levels a GPU profile (and the level table) may have. @category WebGPU */
export const MAX_GPU_LEVELS = 16;
/** Bytes of the frame uniform block. @category WebGPU */
export const FRAME_BYTES = 32 + MAX_GPU_VIEWS * 128;
/** Bytes of one profile record. @category WebGPU */
export const PROFILE_BYTES = 16 + MAX_GPU_LEVELS * 4;
/** Float offset of view `v` in the frame block. */
export const viewOffset = (v: number): number => 8 + v * 32;
/** Bit set in a state word when the next frame has no hysteresis reference (hidden / invalid). */
export const NO_REFERENCE = 0x100;

/**
 * Packs views, bias and hysteresis into `out` (`FRAME_BYTES` bytes). No allocation.
 * @category WebGPU
 */
export function packFrame(out: ArrayBuffer, views: readonly LodView[], count: number, stride: number, levelCount: number, bias: number, hysteresis: number): void {
  const f = new Float32Array(out, 0, FRAME_BYTES / 4), u = new Uint32Array(out, 0, FRAME_BYTES / 4);
  u[0] = count; u[1] = views.length; f[2] = bias; f[3] = hysteresis; u[4] = stride; u[5] = levelCount; u[6] = 0; u[7] = 0;
  for (let v = 0; v < views.length; v++) {
    const view = views[v], fr = view.frustum, o = viewOffset(v);
    for (let k = 0; k < 24; k++) f[o + k] = fr.planes[k];
    f[o + 24] = fr.position[0]; f[o + 25] = fr.position[1]; f[o + 26] = fr.position[2];
    f[o + 27] = fr.isPerspective ? 1 : 0;
    const wh = fr.windowMax[1] - fr.windowMin[1];
    f[o + 28] = wh;
    f[o + 29] = (fr.windowMax[0] - fr.windowMin[0]) * wh;
    f[o + 30] = view.viewportHeight ?? 1080;
    f[o + 31] = 0;
  }
}

/**
 * Packs validated profiles into profile records. Throws `RangeError` for a profile the GPU path does
 * not support yet (more than `MAX_GPU_LEVELS` levels, blend thresholds).
 * @category WebGPU
 */
export function packProfiles(profiles: readonly LodProfile[], owner: string): ArrayBuffer {
  const out = new ArrayBuffer(Math.max(1, profiles.length) * PROFILE_BYTES);
  const u = new Uint32Array(out), f = new Float32Array(out), w = PROFILE_BYTES / 4;
  profiles.forEach((p, i) => {
    if (p.levelCount > MAX_GPU_LEVELS) throw new RangeError(`${owner}: profiles[${i}] has ${p.levelCount} levels, the GPU path supports at most ${MAX_GPU_LEVELS}`);
    if (p.blendThresholds.length > 0) throw new RangeError(`${owner}: profiles[${i}].blendThresholds are not supported on the GPU yet`);
    u[i * w] = p.metricCode; u[i * w + 1] = p.thresholds.length; u[i * w + 2] = p.levelCount;
    f.set(p.thresholds, i * w + 4);
  });
  return out;
}
