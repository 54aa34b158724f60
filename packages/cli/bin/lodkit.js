#!/usr/bin/env node
// The `lodkit` command. A committed launcher rather than a file in dist/, so that npm links the bin
// on a fresh clone even before the first build.
import { runProcess } from '../dist/tools/cli/main.js';

await runProcess();
