import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over both packages (and lodkit's allocation probes, in processes of their own); each
// package's own vitest.config.ts sets its include, timeouts and the fast-check seed. The summary
// reporter prints the closing count line and what was skipped.
export default defineConfig({
  test: {
    projects: ['packages/lodkit', 'packages/lodkit/vitest.probes.config.ts', 'packages/cli', 'packages/react'],
    // At least two test files at a time: vitest's default (cores − 1) runs them one by one on a
    // 2-core machine, where the browser and GPU files spend much of their time waiting on Chromium,
    // Vite builds and child processes (quiet 2-core run: 339 s one at a time, 281 s two at a time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './packages/lodkit/test/setup/summaryReporter.ts'],
  },
});
