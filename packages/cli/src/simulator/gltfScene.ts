/**
 * A `lodkit simulate` scene built from a glTF/GLB file: every `MSFT_lod` group of the file becomes a
 * profile, instanced on a seeded grid around the origin, filmed by a wide dolly-in and a telephoto
 * zoom, and compared under the file's own thresholds, rank quotas, a budget and the hybrid policy.
 *
 * Design (also in `docs/simulate.md`, "Your own glTF assets"):
 * - **Profiles.** One per group, named after the level-0 node (`node 3` when unnamed; the node
 *   index is appended when two groups share a name). With coverage, the metric is the coverage's
 *   (`screenArea` by default, `screenHeight` with `coverage: 'height'`) and the thresholds are the
 *   file's first `levels − 1` values, exactly as written. Without coverage, the default rule is in
 *   pixels: level k is drawn while its triangles would each get at least `pixelsPerTriangle` px² of
 *   the bounding sphere's on-screen disc, i.e. `thresholds[k] = √(4 · pixelsPerTriangle · T[k] / π)`
 *   px (4 px² by default: a 60k-triangle level 0 needs a 553 px tall sphere).
 * - **Tied values.** glTF coverage may repeat a value (the level between them is never drawn); the
 *   scene format wants strictly descending thresholds, so such a level is left out of the profile,
 *   with a warning. The same goes for equal triangle counts under the default pixel rule.
 * - **Not simulated.** `MSFT_screencoverage`'s last value in the `culled` layout ("draw nothing
 *   below") — lodkit's engine has no culled level; the coarsest level is drawn at any size, so its
 *   cost is slightly overstated. Recorded in the scene's parameters.
 * - **Errors.** Recorded geometric errors (`LODKIT_geometricError`, world units) are used when
 *   EVERY group has a valid, non-decreasing list; they are divided by the bounding diameter, so the
 *   budget policy's benefit (on-screen height × error removed) is the error's on-screen size as a
 *   fraction of the screen height. With one group missing them, no group gets errors: world-unit
 *   errors and the default (from the thresholds, `defaultLevelErrors`) are not on the same scale.
 * - **Layout.** `instances` copies of each group (all groups interleaved by a seeded shuffle) on a
 *   grid in the XZ plane centred on the origin, cells `spacing` × the largest bounding radius wide,
 *   with a seeded jitter of ±0.4 largest radii. The grid is four times deeper (Z) than wide (X), a
 *   street of objects, so a telephoto lens looking down it sees many of them at nearly one size.
 *   Each instance is the file's bounding sphere translated in X and Z; Y stays as in the file.
 * - **Camera.** 1920 × 1080, 30 fps. "wide dolly-in" (0–8 s, fovY 60°): from 25° above the front,
 *   far enough to see the whole layout, into the front-centre instance until it stands `h*` of the
 *   screen tall; "telephoto" (8–16 s, a cut): from 10 layout radii away, 5° up, zooming from the
 *   whole layout down to the layout's centre at `h*` per instance, then holding. `h*` is 1.25 × the
 *   largest level-0 threshold as a screen-height fraction (clamped to [0.1, 1.5]), so both shots
 *   reach level 0 of every profile.
 * - **Policies.** The file's thresholds (`thresholds`), rank quotas [4, 6] per profile, and budget
 *   and hybrid with a default budget of `budgetFraction` (40 %) of every instance at level 0.
 *
 * Contributor notes:
 * - The glTF adapter is loaded with a dynamic `import()`, so `@lodkit/cli` keeps working
 *   without the optional `@gltf-transform/core` peer; only this function needs it.
 * - A first layout was a square grid; under the telephoto lens it showed 3–4 instances (one
 *   column), so rank quotas [4, 6] drew them all at level 0 and the policies did not differ. The
 *   deep grid puts a whole column in view: with the test rock (20 instances) all 20 at the end of
 *   the zoom when `h*` is 0.6, 9 when it is 1.03 (the instances then overflow the screen).
 * - Measured (Node 20, 2 busy cores): a 65k-triangle 4-level chain, `lodkit simulate x.glb` end to
 *   end (read, build, 480 frames × 4 policies, table) takes 1.2 s with 20 instances and 1.6 s with
 *   500; `sceneFromGltf` alone (read + build + validate, warm) is 50 ms and 70 ms of that.
 * - Coordinates are not rounded (the built-in scenarios round to 3 decimals): glTF models are
 *   often centimetre-sized in metres, and the instance spheres must be the file's sphere exactly.
 *   Coverage thresholds and errors are kept as read, so a saved scene reproduces the file.
 *
 * @module
 */
