/**
 * The moves of a large batch of level changes (the first update, a camera jump), four copies at a
 * time: `InstancedLOD` takes the slots in `changed` order exactly as one `enterFrom` + `leave` per
 * instance does (the same slots, holes and dirty ranges), and the matrix and colour copies run in
 * groups of four, interleaved float by float.
 *
 * Why: the changes are listed in the engine's spatial order, the pools they leave hold their
 * instances in another (the CPU-only pool in id order), so each copy reads 64 B at a random place.
 * One copy at a time waits for each read in turn; four interleaved keep four reads in flight:
 * `npm run bench:jump` (100k instances, ≈ 67k changes a frame; the same build with the queue off
 * and on, 2 × 3 runs each, load ≈ 1.3) median frame 15.6–20.1 → 14.4–16.5 ms.
 *
 * Why the order is safe: a queued copy only writes a slot that is a hole or past its pool's count
 * when taken. It can be the slot an earlier queued copy reads (a leaver's hole, refilled later in the
 * list), never one a later copy reads (that instance still occupies its slot). Each float is read
 * by the earlier copy before the later one writes it (queue order within every step), as in
 * copy-then-leave one at a time. A pool that grows meanwhile copies every slot, holes included,
 * into its new arrays, and the queue reads each pool's arrays only when it copies.
 *
 * A batch in which every change leaves the CPU-only pool for a level (the first update after a
 * large `addInstances`; {@link leavesCpuPoolOnly}) skips the queue: `LevelSlots.moveAllOut` copies
 * it in the CPU-only pool's slot order, reading forward instead of at random.
 *
 * @module
 */
import { HIDDEN_LEVEL } from '../../batch/lodSet.js';
import { copyFloats, type LevelSlots } from './levelSlots.js';

/** Copies in flight together. */
const GROUP = 4;
const MATRIX = 16, COLOR = 3;

export class MoveQueue {
  private readonly src: LevelSlots[] = [];
  private readonly dst: LevelSlots[] = [];
  private readonly from = new Int32Array(GROUP);
  private readonly to = new Int32Array(GROUP);
  private n = 0;

  /**
   * Takes a slot of `dest` for instance `id` (as `enterFrom` does) and queues the copy of its matrix
   * and colour from `source`'s slot `slot`; returns the new slot. The caller then lets it `leave`
   * `source`, and calls {@link flush} before anything reads the pools.
   */
  move(id: number, source: LevelSlots, slot: number, dest: LevelSlots): number {
    const taken = dest.claim(id), k = this.n;
    this.src[k] = source; this.dst[k] = dest; this.from[k] = slot; this.to[k] = taken;
    if (++this.n === GROUP) this.flush();
    return taken;
  }

  /** Runs the queued copies. */
  flush(): void {
    const n = this.n;
    if (n === 0) return;
    this.n = 0;
    const src = this.src, dst = this.dst, from = this.from, to = this.to;
    if (n === GROUP) {
      const f0 = src[0].matrices, f1 = src[1].matrices, f2 = src[2].matrices, f3 = src[3].matrices;
      const t0 = dst[0].matrices, t1 = dst[1].matrices, t2 = dst[2].matrices, t3 = dst[3].matrices;
      const a0 = from[0] * MATRIX, a1 = from[1] * MATRIX, a2 = from[2] * MATRIX, a3 = from[3] * MATRIX;
      const b0 = to[0] * MATRIX, b1 = to[1] * MATRIX, b2 = to[2] * MATRIX, b3 = to[3] * MATRIX;
      for (let k = 0; k < MATRIX; k++) {
        t0[b0 + k] = f0[a0 + k]; t1[b1 + k] = f1[a1 + k]; t2[b2 + k] = f2[a2 + k]; t3[b3 + k] = f3[a3 + k];
      }
    } else {
      for (let i = 0; i < n; i++) copyFloats(src[i].matrices, from[i] * MATRIX, dst[i].matrices, to[i] * MATRIX, MATRIX);
    }
    for (let i = 0; i < n; i++) {
      const cf = src[i].colors, ct = dst[i].colors;
      if (cf !== null && ct !== null) copyFloats(cf, from[i] * COLOR, ct, to[i] * COLOR, COLOR);
    }
  }
}

/**
 * True when every change of the batch (`levels[id]` ≠ `levelOf[id]`) takes an instance out of the
 * CPU-only pool (code `HIDDEN_LEVEL`) into a level `l < levelCount` whose pool `slots[l]` has no
 * holes: the case of `LevelSlots.moveAllOut`.
 */
export function leavesCpuPoolOnly(slots: readonly LevelSlots[], levelCount: number, changed: Uint32Array, cc: number,
  levels: Uint8Array, levelOf: Uint8Array): boolean {
  for (let l = 0; l < levelCount; l++) if (slots[l].freeSlots !== 0) return false;
  for (let k = 0; k < cc; k++) {
    const id = changed[k], to = levels[id], from = levelOf[id];
    if (to !== from && (from !== HIDDEN_LEVEL || to >= levelCount)) return false;
  }
  return true;
}
