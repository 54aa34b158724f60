/**
 * Fixture for test/e2e/msftLodGraph.full.test.ts: builds a GLB whose `MSFT_lod` groups form a
 * chain, a cycle or a band DAG (the shapes of issue 24's hostile files) in the page and parses it
 * with three's GLTFLoader and `MSFTLodLoaderPlugin`, on the page's main thread as an app would.
 * Reports the plugin's counted work, its warnings by code and the elapsed time (for the log only).
 */
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MSFTLodLoaderPlugin } from '../../../src/adapters/three/gltfLodPlugin.js';

type NodeDef = { mesh: number; extensions?: { MSFT_lod: { ids: number[] } }; extras?: unknown };

function lodNode(ids: number[] | null): NodeDef {
  if (ids === null) return { mesh: 0 };
  return { mesh: 0, extensions: { MSFT_lod: { ids } }, extras: { MSFT_screencoverage: ids.map((_, j) => 1 - (j + 1) / (ids.length + 2)) } };
}

function nodesOf(shape: string, n: number, width: number): NodeDef[] {
  return Array.from({ length: n }, (_, k) => {
    if (shape === 'band') {
      const ids: number[] = [];
      for (let d = 1; d <= width && k + d < n; d++) ids.push(k + d);
      return lodNode(ids.length > 0 ? ids : null);
    }
    return lodNode(k < n - 1 ? [k + 1] : shape === 'cycle' ? [0] : null);
  });
}

/** GLB bytes: header, JSON chunk (space padded), BIN chunk (one triangle). */
function glb(nodes: NodeDef[]): ArrayBuffer {
  const bin = new Uint8Array(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);
  const text = new TextEncoder().encode(JSON.stringify({
    asset: { version: '2.0' }, extensionsUsed: ['MSFT_lod'], scene: 0, scenes: [{ nodes: [0] }], nodes,
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
    bufferViews: [{ buffer: 0, byteLength: 36 }], buffers: [{ byteLength: 36 }],
  }));
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const total = 12 + 8 + jsonLength + 8 + bin.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); view.setUint32(4, 2, true); view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true); view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength); out.set(text, 20);
  view.setUint32(20 + jsonLength, bin.length, true); view.setUint32(24 + jsonLength, 0x004e4942, true);
  out.set(bin, 28 + jsonLength);
  return out.buffer;
}

async function loadGraph(shape: string, n: number, width = 0): Promise<{ ms: number; plainMs: number; graphWork: number; size: number; codes: Record<string, number>; groups: number; levels: number }> {
  const nodes = nodesOf(shape, n, width);
  const size = nodes.reduce((s, d) => s + 1 + (d.extensions?.MSFT_lod.ids.length ?? 0), 0);
  let plugin: MSFTLodLoaderPlugin | undefined;
  const loader = new GLTFLoader().register((parser) => (plugin = new MSFTLodLoaderPlugin(parser)));
  const bytes = glb(nodes);
  // The same file without the plugin first: what three's loader costs on its own (for the log).
  let started = performance.now();
  await new GLTFLoader().parseAsync(bytes.slice(0), '');
  const plainMs = performance.now() - started;
  started = performance.now();
  await loader.parseAsync(bytes, '');
  const ms = performance.now() - started;
  const codes: Record<string, number> = {};
  for (const w of plugin!.warnings) codes[w.code] = (codes[w.code] ?? 0) + 1;
  return { ms, plainMs, graphWork: plugin!.graphWork, size, codes, groups: plugin!.groups.length, levels: plugin!.groups[0]?.levels.length ?? 0 };
}

(window as unknown as { loadGraph: typeof loadGraph }).loadGraph = loadGraph;
document.body.dataset.ready = '1';
