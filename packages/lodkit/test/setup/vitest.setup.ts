// Per test file: fast-check's seed (fastCheckSeed.ts).
import { configureFastCheck } from './fastCheckSeed.js';

configureFastCheck();
