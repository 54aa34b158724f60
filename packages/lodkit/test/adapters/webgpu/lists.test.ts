/**
 * Per-(profile, level) list layout (src/adapters/webgpu/lists.ts): argument records per profile,
 * 256-byte aligned, non-overlapping id lists within the buffer bound the selector allocates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateLodProfile } from '../../../src/batch/core/profiles.js';
import { MAX_GPU_LEVELS, PROFILE_BYTES, packProfiles } from '../../../src/adapters/webgpu/index.js';
import { LIST_WORDS, layoutProfileLists, profileListArgs } from '../../../src/adapters/webgpu/lists.js';

describe('per-(profile, level) lists', () => {
  it('hand-worked: two profiles of 3 and 2 levels, 100 and 0 objects', () => {
    const profiles = [validateLodProfile({ metric: 'distance', thresholds: [10, 20] }), validateLodProfile({ metric: 'pixels', thresholds: [50] })];
    const { args, listBase } = profileListArgs(profiles, [
      [{ indexCount: 30 }, { indexCount: 12, firstIndex: 30 }, { indexCount: 3, firstIndex: 42, baseVertex: 5 }],
      [{ indexCount: 60, firstIndex: 100 }, { indexCount: 6, firstIndex: 160 }],
    ], 'test');
    expect(Array.from(listBase)).toEqual([0, 3]);
    expect(Array.from(args)).toEqual([30, 0, 0, 0, 0, 12, 0, 30, 0, 0, 3, 0, 42, 5, 0, 60, 0, 100, 0, 0, 6, 0, 160, 0, 0]);
    const bytes = packProfiles(profiles, 'test'), base = new Uint32Array(2), stride = new Uint32Array(2);
    layoutProfileLists(profiles, listBase, new Uint32Array([100, 0]), bytes, base, stride);
    expect([...base, ...stride]).toEqual([0, 3 * 128, 128, 64]); // 100 → 128 per list; an empty profile still gets 64
    const u = new Uint32Array(bytes), w = PROFILE_BYTES / 4;
    expect([u[w + LIST_WORDS.listBase], u[w + LIST_WORDS.instanceBase], u[w + LIST_WORDS.stride]]).toEqual([3, 384, 64]);
    expect(() => profileListArgs(profiles, [[{ indexCount: 1 }], []], 'test')).toThrow(/profileMeshes\[0\] must have 3 meshes/);
  });

  it('lists are aligned, disjoint, hold their profile count and fit MAX_GPU_LEVELS × (capacity + 64 × profiles)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 15 }), fc.integer({ min: 0, max: 5000 })), { minLength: 1, maxLength: 6 }), (spec) => {
      const profiles = spec.map(([t]) => validateLodProfile({ metric: 'distance', thresholds: Array.from({ length: t }, (_, j) => j + 1) }));
      const meshes = profiles.map((p) => Array.from({ length: p.levelCount }, () => ({ indexCount: 3 })));
      const { listBase } = profileListArgs(profiles, meshes, 'test');
      const counts = Uint32Array.from(spec.map(([, c]) => c));
      const base = new Uint32Array(profiles.length), stride = new Uint32Array(profiles.length);
      layoutProfileLists(profiles, listBase, counts, packProfiles(profiles, 'test'), base, stride);
      const capacity = counts.reduce((a, b) => a + b, 0);
      let end = 0;
      profiles.forEach((p, i) => {
        expect(stride[i] % 64).toBe(0);
        expect(stride[i]).toBeGreaterThanOrEqual(counts[i]);
        expect(base[i]).toBe(end); // back to back, no overlap
        end = base[i] + p.levelCount * stride[i];
      });
      expect(end).toBeLessThanOrEqual(MAX_GPU_LEVELS * (capacity + 64 * profiles.length));
    }), { numRuns: 200 });
  });
});
