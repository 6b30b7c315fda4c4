// Foundation benchmark: authenticated GET /v3/projects/:id (REST) and the same data through
// GraphQL, against a bare node:http server answering the same JSON from the same database (one
// SELECT per call). Production mode (PostgreSQL + Redis), the lean load generator (bench/http-load.ts,
// or wrk when installed). Targets: cached REST and GraphQL each at least 40% of the baseline; a
// read that must query (project cache off) at least 60%; every cache off at least 30%.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { startServer } from '../src/server.js';
import { productionConfig } from './environment.js';
import { httpLoad, printTable } from './lib.js';

const connections = 32;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const tool = 'wrk' as const;

export default async function bench() {
  const env = await productionConfig();
  const running = await startServer(env.config);
  const baseline = await startBaseline(env.databaseUrl);
  try {
    const post = (path: string, body: unknown, token?: string) =>
      fetch(`${running.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    await post('/v3/auth/signup', { email: 'bench@example.test', password: 'bench password' });
    const { token } = await post('/v3/auth/signin', { email: 'bench@example.test', password: 'bench password' });
    const project = await post('/v3/projects', { name: 'Bench' }, token);

    const base = await httpLoad({ url: `${baseline.url}/projects/${project._id}`, connections, seconds, tool });
    const rest = await httpLoad({
      url: `${running.url}/v3/projects/${project._id}`,
      headers: { authorization: token },
      connections,
      seconds,
      tool,
    });
    const graphqlCall = {
      url: `${running.url}/graphql`,
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `query($id: String!) { project(project_id: $id) { _id id name activeOperatingHours operatingHours settings widget profile channels { name } status versions createdBy createdAt updatedAt revision } }`,
        variables: { id: project._id },
      }),
    };
    // A query the schema refuses still answers 200 with `errors`: measure only one that runs.
    const probe = (await (await fetch(graphqlCall.url, graphqlCall)).json()) as { errors?: unknown[] };
    if (probe.errors) throw new Error(`the benched GraphQL query fails: ${JSON.stringify(probe.errors)}`);
    const graphql = await httpLoad({ ...graphqlCall, connections, seconds, tool });
    // The same REST read on other nodes of the same database: without the project cache
    // (PROJECT_CACHE_MS=0: one query per call, as the baseline makes), and with every cache off
    // (account with its token's revocation, then membership with its project: two statements).
    const node = async (overrides: Partial<typeof env.config>) => {
      const other = await startServer({ ...env.config, ...overrides });
      return httpLoad({ url: `${other.url}/v3/projects/${project._id}`, headers: { authorization: token }, connections, seconds, tool }).finally(
        () => other.close(),
      );
    };
    const restOneQuery = await node({ projectCacheMs: 0 });
    const restUncached = await node({ projectCacheMs: 0, authCacheMs: 0 });
    const ratio = (r: { throughput: number }) => `${Math.round((r.throughput / base.throughput) * 100)}%`;
    const verdict = (what: string, r: { throughput: number }, target: number) =>
      `${what}: ${ratio(r)} of the baseline (target: at least ${target * 100}%) ${r.throughput / base.throughput >= target ? 'PASS' : 'FAIL'}`;
    printTable(`GET project, ${connections} connections, ${seconds}s each`, [
      { path: 'baseline node:http + pg', ...base, ratio: '100%' },
      { path: 'REST GET /v3/projects/:id', ...rest, ratio: ratio(rest) },
      { path: 'GraphQL project(project_id)', ...graphql, ratio: ratio(graphql) },
      { path: 'REST, project cache off (1 query)', ...restOneQuery, ratio: ratio(restOneQuery) },
      { path: 'REST, all caches off (2 statements)', ...restUncached, ratio: ratio(restUncached) },
    ]);
    console.log(verdict('REST', rest, 0.4));
    console.log(verdict('GraphQL', graphql, 0.4));
    console.log(verdict('REST, project cache off', restOneQuery, 0.6));
    console.log(verdict('REST, every cache off', restUncached, 0.3));
  } finally {
    await baseline.close();
    await running.close();
    await env.drop();
  }
}

/** One query, the same REST shape, no framework, no authentication. */
async function startBaseline(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  const server = createServer(async (req, res) => {
    const id = req.url!.split('/')[2];
    const { rows } = await pool.query('SELECT * FROM "Project" WHERE id = $1', [id]);
    const p = rows[0];
    const body = JSON.stringify({
      _id: p.id,
      id: p.id,
      name: p.name,
      activeOperatingHours: p.activeOperatingHours,
      operatingHours: p.operatingHours ? JSON.stringify(p.operatingHours) : null,
      settings: p.settings,
      widget: p.widget,
      profile: p.profile,
      channels: p.channels,
      status: p.status,
      versions: p.v,
      createdBy: p.createdBy,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      __v: p.v,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}
