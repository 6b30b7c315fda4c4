// The agent's assistant on a public FAQ set (CovidFAQ by default, KB_QUALITY_SET for another),
// replayed through the API as a team would produce it: every FAQ indexed as an `faq` content of the
// project's default knowledge base; for the first half of each FAQ's user questions (in the set's
// order) a conversation in which a visitor asks it, an agent answers with the FAQ's answer, tags
// it with the FAQ's id and closes it (the assistant learns from the close, through its event
// consumer). Then each question of the other half, never taught, in a new conversation: GET
// /requests/:id/suggestions. Counted right: a reply among the 3 whose text is the answer of an FAQ
// the question's text is labelled with anywhere in the set (CovidFAQ files the same text under
// several FAQs), or the knowledge base's passage of such an FAQ; the top tag suggestion being such
// an FAQ's id. The strict columns count the question's own label only. p95 of the suggestions call.
// Embedded mode by default; SUGGESTIONS_MODE=production uses PostgreSQL and Redis.
//
// At scale (production mode by default; SUGGESTIONS_CLOSED sets how many, 0 for none): before the
// replay, the project is given 100,000 other closed conversations, written straight into its
// tables as the learner would have learned them (a support team's year of shop questions: a Zipf
// vocabulary, 6 to 14 words a question), so the suggestions are timed over a history of that size.
// Then the learning rate: 500 more conversations (a visitor's question, an agent's answer) closed at
// 50 a second; each one's lag from its close being answered to its example being stored.
// SUGGESTIONS_ONLY=learning runs that stage alone (after the seeding), without the replay.
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../src/server.js';
import { termsOf } from '../src/modules/assistant/history.js';
import { isDatabaseUnavailable } from '../src/infra/database-unavailable.js';
import { benchConfig, productionConfig } from './environment.js';
import { json, percentile, printTable } from './lib.js';

const dir = path.dirname(fileURLToPath(import.meta.url));

interface FaqSet {
  faqs: Array<{ id: string; question: string; answer: string }>;
  queries: Array<{ query: string; faq: string }>;
}

const sameText = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

export interface Replay {
  taught: Array<{ faq: string; query: string }>;
  asked: Array<{ faq: string; query: string }>;
}

/** The split of the issue: the first half of each FAQ's questions taught, the other half asked. */
export function splitSet(set: FaqSet): Replay {
  const byFaq = new Map<string, string[]>();
  for (const q of set.queries) byFaq.set(q.faq, [...(byFaq.get(q.faq) ?? []), q.query]);
  const taught: Replay['taught'] = [];
  const asked: Replay['asked'] = [];
  for (const [faq, queries] of byFaq) {
    const half = Math.ceil(queries.length / 2);
    queries.slice(0, half).forEach((query) => taught.push({ faq, query }));
    queries.slice(half).forEach((query) => asked.push({ faq, query }));
  }
  return { taught, asked };
}

