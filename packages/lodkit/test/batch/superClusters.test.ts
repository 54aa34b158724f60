/**
 * Blocks of 16 clusters culled whole (src/batch/superClusters.ts):
 * - soundness, checked against the per-cluster test written out here: whenever a block is culled,
 *   every live cluster in it lies wholly outside some plane of every view (fast-check over
 *   scenes and cameras, also after edits refit some clusters);
 * - identity: a walk over a field of 20,000 objects whose blocks leave and enter the view (also all
 *   at once, looking back), with edits that move objects between blocks and make spheres invalid, gives every frame the same levels, blend, changed set
 *   and stats under every policy as the per-object path (`clusters: false`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LodSet, type LodUpdateOptions, type LodView } from '../../src/batch/lodSet.js';
import { engineOf } from '../../src/batch/engineSeam.js';
import type { ClusterIndex } from '../../src/batch/spatial/clusters.js';
import { SUPER_SIZE } from '../../src/batch/spatial/blocks.js';
import { superCulled } from '../../src/batch/spatial/blockCulling.js';
import { setWasmKernels } from '../../src/batch/wasm/wasmKernels.js';
import { lcg, yawView } from './helpers.js';

/** A jittered grid of `side × side` objects, `spacing` apart, radius 0.5–3. */
function field(side: number, spacing: number, seed: number): Float32Array {
  const rand = lcg(seed), out = new Float32Array(side * side * 4);
  for (let i = 0; i < side * side; i++) {
    out[i * 4] = ((i % side) - side / 2) * spacing + rand() * spacing * 0.5;
    out[i * 4 + 1] = rand() * 3;
    out[i * 4 + 2] = (Math.floor(i / side) - side / 2) * spacing + rand() * spacing * 0.5;
    out[i * 4 + 3] = 0.5 + rand() * 2.5;
  }
  return out;
}

/** The per-cluster culling rule: outside some plane (n·c + w < −R) of every view. */
function clusterOutside(ci: ClusterIndex, c: number, views: readonly LodView[]): boolean {
  const o = c * 6, x = ci.bounds[o], y = ci.bounds[o + 1], z = ci.bounds[o + 2], R = ci.bounds[o + 3];
  return views.every((v) => {
    const p = v.frustum.planes;
    for (let j = 0; j < 24; j += 4) if (p[j] * x + p[j + 1] * y + p[j + 2] * z + p[j + 3] < -R) return true;
    return false;
  });
}

