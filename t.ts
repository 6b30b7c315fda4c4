import { startServer } from './src/server.ts';
import { productionConfig } from './bench/environment.ts';
import { runLoad } from './bench/lib.ts';
const env = await productionConfig();
const running = await startServer(env.config);
const post = (path: string, body: unknown, token?: string) => fetch(`${running.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body) }).then((r) => r.json());
await post('/v3/auth/signup', { email: 'bench@example.test', password: 'bench password' });
const { token } = await post('/v3/auth/signin', { email: 'bench@example.test', password: 'bench password' });
const project = await post('/v3/projects', { name: 'Bench' }, token);
const mode = process.argv[2];
const task = mode === 'gql'
  ? () => running.app.yoga.fetch(`http://localhost/graphql`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ query: `query($id: String!) { project(project_id: $id) { _id name settings } }`, variables: { id: project._id } }) }).then((r) => r.text()).then(() => {})
  : () => running.app.yoga.fetch(`http://localhost/v3/projects/${project._id}`, { headers: { authorization: token } }).then((r) => r.text()).then(() => {});
console.log(mode, await runLoad({ concurrency: 16, durationMs: 5000, warmupMs: 1000, task }));
const db = running.app.infra.database.prisma;
console.log('prisma only', await runLoad({ concurrency: 16, durationMs: 3000, task: async () => { await db.project.findUnique({ where: { id: project._id } }); } }));
await running.close(); await env.drop();
