/**
 * Where `sizes` lives (clusters.ts `sizesS`): the clustered thresholds frames of the fused kernel
 * keep it in slot order and the public id-ordered array is refreshed when read. Against a set
 * without WebAssembly (id-ordered all along, the reference): `sizes` read only now and then, read
 * twice, objects removed, added and moved while the values live in slot order, hybrid, budget
 * and rankQuota frames in between (slot order too; the JavaScript set's all by id), a set grown in between.
 */
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions } from '../../src/batch/lodSet.js';
import { engineOf, newLodSet } from '../../src/batch/engineSeam.js';
import { lcg, randomSpheres, yawView } from './helpers.js';

const PROFILE = { metric: 'screenHeight' as const, thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08, 0.02], costs: [5000, 1200, 300, 40] };
const ciOf = (s: LodSet) => engineOf(s).ci;

function pair(): [LodSet, LodSet] {
  const fused = newLodSet(256, { wasm: true });
  const reference = newLodSet(256, { wasm: false });
  return [fused, reference];
}

function expectSameSizes(a: LodSet, b: LodSet, label: string): void {
  const sa = a.sizes, sb = b.sizes;
  for (let i = 0; i < a.count; i++) {
    if (!Object.is(sa[i], sb[i])) throw new Error(`${label}: id ${i} size ${sa[i]} / ${sb[i]}`);
  }
}

describe('sizes in slot order', () => {
  it('equals the id-ordered reference whenever it is read, across edits, growth and other policies', () => {
    const sets = pair();
    const rand = lcg(7);
    const spheres = randomSpheres(3000, 11, 150);
    for (const s of sets) s.addMany(spheres, s.addProfile(PROFILE));
    const thresholds: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.15 };
    let slotFrames = 0;
    for (let k = 0; k < 40; k++) {
      const view = yawView([Math.sin(k * 0.3) * 40, 6, 30 - k * 2], k * 0.07, false);
      const options: LodUpdateOptions = k % 13 === 9 ? { policy: 'hybrid', budget: 400_000, hysteresis: 0.15 }
        : k % 11 === 5 ? { policy: 'budget', budget: 400_000 } : k % 17 === 8 ? { policy: 'rankQuota', quotas: [50, 400] } : thresholds;
      for (const s of sets) s.update(view, options);
      if (ciOf(sets[0]).sizesInSlots) slotFrames++;
      for (let i = 0; i < sets[0].count; i++) expect(sets[0].levels[i], `frame ${k} id ${i}`).toBe(sets[1].levels[i]);
      if (k % 5 === 4 || options !== thresholds) { expectSameSizes(sets[0], sets[1], `frame ${k}`); expectSameSizes(sets[0], sets[1], `frame ${k} again`); }
      if (k % 7 === 3) { // edits while the values live in slot order
        const id = Math.floor(rand() * sets[0].count);
        for (const s of sets) s.remove(id);
        const moved = (id + 17) % sets[0].count;
        for (const s of sets) s.setSphere(moved, 5, 2, -20, 3);
        const center = [rand() * 20, 1, -rand() * 40], radius = 1 + rand();
        for (const s of sets) s.add({ center, radius, profile: 0 });
      }
      if (k === 20) { const more = randomSpheres(2000, 13, 150); for (const s of sets) s.addMany(more, 0); } // grows the set
    }
    expectSameSizes(sets[0], sets[1], 'last frame');
    expect(slotFrames).toBeGreaterThan(30); // the fused set really kept its sizes in slot order
    expect(ciOf(sets[1]).sizesInSlots).toBe(false);
  });
});
