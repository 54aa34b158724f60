import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Frustum, sphereScreenArea, sphereScreenHeight, spherePixelDiameter } from '../../../src/index.js';
import {
  generateLodChain, heightThresholdForError, readGltfDocument, readLodGroups, type GeneratedLodChain,
} from '../../../src/adapters/gltf/index.js';
import { addMesh, lodIO, terrain, uvSphere } from './fixtures.js';

const VIEWPORT = 1080;
const ASPECT = 16 / 9;

function sphereDocument(): Document {
  const document = new Document();
  document.createBuffer();
  const node = document.createNode('Ball').setMesh(addMesh(document, 'ball', uvSphere(2, 64, 32)));
  document.createScene().addChild(node);
  return document;
}

function terrainDocument(): Document {
  const document = new Document();
  document.createBuffer();
  const node = document.createNode('Hill').setMesh(addMesh(document, 'hill', terrain(64))).setTranslation([5, 0, -3]);
  document.createScene().addChild(node);
  return document;
}

/** Distance from vertex v to triangle (i, j, k), by projecting onto the plane and clamping to edges (independent of the library). */
function bruteDistance(p: ArrayLike<number>, v: number, i: number, j: number, k: number): number {
  const P = [p[v * 3], p[v * 3 + 1], p[v * 3 + 2]];
  const A = [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]], B = [p[j * 3], p[j * 3 + 1], p[j * 3 + 2]], C = [p[k * 3], p[k * 3 + 1], p[k * 3 + 2]];
  const sub = (x: number[], y: number[]) => [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
  const dot = (x: number[], y: number[]) => x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  const cross = (x: number[], y: number[]) => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  const segment = (a: number[], b: number[]) => {
    const ab = sub(b, a); const len2 = dot(ab, ab);
    const t = len2 > 0 ? Math.min(1, Math.max(0, dot(sub(P, a), ab) / len2)) : 0;
    return Math.hypot(...sub(P, [a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]]));
  };
  const n = cross(sub(B, A), sub(C, A));
  const n2 = dot(n, n);
  if (n2 > 0) {
    const dist = dot(sub(P, A), n) / n2;
    const Q = [P[0] - dist * n[0], P[1] - dist * n[1], P[2] - dist * n[2]];
    const inside = dot(cross(sub(B, A), sub(Q, A)), n) >= 0 && dot(cross(sub(C, B), sub(Q, B)), n) >= 0 && dot(cross(sub(A, C), sub(Q, C)), n) >= 0;
    if (inside) return Math.abs(dist) * Math.sqrt(n2);
  }
  return Math.min(segment(A, B), segment(B, C), segment(C, A));
}

/** Area coverage → screen-height fraction at the reference aspect (inverse of π h² / (4 aspect)). */
const areaToHeightRef = (a: number): number => Math.sqrt((4 * ASPECT * a) / Math.PI);

/**
 * Independent check: put the object at the distance where its bounding sphere has screen height
 * `h` (from lodkit's own metric, not from the generator's formula) and project the recorded error
 * there with spherePixelDiameter (a sphere of diameter e).
 */
function pixelErrorAtHeight(frustum: Frustum, radius: number, h: number, error: number): { px: number; measuredHeight: number; area: number } {
  // Distance at which sphereScreenHeight == h: bisection on lodkit's metric (monotone in distance).
  let lo = radius * 1.000001, hi = 1e9;
  for (let k = 0; k < 200; k++) {
    const mid = Math.sqrt(lo * hi);
    if (sphereScreenHeight(frustum, 0, 0, -mid, radius) > h) lo = mid; else hi = mid;
  }
  const d = hi; // the closest distance at which the size is ≤ h
  return {
    px: spherePixelDiameter(frustum, 0, 0, -d, error / 2, VIEWPORT),
    measuredHeight: sphereScreenHeight(frustum, 0, 0, -d, radius),
    area: sphereScreenArea(frustum, 0, 0, -d, radius),
  };
}

