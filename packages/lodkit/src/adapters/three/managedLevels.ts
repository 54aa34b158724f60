/**
 * `ManagedLevels`: `LodManager`'s copy of each registered `ScreenSizeLOD`'s level objects (one
 * flat array, a row per manager id) and of the level it last showed, so the common level change —
 * no cross-fade running or starting — reads typed arrays and one field of the LOD, and writes two
 * `visible` flags. Everything else goes through `ScreenSizeLOD.setLevel` as before.
 *
 * Contributor notes:
 * - Why: a frame applies its changes right after the batch engine, when every LOD, its `levels`
 *   array, level records, `LevelVisibility` and level objects are cold (the renderer walked the
 *   whole scene since). `setLevel` read ≈ 8 of them per change, each a cache miss that stalls the
 *   next; here the reads are this module's arrays (neighbouring ids share cache lines) and
 *   `crossFade` / `fadeDuration` / `visibilityEpoch` of the LOD, and the rest are writes, which do not
 *   stall. Measured with @lodkit/react's bench (10,000 objects, ≈ 110 changes a frame, caches
 *   cold): packages/react/bench/RESULTS.md.
 * - The copy is right while the LOD's `visibilityEpoch` is the one recorded: the LOD bumps it on
 *   every visibility write of its own (its `update`, `setLevel`, fades, `invalidateVisibility`,
 *   level edits), and a plain switch here bumps it too, so another manager sharing the LOD sees the
 *   change. A stale row takes the `setLevel` path, then `capture` records the LOD again. (A
 *   `levels` array edited by hand, not by `addLevel` / `removeLevel`, needs `invalidateVisibility()`,
 *   as its documentation says.)
 * - A plain switch leaves the LOD exactly as `setLevel(level, 0)` would (`current`, `blend`,
 *   `hiddenByManager`, `LevelVisibility`'s level): test/adapters/three/managedLevels.test.ts.
 *
 * @module
 */
import type { Object3D } from 'three';
import { HIDDEN_ALL } from './levelVisibility.js';
import type { ScreenSizeLOD } from './screenSizeLOD.js';

/** `shown` of an id whose level objects' visibility is not known here (or not plain). */
const UNKNOWN = -1;

/** The level objects and plain visibility state of the `ScreenSizeLOD`s of one `LodManager`, by id. */
export class ManagedLevels {
  /** Plain switches done here since construction (not `setLevel` calls). @internal */
  switches = 0;
  private objects: (Object3D | null)[] = [];
  private base = new Int32Array(0);
  private room = new Int32Array(0);
  private count = new Int32Array(0);
  /** Level shown (exactly that one visible), {@link HIDDEN_ALL} (none), or {@link UNKNOWN}. */
  private shown = new Int32Array(0);
  private epoch = new Int32Array(0);

  /** Makes room for ids below `capacity`. */
  ensure(capacity: number): void {
    if (this.base.length >= capacity) return;
    const grow = (a: Int32Array) => { const b = new Int32Array(capacity); b.set(a); return b; };
    this.base = grow(this.base); this.room = grow(this.room); this.count = grow(this.count);
    this.shown = grow(this.shown); this.epoch = grow(this.epoch);
  }

  /** Records `lod`'s level objects and visibility state for `id` (after registering, and after every `setLevel` here). */
  capture(id: number, lod: ScreenSizeLOD): void {
    const levels = lod.levels, n = levels.length;
    if (this.room[id] < n) { this.base[id] = this.objects.length; this.room[id] = n; this.objects.length += n; }
    const b = this.base[id], objects = this.objects;
    for (let i = 0; i < n; i++) objects[b + i] = levels[i].object;
    this.count[id] = n;
    const state = lod.plainState();
    this.shown[id] = state === HIDDEN_ALL || (state >= 0 && state < n) ? state : UNKNOWN;
    this.epoch[id] = lod.visibilityEpoch;
  }

  /** Drops the row of `id` (unregistered); its room is kept for the next LOD given the id. */
  forget(id: number): void {
    const b = this.base[id], objects = this.objects;
    for (let i = 0; i < this.room[id]; i++) objects[b + i] = null;
    this.count[id] = 0;
    this.shown[id] = UNKNOWN;
  }

  /**
   * Shows `level` of `lod` (registered as `id`; a level ≥ its level count hides every level) when
   * it is a plain switch: `frac` 0, the row current, no cross-fade running or starting. Returns
   * false, doing nothing, otherwise (then call `lod.setLevel` and {@link ManagedLevels.capture}).
   */
  trySwitch(id: number, lod: ScreenSizeLOD, level: number, frac: number): boolean {
    const shown = this.shown[id];
    if (frac !== 0 || shown === UNKNOWN || lod.visibilityEpoch !== this.epoch[id] || (lod.crossFade && lod.fadeDuration !== 0)) return false;
    const b = this.base[id], n = this.count[id], objects = this.objects;
    const epoch = (this.epoch[id] + 1) | 0;
    lod.visibilityEpoch = epoch; this.epoch[id] = epoch;
    this.switches++;
    if (level < n) {
      if (level !== shown) {
        if (shown >= 0) objects[b + shown]!.visible = false;
        objects[b + level]!.visible = true;
        this.shown[id] = level;
      }
      lod.noteManagedLevel(level);
    } else {
      if (shown >= 0) objects[b + shown]!.visible = false;
      this.shown[id] = HIDDEN_ALL;
      lod.noteManagedHidden();
    }
    return true;
  }
}
