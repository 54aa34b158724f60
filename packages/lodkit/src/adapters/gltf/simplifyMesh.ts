/**
 * The meshoptimizer half of LOD generation (see generate.ts): each mesh's triangle primitives
 * simplified level by level from the original indices, with meshoptimizer's error estimate and,
 * by default, the measured deviation. What is handed to meshoptimizer is checked first (indices
 * inside the vertices, whole triangles): it traps or asserts on anything else.
 *
 * @module
 */
import { Primitive, type Mesh } from '@gltf-transform/core';
import { TriangleGrid, measureDeviation } from './deviation.js';
import { meshBoundingSphere, meshTriangleCount, readIndices, readPositions, type BoundingSphere } from './geometry.js';
import { firstIndexOutOfRange } from './validateGeometry.js';

/** A mesh's simplified levels (index lists per primitive; null where the primitive is kept). @internal */
export interface SimplifiedMesh {
  /** Per level ≥ 1: index arrays per primitive (null for primitives left as they are). */
  levels: { indices: (Uint32Array | null)[]; error: number; estimate: number; triangles: number }[];
  sphere: BoundingSphere;
  stoppedEarly?: string;
}

const MIN_REDUCTION = 0.95;

/** meshoptimizer's simplifier, loaded on first use so that reading glTF never needs meshoptimizer. */
type Simplifier = typeof import('meshoptimizer').MeshoptSimplifier;
let MeshoptSimplifier: Simplifier;
let simplifierLoad: Promise<Simplifier> | null = null;

/** Loads meshoptimizer's simplifier once (an optional peer dependency). @internal */
export async function loadSimplifier(): Promise<Simplifier> {
  simplifierLoad ??= import('meshoptimizer').then(
    async (module) => { await module.MeshoptSimplifier.ready; return module.MeshoptSimplifier; },
    (error: unknown) => {
      simplifierLoad = null;
      throw new Error(`generateLodChain needs the optional peer dependency 'meshoptimizer' (npm install meshoptimizer): ${(error as Error).message}`);
    },
  );
  MeshoptSimplifier = await simplifierLoad;
  return MeshoptSimplifier;
}

/** What {@link simplifyMesh} reads of generateLodChain's resolved options (generate.ts). @internal */
export interface SimplifyOptions {
  levels: number;
  ratio: number;
  error: 'measured' | 'estimate';
  maxError?: number;
  /** Size-driven levels instead of `ratio` (see `GenerateLodOptions.switchPx`); needs `maxErrorPx`. */
  switchPx?: { largest: number; smallest: number };
  maxErrorPx?: number;
}

/**
 * The on-screen diameters (pixels) at which levels 1 … `levels − 1` should take over: geometric
 * steps from `largest` down to `smallest` (one level: `smallest`).
 * @internal
 */
export function targetSwitchSizes(levels: number, largest: number, smallest: number): number[] {
  const n = levels - 1;
  if (n === 1) return [smallest];
  return Array.from({ length: n }, (_, k) => largest * (smallest / largest) ** (k / (n - 1)));
}

