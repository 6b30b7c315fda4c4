import { startServer } from './src/server.ts';
import { productionConfig } from './bench/environment.ts';
const env = await productionConfig({ RUN_WORKERS: 'true' });
const server = await startServer(env.config);
const base = server.url;
async function call(method: string, path: string, token?: string, payload?: unknown) {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) }, body: payload === undefined ? undefined : JSON.stringify(payload) });
  return res.json() as any;
}
await call('POST', '/v3/auth/signup', undefined, { email: 'a@b.co', password: 'bench password' });
const owner = (await call('POST', '/v3/auth/signin', undefined, { email: 'a@b.co', password: 'bench password' })).token;
const project = (await call('POST', '/v3/projects', owner, { name: 'B' }))._id;
const guests = [];
for (let i = 0; i < 16; i++) { const g = (await call('POST', '/v3/auth/signinAnonymously', undefined, { id_project: project, firstname: 'V' })).token; await call('POST', `/v3/${project}/requests/support-group-p${i}/messages`, g, { text: 'hi' }); guests.push(g); }
const t0 = performance.now(); let n = 0;
await Promise.all(guests.map(async (g, i) => { for (let k = 0; k < 40; k++) { await call('POST', `/v3/${project}/requests/support-group-p${i}/messages`, g, { text: 'hello there' }); n++; } }));
console.log('posts/s', (n / ((performance.now() - t0) / 1000)).toFixed(1), 'cpu', process.cpuUsage());
await server.close(); await env.drop();
