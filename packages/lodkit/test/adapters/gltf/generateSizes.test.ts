/**
 * Size-driven chains (`switchPx`, issue 29 item 4): levels simplified for target on-screen sizes
 * instead of a triangle ratio. Expected sizes are written out here: geometric steps from largest to
 * smallest, and a level's switch D = 2·R·maxErrorPx / e from its recorded error.
 */
import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { generateLodChain } from '../../../src/adapters/gltf/index.js';
import { targetSwitchSizes } from '../../../src/adapters/gltf/simplifyMesh.js';
import { addMesh, terrain, uvSphere } from './fixtures.js';

function documentOf(geometry: { positions: Float32Array; indices: Uint32Array }): Document {
  const document = new Document();
  document.createBuffer();
  document.createScene().addChild(document.createNode('Model').setMesh(addMesh(document, 'model', geometry)));
  return document;
}

describe('targetSwitchSizes', () => {
  it('steps geometrically from largest to smallest', () => {
    // 400 · (75/400)^(1/2) = √(400 · 75) = 173.2…
    expect(targetSwitchSizes(4, 400, 75)).toEqual([400, expect.closeTo(Math.sqrt(400 * 75), 9), expect.closeTo(75, 9)]);
    // 5 levels: ratio (75/400)^(1/3) per step
    const r = Math.cbrt(75 / 400);
    targetSwitchSizes(5, 400, 75).forEach((d, k) => expect(d).toBeCloseTo(400 * r ** k, 9));
    expect(targetSwitchSizes(2, 400, 75)).toEqual([75]);
  });
});

describe('generateLodChain with switchPx', () => {
  for (const [name, geometry] of [['sphere 48 × 24', uvSphere(1, 48, 24)], ['terrain 128²', terrain(128)]] as const) {
    it(`${name}: each level switches near its target size, finer levels first`, async () => {
      const [chain] = await generateLodChain(documentOf(geometry), { levels: 4, switchPx: { largest: 400, smallest: 75 }, maxErrorPx: 2, coverage: 'height' });
      expect(chain.levels).toHaveLength(4);
      const R = chain.boundingSphere.radius;
      const targets = [400, Math.sqrt(400 * 75), 75];
      chain.levels.slice(1).forEach((level, k) => {
        const D = (2 * R * 2) / level.error;
        // thresholdPx is the same switch (height coverage, rounded down to float32).
        expect(level.thresholdPx).toBeLessThanOrEqual(D * (1 + 1e-9));
        expect(level.thresholdPx).toBeGreaterThan(D * (1 - 1e-6));
        // Near the target: meshoptimizer stops at the last collapse under the allowed error, and the
        // measured deviation may exceed its estimate (measured here: within 0.75–1.25×).
        expect(D / targets[k]).toBeGreaterThan(0.6);
        expect(D / targets[k]).toBeLessThan(1.4);
        expect(level.triangles).toBeLessThan(chain.levels[k].triangles);
      });
    });
  }

  it('gives no level for a size at which the mesh cannot lose 5 % of its triangles, and says so', async () => {
    // 16 × 8 sphere, 224 triangles: at 400 px its 2 px error budget is 0.01 units, under any collapse.
    const [chain] = await generateLodChain(documentOf(uvSphere(1, 16, 8)), { levels: 4, switchPx: { largest: 400, smallest: 75 }, maxErrorPx: 2 });
    expect(chain.levels.length).toBeLessThan(4);
    chain.levels.slice(1).forEach((level, k) => expect(level.triangles).toBeLessThanOrEqual(chain.levels[k].triangles * 0.95));
    expect(chain.stoppedEarly).toMatch(/^no level for 400 px[ ,]/);
  });

  it('ignores ratio when switchPx is given, and rejects bad sizes', async () => {
    const a = await generateLodChain(documentOf(uvSphere(1, 32, 16)), { levels: 3, switchPx: { largest: 300, smallest: 60 } });
    const b = await generateLodChain(documentOf(uvSphere(1, 32, 16)), { levels: 3, switchPx: { largest: 300, smallest: 60 }, ratio: 0.9 });
    expect(b[0].levels.map((l) => l.triangles)).toEqual(a[0].levels.map((l) => l.triangles));
    const document = documentOf(uvSphere(1, 16, 8));
    await expect(generateLodChain(document, { switchPx: { largest: 0, smallest: 0 } })).rejects.toThrow(/switchPx\.largest must be a number > 0/);
    await expect(generateLodChain(document, { switchPx: { largest: 100, smallest: 200 } })).rejects.toThrow(/switchPx\.smallest must be a number in \(0, switchPx\.largest\]/);
  });
});
