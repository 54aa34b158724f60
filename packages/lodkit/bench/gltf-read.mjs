// What lodkit's safe glTF reader costs over glTF-Transform's own: the same GLB bytes read by
// `NodeIO.readBinary` (MSFTLod registered) and by lodkit's `readGltfDocument` (GLB container
// check, structure and limit checks, finite-POSITION scan), sampled round-robin in one process
// after warm-up; medians. Run against the built package: `npm run build -w lodkit && node bench/gltf-read.mjs`.
import { Document, NodeIO } from '@gltf-transform/core';
import { createLodIO, MSFTLod, readGltfDocument, writeLodGroup } from '../dist/adapters/gltf/index.js';

function sphere(segments, rings) {
  const positions = [], indices = [];
  for (let r = 0; r <= rings; r++) {
    const v = (r / rings) * Math.PI;
    for (let s = 0; s <= segments; s++) {
      const u = (s / segments) * 2 * Math.PI;
      positions.push(Math.sin(v) * Math.cos(u), Math.cos(v), Math.sin(v) * Math.sin(u));
    }
  }
  for (let r = 0; r < rings; r++) for (let s = 0; s < segments; s++) {
    const a = r * (segments + 1) + s, b = a + segments + 1;
    indices.push(a, b, a + 1, b, b + 1, a + 1);
  }
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

function mesh(document, name, g) {
  const buffer = document.getRoot().listBuffers()[0];
  const position = document.createAccessor(`${name}_p`).setType('VEC3').setArray(g.positions).setBuffer(buffer);
  const index = document.createAccessor(`${name}_i`).setType('SCALAR').setArray(g.indices).setBuffer(buffer);
  return document.createMesh(name).addPrimitive(document.createPrimitive().setAttribute('POSITION', position).setIndices(index));
}

const document = new Document();
document.createBuffer();
const levels = [[1000, 500], [500, 250], [250, 125]].map(([s, r], i) => document.createNode(`L${i}`).setMesh(mesh(document, `m${i}`, sphere(s, r))));
document.createScene().addChild(levels[0]);
writeLodGroup(document, { node: levels[0], levels: levels.slice(1), coverage: [0.3, 0.05] });
const bytes = await createLodIO().writeBinary(document);
const plain = new NodeIO().registerExtensions([MSFTLod]);

const rows = {
  'glTF-Transform NodeIO.readBinary': () => plain.readBinary(bytes),
  'lodkit readGltfDocument (checked)': () => readGltfDocument(bytes),
};
const samples = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
for (let warm = 0; warm < 3; warm++) for (const f of Object.values(rows)) await f();
for (let i = 0; i < 21; i++) {
  // Alternate the order each round, so the garbage one row leaves is collected during either row alike.
  const order = i % 2 === 0 ? Object.entries(rows) : Object.entries(rows).reverse();
  for (const [name, f] of order) {
    const t = performance.now();
    await f();
    samples[name].push(performance.now() - t);
  }
}
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const vertices = levels.reduce((n, l) => n + l.getMesh().listPrimitives()[0].getAttribute('POSITION').getCount(), 0);
console.log(`GLB ${(bytes.byteLength / 1e6).toFixed(1)} MB, ${vertices} vertices in 3 levels`);
for (const [name, s] of Object.entries(samples)) console.log(`${name.padEnd(36)} ${median(s).toFixed(2)} ms (median of ${s.length})`);
const [a, b] = Object.values(samples).map(median);
console.log(`ratio checked / plain: ${(b / a).toFixed(3)}`);
