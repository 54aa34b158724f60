import { Frustum, lookAtRotation } from '../dist/index.js';
import { heightPerspectiveKernel } from '../dist/batch/metricKernels.js';
const N = 1_000_000;
let s = 1; const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
const data = new Float32Array(N * 4);
for (let i = 0; i < N; i++) { data[i*4] = (rand()*2-1)*500; data[i*4+1] = rand()*20; data[i*4+2] = (rand()*2-1)*500; data[i*4+3] = 0.5 + rand()*4; }
const eye = [0, 10, 0];
const f = Frustum.perspective({ fovY: 75, aspect: 16/9, near: 0.1, far: 2000, position: eye, rotation: lookAtRotation(eye, [100, 0, 300]) });
const out = new Float64Array(N);
const v = new Float64Array([f.position[0], f.position[1], f.position[2], 0, f.windowMin[1], 0, f.windowMax[1], 1]);
const pids = new Uint16Array(N), pm = new Uint8Array(1);
function simple(spheres, out, pl, ex, ey, ez, wh) {
  const p0 = pl[0], p1 = pl[1], p2 = pl[2], p3 = pl[3], p4 = pl[4], p5 = pl[5], p6 = pl[6], p7 = pl[7];
  const p8 = pl[8], p9 = pl[9], p10 = pl[10], p11 = pl[11], p12 = pl[12], p13 = pl[13], p14 = pl[14], p15 = pl[15];
  const p16 = pl[16], p17 = pl[17], p18 = pl[18], p19 = pl[19], p20 = pl[20], p21 = pl[21], p22 = pl[22], p23 = pl[23];
  const n = out.length;
  for (let i = 0; i < n; i++) {
    const o = i << 2;
    const x = spheres[o], y = spheres[o + 1], z = spheres[o + 2], r = spheres[o + 3];
    const nr = -r;
    const c = (+(p0 * x + p1 * y + p2 * z + p3 < nr) | +(p4 * x + p5 * y + p6 * z + p7 < nr) | +(p8 * x + p9 * y + p10 * z + p11 < nr) | +(p12 * x + p13 * y + p14 * z + p15 < nr) | +(p16 * x + p17 * y + p18 * z + p19 < nr) | +(p20 * x + p21 * y + p22 * z + p23 < nr));
    const dx = x - ex, dy = y - ey, dz = z - ez;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    out[i] = c !== 0 ? -1 : (2 * r) / (d * wh);
  }
}
function floor(d) { let a0 = 0, a1 = 0, a2 = 0, a3 = 0; for (let i = 0; i < d.length; i += 4) { a0 += d[i]; a1 += d[i + 1]; a2 += d[i + 2]; a3 += d[i + 3]; } return a0 + a1 + a2 + a3; }
const rows = { floor: () => floor(data), real: () => heightPerspectiveKernel(data, 0, N, out, 0, f.planes, v, true, pids, pm, 0, false), simple: () => simple(data, out, f.planes, eye[0], eye[1], eye[2], f.windowHeight) };
const t = { floor: [], real: [], simple: [] };
for (let r = 0; r < 25; r++) for (const k of Object.keys(rows)) { const a = performance.now(); rows[k](); t[k].push(performance.now() - a); }
for (const k of Object.keys(t)) { t[k].sort((a, b) => a - b); console.log(k, t[k][12].toFixed(2), 'ms'); }
