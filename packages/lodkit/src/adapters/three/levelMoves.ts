/**
 * Before a frame with many moves between `InstancedLOD`'s pools (the first update): one
 * reservation per level pool, and whether the frame's moves can run as `LevelSlots.moveOut`'s one
 * loop.
 *
 * @module
 */
import { HIDDEN_LEVEL } from '../../batch/lodSet.js';
import type { LevelSlots } from './levelSlots.js';

/**
 * Grows each level pool (`slots[0 … levelCount)`) once to its count + entrants − leavers of the
 * frame's changes (a lower bound of its peak: it ends at the capacity slot-by-slot growth reaches),
 * not once per 1.5× step; `net` is per-level scratch. Returns whether every move is a hidden
 * instance (in the CPU-only pool) entering a level pool without holes — `LevelSlots.moveOut`'s case.
 */
export function reserveLevels(slots: LevelSlots[], levelCount: number, net: Int32Array, changed: Uint32Array, cc: number, levels: Uint8Array, levelOf: Uint8Array): boolean {
  let intoLevels = true;
  net.fill(0);
  for (let k = 0; k < cc; k++) {
    const id = changed[k], to = levels[id], from = levelOf[id];
    if (to < levelCount) net[to]++;
    if (from < levelCount) net[from]--;
    if (from !== to && (from !== HIDDEN_LEVEL || to >= levelCount)) intoLevels = false;
  }
  for (let l = 0; l < levelCount; l++) {
    if (net[l] > 0) slots[l].reserve(slots[l].count + net[l]);
    if (slots[l].hasHoles) intoLevels = false;
  }
  return intoLevels;
}
