import { defineConfig } from 'prisma/config';

// The CLI is used only for `prisma generate`; migrations run through the
// WebAssembly schema engine (src/infra/migrate.ts), which needs no download.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