describe('generateLodChain', () => {
  let ball: GeneratedLodChain[];
  let hill: GeneratedLodChain[];
  let hillDocument: Document;
  beforeAll(async () => {
    ball = await generateLodChain(sphereDocument(), { levels: 4, ratio: 0.5, maxErrorPx: 1, viewportHeight: VIEWPORT });
    hillDocument = terrainDocument();
    hill = await generateLodChain(hillDocument, { levels: 5, ratio: 0.4, maxErrorPx: 2, viewportHeight: VIEWPORT, coverage: 'height' });
  });

  it('builds the requested levels with decreasing triangles and increasing error', () => {
    expect(ball).toHaveLength(1);
    const levels = ball[0].levels;
    expect(levels).toHaveLength(4);
    expect(levels[0].triangles).toBe(64 * 2 + 64 * 2 * 30); // two polar fans + 30 quad rings
    for (let i = 1; i < levels.length; i++) {
      expect(levels[i].triangles).toBeLessThan(levels[i - 1].triangles);
      // meshoptimizer reaches the target ratio within a few percent on a smooth sphere.
      expect(levels[i].triangles).toBeLessThanOrEqual(Math.ceil(levels[0].triangles * 0.5 ** i) + 2);
      expect(levels[i].error).toBeGreaterThan(levels[i - 1].error);
    }
    expect(ball[0].boundingSphere.radius).toBeCloseTo(2, 5);
  });

  it('records an error at least the farthest original vertex from each level (brute force) and ≥ meshoptimizer\'s estimate', async () => {
    const small = new Document();
    small.createBuffer();
    small.createNode('Small').setMesh(addMesh(small, 'small', uvSphere(2, 32, 16)));
    const [chain] = await generateLodChain(small, { levels: 4 });
    const { positions } = uvSphere(2, 32, 16);
    for (const level of chain.levels.slice(1)) {
      const idx = level.node.getMesh()!.listPrimitives()[0].getIndices()!.getArray()!;
      let worst = 0;
      for (let v = 0; v < positions.length / 3; v++) {
        let best = Infinity;
        for (let t = 0; t < idx.length; t += 3) {
          best = Math.min(best, bruteDistance(positions, v, idx[t], idx[t + 1], idx[t + 2]));
        }
        worst = Math.max(worst, best);
      }
      expect(level.error).toBeGreaterThanOrEqual(worst - 1e-9);
      expect(level.error).toBeGreaterThanOrEqual(level.estimate);
      expect(level.estimate).toBeGreaterThan(0);
    }
  });

  it('derives each threshold from the error: 2R·maxErrorPx / (e·V), in area at the reference aspect', () => {
    const { levels, boundingSphere: { radius } } = ball[0];
    for (let i = 1; i < levels.length; i++) {
      const h = (2 * radius * 1) / (levels[i].error * VIEWPORT); // hand formula, not the library's helper
      const area = Math.min(1, (Math.PI * h * h) / (4 * ASPECT));
      expect(levels[i].threshold).toBeLessThanOrEqual(area);
      expect(levels[i].threshold).toBeGreaterThan(area * (1 - 1e-6));
      expect(levels[i].thresholdPx).toBeCloseTo(Math.min(h, areaToHeightRef(1)) * VIEWPORT, 2);
    }
    expect(heightThresholdForError(0, 1, 1, 1080)).toBe(Infinity);
  });

  it('keeps every level under maxErrorPx at its threshold, projected with lodkit\'s metrics (area coverage)', () => {
    const { levels, boundingSphere: { radius } } = ball[0];
    for (const fovY of [30, 60, 90]) {
      const frustum = Frustum.perspective({ fovY, aspect: ASPECT, near: 0.01, far: 1e10 });
      for (let i = 1; i < levels.length; i++) {
        const h = areaToHeightRef(levels[i].threshold);
        const { px, measuredHeight, area } = pixelErrorAtHeight(frustum, radius, h, levels[i].error);
        expect(measuredHeight).toBeCloseTo(h, 6);
        expect(area).toBeCloseTo(levels[i].threshold, 6); // lodkit's area metric agrees with the coverage value
        expect(px).toBeLessThanOrEqual(1 + 1e-6);
        expect(px).toBeGreaterThan(0.999); // and not needlessly conservative
      }
    }
  });

  it('keeps every level under maxErrorPx at its threshold (height coverage, 5 levels, 2 px)', () => {
    const [chain] = hill;
    const frustum = Frustum.perspective({ fovY: 50, aspect: 1, near: 0.01, far: 1e10 });
    expect(chain.levels.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < chain.levels.length; i++) {
      const { px } = pixelErrorAtHeight(frustum, chain.boundingSphere.radius, chain.levels[i].threshold, chain.levels[i].error);
      expect(px).toBeLessThanOrEqual(2 + 1e-6);
    }
  });

  it('selects, at any distance, a level whose error is at most maxErrorPx (property, lodkit thresholds)', () => {
    const { levels, thresholds, boundingSphere: { radius } } = ball[0];
    fc.assert(fc.property(fc.double({ min: 2.01, max: 1e5, noNaN: true }), fc.constantFrom(20, 45, 60, 100), (distance, fovY) => {
      const frustum = Frustum.perspective({ fovY, aspect: ASPECT, near: 0.01, far: 1e10 });
      const size = sphereScreenArea(frustum, 0, 0, -distance, radius);
      const level = Math.floor(thresholds.computeLod(size));
      const px = spherePixelDiameter(frustum, 0, 0, -distance, levels[level].error / 2, VIEWPORT);
      expect(px).toBeLessThanOrEqual(1 + 1e-6);
    }), { numRuns: 400 });
  });

  it('writes MSFT_lod + coverage + recorded errors that read back as the same thresholds', async () => {
    const { document } = await readGltfDocument(await lodIO().writeBinary(hillDocument));
    const { groups, warnings } = readLodGroups(document, { coverage: 'height' });
    expect(warnings).toEqual([]);
    expect(groups).toHaveLength(1);
    const [chain] = hill;
    const g = groups[0];
    expect(g.name).toBe('Hill');
    expect(g.layout).toBe('neverCulled');
    expect(g.coverage).toEqual(chain.coverage);
    expect(Array.from(g.thresholds!.thresholds)).toEqual(chain.coverage); // float32-exact by construction
    expect(g.levels.map((l) => l.triangles)).toEqual(chain.levels.map((l) => l.triangles));
    expect(g.levels.map((l) => l.error)).toEqual(chain.levels.map((l) => l.error));
    // Level nodes copy the transform and stay out of the scene.
    for (const level of g.levels.slice(1)) {
      expect(level.node.getTranslation()).toEqual([5, 0, -3]);
      expect(level.node.getParentNode()).toBeNull();
    }
    expect(document.getRoot().listScenes()[0].listChildren()).toHaveLength(1);
  });

  it('shares one simplification between nodes that use the same mesh, and skips existing LOD groups', async () => {
    const document = sphereDocument();
    const mesh = document.getRoot().listMeshes()[0];
    document.getRoot().listScenes()[0].addChild(document.createNode('Ball2').setMesh(mesh));
    const chains = await generateLodChain(document, { levels: 3 });
    expect(chains.map((c) => c.name)).toEqual(['Ball', 'Ball2']);
    expect(document.getRoot().listMeshes()).toHaveLength(3); // original + 2 levels, shared
    expect(chains[0].levels[1].node.getMesh()).toBe(chains[1].levels[1].node.getMesh());
    const again = await generateLodChain(document, { levels: 3 });
    expect(again).toEqual([]);
  });

  it('drops levels that could never be drawn and keeps coverage strictly descending', async () => {
    // A fine terrain: its first levels stay under 1 px even when it fills the screen, so their
    // thresholds all clamp to 1 and all but the last of them would never be drawn.
    const document = new Document();
    document.createBuffer();
    document.createNode('Fine').setMesh(addMesh(document, 'fine', terrain(128)));
    const [chain] = await generateLodChain(document, { levels: 5, ratio: 0.5 });
    expect(chain.neverDrawn ?? 0).toBeGreaterThan(0);
    expect(chain.levels.length - 1 + (chain.neverDrawn ?? 0)).toBe(4);
    for (let k = 1; k < chain.coverage.length; k++) expect(chain.coverage[k]).toBeLessThan(chain.coverage[k - 1]);
    expect(chain.levels.map((l) => l.level)).toEqual(chain.levels.map((_, k) => k));
    // The dropped levels' meshes were never created: original + kept levels only.
    expect(document.getRoot().listMeshes()).toHaveLength(chain.levels.length);
  });

  it('adds a cull value when cullBelowPx is set', async () => {
    const document = sphereDocument();
    const [chain] = await generateLodChain(document, { levels: 3, cullBelowPx: 4, coverage: 'height' });
    expect(chain.coverage).toHaveLength(3);
    expect(chain.cullBelow).toBeCloseTo(4 / VIEWPORT, 7);
    expect(chain.cullBelow).toBeLessThanOrEqual(4 / VIEWPORT);
    const { groups } = readLodGroups(document, { coverage: 'height' });
    expect(groups[0].layout).toBe('culled');
    expect(groups[0].cullBelow).toBe(chain.cullBelow);
  });

  it('ends a chain early when a level cannot be reduced', async () => {
    const document = new Document();
    document.createBuffer();
    // A single triangle cannot be simplified.
    document.createNode('Tri').setMesh(addMesh(document, 'tri', { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) }));
    const chains = await generateLodChain(document, { levels: 4 });
    expect(chains).toEqual([]);
  });

  it('validates options with RangeErrors naming the field', async () => {
    const document = sphereDocument();
    await expect(generateLodChain(document, { levels: 1 })).rejects.toThrow(/levels must be an integer in \[2, 32\]/);
    await expect(generateLodChain(document, { ratio: 1 })).rejects.toThrow(/ratio must be a number in \(0, 1\)/);
    await expect(generateLodChain(document, { maxErrorPx: 0 })).rejects.toThrow(/maxErrorPx/);
    await expect(generateLodChain(document, { viewportHeight: Number.NaN })).rejects.toThrow(/viewportHeight/);
    await expect(generateLodChain(document, { coverage: 'volume' as never })).rejects.toThrow(/coverage/);
  });
});

