/**
 * Strict `data:` URI decoding (RFC 2397, base64 per RFC 4648 §4): the ONE place that decides how
 * many bytes a `data:` URI holds, because it is the code that decodes it.
 *
 * Why this exists: lodkit once estimated a base64 payload's size from its length while Node's
 * decoder stopped at the first `=` (`AAA=QUJD…` was counted as thousands of bytes and decoded to
 * 2), and read `;name=base64,` as text while glTF-Transform decoded it as base64. The length checks
 * passed against the estimate, glTF-Transform's accessors then read past the few decoded bytes into
 * Node's shared 8 KB `Buffer` pool, and `lodkit gltf lod` wrote that memory into its output. Here the
 * size is what the decoding loop produces, the result owns its whole `ArrayBuffer` (never a slice
 * of the pool, so a read past its end finds nothing), and anything two readers could disagree about
 * is refused instead of guessed.
 *
 * Contributor notes:
 * - Syntax: `data:[<type>/<subtype>][;<attribute>=<value>]*[;base64],<data>`. Type, subtype,
 *   attribute and value are RFC 2045 tokens (no spaces, no percent-encoding); `;base64` is the flag
 *   only as the very last parameter. A parameter named or valued `base64` (`;name=base64,`) is
 *   refused: RFC 2397 makes it a parameter (text payload), and so do browsers (WHATWG fetch, with
 *   a flag rule of its own), while glTF-Transform's decoder takes any URI containing "base64" for
 *   base64.
 * - Base64 payloads: only `A–Z a–z 0–9 + /`, `=` only as the last one or two characters, length a
 *   multiple of 4. No whitespace, no percent-escapes, no base64url (`-`, `_`). Non-zero pad bits
 *   (`QR==` for `QQ==`) are accepted: they change neither the length nor any decoded byte's meaning.
 * - Text payloads (no `;base64`): RFC 2396 URI characters taken as bytes, `%XX` decoded to one
 *   byte; any other character (space, `#`, `"`, non-ASCII) must be percent-encoded and is refused.
 * - Positions in messages count characters of the whole URI from 1 (the `d` of `data:`).
 * - Errors are {@link DataUriError}s without a field name; callers prefix the glTF field
 *   (`buffers[0].uri: base64 padding before the end (at character 41)`).
 *
 * @module
 */

/**
 * A `data:` URI that is not strictly valid (`reason: 'syntax'`) or decodes to more than
 * `maxBytes` (`'too-large'`); the message says what and where, without the field. @internal
 */
export class DataUriError extends Error {
  readonly reason: 'syntax' | 'too-large';
  constructor(message: string, reason: 'syntax' | 'too-large' = 'syntax') {
    super(message);
    this.name = 'DataUriError';
    this.reason = reason;
  }
}

/** A decoded `data:` URI. @internal */
export interface DecodedDataUri {
  /** `type/subtype`, lower-cased; `''` when the URI names none. */
  mediaType: string;
  /** The `;attribute=value` parameters in order, attributes lower-cased. */
  parameters: [string, string][];
  /** Whether the payload was base64 (the `;base64` flag). */
  base64: boolean;
  /** The decoded bytes: exactly the decoded length, owning their whole `ArrayBuffer` (offset 0). */
  bytes: Uint8Array;
}

/** Options of {@link decodeDataUri}. @internal */
export interface DecodeDataUriOptions {
  /** Refuse (before allocating) a URI that decodes to more bytes than this. Default: no limit. */
  maxBytes?: number;
}

/** True for a URI with the `data:` scheme (schemes are case-insensitive). @internal */
export function isDataUri(uri: string): boolean {
  return /^data:/i.test(uri);
}

const PREFIX = 5; // 'data:'.length

