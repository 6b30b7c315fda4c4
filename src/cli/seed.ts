// `npm run seed -- --conversations N --messages M --agents A --leads L --months K`: a big project
// written straight into the database (DATABASE_URL, else the embedded one under DATA_DIR; the
// server must not be running on the embedded one), in batched INSERT ... SELECT statements, not
// through HTTP. Its shapes are a support team's: a Zipf vocabulary (a few words in most messages),
// conversations opened in working hours on weekdays, most of them short and a few very long, tags,
// ratings, assignments and closes. What the app derives is kept: the event log (request.create,
// message.create and request.close in per-project sequence, the project's `eventSeq`), ticket
// numbers (`ticketSeq`), the agents' open-request counts, the event consumers' cursors (at the
// end of the seeded log for every consumer the server runs, so none replays a year), and the search
// vectors (generated columns). Prints the project's id, the owner's and agents' sign-in, and the
// rates. Flags: --project-name, --password (every seeded teammate's, default "seed password 1").
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { loadConfig } from '../config.js';
import { buildApp } from '../app.js';
import { openDatabase } from '../infra/database.js';
import { createInfrastructure } from '../infra/index.js';
import { createLogger } from '../infra/logger.js';
import { cuid as newId } from '../infra/ids.js';
import { eventConsumersOf } from '../../workers/jobs.js';
import { snapshotAgents } from '../modules/requests/service.js';

const flags = parseFlags(process.argv.slice(2));
const conversations = flags.int('conversations', 20_000);
const messages = flags.int('messages', 200_000);
const agents = flags.int('agents', 20);
const leads = flags.int('leads', 10_000);
const months = flags.int('months', 12);
const projectName = flags.string('project-name', `Seeded ${conversations} conversations`);
const password = flags.string('password', 'seed password 1');
const batchSize = flags.int('batch', 50_000);

// Words of a shop's support, most common first: word k is drawn with a chance about 1/k (Zipf).
const vocabulary = (
  'order the my i you to a is and it refund parcel delivery please thanks hello help not have can ' +
  'when where was for on with account payment invoice card address password change cancel return ' +
  'exchange size colour broken damaged missing late tracking courier number email login reset ' +
  'subscription plan upgrade discount coupon price charge twice week today tomorrow yesterday store ' +
  'app website checkout basket item product stock available warranty repair replacement receipt ' +
  'shipping international customs fee express standard weekend monday friday morning evening phone ' +
  'call chat agent manager complaint review rating gift voucher balance bank transfer paypal ' +
  'apple google error page button screen update version install download shoes jacket shirt dress ' +
  'trousers bag watch laptop charger cable battery screen headphones speaker camera lens kettle ' +
  'blender vacuum mattress pillow sofa table chair lamp curtain rug towel'
).split(' ');
const tagNames = ['billing', 'shipping', 'returns', 'vip', 'bug', 'complaint', 'feedback', 'urgent'];
const firstNames = ['Ann', 'Bob', 'Carla', 'Dev', 'Eli', 'Fatima', 'Goran', 'Hana', 'Ivan', 'Jun', 'Kemi', 'Luis', 'Mia', 'Noor', 'Omar', 'Pia'];
const lastNames = ['Smith', 'Rossi', 'Müller', 'García', 'Kowalski', 'Nguyen', 'Okafor', 'Silva', 'Tanaka', 'Dubois', 'Novak', 'Berg'];

const sqlArray = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`;

const config = loadConfig();
const logger = createLogger('warn');
const consumers = await consumerNames();
const database = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2, pgliteDir: path.join(config.dataDir, 'db'), logger });
const db = database.prisma;
const run = (sql: string) => db.$executeRawUnsafe(sql);
const started = performance.now();
const step = async (label: string, work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
};

const projectId = newId();
const ownerId = newId();
const stamp = Date.now().toString(36);
const hash = bcrypt.hashSync(password, config.bcryptRounds);
const agentIds = Array.from({ length: agents }, () => newId());
const departmentId = newId();

await step('project, owner, agents, department', async () => {
  await run(`INSERT INTO "User" ("id", "email", "password", "firstname", "lastname", "emailverified", "updatedAt")
    VALUES ('${ownerId}', 'seed.owner.${stamp}@example.test', '${hash}', 'Owner', 'Seeded', true, now())`);
  await run(`INSERT INTO "Project" ("id", "name", "createdBy", "updatedAt", "profile")
    VALUES ('${projectId}', '${projectName.replace(/'/g, "''")}', '${ownerId}', now(), '{"name":"free","type":"free","agents":0,"trialDays":0}')`);
  await run(`INSERT INTO "ProjectUser" ("id", "id_project", "id_user", "role", "createdBy", "updatedAt")
    VALUES ('${newId()}', '${projectId}', '${ownerId}', 'owner', '${ownerId}', now())`);
  await run(`INSERT INTO "Department" ("id", "id_project", "name", "routing", "default", "createdBy", "updatedAt")
    VALUES ('${departmentId}', '${projectId}', 'Default Department', 'assigned', true, '${ownerId}', now())`);
  await run(`INSERT INTO "User" ("id", "email", "password", "firstname", "lastname", "emailverified", "updatedAt")
    SELECT a.id, 'seed.agent' || a.n || '.${stamp}@example.test', '${hash}',
      (${sqlArray(firstNames)})[1 + a.n % ${firstNames.length}], (${sqlArray(lastNames)})[1 + a.n % ${lastNames.length}], true, now()
    FROM unnest(${sqlArray(agentIds)}) WITH ORDINALITY AS a(id, n)`);
  await run(`INSERT INTO "ProjectUser" ("id", "id_project", "id_user", "role", "createdBy", "updatedAt")
    SELECT 'pu-' || a.id, '${projectId}', a.id, 'agent', '${ownerId}', now() FROM unnest(${sqlArray(agentIds)}) AS a(id)`);
});