describe('generateLodChain guarantee under random options (property)', () => {
  it('the selected level never exceeds maxErrorPx at any distance, for any options', async () => {
    const geometry = terrain(40);
    await fc.assert(fc.asyncProperty(
      fc.record({
        levels: fc.integer({ min: 2, max: 5 }),
        ratio: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
        maxErrorPx: fc.double({ min: 0.25, max: 8, noNaN: true }),
        viewportHeight: fc.integer({ min: 240, max: 2160 }),
        coverage: fc.constantFrom<'area' | 'height'>('area', 'height'),
        aspect: fc.constantFrom(1, 4 / 3, 16 / 9, 21 / 9),
      }),
      fc.array(fc.double({ min: 1.5, max: 1e5, noNaN: true }), { minLength: 20, maxLength: 20 }),
      fc.constantFrom(30, 60, 90),
      async (options, distances, fovY) => {
        const document = new Document();
        document.createBuffer();
        document.createNode('T').setMesh(addMesh(document, 't', geometry));
        const [chain] = await generateLodChain(document, { ...options, error: 'estimate' });
        fc.pre(chain !== undefined); // counted by fast-check, not a silent pass
        const frustum = Frustum.perspective({ fovY, aspect: options.aspect, near: 0.01, far: 1e10 });
        const r = chain.boundingSphere.radius;
        for (const distance of distances) {
          const size = options.coverage === 'area'
            ? sphereScreenArea(frustum, 0, 0, -distance, r)
            : sphereScreenHeight(frustum, 0, 0, -distance, r);
          const level = Math.floor(chain.thresholds.computeLod(size));
          const px = spherePixelDiameter(frustum, 0, 0, -distance, chain.levels[level].error / 2, options.viewportHeight);
          expect(px).toBeLessThanOrEqual(options.maxErrorPx * (1 + 1e-9));
        }
      },
    ), { numRuns: 25 });
  });
});

