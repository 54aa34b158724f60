// Two builds' `npm run bench -- --json` runs side by side (bench/run.ts, any commit's): for every
// row both have, the median over each side's runs of the row's median ms, the ratio new ÷ old and
// whether it is within ±5 % (issue 27: "every `npm run bench` row within 5 % of 592cc1d's, median of
// three runs each, both builds measured on the same machine back to back"). Rows only one build has
// are listed apart. Runs of the two builds should alternate (old, new, old, new…) so that a change
// of load hits both alike; each run's load average is printed with it.
//
//   node bench/compareRuns.mjs --old o1.json o2.json o3.json --new n1.json n2.json n3.json
//   node bench/compareRuns.mjs --control 'three.js' --old … --new …
//
// `--control NAME`: each row's median is first divided by the median of the same run's row of the
// same scene whose name contains NAME (a peer whose code is the same in both builds, e.g. three.js
// `LOD.update`): what the process or the moment added to every row cancels; the control's own
// ratio (new ÷ old) says how much that was.
import { readFileSync } from 'node:fs';

const sides = { old: [], new: [] };
let side = null, control = null;
const argv = process.argv.slice(2);
for (let a = 0; a < argv.length; a++) {
  const arg = argv[a];
  if (arg === '--control') { control = argv[++a]; continue; }
  if (arg === '--old' || arg === '--new') { side = arg.slice(2); continue; }
  if (side === null) { console.error('usage: node bench/compareRuns.mjs --old run.json … --new run.json …'); process.exit(1); }
  const text = readFileSync(arg, 'utf8');
  sides[side].push({ file: arg, run: JSON.parse(text.slice(text.indexOf('{'))) });
}
if (sides.old.length === 0 || sides.new.length === 0) {
  console.error('usage: node bench/compareRuns.mjs --old run.json … --new run.json …');
  process.exit(1);
}

const median = (values) => {
  const s = values.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Row name → its median ms (÷ the same run's control row of its scene, with --control) in each run of a side. */
function rowsOf(runs) {
  const rows = new Map();
  for (const { run } of runs) for (const r of run.results) {
    let v = r.medianMs;
    if (control !== null) {
      const scene = r.name.slice(0, r.name.indexOf(':'));
      const c = run.results.find((x) => x.name.startsWith(`${scene}:`) && x.name.includes(control));
      if (!c) continue;
      v /= c.medianMs;
    }
    if (!rows.has(r.name)) rows.set(r.name, []);
    rows.get(r.name).push(v);
  }
  return rows;
}
const oldRows = rowsOf(sides.old), newRows = rowsOf(sides.new);
const load = ({ file, run }) => `${file}: ${run.machine?.loadAtStart ?? run.machine?.load ?? JSON.stringify(run.machine?.loadavg ?? '?')}`;

const unit = control === null ? 'ms' : `÷ ${control}`;
const lines = [`| row | old ${unit} (median of runs) | new ${unit} | new ÷ old | within ±5 % |`, '|---|---:|---:|---:|---|'];
let outside = 0, compared = 0;
for (const [name, olds] of oldRows) {
  const news = newRows.get(name);
  if (!news) continue;
  const o = median(olds), n = median(news), ratio = n / o;
  compared++;
  const ok = Math.abs(ratio - 1) <= 0.05;
  if (!ok) outside++;
  lines.push(`| ${name} | ${o.toFixed(3)} (${olds.map((x) => x.toFixed(3)).join(', ')}) | ${n.toFixed(3)} (${news.map((x) => x.toFixed(3)).join(', ')}) | ${ratio.toFixed(3)} | ${ok ? 'yes' : ratio < 1 ? 'faster' : '**slower**'} |`);
}
console.log(lines.join('\n'));
console.log(`\n${compared} rows compared, ${outside} outside ±5 %.`);
const only = (a, b) => [...a.keys()].filter((k) => !b.has(k));
if (only(oldRows, newRows).length) console.log(`only in old: ${only(oldRows, newRows).join('; ')}`);
if (only(newRows, oldRows).length) console.log(`only in new: ${only(newRows, oldRows).join('; ')}`);
console.log('\nruns (machine / load):');
for (const s of [...sides.old, ...sides.new]) console.log(`- ${load(s)}`);
