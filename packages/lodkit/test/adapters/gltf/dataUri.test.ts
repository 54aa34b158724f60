/**
 * The strict data: URI decoder (src/adapters/gltf/dataUri.ts). Expected bytes are written out by
 * hand or come from Node's own base64 codec (`Buffer`), which is correct on valid input; the
 * properties check that whatever the decoder accepts, Node's lenient decoder reads identically, so
 * no reader can size or decode an accepted URI differently.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DataUriError, decodeDataUri, isDataUri } from '../../../src/adapters/gltf/dataUri.js';

const bytesOf = (uri: string): number[] => Array.from(decodeDataUri(uri).bytes);

/** The error message decodeDataUri gives for `uri` (fails the test when it accepts). */
function refusal(uri: string): string {
  try {
    decodeDataUri(uri);
  } catch (error) {
    expect(error).toBeInstanceOf(DataUriError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${uri}`);
}

describe('decodeDataUri: valid URIs', () => {
  it('decodes base64 with and without padding, with any media type and parameters', () => {
    expect(bytesOf('data:application/octet-stream;base64,AAEC')).toEqual([0, 1, 2]);
    expect(bytesOf('data:application/gltf-buffer;base64,/w==')).toEqual([255]);
    expect(bytesOf('data:;base64,AP8=')).toEqual([0, 255]);
    expect(bytesOf('data:image/png;charset=x;base64,iVBORw0KGgo=')).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytesOf('DATA:Application/Octet-Stream;BASE64,+/+/')).toEqual([0xfb, 0xff, 0xbf]);
    expect(bytesOf('data:application/octet-stream;base64,')).toEqual([]);
  });

  it('reports media type, parameters and the flag', () => {
    const d = decodeDataUri('data:Image/PNG;Name=tree.png;base64,AAAA');
    expect(d).toMatchObject({ mediaType: 'image/png', parameters: [['name', 'tree.png']], base64: true });
    expect(decodeDataUri('data:,x')).toMatchObject({ mediaType: '', parameters: [], base64: false });
  });

  it('decodes percent-encoded text payloads byte by byte', () => {
    expect(bytesOf('data:,A%20B')).toEqual([65, 32, 66]);
    expect(bytesOf('data:text/plain;charset=utf-8,%C3%A9%00%ff')).toEqual([0xc3, 0xa9, 0, 0xff]);
    expect(bytesOf("data:,a-_.!~*'();/?:@&=+$,")).toEqual(Array.from(Buffer.from("a-_.!~*'();/?:@&=+$,", 'latin1')));
    expect(bytesOf('data:,')).toEqual([]);
  });

  it('returns bytes that own their whole ArrayBuffer (never a slice of Node\'s Buffer pool)', () => {
    for (const uri of ['data:;base64,AAEC', 'data:,abc', 'data:;base64,']) {
      const { bytes } = decodeDataUri(uri);
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
      expect(Buffer.isBuffer(bytes)).toBe(false);
    }
  });

  it('round-trips any bytes encoded by Node (property)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
      const uri = `data:application/octet-stream;base64,${Buffer.from(data).toString('base64')}`;
      const { bytes } = decodeDataUri(uri);
      expect(bytes).toEqual(new Uint8Array(data));
      expect(bytes.buffer.byteLength).toBe(data.length);
    }));
  });

  it('whatever it accepts, Node\'s lenient decoder reads the same bytes (property)', () => {
    const payload = fc.array(fc.constantFrom('A', 'Q', 'z', '9', '+', '/', '=', '%', '-', '_', ' ', '\n', '!', 'é'), { maxLength: 24 }).map((c) => c.join(''));
    let accepted = 0;
    fc.assert(fc.property(payload, (p) => {
      let bytes: Uint8Array;
      try { bytes = decodeDataUri(`data:;base64,${p}`).bytes; } catch (error) { expect(error).toBeInstanceOf(DataUriError); return; }
      accepted++;
      expect(p.length % 4).toBe(0);
      expect(Array.from(bytes)).toEqual(Array.from(Buffer.from(p, 'base64')));
    }), { numRuns: 2000 });
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('decodeDataUri: refusals name what and where (characters counted from 1 at "d")', () => {
  it('padding in the middle: the 2-of-3004 bytes case of the issue', () => {
    const uri = `data:application/octet-stream;base64,AAA=${'QUJD'.repeat(1000)}`;
    // 'data:application/octet-stream;base64,' is 37 characters; the '=' is the 41st.
    expect(refusal(uri)).toBe('base64 padding before the end (at character 41)');
    expect(refusal('data:;base64,AA==AAAA')).toBe('base64 padding before the end (at character 16)');
    expect(refusal('data:;base64,AA=A')).toBe('base64 padding before the end (at character 16)');
    expect(refusal('data:;base64,A===')).toBe('base64 padding before the end (at character 15)');
  });

  it('characters outside the base64 alphabet, including whitespace, escapes and base64url', () => {
    expect(refusal('data:;base64,AA AA')).toBe('U+0020 is not a base64 character (at character 16)');
    expect(refusal('data:;base64,AAAA\n')).toBe('U+000A is not a base64 character (at character 18)');
    expect(refusal('data:;base64,AA*A')).toBe('"*" is not a base64 character (at character 16)');
    expect(refusal('data:;base64,A-_A')).toBe('"-" is not a base64 character (at character 15)');
    expect(refusal('data:;base64,%41AA')).toBe('"%" is not a base64 character (at character 14) (percent-escapes are not allowed in base64 data)');
    expect(refusal('data:;base64,AAé=')).toBe('U+00E9 is not a base64 character (at character 16)');
  });

  it('a length that is not a multiple of 4', () => {
    expect(refusal('data:;base64,AAAAA')).toBe('base64 data has 5 characters, not a multiple of 4 (truncated, or padding missing)');
    expect(refusal('data:;base64,AAA')).toBe('base64 data has 3 characters, not a multiple of 4 (truncated, or padding missing)');
  });

  it('";name=base64," is refused as ambiguous (a parameter to RFC 2397, base64 to glTF-Transform)', () => {
    const message = refusal('data:application/octet-stream;name=base64,AAAA');
    expect(message).toMatch(/^parameter "name=base64" is ambiguous: under RFC 2397 it is a parameter, not the ;base64 flag/);
    expect(message).toMatch(/\(at character 31\)$/);
    expect(refusal('data:;base64=yes,AAAA')).toMatch(/^parameter "base64=yes" is ambiguous/);
    expect(refusal('data:;x=BASE64,AAAA')).toMatch(/^parameter "x=BASE64" is ambiguous/);
  });

  it('";base64" anywhere but last, and parameters that are not attribute=value tokens', () => {
    expect(refusal('data:;base64;x=y,AAAA')).toBe('";base64" must be the last parameter, just before the comma (at character 7)');
    expect(refusal('data:;base64;base64,AAAA')).toBe('";base64" must be the last parameter, just before the comma (at character 7)');
    expect(refusal('data:text/plain;charset,abc')).toBe('parameter "charset" is not <attribute>=<value> of RFC 2045 token characters (at character 17)');
    expect(refusal('data:text/plain;a=b c,abc')).toBe('parameter "a=b c" is not <attribute>=<value> of RFC 2045 token characters (at character 17)');
    expect(refusal('data:;=x,abc')).toBe('parameter "=x" is not <attribute>=<value> of RFC 2045 token characters (at character 7)');
  });

  it('malformed media types and a missing comma', () => {
    expect(refusal('data:image,abc')).toBe('media type "image" is not <type>/<subtype> of RFC 2045 token characters (at character 6)');
    expect(refusal('data:image/,abc')).toMatch(/^media type "image\/" is not/);
    expect(refusal('data: image/png,abc')).toMatch(/^media type " image\/png" is not/);
    expect(refusal('data:application/octet-stream;base64')).toBe('data: URI has no comma (expected data:[<media type>][;base64],<data>)');
    expect(refusal('http://x/data:,a')).toBe('not a data: URI');
  });

  it('percent-encoding errors in text payloads', () => {
    expect(refusal('data:,ab%zz')).toBe('percent-escape "%zz" is not % followed by two hex digits (at character 9)');
    expect(refusal('data:,ab%4g')).toBe('percent-escape "%4g" is not % followed by two hex digits (at character 9)');
    expect(refusal('data:,ab%4')).toBe('percent-escape "%4" is cut off by the end of the URI (at character 9)');
    expect(refusal('data:,ab%')).toBe('percent-escape "%" is cut off by the end of the URI (at character 9)');
  });

  it('characters that must be percent-encoded in text payloads', () => {
    expect(refusal('data:,a b')).toBe('U+0020 must be percent-encoded in a data: URI (at character 8)');
    expect(refusal('data:,a#b')).toBe('"#" must be percent-encoded in a data: URI (at character 8)');
    expect(refusal('data:,é')).toBe('U+00E9 must be percent-encoded in a data: URI (at character 7)');
    expect(refusal('data:,"')).toBe('""" must be percent-encoded in a data: URI (at character 7)');
  });

  it('a decoded length over maxBytes, before allocating', () => {
    expect(() => decodeDataUri('data:;base64,AAAAAAAA', { maxBytes: 5 })).toThrow('the data: URI decodes to 6 bytes, more than the 5 allowed');
    expect(() => decodeDataUri('data:;base64,AAAAAAAA', { maxBytes: 5 })).toThrow(expect.objectContaining({ reason: 'too-large' }));
    expect(() => decodeDataUri('data:;base64,%41AA')).toThrow(expect.objectContaining({ reason: 'syntax' }));
    expect(decodeDataUri('data:;base64,AAAAAAAA', { maxBytes: 6 }).bytes.byteLength).toBe(6);
  });
});

describe('isDataUri', () => {
  it('matches the scheme case-insensitively, at the start only', () => {
    expect(isDataUri('data:,x')).toBe(true);
    expect(isDataUri('DaTa:,x')).toBe(true);
    expect(isDataUri('dir/data:,x')).toBe(false);
    expect(isDataUri('data')).toBe(false);
  });
});
