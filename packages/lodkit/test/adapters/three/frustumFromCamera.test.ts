import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ArrayCamera, Camera, OrthographicCamera, PerspectiveCamera, Vector3, Vector4 } from 'three';
import { CameraFrustumCache, cameraViews, frustumFromCamera } from '../../../src/adapters/three/frustumFromCamera.js';
import type { Frustum } from '../../../src/metrics/frustum.js';

/** NDC of a world point through lodkit's view and projection matrices (column-major). */
function projectWithFrustum(f: Frustum, p: Vector3): Vector3 {
  const v = f.viewMatrix, m = f.projectionMatrix;
  const cx = v[0] * p.x + v[4] * p.y + v[8] * p.z + v[12];
  const cy = v[1] * p.x + v[5] * p.y + v[9] * p.z + v[13];
  const cz = v[2] * p.x + v[6] * p.y + v[10] * p.z + v[14];
  const c = new Vector4(
    m[0] * cx + m[4] * cy + m[8] * cz + m[12],
    m[1] * cx + m[5] * cy + m[9] * cz + m[13],
    m[2] * cx + m[6] * cy + m[10] * cz + m[14],
    m[3] * cx + m[7] * cy + m[11] * cz + m[15],
  );
  return new Vector3(c.x / c.w, c.y / c.w, c.z / c.w);
}

const coord = fc.double({ min: -50, max: 50, noNaN: true });

function placeCamera(camera: Camera, eye: number[], target: number[]): boolean {
  camera.position.set(eye[0], eye[1], eye[2]);
  camera.lookAt(target[0], target[1], target[2]);
  camera.updateMatrixWorld(true);
  // three's lookAt straight along the up axis yields a slightly non-unit quaternion; skip those.
  const q = camera.quaternion;
  return Math.abs(Math.hypot(q.x, q.y, q.z, q.w) - 1) < 1e-12;
}

/**
 * How far the frustum's rotation may turn from the camera's, in radians. Frustum rotates through
 * OpenUSD's GfRotation (angle 2·acos(w)); near w = 1 acos is ill-conditioned, so a w k ulps from
 * its exact value (three's decompose and normalize round it) moves the angle by up to
 * 2·√(2·k·2⁻⁵³): 8.4e-8 rad for k = 8. (Seed −240591247 rounded w to 1 and lost a 3.9e-8 rad turn,
 * 1.0e-5 of the window at 50 units from the eye.)
 */
const ROTATION_ERROR = 2 * Math.sqrt(2 * 8 * 2 ** -53);

/**
 * three.js and lodkit project each point alike, up to what the rotation error above moves it: a
 * turn by δ moves a point r from the eye by ≤ δ·r in camera space, which moves its NDC by the
 * camera's projection (three's matrix, so the bound does not come from the code under test):
 * linear for orthographic cameras, through the perspective division (first order, doubled)
 * otherwise; plus 1e-9 for rounding.
 */
function expectSameProjection(camera: Camera, f: Frustum, points: number[][]): void {
  const e = camera.projectionMatrix.elements, perspective = e[11] === -1;
  for (const p of points) {
    const world = new Vector3(p[0], p[1], p[2]);
    const c = world.clone().applyMatrix4(camera.matrixWorldInverse);
    // Points on the eye plane have no perspective projection (w = 0).
    if (Math.abs(c.z) < 1e-2) continue;
    const three = world.clone().project(camera);
    const ours = projectWithFrustum(f, world);
    const moved = ROTATION_ERROR * c.length(), z = Math.abs(c.z);
    const bx = perspective ? 2 * Math.abs(e[0]) * moved * (1 / z + Math.abs(c.x) / (z * z)) : Math.abs(e[0]) * moved;
    const by = perspective ? 2 * Math.abs(e[5]) * moved * (1 / z + Math.abs(c.y) / (z * z)) : Math.abs(e[5]) * moved;
    const bz = perspective ? 2 * Math.abs(e[14]) * moved / (z * z) : Math.abs(e[10]) * moved;
    expect(Math.abs(ours.x - three.x)).toBeLessThanOrEqual(bx + 1e-9 * Math.max(1, Math.abs(three.x)));
    expect(Math.abs(ours.y - three.y)).toBeLessThanOrEqual(by + 1e-9 * Math.max(1, Math.abs(three.y)));
    expect(Math.abs(ours.z - three.z)).toBeLessThanOrEqual(bz + 1e-9 * Math.max(1, Math.abs(three.z)));
  }
}

