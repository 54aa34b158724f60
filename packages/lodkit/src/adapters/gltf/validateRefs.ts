/**
 * Reading glTF files from other people safely, part 4: the references `source.ts` does not follow
 * itself — materials' texture infos, textures, skins, cameras, node skins and cameras, animation
 * channels and samplers. glTF-Transform's reader indexes its own arrays with them unchecked: an
 * index past the end gave "Cannot read properties of undefined", or the link was silently dropped
 * and lodkit wrote an invalid glTF. Every error is a {@link GltfReadError} naming the field.
 *
 * @module
 */
import { GltfReadError, describe, ref, type GltfJson } from './readLimits.js';

type Obj = Record<string, unknown>;

/** `json[key]` as a list (the list shapes were checked by `source.ts`, or are checked here). */
function listOf(json: GltfJson, key: string): Obj[] {
  const value = json[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new GltfReadError(`${key} must be an array, got ${describe(value)}`);
  value.forEach((entry, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new GltfReadError(`${key}[${i}] must be an object, got ${describe(entry)}`);
  });
  return value as Obj[];
}

function object(value: unknown, field: string): Obj | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new GltfReadError(`${field} must be an object, got ${describe(value)}`);
  return value as Obj;
}

function nonNegativeInteger(value: unknown, field: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new GltfReadError(`${field} must be an integer ≥ 0, got ${describe(value)}`);
}

function finiteNumber(value: unknown, field: string, { optional = false, positive = false } = {}): void {
  if (value === undefined && optional) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || (positive && !(value > 0))) {
    throw new GltfReadError(`${field} must be a finite${positive ? ' positive' : ''} number, got ${describe(value)}`);
  }
}

/** A material's texture info: `index` into textures, `texCoord` a set number. */
function textureInfo(value: unknown, field: string, textures: number): void {
  const info = object(value, field);
  if (info === undefined) return;
  ref(info.index, `${field}.index`, textures, 'textures', false);
  nonNegativeInteger(info.texCoord, `${field}.texCoord`);
}

// 'pointer': KHR_animation_pointer (the target is named by the extension, not by `node`).
const CHANNEL_PATHS = new Set(['translation', 'rotation', 'scale', 'weights', 'pointer']);
const INTERPOLATIONS = new Set(['LINEAR', 'STEP', 'CUBICSPLINE']);
const CAMERA_TYPES = new Set(['perspective', 'orthographic']);

/**
 * Checks every reference of materials, textures, skins, cameras, nodes (skin, camera) and
 * animations against the lists they point into. Throws naming the field.
 * @internal
 */
export function checkGltfReferences(json: GltfJson): void {
  const length = (key: string): number => (Array.isArray(json[key]) ? (json[key] as unknown[]).length : 0);
  const accessors = length('accessors');
  const nodes = length('nodes');
  const textures = length('textures');

  listOf(json, 'textures').forEach((t, i) => {
    ref(t.source, `textures[${i}].source`, length('images'), 'images');
    ref(t.sampler, `textures[${i}].sampler`, length('samplers'), 'samplers');
  });
  listOf(json, 'materials').forEach((m, i) => {
    const field = `materials[${i}]`;
    const pbr = object(m.pbrMetallicRoughness, `${field}.pbrMetallicRoughness`);
    if (pbr) {
      textureInfo(pbr.baseColorTexture, `${field}.pbrMetallicRoughness.baseColorTexture`, textures);
      textureInfo(pbr.metallicRoughnessTexture, `${field}.pbrMetallicRoughness.metallicRoughnessTexture`, textures);
    }
    for (const key of ['normalTexture', 'occlusionTexture', 'emissiveTexture']) textureInfo(m[key], `${field}.${key}`, textures);
  });
  listOf(json, 'skins').forEach((s, i) => {
    const field = `skins[${i}]`;
    ref(s.inverseBindMatrices, `${field}.inverseBindMatrices`, accessors, 'accessors');
    ref(s.skeleton, `${field}.skeleton`, nodes, 'nodes');
    if (!Array.isArray(s.joints) || s.joints.length === 0) throw new GltfReadError(`${field}.joints must be a non-empty list of node indices, got ${describe(s.joints)}`);
    s.joints.forEach((j: unknown, k) => ref(j, `${field}.joints[${k}]`, nodes, 'nodes', false));
  });
  listOf(json, 'cameras').forEach((c, i) => {
    const field = `cameras[${i}]`;
    if (typeof c.type !== 'string' || !CAMERA_TYPES.has(c.type)) throw new GltfReadError(`${field}.type = ${describe(c.type)} is not "perspective" or "orthographic"`);
    const p = object(c[c.type], `${field}.${c.type}`);
    if (p === undefined) throw new GltfReadError(`${field}.${c.type} is missing`);
    if (c.type === 'perspective') {
      finiteNumber(p.yfov, `${field}.perspective.yfov`, { positive: true });
      finiteNumber(p.znear, `${field}.perspective.znear`, { positive: true });
      finiteNumber(p.zfar, `${field}.perspective.zfar`, { optional: true, positive: true });
      finiteNumber(p.aspectRatio, `${field}.perspective.aspectRatio`, { optional: true, positive: true });
    } else {
      for (const key of ['xmag', 'ymag', 'zfar', 'znear']) finiteNumber(p[key], `${field}.orthographic.${key}`);
    }
  });
  listOf(json, 'nodes').forEach((n, i) => {
    ref(n.skin, `nodes[${i}].skin`, length('skins'), 'skins');
    ref(n.camera, `nodes[${i}].camera`, length('cameras'), 'cameras');
  });
  listOf(json, 'animations').forEach((a, i) => {
    const field = `animations[${i}]`;
    const samplers = a.samplers;
    const channels = a.channels;
    if (!Array.isArray(samplers)) throw new GltfReadError(`${field}.samplers must be a list, got ${describe(samplers)}`);
    if (!Array.isArray(channels)) throw new GltfReadError(`${field}.channels must be a list, got ${describe(channels)}`);
    samplers.forEach((s: unknown, k) => {
      const sampler = object(s, `${field}.samplers[${k}]`) ?? {};
      ref(sampler.input, `${field}.samplers[${k}].input`, accessors, 'accessors', false);
      ref(sampler.output, `${field}.samplers[${k}].output`, accessors, 'accessors', false);
      if (sampler.interpolation !== undefined && !(typeof sampler.interpolation === 'string' && INTERPOLATIONS.has(sampler.interpolation))) {
        throw new GltfReadError(`${field}.samplers[${k}].interpolation = ${describe(sampler.interpolation)} is not LINEAR, STEP or CUBICSPLINE`);
      }
    });
    channels.forEach((c: unknown, k) => {
      const channel = object(c, `${field}.channels[${k}]`) ?? {};
      ref(channel.sampler, `${field}.channels[${k}].sampler`, samplers.length, `${field}.samplers`, false);
      const target = object(channel.target, `${field}.channels[${k}].target`);
      if (target === undefined) throw new GltfReadError(`${field}.channels[${k}].target is missing`);
      ref(target.node, `${field}.channels[${k}].target.node`, nodes, 'nodes');
      if (typeof target.path !== 'string' || !CHANNEL_PATHS.has(target.path)) {
        throw new GltfReadError(`${field}.channels[${k}].target.path = ${describe(target.path)} is not translation, rotation, scale, weights or pointer`);
      }
    });
  });
}
