/**
 * Correctly rounded `acos`, `sin` and `cos` for the frustum's rotation, so that lodkit builds the
 * same camera rotation as OpenUSD to the last bit.
 *
 * Contributor notes:
 * - Why: OpenUSD's `GfRotation` turns a quaternion into an axis and an angle and back (`acos`, then
 *   `sin`/`cos` of the half angle). It runs on the C library, whose `acos`/`sin`/`cos` (glibc's) are
 *   correctly rounded in practice; V8's `Math.acos`/`Math.sin`/`Math.cos` (fdlibm ports) are within
 *   one ulp but not always the nearest double. One ulp in the rotation moves a camera 7e5 units
 *   from the origin by ~1e-10 and changed a measured screen size by 3e-9 relative, and an LOD
 *   index with it (case 545 of the OpenUSD oracle).
 * - How: each value is computed in double-double arithmetic (~106 bits: a value is `hi + lo` with
 *   |lo| ≤ ulp(hi)/2) and rounded once. `sin`/`cos` reduce by multiples of π/2 (a three-part π/2)
 *   and sum Taylor series to 29th order (|r| ≤ π/4, last term < 1e-34). `acos` solves `sin z = s`
 *   by a Newton step from `Math.asin`, written so that no step loses relative accuracy:
 *   `acos w = 2·asin(√((1−w)/2))` for w > ½, `π − 2·asin(√((1+w)/2))` for w < −½,
 *   `π/2 − asin w` otherwise ((1 ∓ w)/2 is exact there).
 * - No allocation: V8 boxes a double passed to or returned from a call it does not inline, so every
 *   value lives in one module-level `Float64Array` of registers and the helpers take slot indices
 *   (small integers), never doubles; the public functions read and write a caller's typed array.
 *   Cost: a few hundred flops per call, paid once per `Frustum.set()`, never per object.
 *
 * @module
 */

// Double-double registers: slot i holds hi at D[i] and lo at D[i + 1].
const D = new Float64Array(96);
const FACT = 0; // 30 signed 1/n! (n = 0 … 29), sign (−1)^⌊n/2⌋ as the series need it
const X = 60, RED = 62, Z2 = 64, P = 66, SIN = 68, COS = 70, TMP = 72, S = 74, ZZ = 76, PIO2 = 78, PI = 80, ONE = 82, C3 = 84;

const SPLIT = 134217729; // 2^27 + 1, Dekker's splitter

/** D[o] = D[a] · D[b] in double-double (Dekker's exact product of the high parts, cross terms added). */
function ddMul(a: number, b: number, o: number): void {
  const ah0 = D[a], al0 = D[a + 1], bh0 = D[b], bl0 = D[b + 1];
  const p = ah0 * bh0;
  let t = SPLIT * ah0;
  const ah = t - (t - ah0), al = ah0 - ah;
  t = SPLIT * bh0;
  const bh = t - (t - bh0), bl = bh0 - bh;
  const e = ((ah * bh - p) + ah * bl + al * bh) + al * bl + (ah0 * bl0 + al0 * bh0);
  const h = p + e;
  D[o] = h;
  D[o + 1] = e - (h - p);
}

/** D[o] = D[a] + sign · D[b] in double-double (Knuth's two-sum on both parts, renormalised). */
function ddAdd(a: number, b: number, sign: number, o: number): void {
  const ah = D[a], al = D[a + 1], bh = sign * D[b], bl = sign * D[b + 1];
  const s = ah + bh;
  let v = s - ah;
  let e = (ah - (s - v)) + (bh - v);
  const t = al + bl;
  v = t - al;
  const f = (al - (t - v)) + (bl - v);
  e += t;
  const h = s + e;
  e = e - (h - s);
  e += f;
  const r = h + e;
  D[o] = r;
  D[o + 1] = e - (r - h);
}

/** D[o] = D[a] · k for a small integer k, exactly as a double-double product. */
function ddScale(a: number, k: number, o: number): void {
  D[TMP] = k; D[TMP + 1] = 0;
  ddMul(a, TMP, o);
}

// 1/n! by repeated double-double division: q1 = x / n, exact remainder, correction.
{
  let hi = 1, lo = 0;
  D[FACT] = 1; D[FACT + 1] = 0;
  for (let n = 1; n < 30; n++) {
    const q1 = hi / n;
    D[TMP] = q1; D[TMP + 1] = 0; D[TMP + 2] = n; D[TMP + 3] = 0;
    ddMul(TMP, TMP + 2, P);
    const r = ((hi - D[P]) - D[P + 1]) + lo;
    const q2 = r / n;
    hi = q1 + q2;
    lo = q2 - (hi - q1);
    const sign = Math.floor(n / 2) % 2 === 0 ? 1 : -1;
    D[FACT + 2 * n] = sign * hi; D[FACT + 2 * n + 1] = sign * lo;
  }
}
// π/2 and π to ~107 bits, and a third part of π/2 for the reduction.
D[PIO2] = 1.5707963267948966; D[PIO2 + 1] = 6.123233995736766e-17;
D[PI] = 3.141592653589793; D[PI + 1] = 1.2246467991473532e-16;
D[ONE] = 1; D[ONE + 1] = 0;
const PIO2_3 = -1.4973849048591698e-33;

