import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';
export default defineConfig({ ...base, test: { ...base.test, setupFiles: [...(base.test!.setupFiles as string[]), 'test/prof-setup.ts'] } });
