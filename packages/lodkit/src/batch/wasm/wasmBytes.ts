/**
 * The WebAssembly modules travel as base64 text in their generated modules: 4 characters per 3
 * bytes, where a literal array of numbers takes about 4 characters per byte — the fused kernel's
 * 10 kB are ≈ 14 kB of a minified bundle instead of ≈ 41 kB. Decoded once, when the generated
 * module is first imported.
 *
 * @module
 */

/** Value of each base64 character code (standard alphabet), −1 for any other. */
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) VALUES['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/** The bytes of `text`, standard base64 with `=` padding; a RangeError for anything else. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  let end = text.length;
  if (end % 4 !== 0) throw new RangeError(`decodeBase64: the length ${end} is not a multiple of 4`);
  while (end > 0 && text.charCodeAt(end - 1) === 61 && text.length - end < 2) end--; // '='
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let bits = 0, count = 0, o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i), v = c < 128 ? VALUES[c] : -1;
    if (v < 0) throw new RangeError(`decodeBase64: character ${i} (${JSON.stringify(text[i])}) is not base64`);
    bits = (bits << 6) | v; count += 6;
    if (count >= 8) { count -= 8; out[o++] = (bits >> count) & 255; }
  }
  return out;
}
