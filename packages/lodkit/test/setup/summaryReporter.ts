/**
 * The suite's last lines: one plain count line (`tests: N passed, N failed, N skipped`), and when
 * tests were skipped, which files and the command that installs what they need, so a green run
 * without a browser does not read as a full one. Registered in the root vitest.config.ts after the
 * default reporter. Browser and GPU tests (e2e/, the report's Chromium check, Dawn in Node with
 * Chromium's SwiftShader driver) skip themselves when Debian's Chromium is missing; `.ci/run`
 * installs it, so CI never skips them.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export const CHROMIUM = '/usr/bin/chromium';
export const INSTALL_CHROMIUM = 'apt-get install -y chromium   (Debian/Ubuntu, as root; CI runs it in .ci/run)';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0, failed = 0, skipped = 0;
    const skippedIn = new Map<string, number>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else if (state === 'skipped') {
          skipped++;
          const file = relative(process.cwd(), module.moduleId);
          skippedIn.set(file, (skippedIn.get(file) ?? 0) + 1);
        }
      }
    }
    const lines: string[] = [''];
    if (skipped > 0) {
      lines.push(`SKIPPED ${skipped} test${skipped === 1 ? '' : 's'} in ${skippedIn.size} file${skippedIn.size === 1 ? '' : 's'}:`);
      for (const [file, n] of [...skippedIn].sort()) lines.push(`  ${file} (${n})`);
      if (!existsSync(CHROMIUM)) lines.push(`They need Debian's Chromium (${CHROMIUM} not found). Install it with: ${INSTALL_CHROMIUM}`);
    }
    lines.push(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
