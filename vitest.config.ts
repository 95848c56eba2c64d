import { defineConfig } from 'vitest/config';

/**
 * Test files that replace a module with vi.mock: they need a module graph of their own, since in a shared
 * one the module is already loaded (unmocked) by the files run before them.
 */
const mocking = ['test/agents/transport-room.test.ts'];

// Two cores in CI: keep the pool small and the timeouts generous for the game-playing suites.
const common = { pool: 'forks', testTimeout: 120_000 } as const;

export default defineConfig({
  test: {
    // once for the run (a project that extended the root config would run it again, nesting TMPDIR)
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: 2,
    ...common,
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: mocking,
          // The files of a worker share one module graph: loading the engine afresh for each of the ~200
          // files was about a third of the suite's time (vitest's "import"). The engine keeps nothing between
          // games but caches keyed by their inputs (a batch worker plays its games in one module graph too)
          // and the rules registry, which tests extend only with rules of their own names;
          // `npx vitest run --sequence.shuffle.files` checks that no file depends on the order.
          isolate: false,
        },
      },
      { test: { ...common, name: 'isolated', include: mocking } },
    ],
  },
});
