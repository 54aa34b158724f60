// The declared peer floor of lodkit/three, installed: the built package runs against three 0.160.0
// (installed as the root devDependency `three-min`, an npm alias of three@0.160.0) in a plain Node
// process. The package
// is copied, not linked, into a temporary node_modules, so its own `import 'three'` resolves to the
// old three rather than the repository's.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Document } from '@gltf-transform/core';
import { createLodIO, writeLodGroup } from '../../src/adapters/gltf/index.js';
import { addMesh, uvSphere } from '../adapters/gltf/fixtures.js';
import { assertFreshDist, PACKAGE_ROOT } from '../helpers/dist.js';

// three's exports map hides package.json from require.resolve: take the hoisted folder of the workspace root.
const OLD_THREE = join(PACKAGE_ROOT, '..', '..', 'node_modules', 'three-min');
let work = '';

beforeAll(async () => {
  assertFreshDist();
  work = mkdtempSync(join(tmpdir(), 'lodkit-peers-'));
  const modules = join(work, 'node_modules');
  mkdirSync(join(modules, 'lodkit'), { recursive: true });
  cpSync(join(PACKAGE_ROOT, 'dist'), join(modules, 'lodkit', 'dist'), { recursive: true });
  cpSync(join(PACKAGE_ROOT, 'package.json'), join(modules, 'lodkit', 'package.json'));
  symlinkSync(OLD_THREE, join(modules, 'three'), 'dir');
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'lodkit-peer-probe', private: true, type: 'module' }));
  // A three-level MSFT_lod group: spheres of 32×16, 16×8 and 8×4 segments (960, 224, 48 triangles).
  const document = new Document();
  document.createBuffer();
  const high = document.createNode('Rock').setMesh(addMesh(document, 'high', uvSphere(1, 32, 16)));
  const mid = document.createNode('Rock_mid').setMesh(addMesh(document, 'mid', uvSphere(1, 16, 8)));
  const low = document.createNode('Rock_low').setMesh(addMesh(document, 'low', uvSphere(1, 8, 4)));
  document.createScene().addChild(high);
  writeLodGroup(document, { node: high, levels: [mid, low], coverage: [0.3, 0.05] });
  writeFileSync(join(work, 'rock.glb'), await createLodIO().writeBinary(document));
}, 60_000);
afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

describe('lodkit/three against three 0.160.0 (the peer floor)', () => {
  it('loads, switches a ScreenSizeLOD by pixel size, and turns a GLB\'s MSFT_lod into one', () => {
    const script = `
      import { readFileSync } from 'node:fs';
      import * as THREE from 'three';
      import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
      import { MSFTLodLoaderPlugin, ScreenSizeLOD } from 'lodkit/three';
      const out = { revision: THREE.REVISION };
      // Radius 1 at distance d with a 90° fov on a 1000 px viewport: 1000 / d px (MotoGP 80 / 20 px).
      const lod = new ScreenSizeLOD({ metric: 'pixels', viewportHeight: 1000 });
      for (const t of [80, 20, 0]) lod.addLevel(new THREE.Mesh(new THREE.SphereGeometry(1, 16, 8)), t);
      lod.updateMatrixWorld(true);
      const camera = new THREE.PerspectiveCamera(90, 1, 0.1, 1000);
      out.levels = [5, 20, 100].map((d) => { camera.position.set(0, 0, d); camera.updateMatrixWorld(true); lod.update(camera); return lod.getCurrentLevel(); });
      const bytes = readFileSync('rock.glb');
      let plugin;
      const loader = new GLTFLoader().register((parser) => (plugin = new MSFTLodLoaderPlugin(parser)));
      const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '');
      let lods = 0;
      gltf.scene.traverse((o) => { if (o instanceof ScreenSizeLOD) lods++; });
      out.lods = lods;
      out.groups = plugin.groups.length;
      out.warnings = plugin.warnings.length;
      console.log(JSON.stringify(out));
    `;
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: work, encoding: 'utf8', timeout: 60_000 });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(out.revision).toBe('160');
    expect(out.levels).toEqual([0, 1, 2]); // 200 px, 50 px, 10 px
    expect(out).toMatchObject({ lods: 1, groups: 1, warnings: 0 });
  });
});
