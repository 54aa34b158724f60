/**
 * Reading glTF files from other people safely, part 3: the JSON checks that bound the WORK a file
 * can cause, not only its counts, and the references glTF-Transform would otherwise follow blindly.
 * Called from `source.ts` (`parseGltfBytes` scans the text, `checkGltfStructure` the parsed JSON).
 * Every error is a {@link GltfReadError} naming the field.
 *
 * Contributor notes:
 * - Why work limits: a 4 MB file of a million `{}` nodes became 2.4 GB of glTF-Transform objects
 *   (about 2.5 KB per node, channel, sampler or accessor, measured), two million animation channels
 *   3 GB. Counting entries of each list is not enough; {@link checkObjectCount} counts every
 *   object glTF-Transform will create, nested lists (primitives, channels, …) included.
 * - The JSON text is scanned BEFORE `JSON.parse` ({@link scanJsonText}): nesting depth and the
 *   number of members and elements, without recursion, so neither a 10⁵-deep array (which later
 *   overflows the stack in recursive code such as `JSON.stringify`) nor a gigabyte of `0,` (which
 *   `JSON.parse` would turn into gigabytes of heap) gets parsed. A `{json, resources}` source is
 *   walked iteratively after the fact ({@link checkJsonTree}).
 * - Lookups by a name from the file use `Map`s or `Object.hasOwn`, never `obj[name]` or `in` on a
 *   plain object: `"constructor"`, `"toString"` or `"__proto__"` as an accessor type or attribute
 *   name would find `Object.prototype` members and slip past a check.
 *
 * @module
 */
import { GltfReadError, describe, ref, type GltfJson, type GltfReadLimits } from './readLimits.js';

type Obj = Record<string, unknown>;

/** Component byte sizes by glTF `componentType` (a Map: no prototype keys). @internal */
export const COMPONENT_BYTES: ReadonlyMap<unknown, number> = new Map([[5120, 1], [5121, 1], [5122, 2], [5123, 2], [5125, 4], [5126, 4]]);
/** Component types allowed for indices (unsigned integers). @internal */
export const INDEX_BYTES: ReadonlyMap<unknown, number> = new Map([[5121, 1], [5123, 2], [5125, 4]]);
/** Components per element by accessor `type`. @internal */
export const TYPE_COMPONENTS: ReadonlyMap<unknown, number> = new Map([['SCALAR', 1], ['VEC2', 2], ['VEC3', 3], ['VEC4', 4], ['MAT2', 4], ['MAT3', 9], ['MAT4', 16]]);

/** Shortens a path for a message: a 10⁵-deep one would otherwise be the message. */
function shortPath(parts: string[]): string {
  const text = parts.length > 12 ? `${parts.slice(0, 10).join('')}…(${parts.length - 10} more levels)` : parts.join('');
  return text.startsWith('.') ? text.slice(1) : text || '(root)';
}

/**
 * Scans JSON text for nesting depth and the number of object members and array elements, before
 * `JSON.parse`; throws naming the path where a limit is crossed. Strings are skipped (brackets in
 * them do not count). Malformed JSON is left to `JSON.parse` to report.
 * @internal
 */
export function scanJsonText(text: string, where: string, limits: Pick<GltfReadLimits, 'jsonDepth' | 'jsonEntries'>): void {
  // One frame per open container: its kind, element count (arrays) or last key (objects).
  const kinds: number[] = [];
  const counts: number[] = [];
  const keys: string[] = [];
  let entries = 0;
  let fresh = false; // just after '[' or '{': the next token decides whether the container is empty
  let expectKey = false;
  const path = (): string => shortPath(kinds.map((k, d) => (k === 0x5b ? `[${Math.max(0, counts[d] - 1)}]` : `.${keys[d]}`)));
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    const depth = kinds.length;
    if (fresh || c === 0x2c) {
      // A new member or element starts (the first of a container, or after a comma).
      if (!(fresh && (c === 0x5d || c === 0x7d))) {
        if (depth > 0 && kinds[depth - 1] === 0x5b) counts[depth - 1]++;
        if (++entries > limits.jsonEntries) {
          throw new GltfReadError(`${where} has more than ${limits.jsonEntries} JSON members and elements (the limit; reached at ${path()})`);
        }
      }
      fresh = false;
      if (c === 0x2c) { expectKey = depth > 0 && kinds[depth - 1] === 0x7b; continue; }
    }
    if (c === 0x22) {
      const start = i + 1;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      if (expectKey) { keys[depth - 1] = text.slice(start, Math.min(i, start + 60)); expectKey = false; }
    } else if (c === 0x5b || c === 0x7b) {
      if (depth >= limits.jsonDepth) throw new GltfReadError(`${where} nests deeper than ${limits.jsonDepth} levels (the limit) at ${path()}`);
      kinds.push(c); counts.push(0); keys.push('');
      fresh = true;
      expectKey = c === 0x7b;
    } else if (c === 0x5d || c === 0x7d) {
      kinds.pop(); counts.pop(); keys.pop();
    }
  }
}

