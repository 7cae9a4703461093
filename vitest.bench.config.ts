import { defineConfig } from 'vitest/config';

/**
 * `npm run bench`: the benchmarks in bench/, one file at a time in one forked worker, printing their own tables.
 * `--expose-gc` lets a benchmark collect garbage between timed runs; the 100,000-message conversation needs the
 * larger heap.
 */
export default defineConfig({
  test: {
    include: ['bench/**/*.bench.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    execArgv: ['--expose-gc', '--max-old-space-size=6144'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    disableConsoleIntercept: true,
  },
});
