import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatJsonPath, parseScene, parseSceneText, SceneValidationError, type SceneInput } from '../../src/simulator/sceneFormat.js';
import { builtInScene, forestScene } from '../../src/simulator/scenarios/index.js';
import { tinyStaticScene } from './fixtures.js';

/** Parses and returns the issues (fails the test if the scene is valid). */
function issuesOf(json: unknown): readonly string[] {
  try {
    parseScene(json);
  } catch (error) {
    expect(error).toBeInstanceOf(SceneValidationError);
    return (error as SceneValidationError).issues;
  }
  throw new Error('expected the scene to be invalid');
}

function mutate(edit: (scene: any) => void): unknown {
  const scene = structuredClone(tinyStaticScene()) as any;
  edit(scene);
  return scene;
}

describe('parseScene', () => {
  it('accepts the tiny scene and fills defaults', () => {
    const scene = parseScene(tinyStaticScene());
    expect(scene.groups).toEqual([]);
    expect(scene.camera.near).toBe(0.1);
    expect(scene.profiles.p.triangles).toEqual([1000, 100, 10]);
  });

  it('accepts every built-in scenario (forest at reduced size)', () => {
    expect(() => builtInScene('motogp')).not.toThrow();
    expect(() => builtInScene('flightsim')).not.toThrow();
    expect(() => parseScene(forestScene(1, 2000))).not.toThrow();
    expect(() => builtInScene('monaco')).toThrow(/unknown scenario "monaco"; built-in scenarios: motogp, flightsim, forest/);
  });

  const cases: Array<[string, (s: any) => void, string]> = [
    ['a non-number threshold', (s) => { s.profiles.p.thresholds[1] = 'five'; }, 'profiles.p.thresholds[1]: Invalid input: expected number, received string'],
    ['an unknown metric', (s) => { s.profiles.p.metric = 'pixel'; }, 'profiles.p.metric: Invalid option: expected one of "distance"|"pixels"|"screenHeight"|"screenArea"'],
    ['ascending screen thresholds', (s) => { s.profiles.p.thresholds = [5, 20]; }, 'profiles.p.thresholds[1]: expected strictly descending thresholds'],
    ['descending distance thresholds', (s) => { s.profiles.p.metric = 'distance'; s.profiles.p.thresholds = [50, 10]; }, 'profiles.p.thresholds[1]: expected strictly ascending thresholds'],
    ['too few triangle counts', (s) => { s.profiles.p.triangles = [1000, 100]; }, 'profiles.p.triangles: expected 3 values (one per level: thresholds.length + 1), got 2'],
    ['triangles growing toward coarse levels', (s) => { s.profiles.p.triangles = [1000, 100, 200]; }, 'profiles.p.triangles[2]: expected triangle counts not increasing toward coarser levels, got 200 after 100'],
    ['errors shrinking toward coarse levels', (s) => { s.profiles.p.errors = [0, 2, 1]; }, 'profiles.p.errors[2]: expected errors not decreasing toward coarser levels, got 1 after 2'],
    ['errors of the wrong length', (s) => { s.profiles.p.errors = [0]; }, 'profiles.p.errors: expected 3 values'],
    ['a misspelt key', (s) => { s.profiles.p.treshold = [1]; }, 'profiles.p: Unrecognized key: "treshold"'],
    ['a negative radius', (s) => { s.objects[1].radius = -1; }, 'objects[1].radius: Too small: expected number to be >0'],
    ['an unknown profile name', (s) => { s.objects[2].profile = 'car'; }, 'objects[2].profile: expected the name of a profile ("p"), got "car"'],
    ['sphere and extent together', (s) => { s.objects[0].extent = { min: [0, 0, 0], max: [1, 1, 1] }; }, 'objects[0]: expected either a bounding sphere'],
    ['an inverted extent', (s) => { delete s.objects[0].radius; delete s.objects[0].center; s.objects[0].extent = { min: [0, 0, 0], max: [1, -1, 1] }; }, 'objects[0].extent.max[1]: expected max >= min on axis 1'],
    ['a short vector', (s) => { s.objects[0].center = [0, 0]; }, 'objects[0].center: Too small: expected array to have >=3 items'],
    ['an infinite coordinate', (s) => { s.objects[0].center[2] = JSON.parse('-1e999'); }, 'objects[0].center[2]: Invalid input: expected number, received -Infinity'],
    ['group spheres not in quadruples', (s) => { s.groups = [{ profile: 'p', spheres: [0, 0, 0, 1, 5] }]; }, 'groups[0].spheres: expected a flat list of [x, y, z, radius] quadruples (length a multiple of 4), got length 5'],
    ['a group sphere with radius 0', (s) => { s.groups = [{ profile: 'p', spheres: [0, 0, 0, 1, 5, 5, 5, 0] }]; }, 'groups[0].spheres[7]: expected a radius > 0 (sphere 1), got 0'],
    ['a keyframe with neither target nor rotation', (s) => { delete s.camera.keyframes[0].target; }, 'camera.keyframes[0]: expected exactly one of target (a point to look at) or rotation (a quaternion)'],
    ['a keyframe with both fovY and height', (s) => { s.camera.keyframes[1].height = 10; }, 'camera.keyframes[1]: expected exactly one of fovY (perspective, degrees) or height (orthographic, world units)'],
    ['a fovY of 180', (s) => { s.camera.keyframes[0].fovY = 180; }, 'camera.keyframes[0].fovY: Too big: expected number to be <180'],
    ['a non-unit quaternion', (s) => { delete s.camera.keyframes[0].target; s.camera.keyframes[0].rotation = [0, 0, 0, 2]; }, 'camera.keyframes[0].rotation: expected a unit quaternion [x, y, z, w], got length 2.0000'],
    ['a target equal to the position', (s) => { s.camera.keyframes[0].target = [0, 0, 0]; }, 'camera.keyframes[0].target: expected a target different from the position'],
    ['keyframe times going back', (s) => { s.camera.keyframes[1].time = -1; }, 'camera.keyframes[1].time: expected times increasing (equal only on a cut), got -1 after 0'],
    ['perspective to orthographic without a cut', (s) => { delete s.camera.keyframes[1].fovY; s.camera.keyframes[1].height = 5; }, 'camera.keyframes[1].cut: expected cut: true to switch between perspective and orthographic'],
    ['a fractional viewport', (s) => { s.camera.keyframes[0].viewport = [100.5, 100]; }, 'camera.keyframes[0].viewport[0]: Invalid input: expected int, received number'],
    ['far not beyond near', (s) => { s.camera.far = 0.05; }, 'camera.far: expected far > near (0.1), got 0.05'],
    ['an unknown policy kind', (s) => { s.policies[0].policy = 'quota'; }, 'policies[0].policy: Invalid option: expected one of "thresholds"|"rankQuota"|"budget"|"hybrid"'],
    ['a budget policy without any budget', (s) => { s.policies[0].policy = 'budget'; }, 'policies[0].budget: expected a budget (here or at the scene\'s top level) for the budget policy'],
    ['a rankQuota policy without quotas', (s) => { s.policies[0].policy = 'rankQuota'; }, 'policies[0].quotas: expected quotas'],
    ['two policies with one name', (s) => { s.policies.push({ ...s.policies[0] }); }, 'policies[1].name: expected a unique policy name, "screen" is used twice'],
    ['a policy override with the wrong level count', (s) => { s.policies[0].profiles = { p: { metric: 'distance', thresholds: [10] } }; }, 'policies[0].profiles.p.thresholds: expected 2 thresholds (the profile has 3 levels), got 1'],
    ['a policy override for an unknown profile', (s) => { s.policies[0].profiles = { q: { metric: 'distance', thresholds: [10, 20] } }; }, 'policies[0].profiles.q: expected the name of a profile ("p"), got "q"'],
    ['a wrong format tag', (s) => { s.format = 'gltf'; }, 'format: Invalid input: expected "lodkit-scene"'],
    ['a missing camera', (s) => { delete s.camera; }, 'camera: Invalid input: expected object, received undefined'],
    ['no policies', (s) => { s.policies = []; }, 'policies: Too small: expected array to have >=1 items'],
  ];
  it.each(cases)('reports %s with its JSON path', (_label, edit, expected) => {
    const issues = issuesOf(mutate(edit));
    expect(issues.some((i) => i.startsWith(expected)), `issues were:\n${issues.join('\n')}`).toBe(true);
  });

  it('lists every issue in the error message, one per line', () => {
    const bad = mutate((s) => { s.profiles.p.triangles = [1]; s.objects[0].profile = 'x'; });
    expect(() => parseScene(bad, 'bad.json')).toThrow(/^invalid bad\.json:\n {2}profiles\.p\.triangles: .*\n {2}objects\[0\]\.profile: /);
  });

  it('reports JSON syntax errors as a validation error at the root', () => {
    expect(() => parseSceneText('{"format": ', 'x.json')).toThrow(SceneValidationError);
    expect(() => parseSceneText('{"format": ', 'x.json')).toThrow(/\(root\): expected valid JSON/);
  });

  it('any random non-object input is rejected with a root path, never a crash', () => {
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.integer())), (value) => {
      const issues = issuesOf(value);
      expect(issues[0]).toMatch(/^\(root\): /);
    }));
  });
});

