/** The base64 decoder of the generated WebAssembly modules, against Node's own (Buffer). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/batch/wasm/wasmBytes.js';
import { FUSED_KERNEL_WASM } from '../../src/batch/wasm/fusedKernel.generated.js';

describe('decodeBase64', () => {
  it('gives the bytes Buffer encoded, for any bytes (every padding)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const text = Buffer.from(bytes).toString('base64');
      expect(Array.from(decodeBase64(text))).toEqual(Array.from(bytes));
    }));
  });

  it('hand-worked: "TWFu" is "Man", "TWE=" is "Ma", "TQ==" is "M", "" is empty', () => {
    expect(Array.from(decodeBase64('TWFu'))).toEqual([77, 97, 110]);
    expect(Array.from(decodeBase64('TWE='))).toEqual([77, 97]);
    expect(Array.from(decodeBase64('TQ=='))).toEqual([77]);
    expect(decodeBase64('').length).toBe(0);
  });

  it('refuses what is not base64, naming the place', () => {
    expect(() => decodeBase64('TWF')).toThrow(/multiple of 4/);
    expect(() => decodeBase64('TW-u')).toThrow(/character 2 \("-"\)/);
    expect(() => decodeBase64('TWé=')).toThrow(/character 2/);
  });

  it('the generated fused kernel decodes to a WebAssembly module (magic number, version 1)', () => {
    expect(Array.from(FUSED_KERNEL_WASM.subarray(0, 8))).toEqual([0, 97, 115, 109, 1, 0, 0, 0]);
  });
});
