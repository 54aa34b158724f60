/**
 * `lodkit gltf lod --preview FILE.html`: a self-contained page (no script, no network; a
 * Content-Security-Policy forbids both) showing each generated chain's levels side by side as
 * inline SVG drawings projected from the mesh positions, with their triangle counts, errors and the
 * on-screen sizes at which they are drawn. Pure string building: no browser is needed to write it.
 *
 * Contributor notes:
 * - The view is fixed and orthographic (turned 35° about the vertical, then tilted 25° down), so
 *   levels compare like for like; triangles facing away are dropped, the rest are drawn back to
 *   front (painter's order) with a flat shade from a fixed light. Positions are mesh space, centred
 *   on the chain's bounding sphere and scaled by its radius.
 * - Every string that comes from the file (node names) goes through {@link escapeHtml}.
 * - A level over {@link PREVIEW_MAX_TRIANGLES} triangles is listed without a drawing: the page
 *   must stay small enough to open (a drawn triangle costs about 50 bytes, 40 above 8,000 triangles,
 *   where coordinates are whole pixels and edges are not drawn; a closed mesh shows about half its
 *   triangles, a height field nearly all: the 128² terrain's four levels, 33,556 triangles, made a
 *   1.6 MB page).
 *
 * @module
 */
import type { GeneratedLodChain, LodCoverage } from 'lodkit/gltf';

/** Levels with more triangles than this are listed without a drawing. @category CLI */
export const PREVIEW_MAX_TRIANGLES = 60_000;
/** At most this many chains are drawn; the page says how many more there were. @category CLI */
export const PREVIEW_MAX_CHAINS = 40;

const SIZE = 220;

/** Escapes `& < > " '` for HTML text and attribute values. @category CLI */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The fixed view: yaw 35° about y, then pitch 25° about x. Returns [x, y, depth] (depth grows towards the viewer). */
function project(x: number, y: number, z: number): [number, number, number] {
  const yaw = (35 * Math.PI) / 180, pitch = (25 * Math.PI) / 180;
  const x1 = x * Math.cos(yaw) + z * Math.sin(yaw);
  const z1 = -x * Math.sin(yaw) + z * Math.cos(yaw);
  const y2 = y * Math.cos(pitch) - z1 * Math.sin(pitch);
  const z2 = y * Math.sin(pitch) + z1 * Math.cos(pitch);
  return [x1, y2, z2];
}

/** Triangles of a level's mesh as [ax, ay, az, bx, …] in mesh space (TRIANGLES primitives only). */
function levelTriangles(chain: GeneratedLodChain, level: number): Float64Array {
  const mesh = chain.levels[level].node.getMesh();
  const out: number[] = [];
  for (const primitive of mesh?.listPrimitives() ?? []) {
    if (primitive.getMode() !== 4) continue;
    const position = primitive.getAttribute('POSITION');
    if (!position) continue;
    const count = position.getCount();
    const indices = primitive.getIndices();
    const n = indices ? indices.getCount() : count;
    const v: number[] = [0, 0, 0];
    for (let k = 0; k + 2 < n; k += 3) {
      for (let c = 0; c < 3; c++) {
        const i = indices ? indices.getScalar(k + c) : k + c;
        position.getElement(i, v);
        out.push(v[0], v[1], v[2]);
      }
    }
  }
  return Float64Array.from(out);
}

