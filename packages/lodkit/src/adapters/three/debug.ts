/// <reference lib="dom" />
/**
 * Debug views for `LodManager`: bounding spheres coloured by level (like MSFS's "Display Bounding
 * Spheres") and a small DOM panel with per-level counts, cost drawn, budget use and pops per second.
 *
 * Contributor notes:
 * - The spheres are one `InstancedMesh` of a low-poly wireframe sphere, rewritten in full each
 *   `update` (O(n), debug only) with instance colours from {@link LEVEL_COLORS}; hidden and culled
 *   objects get a zero-scale matrix, which three skips cheaply.
 * - Pops per second is an exponential moving average of `stats.changes / dt` (time constant 1 s),
 *   so one big change (a camera cut) decays visibly instead of flashing for one frame.
 *
 * @module
 */
import { Color, IcosahedronGeometry, InstancedMesh, Matrix4, MeshBasicMaterial, Object3D } from 'three';
import { HIDDEN_LEVEL, type LodFrameStats, type LodSet } from '../../batch/lodSet.js';

/** Colours of levels 0…7 (green = finest → red/purple = coarsest), CSS hex. @category three.js */
export const LEVEL_COLORS: readonly string[] = ['#35d07f', '#f2c94c', '#f2994a', '#eb5757', '#bb6bd9', '#56ccf2', '#9b9b9b', '#ffffff'];

const scratch = new Matrix4();
const zero = new Matrix4().makeScale(0, 0, 0);
const color = new Color();

/**
 * Wireframe bounding spheres of every object of a `LodSet` (e.g. `manager.set`), coloured by level.
 * @example
 * ```ts
 * const helper = new LodDebugHelper(manager.set);
 * scene.add(helper);
 * // each frame, after manager.update(...):
 * helper.update();
 * ```
 * @category three.js
 */
export class LodDebugHelper extends Object3D {
  readonly sets: LodSet[];
  private mesh: InstancedMesh;
  private capacity: number;

  constructor(sets: LodSet | LodSet[], capacity = 1024) {
    super();
    this.sets = Array.isArray(sets) ? sets : [sets];
    this.capacity = capacity;
    this.mesh = this.makeMesh(capacity);
    this.add(this.mesh);
    this.name = 'LodDebugHelper';
  }

  private makeMesh(capacity: number): InstancedMesh {
    const m = new InstancedMesh(new IcosahedronGeometry(1, 2), new MeshBasicMaterial({ wireframe: true, transparent: true, opacity: 0.55, depthWrite: false }), capacity);
    m.frustumCulled = false;
    m.count = 0;
    m.renderOrder = 10;
    return m;
  }

  /** Rewrites the spheres from the sets' current spheres and levels (overrides `Object3D.update`, a no-op). */
  update(): void {
    let total = 0;
    for (const s of this.sets) total += s.count;
    if (total > this.capacity) {
      this.remove(this.mesh);
      this.mesh.geometry.dispose();
      (this.mesh.material as MeshBasicMaterial).dispose();
      this.capacity = Math.max(total, this.capacity * 2);
      this.mesh = this.makeMesh(this.capacity);
      this.add(this.mesh);
    }
    let k = 0;
    for (const set of this.sets) {
      const spheres = set.spheres, levels = set.levels;
      for (let id = 0; id < set.count; id++, k++) {
        const level = levels[id];
        if (level === HIDDEN_LEVEL) { this.mesh.setMatrixAt(k, zero); continue; }
        const o = id * 4, r = spheres[o + 3];
        scratch.makeScale(r, r, r).setPosition(spheres[o], spheres[o + 1], spheres[o + 2]);
        this.mesh.setMatrixAt(k, scratch);
        this.mesh.setColorAt(k, color.set(LEVEL_COLORS[Math.min(level, LEVEL_COLORS.length - 1)]));
      }
    }
    this.mesh.count = k;
    this.mesh.instanceMatrix.needsUpdate = true;
    if (this.mesh.instanceColor !== null) this.mesh.instanceColor.needsUpdate = true;
  }