import type { GltfSource, LoadedLodGroup, LoadedLodGroups, LodCoverage } from 'lodkit/gltf';
import { lcg, r3 } from './scenarios/random.js';
import { SIMULATE_LIMITS } from './limits.js';
import { parseScene, type Scene, type SceneInput } from './sceneFormat.js';

/** Options for {@link sceneFromGltf}. @category Simulator */
export interface GltfSceneOptions {
  /** Copies of each LOD group in the scene. Default 20. */
  instances?: number;
  /** How `MSFT_screencoverage` is read: fraction of the screen area (default) or height. */
  coverage?: LodCoverage;
  /** Drop invalid `MSFT_lod` data with a warning instead of failing. Default false. */
  lenient?: boolean;
  /** Seed of the layout's shuffle and jitter. Default 1. */
  seed?: number;
  /** Grid cell size in bounding radii of the largest group. Default 3. */
  spacing?: number;
  /** Default rule for groups without coverage: px² of bounding disc per triangle. Default 4. */
  pixelsPerTriangle?: number;
  /** Default budget: this fraction of every instance drawn at level 0. Default 0.4. */
  budgetFraction?: number;
  /** Scene name. Default: the file name, or `glTF scene`. */
  name?: string;
  /** Read resources outside the file's folder (absolute, `../`, `file:`, hard links). Default false (see `readGltfDocument`). */
  allowOutsideResources?: boolean;
}

/** Defaults of {@link GltfSceneOptions}. @category Simulator */
export const GLTF_SCENE_DEFAULTS: Readonly<Required<Omit<GltfSceneOptions, 'name'>>> = Object.freeze({
  instances: 20, coverage: 'area', lenient: false, seed: 1, spacing: 3, pixelsPerTriangle: 4, budgetFraction: 0.4,
  allowOutsideResources: false,
});

/** Result of {@link sceneFromGltf}. @category Simulator */
export interface GltfSceneResult {
  /** The generated scene file (format `lodkit-scene`), ready for `JSON.stringify`. */
  input: SceneInput;
  /** The same scene, validated. */
  scene: Scene;
  /** Warnings from reading the file (lenient mode, ignored extras) and from building profiles. */
  warnings: string[];
}

/**
 * Thrown when a valid glTF file cannot be simulated: it has no LOD groups, or a group has no
 * geometry or collapses to a single level.
 * @example
 * ```ts
 * try { await sceneFromGltf('plain.glb'); } catch (e) { if (e instanceof GltfSceneError) console.log(e.message); }
 * ```
 * @category Simulator
 */
export class GltfSceneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GltfSceneError';
  }
}

/** Viewport of the generated camera path. */
const VIEWPORT: [number, number] = [1920, 1080];
const WIDE_FOV_Y = 60;
const WIDE_ELEVATION_DEG = 25;
const TELE_ELEVATION_DEG = 5;
/** Telephoto camera distance in layout radii. */
const TELE_DISTANCE = 10;
/** Jitter of each instance, in largest radii, on X and Z. */
const JITTER = 0.4;
/** Rank quotas of the `rankQuota` policy (MotoGP's). */
const QUOTAS = [4, 6];

async function loadGltfAdapter(): Promise<typeof import('lodkit/gltf')> {
  try {
    return await import('lodkit/gltf');
  } catch (error) {
    throw new Error(`a glTF scene needs the optional peer dependency @gltf-transform/core (npm install @gltf-transform/core): ${(error as Error).message}`, { cause: error });
  }
}

function checkPositive(value: number, field: string, integer = false): void {
  if (!(Number.isFinite(value) && value > 0) || (integer && !Number.isInteger(value))) {
    throw new RangeError(`sceneFromGltf: ${field} must be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}`);
  }
}

