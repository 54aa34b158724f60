/**
 * The three.js peer of the batch benches: `count` `THREE.LOD`s on the first spheres of a scene's
 * data (distance LOD with 4 levels at the screen-height thresholds' distances for `meanRadius`, one
 * empty `Object3D` per level), updated with a camera placed at a lodkit view's pose.
 */
import * as THREE from 'three';
import type { LodView } from '../src/batch/lodSet.js';
import { peerDistances } from './scenes.js';

export interface ThreePeer {
  /** The distances of levels 1–3. */
  distances: number[];
  /** One `LOD.update` of every object with the camera at `view`'s pose. */
  update(view: LodView): void;
}

export function threePeer(data: Float32Array, count: number, meanRadius: number): ThreePeer {
  const camera = new THREE.PerspectiveCamera(75, 16 / 9, 0.1, 3000);
  const distances = peerDistances(meanRadius);
  const lods: THREE.LOD[] = [];
  for (let i = 0; i < count; i++) {
    const lod = new THREE.LOD();
    lod.addLevel(new THREE.Object3D(), 0);
    for (const dist of distances) lod.addLevel(new THREE.Object3D(), dist);
    lod.position.set(data[i * 4], data[i * 4 + 1], data[i * 4 + 2]);
    lod.updateMatrixWorld(true);
    lods.push(lod);
  }
  return {
    distances,
    update(view: LodView): void {
      const f = view.frustum;
      camera.position.set(f.position[0], f.position[1], f.position[2]);
      camera.quaternion.set(f.rotation[0], f.rotation[1], f.rotation[2], f.rotation[3]);
      camera.updateMatrixWorld(true);
      for (let i = 0; i < lods.length; i++) lods[i].update(camera);
    },
  };
}
