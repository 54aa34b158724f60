/**
 * The scratch of a clustered hybrid frame that its passes hand to finalize: what the collection
 * left finalize to do ({@link FinalizeList}) and what the fused kernel settled in pass A
 * ({@link KernelSettled}). Data only — the passes are hybridIncremental.ts, fusedCollect.ts and
 * hybridFinalize.ts.
 *
 * @module
 */
/**
 * Over budget, the clusters with chains (`chains` 1, no one level): per cluster 1 in `listed` when
 * the collection already counted its settled objects (ending at a level known before the solve,
 * unchanged, nothing to clear) into `counts` (per level) / `acc[3]`, and listed every other of its
 * slots in `slots` (chains, changes, blends to clear) — all finalize visits of it (hybridFinalize.ts).
 */
export class FinalizeList {
  listed: Uint8Array = new Uint8Array(0);
  slots: Int32Array = new Int32Array(0);
  count = 0;
  counts: Float64Array = new Float64Array(0);

  ensure(slots: number, clusters: number, levels: number): void {
    if (this.slots.length < slots) this.slots = new Int32Array(slots);
    if (this.listed.length < clusters) this.listed = new Uint8Array(clusters);
    if (this.counts.length < levels) this.counts = new Float64Array(levels);
  }

  /** Empties the list and its counts (before each collection). */
  reset(): void {
    this.count = 0; this.counts.fill(0);
  }
}

/**
 * Pass A's collection in the fused kernel (fusedCollect.ts): whether it runs this frame (`on`:
 * stable ranges computed before pass A, a protected tier) and its viewport clamp `vmax`; per
 * cluster 1 in `settled` when the kernel settled it (no chain, no finalize entry; the first
 * collection skips it) and the state finalize leaves it in (`state`); this frame's totals of such
 * clusters in `acc` ([0] base cost, [1] settled cost, [2] stable objects, [3 + l] objects ending at l).
 */
export class KernelSettled {
  on = false;
  vmax = 0.5;
  settled: Uint8Array = new Uint8Array(0);
  state: Uint8Array = new Uint8Array(0);
  acc: Float64Array = new Float64Array(3);

  ensure(clusters: number, levels: number): void {
    if (this.settled.length < clusters) { this.settled = new Uint8Array(clusters); this.state = new Uint8Array(clusters); }
    if (this.acc.length < 3 + levels) this.acc = new Float64Array(3 + levels);
  }
}

/**
 * Pass A's clusters with chains (`chains` 1) whose every drawn object the fused kernel decided
 * (fusedPass.ts `fusedNextCluster`, bit 256: none left over to the JavaScript kernels): per
 * cluster in `flag` 1, or 2 when no object prefers a level other than its displayed one (bit 512);
 * their objects per preferred level in `counts` and their minimum cost (adjustable objects at their
 * preferred level or their quality floor, whichever is coarser; held ones at theirs) in `minimum`.
 * A frame within budget then visits their objects for the changes only, and those of clusters
 * flagged 2 not at all (hybridFinalize.ts `preferredFinalize`).
 */
export class FreeClusters {
  flag: Uint8Array = new Uint8Array(0);
  counts: Float64Array = new Float64Array(0);
  minimum = 0.5; // (0.5: a double field for V8; reset every pass A)
  /**
   * Per cluster, for a frame below the minimum whose quality floor is the coarsest level
   * (hybridFinalize.ts `hybridFinalizeAtFloor`): nonzero when the kernel touched none of its lanes
   * (fusedPass.ts `fusedNextCluster`: every adjustable object already displayed at the floor, none
   * finer than it with a blend, no hidden object shown last frame, none left to the scalar path),
   * so finalize has nothing to change there — 1 when, moreover, every object prefers a level finer
   * than the floor (the cluster is left floored), 2 when some object is held, hidden or prefers the
   * floor; 0: finalize visits the cluster. The untouched clusters' objects per final level in
   * `floorCounts` (adjustable ones at the floor, held ones at theirs), their cost in `floorCost`.
   */
  atFloor: Uint8Array = new Uint8Array(0);
  floorCounts: Float64Array = new Float64Array(0);
  floorCost = 0.5;

  ensure(clusters: number, levels: number): void {
    if (this.flag.length < clusters) { this.flag = new Uint8Array(clusters); this.atFloor = new Uint8Array(clusters); }
    if (this.counts.length < levels) { this.counts = new Float64Array(levels); this.floorCounts = new Float64Array(levels); }
  }

  /** Before pass A. */
  reset(): void {
    this.counts.fill(0); this.minimum = 0; this.floorCounts.fill(0); this.floorCost = 0;
  }
}