/** One profile built from a group, before layout. */
interface BuiltProfile {
  name: string;
  group: LoadedLodGroup;
  metric: 'screenArea' | 'screenHeight' | 'pixels';
  thresholds: number[];
  triangles: number[];
  /** Error per level ÷ bounding diameter, or null. */
  errors: number[] | null;
  /** Level-0 threshold as a screen-height fraction at the generated viewport. */
  level0Height: number;
}

function profileName(group: LoadedLodGroup, taken: Set<string>): string {
  let name = group.name.trim() === '' ? `node ${group.nodeIndex}` : group.name;
  if (taken.has(name)) name = `${name} (node ${group.nodeIndex})`;
  taken.add(name);
  return name;
}

function buildProfile(group: LoadedLodGroup, name: string, pixelsPerTriangle: number, coverage: LodCoverage, warnings: string[]): BuiltProfile {
  const { center, radius } = group.boundingSphere;
  const limit = SIMULATE_LIMITS.coordinate;
  if (![...center, radius].every((v) => Number.isFinite(v) && Math.abs(v) <= limit)) {
    throw new GltfSceneError(`LOD group "${name}" (nodes[${group.nodeIndex}]): bounding sphere centre [${center.join(', ')}], radius ${radius} is not within ±${limit} world units (SIMULATE_LIMITS.coordinate); check the node's transform and positions`);
  }
  if (!(radius > 0)) {
    throw new GltfSceneError(`LOD group "${name}" (node ${group.nodeIndex}) has no geometry (bounding radius 0); it cannot be simulated`);
  }
  const levelCount = group.levels.length;
  const triangles = group.levels.map((l) => l.triangles);
  const diameter = 2 * group.boundingSphere.radius;
  const recorded = group.levels.every((l) => l.error !== undefined) ? group.levels.map((l) => l.error! / diameter) : null;
  let metric: BuiltProfile['metric'];
  let thresholds: number[];
  if (group.coverage) {
    metric = coverage === 'height' ? 'screenHeight' : 'screenArea';
    thresholds = group.coverage.slice(0, levelCount - 1);
  } else {
    metric = 'pixels';
    thresholds = triangles.slice(0, levelCount - 1).map((t) => r3(Math.sqrt((4 * pixelsPerTriangle * t) / Math.PI)));
  }
  // A level between two equal thresholds is never drawn: leave it out (the format wants strict order).
  const kept = Array.from({ length: levelCount }, (_, k) => k);
  for (let k = thresholds.length - 1; k >= 1; k--) {
    if (thresholds[k] === thresholds[k - 1]) {
      warnings.push(`LOD group "${name}": level ${kept[k]} is never drawn (thresholds ${k - 1} and ${k} are both ${thresholds[k]}); left out of the profile`);
      thresholds.splice(k, 1);
      kept.splice(k, 1);
    }
  }
  if (thresholds.length === 0) {
    throw new GltfSceneError(`LOD group "${name}" (node ${group.nodeIndex}) has a single drawable level; nothing to simulate`);
  }
  let errors = recorded ? kept.map((k) => recorded[k]) : null;
  if (errors && errors.some((e, k) => k > 0 && e < errors![k - 1])) {
    warnings.push(`LOD group "${name}": recorded geometric errors decrease toward coarser levels; not used`);
    errors = null;
  }
  const aspect = VIEWPORT[0] / VIEWPORT[1];
  const first = thresholds[0];
  const level0Height = metric === 'screenHeight' ? first
    : metric === 'screenArea' ? Math.sqrt((4 * first * aspect) / Math.PI)
      : first / VIEWPORT[1];
  return { name, group, metric, thresholds, triangles: kept.map((k) => triangles[k]), errors, level0Height };
}

/**
 * `items` joined by `separator`, cut before the scene format's text limit: a file with 599 groups
 * of 255 levels (a valid 600 × 254-id DAG) made `parameters.groups` 500 KB, and the scene was refused.
 */
