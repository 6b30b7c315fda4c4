import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Two cores: more workers only contend for them.
    maxWorkers: 2,
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
