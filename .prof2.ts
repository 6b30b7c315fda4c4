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
const guest = (await call('POST', '/v3/auth/signinAnonymously', undefined, { id_project: project, firstname: 'V' })).token;
const rid = 'support-group-prof-1';
await call('POST', `/v3/${project}/requests/${rid}/messages`, guest, { text: 'hi' });
const time = async (label: string, f: () => Promise<unknown>) => { const t0 = performance.now(); for (let i = 0; i < 40; i++) await f(); console.log(label, ((performance.now() - t0) / 40).toFixed(2)); };
for (let r = 0; r < 2; r++) {
await time('POST message', () => call('POST', `/v3/${project}/requests/${rid}/messages`, guest, { text: 'hi' }));
await time('GET messages?limit=1', () => call('GET', `/v3/${project}/requests/${rid}/messages?limit=1`, guest));
await time('GET request (owner)', () => call('GET', `/v3/${project}/requests/${rid}`, owner));
await time('GET project_users', () => call('GET', `/v3/${project}/project_users`, owner));
await time('gql sendMessage id only', () => call('POST', `/graphql`, guest, { query: `mutation { sendMessage(project_id: "${project}", request_id: "${rid}", text: "x") { _id } }` }));
}
await server.close(); await env.drop();