function boundedList(items: readonly string[], separator: string, noun: string, reserve = 100): string {
  const limit = SIMULATE_LIMITS.textLength - reserve;
  let text = '';
  for (let k = 0; k < items.length; k++) {
    const next = k === 0 ? items[k] : `${text}${separator}${items[k]}`;
    if (next.length > limit) {
      const more = `${k === 0 ? '' : separator}… and ${items.length - k - (k === 0 ? 1 : 0)} more ${noun}`;
      return `${k === 0 ? items[0].slice(0, limit - more.length) : text}${more}`;
    }
    text = next;
  }
  return text;
}

function formatCount(n: number): string {
  return n >= 1e6 ? `${Number((n / 1e6).toPrecision(3))}M` : n >= 1e3 ? `${Number((n / 1e3).toPrecision(3))}k` : String(n);
}

function sourceName(source: GltfSource): string {
  if (typeof source === 'string') {
    const base = source.split(/[\\/]/).pop() ?? source;
    return base === '' ? 'glTF scene' : base;
  }
  return 'glTF scene';
}

/**
 * Builds a `lodkit simulate` scene from a glTF/GLB file's `MSFT_lod` groups (see the module
 * comment for the design): one profile per group, `instances` copies of each on a seeded grid, a
 * wide dolly-in and a telephoto shot at 1920 × 1080, and four policies (the file's thresholds,
 * rank quotas [4, 6], budget and hybrid). Loads `@gltf-transform/core` only when called.
 *
 * Throws `GltfReadError` / `GltfLodError` (from `lodkit/gltf`) for unreadable or invalid files,
 * {@link GltfSceneError} for a file with nothing to simulate, and `RangeError` for bad options.
 *
 * @example
 * ```ts
 * import { sceneFromGltf, simulate, formatComparisonTable } from '@lodkit/cli';
 * const { scene } = await sceneFromGltf('tree.glb', { instances: 50 });
 * const { result, timings } = simulate(scene);
 * console.log(formatComparisonTable(result, timings));
 * ```
 * @category Simulator
 */