/**
 * Walks a parsed JSON tree without recursion: depth and member/element count against the limits
 * (for sources that arrive already parsed), and every `name` string against `nameLength`.
 * @internal
 */
export function checkJsonTree(json: GltfJson, limits: Pick<GltfReadLimits, 'jsonDepth' | 'jsonEntries' | 'nameLength'>): void {
  interface Frame { value: Obj | unknown[]; keys: string[] | null; next: number; label: string; parent: Frame | null }
  const pathOf = (frame: Frame | null, last: string): string => {
    const parts = [last];
    for (let f = frame; f !== null && f.parent !== null; f = f.parent) parts.push(f.label);
    return shortPath(parts.reverse());
  };
  if (limits.jsonDepth < 1) throw new GltfReadError(`the glTF JSON nests deeper than ${limits.jsonDepth} levels (the limit) at (root)`);
  const stack: Frame[] = [{ value: json, keys: Object.keys(json), next: 0, label: '', parent: null }];
  let entries = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const length = frame.keys ? frame.keys.length : (frame.value as unknown[]).length;
    if (frame.next >= length) { stack.pop(); continue; }
    const k = frame.next++;
    const key = frame.keys ? frame.keys[k] : '';
    const label = frame.keys ? `.${key}` : `[${k}]`;
    const child = frame.keys ? (frame.value as Obj)[key] : (frame.value as unknown[])[k];
    if (++entries > limits.jsonEntries) throw new GltfReadError(`the glTF JSON has more than ${limits.jsonEntries} members and elements (the limit; reached at ${pathOf(frame, label)})`);
    if (key === 'name' && typeof child === 'string' && child.length > limits.nameLength) {
      throw new GltfReadError(`${pathOf(frame, label)} is ${child.length} characters long, more than the limit of ${limits.nameLength}`);
    }
    if (child === null || typeof child !== 'object') continue;
    if (stack.length >= limits.jsonDepth) throw new GltfReadError(`the glTF JSON nests deeper than ${limits.jsonDepth} levels (the limit) at ${pathOf(frame, label)}`);
    stack.push({ value: child as Obj, keys: Array.isArray(child) ? null : Object.keys(child), next: 0, label, parent: frame });
  }
}

/** The list under `key` of `owner`, or [] (shape errors of nested lists are reported by the checks that read them). */
function nested(owner: unknown, key: string): unknown[] {
  const value = owner !== null && typeof owner === 'object' ? (owner as Obj)[key] : undefined;
  return Array.isArray(value) ? value : [];
}

/** The top-level lists whose entries are glTF objects with an optional `name` string. */
const NAMED_LISTS = ['accessors', 'animations', 'buffers', 'bufferViews', 'cameras', 'images', 'materials', 'meshes', 'nodes', 'samplers', 'scenes', 'skins', 'textures'];

/**
 * The fields every reader of the file takes for strings: `extensionsUsed` / `extensionsRequired`
 * are lists of strings, and each top-level object's `name` is a string (a number there reached
 * `name.trim()` and `padEnd` in the CLI as a TypeError). Names inside `extras` are user data and
 * not checked. The top-level lists themselves are checked by the caller.
 * @internal
 */
