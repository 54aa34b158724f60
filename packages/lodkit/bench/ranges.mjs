// Ranges over several `npm run bench -- --json` runs (bench/run.ts), as markdown: for every row the
// lowest–highest median ms, ns per object and ns per visible object; for every ratio its range
// with the ns per object of both sides; the cluster shares; and each run's machine and load.
// Never the best run alone: RESULTS.md quotes these ranges.
//
//   npm run -s bench -w lodkit -- --json > run1.json   # (several runs, at two load levels)
//   node bench/ranges.mjs run1.json run2.json run3.json …
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
if (groups.length === 0) { console.error('usage: node bench/ranges.mjs [--label NAME] run.json … [--label NAME run.json …]'); process.exit(1); }

const range = (values, digits = 2) => {
  const v = values.filter((x) => x !== null && x !== undefined);
  if (v.length === 0) return '–';
  const lo = Math.min(...v), hi = Math.max(...v);
  return lo.toFixed(digits) === hi.toFixed(digits) ? lo.toFixed(digits) : `${lo.toFixed(digits)}–${hi.toFixed(digits)}`;
};
const pct = (values) => {
  const v = values.filter((x) => x !== null && x !== undefined).map((x) => 100 * x);
  return v.length === 0 ? '–' : `${range(v, 1)} %`;
};

for (const { label, runs } of groups) {
  console.log(`### ${label}: ${runs.length} runs\n`);
  for (const [i, r] of runs.entries()) {
    const m = r.machine;
    const load = m.loadAtStart ? `${m.loadAtStart.join(' / ')} at start, ${m.loadAtEnd.join(' / ')} at end` : (m.loadAverage ?? []).join(' / ');
    console.log(`- run ${i + 1}: ${m.cpuModel ?? '?'}, ${m.cores ?? m.cpus} cores, Node ${m.node}; load average ${load}${m.smokeRun ? ' — SMOKE RUN, do not quote' : ''}`);
  }
  const names = runs[0].results.map((r) => r.name);
  const rowsOf = (name) => runs.map((run) => run.results.find((x) => x.name === name)).filter(Boolean);
  console.log('\n| row | median ms | ns / object | visible | ns / visible object |');
  console.log('|---|---:|---:|---:|---:|');
  for (const name of names) {
    const rs = rowsOf(name);
    console.log(`| ${name} | ${range(rs.map((r) => r.medianMs))} | ${range(rs.map((r) => r.nsPerObject))} | ${range(rs.map((r) => r.visible ?? null), 0)} | ${range(rs.map((r) => r.nsPerVisible ?? null))} |`);
  }
  console.log('\n| ratio | range | ns / object, numerator | ns / object, denominator | target |');
  console.log('|---|---:|---:|---:|---|');
  for (const ratio of runs[0].ratios) {
    const rs = runs.map((run) => run.ratios.find((x) => x.name === ratio.name)).filter(Boolean);
    const ns = (k) => (rs[0].nsPerObject ? range(rs.map((r) => r.nsPerObject[k])) : '–');
    console.log(`| ${ratio.name} | ${range(rs.map((r) => r.value))} | ${ns(0)} | ${ns(1)} | ${ratio.target} |`);
  }
  if (runs[0].results.some((r) => r.clusters)) {
    console.log('\n| clustered row | culled | skipped | evaluated | objects evaluated / frame |');
    console.log('|---|---:|---:|---:|---:|');
    for (const name of names) {
      const cs = rowsOf(name).map((r) => r.clusters).filter(Boolean);
      if (cs.length === 0) continue;
      console.log(`| ${name} | ${pct(cs.map((c) => c.culledShare))} | ${pct(cs.map((c) => c.skippedShare))} | ${pct(cs.map((c) => c.evaluatedShare))} | ${range(cs.map((c) => c.objectsEvaluated), 0)} |`);
    }
  }
  console.log('');
}
