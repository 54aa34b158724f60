/**
 * Seeded scenes for the CPU-side WebGPU tests: `per` spheres for each profile (x, z in ±500 m, y in
 * 0–40 m, radius 0.5–5 m), added to a `LodSet` one profile after another, and the same spheres and
 * profile ids as flat arrays for the float32 reference.
 */
import { LodSet } from '../../../src/batch/lodSet.js';
import type { LodProfileOptions } from '../../../src/batch/core/profiles.js';

export interface ProfileScene { spheres: Float32Array; ids: Uint32Array; set: LodSet }

export function profileScene(seed: number, per: number, profiles: readonly LodProfileOptions[]): ProfileScene {
  let s = seed;
  const rnd = () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
  const n = per * profiles.length;
  const spheres = new Float32Array(n * 4), ids = new Uint32Array(n);
  const set = new LodSet();
  for (let p = 0; p < profiles.length; p++) {
    const id = set.addProfile(profiles[p]);
    const block = new Float32Array(per * 4);
    for (let i = 0; i < per; i++) {
      block[4 * i] = (rnd() - 0.5) * 1000; block[4 * i + 1] = rnd() * 40; block[4 * i + 2] = (rnd() - 0.5) * 1000; block[4 * i + 3] = 0.5 + rnd() * 4.5;
    }
    set.addMany(block, id);
    spheres.set(block, p * per * 4);
    ids.fill(p, p * per, (p + 1) * per);
  }
  return { spheres, ids, set };
}