export function checkStringFields(json: GltfJson): void {
  for (const key of ['extensionsUsed', 'extensionsRequired']) {
    const value = json[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw new GltfReadError(`${key} must be a list of extension names, got ${describe(value)}`);
    const bad = value.findIndex((v) => typeof v !== 'string');
    if (bad >= 0) throw new GltfReadError(`${key}[${bad}] must be an extension name (a string), got ${describe(value[bad])}`);
  }
  for (const key of NAMED_LISTS) {
    const list = json[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const entry = list[i] as unknown;
      if (entry === null || typeof entry !== 'object' || !Object.hasOwn(entry, 'name')) continue;
      const name = (entry as Obj).name;
      if (typeof name !== 'string') throw new GltfReadError(`${key}[${i}].name must be a string, got ${describe(name)}`);
    }
  }
}

/**
 * Counts every object glTF-Transform creates for the file (each costs kilobytes there) against
 * `limits.objects`; the error names the largest list.
 * @internal
 */
export function checkObjectCount(json: GltfJson, limits: Pick<GltfReadLimits, 'objects'>): void {
  // Running total and largest list only (no entry per primitive: there may be millions).
  let total = 0;
  let largest = { field: '', n: -1 };
  const add = (n: number, field: () => string): void => {
    total += n;
    if (n > largest.n) largest = { field: field(), n };
  };
  for (const key of ['accessors', 'animations', 'buffers', 'cameras', 'images', 'materials', 'meshes', 'nodes', 'samplers', 'scenes', 'skins', 'textures']) {
    add(nested(json, key).length, () => key);
  }
  nested(json, 'meshes').forEach((mesh, m) => {
    const primitives = nested(mesh, 'primitives');
    add(primitives.length, () => `meshes[${m}].primitives`);
    primitives.forEach((p, k) => add(nested(p, 'targets').length, () => `meshes[${m}].primitives[${k}].targets`));
  });
  nested(json, 'animations').forEach((a, i) => {
    add(nested(a, 'channels').length, () => `animations[${i}].channels`);
    add(nested(a, 'samplers').length, () => `animations[${i}].samplers`);
  });
  if (total > limits.objects) {
    throw new GltfReadError(`${largest.field} has ${largest.n} entries; with the rest the file makes ${total} glTF objects (nodes, meshes, primitives, accessors, animation channels, …), more than the limit of ${limits.objects}`);
  }
}

/**
 * The accessor's `componentType` and `type`, checked against own-key whitelists. Returns the bytes
 * per component and components per element.
 * @internal
 */
export function accessorLayout(a: Obj, field: string): { componentBytes: number; components: number } {
  const componentBytes = COMPONENT_BYTES.get(a.componentType);
  if (componentBytes === undefined) throw new GltfReadError(`${field}.componentType = ${describe(a.componentType)} is not a glTF component type (5120, 5121, 5122, 5123, 5125, 5126)`);
  const components = TYPE_COMPONENTS.get(a.type);
  if (components === undefined) throw new GltfReadError(`${field}.type = ${describe(a.type)} is not a glTF accessor type (SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3, MAT4)`);
  return { componentBytes, components };
}

const STANDARD_ATTRIBUTE = /^(POSITION|NORMAL|TANGENT|(TEXCOORD|COLOR|JOINTS|WEIGHTS)_(0|[1-9][0-9]{0,2}))$/;
/** Application-specific attributes start with `_` (glTF 2.0 §3.7.2.1); prototype keys are refused. */
const CUSTOM_ATTRIBUTE = /^_[A-Za-z0-9_]{1,63}$/;

/**
 * A vertex attribute name: a glTF semantic or an application-specific `_NAME`, and never a key of
 * `Object.prototype` (`__proto__`), which glTF-Transform's attribute maps would misread.
 * @internal
 */
export function checkAttributeName(name: string, field: string): void {
  if ((STANDARD_ATTRIBUTE.test(name) || CUSTOM_ATTRIBUTE.test(name)) && !Object.hasOwn(Object.prototype, name)) return;
  throw new GltfReadError(`${field}: ${describe(name)} is not a glTF attribute name (POSITION, NORMAL, TANGENT, TEXCOORD_n, COLOR_n, JOINTS_n, WEIGHTS_n, or _APPLICATION_SPECIFIC)`);
}

/** Fewest elements, and the multiple they must come in, per primitive `mode` (POINTS … TRIANGLE_FAN). */
const MODE_COUNTS: readonly { name: string; min: number; multiple: number }[] = [
  { name: 'POINTS', min: 1, multiple: 1 },
  { name: 'LINES', min: 2, multiple: 2 },
  { name: 'LINE_LOOP', min: 2, multiple: 1 },
  { name: 'LINE_STRIP', min: 2, multiple: 1 },
  { name: 'TRIANGLES', min: 3, multiple: 3 },
  { name: 'TRIANGLE_STRIP', min: 3, multiple: 1 },
  { name: 'TRIANGLE_FAN', min: 3, multiple: 1 },
];

/**
 * One mesh primitive against the accessors (already checked): attribute names, every attribute and
 * morph target the same count as POSITION, POSITION a VEC3, indices unsigned SCALARs, and the
 * number of vertices drawn consistent with `mode` (a multiple of 3 for TRIANGLES, ≥ 3 for strips
 * and fans, …). Returns the vertex count (POSITION's, else the first attribute's; 0 without
 * attributes) and the number of elements drawn (index count, else vertex count).
 * @internal
 */
export function checkPrimitive(p: Obj, field: string, accessors: Obj[]): { vertices: number; drawn: number } {
  const attributes = p.attributes as Obj;
  const names = Object.keys(attributes);
  let vertices = -1;
  let first = '';
  for (const name of names.includes('POSITION') ? ['POSITION', ...names.filter((n) => n !== 'POSITION')] : names) {
    checkAttributeName(name, `${field}.attributes`);
    const index = ref(attributes[name], `${field}.attributes.${name}`, accessors.length, 'accessors', false)!;
    const n = accessors[index].count as number;
    if (vertices < 0) { vertices = n; first = name; } else if (n !== vertices) {
      throw new GltfReadError(`${field}.attributes.${name} (accessors[${index}]) has ${n} elements, ${first} has ${vertices}; every attribute of a primitive has one element per vertex`);
    }
  }
  if (Object.hasOwn(attributes, 'POSITION')) {
    const position = accessors[attributes.POSITION as number];
    if (position.type !== 'VEC3') throw new GltfReadError(`${field}.attributes.POSITION (accessors[${attributes.POSITION as number}]) has type ${describe(position.type)}, must be VEC3`);
  }
  if (p.targets !== undefined) {
    if (!Array.isArray(p.targets)) throw new GltfReadError(`${field}.targets must be a list, got ${describe(p.targets)}`);
    p.targets.forEach((t: unknown, ti) => {
      if (t === null || typeof t !== 'object' || Array.isArray(t)) throw new GltfReadError(`${field}.targets[${ti}] must be an object, got ${describe(t)}`);
      for (const [name, index] of Object.entries(t)) {
        checkAttributeName(name, `${field}.targets[${ti}]`);
        const a = ref(index, `${field}.targets[${ti}].${name}`, accessors.length, 'accessors', false)!;
        if (vertices >= 0 && accessors[a].count !== vertices) {
          throw new GltfReadError(`${field}.targets[${ti}].${name} (accessors[${a}]) has ${accessors[a].count as number} elements, the primitive has ${vertices} vertices`);
        }
      }
    });
  }
  const mode = p.mode ?? 4;
  const rule = typeof mode === 'number' && Number.isInteger(mode) ? MODE_COUNTS[mode] : undefined;
  if (rule === undefined) throw new GltfReadError(`${field}.mode = ${describe(p.mode)} is not a glTF primitive mode (0–6)`);
  let drawn = Math.max(0, vertices);
  let what = `${first} count`;
  const indices = ref(p.indices, `${field}.indices`, accessors.length, 'accessors');
  if (indices !== undefined) {
    const a = accessors[indices];
    if (a.type !== 'SCALAR' || !INDEX_BYTES.has(a.componentType)) {
      throw new GltfReadError(`${field}.indices (accessors[${indices}]) is ${describe(a.type)} of componentType ${describe(a.componentType)}; indices are SCALAR unsigned integers (5121, 5123, 5125)`);
    }
    if (vertices < 0) throw new GltfReadError(`${field} has indices but no attributes to index`);
    drawn = a.count as number;
    what = `index count (accessors[${indices}])`;
  }
  if (vertices >= 0 && (drawn < rule.min || drawn % rule.multiple !== 0)) {
    throw new GltfReadError(`${field}: ${what} ${drawn} does not fit mode ${rule.name} (${rule.multiple > 1 ? `a multiple of ${rule.multiple}, ` : ''}at least ${rule.min})`);
  }
  return { vertices: Math.max(0, vertices), drawn };
}
