/**
 * `BabylonThinInstanceLod`: many copies of one model drawn as Babylon thin instances, one level
 * mesh per level, each fed by `thinInstanceSetBuffer('matrix', …)` (and `'color'`), switched by a
 * {@link BabylonLodManager} (so its policy and budget cover them with everything else).
 *
 * Contributor notes:
 * - Each level keeps its drawn instances packed in slots `[0, count)` of its own buffers. A level
 *   change removes the instance from the old level (the last slot moves into the hole) and appends
 *   it to the new one: at most two slots written per change, plus the moved instance's slot.
 * - Only dirty slots are uploaded: runs of adjacent dirty slots go through
 *   `thinInstancePartialBufferUpdate(kind, count, offset)` (a `bufferSubData` each; Babylon makes a
 *   small `Float32Array` view per call). Past 32 runs one range from the first to the last dirty
 *   slot is uploaded instead. A level whose capacity grows gets a new buffer (`thinInstanceSetBuffer`
 *   re-creates the GPU buffer: the whole level is uploaded once; capacities double).
 * - A level mesh with no instance is disabled: Babylon draws a mesh with `thinInstanceCount` 0 as a
 *   plain mesh. Level meshes get `alwaysSelectAsActiveMesh` and `doNotSyncBoundingInfo`: lodkit
 *   culls per instance, and Babylon's bounding box over every slot would be stale or costly.
 * - Instance matrices are Babylon's (row vectors, translation in `m[12..14]`), relative to the level
 *   mesh's world matrix, as Babylon draws them; level 0's world matrix is read at `add`/`setMatrix`.
 *
 * @module
 */
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { HIDDEN_LEVEL } from '../../batch/lodSet.js';
import type { BabylonLodManager } from './lodManager.js';
import { nodeTriangles, type BabylonLevelSink, type BabylonLodOptions, type BabylonSphere } from './lodManagerOptions.js';

/**
 * Options of {@link BabylonThinInstanceLod}.
 * @example
 * ```ts
 * const options: BabylonThinInstanceOptions = { metric: 'pixels', thresholds: [120, 30], colors: true };
 * ```
 * @category Babylon
 */
export interface BabylonThinInstanceOptions extends Omit<BabylonLodOptions, 'sphere'> {
  /** Bounding sphere of one instance in its own space; default: level 0's local bounding sphere. */
  sphere?: BabylonSphere;
  /** Keep a per-instance colour buffer (`'color'`, RGBA). Default false. */
  colors?: boolean;
  /** Initial instance capacity. Default 64. */
  capacity?: number;
}

const MAX_RUNS = 32;

class LevelBuffers {
  matrices: Float32Array;
  colors: Float32Array | null;
  owners: Int32Array;
  count = 0;
  grown = true;
  dirty: number[] = [];
  mark: Uint8Array;
  constructor(readonly mesh: Mesh | null, capacity: number, colors: boolean) {
    this.matrices = new Float32Array(capacity * 16);
    this.colors = colors ? new Float32Array(capacity * 4) : null;
    this.owners = new Int32Array(capacity);
    this.mark = new Uint8Array(capacity);
  }
  touch(slot: number): void { if (this.mark[slot] === 0) { this.mark[slot] = 1; this.dirty.push(slot); } }
  grow(): void {
    const cap = this.owners.length * 2;
    const m = new Float32Array(cap * 16); m.set(this.matrices); this.matrices = m;
    if (this.colors !== null) { const c = new Float32Array(cap * 4); c.set(this.colors); this.colors = c; }
    const o = new Int32Array(cap); o.set(this.owners); this.owners = o;
    const k = new Uint8Array(cap); k.set(this.mark); this.mark = k;
    this.grown = true;
  }
}

