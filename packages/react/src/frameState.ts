/**
 * What every LOD frame reads from r3f's state: the camera to measure against (the WebXR
 * `ArrayCamera` while a session is presenting, so both eyes get one decision) and the drawing-buffer
 * height in pixels.
 *
 * @module
 */
import type { Camera } from 'three';

/** The WebXR part of three's renderer read here. @category React */
export interface XRCameraSource {
  /** True while an XR session presents. */
  isPresenting?: boolean;
  /** Returns the XR `ArrayCamera` (one sub-camera per eye). */
  getCamera?(): Camera;
}

/** The parts of r3f's root state read here (the same in fiber 8 and 9). @category React */
export interface FrameStateLike {
  /** r3f's default camera. */
  camera: Camera;
  /** The canvas size in CSS pixels. */
  size: { height: number };
  /** The device-pixel ratio r3f renders at. */
  viewport: { dpr: number };
  /** The renderer (its `xr` manager, when there is one). */
  gl: { xr?: XRCameraSource };
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
