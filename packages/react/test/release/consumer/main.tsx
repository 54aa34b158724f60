// A strict TypeScript app using every export of @lodkit/react, installed from the packed tarball
// with only its peers (test/release/pack.full.test.ts type-checks it; it is never run).
import { createRef, StrictMode, Suspense, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Canvas, useFrame } from '@react-three/fiber';
import { ArrayCamera, IcosahedronGeometry, MeshLambertMaterial, PerspectiveCamera } from 'three';
import type { InstancedLOD as InstancedLODObject, ScreenSizeLOD } from 'lodkit/three';
import {
  extendLodLoader, InstancedLOD, LodDebug, LodGLTFLoader, LodInstance, LodManager, LodRuntime, lodCamera, lodViewportHeight,
  ScreenSizeDetailed, useLodGLTF, useLodObjects, useLodRuntime, useLodStats,
  type FrameStateLike, type InstancedLODProps, type LodGLTF, type LodManagerProps, type LodStatsSnapshot, type ScreenSizeDetailedProps,
} from '@lodkit/react';

function Bike({ position }: { position: [number, number, number] }) {
  const ref = useRef<ScreenSizeLOD>(null);
  useFrame(() => { if (ref.current !== null) ref.current.bias = 1; });
  const props: ScreenSizeDetailedProps = { metric: 'pixels', thresholds: [80, 20], hysteresis: [0.1, 0.1], fadeDuration: 0.2 };
  return (
    <ScreenSizeDetailed ref={ref} {...props} position={position} dynamic>
      <mesh><sphereGeometry args={[1, 64, 32]} /><meshStandardMaterial color="#35d07f" /></mesh>
      <mesh><sphereGeometry args={[1, 16, 8]} /><meshStandardMaterial color="#f2c94c" /></mesh>
      <group />
    </ScreenSizeDetailed>
  );
}

function DreiStyle() {
  return (
    <ScreenSizeDetailed distances={[0, 10, 20]} hysteresis={0.1}>
      <mesh /><mesh /><mesh />
    </ScreenSizeDetailed>
  );
}

function Forest() {
  const ref = useRef<InstancedLODObject>(null);
  const levels = useMemo(() => {
    const material = new MeshLambertMaterial({ color: '#2e7d32' });
    return [{ geometry: new IcosahedronGeometry(1, 3), material }, { geometry: new IcosahedronGeometry(1, 0), material }];
  }, []);
  const props: Omit<InstancedLODProps, 'levels'> = { thresholds: [40], metric: 'pixels', capacity: 4096 };
  useFrame(() => { ref.current?.addInstances(new Float32Array(16)); });
  return (
    <InstancedLOD ref={ref} levels={levels} {...props}>
      <LodInstance position={[0, 0, -10]} rotation={[0, 1, 0]} scale={2} color="orange" />
      <LodInstance position={[3, 0, -30]} scale={[1, 2, 1]} visible={false} />
    </InstancedLOD>
  );
}

function Model({ url }: { url: string }) {
  const gltf: LodGLTF = useLodGLTF(url);
  const first: ScreenSizeLOD | undefined = gltf.lods[0];
  useLodObjects(gltf.scene, first !== undefined);
  return <primitive object={gltf.scene} />;
}

function Probe() {
  const runtime: LodRuntime | null = useLodRuntime();
  const stats: LodStatsSnapshot = useLodStats();
  useFrame((state) => {
    const s = state as unknown as FrameStateLike;
    void lodViewportHeight(s); void lodCamera(s).type; void runtime?.manager.set.count; void stats.levelCounts[0];
  });
  return null;
}

function App() {
  const [runtime, setRuntime] = useState<LodRuntime | null>(null);
  const stats = useLodStats(runtime);
  const manager: LodManagerProps = { policy: 'hybrid', budget: 450_000, hysteresis: 0.1, options: { tolerance: 1 } };
  const xr = useMemo(() => new ArrayCamera([new PerspectiveCamera(), new PerspectiveCamera()]), []);
  return (
    <>
      <Canvas>
        <LodManager ref={setRuntime} {...manager}>
          <Bike position={[0, 1, -40]} />
          <DreiStyle />
          <Forest />
          <Suspense fallback={null}><Model url="/tree-lod.glb" /></Suspense>
          <LodDebug budget={450_000} spheres panel={false} />
          <Probe />
        </LodManager>
        <LodManager policy="rankQuota" quotas={[4, 6]} camera={xr} priority={0} capacity={64}>{null}</LodManager>
        <LodManager policy="budget" budget={{ frameMs: 16.7 }}>{null}</LodManager>
      </Canvas>
      <pre>{stats.levelCounts.join(' / ')} {stats.totalCost} {String(stats.budgetMet)} {stats.objects} {stats.frame}</pre>
    </>
  );
}

const loader = new LodGLTFLoader();
extendLodLoader(loader);
const runtimeRef = createRef<LodRuntime>();
void runtimeRef;
createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
