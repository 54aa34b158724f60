/**
 * LOD chain generation cost: meshoptimizer's estimate only vs the measured deviation (default), on a
 * seeded random-height terrain and a UV sphere. Run: `npx vitest bench bench/gltf-generate.bench.ts --run`.
 * Both variants run in one process so their ratio is meaningful on a shared machine.
 */
import { Document } from '@gltf-transform/core';
import { bench, describe } from 'vitest';
import { generateLodChain } from '../src/adapters/gltf/index.js';

/** Seeded LCG (Numerical Recipes constants) in [0, 1). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function randomTerrain(size: number, seed: number): { positions: Float32Array; indices: Uint32Array } {
  const random = lcg(seed);
  const positions = new Float32Array(size * size * 3);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const k = (j * size + i) * 3;
      positions[k] = -1 + (2 * i) / (size - 1);
      positions[k + 1] = 0.05 * Math.sin(6 * positions[k]) + 0.01 * random();
      positions[k + 2] = -1 + (2 * j) / (size - 1);
    }
  }
  const indices: number[] = [];
  for (let j = 0; j < size - 1; j++) {
    for (let i = 0; i < size - 1; i++) {
      const a = j * size + i;
      indices.push(a, a + size, a + 1, a + 1, a + size, a + size + 1);
    }
  }
  return { positions, indices: new Uint32Array(indices) };
}

function documentWith(geometry: { positions: Float32Array; indices: Uint32Array }): Document {
  const document = new Document();
  const buffer = document.createBuffer();
  const primitive = document.createPrimitive()
    .setAttribute('POSITION', document.createAccessor().setType('VEC3').setArray(geometry.positions).setBuffer(buffer))
    .setIndices(document.createAccessor().setType('SCALAR').setArray(geometry.indices).setBuffer(buffer));
  document.createNode('mesh').setMesh(document.createMesh().addPrimitive(primitive));
  return document;
}

const terrain = randomTerrain(128, 42); // 32 258 triangles

describe('generateLodChain, terrain 32k triangles, 4 levels', () => {
  bench('error: estimate', async () => {
    await generateLodChain(documentWith(terrain), { levels: 4, error: 'estimate' });
  }, { warmupIterations: 2, iterations: 10 });
  bench('error: measured (default)', async () => {
    await generateLodChain(documentWith(terrain), { levels: 4 });
  }, { warmupIterations: 2, iterations: 10 });
});
