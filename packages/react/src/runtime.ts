/**
 * The framework-free part of `<LodManager>`: one lodkit `LodManager` for every registered
 * `ScreenSizeLOD`, the registered `InstancedLOD`s, the `dynamic` objects checked for moves every frame, and
 * a small store of the last frame's stats that `useLodStats` subscribes to.
 *
 * Contributor notes:
 * - One `frame()` per r3f frame runs exactly one `LodSet.update` for every `ScreenSizeLOD` and every
 *   `InstancedLOD` instance: the instanced objects are built on the lodkit `LodManager`'s set
 *   (`options.set`) and registered with `addInstancedLOD`, so one policy and one budget span both.
 * - The stats snapshot is replaced only when a number in it changed, so a still scene does not
 *   re-render an overlay every frame.
 * - Registrations are queued and handed to lodkit's `LodManager` together, in runs of 64 nearby
 *   objects (compactOrder.ts; `flush()`: at the end of the provider's commit and before each frame).
 *   `LodManager.add` appends each object to the batch engine's last spatial cluster, so objects
 *   registered in React's order (random in space) made clusters as large as the scene, which the
 *   engine can neither cull nor skip (bench/RESULTS.md).
 * - Nothing here touches React; components call `register…` / `unregister…` from effects.
 *
 * @module
 */
import type { Camera } from 'three';
import type { LodFrameStats, LodUpdateOptions } from 'lodkit';
import { LodManager as ThreeLodManager, type InstancedLOD, type LodCostOptions, type ScreenSizeLOD } from 'lodkit/three';
import { compactOrder } from './compactOrder.js';
import { DynamicSet } from './dynamicSet.js';

/**
 * The last frame's LOD stats of a `<LodManager>`, summed over its `ScreenSizeLOD`s and
 * `InstancedLOD`s: what {@link useLodStats} returns. A new object only when a value changed.
 * @category React
 */
export interface LodStatsSnapshot {
  /** Frames run so far by the manager (0 before the first). Not a trigger: only changes of the other values publish a snapshot. */
  readonly frame: number;
  /** Drawn objects and instances per level (index = level). */
  readonly levelCounts: readonly number[];
  /** Sum of the drawn levels' costs (triangles unless costs were given). */
  readonly totalCost: number;
  /** Level changes in the last frame. */
  readonly changes: number;
  /** Hidden or culled objects and instances. */
  readonly hidden: number;
  /** True when no budget is set or the cost is within it (all sources). */
  readonly budgetMet: boolean;
  /** Registered `ScreenSizeLOD`s plus live instances. */
  readonly objects: number;
}

/** The snapshot before the first frame. */
const EMPTY: LodStatsSnapshot = { frame: 0, levelCounts: [], totalCost: 0, changes: 0, hidden: 0, budgetMet: true, objects: 0 };

/**
 * The state behind one `<LodManager>`: the lodkit `LodManager`, the registered instanced objects
 * and the stats store. Created by the component; exposed through {@link useLodRuntime} for
 * advanced use (e.g. reading `manager.set` or registering objects made outside React).
 *
 * @example
 * ```ts
 * import { LodRuntime } from '@lodkit/react';
 * import { PerspectiveCamera } from 'three';
 * const runtime = new LodRuntime();
 * runtime.options = { policy: budgetPolicy, budget: 200_000 }; // budgetPolicy from 'lodkit'
 * runtime.frame(new PerspectiveCamera(), 1080); // what <LodManager> does in useFrame
 * ```
 * @category React
 */
export class LodRuntime {
  /** lodkit's batch manager for every registered `ScreenSizeLOD` (`manager.set` is its `LodSet`). */
  readonly manager: ThreeLodManager;
  /** The update options of every frame (policy, budget, quotas, hysteresis …). */
  options: LodUpdateOptions = { policy: 'thresholds' };
  /** Registered instanced objects (built on the manager's set: its update decides them). */
  readonly instanced = new Set<InstancedLOD>();

  /** Registers an `InstancedLOD` built with `{ set: manager.set }` with the manager. */
  addInstanced(object: InstancedLOD): void { this.instanced.add(object); this.manager.addInstancedLOD(object); }

  /** Stops deciding it (its `dispose()` then takes its instances out of the set). */
  removeInstanced(object: InstancedLOD): void { this.instanced.delete(object); this.manager.removeInstancedLOD(object); }
  /**
   * Registered `ScreenSizeLOD`s that may move (`dynamic`): every frame their world matrices are
   * brought up to date, and the world sphere of each one whose matrix or bounding sphere changed is
   * re-read (dynamicSet.ts).
   */
  readonly dynamic: Set<ScreenSizeLOD>;
  /** Frames run. */
  frames = 0;
  /** Registered `ScreenSizeLOD`s. */
  registered = 0;
  private snapshot: LodStatsSnapshot = EMPTY;
  // The stats last published (EMPTY's values before the first change); `stale`: `snapshot` is older.
  private lastCost = 0;
  private lastChanges = 0;
  private lastHidden = 0;
  private lastMet = true;
  private lastObjects = 0;
  private lastFrame = 0;
  private readonly lastCounts: number[] = [];
  private lastLevels = 0;
  private stale = false;
  private readonly pending = new Map<ScreenSizeLOD, LodCostOptions>();
  private readonly listeners = new Set<() => void>();
  private readonly moving = new DynamicSet();
  private readonly reread = (lod: ScreenSizeLOD): void => { this.manager.refresh(lod); };
  constructor(capacity = 1024) {
    this.manager = new ThreeLodManager({ capacity });
    this.dynamic = this.moving;
  }

