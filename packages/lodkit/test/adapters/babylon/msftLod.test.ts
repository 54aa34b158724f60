/**
 * The lodkit MSFT_lod loader extension in Babylon's NullEngine: a chain written by lodkit's own
 * generator loads with every level, and dollying the camera in switches the levels where the
 * coverage computed here (the bounding sphere's projected disc ÷ the screen, from the accessor's
 * min/max and the camera's fov and render size) crosses the file's MSFT_screencoverage values, in
 * left- and right-handed scenes; bad coverage is reported and the node is loaded as Babylon loads
 * it without the extension.
 */
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import '@babylonjs/loaders/glTF/2.0/index.js';
import { registerGLTFExtension, unregisterGLTFExtension } from '@babylonjs/loaders/glTF/2.0/glTFLoaderExtensionRegistry.js';
import { Document, type Node } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLodChain } from '../../../src/adapters/gltf/index.js';
import { LODKIT_MSFT_LOD, lodkitManagerOf, registerLodkitMSFTLod, type LodkitMSFTLodWarning } from '../../../src/adapters/babylon/index.js';
import { addMesh, lodIO, uvSphere } from '../gltf/fixtures.js';

const W = 800, H = 600, FOV = 0.8;
let engine: NullEngine;
const warnings: LodkitMSFTLodWarning[] = [];
beforeAll(() => {
  Logger.LogLevels = Logger.NoneLogLevel;
  engine = new NullEngine({ renderWidth: W, renderHeight: H, textureSize: 256, deterministicLockstep: false, lockstepMaxSteps: 1 });
});
afterAll(() => { unregisterGLTFExtension(LODKIT_MSFT_LOD); engine.dispose(); });

interface Chain { bytes: Uint8Array; names: string[]; coverage: number[]; center: number[]; radius: number }

async function chain(): Promise<Chain> {
  const document = new Document();
  document.createBuffer();
  document.createScene().addChild(document.createNode('Ball').setMesh(addMesh(document, 'ball', uvSphere(1, 32, 16))));
  const [c] = await generateLodChain(document, { levels: 3 });
  const node: Node = c.levels[0].node;
  const coverage = (node.getExtras() as { MSFT_screencoverage: number[] }).MSFT_screencoverage;
  const position = node.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!;
  const min = position.getMin([]), max = position.getMax([]);
  const center = [0, 1, 2].map((k) => (min[k] + max[k]) / 2);
  const radius = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2;
  return { bytes: await lodIO().writeBinary(document), names: c.levels.map((l) => l.node.getName()), coverage, center, radius };
}

async function load(bytes: Uint8Array, rightHanded: boolean): Promise<{ scene: Scene; camera: FreeCamera }> {
  const scene = new Scene(engine);
  scene.useRightHandedSystem = rightHanded;
  const camera = new FreeCamera('cam', new Vector3(0, 0, -10), scene);
  camera.fov = FOV; camera.minZ = 0.01; camera.maxZ = 1e6;
  const container = await LoadAssetContainerAsync(bytes, scene, { pluginExtension: '.glb' });
  container.addAllToScene();
  return { scene, camera };
}

/** Coverage as a fraction of the screen: the sphere's projected disc (area) or diameter (height). */
function coverageAt(c: Chain, distance: number, measure: 'area' | 'height'): number {
  const halfH = Math.tan(FOV / 2), halfW = halfH * (W / H);
  const r = c.radius / distance;
  return measure === 'area' ? (Math.PI * r * r) / (4 * halfW * halfH) : r / halfH;
}

function expectedLevel(values: number[], levelCount: number, value: number): number | null {
  if (values.some((v) => Math.abs(v - value) < 1e-5 * v)) return null;
  let level = 0;
  while (level < values.length && !(value > values[level])) level++;
  return level >= levelCount ? -1 : level; // -1: culled, nothing drawn
}

function enabled(scene: Scene, names: string[]): number {
  const on = names.map((n) => scene.getMeshByName(n)?.isEnabled(true) === true);
  return on.filter(Boolean).length === 0 ? -1 : on.filter(Boolean).length > 1 ? -2 : on.indexOf(true);
}

