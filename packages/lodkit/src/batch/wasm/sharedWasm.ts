/**
 * Shared-memory variants of the embedded WebAssembly kernels, for worker-thread mode: the same
 * module bytes with the memory's limits rewritten to `shared` with a maximum, so the kernel
 * instance's memory is a `SharedArrayBuffer` the workers can see. The calling thread then keeps the
 * fused kernel for the chunks it claims (and for the single-thread frames of the adaptive choice)
 * while the workers run the JavaScript kernels on the very same slot arrays.
 *
 * Contributor notes:
 * - Only the limits of the memory definition (section 5) or of a memory import (section 2) change;
 *   the code is untouched, so the variant computes exactly what the embedded module computes. The
 *   WebAssembly binary format: sections are `id, size (LEB128), payload`; limits are a flag byte
 *   (0: min, 1: min and max, 3: shared with min and max) followed by LEB128 page counts.
 * - Shared memories need a declared maximum; {@link SHARED_MAX_PAGES} (4 GiB) only reserves
 *   address space. Growing a shared memory never detaches its buffer: the owner re-creates its
 *   views and restarts the workers, as for every re-allocation in worker-thread mode.
 * - Returns null on any surprise (an unexpected layout, or an engine without shared memories);
 *   worker-thread mode then runs the JavaScript kernels on every thread, as before.
 *
 * @module
 */

/** Maximum pages of a shared kernel memory (65,536 × 64 KiB = 4 GiB of address space). */
export const SHARED_MAX_PAGES = 65536;

function readLeb(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0, shift = 0, b: number;
  do {
    b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [value, at];
}

function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let b = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) b |= 0x80;
    out.push(b);
  } while (value !== 0);
  return out;
}

/** Shared limits (flag 3) with the same minimum and `SHARED_MAX_PAGES` as maximum; returns [bytes, end of the old limits]. */
function sharedLimits(bytes: Uint8Array, at: number): [number[], number] {
  const flag = bytes[at];
  if (flag !== 0 && flag !== 1) throw new Error('unexpected memory limits');
  const [min, next] = readLeb(bytes, at + 1);
  const end = flag === 1 ? readLeb(bytes, next)[1] : next;
  return [[3, ...leb(min), ...leb(SHARED_MAX_PAGES)], end];
}

function skipName(bytes: Uint8Array, at: number): number {
  const [n, next] = readLeb(bytes, at);
  return next + n;
}

/** The payload of a memory section (5) or import section (2) with every memory's limits made shared. */
function patchSection(id: number, bytes: Uint8Array, from: number, to: number): number[] {
  const out: number[] = [];
  let [count, at] = readLeb(bytes, from);
  out.push(...leb(count));
  for (let k = 0; k < count; k++) {
    if (id === 2) {
      const start = at;
      at = skipName(bytes, skipName(bytes, at));
      const kind = bytes[at++];
      for (let i = start; i < at; i++) out.push(bytes[i]);
      if (kind === 2) {
        const [limits, end] = sharedLimits(bytes, at);
        out.push(...limits);
        at = end;
        continue;
      }
      const descStart = at;
      if (kind === 0) at = readLeb(bytes, at)[1];
      else if (kind === 1) { at++; const flag = bytes[at]; at = readLeb(bytes, at + 1)[1]; if (flag & 1) at = readLeb(bytes, at)[1]; }
      else if (kind === 3) at += 2;
      else throw new Error('unexpected import kind');
      for (let i = descStart; i < at; i++) out.push(bytes[i]);
    } else {
      const [limits, end] = sharedLimits(bytes, at);
      out.push(...limits);
      at = end;
    }
  }
  if (at !== to) throw new Error('unexpected section layout');
  return out;
}

/**
 * The module bytes with the memory (defined or imported) made shared, maximum
 * {@link SHARED_MAX_PAGES}; null when the layout is not the expected one.
 */
export function sharedMemoryVariant(bytes: Uint8Array): Uint8Array<ArrayBuffer> | null {
  try {
    if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) return null;
    const out: number[] = Array.from(bytes.subarray(0, 8));
    let at = 8, patched = 0;
    while (at < bytes.length) {
      const id = bytes[at];
      const [size, payload] = readLeb(bytes, at + 1);
      const end = payload + size;
      if (id === 5 || id === 2) {
        const body = patchSection(id, bytes, payload, end);
        out.push(id, ...leb(body.length), ...body);
        patched++;
      } else {
        for (let i = at; i < end; i++) out.push(bytes[i]);
      }
      at = end;
    }
    return patched > 0 ? new Uint8Array(out) : null;
  } catch {
    return null;
  }
}
