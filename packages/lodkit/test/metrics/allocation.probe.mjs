// Allocation probe for the sphere metrics: 1e6 calls of each with fractional (non-Smi) coordinates
// read from a Float64Array, as a renderer would pass them. One loop literal per metric: a shared
// loop taking the metric as a parameter would make the call site megamorphic.
import { Frustum, sphereDistance, spherePixelDiameter, sphereScreenArea, sphereScreenHeight } from '../../dist/index.js';
import { runProbes } from '../helpers/measureAllocation.mjs';

const f = Frustum.perspective({ fovY: 50, aspect: 1.5, near: 0.1, far: 1e4 });
const o = Frustum.orthographic({ height: 50, aspect: 1.5, near: 0.1, far: 1e4 });
const S = 4096;
const spheres = new Float64Array(S * 4);
let seed = 12345;
const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296);
for (let i = 0; i < S; i++) spheres.set([rand() * 20 - 10, rand() * 20 - 10, -1 - rand() * 500, 0.1 + rand() * 3], i * 4);
const sink = new Float64Array(1);
const f2 = new Frustum();
const setInit = { position: [0, 1.5, 0], rotation: [0, 0, 0, 1], window: { min: [-1, -0.5], max: [1, 0.5] }, near: 0.1, far: 500 };
const rotatedInit = { position: [0, 1.5, 0], rotation: [0.1825742, 0.3651484, 0.5477226, 0.7302967], near: 0.1, far: 500 };
const usdInit = { position: [0, 1.5, 0], rotation: [0.1825742, 0.3651484, 0.5477226, 0.7302967], near: 0.1, far: 500, input: 'openusd' };
const perspectiveInit = { fovY: 50, aspect: 1.5, near: 0.1, far: 1e4, position: [1, 2, 3], rotation: [0, 0, 0, 1] };
let escaped = { r: 0 };
const N = 1_000_000, M = S - 1;
await runProbes({
  sphereScreenHeight() { let a = 0; for (let i = 0; i < N; i++) { const k = (i & M) * 4; a += sphereScreenHeight(f, spheres[k], spheres[k + 1], spheres[k + 2], spheres[k + 3]); } sink[0] += a; },
  spherePixelDiameter() { let a = 0; for (let i = 0; i < N; i++) { const k = (i & M) * 4; a += spherePixelDiameter(f, spheres[k], spheres[k + 1], spheres[k + 2], spheres[k + 3], 1080); } sink[0] += a; },
  sphereScreenArea() { let a = 0; for (let i = 0; i < N; i++) { const k = (i & M) * 4; a += sphereScreenArea(f, spheres[k], spheres[k + 1], spheres[k + 2], spheres[k + 3]); } sink[0] += a; },
  sphereScreenAreaOrtho() { let a = 0; for (let i = 0; i < N; i++) { const k = (i & M) * 4; a += sphereScreenArea(o, spheres[k], spheres[k + 1], spheres[k + 2], spheres[k + 3]); } sink[0] += a; },
  // Per-frame camera updates re-use one Frustum and one init object.
  frustumSet() { for (let i = 0; i < N / 10; i++) { setInit.position[2] = spheres[(i & M) * 4 + 2]; f2.set(setInit); } sink[0] += f2.planes[3]; },
  // A real rotation goes through GfRotation's axis and angle (correctly rounded acos/sin/cos).
  frustumSetRotated() { for (let i = 0; i < N / 10; i++) { rotatedInit.position[2] = spheres[(i & M) * 4 + 2]; f2.set(rotatedInit); } sink[0] += f2.planes[3]; },
  // The 'openusd' input mode builds GfFrustum's corner planes as well.
  frustumSetOpenUsdInput() { for (let i = 0; i < N / 10; i++) { usdInit.position[2] = spheres[(i & M) * 4 + 2]; f2.set(usdInit); } sink[0] += f2.planes[3]; },
  frustumPerspective() { for (let i = 0; i < N / 10; i++) { perspectiveInit.fovY = 20 + (i & 63); Frustum.perspective(perspectiveInit, f2); } sink[0] += f2.planes[3]; },
  // Control: proves the harness sees allocation (each iteration escapes a fresh object).
  controlAllocates() { for (let i = 0; i < N; i++) { const k = (i & M) * 4; escaped = { r: spheres[k + 3] }; } sink[0] += escaped.r; },
  sphereDistance() { let a = 0; for (let i = 0; i < N; i++) { const k = (i & M) * 4; a += sphereDistance(f, spheres[k], spheres[k + 1], spheres[k + 2], spheres[k + 3]); } sink[0] += a; },
});
