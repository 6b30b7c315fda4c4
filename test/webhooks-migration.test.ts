import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../src/infra/migrate.js';
import { emptyEmbeddedDatabase } from './helpers/data-dir.js';
import { productionMode } from './helpers/environment.js';

// Subscriptions made before deliveries stopped carrying the signing key: the migration keeps what
// their legacy receivers compare `x-hook-secret` with, and gives them a signing key nobody has seen.

const migration = '20261124174556_subscription_hook_secret';
let db: PGlite;

async function run(name: string) {
  await db.exec(await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8'));
}

// Mode-independent (one migration's SQL on the engine both modes share), so run in embedded mode only.
describe.skipIf(productionMode)(`migration ${migration}`, () => {
  beforeAll(async () => {
    db = await emptyEmbeddedDatabase();
    const earlier = (await readdir(migrationsDir, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name < migration).map((e) => e.name).sort();
    for (const name of earlier) await run(name);
    for (const [id, secret, previous] of [
      ['sub-a', 'whsec_c2lnbmVkIGFuZCBzZW50IGluIGV2ZXJ5IGRlbGl2ZXJ5', null],
      ['sub-b', 'whsec_YW5vdGhlciBzdWJzY3JpcHRpb24gb2YgdGhlIHNhbWU=', 'whsec_cm90YXRlZCBhd2F5IGJ1dCBzdGlsbCBzaWduaW5n'],
    ]) {
      await db.query(
        `INSERT INTO "Subscription" ("id", "id_project", "event", "target", "secret", "previousSecret", "previousSecretEnd", "createdBy", "updatedAt")
         VALUES ($1, 'p', 'lead.create', 'https://example.com/', $2, $3, $4, 'u', now())`,
        [id, secret, previous, previous ? new Date(Date.now() + 3_600_000) : null],
      );
    }
    await run(migration);
  });
  afterAll(() => db.close());

  it('keeps the old secret as the x-hook-secret value and replaces the signing key', async () => {
    const { rows } = await db.query<{ id: string; secret: string; hookSecret: string; previousSecret: string | null; previousSecretEnd: Date | null }>(
      'SELECT "id", "secret", "hookSecret", "previousSecret", "previousSecretEnd" FROM "Subscription" ORDER BY "id"',
    );
    expect(rows.map((r) => r.hookSecret)).toEqual(['whsec_c2lnbmVkIGFuZCBzZW50IGluIGV2ZXJ5IGRlbGl2ZXJ5', 'whsec_YW5vdGhlciBzdWJzY3JpcHRpb24gb2YgdGhlIHNhbWU=']);
    for (const row of rows) {
      expect(row.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(row.secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
      expect(row.secret).not.toBe(row.hookSecret);
      // A previous key had been sent in deliveries too: it signs no more.
      expect(row).toMatchObject({ previousSecret: null, previousSecretEnd: null });
    }
    expect(rows[0].secret).not.toBe(rows[1].secret);
  });

  it('makes the x-hook-secret value required', async () => {
    await expect(
      db.query(`INSERT INTO "Subscription" ("id", "id_project", "event", "target", "secret", "createdBy", "updatedAt") VALUES ('sub-c', 'p', 'lead.create', 'https://example.com/', 'whsec_x', 'u', now())`),
    ).rejects.toThrow(/hookSecret/);
  });
});
