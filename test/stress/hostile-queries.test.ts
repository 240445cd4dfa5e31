import { afterAll } from 'vitest';
import { hostileQuerySuite } from '../helpers/hostile.js';
import { count } from './counters.js';

// 5,000 requests took 48 to 62 s alone on 2 cores; the timeout leaves a wide margin for a busy machine.
const RUNS = 5000;
hostileQuerySuite(RUNS, 600_000);
afterAll(() => count({ requests: RUNS }));
