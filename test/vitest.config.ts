import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One copy of graphql-js: Node resolves `graphql` to its CommonJS build for dependencies,
  // so the tests must use the same one.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
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