// What a request's snapshot lists of the agents available when it opened (as the API writes it).
const snapshotAgentsJson = JSON.stringify(
  agentIds.slice(0, snapshotAgents).map((id, i) => ({ id_user: id, project_user_id: `pu-${id}`, firstname: firstNames[(i + 1) % firstNames.length], lastname: lastNames[(i + 1) % lastNames.length] })),
);

// Seeded rows' ids are the project's id and a number, so later statements find them by range.
await step(`${leads.toLocaleString('en')} leads`, () =>
  run(`INSERT INTO "Lead" ("id", "id_project", "lead_id", "email", "fullname", "company", "createdBy", "createdAt", "updatedAt")
    SELECT '${projectId}-l' || i, '${projectId}', 'seed-visitor-' || i, 'lead' || i || '@example.test',
      (${sqlArray(firstNames)})[1 + i % ${firstNames.length}] || ' ' || (${sqlArray(lastNames)})[1 + (i / ${firstNames.length}) % ${lastNames.length}],
      CASE WHEN i % 5 = 0 THEN 'Company ' || (i % 997) END, 'seed',
      now() - random() * interval '${months} months', now()
    FROM generate_series(1, ${leads}) AS i`),
);

// A conversation opens on a day of the window (weekdays three times as likely), in working hours
// (a bell around 11:00 and 15:00), by a lead drawn with a skew (some contacts come back often).
// Older than two days: 85% closed. Open ones: 70% served by an agent, the rest waiting.
await step(`${conversations.toLocaleString('en')} conversations`, async () => {
  for (let from = 1; from <= conversations; from += batchSize) {
    const to = Math.min(conversations, from + batchSize - 1);
    await run(`
      INSERT INTO "Request" ("id", "id_project", "request_id", "ticket_id", "first_text", "status", "departmentId", "leadId",
        "requester_id", "participants", "participatingAgents", "tags", "rating", "rating_message", "waiting_time",
        "assigned_at", "first_response_at", "closed_at", "closed_by", "assignment_reason", "snapshot", "createdBy", "createdAt", "updatedAt")
      SELECT '${projectId}-r' || i, '${projectId}', 'support-group-seed-${stamp}-' || i, i, '', status, '${departmentId}',
        '${projectId}-l' || lead, 'seed-visitor-' || lead,
        CASE WHEN agent IS NULL THEN '{}' ELSE ARRAY[agent] END, CASE WHEN agent IS NULL THEN '{}' ELSE ARRAY[agent] END,
        CASE WHEN random() < 0.3 THEN jsonb_build_array(jsonb_build_object('tag', (${sqlArray(tagNames)})[1 + floor(random() * ${tagNames.length})::int], 'color', '#43B1F2'))
             ELSE '[]'::jsonb END,
        CASE WHEN status = 1000 AND random() < 0.25 THEN 1 + floor(random() * 5) END, NULL,
        CASE WHEN agent IS NOT NULL THEN 20000 + random() * 600000 END,
        CASE WHEN agent IS NOT NULL THEN at + interval '5 seconds' END,
        CASE WHEN agent IS NOT NULL THEN at + interval '1 minute' END,
        CASE WHEN status = 1000 THEN at + interval '30 minutes' + random() * interval '3 hours' END,
        CASE WHEN status = 1000 THEN agent END,
        CASE WHEN agent IS NOT NULL THEN 'least_loaded' ELSE 'no_agent_available' END,
        jsonb_build_object('lead', jsonb_build_object('id', '${projectId}-l' || lead, 'fullname', 'Lead ' || lead, 'email', 'lead' || lead || '@example.test'),
          'agents', '${snapshotAgentsJson}'::jsonb, 'availableAgentsCount', ${agents}),
        'seed-visitor-' || lead, at, at
      FROM (
        SELECT i, at, lead,
          CASE WHEN at < now() - interval '2 days' AND random() < 0.85 THEN 1000 WHEN random() < 0.7 THEN 200 ELSE 100 END AS status,
          (${sqlArray(agentIds)})[1 + floor(${agents} * power(random(), 1.5))::int] AS agent0
        FROM (
          SELECT i, 1 + floor(${leads} * power(random(), 2))::int AS lead,
            least(now() - interval '1 minute', date_trunc('day', now() - (d.day || ' days')::interval)
              + (7 + floor(random() * 5) + floor(random() * 6)) * interval '1 hour' + random() * interval '1 hour') AS at
          FROM generate_series(${from}, ${to}) AS i,
            LATERAL (SELECT CASE WHEN extract(isodow FROM now() - (x || ' days')::interval) < 6 OR random() < 0.33 THEN x
                                 ELSE greatest(0, x - 2) END AS day
                     FROM (SELECT floor(random() * ${months * 30.4})::int + i * 0 AS x) AS r) AS d
        ) AS opened
      ) AS c,
      LATERAL (SELECT CASE WHEN c.status = 100 THEN NULL ELSE c.agent0 END AS agent) AS a`);
  }
  // Ticket numbers follow the order the conversations opened in.
  await run(`UPDATE "Request" r SET "ticket_id" = -o.n FROM (
      SELECT id, row_number() OVER (ORDER BY "createdAt", id) AS n FROM "Request" WHERE "id_project" = '${projectId}') o
    WHERE r.id = o.id`);
  await run(`UPDATE "Request" SET "ticket_id" = -"ticket_id" WHERE "id_project" = '${projectId}'`);
});