/**
 * Thin-instanced LOD: one level mesh per level, instances moved between their matrix buffers as
 * their level changes; per-instance colour; add, remove and move at any time.
 *
 * @example
 * ```ts
 * import { BabylonLodManager, BabylonThinInstanceLod } from 'lodkit/babylon';
 * const manager = new BabylonLodManager(scene);
 * const rocks = new BabylonThinInstanceLod(manager, [rockHigh, rockMid, rockLow], { metric: 'pixels', thresholds: [150, 40], colors: true });
 * const key = rocks.add(Matrix.Translation(10, 0, 5).m, [1, 0.5, 0.5, 1]);
 * rocks.setMatrix(key, Matrix.Translation(12, 0, 5).m); // move
 * rocks.countOf(0);                                      // instances drawn at level 0 after a frame
 * ```
 * @category Babylon
 */
export class BabylonThinInstanceLod implements BabylonLevelSink {
  /** Instances uploaded in the last flush (slots written, all levels): a measure of the upload work. */
  uploadedSlots = 0;
  private readonly levels: LevelBuffers[];
  private readonly profile: number;
  private readonly localSphere: Float64Array;
  private matrices: Float32Array;
  private colors: Float32Array | null;
  private ids: Int32Array;
  private level: Uint8Array;
  private slot: Int32Array;
  private used = 0;
  private readonly free: number[] = [];

  constructor(readonly manager: BabylonLodManager, levelMeshes: readonly (Mesh | null)[], options: BabylonThinInstanceOptions) {
    if (levelMeshes.length === 0 || levelMeshes[0] === null) throw new RangeError('BabylonThinInstanceLod: level 0 must be a mesh');
    if (options.thresholds.length !== levelMeshes.length - 1) {
      throw new RangeError(`BabylonThinInstanceLod: thresholds must have levels − 1 = ${levelMeshes.length - 1} values, got ${options.thresholds.length}`);
    }
    const cap = Math.max(1, options.capacity ?? 64);
    const withColors = options.colors === true;
    this.levels = levelMeshes.map((m) => new LevelBuffers(m, cap, withColors));
    const costs = options.costs ?? levelMeshes.map(nodeTriangles).map((c, i, a) => Math.min(c, ...a.slice(0, i + 1)));
    this.profile = manager.profile(options.metric, options.thresholds, costs, options);
    const s = options.sphere ?? (() => { const b = levelMeshes[0]!.getBoundingInfo().boundingSphere; return { center: [b.center.x, b.center.y, b.center.z], radius: b.radius }; })();
    this.localSphere = Float64Array.of(s.center[0], s.center[1], s.center[2], s.radius);
    this.matrices = new Float32Array(cap * 16);
    this.colors = withColors ? new Float32Array(cap * 4) : null;
    this.ids = new Int32Array(cap).fill(-1);
    this.level = new Uint8Array(cap).fill(HIDDEN_LEVEL);
    this.slot = new Int32Array(cap).fill(-1);
    for (const l of this.levels) {
      if (l.mesh === null) continue;
      l.mesh.alwaysSelectAsActiveMesh = true;
      l.mesh.doNotSyncBoundingInfo = true;
      l.mesh.setEnabled(false);
    }
    this.flush();
  }

  /** Instances registered (live keys). */
  get size(): number { return this.used - this.free.length; }

  /** Instances drawn at `level` after the last frame. */
  countOf(level: number): number { return this.levels[level].count; }

  /** The level drawn by an instance (`HIDDEN_LEVEL`, 255, when culled or hidden). */
  levelOf(key: number): number { return this.level[key]; }

  /** The key of the instance drawn in `slot` of `level` (for tests and debugging). */
  ownerOf(level: number, slot: number): number { return this.levels[level].owners[slot]; }

  /** Adds an instance with a Babylon matrix (16 numbers) and, with `colors`, an RGBA colour; returns its key. */
  add(matrix: ArrayLike<number>, color?: ArrayLike<number>): number {
    const key = this.free.length > 0 ? this.free.pop()! : this.used++;
    if (key >= this.ids.length) this.growInstances();
    this.matrices.set(Array.prototype.slice.call(matrix, 0, 16) as number[], key * 16);
    if (this.colors !== null) this.colors.set(color === undefined ? [1, 1, 1, 1] : Array.prototype.slice.call(color, 0, 4) as number[], key * 4);
    this.level[key] = HIDDEN_LEVEL;
    this.slot[key] = -1;
    this.ids[key] = this.manager.addObject(this.worldSphere(key), this.profile, this, key);
    return key;
  }

