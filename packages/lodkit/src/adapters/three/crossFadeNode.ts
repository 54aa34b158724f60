/**
 * `lodkit/three/webgpu`: the screen-door cross-fade for `WebGPURenderer`, as a TSL mask node.
 * Import it (and call `enableNodeCrossFade()` once) in apps that render with `WebGPURenderer`;
 * `ScreenSizeLOD` fades then dither there exactly as under `WebGLRenderer`. Kept out of
 * `lodkit/three` because `three/tsl` exists only since r167 (lodkit supports r160).
 *
 * Contributor notes:
 * - Pattern: the 4×4 ordered dither as the recursive 2×2 Bayer sum
 *   `b2(a) = fract(a.x/2 + 3/4·a.y²)` (0, ½, ¾, ¼ over a 2×2 block, for any integer `a`),
 *   `d = b2(⌊p/2⌋)/4 + b2(p) + 1/32`: 16 distinct values `(k + ½)/16` per 4×4 block, the same
 *   set as the GLSL patch (crossFade.ts), so `f` and `−(1 − f)` cover every pixel exactly once.
 * - The mask keeps a pixel when `d < f` for `f ≥ 0` and when `d ≥ 1 + f` for `f < 0`.
 *
 * @module
 */
import { dot, floor, fract, screenCoordinate, select, uniform, vec2 } from 'three/tsl';
import { setNodeFadeFactory } from './crossFade.js';

// TSL's generic node typings do not follow swizzles through `dot`; the graph is checked by the
// Chromium WebGPU test (test/e2e/webgpuFade.test.ts) instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type N = any;

function bayer2(a: N): N {
  return fract(dot(a, vec2(0.5, a.y.mul(0.75))));
}

/**
 * Installs the TSL dither for `WebGPURenderer` (idempotent). Materials faded before the call keep
 * their WebGL-only clone until their next fade starts.
 * @example
 * ```ts
 * import { WebGPURenderer } from 'three/webgpu';
 * import { enableNodeCrossFade } from 'lodkit/three/webgpu';
 * enableNodeCrossFade();
 * const renderer = new WebGPURenderer();
 * ```
 * @category three.js
 */
export function enableNodeCrossFade(): void {
  setNodeFadeFactory(() => {
    const fade = uniform(1);
    const p: N = floor(screenCoordinate.xy);
    const d: N = bayer2(floor(p.mul(0.5))).mul(0.25).add(bayer2(p)).add(1 / 32);
    const maskNode = select(fade.greaterThanEqual(0), d.lessThan(fade), d.greaterThanEqual(fade.add(1)));
    return { maskNode, uniform: fade as unknown as { value: number } };
  });
}
