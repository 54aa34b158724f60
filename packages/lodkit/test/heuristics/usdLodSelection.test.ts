import { describe, expect, it } from 'vitest';
import {
  compileUsdLodRoot, computeUsdLodOverride, Frustum, usdAncestorPaths, usdLodItemIndex,
  type UsdLodHeuristicData, type UsdLodOverrideData, type UsdLodRootData,
} from '../../src/index.js';

/**
 * OpenUSD's testUsdLodGetLod.cpp, replayed step by step on plain data. Expected values are the
 * ones that test asserts, each worked by hand below. Scene: /World/Root with LODRootAPI,
 * lod:default:index = 2; heuristics targeted in the order random (a Scope), dist, size; the
 * default GfFrustum (eye at the origin looking down −Z, window ±1, near 1, far 10); identity
 * transform; the renderer's domain is "imaging".
 */
describe('usdLod selection — OpenUSD GetLod test, by hand', () => {
  const random: UsdLodHeuristicData = { type: 'Scope', path: '/World/Heuristics/random' };
  const dist = { type: 'LODDistanceHeuristic' as const, path: '/World/Heuristics/dist', domain: 'audio', center: [0, 0, -5], thresholds: [4, 10], blendThresholds: [6, 12] };
  const size = {
    type: 'LODScreenSizeHeuristic' as const, path: '/World/Heuristics/size', domain: 'audio',
    extent: { min: [0, 0, -4], max: [2, 2, -2] }, thresholds: [0.99, 0.3, 0.1], blendThresholds: [0.75, 0.2], projectionMethod: 'projectedExtent',
  };
  const perspective = new Frustum();
  const orthographic = new Frustum({ projection: 'orthographic' });
  const lodOf = (root: UsdLodRootData, frustum: Frustum, overrides?: Record<string, UsdLodOverrideData>) => {
    const s = compileUsdLodRoot(root, { overrides }).select(frustum);
    return s.decision === 'noLOD' ? 'noLOD' : s.decision === 'allLOD' ? 'allLOD' : s.lod;
  };

  it('default index, junk target and other-domain heuristics leave lod:default:index', () => {
    expect(lodOf({ path: '/World/Root', defaultIndex: 2 }, perspective)).toBe(2); // "basic default test"
    expect(lodOf({ path: '/World/Root', defaultIndex: 2, heuristics: [random] }, perspective)).toBe(2); // "junk heuristic"
    expect(lodOf({ path: '/World/Root', defaultIndex: 2, heuristics: [random, dist] }, perspective)).toBe(2); // audio distance
    expect(lodOf({ path: '/World/Root', defaultIndex: 2, heuristics: [random, dist, size] }, perspective)).toBe(2); // audio size
  });

  it('an imaging screen-size heuristic: 1.5 in perspective, 0 in orthographic', () => {
    const root = { path: '/World/Root', defaultIndex: 2, heuristics: [random, dist, { ...size, domain: 'imaging' }] };
    // Perspective: the box spans z ∈ [−4, −2] in front of the near plane (z = −1). Its near face
    // (z = −2) projects to NDC [0, 1]², the far face to [0, 0.5]²: the hull is the unit square,
    // area 1 of the NDC square's 4 → size 0.25. Thresholds (float32) 0.99, 0.30, 0.10: 0.25 is
    // ≤ 0.30 and > 0.10 → between LOD 1 and 2, inside blend window (0.30, 0.20]:
    // 1 + (0.25 − 0.30) / (0.20 − 0.30) = 1.5.
    expect(lodOf(root, perspective)).toBe(1.5);
    // Orthographic (window ±1 in world units): the box covers NDC [0, 2]², area 4 → size 1.0 > 0.99 → 0.
    expect(lodOf(root, orthographic)).toBe(0);
  });

  const both = { path: '/World/Root', defaultIndex: 2, heuristics: [random, { ...dist, domain: 'imaging' }, { ...size, domain: 'imaging' }] };

  it('the first imaging target in relationship order decides: distance 0.5', () => {
    // Eye (0, 0, 0), centre (0, 0, −5): distance 5 ∈ [4, 6) → blending 0 → 1 by (5 − 4) / (6 − 4) = 0.5.
    const s = compileUsdLodRoot(both).select(orthographic);
    expect(s).toEqual({ decision: 'heuristic', lod: 0.5, heuristic: 1, value: 5 });
    expect(lodOf(both, perspective)).toBe(0.5);
  });

  it('UsdLodOverrideAPI on /World: empty, noLOD, allLOD, indexedLOD, inherited, indexed again, removed', () => {
    const world = (o: UsdLodOverrideData | undefined): Record<string, UsdLodOverrideData> => (o === undefined ? {} : { '/World': o });
    expect(lodOf(both, perspective, world({ index: 3.14159 }))).toBe(0.5); // "empty override API": no mode authored
    expect(lodOf(both, perspective, world({ mode: 'noLOD', index: 3.14159 }))).toBe('noLOD');
    expect(lodOf(both, perspective, world({ mode: 'allLOD', index: 3.14159 }))).toBe('allLOD');
    expect(lodOf(both, perspective, world({ mode: 'indexedLOD', index: 3.14159 }))).toBe(Math.fround(3.14159)); // a float attribute
    expect(lodOf(both, perspective, world({ mode: 'inherited', index: 3.14159 }))).toBe(0.5);
    expect(lodOf(both, perspective, world({ mode: 'indexedLOD', index: 3.14159 }))).toBe(Math.fround(3.14159));
    expect(lodOf(both, perspective, world(undefined))).toBe(0.5); // "after remove override API"
  });
});

