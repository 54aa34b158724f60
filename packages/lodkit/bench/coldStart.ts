/**
 * Cold start: frames 2–11 of `LodSet.update` in FRESH `node` processes with default flags, against
 * the same process's steady frame (median of frames 41–60). Each child builds the 1M-object scene,
 * runs 60 frames on the scene's camera path and prints its frame times; the parent runs `--runs`
 * children one after another (default 6) and prints every ratio.
 *
 *   npm run bench:cold                 # tree field, thresholds
 *   npm run bench:cold -- --scene random
 *
 * No warm-up on purpose: this measures what a page or tool sees on its first frames (V8 still in
 * the interpreter or on on-stack-replaced code).
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { LodSet, type LodUpdateOptions } from '../src/batch/lodSet.js';
import { BENCH_PROFILE, randomScenePoses, randomSpheres, treeField, walkPoses } from './scenes.js';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const scene = opt('--scene', 'trees');
const FRAMES = 60;

if (argv.includes('--child')) {
  const data = scene === 'random' ? randomSpheres(1_000_000, 1) : treeField(1000, 2000, 5);
  const views = scene === 'random' ? randomScenePoses() : walkPoses(FRAMES);
  const options: LodUpdateOptions = { policy: 'thresholds', hysteresis: 0.1 };
  const set = new LodSet(data.length >> 2);
  set.addMany(data, set.addProfile(BENCH_PROFILE));
  const times: number[] = [];
  for (let f = 0; f < FRAMES; f++) {
    const t0 = performance.now();
    set.update(views[f % views.length], options);
    times.push(performance.now() - t0);
  }
  process.stdout.write(JSON.stringify(times));
} else {
  const runs = Number(opt('--runs', '6'));
  const self = fileURLToPath(import.meta.url);
  const median = (v: number[]) => v.slice().sort((a, b) => a - b)[v.length >> 1];
  console.log(`cold start, scene ${scene}, ${runs} fresh node processes (default flags), ${process.version}`);
  console.log('| run | frame 1 ms | frames 2–11 median ms | frames 2–11 max ms | steady (41–60 median) ms | max ÷ steady | median ÷ steady |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (let r = 0; r < runs; r++) {
    const out = execFileSync(process.execPath, [self, '--child', '--scene', scene], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const t = JSON.parse(out) as number[];
    const early = t.slice(1, 11), steady = median(t.slice(40, 60));
    const mx = Math.max(...early), md = median(early);
    console.log(`| ${r + 1} | ${t[0].toFixed(2)} | ${md.toFixed(2)} | ${mx.toFixed(2)} | ${steady.toFixed(2)} | ${(mx / steady).toFixed(2)} | ${(md / steady).toFixed(2)} |`);
  }
}
