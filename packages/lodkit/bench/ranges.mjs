// Ranges over several `npm run bench -- --json` runs (bench/run.ts), as markdown, with the load
// levels side by side: for every row the lowest–highest median ms, ns per object and ns per visible
// object; for every ratio its range with the ns per object of both sides; the cluster shares; and
// each run's machine and load. Never the best run alone: RESULTS.md quotes these ranges.
//
//   npm run -s bench -w lodkit -- --json > q1.json      # several runs at each load level
//   node bench/ranges.mjs --label quiet q1.json q2.json q3.json --label loaded l1.json l2.json l3.json
import { readFileSync } from 'node:fs';

const groups = [];
let current = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--label') { current = { label: argv[++i], runs: [] }; groups.push(current); continue; }
  if (current === null) { current = { label: 'all runs', runs: [] }; groups.push(current); }
  const text = readFileSync(argv[i], 'utf8');
  current.runs.push(JSON.parse(text.slice(text.indexOf('{'))));
}
if (groups.length === 0 || groups.some((g) => g.runs.length === 0)) {
  console.error('usage: node bench/ranges.mjs [--label NAME] run.json … [--label NAME run.json …]');
  process.exit(1);
}

const range = (values, digits = 2) => {
  const v = values.filter((x) => x !== null && x !== undefined);
  if (v.length === 0) return '–';
  const f = (x) => (digits === 0 ? Math.round(x).toLocaleString('en-US') : x.toFixed(digits));
  const lo = f(Math.min(...v)), hi = f(Math.max(...v));
  return lo === hi ? lo : `${lo}–${hi}`;
};
const pct = (values) => {
  const v = values.filter((x) => x !== null && x !== undefined).map((x) => 100 * x);
  return v.length === 0 ? '–' : `${range(v, 1)} %`;
};
const rowsOf = (runs, name) => runs.map((run) => run.results.find((x) => x.name === name)).filter(Boolean);
const ratiosOf = (runs, name) => runs.map((run) => run.ratios.find((x) => x.name === name)).filter(Boolean);
const labels = groups.map((g) => g.label).join(' / ');
const per = (f) => groups.map((g) => f(g.runs)).join(' / ');

console.log('Runs (1-minute load average at the start → end of each run):\n');
for (const { label, runs } of groups) {
  const m = runs[0].machine;
  const loads = runs.map((r) => (r.machine.loadAtStart ? `${r.machine.loadAtStart[0]} → ${r.machine.loadAtEnd[0]}` : `${r.machine.loadAverage?.[0]}`));
  const smoke = runs.some((r) => r.machine.smokeRun) ? ' — includes a SMOKE RUN, do not quote' : '';
  console.log(`- ${label}, ${runs.length} runs: ${m.cpuModel ?? '?'}, ${m.cores ?? m.cpus} cores, Node ${m.node}; load ${loads.join(', ')}${smoke}`);
}
const names = groups[0].runs[0].results.map((r) => r.name);
console.log(`\nEach cell: lowest–highest over the runs, ${labels}.\n`);
console.log('| row | ns / object | ns / visible object | median ms | visible objects |');
console.log('|---|---:|---:|---:|---:|');
for (const name of names) {
  const cell = (key, digits = 2) => per((runs) => range(rowsOf(runs, name).map((r) => r[key] ?? null), digits));
  const visible = range(groups.flatMap((g) => rowsOf(g.runs, name).map((r) => r.visible ?? null)), 0);
  console.log(`| ${name} | ${cell('nsPerObject')} | ${cell('nsPerVisible')} | ${cell('medianMs')} | ${visible} |`);
}
console.log(`\n| ratio | ${labels} | ns / object, numerator | ns / object, denominator | target |`);
console.log('|---|---:|---:|---:|---|');
for (const ratio of groups[0].runs[0].ratios) {
  const value = per((runs) => range(ratiosOf(runs, ratio.name).map((r) => r.value)));
  const ns = (k) => per((runs) => range(ratiosOf(runs, ratio.name).map((r) => (r.nsPerObject ? r.nsPerObject[k] : null))));
  console.log(`| ${ratio.name} | ${value} | ${ns(0)} | ${ns(1)} | ${ratio.target} |`);
}
const all = groups.flatMap((g) => g.runs);
if (all[0].results.some((r) => r.clusters)) {
  console.log('\nClusters per sampled frame (mean), lowest–highest over all runs:\n');
  console.log('| clustered row | culled | skipped | evaluated | objects evaluated / frame |');
  console.log('|---|---:|---:|---:|---:|');
  for (const name of names) {
    const cs = rowsOf(all, name).map((r) => r.clusters).filter(Boolean);
    if (cs.length === 0) continue;
    console.log(`| ${name} | ${pct(cs.map((c) => c.culledShare))} | ${pct(cs.map((c) => c.skippedShare))} | ${pct(cs.map((c) => c.evaluatedShare))} | ${range(cs.map((c) => c.objectsEvaluated), 0)} |`);
  }
}