describe('usdLod selection — the rules beyond the GetLod test', () => {
  it('walks the namespace path from the root upward, the nearest authored non-inherited mode wins', () => {
    expect(usdAncestorPaths('/A/B/C')).toEqual(['/A/B/C', '/A/B', '/A']);
    // chain[0] is the root itself: its noOverride ends the walk before the parent's noLOD.
    expect(computeUsdLodOverride([{ mode: 'noOverride' }, { mode: 'noLOD' }])).toEqual({ mode: 'noOverride', index: NaN });
    expect(computeUsdLodOverride([{ mode: 'inherited' }, undefined, { mode: 'allLOD' }])).toEqual({ mode: 'allLOD', index: NaN });
    expect(computeUsdLodOverride([])).toEqual({ mode: 'noOverride', index: NaN });
    // indexedLOD with an unauthored index takes the schema default 0.
    expect(computeUsdLodOverride([{ mode: 'indexedLOD' }])).toEqual({ mode: 'indexedLOD', index: 0 });
  });

  it('a failed index read counts as inherited and the walk goes on', () => {
    expect(computeUsdLodOverride([{ mode: 'indexedLOD', index: null }, { mode: 'indexedLOD', index: 1.25 }])).toEqual({ mode: 'indexedLOD', index: 1.25 });
    expect(computeUsdLodOverride([{ mode: 'indexedLOD', index: 'x' as never }])).toEqual({ mode: 'noOverride', index: NaN });
  });

  it('an unknown override token or an unreadable default index is invalid', () => {
    const root = { path: '/R', defaultIndex: 1 };
    expect(compileUsdLodRoot(root, { overrides: new Map([['/R', { mode: 'bogus' }]]) }).select(new Frustum()).decision).toBe('invalid');
    expect(compileUsdLodRoot({ path: '/R', defaultIndex: null }).select(new Frustum()).decision).toBe('invalid');
    expect(compileUsdLodRoot({ path: '/R' }).select(new Frustum())).toEqual({ decision: 'default', lod: 0, heuristic: -1, value: NaN }); // schema default 0
  });

  it('schema defaults: screen-size extent ±1, projectedSphere; an unknown projectionMethod measures as projectedExtent', () => {
    const h = compileUsdLodRoot({ path: '/R', heuristics: [{ type: 'LODScreenSizeHeuristic', domain: 'imaging' }] });
    expect(Array.from((h.heuristic as { extent: Float64Array }).extent)).toEqual([-1, -1, -1, 1, 1, 1]);
    expect((h.heuristic as { projection: string }).projection).toBe('projectedSphere');
    expect(h.select(new Frustum({ position: [0, 0, 5] })).lod).toBe(0); // no thresholds: always LOD 0
    const bad = compileUsdLodRoot({ path: '/R', heuristics: [{ type: 'LODScreenSizeHeuristic', domain: 'imaging', projectionMethod: 'fisheye' }] });
    expect((bad.heuristic as { projection: string }).projection).toBe('projectedExtent');
    expect(bad.warnings[0]).toMatch(/fisheye/);
  });

  it('the distance extent comes only from the first boundingVolume target with an extent, in float32', () => {
    const root = (boundingVolume: Array<{ min: number[]; max: number[] } | null> | undefined) => compileUsdLodRoot({
      path: '/R', heuristics: [{ type: 'LODDistanceHeuristic', domain: 'imaging', center: [0, 0, -5], boundingVolume, thresholds: [4.5] }],
    });
    // No bounding volume: distance to the centre, 5 ≥ 4.5 → LOD 1.
    expect(root(undefined).select(new Frustum()).lod).toBe(1);
    // First target is not Boundable (null), second box reaches z = −4: distance 4 < 4.5 → LOD 0.
    expect(root([null, { min: [-1, -1, -6], max: [1, 1, -4] }, { min: [0, 0, -9], max: [0, 0, -9] }]).select(new Frustum()).lod).toBe(0);
    const h = root([{ min: [0.1, 0, -6], max: [1, 1, -4] }]).heuristic as { extent: Float64Array };
    expect(h.extent[0]).toBe(Math.fround(0.1));
  });

  it('names the root and the target when a chosen heuristic is invalid; skips targets without a domain', () => {
    expect(() => compileUsdLodRoot({ path: '/R', heuristics: [{ type: 'LODDistanceHeuristic', path: '/H', domain: 'imaging', thresholds: [5, 4] }] }))
      .toThrow(/\/R lod:heuristics\[0\] \(\/H\).*thresholds\[1\]/);
    const r = compileUsdLodRoot({ path: '/R', defaultIndex: 1, heuristics: [{ type: 'LODDistanceHeuristic', thresholds: [5, 4] }] });
    expect(r.select(new Frustum()).decision).toBe('default'); // lod:domain has no default: never chosen
    expect(compileUsdLodRoot({ path: '/R', heuristics: [{ type: 'LODDistanceHeuristic', domain: 'physics', thresholds: [1] }] }, { domain: 'physics' }).heuristicIndex).toBe(0);
  });

  it("input 'openusd' evaluates unsorted thresholds as OpenUSD does (std::upper_bound)", () => {
    const root = { path: '/R', heuristics: [{ type: 'LODDistanceHeuristic', domain: 'imaging', center: [0, 0, -5], thresholds: [10, 2, 30] }] };
    expect(() => compileUsdLodRoot(root)).toThrow(/thresholds/);
    // Distance 5: the search looks at 2 (5 < 2? no), then 30 (5 < 30) → index 2.
    expect(compileUsdLodRoot(root, { input: 'openusd' }).select(new Frustum()).lod).toBe(2);
  });

  it('passes prev and hysteresis to the deciding heuristic (distance: clamp into [d − h, d + h])', () => {
    const root = compileUsdLodRoot({ path: '/R', heuristics: [{ type: 'LODDistanceHeuristic', domain: 'imaging', center: [0, 0, -5], thresholds: [4, 10], blendThresholds: [6, 12] }] });
    // Distance 5, previous 3.5, band 1: clamped up to 4 → exactly the first threshold → blend start 0.
    const s = root.select(new Frustum(), undefined, 3.5, 1);
    expect([s.value, s.lod]).toEqual([4, 0]);
    expect(root.select(new Frustum(), undefined, 5.2, 1).value).toBe(5.2); // inside the band: kept
  });

  it('item index: round and clamp into the items', () => {
    expect([usdLodItemIndex(1.5, 3), usdLodItemIndex(3.14159, 3), usdLodItemIndex(-2, 3), usdLodItemIndex(NaN, 3), usdLodItemIndex(0, 0)]).toEqual([2, 2, 0, -1, -1]);
  });
});
