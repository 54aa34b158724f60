import fc from 'fast-check';
import { ArrayCamera, OrthographicCamera, PerspectiveCamera } from 'three';
import { describe, expect, it } from 'vitest';
import { CameraFrustumCache, frustumFromCamera } from '../../../src/adapters/three/frustumFromCamera.js';
import { CameraView, CameraViewCache, setCameraView } from '../../../src/adapters/three/cameraView.js';
import { sphereDistance, sphereScreenArea, sphereScreenHeight } from '../../../src/metrics/sphereMetrics.js';
import { referenceCulls, referenceScreenHeight } from '../../helpers/reference.js';

function camera(kind: 'perspective' | 'orthographic', fov: number, aspect: number, zoom: number, pos: number[], target: number[], offset: boolean): PerspectiveCamera | OrthographicCamera {
  const c = kind === 'perspective' ? new PerspectiveCamera(fov, aspect, 0.5, 800) : new OrthographicCamera(-aspect * 20, aspect * 20, 20, -20, 0.5, 800);
  c.zoom = zoom;
  if (offset) (c as PerspectiveCamera).setViewOffset(1600, 900, 200, 100, 800, 450);
  c.position.set(pos[0], pos[1], pos[2]);
  c.lookAt(target[0], target[1], target[2]);
  c.updateProjectionMatrix();
  c.updateMatrixWorld(true);
  return c;
}

const coord = fc.double({ min: -200, max: 200, noNaN: true });
const vec = fc.tuple(coord, coord, coord);

describe('CameraView (ScreenSizeLOD\'s light view of a three.js camera)', () => {
  it('gives the sizes of a Frustum of the same camera, to rounding, for every metric (perspective, orthographic, zoom, view offsets)', () => {
    fc.assert(fc.property(
      fc.constantFrom('perspective' as const, 'orthographic' as const), fc.double({ min: 10, max: 120, noNaN: true }),
      fc.double({ min: 0.5, max: 3, noNaN: true }), fc.double({ min: 0.25, max: 4, noNaN: true }), vec, vec, fc.boolean(),
      vec, fc.double({ min: 0.01, max: 30, noNaN: true }),
      (kind, fov, aspect, zoom, pos, target, offset, c, r) => {
        const dx = target[0] - pos[0], dy = target[1] - pos[1], dz = target[2] - pos[2], len = Math.hypot(dx, dy, dz);
        // A well-posed lookAt: not looking along the up axis (three then builds a non-orthonormal matrix).
        fc.pre(len > 1 && Math.hypot(dx, dz) > 0.1 * len);
        const cam = camera(kind, fov, aspect, zoom, pos, target, offset);
        const view = new CameraView();
        expect(setCameraView(cam, view)).toBe(true);
        const frustum = frustumFromCamera(cam);
        // The Frustum's rotation goes through three's matrix → quaternion decomposition and OpenUSD's
        // GfRotation (acos of w near 1 drops angles below ~1e-8 rad), the view's straight from the
        // matrix columns: agreement to 1e-7 of the scene's scale.
        const scale = Math.max(1, Math.hypot(pos[0], pos[1], pos[2]));
        for (let i = 0; i < 24; i++) expect(Math.abs(view.planes[i] - frustum.planes[i])).toBeLessThanOrEqual(1e-7 * scale);
        // Equal infinities (the eye inside the sphere) count as close; otherwise 1e-7 relative.
        const close = (a: number, b: number) => { if (a !== b) expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(b))); };
        // Culling may differ only for a sphere within rounding of a plane.
        const edge = Math.min(...[0, 1, 2, 3, 4, 5].map((p) => Math.abs(frustum.planeDistance(p, c[0], c[1], c[2]) + r)));
        if (edge > 1e-5 * scale) {
          close(sphereScreenHeight(view, c[0], c[1], c[2], r), sphereScreenHeight(frustum, c[0], c[1], c[2], r));
          close(sphereScreenArea(view, c[0], c[1], c[2], r), sphereScreenArea(frustum, c[0], c[1], c[2], r));
        }
        close(sphereDistance(view, c[0], c[1], c[2], r), sphereDistance(frustum, c[0], c[1], c[2], r));
      },
    ), { numRuns: 500 });
  });

  it('matches the independent reference formula for a centred perspective camera', () => {
    const cam = camera('perspective', 60, 1.5, 1, [3, 2, 10], [0, 0, 0], false);
    const view = new CameraView();
    setCameraView(cam, view);
    const half = Math.tan(Math.PI / 6);
    const ref = { position: [3, 2, 10], rotation: frustumFromCamera(cam).rotation, windowMin: [-half * 1.5, -half], windowMax: [half * 1.5, half], near: 0.5, far: 800, isPerspective: true };
    for (const [x, y, z, r] of [[0, 0, 0, 1], [5, 1, -20, 3], [-40, 0, 0, 2], [0, 0, 700, 5]]) {
      expect(view.cullsSphere(x, y, z, r)).toBe(referenceCulls(ref, x, y, z, r));
      expect(sphereScreenHeight(view, x, y, z, r)).toBeCloseTo(referenceScreenHeight(ref, x, y, z, r), 12);
    }
  });

  it('reports cameras that give no valid view instead of throwing, and rebuilds only when a camera changes', () => {
    const bad = new PerspectiveCamera(50, 1, 0.1, 100);
    bad.projectionMatrix.elements[5] = 0;
    expect(setCameraView(bad, new CameraView())).toBe(false);
    const flat = new PerspectiveCamera(50, 1, 0.1, 100);
    flat.updateMatrixWorld(true);
    flat.matrixWorld.elements[0] = NaN;
    expect(setCameraView(flat, new CameraView())).toBe(false);

    const cache = new CameraViewCache();
    const cam = camera('perspective', 50, 1, 1, [0, 0, 10], [0, 0, 0], false);
    expect(cache.update(cam)).toBe(1);
    expect(cache.update(cam)).toBe(1);
    expect(cache.rebuilds).toBe(1);
    cam.position.x = 1; cam.updateMatrixWorld(true);
    cache.update(cam);
    expect(cache.rebuilds).toBe(2);
    expect(cache.update(bad)).toBe(0);
    // An ArrayCamera measures each eye, in the same order as the Frustum cache.
    const eye = (x: number) => camera('perspective', 50, 1, 1, [x, 0, 10], [0, 0, 0], false) as PerspectiveCamera;
    const eyes = new ArrayCamera([eye(-1), eye(1)]);
    const frusta = new CameraFrustumCache();
    expect(cache.update(eyes)).toBe(2);
    expect(frusta.update(eyes)).toBe(2);
    for (let i = 0; i < 2; i++) expect(cache.views[i].position[0]).toBe(frusta.frusta[i].position[0]);
  });
});
