import { defineConfig } from 'vitest/config';

// One run over both packages; each package's own vitest.config.ts sets its include, timeouts and
// the fast-check seed. The summary reporter prints the closing count line and what was skipped.
export default defineConfig({
  test: {
    projects: ['packages/lodkit', 'packages/cli'],
    reporters: ['default', './packages/lodkit/test/setup/summaryReporter.ts'],
  },
});
