/**
 * `<InstancedLOD>`: lodkit's `InstancedLOD` (per-instance levels, one `InstancedMesh` per level)
 * as a component, with declarative `<LodInstance>` children for hundreds of instances and the
 * imperative `ref` (`addInstances(matrices)`) for a million.
 *
 * Contributor notes:
 * - The lodkit object owns GPU buffers (its level meshes' instance attributes), so it is made in a
 *   layout effect and disposed in that effect's clean-up: StrictMode's simulated unmount disposes
 *   the first and makes a second; nothing is made during render. The first commit renders nothing;
 *   the state update that carries the object renders it at once (before paint).
 * - The level geometries and materials are the caller's (as lodkit's class says): they are not
 *   disposed here. Made with `useMemo`, they are disposed by you; `levels` given inline with new
 *   objects every render would rebuild the object every render.
 * - A new object is made when `levels` (by identity of each geometry and material), `thresholds`
 *   (by value), `metric`, `capacity` or `sphere` change; instances added through the ref are then
 *   lost (the `<LodInstance>` children re-add themselves).
 *
 * @module
 */
import { forwardRef, useContext, useImperativeHandle, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { useFrame, type ThreeElements } from '@react-three/fiber';
import { Color, Euler, Matrix4, Quaternion, Vector3, type ColorRepresentation, type Sphere } from 'three';
import type { SphereMetric } from 'lodkit';
import { InstancedLOD as InstancedLODObject, type InstancedLODLevel } from 'lodkit/three';
import { InstancedLODContext, useLodRuntime } from './context.js';
import { lodCamera, lodViewportHeight, type FrameStateLike } from './frameState.js';
import { useStableArray } from './stable.js';

/**
 * Props of {@link InstancedLOD}; every `<group>` prop (position, name …) goes to the object.
 * @category React
 */
export interface InstancedLODProps extends Omit<ThreeElements['group'], 'ref' | 'children' | 'args'> {
  /** What to draw per level, finest first (`{ geometry, material }`; yours to dispose). */
  levels: readonly InstancedLODLevel[];
  /** lodkit thresholds, levels − 1 values: screen sizes descending, or distances ascending. */
  thresholds: readonly number[];
  /** What the thresholds measure. Default `'pixels'` (lodkit's `InstancedLOD` default). */
  metric?: SphereMetric;
  /** Initial instance capacity (grows as needed). Default 1024. */
  capacity?: number;
  /** Local bounding sphere of one instance; default the union of the level geometries' spheres. */
  sphere?: Sphere;
  /** `<LodInstance>` elements (and anything else to render inside the object). */
  children?: ReactNode;
}

/** Updates an `InstancedLOD` in `useFrame` when no `<LodManager>` does. */
function StandaloneInstancedUpdate({ object }: { object: InstancedLODObject }): null {
  useFrame((state) => {
    const s = state as unknown as FrameStateLike;
    object.viewportHeight = lodViewportHeight(s);
    object.updateWorldMatrix(true, false);
    object.update(lodCamera(s));
  });
  return null;
}

/**
 * Many instances of one model with per-instance levels of detail. Children `<LodInstance>` add
 * one instance each; `ref` is lodkit's `InstancedLOD` (null before the first commit) for
 * `addInstances(matrices)` and the rest of its API. Inside a `<LodManager>` it is updated with the
 * manager's policy every frame; outside one, by itself.
 *
 * @example
 * ```tsx
 * import { useMemo } from 'react';
 * import { IcosahedronGeometry, MeshLambertMaterial } from 'three';
 * import { InstancedLOD, LodInstance } from '@lodkit/react';
 *
 * export function Forest() {
 *   const levels = useMemo(() => {
 *     const material = new MeshLambertMaterial({ color: '#2e7d32' });
 *     return [{ geometry: new IcosahedronGeometry(1, 3), material }, { geometry: new IcosahedronGeometry(1, 0), material }];
 *   }, []);
 *   return (
 *     <InstancedLOD levels={levels} thresholds={[40]}>
 *       <LodInstance position={[0, 0, -10]} />
 *       <LodInstance position={[3, 0, -30]} scale={2} color="orange" />
 *     </InstancedLOD>
 *   );
 * }
 * ```
 * @category React
 */
export const InstancedLOD = forwardRef<InstancedLODObject, InstancedLODProps>(function InstancedLOD(props, ref) {
  const { levels, thresholds, metric = 'pixels', capacity = 1024, sphere, children, ...rest } = props;
  const runtime = useLodRuntime();
  const flatLevels = useMemo(() => levels.flatMap((l) => [l.geometry, l.material]), [levels]);
  const stableLevels = useStableArray(flatLevels);
  const stableThresholds = useStableArray(thresholds);
  const [object, setObject] = useState<InstancedLODObject | null>(null);
  useImperativeHandle(ref, () => object as InstancedLODObject, [object]);

  useLayoutEffect(() => {
    const list: InstancedLODLevel[] = [];
    const flat = stableLevels ?? [];
    for (let i = 0; i < flat.length; i += 2) list.push({ geometry: flat[i] as InstancedLODLevel['geometry'], material: flat[i + 1] as InstancedLODLevel['material'] });
    // Under a <LodManager>: built on the manager's set, so the manager's one update decides it.
    const made = new InstancedLODObject({
      levels: list, thresholds: stableThresholds ?? [], metric, capacity, ...(sphere !== undefined ? { sphere } : {}),
      ...(runtime !== null ? { set: runtime.manager.set } : {}),
    });
    setObject(made);
    return () => {
      made.dispose();
      setObject((current) => (current === made ? null : current));
    };
  }, [stableLevels, stableThresholds, metric, capacity, sphere, runtime]);

  useLayoutEffect(() => {
    if (object === null || runtime === null) return;
    runtime.addInstanced(object);
    return () => { runtime.removeInstanced(object); };
  }, [object, runtime]);

  if (object === null) return null;
  return (
    <primitive object={object} {...rest}>
      <InstancedLODContext.Provider value={object}>{children}</InstancedLODContext.Provider>
      {runtime === null ? <StandaloneInstancedUpdate object={object} /> : null}
    </primitive>
  );
});

/** A position or scale: `[x, y, z]`, a `Vector3`, or (scale) one number for all axes. */
type Vec3Prop = readonly [number, number, number] | Vector3;

/**
 * Props of {@link LodInstance}: the instance's transform and colour.
 * @category React
 */
export interface LodInstanceProps {
  /** Position in the `<InstancedLOD>`'s space. Default the origin. */
  position?: Vec3Prop;
  /** Euler angles in radians (XYZ order) or an `Euler`. Default none. */
  rotation?: readonly [number, number, number] | Euler;
  /** Scale: one number for all axes, `[x, y, z]` or a `Vector3`. Default 1. */
  scale?: number | Vec3Prop;
  /** Instance colour (multiplies the material's). Default none (white). */
  color?: ColorRepresentation;
  /** Drawn at all (hidden instances are not drawn at any level). Default true. */
  visible?: boolean;
}

const scratchMatrix = new Matrix4();
const scratchQuaternion = new Quaternion();
const scratchEuler = new Euler();
const scratchPosition = new Vector3();
const scratchScale = new Vector3();
const scratchColor = new Color();

function triple(v: Vec3Prop | number | undefined, fallback: number): [number, number, number] {
  if (v === undefined) return [fallback, fallback, fallback];
  if (typeof v === 'number') return [v, v, v];
  if (v instanceof Vector3) return [v.x, v.y, v.z];
  return [v[0], v[1], v[2]];
}

function composeMatrix(p: readonly number[], r: readonly number[], s: readonly number[]): Matrix4 {
  scratchEuler.set(r[0], r[1], r[2], 'XYZ');
  scratchQuaternion.setFromEuler(scratchEuler);
  return scratchMatrix.compose(scratchPosition.set(p[0], p[1], p[2]), scratchQuaternion, scratchScale.set(s[0], s[1], s[2]));
}

/**
 * One instance of the enclosing `<InstancedLOD>`: added on mount, moved, recoloured or hidden when
 * its props change, removed on unmount. Renders nothing itself.
 *
 * @example
 * ```tsx
 * import { LodInstance } from '@lodkit/react';
 * export const Tree = ({ x, z }: { x: number; z: number }) => <LodInstance position={[x, 0, z]} rotation={[0, x, 0]} scale={1.5} color="#7cb342" />;
 * ```
 * @category React
 */
export function LodInstance({ position, rotation, scale, color, visible = true }: LodInstanceProps): null {
  const object = useContext(InstancedLODContext);
  const [px, py, pz] = triple(position, 0);
  const [sx, sy, sz] = triple(scale, 1);
  const [rx, ry, rz] = rotation === undefined ? [0, 0, 0] : rotation instanceof Euler ? [rotation.x, rotation.y, rotation.z] : [rotation[0], rotation[1], rotation[2]];
  const colorKey = color === undefined ? -1 : scratchColor.set(color).getHex();
  const [id, setId] = useState(-1);

  useLayoutEffect(() => {
    if (object === null) return;
    // Added at the origin; the effect below writes the transform (it runs right after, same commit).
    const added = object.addInstance(scratchMatrix.identity());
    setId(added);
    return () => {
      if (object.hasInstance(added)) object.removeInstance(added); // (not when the object was disposed first: it took its instances out)
      setId(-1);
    };
  }, [object]);

  useLayoutEffect(() => {
    if (object === null || id < 0) return;
    object.setMatrixAt(id, composeMatrix([px, py, pz], [rx, ry, rz], [sx, sy, sz]));
    if (colorKey >= 0) object.setColorAt(id, scratchColor.setHex(colorKey));
    object.setVisibleAt(id, visible);
  }, [object, id, px, py, pz, rx, ry, rz, sx, sy, sz, colorKey, visible]);
  return null;
}
