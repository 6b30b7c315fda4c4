import pg from 'pg';
const counts = new Map<string, number>(); let total = 0; let on = false;
const orig = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: any, ...args: any[]) { if (on) { total++; const q = typeof args[0] === 'string' ? args[0] : args[0]?.text; const k = String(q).replace(/\s+/g, ' ').slice(0, 110); counts.set(k, (counts.get(k) ?? 0) + 1); } return (orig as any).apply(this, args); } as any;
const { startServer } = await import('./src/server.ts');
const { productionConfig } = await import('./bench/environment.ts');
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
const g = (await call('POST', '/v3/auth/signinAnonymously', undefined, { id_project: project, firstname: 'V' })).token;
await call('POST', `/v3/${project}/requests/support-group-p1/messages`, g, { text: 'hi' });
await new Promise((r) => setTimeout(r, 1000));
on = true;
for (let k = 0; k < 10; k++) await call('POST', `/v3/${project}/requests/support-group-p1/messages`, g, { text: 'hello there' });
on = false;
console.log('queries per post', total / 10);
console.log([...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v / 10} ${k}`).join('\n'));
await server.close(); await env.drop();
