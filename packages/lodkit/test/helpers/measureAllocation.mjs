// Allocation probe harness. Probes run in a plain `node` child process against the built package
// (dist/), because under vitest's module runner every imported binding is read through a getter,
// which stops V8 from inlining cross-module calls and makes it box their double results: a harness
// artefact that real ESM consumers never see.
//
// Measurement: V8's sampling heap profiler (through the inspector) records every sampled allocation
// with its stack. After warm-up the loop runs once under the profiler with a 32-byte mean sampling
// interval; the bytes attributed to stacks that pass through the probe function are summed. A loop
// that allocated even one 16-byte heap number per call would show megabytes. (Counting GCs was tried
// first and abandoned: a forced full GC before the measured run makes V8 schedule follow-up
// scavenges that do not come from the loop.)
import { Session } from 'node:inspector/promises';

/**
 * With `--allow-natives-syntax` (runAllocationProbe passes it): compiles `fn` with TurboFan
 * synchronously on its next call, with the feedback of the warm-up runs, instead of whenever V8's
 * background compiler gets a core. A late tier-up inside the measured run (seen once: 6 kB in
 * `frustumSetRotated` while another test file loaded the machine) is then impossible.
 */
let optimizeNow = null;
try {
  optimizeNow = new Function('fn', '%PrepareFunctionForOptimization(fn); %OptimizeFunctionOnNextCall(fn);');
} catch { optimizeNow = null; } // (plain node: natives syntax off)

/** Bytes allocated inside `loop` (a named function) during one run after `warmups` runs. */
export async function measureAllocation(name, loop, warmups = 10) {
  for (let i = 0; i < warmups; i++) loop();
  optimizeNow?.(loop);
  loop();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 32, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  loop();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  let bytes = 0;
  const sites = new Map();
  (function walk(node, inside) {
    const here = inside || node.callFrame.functionName === name;
    if (here && node.selfSize > 0) {
      bytes += node.selfSize;
      const site = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`;
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  })(profile.head, false);
  // The allocating functions, largest first: where to look when a probe fails.
  return { bytes, sites: Object.fromEntries([...sites].sort((a, b) => b[1] - a[1]).slice(0, 3)) };
}

/** Runs named probes and prints one JSON object `{name: {bytes}}`. */
export async function runProbes(probes) {
  const out = {};
  for (const [name, loop] of Object.entries(probes)) out[name] = await measureAllocation(name, loop);
  process.stdout.write(JSON.stringify(out));
}
