/**
 * Small measurements behind the prose of bench/RESULTS.md ("Afternoon round", "Evening round"), one per command:
 *
 *   npx tsc -p tsconfig.bench.json
 *   node .bench-build/bench/probes.js tree-field          # visible / blend-window / near-edge trees of a frame
 *   node .bench-build/bench/probes.js cold-random [--still] [--wait MS] [--other-set]
 *                                                          # frames 1–8 of a new 1M random-order set, with counters
 *   node .bench-build/bench/probes.js worker-warmup       # a 2-thread set pinned to threaded frames, frames 1–30
 *   node .bench-build/bench/probes.js sizes-read          # LodSet.sizes read after every frame (slot order; rankQuota / budget owed values)
 *   node .bench-build/bench/probes.js blend-read          # LodSet.blend read after every frame, or never (owed blends)
 *   node .bench-build/bench/probes.js pollution [MB]      # the trees frame with MB (default 64) of memory written between frames, and without
 *   node .bench-build/bench/probes.js cache-state         # a warm 1M random-order set's frames after another set is built, after 300 MB are touched
 *
 * cold-random: `--still` keeps the camera at pose 0 (identical work every frame), `--wait MS` spins
 * MS milliseconds after frame 1, `--other-set` runs four frames of a second 1M set after frame 1.
 */
import { LodSet, type LodUpdateOptions } from '../src/batch/lodSet.js';
import { engineOf, setThreadSchedule, threadModeLoaded } from '../src/batch/engineSeam.js';
import { fusedCounters } from '../src/batch/passes/fusedPass.js';
import { owedBlendCount } from '../src/batch/outputs/owedBlends.js';
import { BENCH_PROFILE, randomScenePoses, randomSpheres, treeField, walkPoses } from './scenes.js';
import { kernelsReady } from '../src/batch/wasm/wasmKernels.js';

await kernelsReady(); // (compiled asynchronously: until then a set's frames would time the JavaScript kernels)

const argv = process.argv.slice(2);
const which = argv[0] ?? 'tree-field';
const flag = (name: string) => argv.includes(name);
const value = (name: string, fallback: number) => { const i = argv.indexOf(name); return i >= 0 ? Number(argv[i + 1]) : fallback; };
const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
const make = (data: Float32Array) => { const s = new LodSet(data.length >> 2); s.addMany(data, s.addProfile(BENCH_PROFILE)); return s; };
const time = (f: () => void) => { const t = performance.now(); f(); return performance.now() - t; };

