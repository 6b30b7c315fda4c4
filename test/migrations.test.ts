import { PrismaPGlite } from 'pglite-prisma-adapter';
import { describe, expect, it } from 'vitest';
import { pendingSchemaDiff } from '../src/infra/migrate.js';
import { emptyEmbeddedDatabase } from './helpers/data-dir.js';
import { productionMode } from './helpers/environment.js';

// Mode-independent (the migrations folder against schema.prisma), so run in embedded mode only;
// production mode applies the same migrations to PostgreSQL for its template database.
describe.skipIf(productionMode)('prisma/migrations', () => {
  it('take an empty database exactly to prisma/schema.prisma', async () => {
    const [pglite, shadow] = await Promise.all([emptyEmbeddedDatabase(), emptyEmbeddedDatabase()]);
    try {
      // The schema engine applies the migrations to its shadow database: one loaded from the
      // initdb image, as the adapter's own would run initdb again.
      const adapter = new PrismaPGlite(pglite);
      adapter.connectToShadowDb = () => new PrismaPGlite(shadow).connect();
      const sql = await pendingSchemaDiff(adapter);
      expect(sql.trim()).toMatch(/^(-- This is an empty migration\.)?$/);
    } finally {
      await Promise.all([pglite.close(), shadow.close()]);
    }
  });
});