// Message g goes to conversation floor(N * u^3) (u uniform, fixed by g): a few conversations get
// thousands of messages, most get a handful. Within its conversation a message's time grows with g,
// from the opening to its close (or now). Its text: 3 to 14 words, word k drawn with a chance
// about 1/k. Visitors and agents take turns by parity.
await step(`${messages.toLocaleString('en')} messages`, async () => {
  for (let from = 1; from <= messages; from += batchSize) {
    const to = Math.min(messages, from + batchSize - 1);
    const t0 = performance.now();
    await run(`
      INSERT INTO "Message" ("id", "id_project", "request_id", "sender", "senderFullname", "recipient", "text", "createdBy", "createdAt", "updatedAt")
      SELECT '${projectId}-m' || g, '${projectId}', r."request_id",
        CASE WHEN g % 2 = 0 OR r."participatingAgents" = '{}' THEN r."requester_id" ELSE r."participatingAgents"[1] END, '',
        r."request_id",
        array_to_string(ARRAY(SELECT (${sqlArray(vocabulary)})[floor(exp(random() * ln(${vocabulary.length})))::int]
                              FROM generate_series(1, 3 + (g * 7) % 12) AS k WHERE k > 0 AND g > 0), ' '),
        CASE WHEN g % 2 = 0 OR r."participatingAgents" = '{}' THEN r."requester_id" ELSE r."participatingAgents"[1] END,
        r."createdAt" + (coalesce(r."closed_at", now()) - r."createdAt") * (g::float8 / ${messages + 1}), now()
      FROM generate_series(${from}, ${to}) AS g
      JOIN "Request" r ON r."id" = '${projectId}-r' || (1 + floor(${conversations} * power(abs(hashint4(g)::float8) / 2147483648.0, 3))::int)`);
    if (to === messages || (to / batchSize) % 10 === 0) console.log(`  messages ${to.toLocaleString('en')}: ${(((to - from + 1) / (performance.now() - t0)) * 1000).toFixed(0)}/s in the last batch`);
  }
  // A conversation's first text is its first message's.
  await run(`UPDATE "Request" r SET "first_text" = m."text" FROM (
      SELECT DISTINCT ON ("request_id") "request_id", "text" FROM "Message" WHERE "id_project" = '${projectId}' ORDER BY "request_id", "createdAt") m
    WHERE r."id_project" = '${projectId}' AND r."request_id" = m."request_id"`);
});