if (which === 'tree-field') {
  // After 30 walking frames with exactSizes (every size is the object's own): how many visible trees
  // are in a blend window, or within the hysteresis band (±10 %) of a threshold or blend threshold.
  const views = walkPoses(31), set = make(treeField(1000, 2000, 5));
  for (let k = 0; k < 31; k++) set.update(views[k], { ...options, exactSizes: true });
  const edges = [...BENCH_PROFILE.thresholds, ...BENCH_PROFILE.blendThresholds];
  let visible = 0, inWindow = 0, nearEdge = 0;
  for (let i = 0; i < set.count; i++) {
    if (set.levels[i] === 255) continue;
    visible++;
    const v = set.sizes[i];
    if (set.blend[i] !== 0) inWindow++;
    if (set.blend[i] !== 0 || edges.some((e) => e >= v * 0.9 && e <= v * 1.1)) nearEdge++;
  }
  set.update(views[30], options); // the same pose without exactSizes: what the clusters evaluate
  console.log(`tree field, frame 31 of the walk: ${visible} visible, ${inWindow} in a blend window, ${nearEdge} in a window or within ±10 % of an edge; evaluated per object without exactSizes: ${set.clusterStats.evaluated}`);
} else if (which === 'cold-random') {
  const still = flag('--still'), wait = value('--wait', 0), other = flag('--other-set');
  const views = randomScenePoses(), set = make(randomSpheres(1_000_000, 1));
  const second = other ? make(randomSpheres(1_000_000, 7)) : null;
  const ci = (s: LodSet) => engineOf(s).ci;
  let before = fusedCounters(ci(set));
  // Printed as they come, so `--trace-opt` / `--trace-deopt` lines fall between the frames they happen in.
  console.log(`new 1M random-order set, ${still ? 'camera still' : 'moving camera'}${wait > 0 ? `, ${wait} ms spin after frame 1` : ''}:`);
  for (let f = 0; f < 8; f++) {
    const ms = time(() => set.update(views[still ? 0 : f % 16], options));
    const c = fusedCounters(ci(set)), cs = set.clusterStats;
    console.log(`frame ${f + 1}: ${ms.toFixed(2)} ms, evaluated ${cs.evaluated}, skipped ${cs.skipped}, lanes ${c.lanes - before.lanes}, scalar ${c.exact - before.exact}, redone ${c.redone - before.redone}`);
    before = c;
    if (f === 0 && wait > 0) { const end = performance.now() + wait; while (performance.now() < end); }
    if (f === 0 && second !== null) {
      const t: string[] = [];
      for (let k = 0; k < 4; k++) t.push(time(() => second.update(views[still ? 0 : k], options)).toFixed(2));
      console.log(`  second set, frames 1–4: ${t.join(', ')} ms`);
    }
  }
} else if (which === 'worker-warmup') {
  const views = walkPoses(30), set = make(treeField(1000, 2000, 5));
  set.setThreads(2);
  await threadModeLoaded(set); // (the worker-thread code arrives by a dynamic import)
  setThreadSchedule(set, 'threaded'); // every frame threaded (the engine seam)
  const t: string[] = [];
  for (let k = 0; k < 30; k++) t.push(time(() => set.update(views[k], options)).toFixed(2));
  set.dispose();
  console.log(`2 threads, every frame threaded, frames 1–30 (ms): ${t.join(' ')}`);
} else if (which === 'sizes-read') {
  // The clustered frames keep sizes in slot order; the first read of `LodSet.sizes` after a frame
  // copies the clusters that frame evaluated or hid into the id-ordered array, a second read nothing.
  // rankQuota and budget leave the sizes of clusters they decided whole to be computed when read
  // (owedSizes.ts): their first read also computes those.
  const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  for (const scene of ['random', 'trees']) {
    const random = scene === 'random', data = random ? randomSpheres(1_000_000, 1) : treeField(1000, 2000, 5);
    const views = random ? randomScenePoses() : walkPoses(60);
    const probe = make(data).update(views[0], options);
    const budget = Math.round(probe.minimumCost + (probe.totalCost - probe.minimumCost) * 0.5); // as run.ts
    const policies: [string, LodUpdateOptions][] = [
      ['thresholds', options], ['rankQuota', { policy: 'rankQuota', quotas: [1000, 10000, 100000] }], ['budget', { policy: 'budget', budget }],
    ];
    for (const [name, opts] of policies) {
      const set = make(data);
      const frame: number[] = [], first: number[] = [], second: number[] = [];
      for (let k = 0; k < 60; k++) {
        const f = time(() => set.update(views[k % views.length], opts));
        const r1 = time(() => set.sizes), r2 = time(() => set.sizes);
        if (k >= 20) { frame.push(f); first.push(r1); second.push(r2); }
      }
      console.log(`${scene} ${name}: frame ${median(frame).toFixed(2)} ms, first read of sizes ${median(first).toFixed(2)} ms, second read ${median(second).toFixed(4)} ms (medians of frames 21–60)`);
    }
  }
} else if (which === 'blend-read') {
  // Thresholds frames owe the changed blends of the kernel's steady slots (owedBlends.ts): a set whose
  // blend is never read, one read after every frame (the first read copies the owed slots, a second
  // nothing), side by side; then one read after 40 frames without a read.
  const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  for (const scene of ['random', 'trees']) {
    const random = scene === 'random', data = random ? randomSpheres(1_000_000, 1) : treeField(1000, 2000, 5);
    const views = random ? randomScenePoses() : walkPoses(60);
    const unread = make(data), read = make(data);
    const fu: number[] = [], fr: number[] = [], first: number[] = [], second: number[] = [], owed: number[] = [];
    for (let k = 0; k < 60; k++) {
      const a = time(() => unread.update(views[k % views.length], options));
      const b = time(() => read.update(views[k % views.length], options));
      const n = owedBlendCount(engineOf(read).ci);
      const r1 = time(() => read.blend), r2 = time(() => read.blend);
      if (k >= 20) { fu.push(a); fr.push(b); first.push(r1); second.push(r2); owed.push(n); }
    }
    const n = owedBlendCount(engineOf(unread).ci), late = time(() => unread.blend);
    console.log(`${scene}: frame never read ${median(fu).toFixed(2)} ms, read every frame ${median(fr).toFixed(2)} ms + first read ${median(first).toFixed(3)} ms (${median(owed)} owed) + second ${median(second).toFixed(4)} ms; after 60 unread frames ${n} owed, read ${late.toFixed(3)} ms (medians of frames 21–60)`);
  }
} else if (which === 'pollution') {
  // run.ts runs ≈ 30 other rows between two frames of a row; here the trees frame of one set alone
  // (frames back to back), then of a second set with `MB` of memory written before every frame
  // (what the other rows do to the caches).
  const mb = Number(argv[1] ?? 64), big = new Float64Array((mb << 20) >> 3);
  big.fill(1);
  const views = walkPoses(140), data = treeField(1000, 2000, 5);
  const median = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  const run = (write: boolean) => {
    const set = make(data), t: number[] = [];
    for (let k = 0; k < 140; k++) {
      if (write) big.fill(k);
      const ms = time(() => set.update(views[k], options));
      if (k >= 20) t.push(ms);
    }
    return median(t);
  };
  const alone = run(false), written = run(true);
  console.log(`trees thresholds frame, median of frames 21–140: ${alone.toFixed(2)} ms back to back, ${written.toFixed(2)} ms with ${mb} MB written before every frame`);
} else if (which === 'cache-state') {
  // A warm set's frames after the process streamed a lot of memory: building a second 1M set (and
  // its first frame), touching 300 MB of fresh pages. Rows of 4 frames (poses 1–4 or 5–8 of the 16:
  // filler frames before each event keep the jump back to pose 0, a slow frame of its own, out).
  const views = randomScenePoses(), data = randomSpheres(1_000_000, 1), a = make(data);
  let k = 0;
  for (; k < 36; k++) a.update(views[k % 16], options);
  const align = () => { while (k % 16 !== 1) a.update(views[k++ % 16], options); };
  const row = (label: string) => {
    const t: string[] = [];
    for (let i = 0; i < 4; i++, k++) t.push(time(() => a.update(views[k % 16], options)).toFixed(2));
    console.log(`${label.padEnd(36)} ${t.join('  ')} ms`);
  };
  align();
  row('warm set, steady');
  row('again');
  align();
  const b = make(data);
  row('after a second 1M set was built');
  row('again');
  align();
  b.update(views[0], options);
  row('after its first frame');
  row('again');
  align();
  const fresh = new Uint8Array(300 << 20);
  for (let i = 0; i < fresh.length; i += 4096) fresh[i] = 1;
  row('after 300 MB of fresh pages touched');
  row('again');
} else {
  throw new Error(`unknown probe ${which}`);
}
