/**
 * `sceneFromGltf`: the scene made from a glTF file's MSFT_lod groups. Expected numbers are worked
 * out by hand from the fixture (see gltfFixtures.ts) and the documented design in docs/simulate.md.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GltfLodError, GltfReadError, writeLodGroup } from 'lodkit/gltf';
import { GltfSceneError, sceneFromGltf } from '../../src/simulator/gltfScene.js';
import { simulate } from '../../src/simulator/simulate.js';
import { addMesh, packGlb, toGlbParts, uvSphere } from '../../../lodkit/test/adapters/gltf/fixtures.js';
import { glbBytes, ROCK_SPHERE, ROCK_TRIANGLES, rockDocument } from './gltfFixtures.js';

const ASPECT = 1920 / 1080;

/** Splits a flat [x, y, z, r, …] list into spheres. */
function spheresOf(flat: readonly number[]): Array<[number, number, number, number]> {
  const out: Array<[number, number, number, number]> = [];
  for (let i = 0; i < flat.length; i += 4) out.push([flat[i], flat[i + 1], flat[i + 2], flat[i + 3]]);
  return out;
}

describe('sceneFromGltf: profiles', () => {
  it('one profile per group: the file coverage as screenArea thresholds, triangles per level', async () => {
    const { input, scene, warnings } = await sceneFromGltf(await glbBytes(rockDocument()));
    expect(warnings).toEqual([]);
    // Coverage [0.3, 0.05, 0.005] over 3 levels ("culled" layout): thresholds are the first two.
    expect(input.profiles).toEqual({ Rock: { metric: 'screenArea', thresholds: [0.3, 0.05], triangles: ROCK_TRIANGLES } });
    expect(scene.profiles.Rock.thresholds).toEqual([0.3, 0.05]);
    // The cull-below value is not simulated, and the scene says so.
    expect(input.parameters?.notSimulated).toMatch(/culling below the last coverage value \(Rock\)/);
  });

  it('height coverage gives screenHeight; one value fewer than levels (never culled) is not flagged', async () => {
    const { input } = await sceneFromGltf(await glbBytes(rockDocument({ coverage: [0.4, 0.1] })), { coverage: 'height' });
    expect(input.profiles.Rock).toEqual({ metric: 'screenHeight', thresholds: [0.4, 0.1], triangles: ROCK_TRIANGLES });
    expect(input.parameters?.notSimulated).toBeUndefined();
    expect(input.policies[0].name).toBe('MSFT_screencoverage (height)');
  });

  it('without coverage: the default pixel rule √(4·A·T/π) with A = 4 px² per triangle', async () => {
    const { input } = await sceneFromGltf(await glbBytes(rockDocument({ coverage: null })));
    const p = input.profiles.Rock;
    expect(p.metric).toBe('pixels');
    // Level 0 (960 triangles) needs a disc of 960 · 4 px² = π d²/4 → d = 69.92 px; level 1: 33.78 px.
    expect(p.thresholds[0]).toBeCloseTo(69.923, 3);
    expect(p.thresholds[1]).toBeCloseTo(33.776, 3);
    expect(input.policies[0].name).toBe('pixel rule (4 px²/triangle)');
    const { input: coarse } = await sceneFromGltf(await glbBytes(rockDocument({ coverage: null })), { pixelsPerTriangle: 16 });
    expect(coarse.profiles.Rock.thresholds[0]).toBeCloseTo(139.846, 3); // √4 = 2 × the default
  });

  it('recorded errors become fractions of the bounding diameter (world scale 2, radius 2)', async () => {
    const { input } = await sceneFromGltf(await glbBytes(rockDocument({ errors: [0, 0.05, 0.2] })));
    // World error = 2 × object error; ÷ diameter 4 → [0, 0.025, 0.1].
    const errors = input.profiles.Rock.errors!;
    expect(errors).toHaveLength(3);
    [0, 0.025, 0.1].forEach((e, k) => expect(errors[k]).toBeCloseTo(e, 7)); // float32 positions and matrix
    expect(input.parameters?.errors).toMatch(/diameter/);
  });

  it('errors are all or none: a group without them drops every group\'s errors, with a warning', async () => {
    const document = rockDocument({ errors: [0, 0.05, 0.2] });
    rockDocument({ into: document, name: 'Boulder', offsetX: 10 });
    const { input, warnings } = await sceneFromGltf(await glbBytes(document));
    expect(Object.keys(input.profiles)).toEqual(['Rock', 'Boulder']);
    expect(input.profiles.Rock.errors).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/only 1 of 2 LOD groups/);
  });

  it('a level between two equal coverage values is never drawn and is left out, with a warning', async () => {
    const document = new Document();
    document.createBuffer();
    const nodes = [[32, 16], [16, 8], [12, 6], [8, 4]].map(([s, r], i) =>
      document.createNode(i === 0 ? 'Tower' : `Tower_${i}`).setMesh(addMesh(document, `tower${i}`, uvSphere(1, s, r))));
    document.createScene().addChild(nodes[0]);
    writeLodGroup(document, { node: nodes[0], levels: nodes.slice(1), coverage: [0.3, 0.3, 0.05] });
    const { input, warnings } = await sceneFromGltf(await glbBytes(document));
    // Triangles 2·s·(rings − 1): 960, 224, 120, 48; level 1 (between 0.3 and 0.3) is dropped.
    expect(input.profiles.Tower).toEqual({ metric: 'screenArea', thresholds: [0.3, 0.05], triangles: [960, 120, 48] });
    expect(warnings).toEqual([expect.stringMatching(/level 1 is never drawn/)]);
  });

  it('groups with the same name get distinct profile names', async () => {
    const document = rockDocument();
    rockDocument({ into: document, offsetX: 10 });
    const { input } = await sceneFromGltf(await glbBytes(document), { instances: 3 });
    expect(Object.keys(input.profiles)).toEqual(['Rock', 'Rock (node 3)']);
    expect(input.groups!.map((g) => [g.profile, g.spheres!.length / 4])).toEqual([['Rock', 3], ['Rock (node 3)', 3]]);
  });
});

