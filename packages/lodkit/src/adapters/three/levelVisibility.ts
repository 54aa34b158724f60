/**
 * Which levels of a `ScreenSizeLOD` are drawn, and the time-based fade between them: shows `level`
 * (and its blend partner with a complementary screen-door dither while `blend > 0` and
 * cross-fading), hides the others, and runs a fade of `fadeDuration` seconds when the level
 * changes. Its own module because it is the object's one piece of state across frames besides the
 * chosen level; ScreenSizeLOD.applyVisibility is the public entry (also used by `LodManager`).
 *
 * Contributor notes:
 * - The common case (no fade running or starting, the level unchanged) returns before touching a
 *   level object: they are scattered in memory (bench/three-manager.bench.ts). A change of level
 *   writes only the level shown before and the new one (two cold objects, not every level); every
 *   level is written after `reset()` (levels changed, or `LodManager.resync()`: someone else wrote
 *   the levels' `visible`) and after `hide()`.
 * - `LodManager` switches a managed object in this common case without calling `apply`
 *   (managedLevels.ts): it asks {@link LevelVisibility.plainState}, writes the two `visible` flags
 *   itself and tells this object with `noteSwitch` / `noteHidden`, so the state here stays the one
 *   `apply` / `hide` would have left.
 *
 * @module
 */
import type { Object3D } from 'three';
import { setObjectFade } from './crossFade.js';

/** {@link LevelVisibility.plainState} when every level is hidden. */
export const HIDDEN_ALL = -2;

function now(): number {
  return performance.now() / 1000;
}

/** The drawn level and fade state of one ScreenSizeLOD. */
export class LevelVisibility {
  /** The level whose visibility was last applied (the target of a running fade); −1 before the first, or while hidden. */
  level = -1;
  private fadeFrom = -1;
  private fadeStart = 0;
  private fadeTo = -1;
  private wasActive = false;
  /** Every level is hidden by `hide()` (or `noteHidden`) and nothing was written since. */
  private allHidden = false;

  /** True while a time-based fade is running. */
  get fading(): boolean { return this.fadeFrom >= 0; }

  /** Forgets what is shown (levels changed, or their `visible` written elsewhere): the next `apply` sets every level. */
  reset(): void { this.level = -1; this.allHidden = false; }

  /**
   * The state a plain switch may start from: the one level that is visible (no fade or blend pair
   * running, every other level hidden), {@link HIDDEN_ALL} when `hide()` hid every level, or −1
   * (unknown, or a fade or blend pair on screen).
   */
  plainState(): number {
    if (this.wasActive || this.fadeFrom >= 0) return -1;
    return this.allHidden ? HIDDEN_ALL : this.level;
  }

  /** Records a plain switch to `level` written by the caller (what `apply`'s common case leaves). */
  noteSwitch(level: number): void { this.level = level; this.fadeTo = level; this.allHidden = false; }

  /** Records that the caller hid every level from a plain state (what `hide()` leaves). */
  noteHidden(): void { this.level = -1; this.allHidden = true; }

  /**
   * Hides every level (the whole object culled or hidden by `LodManager`); fades this module set are
   * put back to 1 — only when one is active, so hiding an object that never faded reads no material.
   */
  hide(levels: readonly { object: Object3D }[]): void {
    for (let i = 0; i < levels.length; i++) { const obj = levels[i].object; if (obj.visible) obj.visible = false; }
    if (this.wasActive) {
      for (let i = 0; i < levels.length; i++) setObjectFade(levels[i].object, 1);
      this.wasActive = false;
    }
    this.level = -1;
    this.allHidden = true;
  }

  /** Shows `level` of `levels` (and the blend or fade partner) as the module notes say. */
  apply(levels: readonly { object: Object3D }[], level: number, blend: number, crossFade: boolean, fadeDuration: number): void {
    const n = levels.length;
    this.allHidden = false;
    if (!this.wasActive && (!crossFade || (blend === 0 && fadeDuration === 0))) {
      // Common case: no fade running or starting. The level shown is remembered, so a frame
      // without a change reads no level object at all (they are scattered in memory).
      const shown = this.level;
      if (level === shown) return;
      if (shown >= 0 && shown < n) {
        // Exactly `shown` is visible (this module wrote every level since the last reset or hide).
        levels[shown].object.visible = false;
        if (level >= 0 && level < n) levels[level].object.visible = true;
      } else {
        for (let i = 0; i < n; i++) {
          const obj = levels[i].object, visible = i === level;
          if (obj.visible !== visible) obj.visible = visible;
        }
      }
      this.level = level; this.fadeTo = level;
      return;
    }
    let a = level, b = -1, fadeA = 1, fadeB = 1;
    if (blend > 0 && crossFade) {
      a = blend >= 0.5 ? level - 1 : level;
      b = a + 1;
      fadeA = 1 - blend; fadeB = -blend; // blend = weight of the coarser level of the pair
      this.fadeFrom = -1;
    } else if (fadeDuration > 0 && crossFade) {
      const t = now();
      if (level !== this.fadeTo) {
        // A new target: fade from whichever level dominates the screen now.
        const from = this.fadeFrom >= 0 && t - this.fadeStart < fadeDuration * 0.5 ? this.fadeFrom : this.level;
        this.fadeFrom = from >= 0 && from < n && from !== level ? from : -1;
        this.fadeTo = level;
        this.fadeStart = t;
      }
      if (this.fadeFrom >= 0) {
        const p = (t - this.fadeStart) / fadeDuration;
        if (p >= 1 || this.fadeFrom >= n) this.fadeFrom = -1;
        else { a = this.fadeFrom; b = level; fadeA = 1 - p; fadeB = -p; }
      }
    }
    for (let i = 0; i < n; i++) {
      const obj = levels[i].object;
      const visible = i === a || i === b;
      obj.visible = visible;
    }
    if (b >= 0 && b < n) {
      setObjectFade(levels[a].object, fadeA);
      setObjectFade(levels[b].object, fadeB);
      this.wasActive = true;
    } else if (this.wasActive) {
      for (let i = 0; i < n; i++) setObjectFade(levels[i].object, 1);
      this.wasActive = false;
    }
    this.level = level;
    if (!(fadeDuration > 0)) this.fadeTo = level;
  }
}
