/**
 * Mount and unmount: everything the components made is released — r3f's frame subscribers, the
 * manager's registrations and stats subscribers, the level meshes of `<InstancedLOD>` and the
 * debug helper's mesh (their 'dispose' events counted), the declarative level geometries and
 * materials (r3f's own disposal of children) — while geometries and materials passed in as `levels`
 * stay the caller's. Under StrictMode the same, with effects run twice.
 */
import { createRef, StrictMode, useEffect, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { BoxGeometry, BufferGeometry, Material, MeshBasicMaterial, type Object3D } from 'three';
import type { InstancedLOD as InstancedLODObject } from 'lodkit/three';
import { InstancedLOD, LodDebug, LodInstance, LodManager, ScreenSizeDetailed, useLodStats, type LodRuntime } from '../src/index.js';
import { render } from './helpers.js';

function Stats() {
  useLodStats();
  return null;
}

/** Counts 'dispose' events of every geometry and material under `root`. */
function watchDisposal(root: Object3D): { total: number; disposed: () => number } {
  const seen = new Set<BufferGeometry | Material>();
  root.traverse((o) => {
    const m = o as Object3D & { geometry?: BufferGeometry; material?: Material | Material[] };
    if (m.geometry) seen.add(m.geometry);
    for (const mat of Array.isArray(m.material) ? m.material : m.material ? [m.material] : []) seen.add(mat);
  });
  let count = 0;
  for (const r of seen) r.addEventListener('dispose', () => { count++; });
  return { total: seen.size, disposed: () => count };
}

/** Waits for React/r3f's scheduled work (r3f disposes removed objects in a scheduler callback). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((ok) => setImmediate(ok));
}

describe('unmount releases everything', () => {
  for (const strict of [false, true]) {
    it(`${strict ? 'under StrictMode: ' : ''}subscribers, registrations, GPU objects and listeners return to zero`, async () => {
      const runtime = createRef<LodRuntime>();
      const instanced = createRef<InstancedLODObject>();
      const shared = { geometry: new BoxGeometry(), material: new MeshBasicMaterial() };
      const coarse = { geometry: new BoxGeometry(0.5, 0.5, 0.5), material: shared.material };
      const wrap = (node: ReactNode) => (strict ? <StrictMode>{node}</StrictMode> : node);
      const scene = (on: boolean) => wrap(
        <LodManager ref={runtime}>
          {on ? (
            <>
              {[0, 1, 2, 3].map((i) => (
                <ScreenSizeDetailed key={i} metric="pixels" thresholds={[60]} position={[i, 0, -5]}>
                  <mesh><sphereGeometry args={[1, 16, 8]} /><meshBasicMaterial /></mesh>
                  <mesh><sphereGeometry args={[1, 4, 2]} /><meshBasicMaterial /></mesh>
                </ScreenSizeDetailed>
              ))}
              <InstancedLOD ref={instanced} levels={[shared, coarse]} thresholds={[30]}>
                <LodInstance position={[0, 0, -4]} /><LodInstance position={[2, 0, -8]} color="red" />
              </InstancedLOD>
              <LodDebug panel={false} />
              <Stats />
            </>
          ) : null}
        </LodManager>,
      );
      const r = await render(scene(false));
      const baseline = r.state().internal.subscribers.length; // the manager's own frame callback
      await r.renderer.update(scene(true));
      await r.frame();
      expect(runtime.current!.registered).toBe(4);
      expect(runtime.current!.instanced.size).toBe(1);
      expect(runtime.current!.subscribers).toBe(1);
      expect(instanced.current!.instanceCount).toBe(2);
      const subscribed = r.state().internal.subscribers.length;
      expect(subscribed).toBeGreaterThan(baseline); // LodDebug's frame callback
      // Under a manager the ScreenSizeDetailed have no frame callback of their own.
      expect(subscribed - baseline).toBe(1);
      const lods = r.state().scene.children.filter((o) => o.type === 'ScreenSizeLOD');
      expect(lods).toHaveLength(4);
      const declared = lods.map(watchDisposal);
      const meshes = [...instanced.current!.levelMeshes, instanced.current!.shadowCopyMesh];
      let meshDisposals = 0;
      for (const m of meshes) m.addEventListener('dispose', () => { meshDisposals++; });
      const debug = r.state().scene.children.find((o) => o.name === 'LodDebugHelper')!;
      expect(debug).toBeDefined();
      const debugParts = watchDisposal(debug);
      let sharedDisposals = 0;
      for (const x of [shared.geometry, shared.material, coarse.geometry]) x.addEventListener('dispose', () => { sharedDisposals++; });

      await r.renderer.update(scene(false));
      await settle();
      expect(runtime.current!.registered).toBe(0);
      expect(runtime.current!.instanced.size).toBe(0);
      expect(runtime.current!.subscribers).toBe(0);
      expect(r.state().internal.subscribers.length).toBe(baseline);
      expect(r.state().scene.children.filter((o) => o.type === 'ScreenSizeLOD' || o.name === 'LodDebugHelper' || (o as { isInstancedLOD?: boolean }).isInstancedLOD)).toEqual([]);
      // Each InstancedMesh of the InstancedLOD, and the debug mesh's geometry and material: once each.
      expect(meshDisposals).toBe(meshes.length);
      expect(debugParts.disposed()).toBe(debugParts.total);
      // 4 objects × 2 levels × (geometry + material) declared in JSX: r3f disposes them.
      expect(declared.map((d) => d.total)).toEqual([4, 4, 4, 4]);
      expect(declared.map((d) => d.disposed())).toEqual([4, 4, 4, 4]);
      expect(sharedDisposals, 'levels passed in are the caller\'s').toBe(0);
      await r.renderer.unmount();
    });
  }
});

describe('StrictMode effects', () => {
  it('an InstancedLOD made twice by StrictMode keeps one live object with every instance once', async () => {
    const instanced = createRef<InstancedLODObject>();
    const made: InstancedLODObject[] = [];
    function Spy() {
      useEffect(() => { if (instanced.current) made.push(instanced.current); });
      return null;
    }
    const levels = [{ geometry: new BoxGeometry(), material: new MeshBasicMaterial() }];
    const r = await render(
      <StrictMode>
        <InstancedLOD ref={instanced} levels={levels} thresholds={[]}>
          {[0, 1, 2].map((i) => <LodInstance key={i} position={[i, 0, -5]} />)}
        </InstancedLOD>
        <Spy />
      </StrictMode>,
    );
    await r.frame();
    expect(instanced.current!.instanceCount).toBe(3);
    expect(r.state().scene.children.filter((o) => (o as { isInstancedLOD?: boolean }).isInstancedLOD)).toHaveLength(1);
    expect(r.state().scene.children.find((o) => (o as { isInstancedLOD?: boolean }).isInstancedLOD)).toBe(instanced.current);
    await r.renderer.unmount();
  });
});