describe('formatJsonPath', () => {
  it('joins keys with dots, indices in brackets, quotes odd keys', () => {
    expect(formatJsonPath([])).toBe('(root)');
    expect(formatJsonPath(['profiles', 'bike', 'thresholds', 1])).toBe('profiles.bike.thresholds[1]');
    expect(formatJsonPath(['profiles', 'track sector', 'triangles'])).toBe('profiles["track sector"].triangles');
    expect(formatJsonPath([0, 'a'])).toBe('[0].a');
  });
});

describe('scene input type', () => {
  it('the fixture type-checks as SceneInput', () => {
    const s: SceneInput = tinyStaticScene();
    expect(s.format).toBe('lodkit-scene');
  });
});

describe('docs/simulate.md', () => {
  it('its example scene file is valid and simulates', async () => {
    const { readFileSync } = await import('node:fs');
    const { simulate } = await import('../../src/simulator/simulate.js');
    const md = readFileSync(new URL('../../../../docs/simulate.md', import.meta.url), 'utf8');
    const block = /```json\n([\s\S]*?)```/.exec(md);
    expect(block).not.toBeNull();
    const scene = parseSceneText(block![1], 'docs example');
    const { result } = simulate(scene, { frames: 8 });
    expect(result.policies).toHaveLength(6);
    expect(result.scene.objects).toBe(4); // rider, shed, 2 pines
  });
});
