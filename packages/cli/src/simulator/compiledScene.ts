/**
 * A validated scene flattened into typed arrays: one bounding sphere and one profile index per
 * object (single objects first, then each group's instances, in file order), plus the keyframed
 * motion of moving objects.
 *
 * Contributor notes:
 * - Extents become their circumscribed sphere (centre = box centre, radius = half the diagonal):
 *   conservative, so an extent never looks smaller than it is and never gets too coarse a level.
 * - Motion keys of all movers live in two shared arrays (`motionTimes`, `motionCenters`) with a
 *   per-mover start/count; sampling is a binary search per mover per frame (20 bikes: nothing).
 *
 * @module
 */
import type { Scene } from './sceneFormat.js';

/** A scene in typed arrays, ready to simulate. @category Simulator */
export interface CompiledScene {
  readonly scene: Scene;
  /** Profile names; an object's profile index points in here. */
  readonly profileNames: readonly string[];
  /** Number of objects. */
  readonly count: number;
  /** `x, y, z, r` per object at the start (movers: their first motion key). */
  readonly spheres: Float32Array;
  /** Profile index per object. */
  readonly profileOf: Uint16Array;
  /** Object ids of moving objects. */
  readonly movers: Uint32Array;
  /** Per mover: first key index in `motionTimes`. */
  readonly motionStart: Uint32Array;
  /** Per mover: number of keys. */
  readonly motionCount: Uint32Array;
  readonly motionTimes: Float64Array;
  /** `x, y, z` per motion key. */
  readonly motionCenters: Float64Array;
  /** Largest level count of any profile. */
  readonly maxLevels: number;
  /** Objects per profile. */
  readonly objectsPerProfile: Uint32Array;
}

function extentSphere(min: readonly number[], max: readonly number[], out: Float32Array, o: number): void {
  out[o] = (min[0] + max[0]) / 2;
  out[o + 1] = (min[1] + max[1]) / 2;
  out[o + 2] = (min[2] + max[2]) / 2;
  out[o + 3] = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2;
}

/**
 * Flattens a validated scene into typed arrays.
 * @example
 * ```ts
 * const compiled = compileScene(parseScene(json));
 * compiled.count; // objects + all group instances
 * ```
 * @category Simulator
 */
export function compileScene(scene: Scene): CompiledScene {
  const profileNames = Object.keys(scene.profiles);
  const profileIndex = new Map(profileNames.map((n, i) => [n, i]));
  let count = scene.objects.length;
  for (const g of scene.groups) count += g.spheres ? g.spheres.length / 4 : g.extents!.length;
  const spheres = new Float32Array(count * 4);
  const profileOf = new Uint16Array(count);
  const objectsPerProfile = new Uint32Array(profileNames.length);
  const movers: number[] = [];
  const motionStart: number[] = [];
  const motionCount: number[] = [];
  const times: number[] = [];
  const centers: number[] = [];
  let id = 0;
  for (const o of scene.objects) {
    const p = profileIndex.get(o.profile)!;
    profileOf[id] = p;
    objectsPerProfile[p]++;
    const base = id * 4;
    if (o.extent) {
      extentSphere(o.extent.min, o.extent.max, spheres, base);
    } else {
      const c = o.center ?? o.motion![0].center;
      spheres[base] = c[0]; spheres[base + 1] = c[1]; spheres[base + 2] = c[2]; spheres[base + 3] = o.radius!;
      if (o.motion) {
        movers.push(id);
        motionStart.push(times.length);
        motionCount.push(o.motion.length);
        for (const k of o.motion) { times.push(k.time); centers.push(k.center[0], k.center[1], k.center[2]); }
      }
    }
    id++;
  }
  for (const g of scene.groups) {
    const p = profileIndex.get(g.profile)!;
    if (g.spheres) {
      spheres.set(g.spheres, id * 4);
      const n = g.spheres.length / 4;
      profileOf.fill(p, id, id + n);
      objectsPerProfile[p] += n;
      id += n;
    } else {
      for (const e of g.extents!) {
        extentSphere(e.min, e.max, spheres, id * 4);
        profileOf[id] = p;
        objectsPerProfile[p]++;
        id++;
      }
    }
  }
  let maxLevels = 1;
  for (const n of profileNames) maxLevels = Math.max(maxLevels, scene.profiles[n].thresholds.length + 1);
  return {
    scene, profileNames, count, spheres, profileOf, maxLevels, objectsPerProfile,
    movers: Uint32Array.from(movers), motionStart: Uint32Array.from(motionStart), motionCount: Uint32Array.from(motionCount),
    motionTimes: Float64Array.from(times), motionCenters: Float64Array.from(centers),
  };
}

/**
 * Writes mover `m`'s centre at time `t` into `out[0..2]` (linear between keys, held outside them).
 * @example
 * ```ts
 * sampleMotion(compiled, 0, 1.5, center);
 * ```
 * @category Simulator
 */
export function sampleMotion(c: CompiledScene, m: number, t: number, out: Float64Array): Float64Array {
  const start = c.motionStart[m], n = c.motionCount[m];
  const times = c.motionTimes, centers = c.motionCenters;
  let k: number;
  if (n === 1 || t <= times[start]) k = start;
  else if (t >= times[start + n - 1]) k = start + n - 1;
  else {
    let lo = start, hi = start + n - 1; // times[lo] <= t < times[hi]
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= t) lo = mid; else hi = mid;
    }
    const s = (t - times[lo]) / (times[hi] - times[lo]);
    const a = lo * 3, b = hi * 3;
    out[0] = centers[a] + (centers[b] - centers[a]) * s;
    out[1] = centers[a + 1] + (centers[b + 1] - centers[a + 1]) * s;
    out[2] = centers[a + 2] + (centers[b + 2] - centers[a + 2]) * s;
    return out;
  }
  out[0] = centers[k * 3]; out[1] = centers[k * 3 + 1]; out[2] = centers[k * 3 + 2];
  return out;
}
