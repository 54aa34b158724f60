// The MSFT_lod write path: glTF-Transform writes only the extensions registered on the NodeIO, so a
// plain NodeIO drops LOD groups. createLodIO is the documented way; the round trip proves it, and
// the plain-NodeIO case is kept as a test so the pitfall stays documented by behaviour.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO, type ILogger, type Logger } from '@gltf-transform/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createLodIO, readGltfDocument, readLodGroups, writeLodGroup } from '../../../src/adapters/gltf/index.js';
import { specExample } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'lodkit-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function glbJson(bytes: Uint8Array): { nodes: { name: string; extensions?: unknown }[]; extensionsUsed?: string[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + view.getUint32(12, true))));
}

class Quiet implements ILogger {
  warnings: string[] = [];
  debug(): void {}
  info(): void {}
  warn(t: string): void { this.warnings.push(t); }
  error(t: string): void { this.warnings.push(t); }
}

describe('writing MSFT_lod', () => {
  it('a plain NodeIO drops the LOD groups (with only a logger warning): the pitfall createLodIO avoids', async () => {
    const { document } = specExample();
    const logger = new Quiet();
    const json = glbJson(await new NodeIO().setLogger(logger as unknown as Logger).writeBinary(document));
    expect(json.extensionsUsed).toBeUndefined();
    expect(json.nodes[0].extensions).toBeUndefined();
    expect(logger.warnings.join()).toMatch(/not registered/);
  });

  it('createLodIO() keeps them: the file names MSFT_lod and reads back to the same group', async () => {
    const { document } = specExample();
    const path = join(dir, 'spec.glb');
    await createLodIO().write(path, document);
    const json = glbJson(new Uint8Array(readFileSync(path)));
    expect(json.extensionsUsed).toEqual(['MSFT_lod']);
    expect(json.nodes[0].extensions).toEqual({ MSFT_lod: { ids: [1, 2] } });
    const { groups } = readLodGroups((await readGltfDocument(path)).document);
    expect(groups.map((g) => [g.name, g.levels.map((l) => l.name), g.coverage])).toEqual([['High_LOD', ['High_LOD', 'Medium_LOD', 'Low_LOD'], [0.5, 0.2, 0.01]]]);
  });

  it('createLodIO(io) registers the extension on the caller\'s own NodeIO and returns it', async () => {
    const { document, nodes } = specExample();
    writeLodGroup(document, { node: nodes[0], levels: [nodes[2]], coverage: [0.4, 0.1] });
    const mine = new NodeIO();
    const io = createLodIO(mine);
    expect(io).toBe(mine);
    const json = glbJson(await mine.writeBinary(document));
    expect(json.nodes[0].extensions).toEqual({ MSFT_lod: { ids: [2] } });
  });
});
