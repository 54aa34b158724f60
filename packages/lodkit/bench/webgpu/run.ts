/**
 * Runs the WebGPU selection bench and prints its table.
 *
 *   npm run bench:webgpu -w lodkit                          # the page in headless Chromium (WebGPU)
 *   npm run bench:webgpu -w lodkit -- --node                # the same bench in Node through Dawn
 *   npm run bench:webgpu -w lodkit -- --sizes=1000000 --frames=30 --warmup=5 --json
 *   npm run bench:webgpu -w lodkit -- --default-limits     # WebGPU's default limits: 10M is reported as not fitting
 *
 * Chromium: Debian's `/usr/bin/chromium` (or `--chromium=PATH`), headless, `--enable-unsafe-webgpu`,
 * `--enable-webgpu-developer-features` (timestamps not quantized to 100 µs); extra flags in
 * `LODKIT_CHROMIUM_FLAGS` (space-separated; a Linux machine with a GPU wants e.g.
 * `--enable-features=Vulkan --use-angle=vulkan`). Node: the child gets the Vulkan ICD
 * (`LODKIT_VK_ICD`, default SwiftShader from Debian's chromium package) — see test/helpers/dawnDevice.ts.
 * On a software adapter the table says "software adapter: correctness only, times not quoted".
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dawnEnvironment } from '../../test/helpers/dawnDevice.js';
import type { GpuBenchOptions, GpuBenchResult } from './gpuBench.js';

type Outcome = { ok: true; result: GpuBenchResult; table: string } | { ok: false; reason: string };

// Compiled to .bench-build/bench/webgpu/run.js: three folders below the package.
const ROOT = resolve(import.meta.dirname, '../../..');
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const options: GpuBenchOptions = {};
if (flag('sizes')) options.sizes = flag('sizes')!.split(',').map(Number);
for (const k of ['frames', 'warmup', 'sample'] as const) if (flag(k)) options[k] = Number(flag(k));

async function inChromium(): Promise<Outcome> {
  const chromium = flag('chromium') ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) return { ok: false, reason: `${chromium} not found (install Debian's "chromium" package or pass --chromium=PATH)` };
  const { build, preview } = await import('vite');
  const config = join(ROOT, 'bench/webgpu/vite.config.ts');
  await build({ configFile: config });
  const server = await preview({ configFile: config, preview: { port: 0, host: '127.0.0.1' } });
  const url = server.resolvedUrls?.local[0];
  const { chromium: pw } = await import('playwright-core');
  const extra = (process.env.LODKIT_CHROMIUM_FLAGS ?? '').split(' ').filter((s) => s);
  const browser = await pw.launch({
    executablePath: chromium, headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--enable-unsafe-webgpu', '--enable-webgpu-developer-features', ...extra],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') console.error(`[page] ${m.text()}`); });
    const q = new URLSearchParams();
    if (options.sizes) q.set('sizes', options.sizes.join(','));
    if (args.includes('--default-limits')) q.set('defaultLimits', '1');
    for (const k of ['frames', 'warmup', 'sample'] as const) if (options[k] !== undefined) q.set(k, String(options[k]));
    await page.goto(`${url}?${q}`);
    await page.waitForFunction(() => 'gpuBench' in window, undefined, { timeout: 1_800_000, polling: 1000 });
    return (await page.evaluate(() => (window as unknown as { gpuBench: unknown }).gpuBench)) as Outcome;
  } finally {
    await browser.close();
    await server.close();
  }
}

function inNode(): Promise<Outcome> {
  const env = dawnEnvironment();
  if (env.icd == null) return Promise.resolve({ ok: false, reason: env.reason });
  return new Promise((ok) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'node.js'), JSON.stringify({ ...options, defaultLimits: args.includes('--default-limits') })], { env: env.env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.on('close', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith('@@lodkit-gpu-bench '));
      ok(line ? (JSON.parse(line.slice('@@lodkit-gpu-bench '.length)) as Outcome) : { ok: false, reason: `the Node bench exited with code ${code} and no result` });
    });
  });
}

const t0 = performance.now();
const outcome = args.includes('--node') ? await inNode() : await inChromium();
if (args.includes('--json')) console.log(JSON.stringify(outcome, null, 2));
else if (outcome.ok) console.log(outcome.table);
else console.log(`WebGPU bench: no result: ${outcome.reason}`);
console.log(`\n(bench took ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(outcome.ok ? 0 : 1);
