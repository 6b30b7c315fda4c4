import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One copy of graphql-js: Node resolves `graphql` to its CommonJS build for dependencies,
  // so the tests must use the same one.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    // Each run leaves its report for `npm run figures` (src/cli/figures.ts), by mode and part.
    reporters: ['default', 'json'],
    outputFile: { json: `test/artifacts/suite-${process.env.DATABASE_URL ? 'production' : 'embedded'}${process.argv.includes('test/e2e') ? '-e2e' : ''}.json` },
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Each worker imports the app's modules once for all the files it runs, instead of once a file
    // (importing was about 40% of the suite). Files share no state through them: each builds its
    // own app on its own database (see helpers/app.ts), and none mocks a module.
    isolate: false,
    // Two cores: more workers only contend for them.
    maxWorkers: 2,
    // Migrates once (a database image, or a PostgreSQL template database) for every app to copy.
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/setup-file.ts'],
  },
});
