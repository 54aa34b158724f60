/**
 * Screen-door cross-fades between LOD levels: during a transition both levels are drawn, each
 * discarding a complementary half of an ordered-dither pattern, so every pixel shows exactly one
 * of them and no transparency sorting is needed.
 *
 * Contributor notes:
 * - The fade amount is a per-object value but materials are shared between objects, and
 *   WebGLRenderer re-uploads material uniforms only when the material changes between draws. So a
 *   fading mesh gets its own patched clone of its material (created once per mesh, cached in a
 *   WeakMap) and goes back to the original material when the fade ends. Only the handful of
 *   objects inside a transition pay for an extra material.
 * - Pattern: a 4×4 Bayer matrix computed with integer bit operations (GLSL ES 3.00, WebGL2), the
 *   classic "screen-door" look; an object with fade `f > 0` keeps the pixels whose dither value is
 *   below `f`, one with `f < 0` keeps those at or above `1 + f`. `f` and `−(1 − f)` therefore
 *   partition the screen exactly.
 * - The patch inserts a uniform declaration and a discard at the top of `main()` through
 *   `onBeforeCompile`, chaining any callback the original material had, and sets
 *   `customProgramCacheKey` so three compiles one extra program variant per material type.
 * - `WebGPURenderer` ignores `onBeforeCompile`. After `enableNodeCrossFade()` (crossFadeNode.ts,
 *   the `lodkit/three/webgpu` entry) the fade clone also gets a TSL `maskNode` with the same 4×4
 *   pattern: node materials use it directly, and WebGPURenderer copies every property of a plain
 *   material onto the node material it builds from it, `maskNode` included. Without it, a
 *   cross-fade under WebGPURenderer would draw both levels fully (the bug of issue 10).
 *
 * @module
 */
import type { Material, Object3D, WebGLProgramParametersWithUniforms } from 'three';

/** Uniform name used by the dither patch. @category three.js */
export const FADE_UNIFORM = 'lodkitFade';

const DITHER_GLSL = /* glsl */ `
uniform float ${FADE_UNIFORM};
float lodkitBayer4(vec2 fragCoord) {
  ivec2 q = ivec2(mod(floor(fragCoord), 4.0));
  int a = q.x ^ q.y;
  int v = ((a & 1) << 3) | ((q.y & 1) << 2) | (a & 2) | ((q.y >> 1) & 1);
  return (float(v) + 0.5) / 16.0;
}
`;

const DISCARD_GLSL = /* glsl */ `
  {
    float lodkitDither = lodkitBayer4(gl_FragCoord.xy);
    if (${FADE_UNIFORM} >= 0.0 ? lodkitDither >= ${FADE_UNIFORM} : lodkitDither < 1.0 + ${FADE_UNIFORM}) discard;
  }
`;

/**
 * Rewrites a fragment shader so it discards pixels by the lodkit dither pattern. Exposed for
 * custom `ShaderMaterial`s; {@link createFadeMaterial} applies it automatically.
 * @example
 * ```ts
 * material.onBeforeCompile = (shader) => { shader.fragmentShader = patchFragmentShader(shader.fragmentShader); };
 * ```
 * @category three.js
 */
