import { defineConfig } from 'vitest/config';

// `npm run test:stress`: load, crash safety, faults and abuse, one file at a time (they load the machine).
export default defineConfig({
  test: {
    setupFiles: ['test/helpers/sqlite.ts'],
    include: ['test/stress/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default', './test/stress/reporter.ts'],
  },
});
