/**
 * Procedural models of the demo: a motorbike with rider and a track sector, each at three levels
 * of detail whose triangle counts differ by ~5× per level (like the motogp scenario's profiles).
 * Geometry is merged per level with vertex colours, so one bike level is one draw call.
 */
import {
  BoxGeometry, BufferAttribute, BufferGeometry, CapsuleGeometry, Color, ConeGeometry, CylinderGeometry,
  Float32BufferAttribute, SphereGeometry, TorusGeometry,
} from 'three';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';

// The motogp scenario's stadium track (two 800 m straights, 180 m turns), as in src/simulator.
export const STRAIGHT = 800;
export const TURN_RADIUS = 180;
export const LAP = 2 * STRAIGHT + 2 * Math.PI * TURN_RADIUS;
export const SECTORS = 28;

/** Centreline point and direction at arc length `s` (XZ plane). */
export function trackPoint(s: number, lateral = 0): { x: number; z: number; dx: number; dz: number } {
  s = ((s % LAP) + LAP) % LAP;
  let x: number, z: number, dx: number, dz: number;
  const turn = Math.PI * TURN_RADIUS;
  if (s < STRAIGHT) { x = -STRAIGHT / 2 + s; z = TURN_RADIUS; dx = 1; dz = 0; }
  else if (s < STRAIGHT + turn) { const a = (s - STRAIGHT) / TURN_RADIUS; x = STRAIGHT / 2 + TURN_RADIUS * Math.sin(a); z = TURN_RADIUS * Math.cos(a); dx = Math.cos(a); dz = -Math.sin(a); }
  else if (s < 2 * STRAIGHT + turn) { x = STRAIGHT / 2 - (s - STRAIGHT - turn); z = -TURN_RADIUS; dx = -1; dz = 0; }
  else { const a = (s - 2 * STRAIGHT - turn) / TURN_RADIUS; x = -STRAIGHT / 2 - TURN_RADIUS * Math.sin(a); z = -TURN_RADIUS * Math.cos(a); dx = -Math.cos(a); dz = Math.sin(a); }
  return { x: x + dz * lateral, z: z - dx * lateral, dx, dz };
}

function paint(g: BufferGeometry, hex: string): BufferGeometry {
  const geometry = g.index !== null ? g.toNonIndexed() : g;
  const c = new Color(hex);
  const n = geometry.getAttribute('position').count;
  const colors = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) { colors[i * 3] = c.r; colors[i * 3 + 1] = c.g; colors[i * 3 + 2] = c.b; }
  geometry.setAttribute('color', new BufferAttribute(colors, 3));
  geometry.deleteAttribute('uv');
  return geometry;
}

function placed(g: BufferGeometry, x: number, y: number, z: number, rx = 0, ry = 0, rz = 0): BufferGeometry {
  if (rx) g.rotateX(rx);
  if (ry) g.rotateY(ry);
  if (rz) g.rotateZ(rz);
  return g.translate(x, y, z);
}

/**
 * A bike (travelling along +x, wheels on y = 0) with its rider. `detail` 0 = finest.
 * White parts take the material's (team) colour.
 */
export function bikeGeometry(detail: 0 | 1 | 2): BufferGeometry {
  const parts: BufferGeometry[] = [];
  if (detail === 2) {
    parts.push(paint(placed(new BoxGeometry(1.9, 0.55, 0.35), 0, 0.55, 0), '#ffffff'));
    parts.push(paint(placed(new BoxGeometry(0.62, 0.62, 0.16), 0.72, 0.31, 0), '#1b1b1b'));
    parts.push(paint(placed(new BoxGeometry(0.62, 0.62, 0.16), -0.72, 0.31, 0), '#1b1b1b'));
    parts.push(paint(placed(new BoxGeometry(0.5, 0.55, 0.4), -0.05, 1.05, 0), '#d9d9d9'));
    return mergeGeometries(parts)!;
  }
  const s = detail === 0 ? { torusR: 20, torusT: 56, cap: 10, radial: 40, sphere: 40, spokes: 12 } : { torusR: 6, torusT: 18, cap: 3, radial: 12, sphere: 12, spokes: 0 };
  for (const x of [0.72, -0.72]) {
    parts.push(paint(placed(new TorusGeometry(0.25, 0.075, s.torusR, s.torusT), x, 0.32, 0), '#161616'));
    parts.push(paint(placed(new CylinderGeometry(0.17, 0.17, 0.06, s.radial), x, 0.32, 0, Math.PI / 2), '#9a9a9a'));
    for (let k = 0; k < s.spokes; k++) {
      const a = (k / s.spokes) * Math.PI;
      parts.push(paint(placed(new BoxGeometry(0.34, 0.018, 0.018), x, 0.32, 0, 0, 0, a), '#c8c8c8'));
    }
  }
  parts.push(paint(placed(new CapsuleGeometry(0.2, 1.0, s.cap, s.radial), 0.05, 0.62, 0, 0, 0, Math.PI / 2), '#ffffff'));
  parts.push(paint(placed(new ConeGeometry(0.24, 0.55, s.radial, 1), 0.78, 0.78, 0, 0, 0, -Math.PI / 2), '#ffffff'));
  parts.push(paint(placed(new CylinderGeometry(0.05, 0.05, 0.7, Math.max(6, s.radial / 2)), 0.55, 0.55, 0, 0, 0, -0.45), '#b0b0b0'));
  parts.push(paint(placed(new CapsuleGeometry(0.17, 0.45, s.cap, s.radial), 0.0, 1.02, 0, 0, 0, -1.05), '#e6e6e6'));
  parts.push(paint(placed(new SphereGeometry(0.16, s.sphere, Math.max(6, s.sphere / 2)), 0.3, 1.24, 0), '#f4f4f4'));
  parts.push(paint(placed(new SphereGeometry(0.085, s.sphere / 2, Math.max(4, s.sphere / 4)), 0.43, 1.24, 0, 0, 0, 0).scale(1, 0.55, 1.4), '#202020'));
  parts.push(paint(placed(new CylinderGeometry(0.07, 0.09, 0.45, Math.max(6, s.radial / 2)), -0.55, 0.5, 0.18, 0, 0, Math.PI / 2.3), '#8c8c8c'));
  return mergeGeometries(parts)!;
}

