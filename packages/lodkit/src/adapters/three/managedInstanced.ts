/**
 * The `InstancedLOD`s a `LodManager` decides (lodManager.ts `addInstancedLOD`): each is built on the
 * manager's set (`options.set`), so its instances are objects of the manager's one
 * `LodSet.update` — one policy, one budget for the whole scene. Before the frame each brings its
 * world spheres up to date; after it, each takes the changed ids it owns (the set's `changed`
 * list mixes every owner's ids) and moves those instances to their pools.
 *
 * @module
 */
import type { LodFrameStats, LodSet } from '../../batch/lodSet.js';
import type { InstancedLOD } from './instancedLOD.js';

export class ManagedInstanced {
  readonly list: InstancedLOD[] = [];
  /** Registered objects with the `'pixels'` metric (the manager skips frames without a viewport height for them). */
  pixels = 0;
  private own = new Uint32Array(0);

  add(set: LodSet, inst: InstancedLOD): void {
    if (inst.set !== set) throw new RangeError("LodManager.addInstancedLOD: the InstancedLOD must be built on the manager's set ({ set: manager.set })");
    if (this.list.includes(inst)) return;
    this.list.push(inst);
    if (inst.metric === 'pixels') this.pixels++;
  }

  remove(inst: InstancedLOD): void {
    const k = this.list.indexOf(inst);
    if (k < 0) return;
    this.list.splice(k, 1);
    if (inst.metric === 'pixels') this.pixels--;
  }

  /** Before the frame: every object's world spheres follow its matrix. */
  before(): void {
    for (const inst of this.list) inst.beforeFrame();
  }

  /** After the frame: each object's changed instances into their pools. */
  after(set: LodSet, stats: LodFrameStats): void {
    const changed = set.changed, cc = set.changedCount;
    if (this.own.length < cc) this.own = new Uint32Array(Math.max(cc, 2 * this.own.length)); // (grows, then reused)
    const own = this.own;
    for (const inst of this.list) {
      let n = 0;
      for (let k = 0; k < cc; k++) { const id = changed[k]; if (inst.hasInstance(id)) own[n++] = id; }
      inst.afterFrame(stats, own, n);
    }
  }
}
