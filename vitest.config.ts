import { defineConfig } from 'vitest/config';

// One run over both packages; each package's own vitest.config.ts sets its include and timeouts.
export default defineConfig({
  test: { projects: ['packages/lodkit', 'packages/cli'] },
});
