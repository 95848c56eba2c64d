import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Two cores in CI: keep the pool small and the timeouts generous for the game-playing suites.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
  },
});