describe('sceneFromGltf: layout, camera and policies', () => {
  it('N instances of the file\'s bounding sphere, translated in X and Z, not overlapping, around the origin', async () => {
    const { input, scene } = await sceneFromGltf(await glbBytes(rockDocument()), { instances: 12 });
    expect(input.groups).toHaveLength(1);
    const spheres = spheresOf(input.groups![0].spheres!);
    expect(spheres).toHaveLength(12);
    for (const [, y, , r] of spheres) {
      expect(r).toBeCloseTo(ROCK_SPHERE.radius, 5);
      expect(y).toBeCloseTo(ROCK_SPHERE.center[1], 5);
    }
    for (let a = 0; a < spheres.length; a++) {
      for (let b = a + 1; b < spheres.length; b++) {
        const d = Math.hypot(spheres[a][0] - spheres[b][0], spheres[a][2] - spheres[b][2]);
        expect(d).toBeGreaterThan(spheres[a][3] + spheres[b][3]);
      }
    }
    // Centred: the grid is symmetric about 0 up to the jitter (±0.4 radii per instance).
    const meanX = spheres.reduce((s, q) => s + q[0], 0) / spheres.length;
    const meanZ = spheres.reduce((s, q) => s + q[2], 0) / spheres.length;
    expect(Math.abs(meanX)).toBeLessThan(0.4 * 2);
    expect(Math.abs(meanZ)).toBeLessThan(3 * 2); // plus at most one partly filled row
    expect(scene.groups[0].spheres).toHaveLength(48);
  });

  it('the default budget is 40 % of every instance at level 0; policies: file, rankQuota [4, 6], budget, hybrid', async () => {
    const { input } = await sceneFromGltf(await glbBytes(rockDocument()));
    expect(input.budget).toBe(7680); // 0.4 × 20 × 960
    expect(input.policies.map((p) => [p.policy, p.quotas ?? null])).toEqual([
      ['thresholds', null], ['rankQuota', [4, 6]], ['budget', null], ['hybrid', null],
    ]);
    expect(input.policies.map((p) => p.name)).toEqual(['MSFT_screencoverage (area)', 'rank quota [4, 6]', 'budget 7.68k', 'hybrid 7.68k']);
    const { input: half } = await sceneFromGltf(await glbBytes(rockDocument()), { budgetFraction: 0.5, instances: 10 });
    expect(half.budget).toBe(4800);
  });

  it('camera: a wide 60° dolly-in, then a telephoto cut whose last frame shows instances above the level-0 size', async () => {
    const { input } = await sceneFromGltf(await glbBytes(rockDocument()));
    const keys = input.camera!.keyframes;
    expect(keys.every((k) => k.viewport[0] === 1920 && k.viewport[1] === 1080)).toBe(true);
    const wide = keys.filter((k) => k.shot === 'wide dolly-in');
    const tele = keys.filter((k) => k.shot === 'telephoto');
    expect(wide.map((k) => k.fovY)).toEqual([60, 60]);
    const dist = (k: (typeof keys)[number]) => Math.hypot(...k.position.map((v, i) => v - k.target![i]));
    expect(dist(wide[1])).toBeLessThan(dist(wide[0]) / 5); // dolly-in
    expect(tele[0].cut).toBe(true);
    expect(tele[tele.length - 1].fovY!).toBeLessThan(5); // telephoto
    // Level 0 of area coverage 0.3 at 16:9: height h with π h²/(4·aspect) = 0.3 → h = 0.826.
    const level0Height = Math.sqrt((4 * 0.3 * ASPECT) / Math.PI);
    // At the last keyframe every instance within 2 layout cells of the target looks taller than that.
    const last = tele[tele.length - 1];
    const tanHalf = Math.tan(((last.fovY! / 2) * Math.PI) / 180);
    const near = spheresOf(input.groups![0].spheres!).filter(([x, , z]) => Math.hypot(x - last.target![0], z - last.target![2]) < 12);
    expect(near.length).toBeGreaterThan(0);
    for (const [x, y, z, r] of near) {
      const d = Math.hypot(x - last.position[0], y - last.position[1], z - last.position[2]);
      expect((2 * r) / (d * 2 * tanHalf)).toBeGreaterThan(level0Height);
    }
  });

  it('the policies tell the MotoGP story on the generated scene', async () => {
    const { scene } = await sceneFromGltf(await glbBytes(rockDocument({ coverage: [0.1, 0.02] })));
    const { result } = simulate(scene);
    const by = Object.fromEntries(result.policies.map((p) => [p.policy, p.summary]));
    // Screen size: the telephoto frame costs far more than the mean, and more than the budget (7680).
    expect(by.thresholds.worstCostShot).toBe('telephoto');
    expect(by.thresholds.worstCost).toBeGreaterThan(7680);
    expect(by.thresholds.worstCost).toBeGreaterThan(2 * by.thresholds.meanCost);
    expect(by.thresholds.qualityLossWorst).toBe(0);
    // Rank quotas: never more than 4 × 960 + 6 × 224 + 10 × 48 = 5664, but the largest quality loss.
    expect(by.rankQuota.worstCost).toBeLessThanOrEqual(5664);
    expect(by.rankQuota.qualityLossWorst).toBeGreaterThan(0);
    // Budget and hybrid stay under the budget with less quality loss than rank quotas.
    for (const kind of ['budget', 'hybrid']) {
      expect(by[kind].framesOverBudget).toBe(0);
      expect(by[kind].qualityLossMean).toBeLessThan(by.rankQuota.qualityLossMean);
    }
  });

  it('is deterministic for a seed, and every seed and instance count gives a valid, non-overlapping scene', async () => {
    const bytes = await glbBytes(rockDocument());
    const a = await sceneFromGltf(bytes, { seed: 7 });
    const b = await sceneFromGltf(bytes, { seed: 7 });
    expect(JSON.stringify(a.input)).toBe(JSON.stringify(b.input));
    const c = await sceneFromGltf(bytes, { seed: 8 });
    expect(JSON.stringify(c.input.groups)).not.toBe(JSON.stringify(a.input.groups));
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 40 }), async (seed, instances) => {
      const { scene } = await sceneFromGltf(bytes, { seed, instances });
      const s = spheresOf(scene.groups[0].spheres!);
      expect(s).toHaveLength(instances);
      for (let i = 0; i < s.length; i++) {
        for (let j = i + 1; j < s.length; j++) expect(Math.hypot(s[i][0] - s[j][0], s[i][2] - s[j][2])).toBeGreaterThan(4);
      }
    }), { numRuns: 25 });
  });
});

