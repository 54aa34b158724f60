/**
 * Test helpers: the r3f state captured from inside a test-renderer root, a camera mover that does
 * what three's renderer does before drawing (matrices up to date), and lodkit's level rule written
 * out from its definition (README "Ten lines", lodkit's sphereMetrics.ts and lodIndex.ts docs),
 * never by calling lodkit.
 */
import { useThree, type RootState } from '@react-three/fiber';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import type { ReactNode } from 'react';
import type { PerspectiveCamera } from 'three';

/** Renders nothing; hands r3f's state getter to the test. */
export function Capture({ into }: { into: { get?: () => RootState } }): null {
  into.get = useThree((s) => s.get);
  return null;
}

export interface Rendered {
  renderer: Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>;
  state: () => RootState;
  /** One r3f frame (every useFrame subscriber once). */
  frame: () => Promise<void>;
  /** Moves r3f's camera to (x, y, z) looking at `target`, and updates its matrices. */
  moveCamera: (x: number, y: number, z: number, target?: [number, number, number]) => void;
  /** The drawing-buffer height r3f reports (size.height × dpr). */
  viewportHeight: () => number;
}

/** A test-renderer root (1280 × 720 canvas) around `element`. */
export async function render(element: ReactNode, size = { width: 1280, height: 720 }): Promise<Rendered> {
  const options = { ...size, size: { ...size, top: 0, left: 0 }, dpr: 1 };
  const into: { get?: () => RootState } = {};
  const renderer = await ReactThreeTestRenderer.create(<><Capture into={into} />{element}</>, options);
  const state = (): RootState => into.get!();
  return {
    renderer, state,
    frame: async () => { await ReactThreeTestRenderer.act(async () => { await renderer.advanceFrames(1, 1 / 60); }); },
    moveCamera: (x, y, z, target = [0, 0, 0]) => {
      const camera = state().camera as PerspectiveCamera;
      camera.position.set(x, y, z);
      camera.lookAt(target[0], target[1], target[2]);
      camera.updateMatrixWorld();
    },
    viewportHeight: () => state().size.height * state().viewport.dpr,
  };
}

/**
 * A perspective sphere's on-screen diameter in pixels, for a sphere inside the view: the diameter
 * 2R seen at eye distance d spans 2R / d on the plane at depth 1, whose height is 2·tan(fov/2):
 * px = R / (d · tan(fov / 2)) · viewportHeight.
 */
export function pixelDiameter(eye: readonly number[], centre: readonly number[], radius: number, fovDeg: number, viewportHeight: number): number {
  const d = Math.hypot(eye[0] - centre[0], eye[1] - centre[1], eye[2] - centre[2]);
  return (radius / (d * Math.tan((fovDeg * Math.PI) / 360))) * viewportHeight;
}

/** The same as a fraction of the screen height (MSFS's metric). */
export function screenHeight(eye: readonly number[], centre: readonly number[], radius: number, fovDeg: number): number {
  return pixelDiameter(eye, centre, radius, fovDeg, 1);
}

/** Distance from the eye to the sphere's nearest point (0 inside). */
export function sphereDistance(eye: readonly number[], centre: readonly number[], radius: number): number {
  return Math.max(0, Math.hypot(eye[0] - centre[0], eye[1] - centre[1], eye[2] - centre[2]) - radius);
}

/** Screen sizes: level j while size > t[j] (t descending), else the coarsest. */
export function levelForSize(size: number, t: readonly number[]): number {
  for (let j = 0; j < t.length; j++) if (size > t[j]) return j;
  return t.length;
}

/** Distances: level j while d < t[j] (t ascending), else the coarsest. */
export function levelForDistance(d: number, t: readonly number[]): number {
  for (let j = 0; j < t.length; j++) if (d < t[j]) return j;
  return t.length;
}

/**
 * The level with a relative band h around each threshold, from the previous level: leaving level
 * `prev` across its boundary needs the size to pass the threshold by the factor (1 ± h).
 */
export function levelWithBand(size: number, t: readonly number[], h: readonly number[], prev: number): number {
  const plain = levelForSize(size, t);
  if (plain > prev) return size * (1 + h[prev]) > t[prev] ? prev : plain;
  if (plain < prev) return size * (1 - h[prev - 1]) <= t[prev - 1] ? prev : plain;
  return plain;
}

/** Which child of `object` is visible (−1 none, −2 several). */
export function visibleIndex(children: readonly { visible: boolean }[]): number {
  let found = -1;
  children.forEach((c, i) => { if (c.visible) found = found === -1 ? i : -2; });
  return found;
}

/** True when `value` is at least `margin` (relative) away from every threshold. */
export function clearOf(value: number, thresholds: readonly number[], margin = 1e-3): boolean {
  return thresholds.every((t) => Math.abs(value - t) > margin * t);
}