async function waitFor(probe: () => Promise<boolean>, label: string, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${label}: not done in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function replay(server: RunningServer, set: FaqSet, mode: string) {
  const url = server.url;
  const db = server.app.infra.database.prisma;
  const email = `bench.${Date.now()}@example.test`;
  await json(`${url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1' });
  const { token } = await json(`${url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
  const projectId = (await json(`${url}/v3/projects`, 'POST', token, { name: 'Assistant bench' }))._id as string;
  const visitor = (await json(`${url}/v3/auth/signinAnonymously`, 'POST', undefined, { id_project: projectId, firstname: 'Visitor' })).token as string;
  const faqOfContent = new Map<string, string>();
  for (const faq of set.faqs) {
    const content = `${faq.question.replace(/\s+/g, ' ').trim()}\n${faq.answer}`;
    const created = await json(`${url}/v3/${projectId}/kb`, 'POST', token, { type: 'faq', name: faq.question.slice(0, 200), content });
    faqOfContent.set(created.value._id, faq.id);
  }
  await waitFor(async () => (await db.kbContent.count({ where: { id_project: projectId, status: 300 } })) === set.faqs.length, 'indexing');

  const answerOf = new Map(set.faqs.map((f) => [f.id, f.answer]));
  const faqsOfAnswer = new Map<string, Set<string>>();
  for (const f of set.faqs) faqsOfAnswer.set(sameText(f.answer), (faqsOfAnswer.get(sameText(f.answer)) ?? new Set()).add(f.id));
  const labelsOf = new Map<string, Set<string>>();
  for (const q of set.queries) labelsOf.set(sameText(q.query), (labelsOf.get(sameText(q.query)) ?? new Set()).add(q.faq));

  const background = closedCount(mode);
  const seeded = background ? await seedHistory(server, projectId, background) : null;
  if (process.env.SUGGESTIONS_ONLY === 'learning') {
    for (const through of ['api', 'service'] as const) {
      printTable(`learning at 50 closes a second (500 conversations, closed through the ${through})`, [await learningRate(server, projectId, token, visitor, through)]);
    }
    return null;
  }

  const { taught, asked } = splitSet(set);
  let n = 0;
  const started = performance.now();
  for (const q of taught) {
    const requestId = `support-group-bench-${++n}`;
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', visitor, { text: q.query });
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', token, { text: answerOf.get(q.faq) });
    await json(`${url}/v3/${projectId}/requests/${requestId}/tag`, 'PUT', token, { tag: q.faq });
    await json(`${url}/v3/${projectId}/requests/${requestId}/close`, 'PUT', token);
  }
  const replayed = (performance.now() - started) / 1000;
  await waitFor(async () => (await db.assistantExample.count({ where: { id_project: projectId } })) >= taught.length, 'learning');
  const learned = (performance.now() - started) / 1000;

  let hit3 = 0;
  let hit3Strict = 0;
  let hit1 = 0;
  let tag1 = 0;
  let tag1Strict = 0;
  const latencies: number[] = [];
  const bySource: Record<string, number> = {};
  for (const q of asked) {
    const requestId = `support-group-bench-${++n}`;
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', visitor, { text: q.query });
    const t0 = performance.now();
    const s = await json(`${url}/v3/${projectId}/requests/${requestId}/suggestions`, 'GET', token);
    latencies.push(performance.now() - t0);
    const labels = labelsOf.get(sameText(q.query)) ?? new Set([q.faq]);
    const faqsOf = (reply: { text: string; source: string; ref: string | null }) => {
      const byText = faqsOfAnswer.get(sameText(reply.text)) ?? new Set<string>();
      if (reply.source === 'kb' && reply.ref && faqOfContent.has(reply.ref)) byText.add(faqOfContent.get(reply.ref)!);
      return byText;
    };
    const replies = s.replies as Array<{ text: string; source: string; ref: string | null }>;
    const right = replies.findIndex((r) => [...faqsOf(r)].some((f) => labels.has(f)));
    if (right >= 0) {
      hit3++;
      bySource[replies[right].source] = (bySource[replies[right].source] ?? 0) + 1;
    }
    if (right === 0) hit1++;
    if (replies.some((r) => faqsOf(r).has(q.faq))) hit3Strict++;
    const top = s.tags[0]?.tag as string | undefined;
    if (top && labels.has(top)) tag1++;
    if (top === q.faq) tag1Strict++;
  }
  latencies.sort((a, b) => a - b);
  const share = (k: number) => Math.round((k / asked.length) * 1000) / 1000;
  const row = {
    mode,
    'other closed conversations in the project': background,
    ...(seeded ? { 'seeded in s': seeded.seconds } : {}),
    'taught conversations': taught.length,
    'asked questions': asked.length,
    'right answer among 3 (target 0.85)': share(hit3),
    'right answer first': share(hit1),
    'top tag right (target 0.70)': share(tag1),
    'among 3, own label only': share(hit3Strict),
    'top tag, own label only': share(tag1Strict),
    'right answer from (kb/history/canned)': `${bySource.kb ?? 0}/${bySource.history ?? 0}/${bySource.canned ?? 0}`,
    'suggestions p50 ms': Math.round(percentile(latencies, 50) * 10) / 10,
    'suggestions p95 ms': Math.round(percentile(latencies, 95) * 10) / 10,
    'replay s (4 calls per conversation)': Math.round(replayed),
    'learned by s': Math.round(learned),
  };
  printTable('assistant suggestions on the taught/asked split (first half of each FAQ\'s questions closed as conversations)', [row]);
  const p95 = row['suggestions p95 ms'];
  if (background) console.log(`suggestions p95 ${p95} ms with ${background} other closed conversations (target under 100 ms): ${p95 < 100 ? 'PASS' : 'FAIL'} (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  if (background) {
    for (const through of ['api', 'service'] as const) {
      printTable(`learning at 50 closes a second (500 conversations, closed through the ${through})`, [await learningRate(server, projectId, token, visitor, through)]);
    }
  }
  return row;
}

/** How many other closed conversations the project holds first: SUGGESTIONS_CLOSED, else 100,000 in production mode. */
function closedCount(mode: string) {
  if (process.env.SUGGESTIONS_CLOSED !== undefined) return Number(process.env.SUGGESTIONS_CLOSED);
  return mode === 'production' ? 100_000 : 0;
}

const shopWords = (
  'order refund parcel delivery shipping return exchange size colour invoice payment card account password login ' +
  'address tracking courier damaged missing late cancel discount coupon voucher price stock warranty repair replace ' +
  'subscription renewal billing charge receipt email phone app website checkout basket cart wishlist gift wrap ' +
  'store pickup collect label box item product shoe jacket shirt dress bag watch phone charger cable battery screen'
).split(' ');

/** A question or answer of `words` words drawn from the shop vocabulary, word k with a chance about 1/k. */
function shopText(words: number, random: () => number) {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(shopWords[Math.min(shopWords.length - 1, Math.floor(shopWords.length ** random()) - 1)]);
  return out.join(' ');
}

/** `count` closed conversations and the examples the learner would have made of them, straight into the tables. */
async function seedHistory(server: RunningServer, projectId: string, count: number) {
  const db = server.app.infra.database.prisma;
  const started = performance.now();
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const batch = 2_000;
  const now = Date.now();
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    const rows = Array.from({ length: size }, (_, k) => {
      const i = start + k;
      const question = `${shopText(6 + Math.floor(random() * 9), random)}?`;
      return { i, question, answer: shopText(12 + Math.floor(random() * 10), random), tag: `topic-${Math.floor(random() * 40)}` };
    });
    const createdAt = (i: number) => new Date(now - (count - i) * 300_000);
    await db.request.createMany({
      data: rows.map((r) => ({
        id_project: projectId,
        request_id: `support-group-history-${r.i}`,
        ticket_id: 1_000_000 + r.i,
        first_text: r.question,
        status: 1000,
        tags: [{ tag: r.tag }],
        closed_at: new Date(createdAt(r.i).getTime() + 600_000),
        createdBy: 'history-seed',
        createdAt: createdAt(r.i),
      })),
    });
    await db.assistantExample.createMany({
      data: rows.map((r) => ({
        id_project: projectId,
        request_id: `support-group-history-${r.i}`,
        question: r.question,
        answer: r.answer,
        terms: termsOf(r.question),
        tags: [r.tag],
        createdAt: new Date(createdAt(r.i).getTime() + 600_000),
      })),
    });
  }
  // The document frequencies the learner keeps, as learning these would have left them.
  await db.$executeRaw`
    INSERT INTO "AssistantTerm" ("id_project", "term", "df")
    SELECT ${projectId}, t, count(*) FROM "AssistantExample" e, unnest(e."terms") AS t WHERE e."id_project" = ${projectId} GROUP BY t
    UNION ALL SELECT ${projectId}, '', count(*) FROM "AssistantExample" WHERE "id_project" = ${projectId}
    ON CONFLICT ("id_project", "term") DO UPDATE SET "df" = EXCLUDED."df"`;
  await db.$executeRaw`ANALYZE "AssistantExample"`;
  return { seconds: Math.round((performance.now() - started) / 1000) };
}

/**
 * 500 conversations closed at 50 a second: how long after its close each was learned. `api`: each
 * close a PUT …/close, as the console sends it (the node answers it too: HTTP, GraphQL, the
 * request rendered); `service`: the same close through the requests service in the server's
 * process (the same transaction and event), so that what is timed is the learning's capacity, not
 * the node's for answering closes.
 */
async function learningRate(server: RunningServer, projectId: string, token: string, visitor: string, through: 'api' | 'service' = 'api') {
  const url = server.url;
  const db = server.app.infra.database.prisma;
  const total = 500;
  const perSecond = 50;
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const ids = Array.from({ length: total }, (_, i) => `support-group-rate-${through}-${i}`);
  const owner = await db.projectUser.findFirstOrThrow({ where: { id_project: projectId, role: 'owner' }, include: { user: true } });
  for (const requestId of ids) {
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', visitor, { text: `${shopText(8, random)}?` });
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', token, { text: shopText(14, random) });
  }
  const closeByApi = async (requestId: string) => {
    const res = await fetch(`${url}/v3/${projectId}/requests/${requestId}/close`, { method: 'PUT', headers: { authorization: token } });
    await res.arrayBuffer();
    return res;
  };
  const closeByService = async (requestId: string) => {
    try {
      await server.app.services.requests.close(projectId, owner, requestId);
      return { status: 200 };
    } catch (error) {
      // As the API answers it: a database too busy to begin the close is its 503 (nothing written).
      if (isDatabaseUnavailable(error)) return { status: 503 };
      console.log(`close ${requestId} through the service: ${String(error).slice(0, 300)}`);
      return { status: (error as { status?: number }).status ?? 500 };
    }
  };
  const closedAt = new Map<string, number>();
  const closeMs: number[] = [];
  const refused: string[] = [];
  const started = Date.now();
  await Promise.all(
    ids.map(async (requestId, i) => {
      const due = started + (i * 1000) / perSecond;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      const sent = performance.now();
      const res = through === 'api' ? await closeByApi(requestId) : await closeByService(requestId);
      closeMs.push(performance.now() - sent);
      // A node too busy to begin a close refuses it up front (503): nothing of it was written.
      if (res.status === 503) return void refused.push(requestId);
      if (res.status !== 200) throw new Error(`close ${requestId}: ${res.status}`);
      closedAt.set(requestId, Date.now());
    }),
  );
  const closing = (Date.now() - started) / 1000;
  const lastClosed = Math.max(...closedAt.values());
  const closed = [...closedAt.keys()];
  const learnedBy = () => db.assistantExample.count({ where: { id_project: projectId, request_id: { in: closed } } });
  const behindAtLastClose = closed.length - (await learnedBy());
  if (refused.length) {
    const made = await db.request.count({ where: { id_project: projectId, request_id: { in: refused }, status: 1000 } });
    if (made) throw new Error(`${made} closes answered 503 had closed their conversation`);
  }
  await waitFor(async () => (await learnedBy()) === closed.length, 'learning at 50 closes a second', 120_000);
  const learned = await db.assistantExample.findMany({ where: { id_project: projectId, request_id: { in: closed } }, select: { request_id: true, createdAt: true } });
  const lags = learned.map((e) => e.createdAt.getTime() - closedAt.get(e.request_id)!).sort((a, b) => a - b);
  const lastLearned = Math.max(...learned.map((e) => e.createdAt.getTime()));
  const rate = closed.length / ((lastLearned - started) / 1000);
  closeMs.sort((a, b) => a - b);
  return {
    'closed through': through,
    'closes made per s': Math.round((closed.length / closing) * 10) / 10,
    'closes refused up front (503, nothing written)': refused.length,
    'close answer p50 / p95 ms': `${Math.round(percentile(closeMs, 50))} / ${Math.round(percentile(closeMs, 95))}`,
    'learned per s (first close to last learned)': Math.round(rate * 10) / 10,
    'not yet learned at the last close': behindAtLastClose,
    'caught up s after the last close': Math.round((lastLearned - lastClosed) / 100) / 10,
    'learning lag p50 / p95 / max ms': `${Math.round(percentile(lags, 50))} / ${Math.round(percentile(lags, 95))} / ${Math.round(lags[lags.length - 1])}`,
    'keeps up with 50 closes/s': !refused.length && rate >= perSecond * 0.95 && percentile(lags, 95) < 2000 ? 'yes' : 'NO',
  };
}

export default async function suggestionsBench() {
  const file = process.env.KB_QUALITY_SET ?? path.join(dir, '../../shared/data/covidfaq.json');
  if (!existsSync(file)) {
    console.log(`suggestions: ${file} not found (set KB_QUALITY_SET); skipped`);
    return;
  }
  const set = JSON.parse(readFileSync(file, 'utf8')) as FaqSet;
  const production = process.env.SUGGESTIONS_MODE === 'production';
  const prod = production ? await productionConfig({ KB_ENCODER: 'off' }) : null;
  const server = prod ? await startServer(prod.config) : await startServer(benchConfig({ NODE_ENV: 'development', KB_ENCODER: 'off' }), { inMemory: true });
  try {
    await replay(server, set, production ? 'production' : 'embedded');
  } finally {
    await server.close();
    await prod?.drop();
  }
}
