/**
 * Startup and cold start, each in FRESH `node` processes with default flags (default 6 of each).
 *
 * 1. Startup of 100k instances (issue 27): `new InstancedLOD`, `addInstances` of 100k matrices and
 *    the first `update`, each phase timed, one fresh process per run (bench/startup.ts, which says
 *    what the scene is), and the range over the runs. The Chromium figure of the same page:
 *    `npm run bench:startup-browser` (bench/startup.browser.bench.ts).
 * 2. Cold start: frames 2–11 of `LodSet.update` in FRESH `node` processes with default flags, against
 * the same process's steady frame (median of frames 41–60). Each child builds the 1M-object scene,
 * runs 60 frames on the scene's camera path and prints its frame times; the parent runs `--runs`
 * children one after another (default 6) and prints every ratio.
 *
 *   npm run bench:cold                 # startup (100k instances), then cold start: tree field, thresholds
 *   npm run bench:cold -- --scene random
 *   npm run bench:cold -- --only startup   # or --only frames; --runs N, --instances N, --capacity
 *   npm run bench:cold -- --only frames --kernels late   # the set built before the kernels compiled
 *
 * No warm-up by the bench on purpose: this measures what a page or tool sees on its first frames
 * (V8 still in the interpreter or on on-stack-replaced code). The library's own one-time warm-up
 * (src/batch/warmUp.ts) runs inside the first `new LodSet`; its cost is printed (`warm-up ms`,
 * also inside `construct ms`).
 *
 * `--kernels late`: the child builds its set before the WebAssembly kernels have compiled (a page's
 * usual order: the kernels chunk arrives after the app built its scene) and awaits them before the
 * frames; the warm-up then runs twice, the second time when the kernels arrive (warmUp.ts).
 *
 * On a shared machine a frame can lose the core to another process (≈ 4 ms on the 2-vCPU bench
 * machine). Each child therefore also records per frame the process's CPU time (user + system, all
 * of its threads) and its involuntary context switches (`process.resourceUsage()`); the table
 * gives the worst of frames 2–11 on CPU time too and how many of those frames were switched out.
 * The target is judged on wall time (`max ÷ steady`); the CPU columns say why a frame was slow.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LodSet, type LodUpdateOptions } from '../src/batch/lodSet.js';
import { warmUpMs } from '../src/batch/warmUp.js';
import { BENCH_PROFILE, randomScenePoses, randomSpheres, treeField, walkPoses } from './scenes.js';
import { kernelsReady } from '../src/batch/wasm/wasmKernels.js';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const lateKernels = opt('--kernels', 'first') === 'late';
// (compiled asynchronously: until then a set's frames would time the JavaScript kernels)
if (!lateKernels) await kernelsReady();
const scene = opt('--scene', 'trees');
const only = opt('--only', 'both');
const FRAMES = 60;

if (argv.includes('--child')) {
  const data = scene === 'random' ? randomSpheres(1_000_000, 1) : treeField(1000, 2000, 5);
  const views = scene === 'random' ? randomScenePoses() : walkPoses(FRAMES);
  const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
  const c0 = performance.now();
  const set = new LodSet(data.length >> 2);
  const construct = performance.now() - c0;
  set.addMany(data, set.addProfile(BENCH_PROFILE));
  if (lateKernels) await kernelsReady(); // (the second warm-up runs first: warmUp.ts)
  const times: number[] = [], cpu: number[] = [], switches: number[] = [];
  for (let f = 0; f < FRAMES; f++) {
    const r0 = process.resourceUsage();
    const t0 = performance.now();
    set.update(views[f % views.length], options);
    const t1 = performance.now();
    const r1 = process.resourceUsage();
    times.push(t1 - t0);
    cpu.push((r1.userCPUTime + r1.systemCPUTime - r0.userCPUTime - r0.systemCPUTime) / 1000);
    switches.push(r1.involuntaryContextSwitches - r0.involuntaryContextSwitches);
  }
  process.stdout.write(JSON.stringify({ times, cpu, switches, construct, warmUp: warmUpMs() }));
} else {
  const runs = Number(opt('--runs', '6'));
  const self = fileURLToPath(import.meta.url);
  const median = (v: number[]) => v.slice().sort((a, b) => a - b)[v.length >> 1];
  const load = () => loadavg().map((x) => x.toFixed(2)).join(' / ');
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores, ${process.platform} ${process.arch}, Node ${process.version}`;
  const range = (v: number[]) => `${Math.min(...v).toFixed(1)}–${Math.max(...v).toFixed(1)} ms (median ${median(v).toFixed(1)})`;
  if (only !== 'frames') {
    const instances = opt('--instances', '100000');
    const startup = join(dirname(self), 'startup.js');
    console.log(`startup of ${Number(instances).toLocaleString('en-US')} instances${argv.includes('--capacity') ? ' (`capacity` given)' : ''}, ${runs} fresh node processes (default flags)`);
    console.log(`_Machine: ${machine}; load average (1 / 5 / 15 min) ${load()} at start._\n`);
    console.log('Wall ms of each phase (CPU ms of the process in parentheses: user + system, all threads); the engine\'s one-time warm-up runs inside the first `new InstancedLOD`.\n');
    console.log('| run | import ms | new InstancedLOD ms | engine warm-up ms | addInstances ms | first update ms | **the three phases ms** | same process, second instance: new / add / update ms |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    const totals: number[] = [], cpuTotals: number[] = [], phase: number[][] = [[], [], []];
    for (let r = 0; r < runs; r++) {
      const out = execFileSync(process.execPath, [startup, '--instances', instances, ...(argv.includes('--capacity') ? ['--capacity'] : [])], { encoding: 'utf8', maxBuffer: 1 << 20 });
      type Phases = { construct: number; add: number; update: number; cpu: [number, number, number] };
      const { importMs, first: f, second: s, warmUp } = JSON.parse(out) as { importMs: number; first: Phases; second: Phases; warmUp: number | null };
      const total = f.construct + f.add + f.update, cpuTotal = f.cpu[0] + f.cpu[1] + f.cpu[2];
      totals.push(total); cpuTotals.push(cpuTotal); phase[0].push(f.construct); phase[1].push(f.add); phase[2].push(f.update);
      const w = (ms: number, cpu: number) => `${ms.toFixed(1)} (${cpu.toFixed(0)})`;
      console.log(`| ${r + 1} | ${importMs.toFixed(1)} | ${w(f.construct, f.cpu[0])} | ${warmUp === null ? '–' : warmUp.toFixed(1)} | ${w(f.add, f.cpu[1])} | ${w(f.update, f.cpu[2])} | **${w(total, cpuTotal)}** | ${s.construct.toFixed(1)} / ${s.add.toFixed(1)} / ${s.update.toFixed(1)} |`);
    }
    console.log(`\nthe three phases: ${range(totals)}, CPU ${range(cpuTotals)}; new InstancedLOD ${range(phase[0])}, addInstances ${range(phase[1])}, first update ${range(phase[2])}; load average ${load()} at end\n`);
    if (only === 'startup') process.exit(0);
  }
  console.log(`cold start, scene ${scene}, ${runs} fresh node processes (default flags), ${process.version}${lateKernels ? ', the set built before the kernels compiled' : ''}`);
  console.log(`_Machine: ${machine}; load average (1 / 5 / 15 min) ${load()} at start._\n`);
  console.log('| run | construct ms (warm-up ms) | frame 1 ms | frames 2–11 median ms | frames 2–11 max ms (frame) | steady (41–60 median) ms | max ÷ steady | median ÷ steady | CPU: max ÷ steady | frames 2–11 switched out |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (let r = 0; r < runs; r++) {
    const out = execFileSync(process.execPath, [self, '--child', '--scene', scene, '--kernels', lateKernels ? 'late' : 'first'], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const { times: t, cpu, switches, construct, warmUp } = JSON.parse(out) as { times: number[]; cpu: number[]; switches: number[]; construct: number; warmUp: number };
    const early = t.slice(1, 11), steady = median(t.slice(40, 60));
    const mx = Math.max(...early), md = median(early), at = early.indexOf(mx) + 2;
    const cpuMax = Math.max(...cpu.slice(1, 11)), cpuSteady = median(cpu.slice(40, 60));
    const switched = switches.slice(1, 11).filter((x) => x > 0).length;
    console.log(`| ${r + 1} | ${construct.toFixed(1)} (${warmUp.toFixed(1)}) | ${t[0].toFixed(2)} | ${md.toFixed(2)} | ${mx.toFixed(2)} (${at}) | ${steady.toFixed(2)} | ${(mx / steady).toFixed(2)} | ${(md / steady).toFixed(2)} | ${(cpuMax / cpuSteady).toFixed(2)} | ${switched} |`);
  }
  console.log(`\nload average ${load()} at end`);
}