/** Simplifies one mesh into up to `o.levels − 1` levels; null when it has no triangle primitive with positions. @internal */
export async function simplifyMesh(mesh: Mesh, o: SimplifyOptions): Promise<SimplifiedMesh | null> {
  const sphere = meshBoundingSphere(mesh);
  if (!sphere) return null;
  const primitives = mesh.listPrimitives();
  const inputs = primitives.map((primitive, p) => {
    const position = primitive.getAttribute('POSITION');
    if (!position || primitive.getMode() !== Primitive.Mode.TRIANGLES) return null;
    const positions = readPositions(position);
    const grid = null as TriangleGrid | null;
    if (primitive.getIndices()) {
      const indices = readIndices(primitive, position.getCount());
      checkTriangleList(mesh, p, indices, position.getCount());
      return { positions, indices, compact: null, grid };
    }
    checkTriangleList(mesh, p, null, position.getCount());
    return { positions, ...weldByPosition(positions), grid };
  });
  if (inputs.every((i) => i === null)) return null;
  const result: SimplifiedMesh = { levels: [], sphere };
  let previousTriangles = meshTriangleCount(mesh);
  const sizes = o.switchPx ? targetSwitchSizes(o.levels, o.switchPx.largest, o.switchPx.smallest) : null;
  const skipped: number[] = [];
  type Simplified = { simplified: Uint32Array; estimate: number; measured: number };
  const run = (input: NonNullable<(typeof inputs)[number]>, target: number, targetError: number): Simplified => {
    let [simplified, estimate] = input.compact
      ? MeshoptSimplifier.simplify(input.compact.indices, input.compact.positions, 3, target, targetError, ['ErrorAbsolute'])
      : MeshoptSimplifier.simplify(input.indices, input.positions, 3, target, targetError, ['ErrorAbsolute']);
    if (input.compact) simplified = simplified.map((v) => input.compact!.toOriginal[v]);
    let measured = estimate;
    if (o.error === 'measured' && simplified.length >= 3) {
      input.grid ??= new TriangleGrid(input.positions, input.indices);
      measured = Math.max(estimate, measureDeviation(input.positions, input.indices, simplified, input.grid));
    }
    return { simplified, estimate, measured };
  };
  for (let level = 1; level < o.levels; level++) {
    const fraction = o.ratio ** level;
    // Size-driven: the error that projects to maxErrorPx when the sphere is `size` pixels across.
    const allowed = sizes ? (2 * sphere.radius * (o.maxErrorPx ?? 1)) / sizes[level - 1] : 0;
    let error = 0;
    let estimate = 0;
    let triangles = 0;
    const indices: (Uint32Array | null)[] = [];
    for (let p = 0; p < primitives.length; p++) {
      const input = inputs[p];
      if (!input) { indices.push(null); triangles += primitiveTriangles(primitives[p]); continue; }
      let got: Simplified;
      if (sizes) {
        got = run(input, 3, allowed);
        // meshoptimizer's estimate runs under the measured deviation (1.3–2.4× on test meshes): one
        // retry with the target scaled down by the overshoot brings the level nearer its size.
        if (got.measured > allowed) {
          const retry = run(input, 3, allowed * (allowed / got.measured));
          if (retry.measured < got.measured) got = retry;
        }
      } else {
        got = run(input, Math.max(3, Math.floor((input.indices.length * fraction) / 3) * 3), 1e30);
      }
      indices.push(got.simplified);
      triangles += got.simplified.length / 3;
      if (got.estimate > estimate) estimate = got.estimate;
      if (got.measured > error) error = got.measured;
    }
    if (triangles === 0) { result.stoppedEarly = `level ${level} would have no triangles`; break; }
    if (triangles > previousTriangles * MIN_REDUCTION) {
      // Size-driven: the previous level is already fine enough at this size; try the next size.
      if (sizes) { skipped.push(Math.round(sizes[level - 1])); continue; }
      result.stoppedEarly = `level ${level} could not reduce ${previousTriangles} triangles further`;
      break;
    }
    if (o.maxError !== undefined && error > o.maxError * sphere.radius) {
      result.stoppedEarly = `level ${level} error ${error.toPrecision(3)} exceeds maxError`;
      break;
    }
    result.levels.push({ indices, error, estimate, triangles });
    previousTriangles = triangles;
  }
  if (skipped.length > 0 && !result.stoppedEarly) {
    result.stoppedEarly = `no level for ${skipped.map((d) => `${d} px`).join(', ')}: there the finer level's error is already within ${o.maxErrorPx ?? 1} px with less than 5 % of its triangles to lose`;
  }
  return result;
}

/**
 * What meshoptimizer is given must be a triangle list inside its vertices: an index ≥ the vertex
 * count traps inside its WebAssembly ("memory access out of bounds") and a count that is not a
 * multiple of 3 fails its assertion. Files are checked on reading (validateGeometry.ts); this
 * covers documents built in memory.
 */
function checkTriangleList(mesh: Mesh, p: number, indices: Uint32Array | null, vertexCount: number): void {
  const where = `generateLodChain: mesh "${mesh.getName()}" primitive ${p}`;
  const count = indices ? indices.length : vertexCount;
  if (count % 3 !== 0) throw new RangeError(`${where}: ${indices ? 'index' : 'vertex'} count ${count} of a TRIANGLES primitive is not a multiple of 3`);
  const k = indices ? firstIndexOutOfRange(indices, vertexCount) : -1;
  if (k >= 0) throw new RangeError(`${where}: indices[${k}] = ${indices![k]} is ≥ the vertex count ${vertexCount}`);
}

/**
 * Indexes a non-indexed triangle list by position: `indices` points every corner at the first
 * vertex with the same position, and `compact` holds the unique positions with indices into them
 * (meshoptimizer locks vertices that share a position with unreferenced duplicates, so it must
 * see only the unique ones) plus the map back to original vertex numbers.
 * @internal
 */
function weldByPosition(positions: Float32Array): {
  indices: Uint32Array;
  compact: { positions: Float32Array; indices: Uint32Array; toOriginal: Uint32Array };
} {
  const remap = MeshoptSimplifier.generatePositionRemap(positions, 3);
  const count = remap.length;
  const slot = new Int32Array(count).fill(-1);
  const toOriginal: number[] = [];
  const compactIndices = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const first = remap[i];
    if (slot[first] < 0) { slot[first] = toOriginal.length; toOriginal.push(first); }
    compactIndices[i] = slot[first];
  }
  const compactPositions = new Float32Array(toOriginal.length * 3);
  for (let k = 0; k < toOriginal.length; k++) compactPositions.set(positions.subarray(toOriginal[k] * 3, toOriginal[k] * 3 + 3), k * 3);
  return { indices: remap, compact: { positions: compactPositions, indices: compactIndices, toOriginal: Uint32Array.from(toOriginal) } };
}

/** Triangles a primitive draws (indices or vertices per its mode). @internal */
export function primitiveTriangles(primitive: Primitive): number {
  const indices = primitive.getIndices();
  const count = indices ? indices.getCount() : primitive.getAttribute('POSITION')?.getCount() ?? 0;
  const mode = primitive.getMode();
  if (mode === Primitive.Mode.TRIANGLES) return Math.floor(count / 3);
  if (mode === Primitive.Mode.TRIANGLE_STRIP || mode === Primitive.Mode.TRIANGLE_FAN) return Math.max(0, count - 2);
  return 0;
}

