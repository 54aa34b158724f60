import { defineConfig } from 'vitest/config';

// One run over both packages (and lodkit's allocation probes, in processes of their own); each
// package's own vitest.config.ts sets its include, timeouts and the fast-check seed. The summary
// reporter prints the closing count line and what was skipped.
export default defineConfig({
  test: {
    projects: ['packages/lodkit', 'packages/lodkit/vitest.probes.config.ts', 'packages/cli'],
    reporters: ['default', './packages/lodkit/test/setup/summaryReporter.ts'],
  },
});