  /** Moves an instance; its slot is rewritten at the next frame. */
  setMatrix(key: number, matrix: ArrayLike<number>): void {
    this.check(key, 'setMatrix');
    this.matrices.set(Array.prototype.slice.call(matrix, 0, 16) as number[], key * 16);
    const s = this.worldSphere(key);
    this.manager.set.setSphere(this.ids[key], s[0], s[1], s[2], s[3]);
    this.rewrite(key);
  }

  /** Changes an instance's colour (needs `colors: true`). */
  setColor(key: number, color: ArrayLike<number>): void {
    this.check(key, 'setColor');
    if (this.colors === null) throw new RangeError('BabylonThinInstanceLod.setColor: created without colors');
    this.colors.set(Array.prototype.slice.call(color, 0, 4) as number[], key * 4);
    this.rewrite(key);
  }

  /** Removes an instance now (its slot is freed at the next frame). */
  remove(key: number): void {
    this.check(key, 'remove');
    this.setLevel(key, HIDDEN_LEVEL);
    this.manager.removeObject(this.ids[key]);
    this.ids[key] = -1;
    this.free.push(key);
    this.manager.requestFlush(this);
  }

  /** {@link BabylonLevelSink}: moves instance `key` to `level`'s buffers. */
  setLevel(key: number, level: number): void {
    const from = this.level[key];
    const to = level < this.levels.length && this.levels[level].mesh !== null ? level : HIDDEN_LEVEL;
    if (from === to) return;
    if (from !== HIDDEN_LEVEL) this.take(this.levels[from], this.slot[key]);
    this.level[key] = to;
    this.slot[key] = -1;
    if (to !== HIDDEN_LEVEL) {
      const l = this.levels[to];
      if (l.count === l.owners.length) l.grow();
      const s = l.count++;
      l.owners[s] = key;
      this.slot[key] = s;
      this.write(l, s, key);
    }
  }

  /** {@link BabylonLevelSink}: uploads the dirty slots of every level. */
  flush(): void {
    let uploaded = 0;
    for (const l of this.levels) {
      const mesh = l.mesh;
      if (mesh === null) continue;
      if (l.grown) {
        mesh.thinInstanceSetBuffer('matrix', l.matrices, 16, false);
        if (l.colors !== null) mesh.thinInstanceSetBuffer('color', l.colors, 4, false);
        uploaded += l.count;
        l.grown = false;
      } else if (l.dirty.length > 0) {
        uploaded += this.upload(l);
      }
      for (const s of l.dirty) l.mark[s] = 0;
      l.dirty.length = 0;
      mesh.thinInstanceCount = l.count;
      if (mesh.isEnabled(false) !== l.count > 0) mesh.setEnabled(l.count > 0);
    }
    this.uploadedSlots = uploaded;
  }

  /** Removes every instance from the manager and the buffers from the level meshes. */
  dispose(): void {
    for (let key = 0; key < this.used; key++) if (this.ids[key] >= 0) { this.manager.removeObject(this.ids[key]); this.ids[key] = -1; }
    for (const l of this.levels) {
      if (l.mesh === null) continue;
      l.mesh.thinInstanceSetBuffer('matrix', null);
      if (l.colors !== null) l.mesh.thinInstanceSetBuffer('color', null);
      l.mesh.setEnabled(false);
    }
  }

