import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { describe, expect, it } from 'vitest';
import { pendingSchemaDiff } from '../src/infra/migrate.js';

describe('prisma/migrations', () => {
  it('take an empty database exactly to prisma/schema.prisma', async () => {
    const pglite = await PGlite.create({ extensions: { vector } });
    try {
      const sql = await pendingSchemaDiff(new PrismaPGlite(pglite));
      expect(sql.trim()).toMatch(/^(-- This is an empty migration\.)?$/);
    } finally {
      await pglite.close();
    }
  });
});
