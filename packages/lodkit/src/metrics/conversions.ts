/**
 * Conversions between the sphere metrics. They hold for a sphere because its projection is a disc:
 * with `h` the diameter as a fraction of the window height and `aspect` = width ÷ height,
 * `area = π h² / (4 · aspect)` and `pixels = h · viewportHeightPx`.
 *
 * @module
 */

function requirePositive(value: number, field: string): void {
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${field} must be a finite number > 0, got ${String(value)}`);
}

/** Screen-height fraction → projected diameter in pixels. @category Metrics */
export function heightToPixels(height: number, viewportHeightPx: number): number {
  return height * viewportHeightPx;
}

/** Projected diameter in pixels → screen-height fraction. @category Metrics */
export function pixelsToHeight(pixels: number, viewportHeightPx: number): number {
  requirePositive(viewportHeightPx, 'viewportHeightPx');
  return pixels / viewportHeightPx;
}

/** Screen-height fraction of a sphere → its area fraction of a window with the given aspect (width ÷ height). @category Metrics */
export function heightToArea(height: number, aspect: number): number {
  requirePositive(aspect, 'aspect');
  return (Math.PI * height * height) / (4 * aspect);
}

/** Area fraction of a sphere's disc → its screen-height fraction for a window with the given aspect. @category Metrics */
export function areaToHeight(area: number, aspect: number): number {
  requirePositive(aspect, 'aspect');
  return Math.sqrt((4 * aspect * area) / Math.PI);
}

/** Area fraction → projected diameter in pixels. @category Metrics */
export function areaToPixels(area: number, aspect: number, viewportHeightPx: number): number {
  return areaToHeight(area, aspect) * viewportHeightPx;
}

/** Projected diameter in pixels → area fraction. @category Metrics */
export function pixelsToArea(pixels: number, aspect: number, viewportHeightPx: number): number {
  return heightToArea(pixelsToHeight(pixels, viewportHeightPx), aspect);
}
