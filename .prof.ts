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
for (let round = 0; round < 3; round++) {
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) await call('POST', `/v3/${project}/requests/${rid}/messages`, guest, { text: 'hi ' + i });
  console.log('sequential ms/post', ((performance.now() - t0) / 50).toFixed(2));
}
const svc = server.app.services;
const principal = await svc.auth.authenticate(guest);
const member = (await svc.teammates.membership(project, principal!))!;
const actor = { userId: member.id_user, fullname: 'V', member };
for (let round = 0; round < 2; round++) {
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) await svc.messages.post(project, actor, rid, { text: 'x' });
  console.log('service ms/post', ((performance.now() - t0) / 50).toFixed(2));
}
{
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) await svc.infra.eventLog.transaction(async (tx, emit) => { await emit({ projectId: project, name: 'x', subject: 'y' }); });
  console.log('bare eventlog tx ms', ((performance.now() - t0) / 50).toFixed(2));
}
{
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) await svc.infra.database.prisma.$transaction(async (tx) => { await tx.$executeRaw`SET LOCAL synchronous_commit TO off`; await tx.$executeRaw`UPDATE "Project" SET "ticketSeq" = "ticketSeq" WHERE id = ${project}`; });
  console.log('update tx async commit ms', ((performance.now() - t0) / 50).toFixed(2));
}
{
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) await svc.infra.database.prisma.$transaction(async (tx) => { await tx.$executeRaw`UPDATE "Project" SET "ticketSeq" = "ticketSeq" WHERE id = ${project}`; });
  console.log('update tx ms', ((performance.now() - t0) / 50).toFixed(2));
}
{
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) await svc.infra.database.prisma.$transaction(async (tx) => { await tx.$queryRaw`SELECT 1`; });
  console.log('bare tx ms', ((performance.now() - t0) / 50).toFixed(2));
}
{
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) await svc.infra.database.prisma.$queryRaw`SELECT 1`;
  console.log('select 1 ms', ((performance.now() - t0) / 50).toFixed(2));
}
const t1 = performance.now();
for (let i = 0; i < 50; i++) await call('GET', `/v3/auth/me`, guest);
console.log('GET me ms', ((performance.now() - t1) / 50).toFixed(2));
await server.close(); await env.drop();
