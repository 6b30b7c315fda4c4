import { execFileSync } from 'node:child_process';

// The generated Prisma client must match prisma/schema.prisma before any test imports it.
export default function setup() {
  execFileSync('npx', ['prisma', 'generate', '--no-hints'], {
    stdio: 'ignore',
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? 'package.json' },
  });
}
