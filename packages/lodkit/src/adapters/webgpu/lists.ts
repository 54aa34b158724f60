/**
 * Draw lists of {@link GpuLodSelector}: which `drawIndexedIndirect` argument record and which id
 * list each (profile, level) draws from.
 *
 * - Global lists (default): list `l` = every object at level `l`, whatever its profile; record `l`
 *   at `l × 20` bytes, ids at `l × stride` elements.
 * - Per-(profile, level) lists (`profileMeshes` given, "one per level mesh"): list
 *   `listBase[p] + l` for profile `p`'s level `l`, with its own mesh range. Profile `p`'s lists
 *   have `profileStride[p]` elements each (its object count rounded up to 64, at least 64, so every
 *   list offset stays 256-byte aligned) and start at `instanceBase[p]`; the layout is recomputed
 *   from the object counts by `setObjects`. Total ≤ `MAX_GPU_LEVELS × (capacity + 64 × profiles)`.
 *
 * @module
 */
import type { LodProfile } from '../../batch/core/profiles.js';
import { PROFILE_BYTES } from './layout.js';

/** Index range of one level's mesh in the bound index buffer. @category WebGPU */
export interface GpuLevelMesh {
  indexCount: number;
  /** Default 0. */
  firstIndex?: number;
  /** Default 0. */
  baseVertex?: number;
}

/** Word offsets of the list fields in a profile record (its last three words). */
export const LIST_WORDS = { listBase: 69, instanceBase: 70, stride: 71 } as const;

/** Validates `meshes` and writes their argument records (5 words each) into `out` from record `at`. */
export function writeMeshArgs(meshes: readonly GpuLevelMesh[], field: string, owner: string, out: Uint32Array, at: number): void {
  meshes.forEach((m, l) => {
    for (const [k, v] of [['indexCount', m?.indexCount], ['firstIndex', m?.firstIndex ?? 0], ['baseVertex', m?.baseVertex ?? 0]] as const) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new RangeError(`${owner}: ${field}[${l}].${k} must be an integer ≥ 0, got ${String(v)}`);
    }
    const o = (at + l) * 5;
    out[o] = m.indexCount; out[o + 2] = m.firstIndex ?? 0; out[o + 3] = m.baseVertex ?? 0;
  });
}

/**
 * The argument template of per-(profile, level) lists: validates `profileMeshes` (one array of
 * exactly `levelCount` meshes per profile) and returns the records and each profile's first list.
 */
export function profileListArgs(profiles: readonly LodProfile[], profileMeshes: readonly (readonly GpuLevelMesh[])[], owner: string):
  { args: Uint32Array<ArrayBuffer>; listBase: Uint32Array<ArrayBuffer> } {
  if (!Array.isArray(profileMeshes) || profileMeshes.length !== profiles.length) {
    throw new RangeError(`${owner}: profileMeshes must have one mesh array per profile (${profiles.length})`);
  }
  const listBase = new Uint32Array(profiles.length);
  let lists = 0;
  profiles.forEach((p, i) => {
    const m = profileMeshes[i];
    if (!Array.isArray(m) || m.length !== p.levelCount) throw new RangeError(`${owner}: profileMeshes[${i}] must have ${p.levelCount} meshes (the profile's levels)`);
    listBase[i] = lists;
    lists += p.levelCount;
  });
  const args = new Uint32Array(lists * 5);
  profiles.forEach((_, i) => writeMeshArgs(profileMeshes[i], `profileMeshes[${i}]`, owner, args, listBase[i]));
  return { args, listBase };
}

/**
 * Lays out per-profile id lists for the object counts `counts[p]` and writes the list fields into
 * the packed profile records `profileBytes`; fills `instanceBase` / `stride` (elements).
 */
export function layoutProfileLists(profiles: readonly LodProfile[], listBase: Uint32Array, counts: Uint32Array, profileBytes: ArrayBuffer,
  instanceBase: Uint32Array, stride: Uint32Array): void {
  const u = new Uint32Array(profileBytes), w = PROFILE_BYTES / 4;
  let base = 0;
  profiles.forEach((p, i) => {
    const s = Math.max(64, Math.ceil(counts[i] / 64) * 64);
    instanceBase[i] = base; stride[i] = s;
    u[i * w + LIST_WORDS.listBase] = listBase[i];
    u[i * w + LIST_WORDS.instanceBase] = base;
    u[i * w + LIST_WORDS.stride] = s;
    base += p.levelCount * s;
  });
}
