import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acosRoundedAt, sinCosRoundedAt } from '../../src/metrics/roundedTrig.js';

const out = new Float64Array(2);
const acos = (w: number) => { out[0] = w; acosRoundedAt(out, 0); return out[0]; };
const sinCos = (x: number) => { out[0] = x; sinCosRoundedAt(out, 0); return [out[0], out[1]]; };
/** Distance in ulps between two doubles of the same sign. */
function ulps(a: number, b: number): number {
  const v = new DataView(new ArrayBuffer(16));
  v.setFloat64(0, a); v.setFloat64(8, b);
  return Number(v.getBigInt64(0) - v.getBigInt64(8));
}

describe('correctly rounded acos / sin / cos', () => {
  it('gives the nearest double where V8 does not', () => {
    // Nearest doubles checked with 200-bit arithmetic (mpmath): acos(−0.6867456988379025) =
    // 2.32779888374287912305…, so 2.327798883742879 (V8's Math.acos gives the next double up).
    expect(acos(-0.6867456988379025)).toBe(2.327798883742879);
    expect(acos(0.5)).toBe(1.0471975511965979); // π/3 = 1.04719755119659774615…
    expect(acos(0)).toBe(Math.PI / 2);
    expect(acos(1)).toBe(0);
    expect(acos(-1)).toBe(Math.PI);
    expect(sinCos(Math.PI / 6)[0]).toBe(0.49999999999999994); // sin(0.52359877559829881566) = 0.4999999999999999722…
    expect(sinCos(Math.PI / 2)[1]).toBe(6.123233995736766e-17); // cos of the double nearest π/2
    expect(sinCos(Math.PI)[0]).toBe(1.2246467991473532e-16);
  });

  it('is within one ulp of V8 and consistent: cos(acos w) ≈ w, sin² + cos² ≈ 1', () => {
    fc.assert(fc.property(fc.double({ min: -1, max: 1, noNaN: true }), (w) => {
      const a = acos(w);
      expect(Math.abs(ulps(a, Math.acos(w)))).toBeLessThanOrEqual(1);
      const [s, c] = sinCos(a);
      expect(Math.abs(c - w)).toBeLessThanOrEqual(6e-16);
      expect(Math.abs(s * s + c * c - 1)).toBeLessThan(5e-16);
    }), { numRuns: 5000 });
    fc.assert(fc.property(fc.double({ min: -4, max: 4, noNaN: true }), (x) => {
      const [s, c] = sinCos(x);
      if (s !== 0 && Math.sign(s) === Math.sign(Math.sin(x))) expect(Math.abs(ulps(s, Math.sin(x)))).toBeLessThanOrEqual(1);
      if (c !== 0 && Math.sign(c) === Math.sign(Math.cos(x))) expect(Math.abs(ulps(c, Math.cos(x)))).toBeLessThanOrEqual(1);
    }), { numRuns: 5000 });
  });

  it('acos of a value outside [−1, 1] is NaN', () => {
    expect(acos(1.0000000000000002)).toBeNaN();
  });
});
