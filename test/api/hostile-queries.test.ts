import { hostileQuerySuite } from '../helpers/hostile.js';

// A few hundred here (a few seconds); the stress suite sends 5,000 (test/stress/hostile-queries.test.ts).
hostileQuerySuite(400, 120_000);