  /** Frees the GPU resources. */
  override dispose(): void {
    this.mesh.geometry.dispose();
    (this.mesh.material as MeshBasicMaterial).dispose();
  }
}

/** Options of {@link LodStatsPanel.update}. @category three.js */
export interface LodPanelFrame {
  /** Budget of the frame (omit when the policy has none). */
  budget?: number;
  /** Unit of costs for display. Default `'triangles'`. */
  unit?: string;
  /** Milliseconds spent choosing levels this frame (shown when given). */
  selectMs?: number;
}

/**
 * An on-screen panel (plain DOM, no framework): per-level counts with coloured bars, cost drawn,
 * budget use and pops per second.
 * @example
 * ```ts
 * const panel = new LodStatsPanel(document.body);
 * panel.update(stats, { budget: 200_000 });
 * ```
 * @category three.js
 */
export class LodStatsPanel {
  readonly element: HTMLElement;
  /** Exponential moving average of level changes per second. */
  popsPerSecond = 0;
  private last = -1;

  constructor(parent: HTMLElement, className = 'lodkit-panel') {
    const doc = parent.ownerDocument;
    this.element = doc.createElement('div');
    this.element.className = className;
    this.element.setAttribute('data-testid', 'lod-panel');
    parent.appendChild(this.element);
  }

  /** Shows one frame's stats (several managers: pass a merged stats object). */
  update(stats: LodFrameStats, frame: LodPanelFrame = {}): void {
    const t = performance.now() / 1000;
    if (this.last >= 0) {
      const dt = Math.max(1e-3, t - this.last);
      const a = Math.min(1, dt);
      this.popsPerSecond += (stats.changes / dt - this.popsPerSecond) * a;
    }
    this.last = t;
    const unit = frame.unit ?? 'triangles';
    let drawn = 0;
    for (let l = 0; l < stats.levelCounts.length; l++) drawn += stats.levelCounts[l];
    const rows: string[] = [];
    for (let l = 0; l < stats.levelCounts.length; l++) {
      const n = stats.levelCounts[l];
      const pct = drawn > 0 ? (100 * n) / drawn : 0;
      rows.push(`<div class="lk-row"><span class="lk-swatch" style="background:${LEVEL_COLORS[Math.min(l, LEVEL_COLORS.length - 1)]}"></span>` +
        `<span class="lk-label">LOD ${l}</span><span class="lk-bar"><span style="width:${pct.toFixed(1)}%;background:${LEVEL_COLORS[Math.min(l, LEVEL_COLORS.length - 1)]}"></span></span>` +
        `<span class="lk-num" data-testid="level-count-${l}">${n}</span></div>`);
    }
    const budget = frame.budget;
    const use = budget !== undefined && budget > 0 ? (100 * stats.totalCost) / budget : NaN;
    this.element.innerHTML =
      rows.join('') +
      `<div class="lk-stat"><span>${unit}</span><b data-testid="panel-cost">${Math.round(stats.totalCost).toLocaleString('en-US')}</b></div>` +
      (budget !== undefined ? `<div class="lk-stat ${stats.budgetMet ? '' : 'lk-over'}"><span>budget use</span><b data-testid="budget-use">${use.toFixed(0)} %</b></div>` : '') +
      `<div class="lk-stat"><span>pops / s</span><b data-testid="pops">${this.popsPerSecond.toFixed(1)}</b></div>` +
      `<div class="lk-stat"><span>hidden / culled</span><b>${stats.hidden}</b></div>` +
      (frame.selectMs !== undefined ? `<div class="lk-stat"><span>LOD select</span><b>${frame.selectMs.toFixed(2)} ms</b></div>` : '');
  }

  /** Removes the panel from the page. */
  dispose(): void {
    this.element.remove();
  }
}
