/**
 * Off-screen shadow casters (issue 10): objects culled by the camera but inside the shadow light's
 * frustum stay drawn for the shadow pass — InstancedLOD through a shadow-only mesh on a layer only
 * the light's shadow camera renders, LodManager by keeping the LOD at its coarsest level (three's
 * own culling keeps it off screen). The expected sets come from three's own Frustum of the light's
 * shadow camera.
 */
import { describe, expect, it } from 'vitest';
import {
  Color, DirectionalLight, Frustum, IcosahedronGeometry, Matrix4, Mesh, MeshBasicMaterial, Object3D, PerspectiveCamera, Scene, Sphere, Vector2, Vector3, type Camera,
} from 'three';
import { InstancedLOD, SHADOW_ONLY_LEVEL } from '../../../src/adapters/three/instancedLOD.js';
import { LodManager } from '../../../src/adapters/three/lodManager.js';
import { ScreenSizeLOD } from '../../../src/adapters/three/screenSizeLOD.js';
import { HIDDEN_LEVEL } from '../../../src/batch/lodSet.js';

const material = new MeshBasicMaterial();
const GEOMETRIES = [2, 1, 0].map((d) => new IcosahedronGeometry(1, d));

function frustumOf(camera: Camera): Frustum {
  camera.updateMatrixWorld(true);
  return new Frustum().setFromProjectionMatrix(new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
}

function sunAt(scene: Scene, x: number): DirectionalLight {
  const sun = new DirectionalLight();
  sun.castShadow = true;
  sun.position.set(x, 100, -50);
  sun.target.position.set(x, 0, -50);
  Object.assign(sun.shadow.camera, { left: -60, right: 60, top: 60, bottom: -60, near: 1, far: 300 });
  sun.shadow.camera.updateProjectionMatrix();
  scene.add(sun, sun.target);
  return sun;
}

/** A narrow camera at the origin looking down −z: only instances near x = 0 are on screen. */
function narrowCamera(): PerspectiveCamera {
  const camera = new PerspectiveCamera(20, 1, 0.1, 1000);
  camera.lookAt(0, 0, -1);
  camera.updateMatrixWorld(true);
  return camera;
}

const renderer = (shadows: boolean) => ({ getDrawingBufferSize: (t: Vector2) => t.set(1000, 1000), shadowMap: { enabled: shadows } });

describe('InstancedLOD shadow casters', () => {
  it('culled instances inside the light frustum go to the shadow-only mesh, others nowhere; the layer is the shadow camera’s only', () => {
    const scene = new Scene();
    const sun = sunAt(scene, 0);
    const lod = new InstancedLOD({ levels: GEOMETRIES.map((geometry) => ({ geometry, material })), thresholds: [80, 20], renderer: renderer(true), shadowLight: sun });
    lod.castShadow = true;
    const xs: number[] = [];
    for (let x = -200; x <= 200; x += 5) { xs.push(x); lod.addInstance(new Matrix4().makeTranslation(x, 0, -50)); }
    scene.add(lod);
    const camera = narrowCamera();
    lod.update(camera);
    sun.shadow.updateMatrices(sun);
    const view = frustumOf(camera), light = frustumOf(sun.shadow.camera);
    let casters = 0;
    xs.forEach((x, id) => {
      const s = new Sphere(new Vector3(x, 0, -50), 1);
      const onScreen = view.intersectsSphere(s), lit = light.intersectsSphere(s);
      if (onScreen) expect(lod.levelOf(id)).toBeLessThan(3);
      else if (lit) { expect(lod.levelOf(id)).toBe(SHADOW_ONLY_LEVEL); casters++; }
      else expect(lod.levelOf(id)).toBe(HIDDEN_LEVEL);
    });
    expect(casters).toBeGreaterThan(10);
    expect(lod.shadowMesh.count).toBe(casters);
    const m = new Matrix4();
    for (let s = 0; s < lod.shadowMesh.count; s++) {
      lod.shadowMesh.getMatrixAt(s, m);
      expect(m.elements[12]).toBe(xs[lod.instanceAt(SHADOW_ONLY_LEVEL, s)]);
    }
    expect(lod.shadowMesh.geometry).toBe(GEOMETRIES[2]); // the shadow level: the coarsest by default
    expect(lod.shadowMesh.layers.test(camera.layers)).toBe(false); // never drawn on screen
    expect(lod.shadowMesh.layers.test(sun.shadow.camera.layers)).toBe(true);
    expect(lod.levelMeshes.every((mesh) => mesh.castShadow && mesh.layers.test(camera.layers))).toBe(true);

    // A hidden instance casts nothing; moving the light re-decides every caster.
    const lit = lod.instanceAt(SHADOW_ONLY_LEVEL, 0);
    lod.setVisibleAt(lit, false);
    sun.position.x = 120; sun.target.position.x = 120;
    lod.update(camera);
    sun.shadow.updateMatrices(sun);
    const light2 = frustumOf(sun.shadow.camera);
    xs.forEach((x, id) => {
      const s = new Sphere(new Vector3(x, 0, -50), 1);
      if (view.intersectsSphere(s)) return;
      expect(lod.levelOf(id)).toBe(id !== lit && light2.intersectsSphere(s) ? SHADOW_ONLY_LEVEL : HIDDEN_LEVEL);
    });
  });

  it("shadowLOD 'all': every caster the light sees is drawn at the shadow level in the shadow pass, drawn ones through a copy that follows moves and colours", () => {
    const scene = new Scene();
    const sun = sunAt(scene, 0);
    const lod = new InstancedLOD({ levels: GEOMETRIES.map((geometry) => ({ geometry, material })), thresholds: [80, 20], renderer: renderer(true), shadowLight: sun, shadowLOD: 'all', shadowLevel: 2 });
    lod.castShadow = true;
    const xs: number[] = [];
    for (let x = -200; x <= 200; x += 5) { xs.push(x); lod.addInstance(new Matrix4().makeTranslation(x, 0, -50)); }
    scene.add(lod);
    const camera = narrowCamera();
    lod.update(camera);
    sun.shadow.updateMatrices(sun);
    const view = frustumOf(camera), light = frustumOf(sun.shadow.camera);
    const copies = (): Map<number, number> => {
      const out = new Map<number, number>();
      const m = new Matrix4();
      for (let s = 0; s < lod.shadowCopyMesh.count; s++) { lod.shadowCopyMesh.getMatrixAt(s, m); out.set(m.elements[12], s); }
      return out;
    };
    const drawnInLight = xs.filter((x) => { const s = new Sphere(new Vector3(x, 0, -50), 1); return view.intersectsSphere(s) && light.intersectsSphere(s); });
    expect(drawnInLight.length).toBeGreaterThan(2);
    expect([...copies().keys()].sort((a, b) => a - b)).toEqual(drawnInLight);
    expect(lod.shadowCopyMesh.geometry).toBe(GEOMETRIES[2]);
    expect(lod.levelMeshes.some((m) => m.castShadow)).toBe(false); // the copies cast instead
    expect(lod.shadowCopyMesh.layers.test(camera.layers)).toBe(false);
    expect(lod.shadowMesh.count).toBeGreaterThan(0); // off-screen casters as before
    // Moving a drawn instance moves its copy; recolouring recolours it.
    const id = xs.indexOf(drawnInLight[0]);
    lod.setMatrixAt(id, new Matrix4().makeTranslation(drawnInLight[0], 0.5, -50));
    lod.setColorAt(id, new Color(0.25, 0.5, 0.75));
    const slot = copies().get(drawnInLight[0])!;
    const m = new Matrix4(), c = new Color();
    lod.shadowCopyMesh.getMatrixAt(slot, m);
    expect(m.elements[13]).toBe(0.5);
    lod.shadowCopyMesh.getColorAt(slot, c);
    expect([c.r, c.g, c.b]).toEqual([0.25, 0.5, 0.75]);
    // Looking away: no instance is drawn, so no copies; shadows off: levels cast again.
    camera.lookAt(0, 0, 1); camera.updateMatrixWorld(true);
    lod.update(camera);
    expect(lod.shadowCopyMesh.count).toBe(0);
    lod.shadowCasters = false;
    camera.lookAt(0, 0, -1); camera.updateMatrixWorld(true);
    lod.update(camera);
    expect(lod.shadowCopyMesh.count).toBe(0);
    expect(lod.levelMeshes.every((mesh) => mesh.castShadow)).toBe(true);
  });

  it('off by default when the renderer has no shadow map, and when the object does not cast shadows', () => {
    const scene = new Scene();
    const sun = sunAt(scene, 0);
    for (const [shadows, cast] of [[false, true], [true, false]] as const) {
      const lod = new InstancedLOD({ levels: GEOMETRIES.map((geometry) => ({ geometry, material })), thresholds: [80, 20], renderer: renderer(shadows), shadowLight: sun });
      lod.castShadow = cast;
      for (let x = -100; x <= 100; x += 5) lod.addInstance(new Matrix4().makeTranslation(x, 0, -50));
      lod.update(narrowCamera());
      expect(lod.shadowMesh.count).toBe(0);
    }
  });
});

describe('LodManager shadow casters', () => {
  it('culled LODs inside the light frustum show their coarsest level; outside it, nothing; off again when disabled', () => {
    const scene = new Scene();
    const sun = sunAt(scene, 0);
    const lods: ScreenSizeLOD[] = [];
    for (let x = -200; x <= 200; x += 10) {
      const lod = new ScreenSizeLOD({ metric: 'pixels' });
      GEOMETRIES.forEach((g, i) => lod.addLevel(new Mesh(g, material), [80, 20, 1][i]));
      lod.addLevel(new Object3D(), 0); // an empty coarsest level (as the MSFT_lod plugin makes): not a shadow level
      lod.position.set(x, 0, -50);
      scene.add(lod);
      lods.push(lod);
    }
    scene.updateMatrixWorld(true);
    const manager = new LodManager({ renderer: renderer(true), shadowLight: sun });
    lods.forEach((l) => manager.add(l));
    const camera = narrowCamera();
    manager.update(camera);
    sun.shadow.updateMatrices(sun);
    const view = frustumOf(camera), light = frustumOf(sun.shadow.camera);
    let kept = 0;
    for (const lod of lods) {
      const s = new Sphere(lod.position, 1);
      const shown = lod.levels.map((l) => l.object.visible);
      if (view.intersectsSphere(s)) continue;
      if (light.intersectsSphere(s)) { expect(shown).toEqual([false, false, true, false]); kept++; }
      else expect(shown).toEqual([false, false, false, false]);
    }
    expect(kept).toBeGreaterThan(5);
    expect(manager.shadowCasterCount).toBe(kept);
    manager.shadowCasters = false;
    manager.update(camera);
    expect(manager.shadowCasterCount).toBe(0);
    for (const lod of lods) if (!view.intersectsSphere(new Sphere(lod.position, 1))) expect(lod.levels.some((l) => l.object.visible)).toBe(false);
  });
});