describe('generateLodChain on varied primitives', () => {
  it('simplifies every triangle primitive of a mesh, keeps others, and takes the largest error', async () => {
    const document = new Document();
    const buffer = document.createBuffer();
    const mesh = addMesh(document, 'multi', uvSphere(1, 32, 16));
    const hill = addMesh(document, 'hill', terrain(32));
    mesh.addPrimitive(hill.listPrimitives()[0]);
    const points = document.createPrimitive().setMode(0).setAttribute('POSITION',
      document.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 1, 1])).setBuffer(buffer));
    mesh.addPrimitive(points);
    document.createNode('Multi').setMesh(mesh);
    const [chain] = await generateLodChain(document, { levels: 3, error: 'estimate' });
    const level1 = chain.levels[1].node.getMesh()!.listPrimitives();
    expect(level1).toHaveLength(3);
    expect(level1[2].getMode()).toBe(0);
    expect(level1[2].getAttribute('POSITION')).toBe(points.getAttribute('POSITION'));
    // Shared vertex data: only the index buffers are new.
    expect(level1[0].getAttribute('POSITION')).toBe(mesh.listPrimitives()[0].getAttribute('POSITION'));
    const tris = level1.slice(0, 2).map((p) => p.getIndices()!.getCount() / 3);
    expect(chain.levels[1].triangles).toBe(tris[0] + tris[1]);
    expect(chain.levels[0].triangles).toBe(32 * 2 + 32 * 2 * 14 + 31 * 31 * 2);
  });

  it('measures errors in dequantized units for normalized (quantized) positions', async () => {
    const make = async (quantized: boolean) => {
      const document = new Document();
      const buffer = document.createBuffer();
      const { positions, indices } = terrain(32);
      // terrain lies in [-1, 1]; as normalized int16 the same shape reads back within 1/32767.
      const array = quantized ? Int16Array.from(positions, (v) => Math.round(v * 32767)) : positions;
      const position = document.createAccessor().setType('VEC3').setArray(array).setNormalized(quantized).setBuffer(buffer);
      const primitive = document.createPrimitive().setAttribute('POSITION', position)
        .setIndices(document.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer));
      document.createNode('T').setMesh(document.createMesh().addPrimitive(primitive));
      return (await generateLodChain(document, { levels: 2, error: 'estimate' }))[0];
    };
    const [plain, quant] = await Promise.all([make(false), make(true)]);
    expect(quant.boundingSphere.radius).toBeCloseTo(plain.boundingSphere.radius, 3);
    expect(quant.levels[1].error).toBeGreaterThan(plain.levels[1].error * 0.5);
    expect(quant.levels[1].error).toBeLessThan(plain.levels[1].error * 2);
  });

  it('indexes primitives without indices by position, so triangle soups simplify too', async () => {
    const document = new Document();
    const buffer = document.createBuffer();
    const { positions, indices } = uvSphere(1, 24, 12);
    const flat = new Float32Array(indices.length * 3);
    indices.forEach((v, k) => flat.set(positions.subarray(v * 3, v * 3 + 3), k * 3));
    const primitive = document.createPrimitive().setAttribute('POSITION', document.createAccessor().setType('VEC3').setArray(flat).setBuffer(buffer));
    document.createNode('Soup').setMesh(document.createMesh().addPrimitive(primitive));
    const [chain] = await generateLodChain(document, { levels: 3 });
    expect(chain.levels[0].triangles).toBe(indices.length / 3);
    expect(chain.levels[1].triangles).toBeLessThan(indices.length / 3 * 0.6);
    const level1 = chain.levels[1].node.getMesh()!.listPrimitives()[0];
    expect(level1.getIndices()).not.toBeNull();
    expect(level1.getAttribute('POSITION')).toBe(primitive.getAttribute('POSITION'));
  });
});