/** A quad strip between two polylines, with one colour per quad. */
function strip(left: number[][], right: number[][], colorOf: (i: number) => Color, out: { p: number[]; c: number[] }): void {
  for (let i = 0; i + 1 < left.length; i++) {
    const a = left[i], b = right[i], c = right[i + 1], d = left[i + 1];
    const col = colorOf(i);
    for (const v of [a, b, c, a, c, d]) { out.p.push(v[0], v[1], v[2]); out.c.push(col.r, col.g, col.b); }
  }
}

const ASPHALT = [new Color('#3c3f44'), new Color('#43464c')];
const KERB = [new Color('#d7262e'), new Color('#f2f2f2')];
const GRASS_EDGE = new Color('#4c8a3f');
const WALL = [new Color('#1f5fbf'), new Color('#e8e8e8')];
const LINE = new Color('#f5f5f5');

/**
 * Track sector `index` of {@link SECTORS}, in world coordinates: asphalt (split into lanes at
 * detail 0), kerbs, a white edge line and a barrier wall. Returns geometry with vertex colours.
 */
export function sectorGeometry(index: number, detail: 0 | 1 | 2): BufferGeometry {
  const length = LAP / SECTORS;
  const s0 = index * length;
  const steps = detail === 0 ? Math.ceil(length / 1.5) : detail === 1 ? Math.ceil(length / 8) : 2;
  const lanes = detail === 0 ? 8 : detail === 1 ? 2 : 1;
  const half = 7;
  const out = { p: [] as number[], c: [] as number[] };
  const row = (lateral: number, y: number): number[][] => {
    const pts: number[][] = [];
    for (let i = 0; i <= steps; i++) { const p = trackPoint(s0 + (i / steps) * length, lateral); pts.push([p.x, y, p.z]); }
    return pts;
  };
  for (let l = 0; l < lanes; l++) {
    const a = -half + (2 * half * l) / lanes, b = -half + (2 * half * (l + 1)) / lanes;
    strip(row(a, 0.02), row(b, 0.02), (i) => ASPHALT[(i + l) % 2], out);
  }
  if (detail < 2) {
    const kerbColor = (i: number): Color => (detail === 0 ? KERB[i % 2] : KERB[0]);
    strip(row(half, 0.05), row(half + 1.2, 0.05), kerbColor, out);
    strip(row(-half - 1.2, 0.05), row(-half, 0.05), kerbColor, out);
    strip(row(half + 1.2, 0.03), row(half + 4, 0.03), () => GRASS_EDGE, out);
    strip(row(-half - 4, 0.03), row(-half - 1.2, 0.03), () => GRASS_EDGE, out);
  }
  if (detail === 0) {
    strip(row(half - 0.5, 0.04), row(half - 0.3, 0.04), () => LINE, out);
    strip(row(-half + 0.3, 0.04), row(-half + 0.5, 0.04), () => LINE, out);
    // Barrier wall on the outside with advertising boards.
    for (const lateral of [half + 9, -half - 9]) {
      const low = row(lateral, 0), high = row(lateral, 1.4);
      strip(low, high, (i) => WALL[Math.floor(i / 4) % 2], out);
      strip(high, low, (i) => WALL[Math.floor(i / 4) % 2], out);
    }
  } else if (detail === 1) {
    for (const lateral of [half + 9, -half - 9]) strip(row(lateral, 0), row(lateral, 1.4), () => WALL[0], out);
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(out.p, 3));
  g.setAttribute('color', new Float32BufferAttribute(out.c, 3));
  g.computeVertexNormals();
  return g;
}
