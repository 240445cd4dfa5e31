import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/sqlite.ts'],
    include: ['test/**/*.test.ts'],
    exclude: ['test/stress/**', '**/node_modules/**'],
    // Wide margins: the slowest test takes about 12 s on an idle 2-core machine, and CI may be busy.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