  /**
   * Registers a `ScreenSizeLOD` (it must have levels); the manager chooses its level from the next
   * frame on. Queued until {@link LodRuntime.flush}.
   */
  registerLod(lod: ScreenSizeLOD, options: LodCostOptions = {}): void {
    if (this.has(lod)) throw new RangeError('LodRuntime.registerLod: the LOD is already registered');
    this.pending.set(lod, options);
    this.registered++;
  }

  /** Unregisters a `ScreenSizeLOD` (no-op when it is not registered): it gets `autoUpdate` back. */
  unregisterLod(lod: ScreenSizeLOD): void {
    if (this.pending.delete(lod)) this.registered--;
    else if (this.manager.idFor(lod) >= 0) { this.manager.remove(lod); this.registered--; }
    this.dynamic.delete(lod);
  }

  /** True when `lod` is registered (or queued). */
  has(lod: ScreenSizeLOD): boolean {
    return this.pending.has(lod) || this.manager.idFor(lod) >= 0;
  }

  /** Re-reads a registered object's world sphere (after it moved); a queued one is read when it is added. */
  refresh(lod: ScreenSizeLOD): void {
    if (this.manager.idFor(lod) >= 0) this.manager.refresh(lod);
  }

  /** Hands the queued registrations to lodkit's `LodManager`, in runs of nearby objects (compactOrder.ts). */
  flush(): void {
    const n = this.pending.size;
    if (n === 0) return;
    const lods = [...this.pending.keys()], options = [...this.pending.values()];
    const xyz = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) {
      const lod = lods[i];
      lod.updateWorldMatrix(true, false);
      const e = lod.matrixWorld.elements;
      const c = (lod.boundingSphere ?? lod.computeBoundingSphere()).center;
      const x = e[0] * c.x + e[4] * c.y + e[8] * c.z + e[12], y = e[1] * c.x + e[5] * c.y + e[9] * c.z + e[13], z = e[2] * c.x + e[6] * c.y + e[10] * c.z + e[14];
      // Only the order depends on these; a broken transform must not stall the selection (NaN compares false).
      xyz[i * 3] = Number.isFinite(x) ? x : 0; xyz[i * 3 + 1] = Number.isFinite(y) ? y : 0; xyz[i * 3 + 2] = Number.isFinite(z) ? z : 0;
    }
    const order = compactOrder(xyz, n);
    this.pending.clear();
    for (let k = 0; k < n; k++) this.manager.add(lods[order[k]], options[order[k]]);
  }

  /**
   * One frame: re-reads the dynamic objects that moved, runs the manager's batch update (one `LodSet.update`
   * for every object and instance), and publishes the stats when they changed. `viewportHeight` is the
   * drawing-buffer height in pixels (r3f: `size.height × dpr`). Returns the manager's frame stats.
   */
  frame(camera: Camera, viewportHeight: number): LodFrameStats {
    this.frames++;
    this.flush();
    camera.updateMatrixWorld();
    const m = this.manager;
    m.viewportHeight = viewportHeight > 0 ? viewportHeight : null;
    this.moving.sync(this.reread);
    const stats = m.update(camera, this.options);
    let objects = this.registered;
    for (const inst of this.instanced) objects += inst.instanceCount;
    this.publish(m.count > 0 ? stats : null, objects);
    return stats;
  }

  /**
   * Records this frame's stats (`null`: nothing registered, all zero) when they differ from the last
   * recorded ones and tells the subscribers; the snapshot object itself is made by `getSnapshot`, so
   * frames that nobody reads (no `useLodStats`, or several changes between two renders) allocate nothing.
   */
  private publish(s: LodFrameStats | null, objects: number): void {
    const cost = s === null ? 0 : s.totalCost, changes = s === null ? 0 : s.changes, hidden = s === null ? 0 : s.hidden;
    const met = s === null || s.budgetMet, n = s === null ? 0 : s.levelCounts.length, last = this.lastCounts;
    let same = this.lastCost === cost && this.lastChanges === changes && this.lastHidden === hidden &&
      this.lastMet === met && this.lastObjects === objects && this.lastLevels === n;
    for (let l = 0; same && l < n; l++) same = last[l] === s!.levelCounts[l];
    if (same) return;
    this.lastCost = cost; this.lastChanges = changes; this.lastHidden = hidden;
    this.lastMet = met; this.lastObjects = objects; this.lastLevels = n; this.lastFrame = this.frames;
    for (let l = 0; l < n; l++) last[l] = s!.levelCounts[l];
    this.stale = true;
    for (const listener of this.listeners) listener();
  }

  /** The last published stats (for `useSyncExternalStore`): the same object until a frame changes them. */
  getSnapshot = (): LodStatsSnapshot => {
    if (this.stale) {
      this.stale = false;
      this.snapshot = {
        frame: this.lastFrame, levelCounts: this.lastCounts.slice(0, this.lastLevels), totalCost: this.lastCost, changes: this.lastChanges,
        hidden: this.lastHidden, budgetMet: this.lastMet, objects: this.lastObjects,
      };
    }
    return this.snapshot;
  };

  /** Subscribes to stats changes; returns the unsubscribe function (for `useSyncExternalStore`). */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  };

  /** Number of stats subscribers (`useLodStats` hooks mounted). */
  get subscribers(): number {
    return this.listeners.size;
  }

  /** Frees the batch engine (worker threads, if any were started). */
  dispose(): void {
    this.manager.set.dispose();
  }
}