describe('registerLodkitMSFTLod', () => {
  for (const measure of ['area', 'height'] as const) {
    for (const rightHanded of [false, true]) {
      it(`coverage = ${measure}, ${rightHanded ? 'right' : 'left'}-handed: dollying in switches at the independently computed coverage`, async () => {
        registerLodkitMSFTLod(registerGLTFExtension, { coverage: measure, onWarning: (w) => warnings.push(w) });
        const c = await chain();
        expect(c.coverage.length).toBeGreaterThanOrEqual(c.names.length - 1);
        const { scene, camera } = await load(c.bytes, rightHanded);
        for (const name of c.names) expect(scene.getMeshByName(name), name).not.toBeNull();
        expect(lodkitManagerOf(scene)!.count).toBe(1);
        // The ball's centre in Babylon's world: a left-handed scene mirrors glTF's z.
        const centre = [c.center[0], c.center[1], rightHanded ? c.center[2] : -c.center[2]];
        const seen = new Set<number>();
        // From twice the distance of the last switch to half that of the first (at least 2 radii).
        const halfH = Math.tan(FOV / 2), k2 = (4 * halfH * halfH * (W / H)) / Math.PI;
        const at = (v: number) => (measure === 'area' ? c.radius / Math.sqrt(v * k2) : c.radius / (v * halfH));
        const far = 2 * at(c.coverage[c.coverage.length - 1]), near = Math.max(0.5 * at(c.coverage[0]), 2 * c.radius);
        for (let k = 0; k <= 60; k++) {
          const distance = far * Math.pow(near / far, k / 60);
          camera.position.set(centre[0] + 0.3, centre[1] - 0.2, centre[2] - distance);
          camera.setTarget(new Vector3(centre[0], centre[1], centre[2]));
          scene.render();
          const d = Math.hypot(0.3, 0.2, distance);
          const want = expectedLevel(c.coverage, c.names.length, coverageAt(c, d, measure));
          if (want === null) continue;
          expect(enabled(scene, c.names), `distance ${d.toFixed(2)}`).toBe(want);
          seen.add(want);
        }
        expect([...seen].sort()).toEqual(c.coverage.length === c.names.length ? [-1, ...c.names.keys()] : [...c.names.keys()]);
        expect(warnings).toEqual([]);
        scene.dispose();
      });
    }
  }

  it('hysteresis: dollying in and back out, each change follows the band rule (h = 0.3)', async () => {
    const h = 0.3;
    registerLodkitMSFTLod(registerGLTFExtension, { hysteresis: h, onWarning: (w) => warnings.push(w) });
    const c = await chain();
    const { scene, camera } = await load(c.bytes, false);
    const centre = [c.center[0], c.center[1], -c.center[2]];
    const halfH = Math.tan(FOV / 2), k2 = (4 * halfH * halfH * (W / H)) / Math.PI;
    const far = 2 * c.radius / Math.sqrt(c.coverage[c.coverage.length - 1] * k2), near = Math.max(0.5 * c.radius / Math.sqrt(c.coverage[0] * k2), 2 * c.radius);
    const path = [...Array(41).keys()].map((k) => far * Math.pow(near / far, k / 40));
    let previous = -1, held = 0;
    const rule = (v: number) => expectedLevel(c.coverage, c.names.length, v);
    for (const distance of [...path, ...path.slice().reverse()]) {
      camera.position.set(centre[0], centre[1], centre[2] - distance);
      camera.setTarget(new Vector3(centre[0], centre[1], centre[2]));
      scene.render();
      const v = coverageAt(c, distance, 'area');
      const hi = rule(v * (1 + h)), lo = rule(v * (1 - h)), mid = rule(v);
      const got = enabled(scene, c.names);
      if (hi !== null && lo !== null && mid !== null && previous !== -1 && mid !== -1) {
        // Keep the previous level while any size in [v(1−h), v(1+h)] still maps to it, else take v's level.
        const keep = hi <= previous && (lo === -1 || previous <= lo);
        expect(got, `distance ${distance.toFixed(2)}`).toBe(keep ? previous : mid);
        if (keep && mid !== previous) held++;
      }
      previous = got;
    }
    expect(held).toBeGreaterThan(0); // the band did hold a level the plain rule would have changed
    expect(warnings).toEqual([]);
    scene.dispose();
  });

  it('bad coverage is reported and the group is loaded as Babylon loads it', async () => {
    registerLodkitMSFTLod(registerGLTFExtension, { onWarning: (w) => warnings.push(w) });
    const document = new Document();
    document.createBuffer();
    const ball = document.createNode('Ball').setMesh(addMesh(document, 'ball', uvSphere(1, 32, 16)));
    document.createScene().addChild(ball);
    await generateLodChain(document, { levels: 3 });
    ball.setExtras({ ...ball.getExtras(), MSFT_screencoverage: [0.01, 0.2, 0.5] });
    const bytes = await lodIO().writeBinary(document);
    const state = (scene: Scene) => scene.meshes.map((m) => `${m.name}:${m.isEnabled(true)}:${m.getTotalIndices()}`).sort();
    warnings.length = 0;
    const withLodkit = await load(bytes, false);
    expect(warnings.map((w) => w.code)).toEqual(['coverage-order']);
    expect(warnings[0].detail).toContain('must descend');
    expect(lodkitManagerOf(withLodkit.scene)).toBeUndefined();
    unregisterGLTFExtension(LODKIT_MSFT_LOD);
    const babylonOnly = await load(bytes, false);
    expect(state(withLodkit.scene)).toEqual(state(babylonOnly.scene));
    withLodkit.scene.dispose(); babylonOnly.scene.dispose();
    warnings.length = 0;
  });
});
