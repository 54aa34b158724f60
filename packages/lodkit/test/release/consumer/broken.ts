// Negative control for typescript.test.ts: a real type error against lodkit's .d.ts files, so the
// test proves the checker reads them (a checker that ignored lodkit would pass main.ts too).
import { LodThresholds } from 'lodkit';

export const wrong: LodThresholds = new LodThresholds({ metric: 'pixels', thresholds: 'not a list' });
