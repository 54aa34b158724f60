/**
 * @lodkit/react example: 300 spheres in three coloured levels under one <LodManager> (pixels,
 * 80 / 20 px), an <InstancedLOD> field of 4,000 boxes, a dollying camera, an overlay with FPS
 * and useLodStats(), and lodkit's stats panel through <LodDebug />. `window.lodkitReact` lets the e2e test pin the camera distance and read levels.
 */
import { StrictMode, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Canvas, useFrame, useThree } from '@react-three/fiber';
import { BoxGeometry, Matrix4, MeshBasicMaterial, type PerspectiveCamera } from 'three';
import type { InstancedLOD as InstancedLODObject, ScreenSizeLOD } from 'lodkit/three';
import { InstancedLOD, LodDebug, LodManager, ScreenSizeDetailed, useLodStats, type LodRuntime } from '@lodkit/react';
import { FOV, LEVEL_COLORS, RADIUS, spherePositions, THRESHOLDS } from './scene.js';

interface Hook {
  setDistance(d: number | null): void;
  state(): { frames: number; distance: number; centreLevel: number; levelCounts: number[]; viewportHeight: number; fov: number };
}
declare global { interface Window { lodkitReact?: Hook } }

const control = { pinned: null as number | null, distance: 30, frames: 0 };
let centre: ScreenSizeLOD | null = null;
let runtimeRef: LodRuntime | null = null;

function Sphere({ position, onRef }: { position: [number, number, number]; onRef?: (lod: ScreenSizeLOD | null) => void }) {
  return (
    <ScreenSizeDetailed ref={onRef} metric="pixels" thresholds={THRESHOLDS} position={position}>
      {LEVEL_COLORS.map((color, level) => (
        <mesh key={level}>
          <sphereGeometry args={[RADIUS, [48, 16, 6][level], [24, 8, 4][level]]} />
          <meshBasicMaterial color={color} />
        </mesh>
      ))}
    </ScreenSizeDetailed>
  );
}

function Field() {
  const levels = useMemo(() => [
    { geometry: new BoxGeometry(1, 1, 1), material: new MeshBasicMaterial({ color: '#2d6a4f' }) },
    { geometry: new BoxGeometry(1, 1, 1, 1, 1, 1), material: new MeshBasicMaterial({ color: '#1b4332' }) },
  ], []);
  useEffect(() => () => { for (const l of levels) { l.geometry.dispose(); l.material.dispose(); } }, [levels]);
  const matrices = useMemo(() => {
    const out = new Float32Array(4000 * 16), m = new Matrix4();
    for (let i = 0; i < 4000; i++) m.makeTranslation(((i * 37) % 80) - 40, -6, -((i * 53) % 400)).toArray(out, i * 16);
    return out;
  }, []);
  const ref = useRef<InstancedLODObject | null>(null);
  return <InstancedLOD ref={(o) => { ref.current = o; if (o !== null && o.instanceCount === 0) o.addInstances(matrices); }} levels={levels} thresholds={[12]} />;
}

function Rig() {
  const camera = useThree((s) => s.camera) as PerspectiveCamera;
  const size = useThree((s) => s.size);
  const dpr = useThree((s) => s.viewport.dpr);
  useEffect(() => {
    window.lodkitReact = {
      setDistance: (d) => { control.pinned = d; },
      state: () => {
        const counts = runtimeRef?.getSnapshot().levelCounts ?? [];
        return {
          frames: control.frames, distance: control.distance, centreLevel: centre === null ? -1 : centre.children.findIndex((c) => c.visible),
          levelCounts: [...counts], viewportHeight: size.height * dpr, fov: camera.fov,
        };
      },
    };
  }, [camera, size, dpr]);
  // Priority −1: the camera moves before the manager measures (same frame).
  useFrame((state) => {
    control.distance = control.pinned ?? 20 + 60 * (0.5 - 0.5 * Math.cos(state.clock.elapsedTime * 0.4));
    camera.position.set(0, 0, control.distance);
    camera.lookAt(0, 0, 0);
  }, -1);
  useFrame(() => {
    control.frames++;
    document.body.dataset.frames = String(control.frames);
    document.body.dataset.ready = '1';
  });
  return null;
}

function Overlay({ runtime }: { runtime: LodRuntime | null }) {
  const stats = useLodStats(runtime);
  const [fps, setFps] = useState(0);
  useEffect(() => {
    let frames = 0, last = performance.now(), id = 0;
    const tick = (now: number) => {
      frames++;
      if (now - last >= 500) { setFps((frames * 1000) / (now - last)); frames = 0; last = now; }
      id = requestAnimationFrame(tick);
    };
    id = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(id);
  }, []);
  return (
    <div className="overlay" data-testid="overlay">
      <div>FPS <b data-testid="fps">{fps.toFixed(0)}</b></div>
      {LEVEL_COLORS.map((color, level) => (
        <div key={level}><span className="swatch" style={{ background: color }} />LOD {level} <b data-testid={`level-count-${level}`}>{stats.levelCounts[level] ?? 0}</b></div>
      ))}
      <div>objects <b data-testid="objects">{stats.objects}</b> · changes <b data-testid="changes">{stats.changes}</b></div>
    </div>
  );
}

function App() {
  const [runtime, setRuntime] = useState<LodRuntime | null>(null);
  const positions = useMemo(spherePositions, []);
  useEffect(() => { runtimeRef = runtime; }, [runtime]);
  return (
    <>
      <Canvas camera={{ fov: FOV, near: 0.1, far: 1000, position: [0, 0, 30] }} dpr={1} flat gl={{ antialias: false }}>
        <color attach="background" args={['#101318']} />
        <LodManager ref={setRuntime}>
          {positions.map((p, i) => <Sphere key={i} position={p} onRef={i === 0 ? (lod) => { centre = lod; } : undefined} />)}
          <Field />
          {/* lodkit's stats panel next to the canvas (its debug spheres would cover the level colours) */}
          <LodDebug spheres={false} />
        </LodManager>
        <Rig />
      </Canvas>
      <Overlay runtime={runtime} />
    </>
  );
}

createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