export function patchFragmentShader(source: string): string {
  const at = source.search(/void\s+main\s*\(\s*(void)?\s*\)\s*\{/);
  if (at < 0) throw new RangeError('patchFragmentShader: the shader has no `void main() {`');
  const open = source.indexOf('{', at) + 1;
  return source.slice(0, at) + DITHER_GLSL + source.slice(at, open) + DISCARD_GLSL + source.slice(open);
}

/** A fade-patched material and its uniform. @category three.js */
export interface FadeMaterial {
  material: Material;
  uniform: { value: number };
  /** The TSL uniform of the node-material mask (after `enableNodeCrossFade()`), else null. */
  nodeUniform: { value: number } | null;
}

/** Builds a TSL mask node (true = keep the pixel) driven by the returned uniform. */
export type NodeFadeFactory = () => { maskNode: unknown; uniform: { value: number } };

let nodeFade: NodeFadeFactory | null = null;

/**
 * Installs the node-material (TSL) dither used under `WebGPURenderer`; called by
 * `enableNodeCrossFade()` from `lodkit/three/webgpu`. `null` removes it.
 * @example
 * ```ts
 * setNodeFadeFactory(() => ({ maskNode, uniform }));
 * ```
 * @category three.js
 */
export function setNodeFadeFactory(factory: NodeFadeFactory | null): void {
  nodeFade = factory;
}

/** True when a node-material dither is installed. @category three.js */
export function hasNodeFade(): boolean {
  return nodeFade !== null;
}

/**
 * Clones `material` and patches the clone with the dither discard driven by `uniform.value`
 * (1 = fully drawn, `f ∈ (0, 1)` keeps a fraction `f`, `−f` keeps the complementary fraction).
 * @example
 * ```ts
 * const { material, uniform } = createFadeMaterial(mesh.material as Material);
 * uniform.value = 0.25;
 * ```
 * @category three.js
 */
export function createFadeMaterial(source: Material): FadeMaterial {
  const material = source.clone();
  const uniform = { value: 1 };
  const previous = source.onBeforeCompile;
  const previousKey = source.customProgramCacheKey();
  material.onBeforeCompile = (shader: WebGLProgramParametersWithUniforms, renderer) => {
    previous.call(material, shader, renderer);
    shader.uniforms[FADE_UNIFORM] = uniform;
    shader.fragmentShader = patchFragmentShader(shader.fragmentShader);
  };
  material.customProgramCacheKey = () => `${previousKey}|lodkit-dither`;
  material.userData = { ...material.userData, lodkitFadeSource: source };
  let nodeUniform: { value: number } | null = null;
  if (nodeFade !== null) {
    const n = nodeFade();
    (material as Material & { maskNode?: unknown }).maskNode = n.maskNode;
    nodeUniform = n.uniform;
  }
  return { material, uniform, nodeUniform };
}

interface MeshLike extends Object3D { material: Material | Material[] }

interface FadeState {
  original: Material | Material[];
  faded: Material | Material[];
  uniforms: { value: number }[];
  active: boolean;
}

const fadeStates = new WeakMap<Object3D, FadeState>();

function fadeStateOf(mesh: MeshLike): FadeState {
  let state = fadeStates.get(mesh);
  if (state === undefined || (state.active === false && state.original !== mesh.material)) {
    const original = mesh.material;
    const uniforms: { value: number }[] = [];
    let faded: Material | Material[];
    if (Array.isArray(original)) {
      faded = original.map((m) => { const f = createFadeMaterial(m); uniforms.push(f.uniform); if (f.nodeUniform) uniforms.push(f.nodeUniform); return f.material; });
    } else {
      const f = createFadeMaterial(original);
      uniforms.push(f.uniform);
      if (f.nodeUniform) uniforms.push(f.nodeUniform);
      faded = f.material;
    }
    state = { original, faded, uniforms, active: false };
    fadeStates.set(mesh, state);
  }
  return state;
}

function setMeshFade(node: Object3D, fade: number): void {
  const mesh = node as MeshLike;
  if (mesh.material === undefined || mesh.material === null) return;
  if (fade >= 1) {
    const state = fadeStates.get(mesh);
    if (state !== undefined && state.active) { mesh.material = state.original; state.active = false; }
    return;
  }
  const state = fadeStateOf(mesh);
  if (!state.active) { mesh.material = state.faded; state.active = true; }
  for (let i = 0; i < state.uniforms.length; i++) state.uniforms[i].value = fade;
}

/**
 * Sets the screen-door fade of every mesh under `root`: `1` restores the original materials (no
 * cost), `f ∈ (0, 1)` draws a fraction `f` of the pixels, `−f` the complementary fraction. For a
 * transition with weight `w` toward the next level, give the current level `1 − w` and the next
 * level `−w`: together they cover each pixel once.
 * @example
 * ```ts
 * setObjectFade(levels[0].object, 1 - lod.blend);
 * setObjectFade(levels[1].object, -lod.blend);
 * ```
 * @category three.js
 */
export function setObjectFade(root: Object3D, fade: number): void {
  if (!(fade === fade)) fade = 1;
  root.traverse((node) => setMeshFade(node, fade));
}

/** True when a mesh currently uses its fade material (for tests and debugging). @category three.js */
export function isFading(mesh: Object3D): boolean {
  return fadeStates.get(mesh)?.active === true;
}

/** The current fade value of a mesh (1 when not fading). @category three.js */
export function fadeOf(mesh: Object3D): number {
  const s = fadeStates.get(mesh);
  return s !== undefined && s.active ? s.uniforms[0].value : 1;
}
