/**
 * Picking through `InstancedLOD`'s level meshes: three's per-instance raycast on each drawn level,
 * each hit's slot mapped back to the instance id and reported on the `InstancedLOD` itself. The
 * level meshes' own `raycast` is a no-op ({@link noRaycast}), so a scene raycast does not report
 * slots.
 *
 * @module
 */
import { InstancedMesh, type Intersection, type Object3D, type Raycaster } from 'three';
import type { LevelSlots } from './levelSlots.js';

/** three's own per-instance raycast. */
const instancedMeshRaycast = InstancedMesh.prototype.raycast;
const scratchHits: Intersection[] = [];

/** The level meshes' `raycast`: picking goes through the owner's (it maps slots to instance ids). */
export function noRaycast(): void { /* see raycastLevels */ }

/** Raycasts levels `0 … levelCount − 1` of `slots`; hits carry `object = owner`, `instanceId` = the instance id. */
export function raycastLevels(owner: Object3D, slots: readonly LevelSlots[], levelCount: number, raycaster: Raycaster, intersects: Intersection[]): void {
  for (let l = 0; l < levelCount; l++) {
    const s = slots[l], mesh = s.mesh!;
    if (s.count === 0) continue;
    scratchHits.length = 0;
    mesh.updateMatrixWorld();
    instancedMeshRaycast.call(mesh, raycaster, scratchHits);
    for (const hit of scratchHits) {
      hit.instanceId = s.owners[hit.instanceId as number];
      hit.object = owner;
      intersects.push(hit);
    }
  }
  scratchHits.length = 0;
}
