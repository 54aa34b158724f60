/**
 * Axis-aligned extents (OpenUSD's `GfRange3d`), validated once at the API boundary.
 *
 * @module
 */
import type { Mat4Like, Vec3Like } from '../metrics/vector.js';

/** An axis-aligned box `{min: [x, y, z], max: [x, y, z]}`; min > max on any axis means empty. @category Heuristics */
export interface Extent {
  min: Vec3Like;
  max: Vec3Like;
}

/** Copies and validates an extent into a `Float64Array(6)` `[minX, minY, minZ, maxX, maxY, maxZ]`. @internal */
export function readExtent(extent: Extent, owner: string, field = 'extent'): Float64Array {
  if (extent == null || typeof extent !== 'object') throw new RangeError(`${owner}: ${field} must be {min: [x, y, z], max: [x, y, z]}`);
  const out = new Float64Array(6);
  const parts: Array<['min' | 'max', number]> = [['min', 0], ['max', 3]];
  for (const [key, offset] of parts) {
    const v = extent[key];
    if (v == null || typeof v.length !== 'number' || v.length < 3) throw new RangeError(`${owner}: ${field}.${key} must be an array of 3 numbers`);
    for (let i = 0; i < 3; i++) {
      if (typeof v[i] !== 'number' || !Number.isFinite(v[i])) throw new RangeError(`${owner}: ${field}.${key}[${i}] must be a finite number, got ${String(v[i])}`);
      out[offset + i] = v[i];
    }
  }
  return out;
}

/** True when min > max on any axis (`GfRange3d::IsEmpty`). @internal */
export function isEmptyExtent(e: Float64Array): boolean {
  return e[0] > e[3] || e[1] > e[4] || e[2] > e[5];
}

/** Throws unless `m` is 16 finite numbers. Cheap enough for per-call API checks. @internal */
export function checkMatrix(m: Mat4Like, owner: string, field = 'transform'): void {
  if (m == null || typeof m.length !== 'number' || m.length < 16) throw new RangeError(`${owner}: ${field} must be 16 numbers (column-major)`);
  for (let i = 0; i < 16; i++) {
    if (!Number.isFinite(m[i])) throw new RangeError(`${owner}: ${field}[${i}] must be a finite number, got ${String(m[i])}`);
  }
}