/** D[SIN], D[COS] = sin, cos of D[RED] (|r| ≤ π/4) by Taylor series to order 29, Horner in r². */
function sinCosReduced(): void {
  ddMul(RED, RED, Z2);
  // sin r = r · Σ (−1)^k r^{2k} / (2k+1)!
  D[P] = D[FACT + 58]; D[P + 1] = D[FACT + 59];
  for (let n = 27; n >= 1; n -= 2) {
    ddMul(P, Z2, P);
    ddAdd(P, FACT + 2 * n, 1, P);
  }
  ddMul(P, RED, SIN);
  // cos r = Σ (−1)^k r^{2k} / (2k)!
  D[P] = D[FACT + 56]; D[P + 1] = D[FACT + 57];
  for (let n = 26; n >= 0; n -= 2) {
    ddMul(P, Z2, P);
    ddAdd(P, FACT + 2 * n, 1, P);
  }
  D[COS] = D[P]; D[COS + 1] = D[P + 1];
}

/** D[SIN], D[COS] of the double-double D[X], reduced by the nearest multiple of π/2. */
function sinCosX(): void {
  const k = Math.round(D[X] / D[PIO2]);
  ddScale(PIO2, k, C3);
  ddAdd(X, C3, -1, RED);
  D[RED + 1] -= k * PIO2_3;
  ddAdd(RED, ONE, 0, RED); // renormalise
  sinCosReduced();
  const q = ((k % 4) + 4) % 4;
  const sh = D[SIN], sl = D[SIN + 1], ch = D[COS], cl = D[COS + 1];
  if (q === 1) { D[SIN] = ch; D[SIN + 1] = cl; D[COS] = -sh; D[COS + 1] = -sl; }
  else if (q === 2) { D[SIN] = -sh; D[SIN + 1] = -sl; D[COS] = -ch; D[COS + 1] = -cl; }
  else if (q === 3) { D[SIN] = -ch; D[SIN + 1] = -cl; D[COS] = sh; D[COS + 1] = sl; }
}

/**
 * D[ZZ] = asin(D[S]) for |s| ≤ ½ (+ε): a Newton step z += (s − sin z) / cos z from Math.asin. One
 * step suffices: Math.asin is within an ulp, and the step squares that error (≈1e-32 relative).
 */
function asinS(): void {
  D[ZZ] = Math.asin(D[S]); D[ZZ + 1] = 0;
  D[X] = D[ZZ]; D[X + 1] = 0;
  sinCosX();
  ddAdd(S, SIN, -1, TMP);
  D[TMP] = (D[TMP] + D[TMP + 1]) / D[COS]; D[TMP + 1] = 0;
  ddAdd(ZZ, TMP, 1, ZZ);
}

/** D[S] = √(D[S]) for a double D[S] ≥ 0: Math.sqrt plus one exact-residual correction. */
function sqrtS(): void {
  const t = D[S], s = Math.sqrt(t);
  if (s === 0) { D[S] = 0; D[S + 1] = 0; return; }
  D[TMP] = s; D[TMP + 1] = 0;
  ddMul(TMP, TMP, P);
  const correction = ((t - D[P]) - D[P + 1]) / (2 * s);
  const h = s + correction;
  D[S] = h; D[S + 1] = correction - (h - s);
}

/**
 * Replaces `values[index]` (in [−1, 1]) by its correctly rounded `acos`; NaN outside [−1, 1].
 * @internal
 */
export function acosRoundedAt(values: Float64Array, index: number): void {
  const w = values[index];
  if (!(w >= -1 && w <= 1)) { values[index] = NaN; return; }
  if (w === 1) { values[index] = 0; return; }
  if (w === -1) { values[index] = D[PI]; return; }
  if (w > 0.5 || w < -0.5) {
    // 1 ∓ w is exact for |w| in [½, 1], and so is the halving.
    D[S] = (w > 0 ? 1 - w : 1 + w) / 2; D[S + 1] = 0;
    sqrtS();
    asinS();
    ddScale(ZZ, 2, ZZ);
    if (w < 0) ddAdd(PI, ZZ, -1, ZZ);
  } else {
    D[S] = w; D[S + 1] = 0;
    asinS();
    ddAdd(PIO2, ZZ, -1, ZZ);
  }
  values[index] = D[ZZ] + D[ZZ + 1];
}

/**
 * Reads x = `values[index]` (|x| ≤ 1e4) and writes its correctly rounded `sin` to `values[index]`
 * and `cos` to `values[index + 1]`.
 * @internal
 */
export function sinCosRoundedAt(values: Float64Array, index: number): void {
  const x = values[index];
  if (x === 0) { values[index + 1] = 1; return; }
  D[X] = x; D[X + 1] = 0;
  sinCosX();
  values[index] = D[SIN] + D[SIN + 1];
  values[index + 1] = D[COS] + D[COS + 1];
}