export async function sceneFromGltf(source: GltfSource, options: GltfSceneOptions = {}): Promise<GltfSceneResult> {
  const o = { ...GLTF_SCENE_DEFAULTS, ...options };
  checkPositive(o.instances, 'instances', true);
  if (o.instances > SIMULATE_LIMITS.instances) throw new RangeError(`sceneFromGltf: instances ${o.instances} is more than the limit of ${SIMULATE_LIMITS.instances} (SIMULATE_LIMITS.instances)`);
  checkPositive(o.spacing, 'spacing');
  checkPositive(o.pixelsPerTriangle, 'pixelsPerTriangle');
  checkPositive(o.budgetFraction, 'budgetFraction');
  if (!(o.spacing >= 2)) throw new RangeError(`sceneFromGltf: spacing must be at least 2 bounding radii (instances would overlap), got ${o.spacing}`);
  if (o.coverage !== 'area' && o.coverage !== 'height') throw new RangeError(`sceneFromGltf: coverage must be 'area' or 'height', got ${String(o.coverage)}`);
  if (!Number.isInteger(o.seed)) throw new RangeError(`sceneFromGltf: seed must be an integer, got ${String(o.seed)}`);
  const name = options.name ?? sourceName(source);

  const { loadLodGroupsFromGltf } = await loadGltfAdapter();
  const loaded: LoadedLodGroups = await loadLodGroupsFromGltf(source, { coverage: o.coverage, lenient: o.lenient, allowOutsideResources: o.allowOutsideResources });
  const warnings = [...loaded.warnings.map((w) => w.message), ...loaded.messages];
  if (loaded.groups.length === 0) {
    throw new GltfSceneError(`${name} has no LOD groups (no node with a valid MSFT_lod); generate some with: lodkit gltf lod ${name} out.glb`);
  }

  const taken = new Set<string>();
  const built = loaded.groups.map((g) => buildProfile(g, profileName(g, taken), o.pixelsPerTriangle, o.coverage, warnings));
  const withErrors = built.filter((p) => p.errors !== null).length;
  if (withErrors > 0 && withErrors < built.length) {
    warnings.push(`recorded geometric errors ignored: only ${withErrors} of ${built.length} LOD groups have them, and errors must share one scale`);
  }
  const useErrors = withErrors === built.length;
  const profiles: SceneInput['profiles'] = {};
  for (const p of built) {
    profiles[p.name] = {
      metric: p.metric, thresholds: p.thresholds, triangles: p.triangles,
      ...(useErrors ? { errors: p.errors! } : {}),
    };
  }

  // Layout: a grid four times deeper (Z) than wide (X), centred on the origin, groups shuffled in.
  const random = lcg(o.seed);
  const total = o.instances * built.length;
  if (total > SIMULATE_LIMITS.objects) {
    throw new RangeError(`sceneFromGltf: instances × LOD groups = ${o.instances} × ${built.length} = ${total} objects, more than the limit of ${SIMULATE_LIMITS.objects} (SIMULATE_LIMITS.objects)`);
  }
  const rMax = Math.max(...built.map((p) => p.group.boundingSphere.radius));
  const cell = o.spacing * rMax;
  const columns = Math.max(1, Math.ceil(Math.sqrt(total / 4)));
  const rows = Math.ceil(total / columns);
  const order = Array.from({ length: total }, (_, i) => i % built.length);
  for (let i = total - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const spheres: number[][] = built.map(() => []);
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, minZ = Infinity, maxZ = -Infinity;
  let front: { x: number; y: number; z: number; r: number } | null = null;
  for (let i = 0; i < total; i++) {
    const p = built[order[i]];
    const { center, radius } = p.group.boundingSphere;
    const col = i % columns, row = Math.floor(i / columns);
    const x = (col - (columns - 1) / 2) * cell + (random() * 2 - 1) * JITTER * rMax;
    const z = (row - (rows - 1) / 2) * cell + (random() * 2 - 1) * JITTER * rMax;
    const y = center[1];
    spheres[order[i]].push(x, y, z, radius);
    minX = Math.min(minX, x - radius); maxX = Math.max(maxX, x + radius);
    minY = Math.min(minY, y - radius); maxY = Math.max(maxY, y + radius);
    minZ = Math.min(minZ, z - radius); maxZ = Math.max(maxZ, z + radius);
    // The front-centre instance (the wide shot's subject): last row (largest Z), nearest X = 0.
    if (row === rows - 1 && (front === null || Math.abs(x) < Math.abs(front.x))) front = { x, y, z, r: radius };
  }
  if (front === null) throw new Error('sceneFromGltf: empty layout'); // unreachable: total >= 1
  const centre: [number, number, number] = [(minX + maxX) / 2, (minY + maxY) / 2, (minZ + maxZ) / 2];
  const layoutRadius = Math.hypot(maxX - minX, maxY - minY, maxZ - minZ) / 2;

  // Camera: the size every shot reaches is 1.25 × the largest level-0 threshold (screen height).
  const targetHeight = Math.min(1.5, Math.max(0.1, 1.25 * Math.max(...built.map((p) => p.level0Height))));
  const rad = Math.PI / 180;
  const wideTan = Math.tan((WIDE_FOV_Y / 2) * rad);
  const wideDir = [0, Math.sin(WIDE_ELEVATION_DEG * rad), Math.cos(WIDE_ELEVATION_DEG * rad)];
  const wideStart = (1.2 * layoutRadius) / Math.sin((WIDE_FOV_Y / 2) * rad);
  const wideEnd = front.r / (targetHeight * wideTan);
  const teleDir = [0, Math.sin(TELE_ELEVATION_DEG * rad), Math.cos(TELE_ELEVATION_DEG * rad)];
  const teleDistance = TELE_DISTANCE * layoutRadius;
  const teleFovStart = (2 * Math.atan((1.1 * layoutRadius) / teleDistance)) / rad;
  const rCentre = built.reduce((s, p) => s + p.group.boundingSphere.radius, 0) / built.length;
  const teleFovEnd = (2 * Math.atan(rCentre / (targetHeight * teleDistance))) / rad;
  const at = (base: readonly number[], dir: readonly number[], d: number): [number, number, number] =>
    [base[0] + dir[0] * d, base[1] + dir[1] * d, base[2] + dir[2] * d];
  const frontCentre: [number, number, number] = [front.x, front.y, front.z];
  const wide = { viewport: VIEWPORT, fovY: WIDE_FOV_Y, shot: 'wide dolly-in' };
  const tele = { viewport: VIEWPORT, shot: 'telephoto', position: at(centre, teleDir, teleDistance), target: centre };
  const keyframes: NonNullable<SceneInput['camera']>['keyframes'] = [
    { time: 0, position: at(centre, wideDir, wideStart), target: centre, ...wide },
    { time: 8, position: at(frontCentre, wideDir, wideEnd), target: frontCentre, ...wide },
    { time: 8, fovY: teleFovStart, cut: true, ...tele },
    { time: 13, fovY: teleFovEnd, ...tele },
    { time: 16, fovY: teleFovEnd, ...tele },
  ];
  const minRadius = Math.min(...built.map((p) => p.group.boundingSphere.radius));

  const level0Cost = built.reduce((s, p) => s + p.triangles[0] * o.instances, 0);
  const budget = Math.max(1, Math.round(o.budgetFraction * level0Cost));
  const withCoverage = built.filter((p) => p.metric !== 'pixels').length;
  const ruleName = withCoverage === built.length ? `MSFT_screencoverage (${o.coverage})`
    : withCoverage === 0 ? `pixel rule (${o.pixelsPerTriangle} px²/triangle)` : `coverage + pixel rule`;
  const culled = loaded.groups.filter((g) => g.layout === 'culled' && g.cullBelow > 0).map((g) => g.name);

  const input: SceneInput = {
    format: 'lodkit-scene',
    version: 1,
    name,
    description: `${built.length} LOD group${built.length === 1 ? '' : 's'} from ${name}, ${o.instances} instance${o.instances === 1 ? '' : 's'} each on a grid; a wide dolly-in and a telephoto zoom at 1920 × 1080.`,
    seed: o.seed,
    fps: 30,
    duration: 16,
    budget,
    profiles,
    groups: built.map((p, i) => ({ name: p.name, profile: p.name, spheres: spheres[i] })),
    camera: { near: 0.01 * minRadius, far: 1.2 * (teleDistance + 2 * layoutRadius), keyframes },
    policies: [
      { name: ruleName, policy: 'thresholds' },
      { name: `rank quota [${QUOTAS.join(', ')}]`, policy: 'rankQuota', quotas: QUOTAS, quotaScope: 'profile' },
      { name: `budget ${formatCount(budget)}`, policy: 'budget' },
      { name: `hybrid ${formatCount(budget)}`, policy: 'hybrid' },
    ],
    parameters: {
      source: name,
      groups: boundedList(built.map((p) => `${p.name} (${p.triangles.join('/')} triangles, ${p.metric} ${p.thresholds.join('/')})`), '; ', 'LOD groups'),
      instances: `${o.instances} per group, ${total} in all, on a ${columns} × ${rows} grid of ${r3(cell)} (${o.spacing} largest radii), seed ${o.seed}`,
      coverage: `MSFT_screencoverage read as a fraction of the screen ${o.coverage}`,
      defaultRule: `groups without coverage: level k drawn while the bounding disc gives each of its triangles ≥ ${o.pixelsPerTriangle} px²`,
      shots: `wide dolly-in (0–8 s, fovY ${WIDE_FOV_Y}°) into the front instance, then telephoto (8–16 s) zooming from ${r3(teleFovStart)}° to ${r3(teleFovEnd)}°; instances reach ${r3(targetHeight)} of the screen height`,
      budget: `${budget} triangles = ${o.budgetFraction * 100} % of every instance at level 0`,
      errors: useErrors ? 'recorded geometric errors ÷ bounding diameter' : 'default from the coverage thresholds (defaultLevelErrors)',
      ...(culled.length > 0 ? { notSimulated: `culling below the last coverage value (${boundedList(culled, ', ', 'groups', 200)}): the coarsest level is drawn at any size` } : {}),
    },
  };
  return { input, scene: parseScene(input, name), warnings };
}
