/**
 * BabylonThinInstanceLod in Babylon's NullEngine: along a camera path, and after adding, removing
 * and moving instances, each level mesh draws exactly the instances the rule computed here
 * (expected.ts) puts at that level, its matrix and colour slots hold those instances' matrices and
 * colours, and a frame uploads only the slots its changes wrote.
 */
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import { CreatePlane } from '@babylonjs/core/Meshes/Builders/planeBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BabylonLodManager, BabylonThinInstanceLod } from '../../../src/adapters/babylon/index.js';
import { lcg } from '../../helpers/random.js';
import { levelFor, sizeOf, type CameraModel } from './expected.js';

const W = 1024, H = 576, FOV = 0.9;
const THRESHOLDS = [120, 40, 12];
let engine: NullEngine;
beforeAll(() => {
  Logger.LogLevels = Logger.NoneLogLevel;
  engine = new NullEngine({ renderWidth: W, renderHeight: H, textureSize: 256, deterministicLockstep: false, lockstepMaxSteps: 1 });
});
afterAll(() => engine.dispose());

interface Inst { key: number; pos: number[]; scale: number; color: number[] }

/** Records what the level meshes are given: the latest buffers and the slots each partial update writes. */
function spy(mesh: Mesh): { buffers: Map<string, Float32Array>; partial: number; setBuffer: number } {
  const rec = { buffers: new Map<string, Float32Array>(), partial: 0, setBuffer: 0 };
  const set = mesh.thinInstanceSetBuffer.bind(mesh), part = mesh.thinInstancePartialBufferUpdate.bind(mesh);
  mesh.thinInstanceSetBuffer = (kind, buffer, stride, isStatic) => { rec.setBuffer++; if (buffer !== null) rec.buffers.set(kind, buffer); set(kind, buffer, stride, isStatic); };
  mesh.thinInstancePartialBufferUpdate = (kind, n, offset) => { if (kind === 'matrix') rec.partial += n as number; part(kind, n, offset); };
  return rec;
}

describe('BabylonThinInstanceLod', () => {
  it('counts per level, slots, colours and uploads follow the independent rule through camera moves and edits', () => {
    const scene = new Scene(engine);
    const camera = new FreeCamera('cam', new Vector3(0, 0, 0), scene);
    camera.fov = FOV; camera.minZ = 0.5; camera.maxZ = 600;
    const meshes = [CreateBox('l0', { size: 2 }, scene), CreatePlane('l1', { size: 2 }, scene), CreatePlane('l2', { size: 2 }, scene)];
    const spies = meshes.map(spy);
    const manager = new BabylonLodManager(scene);
    const lod = new BabylonThinInstanceLod(manager, [...meshes, null], { metric: 'pixels', thresholds: THRESHOLDS, colors: true, capacity: 1024 });
    const rand = lcg(21);
    const insts = new Map<number, Inst>();
    const place = (): { pos: number[]; scale: number; m: Float32Array } => {
      const pos = [(rand() - 0.5) * 160, (rand() - 0.5) * 30, rand() * 300], scale = 0.3 + 2 * rand();
      return { pos, scale, m: Matrix.Scaling(scale, scale, scale).multiply(Matrix.Translation(pos[0], pos[1], pos[2])).m as unknown as Float32Array };
    };
    const addOne = () => {
      const p = place(), color = [rand(), rand(), rand(), 1];
      const key = lod.add(p.m, color);
      insts.set(key, { key, pos: p.pos, scale: p.scale, color });
    };
    for (let i = 0; i < 600; i++) addOne();

    const check = (label: string) => {
      const p = camera.position, t = camera.getTarget();
      const m: CameraModel = { eye: [p.x, p.y, p.z], target: [t.x, t.y, t.z], rightHanded: false, fov: FOV, width: W, height: H, near: 0.5, far: 600 };
      const want = [new Set<number>(), new Set<number>(), new Set<number>()];
      let unsure = 0;
      for (const inst of insts.values()) {
        const s = sizeOf(m, 'pixels', inst.pos, Math.sqrt(3) * inst.scale);
        const level = s === null ? null : s === 'culled' ? 3 : levelFor('pixels', THRESHOLDS, s);
        if (level === null) { unsure++; continue; }
        if (level < 3) want[level].add(inst.key);
        expect(lod.levelOf(inst.key), `${label}: instance ${inst.key}`).toBe(level === 3 ? 255 : level);
      }
      for (let l = 0; l < 3; l++) {
        const count = lod.countOf(l), mesh = meshes[l];
        expect(mesh.thinInstanceCount, `${label}: level ${l}`).toBe(count);
        expect(count).toBeGreaterThanOrEqual(want[l].size);
        expect(count).toBeLessThanOrEqual(want[l].size + unsure);
        expect(mesh.isEnabled(false)).toBe(count > 0);
        const matrices = spies[l].buffers.get('matrix')!, colors = spies[l].buffers.get('color')!;
        for (let s = 0; s < count; s++) {
          const inst = insts.get(lod.ownerOf(l, s))!;
          expect(lod.levelOf(inst.key)).toBe(l);
          expect([matrices[s * 16 + 12], matrices[s * 16 + 13], matrices[s * 16 + 14], matrices[s * 16]].map(Math.fround))
            .toEqual([...inst.pos, inst.scale].map(Math.fround));
          expect(Array.from(colors.subarray(s * 4, s * 4 + 4))).toEqual(inst.color.map(Math.fround));
        }
      }
      return want.map((w) => w.size);
    };

    const seen = new Set<number>();
    for (let step = 0; step < 16; step++) {
      camera.position.set(-10 + 2 * step, 2, -40 + 14 * step);
      camera.setTarget(new Vector3(5 * Math.sin(step), 0, camera.position.z + 60));
      scene.render();
      check(`step ${step}`).forEach((n, l) => { if (n > 0) seen.add(l); });
      if (step > 0) {
        // A frame writes at most two slots per level change (the hole filled, the new slot).
        expect(spies.reduce((s, r) => s + r.setBuffer, 0)).toBe(meshes.length * 2); // the first frame's buffers only
        expect(lod.uploadedSlots).toBeLessThanOrEqual(2 * manager.touched);
      }
    }
    expect(seen.size).toBe(3);
    expect(spies.reduce((s, r) => s + r.partial, 0)).toBeGreaterThan(0); // changes went out as partial updates

    // A frame with nothing changed uploads nothing.
    const before = spies.map((r) => r.partial);
    scene.render();
    expect(manager.touched).toBe(0);
    expect(spies.map((r) => r.partial)).toEqual(before);

    // Edits: remove 100, move 100 (new position, scale and colour), add 100.
    const keys = [...insts.keys()];
    for (const key of keys.slice(0, 100)) { lod.remove(key); insts.delete(key); }
    for (const key of keys.slice(100, 200)) {
      const p = place(), color = [rand(), rand(), rand(), 1];
      lod.setMatrix(key, p.m); lod.setColor(key, color);
      insts.set(key, { key, pos: p.pos, scale: p.scale, color });
    }
    for (let i = 0; i < 100; i++) addOne();
    expect(lod.size).toBe(600);
    scene.render();
    check('after edits');
    manager.dispose();
    scene.dispose();
  });
});