describe('blocks of clusters culled whole', () => {
  it('a culled block holds only clusters that are culled by their own test (fast-check)', () => {
    let culledBlocks = 0, checkedClusters = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }), fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), fc.constantFrom(1, 1, 1, 2, 3),
      fc.array(fc.record({ k: fc.nat(), dx: fc.double({ min: -80, max: 80, noNaN: true }) }), { maxLength: 20 }),
      (seed, yaw, viewCount, moves) => {
        const set = new LodSet(64), data = field(192, 3, seed);
        set.addMany(data, set.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], costs: [40, 10, 3, 1] }));
        const rand = lcg(seed + 1);
        const views = Array.from({ length: viewCount }, () => yawView([(rand() - 0.5) * 200, 2 + rand() * 20, (rand() - 0.5) * 200], yaw + rand() * 0.5, rand() < 0.2));
        set.update(views, { policy: 'thresholds' });
        for (const m of moves) { const id = m.k % set.count, s = set.spheres; set.setSphere(id, s[id * 4] + m.dx, s[id * 4 + 1], s[id * 4 + 2], s[id * 4 + 3]); }
        set.update(views, { policy: 'thresholds' }); // refits the moved clusters and their blocks
        const { ci, cv } = engineOf(set);
        for (let first = 0; first < ci.count; first += SUPER_SIZE) {
          if (superCulled(ci, cv, first / SUPER_SIZE) === 0) continue;
          culledBlocks++;
          for (let c = first; c < Math.min(first + SUPER_SIZE, ci.count); c++) {
            if (ci.live[c] === 0) continue;
            checkedClusters++;
            if (!clusterOutside(ci, c, views)) throw new Error(`seed ${seed}: block ${first / SUPER_SIZE} culled, cluster ${c} is not`);
          }
        }
      }), { numRuns: 60 });
    // (40 cases gave 193–217 blocks, 3,088–3,472 clusters in 4 runs; 60 are run)
    expect(culledBlocks).toBeGreaterThan(150);
    expect(checkedClusters).toBeGreaterThan(2000);
  });

  for (const wasm of [true, false]) it(`walk over 20,000 objects, every policy, edits across blocks = per-object path, ${wasm ? 'with' : 'without'} WebAssembly`, () => {
    setWasmKernels(wasm);
    const a = new LodSet(64), b = new LodSet(64);
    setWasmKernels(true);
    const data = field(140, 2.5, 3);
    for (const s of [a, b]) {
      s.addProfile({ metric: 'screenHeight', thresholds: [0.3, 0.1, 0.03], blendThresholds: [0.25, 0.08], costs: [900, 300, 60, 8] });
      s.addProfile({ metric: 'pixels', thresholds: [120, 30], costs: [600, 150, 20], errors: [0.001, 0.01, 0.05] });
      s.addMany(data.subarray(0, 40_000), 0);
      s.addMany(data.subarray(40_000), 1);
    }
    const policies: LodUpdateOptions[] = [
      { policy: 'thresholds', hysteresis: 0.1 }, { policy: 'rankQuota', quotas: [50, 500, 5000] },
      { policy: 'budget', budget: 400_000 }, { policy: 'hybrid', budget: 400_000, hysteresis: 0.1 },
    ];
    let culledBlocks = 0;
    for (let f = 0; f < 48; f++) {
      // Turning in place, then walking: whole blocks leave and enter the view; every eighth frame
      // looks back, so blocks of visible objects are culled whole at once.
      const yaw = f * 0.13 + ((f & 7) === 5 ? Math.PI : 0), eye = [f < 24 ? 0 : (f - 24) * 4, 3, f < 24 ? 0 : (f - 24) * 3];
      const v = yawView(eye, yaw, false);
      const options = policies[(f >> 2) % policies.length];
      const ra = a.update(v, options), rb = b.update(v, { ...options, clusters: false });
      const label = `frame ${f} ${options.policy}`;
      for (let i = 0; i < a.count; i++) {
        if (a.levels[i] !== b.levels[i] || !Object.is(a.blend[i], b.blend[i])) throw new Error(`${label}: id ${i} level ${a.levels[i]} / ${b.levels[i]}`);
      }
      const changed = (s: LodSet) => Array.from(s.changed.subarray(0, s.changedCount)).sort((x, y) => x - y);
      expect(changed(a), label).toEqual(changed(b));
      expect([ra.totalCost, ra.minimumCost, ra.hidden, ra.invalid, ra.changes], label).toEqual([rb.totalCost, rb.minimumCost, rb.hidden, rb.invalid, rb.changes]);
      expect(Array.from(ra.levelCounts), label).toEqual(Array.from(rb.levelCounts));
      const { ci, cv } = engineOf(a);
      for (let first = 0; first < ci.count; first += SUPER_SIZE) culledBlocks += superCulled(ci, cv, first / SUPER_SIZE);
      // Edits: an object moved far (its cluster and block refit), one hidden, one removed and re-added.
      const id = (f * 7919) % a.count;
      for (const s of [a, b]) {
        const p = s.spheres;
        s.setSphere(id, p[id * 4] + (f & 1 ? 150 : -150), p[id * 4 + 1], p[id * 4 + 2] + 40, p[id * 4 + 3]);
        if (f % 3 === 0) s.setHidden((id + 11) % s.count, f % 2 === 0);
        if (f % 7 === 3) s.setSphere((id + 5) % s.count, Number.NaN, 0, 0, 1); // an invalid sphere: its block is never culled whole
        if (f % 5 === 0) { s.remove((id + 23) % s.count); s.add({ center: [eye[0] + 10, 1, eye[2] + 10], radius: 1, profile: 0 }); }
      }
    }
    expect(culledBlocks).toBeGreaterThan(40); // not vacuous: blocks were culled whole in most frames
  }, 60_000);
});
