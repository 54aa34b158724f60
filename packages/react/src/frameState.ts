/**
 * What every LOD frame reads from r3f's state: the camera to measure against (the WebXR
 * `ArrayCamera` while a session is presenting, so both eyes get one decision) and the drawing-buffer
 * height in pixels.
 *
 * @module
 */
import type { Camera } from 'three';

/** The parts of r3f's root state read here (works with fiber 8 and 9). */
export interface FrameStateLike {
  camera: Camera;
  size: { height: number };
  viewport: { dpr: number };
  gl: { xr?: { isPresenting?: boolean; getCamera?: () => Camera } };
}

/**
 * The camera a LOD frame measures: the WebXR `ArrayCamera` (both eyes, lodkit's multi-view) while
 * an XR session presents, else r3f's default camera.
 * @example
 * ```tsx
 * import { useFrame } from '@react-three/fiber';
 * import { lodCamera } from '@lodkit/react';
 * function Probe() {
 *   useFrame((state) => { console.log(lodCamera(state).type); });
 *   return null;
 * }
 * ```
 * @category React
 */
export function lodCamera(state: FrameStateLike): Camera {
  const xr = state.gl.xr;
  if (xr !== undefined && xr.isPresenting === true && typeof xr.getCamera === 'function') return xr.getCamera();
  return state.camera;
}

/**
 * The drawing-buffer height in physical pixels (`size.height × dpr`): the viewport of the
 * `'pixels'` metric.
 * @example
 * ```tsx
 * import { useFrame } from '@react-three/fiber';
 * import { lodViewportHeight } from '@lodkit/react';
 * function Probe() {
 *   useFrame((state) => { console.log(lodViewportHeight(state)); });
 *   return null;
 * }
 * ```
 * @category React
 */
export function lodViewportHeight(state: FrameStateLike): number {
  return state.size.height * state.viewport.dpr;
}
