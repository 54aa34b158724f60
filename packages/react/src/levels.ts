/**
 * How `<ScreenSizeDetailed>`'s props become a `ScreenSizeLOD`'s levels: the two threshold
 * conventions (drei's `distances`, one per child; lodkit's `thresholds`, one per boundary), the
 * hysteresis forms, and the rebuild of the levels from the object's children in their order.
 *
 * Contributor notes:
 * - `ScreenSizeLOD.addLevel(object, t)` means "drawn from distance t" (distance) or "drawn while the
 *   size is above t" (screen sizes); its hysteresis lives on the level whose threshold is the
 *   boundary (ascending: the coarser level, descending: the finer). {@link levelArguments} maps both
 *   prop conventions onto that, so the children stay in their React order (finest first).
 * - The rebuild goes through the public `removeLevel` / `addLevel`: each child is detached and
 *   re-attached in order, so `lod.children` keeps React's order.
 *
 * @module
 */
import type { Object3D } from 'three';
import type { SphereMetric } from 'lodkit';
import type { ScreenSizeLOD } from 'lodkit/three';

/** The level-defining props of `<ScreenSizeDetailed>`. */
export interface LevelProps {
  metric?: SphereMetric;
  thresholds?: readonly number[];
  distances?: readonly number[];
  hysteresis?: number | readonly number[];
}

/** `ScreenSizeLOD.addLevel` arguments for child i. */
export interface LevelArgument { threshold: number; hysteresis: number }

const METRICS: readonly SphereMetric[] = ['distance', 'pixels', 'screenHeight', 'screenArea'];

/**
 * The `addLevel(child, threshold, hysteresis)` arguments of `count` children, finest first. Throws
 * `RangeError` naming the prop when counts, order or values do not fit.
 */
export function levelArguments(props: LevelProps, count: number): LevelArgument[] {
  const metric = props.metric ?? 'distance';
  if (!METRICS.includes(metric)) throw new RangeError(`<ScreenSizeDetailed>: metric must be one of ${METRICS.join(', ')}, got ${String(metric)}`);
  const { thresholds, distances } = props;
  if (thresholds !== undefined && distances !== undefined) throw new RangeError('<ScreenSizeDetailed>: give thresholds or distances, not both');
  if (distances !== undefined && metric !== 'distance') throw new RangeError(`<ScreenSizeDetailed>: distances is drei's prop for metric 'distance'; with metric '${metric}' give thresholds`);
  const out: LevelArgument[] = [];
  if (count === 0) return out;
  const h = props.hysteresis ?? 0;
  const perChild = distances !== undefined;
  const expectedH = perChild ? count : count - 1;
  if (typeof h !== 'number' && h.length !== expectedH) {
    throw new RangeError(`<ScreenSizeDetailed>: hysteresis must be a number or ${expectedH} values (${perChild ? 'one per child, like distances' : 'one per boundary, like thresholds'}), got ${h.length}`);
  }
  const band = (i: number): number => {
    const v = typeof h === 'number' ? h : h[i];
    if (!(typeof v === 'number' && v >= 0 && v < 1)) throw new RangeError(`<ScreenSizeDetailed>: hysteresis${typeof h === 'number' ? '' : `[${i}]`} must be in [0, 1), got ${String(v)}`);
    return v;
  };
  if (perChild) {
    if (distances.length !== count) throw new RangeError(`<ScreenSizeDetailed>: distances must have one value per child (${count}), got ${distances.length}`);
    for (let i = 0; i < count; i++) {
      const d = distances[i];
      if (!Number.isFinite(d) || d < 0 || (i > 0 && !(d > distances[i - 1]))) throw new RangeError(`<ScreenSizeDetailed>: distances must be finite, ≥ 0 and increasing; distances[${i}] = ${String(d)}`);
      out.push({ threshold: d, hysteresis: band(i) });
    }
    return out;
  }
  const t = thresholds ?? [];
  if (t.length !== count - 1) {
    throw new RangeError(`<ScreenSizeDetailed>: thresholds must have one value per boundary, children − 1 = ${count - 1}, got ${t.length}${thresholds === undefined ? ' (none given)' : ''}`);
  }
  const descending = metric !== 'distance';
  for (let k = 0; k < t.length; k++) {
    const v = t[k];
    const ordered = k === 0 || (descending ? v < t[k - 1] : v > t[k - 1]);
    if (!Number.isFinite(v) || !(v > 0) || !ordered) {
      throw new RangeError(`<ScreenSizeDetailed>: thresholds must be finite, > 0 and ${descending ? 'decreasing (screen sizes)' : 'increasing (distances)'}; thresholds[${k}] = ${String(v)}`);
    }
  }
  for (let i = 0; i < count; i++) {
    if (descending) out.push({ threshold: i < t.length ? t[i] : 0, hysteresis: i < t.length ? band(i) : 0 });
    else out.push({ threshold: i === 0 ? 0 : t[i - 1], hysteresis: i === 0 ? 0 : band(i - 1) });
  }
  return out;
}

/**
 * Makes `lod`'s levels exactly `objects` (its children, finest first) with `args`, under `metric`:
 * every old level is removed, then each object is added in order.
 */
export function rebuildLevels(lod: ScreenSizeLOD, objects: readonly Object3D[], args: readonly LevelArgument[], metric: SphereMetric): void {
  while (lod.levels.length > 0) if (!lod.removeLevel(lod.levels[lod.levels.length - 1].threshold)) break;
  if (lod.metric !== metric) lod.metric = metric;
  for (let i = 0; i < objects.length; i++) lod.addLevel(objects[i], args[i].threshold, args[i].hysteresis);
}
