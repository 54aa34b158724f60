/**
 * InstancedLOD: levels by the distance / pixel formulas, three's own frustum culling after the
 * camera turns, slot contents (matrix and colour) through any sequence of level changes, adds,
 * moves, recolours, hides and removes (fast-check), raycasting the drawn level, upload accounting.
 * Expected values come from independent formulas and from three's `Frustum`, never from lodkit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Color, Frustum, IcosahedronGeometry, Matrix4, MeshBasicMaterial, PerspectiveCamera, Raycaster, Sphere, Vector2, Vector3, type Camera,
} from 'three';
import { InstancedLOD, SHADOW_ONLY_LEVEL } from '../../../src/adapters/three/instancedLOD.js';
import { HIDDEN_LEVEL } from '../../../src/batch/lodSet.js';

const material = new MeshBasicMaterial();
const GEOMETRIES = [3, 1, 0].map((d) => new IcosahedronGeometry(1, d)); // radius 1; 1280, 80, 20 triangles
const TRIS = [1280, 80, 20];

function look(camera: Camera, eye: number[], target: number[]): void {
  camera.position.set(eye[0], eye[1], eye[2]);
  camera.lookAt(target[0], target[1], target[2]);
  camera.updateMatrixWorld(true);
}

function threeFrustum(camera: Camera): Frustum {
  return new Frustum().setFromProjectionMatrix(new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
}

function forest(metric: 'distance' | 'pixels', thresholds: number[], capacity = 64): InstancedLOD {
  return new InstancedLOD({ levels: GEOMETRIES.map((geometry) => ({ geometry, material })), metric, thresholds, viewportHeight: 1000, capacity });
}

/** What every level mesh's first `count` slots hold: [level, slot, instance id]. */
function drawnSlots(lod: InstancedLOD): { level: number; slot: number; id: number }[] {
  const out: { level: number; slot: number; id: number }[] = [];
  lod.levelMeshes.forEach((mesh, level) => { for (let s = 0; s < mesh.count; s++) out.push({ level, slot: s, id: lod.instanceAt(level, s) }); });
  return out;
}