describe('frustumFromCamera', () => {
  it('a plain perspective camera gives the window 2·tan(fov/2)/zoom and the camera near/far', () => {
    const camera = new PerspectiveCamera(60, 2, 0.5, 300);
    camera.zoom = 2;
    camera.updateProjectionMatrix();
    placeCamera(camera, [1, 2, 3], [0, 0, 0]);
    const f = frustumFromCamera(camera);
    const h = (2 * Math.tan(Math.PI / 6)) / 2;
    expect(f.isPerspective).toBe(true);
    expect(f.windowHeight).toBeCloseTo(h, 12);
    expect(f.windowWidth).toBeCloseTo(h * 2, 12);
    expect(f.near).toBe(0.5);
    expect(f.far).toBe(300);
    expect(Array.from(f.position)).toEqual([1, 2, 3]);
  });

  it('a view offset shrinks and shifts the window by the sub-rectangle', () => {
    const camera = new PerspectiveCamera(40, 1.5, 0.1, 100);
    camera.setViewOffset(1920, 1080, 480, 270, 960, 540);
    placeCamera(camera, [0, 0, 0], [0, 0, -1]);
    const f = frustumFromCamera(camera);
    const fullH = 2 * Math.tan((20 * Math.PI) / 180);
    expect(f.windowHeight).toBeCloseTo(fullH * 0.5, 10);
    // The sub-rectangle is the centre quarter, so the window stays centred.
    expect(f.windowMin[1] + f.windowMax[1]).toBeCloseTo(0, 10);
  });

  it('agrees with three.js projection for perspective cameras (fov, aspect, zoom, view offset)', () => {
    fc.assert(fc.property(
      fc.double({ min: 5, max: 120, noNaN: true }), fc.double({ min: 0.3, max: 3, noNaN: true }),
      fc.double({ min: 0.25, max: 8, noNaN: true }), fc.boolean(),
      fc.array(coord, { minLength: 3, maxLength: 3 }), fc.array(coord, { minLength: 3, maxLength: 3 }),
      fc.array(fc.array(coord, { minLength: 3, maxLength: 3 }), { minLength: 4, maxLength: 4 }),
      (fov, aspect, zoom, offset, eye, target, points) => {
        fc.pre(Math.hypot(eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]) > 1e-3);
        const camera = new PerspectiveCamera(fov, aspect, 0.1, 500);
        camera.zoom = zoom;
        if (offset) camera.setViewOffset(1600, 900, 100, 300, 640, 360);
        camera.updateProjectionMatrix();
        fc.pre(placeCamera(camera, eye, target));
        expectSameProjection(camera, frustumFromCamera(camera), points);
      },
    ), { numRuns: 150 });
  });

  it('agrees with three.js projection for orthographic cameras (zoom, view offset, asymmetric bounds)', () => {
    fc.assert(fc.property(
      fc.double({ min: 1, max: 100, noNaN: true }), fc.double({ min: 0.3, max: 3, noNaN: true }),
      fc.double({ min: 0.25, max: 8, noNaN: true }), fc.boolean(), fc.double({ min: -5, max: 5, noNaN: true }),
      fc.array(coord, { minLength: 3, maxLength: 3 }), fc.array(coord, { minLength: 3, maxLength: 3 }),
      fc.array(fc.array(coord, { minLength: 3, maxLength: 3 }), { minLength: 4, maxLength: 4 }),
      (height, aspect, zoom, offset, shift, eye, target, points) => {
        fc.pre(Math.hypot(eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]) > 1e-3);
        const h = height / 2;
        const camera = new OrthographicCamera(-h * aspect + shift, h * aspect + shift, h, -h, 0.5, 400);
        camera.zoom = zoom;
        if (offset) camera.setViewOffset(1000, 800, 200, 100, 500, 400);
        camera.updateProjectionMatrix();
        fc.pre(placeCamera(camera, eye, target));
        const f = frustumFromCamera(camera);
        expect(f.isPerspective).toBe(false);
        expect(f.windowHeight).toBeCloseTo((2 * h / zoom) * (offset ? 0.5 : 1), 9);
        expectSameProjection(camera, f, points);
      },
    ), { numRuns: 150 });
  });

  it('a camera with only a projection matrix (WebXR-style) gets near/far from the GL depth row', () => {
    const source = new PerspectiveCamera(70, 0.9, 0.05, 80);
    source.setViewOffset(2000, 1000, 300, 100, 1000, 800); // asymmetric, like an eye's frustum
    source.updateProjectionMatrix();
    const bare = new Camera();
    bare.projectionMatrix.copy(source.projectionMatrix);
    bare.position.set(2, 1, 0);
    bare.updateMatrixWorld(true);
    const f = frustumFromCamera(bare);
    expect(f.near).toBeCloseTo(0.05, 9);
    expect(f.far).toBeCloseTo(80, 6);
    const o = new OrthographicCamera(-3, 5, 2, -4, 0.5, 60);
    o.updateProjectionMatrix();
    const bareOrtho = new Camera();
    bareOrtho.projectionMatrix.copy(o.projectionMatrix);
    bareOrtho.updateMatrixWorld(true);
    const fo = frustumFromCamera(bareOrtho);
    expect(fo.isPerspective).toBe(false);
    expect([fo.near, fo.far, fo.windowMin[0], fo.windowMax[0], fo.windowMin[1], fo.windowMax[1]].map((v) => +v.toFixed(9))).toEqual([0.5, 60, -3, 5, -4, 2]);
    expectSameProjection(bare, f, [[0, 0, -10], [3, -2, -30], [-5, 4, -60]]);
  });

  it('rejects a camera whose projection matrix was never set up', () => {
    const camera = new PerspectiveCamera();
    camera.projectionMatrix.elements[0] = 0;
    expect(() => frustumFromCamera(camera)).toThrow(RangeError);
  });
});

describe('cameraViews and CameraFrustumCache', () => {
  it('an ArrayCamera contributes its eyes; other cameras themselves', () => {
    const left = new PerspectiveCamera(), right = new PerspectiveCamera();
    const views: Camera[] = [];
    expect(cameraViews(new ArrayCamera([left, right]), views)).toBe(2);
    expect(views[1]).toBe(right);
    expect(cameraViews(left, views)).toBe(1);
    expect(cameraViews(new ArrayCamera([]), views)).toBe(1);
  });

  it('rebuilds a frustum only when the camera matrices change, and reports invalid cameras as 0 views', () => {
    const camera = new PerspectiveCamera(50, 1, 0.1, 100);
    placeCamera(camera, [0, 0, 5], [0, 0, 0]);
    const cache = new CameraFrustumCache();
    expect(cache.update(camera)).toBe(1);
    cache.update(camera);
    expect(cache.rebuilds).toBe(1);
    placeCamera(camera, [0, 1, 5], [0, 0, 0]);
    cache.update(camera);
    expect(cache.rebuilds).toBe(2);
    expect(cache.frusta[0].position[1]).toBe(1);
    camera.projectionMatrix.elements[5] = Number.NaN;
    expect(cache.update(camera)).toBe(0);
  });
});
