import base from './vitest.config.ts';
import { defineConfig } from 'vitest/config';
export default defineConfig({ ...base, test: { ...base.test, setupFiles: [...(base.test!.setupFiles as string[]), 'test/sql-setup.ts'] } });
