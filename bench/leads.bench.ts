// Lead lists over 10,000 leads in one project: filtered, sorted and paginated REST calls with an
// owner JWT, over real HTTP, production mode (PostgreSQL + Redis). Target: p99 < 50 ms at 16
// concurrent connections for every list.
import { startServer } from '../src/server.js';
import { productionConfig } from './environment.js';
import { httpLoad, loadTool, postgresCpuMs, printTable } from './lib.js';

const leadCount = 10_000;
const connections = 16;
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const targetP99Ms = 50;
// wrk where installed, else bench/http-load.ts (both take far less of the machine's CPU per request
// than autocannon, CPU the server and PostgreSQL share with them here); BENCH_LOAD_TOOL=autocannon
// or node to compare.
const tool = (['autocannon', 'node'] as const).find((name) => name === process.env.BENCH_LOAD_TOOL) ?? 'wrk';

const firstNames = ['Ada', 'Bruno', 'Carla', 'Dario', 'Elena', 'Franco', 'Giulia', 'Hugo', 'Irene', 'Jonas', 'Katia', 'Luca'];
const lastNames = ['Rossi', 'Bianchi', 'Verdi', 'Neri', 'Smith', 'Jones', 'Müller', 'Dupont', 'Garcia', 'Kowalski'];
const companies = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Tyrell'];
const cities = ['Rome', 'Milan', 'Paris', 'Berlin', 'Madrid', 'London', null];
const tagPool = ['vip', 'eu', 'us', 'trial', 'churned', 'newsletter'];
const plans = ['free', 'pro', 'enterprise'];

/** Deterministic spread of realistic leads over the last year. */
function leadRow(projectId: string, createdBy: string, i: number) {
  const pick = <T>(list: T[], salt: number) => list[(i * 7919 + salt * 104_729) % list.length];
  const first = pick(firstNames, 1);
  const last = pick(lastNames, 2);
  const company = pick(companies, 3);
  const createdAt = new Date(Date.now() - ((i * 3_156_000) % 31_536_000_000));
  return {
    id_project: projectId,
    lead_id: `ext-${i}`,
    fullname: `${first} ${last} ${i}`,
    email: `${first}.${last}.${i}@${company.toLowerCase()}.test`.toLowerCase(),
    company,
    city: pick(cities, 4),
    tags: tagPool.filter((_, k) => (i >> k) % 3 === 0),
    attributes: { plan: pick(plans, 5), age: 18 + (i % 60), visits: i % 250 },
    createdBy,
    createdAt,
    updatedAt: createdAt,
  };
}

export default async function bench() {
  const env = await productionConfig();
  const running = await startServer(env.config);
  try {
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${running.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    await call('POST', '/v3/auth/signup', { email: 'owner@bench.test', password: 'bench password' });
    const { token, user } = await call('POST', '/v3/auth/signin', { email: 'owner@bench.test', password: 'bench password' });
    const project = await call('POST', '/v3/projects', { name: 'Leads bench' }, token);

    // Seeded straight into the table: the benchmark measures reads, not 10,000 creates.
    const db = running.app.infra.database.prisma;
    for (let start = 0; start < leadCount; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, leadCount - start) }, (_, k) => leadRow(project._id, user._id, start + k));
      await db.lead.createMany({ data: rows });
    }
    // What autovacuum does after a bulk load (this machine's PostgreSQL runs with it off): statistics,
    // and the visibility map that lets counts read indexes without visiting every row.
    await db.$executeRawUnsafe('VACUUM ANALYZE "Lead"');

    const segment = await call(
      'POST',
      `/v3/${project._id}/segments`,
      {
        name: 'Engaged pros',
        match: 'all',
        filters: [
          { field: 'attributes.plan', operator: 'in', value: ['pro', 'enterprise'] },
          { field: 'attributes.visits', operator: '>=', value: 100 },
          { field: 'city', operator: 'is not null' },
        ],
      },
      token,
    );

    // Part of a real address ("first.last.43" of lead 4321): it matches a handful of leads.
    const sampleEmail = leadRow(project._id, user._id, 4321).email.split('@')[0].slice(0, -2);
    const base = `${running.url}/v3/${project._id}/leads`;
    const scenarios: Array<[string, string]> = [
      ['newest first, page 0', ''],
      ['by name ascending, page 100', '?sortField=fullname&direction=1&page=100'],
      ['by company, 100 per page, page 50', '?sortField=company&limit=100&page=50'],
      ['email search', `?email=${encodeURIComponent(sampleEmail)}`],
      ['full_text, two words', '?full_text=carla%20acme&sortField=updatedAt'],
      ['tags vip+eu, page 3', '?tags=vip,eu&page=3'],
      ['segment (attributes in, >=; city not null)', `?segment=${segment._id}&sortField=fullname&direction=1&page=2`],
    ];

    // CPU per request, of the server process and of its database backends, over the whole load run
    // (warm-up included): unlike latencies, it hardly moves when other work shares the machine.
    const database = new URL(env.databaseUrl).pathname.slice(1);
    let served = 0;
    running.server.on('request', () => served++);
    const measured = async (url: string) => {
      const [cpu, pg, before] = [process.cpuUsage(), postgresCpuMs(database), served];
      const result = await httpLoad({ url, headers: { authorization: token }, connections, seconds, tool });
      const requests = Math.max(1, served - before);
      const used = process.cpuUsage(cpu);
      const pgAfter = postgresCpuMs(database);
      return {
        ...result,
        'server cpu/req': Math.round(((used.user + used.system) / 1000 / requests) * 100) / 100,
        'db cpu/req': pg === null || pgAfter === null ? '-' : Math.round(((pgAfter - pg) / requests) * 100) / 100,
      };
    };

    // The cost of any authenticated REST read on this machine now, to read the figures against.
    const floor = await measured(`${running.url}/v3/projects/${project._id}`);
    const rows: Array<Record<string, unknown>> = [{ list: 'reference: GET /v3/projects/:id', matches: '-', ...floor, target: '-' }];
    for (const [name, query] of scenarios) {
      const count = (await call('GET', `/v3/${project._id}/leads${query}`, undefined, token)).count;
      const result = await measured(`${base}${query}`);
      rows.push({ list: name, matches: count, ...result, target: result.p99 < targetP99Ms ? 'met' : 'MISSED' });
    }
    printTable(`GET /v3/:project_id/leads over ${leadCount} leads, ${connections} connections, ${seconds}s each, load from ${await loadTool({ tool })} (latencies and CPU in ms)`, rows);
  } finally {
    await running.close();
    await env.drop();
  }
}