describe('sceneFromGltf: bad input', () => {
  it('unreadable bytes → GltfReadError; invalid MSFT_lod → GltfLodError', async () => {
    await expect(sceneFromGltf(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).rejects.toThrow(GltfReadError);
    const { json, bin } = await toGlbParts(rockDocument());
    json.nodes[0].extras.MSFT_screencoverage = [0.05, 0.3, 0.5];
    await expect(sceneFromGltf(packGlb(json, bin))).rejects.toThrow(GltfLodError);
  });

  it('a file with no (valid) LOD group → GltfSceneError naming the file', async () => {
    const { json, bin } = await toGlbParts(rockDocument());
    json.nodes[0].extras.MSFT_screencoverage = [0.05, 0.3, 0.5];
    // Lenient: the bad group is dropped with a warning, which leaves nothing to simulate.
    await expect(sceneFromGltf(packGlb(json, bin), { lenient: true, name: 'bad.glb' })).rejects.toThrow(/bad\.glb has no LOD groups/);
    const plain = new Document();
    plain.createBuffer();
    plain.createScene().addChild(plain.createNode('Ball').setMesh(addMesh(plain, 'ball', uvSphere(1, 8, 4))));
    await expect(sceneFromGltf(await glbBytes(plain))).rejects.toThrow(GltfSceneError);
  });

  it('bad options → RangeError naming the option', async () => {
    const bytes = await glbBytes(rockDocument());
    await expect(sceneFromGltf(bytes, { instances: 0 })).rejects.toThrow(/instances must be a positive integer/);
    await expect(sceneFromGltf(bytes, { instances: 2.5 })).rejects.toThrow(RangeError);
    await expect(sceneFromGltf(bytes, { spacing: 1 })).rejects.toThrow(/spacing/);
    await expect(sceneFromGltf(bytes, { coverage: 'width' as 'area' })).rejects.toThrow(/coverage/);
  });
});

describe('@lodkit/cli/simulator loads without the glTF peers', () => {
  it('no static import chain from src/simulator/index.ts reaches @gltf-transform or lodkit/gltf', () => {
    const root = resolve(import.meta.dirname, '../../src');
    const seen = new Set<string>();
    const reached: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      // Value imports and re-exports (`import type` / `export type` are erased by TypeScript).
      const re = /^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm;
      for (const m of text.matchAll(re)) {
        const spec = m[1];
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
          visit(target);
        } else if (spec.startsWith('@gltf-transform') || spec === 'meshoptimizer' || spec === 'lodkit/gltf') {
          reached.push(`${file} → ${spec}`);
        }
      }
    };
    visit(resolve(root, 'simulator/index.ts'));
    expect(seen.has(resolve(root, 'simulator/gltfScene.ts'))).toBe(true);
    expect(reached).toEqual([]);
  });
});
