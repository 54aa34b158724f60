/**
 * How closely the CPU reference must agree with the GPU selector (the tolerances the comparisons
 * in reference.ts and budgetReference.ts use), and the profile record both read.
 *
 * @module
 */

/** Relative distance to a compared value under which an object counts as near-threshold. @category WebGPU */
export const NEAR_EPSILON = 2 ** -19;
/** Largest allowed |GPU blend − reference blend| for an object that is not near-threshold. @category WebGPU */
export const BLEND_TOLERANCE = 2 ** -16;

/** Profile `p`'s record, read as the kernel reads it. */
export interface ProfileView { pu: Uint32Array; pt: Float32Array; o: number }
