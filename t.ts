import { loadConfig } from './src/config.ts';
import { createInfrastructure } from './src/infra/index.ts';
import { buildApp } from './src/app.ts';
const config = loadConfig({ DATA_DIR: '/tmp/spx', LOG_LEVEL: 'warn' });
const infra = await createInfrastructure(config, { inMemory: true });
const app = buildApp(infra);
const r = await app.yoga.fetch('http://localhost/v3/auth/signup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@b.co', password: 'password1' }) });
console.log(r.status, await r.text());
await infra.close();