// The event log: each conversation's request.create, each message's message.create, each close's
// request.close, numbered in time order as they would have been appended.
await step('event log', async () => {
  await run(`
    INSERT INTO "DomainEvent" ("id", "id_project", "seq", "name", "subject", "payload", "createdAt")
    SELECT '${projectId}-e' || row_number() OVER w, '${projectId}', row_number() OVER w, name, subject, payload, at
    FROM (
      SELECT 'request.create' AS name, r.id AS subject, r."createdAt" AS at, 0 AS o,
        jsonb_build_object('request_id', r.request_id, 'department_id', r."departmentId", 'assignment_reason', r.assignment_reason, 'by', r.requester_id)
          || CASE WHEN r.participants <> '{}' THEN jsonb_build_object('added', to_jsonb(r.participants)) ELSE '{}'::jsonb END AS payload
      FROM "Request" r WHERE r."id_project" = '${projectId}'
      UNION ALL
      SELECT 'message.create', m.id, m."createdAt", 1, jsonb_build_object('request_id', m.request_id, 'sender', m.sender, 'hidden', m.hidden)
      FROM "Message" m WHERE m."id_project" = '${projectId}'
      UNION ALL
      SELECT 'request.close', r.id, r.closed_at, 2,
        jsonb_build_object('request_id', r.request_id, 'fields', jsonb_build_array('status', 'closed_at', 'closed_by'), 'status', 1000, 'by', r.closed_by)
      FROM "Request" r WHERE r."id_project" = '${projectId}' AND r.status = 1000
    ) AS e
    WINDOW w AS (ORDER BY at, o, subject)`);
  await run(`UPDATE "Project" SET "eventSeq" = (SELECT coalesce(max("seq"), 0) FROM "DomainEvent" WHERE "id_project" = '${projectId}'),
      "ticketSeq" = ${conversations} WHERE "id" = '${projectId}'`);
  // Every event consumer has read the year already (see consumerNames below): a server started on
  // the seed would otherwise read it all first (the assistant learning 170,000 closes, a
  // knowledge-base search each), which is no console's day.
  await run(`INSERT INTO "EventCursor" ("consumer", "id_project", "seq", "updatedAt")
    SELECT c, '${projectId}', p."eventSeq", now() FROM "Project" p, unnest(${sqlArray(consumers)}) AS c
    WHERE p."id" = '${projectId}'`);
  await run(`UPDATE "ProjectUser" pu SET "number_assigned_requests" = (
      SELECT count(*) FROM "Request" r WHERE r."id_project" = '${projectId}' AND r.status = 200 AND pu."id_user" = ANY (r."participatingAgents"))
    WHERE pu."id_project" = '${projectId}'`);
});

// In time order on disk, as a year of use writes them: a team's rows are appended as they happen,
// so a table holds them roughly in the order of their time, and reading the newest rows (the
// inbox's pages, search's walk over the newest messages) reads few pages. The seed writes them in
// another order (a message at a time by conversation, requests at random days, then three passes
// over every request), which leaves the newest rows on as many pages as rows and the request
// table several times its size: CLUSTER puts them in the order time would have (it holds each
// table locked while it rewrites it: a seed is for a benchmark's database, not one in use).
await step('rows in time order', async () => {
  await run(`CLUSTER "Message" USING "Message_id_project_createdAt_idx"`);
  await run(`CLUSTER "Request" USING "Request_id_project_createdAt_idx"`);
  await run(`CLUSTER "Lead" USING "Lead_id_project_createdAt_id_idx"`);
});

// VACUUM as well as ANALYZE: a database that has lived its year has been vacuumed by autovacuum as
// it went (inserts alone start it), so its visibility map says which pages are all-visible and a
// count reads an index alone. Straight after a bulk insert nothing is marked yet, and every count
// and index-only scan would read the table's pages too: a state no team's database is in.
await step('vacuum and analyze', async () => {
  for (const table of ['Lead', 'Request', 'Message', 'RequestMessageTally', 'RequestStatusTally', 'MessageHourlyTally', 'DomainEvent']) await run(`VACUUM (ANALYZE) "${table}"`);
});

const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    projectId,
    owner: `seed.owner.${stamp}@example.test`,
    agents: `seed.agent<1..${agents}>.${stamp}@example.test`,
    agent: `seed.agent1.${stamp}@example.test`,
    password,
    conversations,
    messages,
    leads,
    months,
    seconds: Math.round(seconds * 10) / 10,
    messagesPerSecond: Math.round(messages / seconds),
  }),
);
await database.close();
process.exit(0);

/**
 * The names of the event consumers a server runs (workers/jobs.ts), from an app built on the
 * configured database and closed again before the seed opens it.
 */
async function consumerNames() {
  const infra = await createInfrastructure(config, { logger });
  try {
    const app = buildApp(infra);
    return eventConsumersOf(app.services).map((consumer) => consumer.name);
  } finally {
    await infra.close();
  }
}

function parseFlags(args: string[]) {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i]);
    if (!m) throw new Error(`seed: unexpected argument ${args[i]}`);
    values.set(m[1], m[2] ?? args[++i]);
  }
  return {
    int(name: string, fallback: number) {
      const v = values.get(name);
      if (v === undefined) return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) {
        console.error(`seed: --${name} must be a whole number of at least 1 (got ${v})`);
        process.exit(2);
      }
      return n;
    },
    string: (name: string, fallback: string) => values.get(name) ?? fallback,
  };
}
