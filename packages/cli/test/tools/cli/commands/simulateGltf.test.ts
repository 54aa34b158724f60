/**
 * `lodkit simulate model.glb`: a glTF file's MSFT_lod groups as a scene, through the whole CLI
 * (`main` in-process with captured streams). The files are built by the tests (see
 * test/simulator/gltfFixtures.ts: one group "Rock", 960 / 224 / 48 triangles, coverage
 * [0.3, 0.05, 0.005]).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../src/tools/cli/main.js';
import type { CliContext } from '../../../../src/tools/cli/context.js';
import { parseSceneText } from '../../../../src/simulator/sceneFormat.js';
import { addMesh, lodIO, packGlb, toGlbParts, uvSphere } from '../../../../../lodkit/test/adapters/gltf/fixtures.js';
import { glbBytes, rockDocument } from '../../../simulator/gltfFixtures.js';
import { tinyStaticScene } from '../../../simulator/fixtures.js';

const work = mkdtempSync(join(tmpdir(), 'lodkit-cli-gltf-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const context: CliContext = {
    stdout: { write: (s: string) => { stdout += s; return true; }, isTTY: false },
    stderr: { write: (s: string) => { stderr += s; return true; }, isTTY: false },
    cwd: work,
  };
  const code = await main(['node', 'lodkit', ...args], context);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  writeFileSync(join(work, 'rock.glb'), await glbBytes(rockDocument()));
  await lodIO().write(join(work, 'rock.gltf'), rockDocument({ coverage: [0.4, 0.1] }));
  writeFileSync(join(work, 'garbage.glb'), new Uint8Array([103, 108, 84, 70, 2, 0, 0, 0, 9, 9, 9, 9]));
  const { json, bin } = await toGlbParts(rockDocument());
  json.nodes[0].extras.MSFT_screencoverage = [0.05, 0.3, 0.5];
  writeFileSync(join(work, 'ascending.glb'), packGlb(json, bin));
  const plain = new Document();
  plain.createBuffer();
  plain.createScene().addChild(plain.createNode('Ball').setMesh(addMesh(plain, 'ball', uvSphere(1, 8, 4))));
  writeFileSync(join(work, 'plain.glb'), await glbBytes(plain));
  writeFileSync(join(work, 'tiny.json'), JSON.stringify(tinyStaticScene()));
});

describe('lodkit simulate model.glb', () => {
  it('--json: exit 0, one object per instance, the file\'s profile, all four policies', async () => {
    const { code, stdout, stderr } = await cli(['simulate', 'rock.glb', '--instances', '6', '--frames', '48', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.format).toBe('lodkit-simulation');
    expect(result.scene.name).toBe('rock.glb');
    expect(result.scene.objects).toBe(6);
    expect(result.scene.profiles.Rock).toMatchObject({ objects: 6, metric: 'screenArea', thresholds: [0.3, 0.05], triangles: [960, 224, 48] });
    expect(result.scene.budget).toBe(2304); // 0.4 × 6 × 960
    expect(result.policies.map((p: { policy: string }) => p.policy)).toEqual(['thresholds', 'rankQuota', 'budget', 'hybrid']);
    expect(result.scene.shots.map((s: { shot: string }) => s.shot)).toEqual(['wide dolly-in', 'telephoto']);
    for (const p of result.policies) expect(p.frames).toHaveLength(48);
  });

  it('prints the table by default; a .gltf with an external .bin works too; --coverage height', async () => {
    const table = await cli(['simulate', 'rock.glb', '--frames', '32']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/\| MSFT_screencoverage \(area\)\s+\|/);
    expect(table.stdout).toMatch(/\| rank quota \[4, 6\]\s+\|/);
    const gltf = await cli(['simulate', 'rock.gltf', '--coverage', 'height', '--frames', '16', '--json']);
    expect(gltf.code).toBe(0);
    expect(JSON.parse(gltf.stdout).scene.profiles.Rock).toMatchObject({ metric: 'screenHeight', thresholds: [0.4, 0.1] });
  });

  it('--save-scene writes the generated scene; simulating it gives the same result bytes', async () => {
    const fromGlb = await cli(['simulate', 'rock.glb', '--instances', '4', '--frames', '40', '--json', '--save-scene', 'rock-scene.json']);
    expect(fromGlb.code).toBe(0);
    const saved = readFileSync(join(work, 'rock-scene.json'), 'utf8');
    const scene = parseSceneText(saved, 'rock-scene.json');
    expect(scene.groups[0].spheres).toHaveLength(16);
    const fromJson = await cli(['simulate', 'rock-scene.json', '--frames', '40', '--json']);
    expect(fromJson.code).toBe(0);
    expect(fromJson.stdout).toBe(fromGlb.stdout);
  });

  it('--out, --policy and --budget keep working', async () => {
    const { code, stdout } = await cli(['simulate', 'rock.glb', '--frames', '20', '--policy', 'budget', '--budget', '3000', '--out', 'report', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.policies.map((p: { policy: string }) => p.policy)).toEqual(['budget']);
    expect(result.policies[0].options.budget).toBe(3000);
    expect(existsSync(join(work, 'report', 'index.html'))).toBe(true);
  });
});

describe('lodkit simulate model.glb: bad input exits 2', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['not glTF', ['simulate', 'garbage.glb'], /^lodkit: cannot simulate garbage\.glb: GltfReadError: /],
    ['missing file', ['simulate', 'missing.glb'], /^lodkit: cannot simulate missing\.glb: GltfReadError: /],
    ['invalid MSFT_lod', ['simulate', 'ascending.glb'], /^lodkit: cannot simulate ascending\.glb: GltfLodError: .*must descend/],
    ['no LOD groups', ['simulate', 'plain.glb'], /^lodkit: cannot simulate plain\.glb: GltfSceneError: plain\.glb has no LOD groups/],
    ['--instances 0', ['simulate', 'rock.glb', '--instances', '0'], /expected a positive integer/],
    ['--instances on a JSON scene', ['simulate', 'tiny.json', '--instances', '3'], /--instances applies only to a glTF scene/],
    ['--coverage on a built-in scenario', ['simulate', '--coverage', 'height'], /--coverage applies only to a glTF scene/],
    ['glTF and --scenario', ['simulate', 'rock.glb', '--scenario', 'motogp'], /not both/],
  ];
  for (const [title, args, message] of cases) {
    it(`${title}: exit 2, one message, no stack`, async () => {
      const { code, stdout, stderr } = await cli(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('--lenient drops the invalid group with a warning, which leaves nothing to simulate (exit 2); --debug adds the stack', async () => {
    const { code, stderr } = await cli(['simulate', 'ascending.glb', '--lenient', '--debug']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/GltfSceneError: ascending\.glb has no LOD groups/);
    expect(stderr).toMatch(/\n\s+at /);
  });
});
