import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
const g = globalThis as any;
beforeAll(async () => {
  if (!g.__profSession) {
    g.__profSession = new Session();
    g.__profSession.connect();
    await g.__profSession.post('Profiler.enable');
    await g.__profSession.post('Profiler.setSamplingInterval', { interval: 1000 });
  }
  await g.__profSession.post('Profiler.start');
});
afterAll(async () => {
  const { profile } = await g.__profSession.post('Profiler.stop');
  const name = (expect as any).getState?.().testPath ?? String(Math.random());
  writeFileSync(`/tmp/prof/${process.pid}-${Date.now()}-${name.split('/').pop()}.cpuprofile`, JSON.stringify(profile));
});
