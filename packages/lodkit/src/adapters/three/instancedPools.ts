/**
 * The pools of an `InstancedLOD` (instancedLOD.ts): one `LevelSlots` per level, one for the
 * off-screen shadow casters, the shadow copies, and the CPU-only pool of instances drawn nowhere,
 * with their meshes set up; and the upload accounting summed over them. Kept apart so the class
 * module holds the frame logic.
 *
 * @module
 */
import type { InstancedMesh, Sphere } from 'three';
import { LevelSlots } from './levelSlots.js';
import { ShadowCopies } from './shadowCopies.js';
import { noRaycast } from './levelRaycast.js';
import type { InstancedLODLevel, InstancedUploadStats } from './instancedLODOptions.js';

/** The pools and the meshes to add as children (levels, shadow casters, shadow copies). */
export interface InstancedPools { slots: LevelSlots[]; copies: ShadowCopies; meshes: InstancedMesh[] }

/**
 * `slots[0 … L)` the levels, `slots[L]` the shadow casters (the `shadowLevel`'s geometry, on
 * `shadowLayer`), `slots[L + 1]` the CPU-only pool where every instance starts. Every mesh shares
 * `bounds` and is picked through `InstancedLOD.raycast` (which maps slots to instance ids).
 */
export function makeInstancedPools(levels: readonly InstancedLODLevel[], shadowLevel: number, shadowLayer: number, capacity: number, bounds: Sphere): InstancedPools {
  const perLevel = Math.min(capacity, 1024), shadow = levels[shadowLevel];
  const slots = levels.map((l) => new LevelSlots(l.geometry, l.material, perLevel));
  slots.push(new LevelSlots(shadow.geometry, shadow.material, 16));
  const copies = new ShadowCopies(shadow.geometry, shadow.material);
  const meshes = [...slots, copies.pool].map((s) => s.mesh!);
  meshes.forEach((m, i) => {
    m.name = i < levels.length ? `InstancedLOD level ${i}` : i === levels.length ? 'InstancedLOD shadow casters' : 'InstancedLOD shadow copies';
    if (i >= levels.length) { m.layers.set(shadowLayer); m.castShadow = true; }
    m.boundingSphere = bounds;
    m.raycast = noRaycast;
  });
  slots.push(new LevelSlots(null, null, capacity));
  return { slots, copies, meshes };
}

/** Upload accounting summed over the level meshes, the shadow casters and the shadow copies. */
export function uploadStatsOf(slots: readonly LevelSlots[], levelCount: number, copies: ShadowCopies): InstancedUploadStats {
  const c = copies.pool;
  let bytes = c.bytes, ranges = c.ranges, growthBytes = c.growthBytes;
  for (let k = 0; k <= levelCount; k++) { const s = slots[k]; bytes += s.bytes; ranges += s.ranges; growthBytes += s.growthBytes; }
  return { bytes, ranges, growthBytes };
}