describe('InstancedLOD', () => {
  it('pixels metric: every instance is drawn in the mesh of the pixel formula; slots hold its matrix and colour', () => {
    const lod = forest('pixels', [80, 20]);
    const positions: Vector3[] = [];
    let seed = 3;
    const rand = (): number => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
    for (let i = 0; i < 600; i++) {
      const p = new Vector3((rand() - 0.5) * 300, 0, -rand() * 300);
      positions.push(p);
      const id = lod.addInstance(new Matrix4().makeTranslation(p.x, p.y, p.z), new Color(rand(), rand(), rand()));
      expect(id).toBe(i);
    }
    const camera = new PerspectiveCamera(60, 1, 0.1, 5000);
    look(camera, [0, 20, 40], [0, 0, -200]);
    const stats = lod.update(camera, { policy: 'thresholds' });
    const f = threeFrustum(camera), eye = camera.position, wh = 2 * Math.tan(Math.PI / 6);
    const counts = [0, 0, 0];
    let cost = 0;
    positions.forEach((p, i) => {
      if (!f.intersectsSphere(new Sphere(p, 1))) { expect(lod.levelOf(i)).toBe(HIDDEN_LEVEL); return; }
      const px = (2 / (eye.distanceTo(p) * wh)) * 1000;
      if (Math.abs(px - 80) < 1e-3 || Math.abs(px - 20) < 1e-3) return;
      const level = px > 80 ? 0 : px > 20 ? 1 : 2;
      expect(lod.levelOf(i)).toBe(level);
      counts[level]++; cost += TRIS[level];
    });
    expect(lod.levelMeshes.map((m) => m.count)).toEqual(counts);
    expect(stats.totalCost).toBe(cost);
    const m = new Matrix4(), c = new Color(), want = new Color();
    for (const { level, slot, id } of drawnSlots(lod)) {
      lod.levelMeshes[level].getMatrixAt(slot, m);
      expect([m.elements[12], m.elements[14]]).toEqual([Math.fround(positions[id].x), Math.fround(positions[id].z)]);
      lod.levelMeshes[level].getColorAt(slot, c);
      expect(c.equals(lod.getColorAt(id, want))).toBe(true);
    }
  });

  it("three's own Frustum.intersectsObject draws every level mesh with live instances after the camera turns to another cluster", () => {
    const lod = forest('distance', [30, 120]);
    const cluster = (cx: number): void => {
      for (let i = 0; i < 200; i++) lod.addInstance(new Matrix4().makeTranslation(cx + (i % 20) * 4, 0, -Math.floor(i / 20) * 25 - 5));
    };
    cluster(-400); cluster(400);
    lod.updateMatrixWorld(true);
    const camera = new PerspectiveCamera(50, 1.5, 0.1, 2000);
    const drawnByThree = (): boolean[] => {
      // What WebGLRenderer.projectObject does for each child: visible && (!frustumCulled || frustum.intersectsObject(object)).
      const f = threeFrustum(camera);
      return lod.levelMeshes.map((m) => m.visible && (!m.frustumCulled || f.intersectsObject(m)));
    };
    look(camera, [-360, 5, 20], [-360, 0, -100]);
    lod.update(camera);
    expect(lod.levelMeshes.every((m) => m.count > 0)).toBe(true);
    expect(drawnByThree()).toEqual([true, true, true]);
    look(camera, [440, 5, 20], [440, 0, -100]); // turn to the other cluster
    lod.update(camera);
    for (const id of drawnSlots(lod).map((s) => s.id)) expect(lod.getMatrixAt(id, new Matrix4()).elements[12]).toBeGreaterThan(0);
    const drawn = drawnByThree();
    lod.levelMeshes.forEach((m, l) => { if (m.count > 0) expect(drawn[l]).toBe(true); });
    expect(lod.levelMeshes.filter((m) => m.count > 0).length).toBe(3);
  });

  it('fast-check: through adds, removes, moves, recolours, hides and camera moves, every live instance is drawn exactly once, in the slot of its level, with its own matrix and colour', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), x: fc.double({ min: -200, max: 200, noNaN: true }), z: fc.double({ min: -300, max: 50, noNaN: true }), n: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), x: fc.double({ min: -200, max: 200, noNaN: true }), z: fc.double({ min: -300, max: 50, noNaN: true }) }),
      fc.record({ kind: fc.constant('color' as const), pick: fc.nat(), r: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({ kind: fc.constant('hide' as const), pick: fc.nat(), visible: fc.boolean() }),
      fc.record({ kind: fc.constant('camera' as const), x: fc.double({ min: -150, max: 150, noNaN: true }), z: fc.double({ min: -100, max: 80, noNaN: true }), yaw: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }) }),
    );
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
      const lod = forest('distance', [30, 90], 8);
      const model = new Map<number, { x: number; z: number; color: number; visible: boolean }>();
      const camera = new PerspectiveCamera(60, 1.5, 0.1, 400);
      look(camera, [0, 2, 40], [0, 0, -100]);
      const live = (): number[] => [...model.keys()].sort((a, b) => a - b);
      const check = (): void => {
        lod.update(camera);
        const f = threeFrustum(camera), eye = camera.position;
        const seen = new Map<number, number>();
        const m = new Matrix4(), c = new Color();
        for (const { level, slot, id } of drawnSlots(lod)) {
          expect(model.has(id)).toBe(true);
          expect(seen.has(id)).toBe(false); // drawn exactly once
          seen.set(id, level);
          const o = model.get(id)!;
          lod.levelMeshes[level].getMatrixAt(slot, m);
          expect(m.elements[12]).toBe(Math.fround(o.x));
          expect(m.elements[14]).toBe(Math.fround(o.z));
          if (lod.levelMeshes[level].instanceColor !== null) {
            lod.levelMeshes[level].getColorAt(slot, c);
            expect(c.r).toBe(Math.fround(o.color));
          } else expect(o.color).toBe(1);
          expect(lod.levelOf(id)).toBe(level);
          expect(lod.slotAt(id)).toBe(slot);
        }
        for (const [id, o] of model) {
          // Every live instance's data, drawn or not (an undrawn one lives in the CPU-only pool).
          expect(lod.getMatrixAt(id, m).elements[12]).toBe(Math.fround(o.x));
          expect(lod.getMatrixAt(id, m).elements[14]).toBe(Math.fround(o.z));
          expect(lod.getColorAt(id, c).r).toBe(Math.fround(o.color));
          const p = new Vector3(o.x, 0, o.z);
          const inView = f.intersectsSphere(new Sphere(p, 1));
          const d = Math.max(0, eye.distanceTo(p) - 1);
          const margin = Math.min(Math.abs(d - 30), Math.abs(d - 90), Math.abs(f.planes.reduce((a, pl) => Math.min(a, Math.abs(pl.distanceToPoint(p) + 1)), Infinity)));
          if (margin < 1e-3) continue;
          const expected = !o.visible || !inView ? -1 : d < 30 ? 0 : d < 90 ? 1 : 2;
          expect(seen.get(id) ?? -1).toBe(expected);
        }
      };
      for (const o of ops) {
        const ids = live();
        if (o.kind === 'add') {
          for (let k = 0; k < o.n; k++) {
            const x = o.x + k * 3, z = o.z - k * 2;
            const id = lod.addInstance(new Matrix4().makeTranslation(x, 0, z));
            expect(model.has(id)).toBe(false);
            model.set(id, { x, z, color: 1, visible: true });
          }
        } else if (ids.length === 0) {
          continue;
        } else if (o.kind === 'remove') {
          const id = ids[o.pick % ids.length];
          lod.removeInstance(id); model.delete(id);
        } else if (o.kind === 'move') {
          const id = ids[o.pick % ids.length];
          lod.setMatrixAt(id, new Matrix4().makeTranslation(o.x, 0, o.z));
          Object.assign(model.get(id)!, { x: o.x, z: o.z });
        } else if (o.kind === 'color') {
          const id = ids[o.pick % ids.length];
          lod.setColorAt(id, new Color(o.r, 0.5, 0.25));
          model.get(id)!.color = o.r;
        } else if (o.kind === 'hide') {
          const id = ids[o.pick % ids.length];
          lod.setVisibleAt(id, o.visible);
          model.get(id)!.visible = o.visible;
        } else {
          look(camera, [o.x, 2, o.z], [o.x + Math.sin(o.yaw) * 100, 0, o.z - Math.cos(o.yaw) * 100]);
        }
        check();
      }
      expect(lod.instanceCount).toBe(model.size);
    }), { numRuns: 120, seed: 10 });
  });

  it('camera jumps (thousands of instances enter and leave every pool in one update): levels by the distance formula, each instance drawn once with its own matrix and colour', () => {
    const lod = forest('distance', [30, 90], 16);
    const side = 72, n = side * side, matrices = new Float32Array(n * 16), m = new Matrix4(), c = new Color();
    const at = (i: number): [number, number] => [(i % side) * 3 - 108, -Math.floor(i / side) * 3 + 20];
    for (let i = 0; i < n; i++) m.makeTranslation(at(i)[0], 0, at(i)[1]).toArray(matrices, i * 16);
    expect(lod.addInstances(matrices)).toBe(0);
    for (let i = 0; i < n; i += 7) lod.setColorAt(i, new Color(i / n, 0.25, 0.5));
    const camera = new PerspectiveCamera(90, 1, 0.1, 1000);
    let large = 0;
    // A teleport per frame: most instances change level (from and into every pool).
    for (const [x, z, yaw] of [[0, 30, 0], [0, -220, Math.PI], [-60, -90, 1.2], [80, -90, -1.9], [0, 30, 0]]) {
      look(camera, [x, 2, z], [x + Math.sin(yaw) * 100, 0, z - Math.cos(yaw) * 100]);
      const changes = lod.update(camera).changes;
      if (changes >= 1024) large++;
      const f = threeFrustum(camera), eye = camera.position, seen = new Set<number>();
      for (const { level, slot, id } of drawnSlots(lod)) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
        expect([lod.levelOf(id), lod.slotAt(id)]).toEqual([level, slot]);
      }
      for (let id = 0; id < n; id++) {
        const [px, pz] = at(id), p = new Vector3(px, 0, pz);
        lod.getMatrixAt(id, m);
        expect([m.elements[12], m.elements[14]]).toEqual([Math.fround(px), Math.fround(pz)]);
        expect(lod.getColorAt(id, c).r).toBe(id % 7 === 0 ? Math.fround(id / n) : 1);
        const d = Math.max(0, eye.distanceTo(p) - 1);
        const margin = Math.min(Math.abs(d - 30), Math.abs(d - 90), f.planes.reduce((a, pl) => Math.min(a, Math.abs(pl.distanceToPoint(p) + 1)), Infinity));
        if (margin < 1e-3) continue;
        const level = !f.intersectsSphere(new Sphere(p, 1)) ? HIDDEN_LEVEL : d < 30 ? 0 : d < 90 ? 1 : 2;
        expect(lod.levelOf(id)).toBe(level);
      }
      for (const mesh of lod.levelMeshes) {
        for (let s = 0; s < mesh.count; s++) {
          const id = lod.instanceAt(lod.levelMeshes.indexOf(mesh), s);
          mesh.getMatrixAt(s, m);
          expect(m.elements[12]).toBe(Math.fround(at(id)[0]));
        }
      }
    }
    expect(large).toBeGreaterThanOrEqual(4); // (reserveForMoves' batch path ran)
  });

  it('large churn (the CPU-only pool grows and shrinks): every instance keeps its own matrix and colour', () => {
    const lod = forest('distance', [30, 90], 16);
    const n = 30_000, want = new Map<number, [number, number, number]>();
    for (let i = 0; i < n; i++) {
      const x = (i % 200) * 2 - 200, z = -Math.floor(i / 200) * 2;
      const id = lod.addInstance(new Matrix4().makeTranslation(x, 0, z), new Color(i / n, 0.5, 0.5));
      want.set(id, [x, z, Math.fround(i / n)]);
    }
    const camera = new PerspectiveCamera(60, 1.5, 0.1, 400);
    const m = new Matrix4(), c = new Color();
    const verify = (): void => {
      for (const [id, [x, z, r]] of want) {
        lod.getMatrixAt(id, m);
        expect([m.elements[12], m.elements[14], lod.getColorAt(id, c).r]).toEqual([Math.fround(x), Math.fround(z), r]);
      }
      const drawn = drawnSlots(lod);
      expect(new Set(drawn.map((d) => d.id)).size).toBe(drawn.length);
    };
    let peak = 0;
    for (let f = 0; f < 6; f++) {
      look(camera, [f * 40 - 100, 5, 30 - f * 40], [f * 40 - 100, 0, -300]);
      lod.update(camera);
      peak = Math.max(peak, lod.byteLength);
      verify();
      // Remove a quarter of the live instances (the pools shrink), then move some.
      let k = 0;
      for (const id of [...want.keys()]) if (k++ % 4 === f % 4) { lod.removeInstance(id); want.delete(id); }
      for (const [id, v] of [...want].slice(0, 500)) { v[0] += 1; lod.setMatrixAt(id, new Matrix4().makeTranslation(v[0], 0, v[1])); }
      verify();
    }
    expect(lod.instanceCount).toBe(want.size);
    // The CPU-only pool follows the live count down (level pools keep their peak size).
    expect(lod.byteLength).toBeLessThan(peak);
  });

  it('raycasting hits the drawn level: instanceId is the instance id, hidden instances are not hit', () => {
    const lod = forest('distance', [30, 90]);
    const near = lod.addInstance(new Matrix4().makeTranslation(0, 0, -10));
    const far = lod.addInstance(new Matrix4().makeTranslation(3, 0, -60));
    const hidden = lod.addInstance(new Matrix4().makeTranslation(-3, 0, -20));
    lod.setVisibleAt(hidden, false);
    lod.updateMatrixWorld(true);
    const camera = new PerspectiveCamera(60, 1, 0.1, 500);
    look(camera, [0, 0, 0], [0, 0, -1]);
    lod.update(camera);
    expect([lod.levelOf(near), lod.levelOf(far), lod.levelOf(hidden)]).toEqual([0, 1, HIDDEN_LEVEL]);
    const hitOf = (x: number, z: number) => new Raycaster(new Vector3(x, 0, 0), new Vector3(0, 0, -1)).intersectObject(lod, true).map((h) => [h.object === lod, h.instanceId]);
    expect(hitOf(0, -10)[0]).toEqual([true, near]);
    expect(hitOf(3, -60)[0]).toEqual([true, far]);
    expect(hitOf(-3, -20)).toEqual([]);
    // The far instance is drawn with the 80-triangle level: the hit lies on that mesh's faces, not on the finer sphere.
    const hit = new Raycaster(new Vector3(3.3, 0.3, 0), new Vector3(0, 0, -1)).intersectObject(lod)[0];
    expect(hit.instanceId).toBe(far);
    const local = hit.point.clone().sub(new Vector3(3, 0, -60));
    expect(local.length()).toBeLessThan(1); // inside the unit sphere: a flat face of the coarse mesh
  });

  it('upload accounting: on a smooth camera path the bytes marked per frame stay ≤ 100 B × changed instances + a constant', () => {
    const n = 100_000, side = Math.round(Math.sqrt(n));
    const lod = new InstancedLOD({ levels: GEOMETRIES.map((geometry) => ({ geometry, material })), metric: 'pixels', thresholds: [60, 15], viewportHeight: 1080, capacity: n });
    const matrices = new Float32Array(n * 16);
    const m = new Matrix4();
    for (let i = 0; i < n; i++) m.makeTranslation((i % side) * 6 - side * 3, 0, Math.floor(i / side) * 6 - side * 3).toArray(matrices, i * 16);
    lod.addInstances(matrices);
    lod.setColorAt(0, new Color('#2e7d32'));
    const camera = new PerspectiveCamera(55, 16 / 9, 0.5, 3000);
    let worst = 0, frames = 0, totalBytes = 0, totalChanges = 0;
    for (let f = 0; f < 140; f++) {
      const a = f * 0.01;
      look(camera, [Math.sin(a) * 300, 8, Math.cos(a) * 300 - 100], [Math.sin(a + 0.5) * 100, 0, -100]);
      const before = lod.uploadStats;
      const stats = lod.update(camera);
      const after = lod.uploadStats;
      if (f < 20) continue; // warm-up: the level buffers grow to their working size
      expect(after.growthBytes).toBe(before.growthBytes);
      const bytes = after.bytes - before.bytes;
      worst = Math.max(worst, bytes - 100 * stats.changes);
      totalBytes += bytes; totalChanges += stats.changes; frames++;
    }
    expect(totalChanges / frames).toBeGreaterThan(50);
    expect(worst).toBeLessThanOrEqual(0); // constant 0: every frame under 100 B per change
    expect(totalBytes / totalChanges).toBeLessThan(100);
  });

  it('a 0-px drawing buffer or an unusable camera is a skipped frame: no throw, every instance keeps its level', () => {
    let height = 1000;
    const renderer = { getDrawingBufferSize: (t: Vector2) => t.set(1600, height) };
    const lod = new InstancedLOD({ levels: GEOMETRIES.map((geometry) => ({ geometry, material })), thresholds: [80, 20], renderer });
    [5, 20, 80].forEach((d) => lod.addInstance(new Matrix4().makeTranslation(0, 0, -d)));
    const camera = new PerspectiveCamera(60, 1.6, 0.1, 1000);
    look(camera, [0, 0, 0], [0, 0, -1]);
    lod.update(camera);
    const levels = [0, 1, 2].map((id) => lod.levelOf(id));
    const px = (d: number): number => (2 / (d * 2 * Math.tan(Math.PI / 6))) * 1000;
    expect(levels).toEqual([5, 20, 80].map((d) => (px(d) > 80 ? 0 : px(d) > 20 ? 1 : 2)));
    height = 0;
    look(camera, [0, 0, 70], [0, 0, -1]);
    expect(() => lod.update(camera)).not.toThrow();
    camera.projectionMatrix.elements[0] = NaN; // unusable camera
    expect(() => lod.update(camera)).not.toThrow();
    expect(lod.skippedFrames).toBe(2);
    expect([0, 1, 2].map((id) => lod.levelOf(id))).toEqual(levels);
  });

  it('rejects bad input at the boundary with the field named', () => {
    expect(() => new InstancedLOD({ levels: [], thresholds: [] })).toThrow(/levels/);
    expect(() => forest('pixels', [80])).toThrow(/thresholds must have levels − 1 = 2/);
    const lod = forest('pixels', [80, 20]);
    expect(() => lod.setMatrixAt(0, new Matrix4())).toThrow(/live instance id/);
    expect(() => lod.addInstances(new Float32Array(15))).toThrow(/16 floats/);
    const id = lod.addInstance(new Matrix4());
    lod.removeInstance(id);
    expect(() => lod.removeInstance(id)).toThrow(/live instance id/);
    expect(SHADOW_ONLY_LEVEL).toBe(254);
  });
});