/** An SVG drawing of one level, or null above {@link PREVIEW_MAX_TRIANGLES}. @internal */
export function levelSvg(chain: GeneratedLodChain, level: number): string | null {
  if (chain.levels[level].triangles > PREVIEW_MAX_TRIANGLES) return null;
  const t = levelTriangles(chain, level);
  const { center, radius } = chain.boundingSphere;
  const scale = radius > 0 ? (SIZE / 2 - 4) / radius : 1;
  const drawn: { depth: number; d: string; shade: number }[] = [];
  const wire = chain.levels[level].triangles <= 8_000;
  const round = wire ? (v: number): string => v.toFixed(1) : (v: number): string => String(Math.round(v));
  for (let k = 0; k + 8 < t.length; k += 9) {
    const p = [0, 1, 2].map((c) => project(t[k + 3 * c] - center[0], t[k + 3 * c + 1] - center[1], t[k + 3 * c + 2] - center[2]));
    const ux = p[1][0] - p[0][0], uy = p[1][1] - p[0][1], uz = p[1][2] - p[0][2];
    const vx = p[2][0] - p[0][0], vy = p[2][1] - p[0][1], vz = p[2][2] - p[0][2];
    const nz = ux * vy - uy * vx; // counter-clockwise on screen = facing the viewer (glTF's front faces)
    if (nz <= 0) continue;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
    const light = Math.max(0, (-0.4 * nx + 0.6 * ny + 0.7 * nz) / (length * Math.sqrt(0.4 * 0.4 + 0.6 * 0.6 + 0.7 * 0.7)));
    // SVG's y points down: flip. Whole pixels above 8,000 triangles (drawn without edges): a third smaller.
    const pt = (q: [number, number, number]): string => `${round(SIZE / 2 + q[0] * scale)} ${round(SIZE / 2 - q[1] * scale)}`;
    drawn.push({ depth: (p[0][2] + p[1][2] + p[2][2]) / 3, d: `M${pt(p[0])}L${pt(p[1])}L${pt(p[2])}Z`, shade: Math.round(5 + 9 * light) });
  }
  drawn.sort((a, b) => a.depth - b.depth);
  const stroke = wire ? ' stroke="#234" stroke-width="0.35" stroke-linejoin="round"' : '';
  // 15 grey levels, bluish, as 3-digit colours: #559 … #eef.
  const paths = drawn.map((q) => `<path d="${q.d}" fill="#${q.shade.toString(16).repeat(2)}${Math.min(15, q.shade + 1).toString(16)}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img"><g${stroke}>${paths}</g></svg>`;
}

/** What the page needs besides the chains. @internal */
export interface PreviewOptions {
  coverage: LodCoverage;
  viewportHeight: number;
  maxErrorPx: number;
  title: string;
}

function sizeText(chain: GeneratedLodChain, level: number): string {
  const levels = chain.levels;
  const upper = level === 0 ? Infinity : levels[level].thresholdPx;
  const lowerValue = level + 1 < levels.length ? levels[level + 1].thresholdPx : 0;
  const cull = level + 1 === levels.length && chain.cullBelow > 0 ? ' (culled below)' : '';
  if (level === 0) return `drawn above ${lowerValue.toFixed(0)} px across`;
  return `drawn from ${upper.toFixed(0)} px down to ${lowerValue.toFixed(0)} px across${cull}`;
}

/**
 * The preview page for `chains` (see the module notes). Every name is escaped.
 * @category CLI
 */
export function previewHtml(chains: GeneratedLodChain[], options: PreviewOptions): string {
  const sections = chains.slice(0, PREVIEW_MAX_CHAINS).map((chain) => {
    const base = chain.levels[0].triangles;
    const figures = chain.levels.map((level, i) => {
      const svg = levelSvg(chain, i);
      const share = base > 0 ? ((100 * level.triangles) / base).toFixed(1) : '0';
      return `<figure>${svg ?? `<div class="none">${level.triangles} triangles: not drawn (over ${PREVIEW_MAX_TRIANGLES})</div>`}`
        + `<figcaption><b>level ${i}</b><br>${level.triangles} triangles (${share} %)<br>error ${i === 0 ? '0' : escapeHtml(level.error.toPrecision(3))}`
        + `<br>${sizeText(chain, i)}</figcaption></figure>`;
    }).join('');
    return `<section><h2>${escapeHtml(chain.name)}</h2><p>bounding radius ${escapeHtml(chain.boundingSphere.radius.toPrecision(4))}${chain.stoppedEarly ? ` · note: ${escapeHtml(chain.stoppedEarly)}` : ''}</p><div class="row">${figures}</div></section>`;
  }).join('\n');
  const more = chains.length > PREVIEW_MAX_CHAINS ? `<p>… and ${chains.length - PREVIEW_MAX_CHAINS} more chains, not shown.</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(options.title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:1.5em;color:#111}.row{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0;border:1px solid #ccd;padding:.5em;background:#f7f8fb}figcaption{font-size:12px;line-height:1.4}.none{width:${SIZE}px;height:${SIZE}px;display:flex;align-items:center;text-align:center}</style>
</head><body>
<h1>${escapeHtml(options.title)}</h1>
<p>Each level drawn from the same fixed orthographic view. Sizes are the object's bounding-sphere diameter in pixels on a ${options.viewportHeight}-px-tall viewport; a level is drawn only while its error (in the model's units: the larger of meshoptimizer's estimate and the measured deviation from level 0) covers at most ${options.maxErrorPx} px, for an object on the view axis (off the axis perspective draws it larger: see docs/gltf.md). Coverage written: ${options.coverage}.</p>
${sections}
${more}
</body></html>
`;
}