/** Value of each base64 alphabet character by char code, -1 for every other code below 128. */
const BASE64 = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/** RFC 2045 token: printable ASCII except space and the tspecials `()<>@,;:\"/[]?=`. */
const TOKEN = /^[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+$/;

/** RFC 2396 `uric` minus `%` (escapes are handled separately): alphanumerics, marks, reserved. */
const URIC = (() => {
  const table = new Uint8Array(128);
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'();/?:@&=+$,";
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
})();

function hex(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** A character for a message: printable ASCII as itself, anything else as U+XXXX. */
function shown(uri: string, at: number): string {
  const code = uri.codePointAt(at)!;
  return code > 0x20 && code < 0x7f ? `"${String.fromCharCode(code)}"` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Where a message points: 1-based position in the whole URI. */
const at = (index: number): string => `(at character ${index + 1})`;

interface Header {
  mediaType: string;
  parameters: [string, string][];
  base64: boolean;
  /** Index of the first payload character (just after the comma). */
  start: number;
}

/** Parses `data:<mediatype>[;base64],` strictly. */
function parseHeader(uri: string): Header {
  if (!isDataUri(uri)) throw new DataUriError('not a data: URI');
  const comma = uri.indexOf(',', PREFIX);
  if (comma < 0) throw new DataUriError('data: URI has no comma (expected data:[<media type>][;base64],<data>)');
  const segments = uri.slice(PREFIX, comma).split(';');
  let offset = PREFIX;
  const mediaType = segments[0];
  if (mediaType !== '') {
    const slash = mediaType.indexOf('/');
    if (slash < 0 || !TOKEN.test(mediaType.slice(0, slash)) || !TOKEN.test(mediaType.slice(slash + 1))) {
      throw new DataUriError(`media type ${JSON.stringify(mediaType.slice(0, 60))} is not <type>/<subtype> of RFC 2045 token characters ${at(offset)}`);
    }
  }
  offset += mediaType.length + 1;
  const parameters: [string, string][] = [];
  let base64 = false;
  for (let k = 1; k < segments.length; k++) {
    const segment = segments[k];
    const last = k === segments.length - 1;
    if (segment.toLowerCase() === 'base64') {
      if (!last) throw new DataUriError(`";base64" must be the last parameter, just before the comma ${at(offset)}`);
      base64 = true;
    } else {
      const eq = segment.indexOf('=');
      const attribute = eq < 0 ? segment : segment.slice(0, eq);
      const value = eq < 0 ? '' : segment.slice(eq + 1);
      if (eq < 0 || !TOKEN.test(attribute) || !TOKEN.test(value)) {
        throw new DataUriError(`parameter ${JSON.stringify(segment.slice(0, 60))} is not <attribute>=<value> of RFC 2045 token characters ${at(offset)}`);
      }
      if (attribute.toLowerCase() === 'base64' || value.toLowerCase() === 'base64') {
        throw new DataUriError(`parameter ${JSON.stringify(segment)} is ambiguous: under RFC 2397 it is a parameter, not the ;base64 flag (the payload would be text), but glTF-Transform's own decoder reads it as base64; write ";base64," for base64 or drop the parameter ${at(offset)}`);
      }
      parameters.push([attribute.toLowerCase(), value]);
    }
    offset += segment.length + 1;
  }
  return { mediaType: mediaType.toLowerCase(), parameters, base64, start: comma + 1 };
}

/**
 * Validates a base64 payload and, when `out` is given, decodes it into `out`. Returns the decoded
 * byte count. Counting and decoding are the same loop, so the size can never disagree with the
 * bytes.
 */
function base64Payload(uri: string, start: number, out: Uint8Array | null): number {
  const end = uri.length;
  let written = 0;
  let bits = 0;
  let buffered = 0;
  for (let i = start; i < end; i++) {
    const code = uri.charCodeAt(i);
    if (code === 61) { // '='
      // Padding: the last character, or the last two.
      if (i === end - 1 || (i === end - 2 && uri.charCodeAt(end - 1) === 61)) break;
      throw new DataUriError(`base64 padding before the end ${at(i)}`);
    }
    const value = code < 128 ? BASE64[code] : -1;
    if (value < 0) throw new DataUriError(`${shown(uri, i)} is not a base64 character ${at(i)}${code === 37 ? ' (percent-escapes are not allowed in base64 data)' : ''}`);
    bits = (bits << 6) | value;
    buffered += 6;
    if (buffered >= 8) {
      buffered -= 8;
      if (out !== null) out[written] = (bits >> buffered) & 0xff;
      written++;
      bits &= (1 << buffered) - 1;
    }
  }
  const length = end - start;
  if (length % 4 !== 0) throw new DataUriError(`base64 data has ${length} characters, not a multiple of 4 (truncated, or padding missing)`);
  return written;
}

/** Validates a text payload and, when `out` is given, decodes it into `out`. Returns the byte count. */
function textPayload(uri: string, start: number, out: Uint8Array | null): number {
  const end = uri.length;
  let written = 0;
  for (let i = start; i < end; i++) {
    const code = uri.charCodeAt(i);
    let byte: number;
    if (code === 37) { // '%'
      if (i + 2 >= end) throw new DataUriError(`percent-escape ${JSON.stringify(uri.slice(i))} is cut off by the end of the URI ${at(i)}`);
      const high = hex(uri.charCodeAt(i + 1));
      const low = hex(uri.charCodeAt(i + 2));
      if (high < 0 || low < 0) throw new DataUriError(`percent-escape ${JSON.stringify(uri.slice(i, i + 3))} is not % followed by two hex digits ${at(i)}`);
      byte = (high << 4) | low;
      i += 2;
    } else if (code < 128 && URIC[code] === 1) {
      byte = code;
    } else {
      throw new DataUriError(`${shown(uri, i)} must be percent-encoded in a data: URI ${at(i)}`);
    }
    if (out !== null) out[written] = byte;
    written++;
  }
  return written;
}

/**
 * Decodes a `data:` URI strictly (see the module notes for the rules). The decoded length is
 * checked against `maxBytes` before the bytes are allocated; the bytes are a fresh array of exactly
 * that length. Throws {@link DataUriError} saying what is wrong and where.
 * @example
 * ```ts
 * decodeDataUri('data:application/octet-stream;base64,AAEC').bytes; // Uint8Array [0, 1, 2]
 * decodeDataUri('data:,A%20B').bytes;                               // Uint8Array [65, 32, 66]
 * decodeDataUri('data:;base64,AA==AAAA');                           // throws: base64 padding before the end (at character 16)
 * ```
 * @internal
 */
export function decodeDataUri(uri: string, options: DecodeDataUriOptions = {}): DecodedDataUri {
  const header = parseHeader(uri);
  const payload = header.base64 ? base64Payload : textPayload;
  const length = payload(uri, header.start, null);
  const maxBytes = options.maxBytes ?? Infinity;
  if (length > maxBytes) throw new DataUriError(`the data: URI decodes to ${length} bytes, more than the ${Math.max(0, maxBytes)} allowed`, 'too-large');
  const bytes = new Uint8Array(length);
  const written = payload(uri, header.start, bytes);
  if (written !== length) throw new Error(`decodeDataUri: decoded ${written} bytes after counting ${length} (a bug in lodkit)`);
  return { mediaType: header.mediaType, parameters: header.parameters, base64: header.base64, bytes };
}