  private upload(l: LevelBuffers): number {
    const mesh = l.mesh!;
    const live = l.dirty.filter((s) => s < l.count).sort((a, b) => a - b);
    if (live.length === 0) return 0;
    let runs = 1;
    for (let k = 1; k < live.length; k++) if (live[k] !== live[k - 1] + 1) runs++;
    const send = (offset: number, n: number) => {
      mesh.thinInstancePartialBufferUpdate('matrix', n, offset);
      if (l.colors !== null) mesh.thinInstancePartialBufferUpdate('color', n, offset);
    };
    if (runs > MAX_RUNS) { const n = live[live.length - 1] - live[0] + 1; send(live[0], n); return n; }
    let start = live[0], prev = live[0];
    for (let k = 1; k <= live.length; k++) {
      if (k < live.length && live[k] === prev + 1) { prev = live[k]; continue; }
      send(start, prev - start + 1);
      if (k < live.length) { start = live[k]; prev = live[k]; }
    }
    return live.length;
  }

  /** Frees `slot` of a level: the last slot's instance moves into it. */
  private take(l: LevelBuffers, slot: number): void {
    const last = --l.count;
    if (slot !== last) {
      const moved = l.owners[last];
      l.owners[slot] = moved;
      this.slot[moved] = slot;
      this.write(l, slot, moved);
    }
  }

  private write(l: LevelBuffers, s: number, key: number): void {
    l.matrices.set(this.matrices.subarray(key * 16, key * 16 + 16), s * 16);
    if (l.colors !== null && this.colors !== null) l.colors.set(this.colors.subarray(key * 4, key * 4 + 4), s * 4);
    l.touch(s);
  }

  private rewrite(key: number): void {
    const lv = this.level[key];
    if (lv === HIDDEN_LEVEL) return;
    this.write(this.levels[lv], this.slot[key], key);
    this.manager.requestFlush(this);
  }

  private check(key: number, method: string): void {
    if (!(key >= 0 && key < this.used) || this.ids[key] < 0) throw new RangeError(`BabylonThinInstanceLod.${method}: ${key} is not a live instance key`);
  }

  private growInstances(): void {
    const cap = this.ids.length * 2;
    const m = new Float32Array(cap * 16); m.set(this.matrices); this.matrices = m;
    if (this.colors !== null) { const c = new Float32Array(cap * 4); c.set(this.colors); this.colors = c; }
    const i = new Int32Array(cap).fill(-1); i.set(this.ids); this.ids = i;
    const v = new Uint8Array(cap).fill(HIDDEN_LEVEL); v.set(this.level); this.level = v;
    const s = new Int32Array(cap).fill(-1); s.set(this.slot); this.slot = s;
  }

  /** World sphere of an instance: the local sphere through its matrix, then level 0's world matrix. */
  private worldSphere(key: number): Float64Array {
    const a = this.matrices, o = key * 16, ls = this.localSphere;
    const w = this.levels[0].mesh!.computeWorldMatrix(true).m;
    const [cx, cy, cz] = [ls[0], ls[1], ls[2]];
    // Row vectors: p' = p · M.
    const ix = cx * a[o] + cy * a[o + 4] + cz * a[o + 8] + a[o + 12];
    const iy = cx * a[o + 1] + cy * a[o + 5] + cz * a[o + 9] + a[o + 13];
    const iz = cx * a[o + 2] + cy * a[o + 6] + cz * a[o + 10] + a[o + 14];
    out[0] = ix * w[0] + iy * w[4] + iz * w[8] + w[12];
    out[1] = ix * w[1] + iy * w[5] + iz * w[9] + w[13];
    out[2] = ix * w[2] + iy * w[6] + iz * w[10] + w[14];
    out[3] = ls[3] * maxRowScale(a, o) * maxRowScale(w, 0);
    return out;
  }
}

const out = new Float64Array(4);

function maxRowScale(m: ArrayLike<number>, o: number): number {
  let best = 0;
  for (let r = 0; r < 3; r++) {
    const x = m[o + r * 4], y = m[o + r * 4 + 1], z = m[o + r * 4 + 2];
    best = Math.max(best, x * x + y * y + z * z);
  }
  return Math.sqrt(best);
}
