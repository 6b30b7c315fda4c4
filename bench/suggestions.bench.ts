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
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../src/server.js';
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
  return {
    mode,
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
    const row = await replay(server, set, production ? 'production' : 'embedded');
    printTable('assistant suggestions on the taught/asked split (first half of each FAQ\'s questions closed as conversations)', [row]);
  } finally {
    await server.close();
    await prod?.drop();
  }
}
