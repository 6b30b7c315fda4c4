// The knowledge loop on a public FAQ set (CovidFAQ by default, KB_QUALITY_SET for another), replayed
// through the API with an empty knowledge base: for the first half of each FAQ's user questions a
// conversation in which a visitor asks it and an agent answers with the FAQ's answer (pasted, as
// agents do), then closes it. Every conversation is a gap; the bench counts the proposals they form
// and how pure they are (the share of a proposal's conversations whose question is labelled with an
// FAQ of that answer anywhere in the set). Then an admin accepts every proposal as it stands, and
// each question of the other half, never taught, is asked to POST /kb/qa: right when it answers from
// an accepted content whose answer is the answer of an FAQ the question is labelled with.
// Embedded mode by default; PROPOSALS_MODE=production uses PostgreSQL and Redis.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../src/server.js';
import { benchConfig, productionConfig } from './environment.js';
import { json, printTable } from './lib.js';
import { splitSet } from './suggestions.bench.js';

const dir = path.dirname(fileURLToPath(import.meta.url));

interface FaqSet {
  faqs: Array<{ id: string; question: string; answer: string }>;
  queries: Array<{ query: string; faq: string }>;
}

const sameText = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

async function waitFor(probe: () => Promise<boolean>, label: string, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${label}: not done in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function replay(server: RunningServer, set: FaqSet, mode: string) {
  const url = server.url;
  const db = server.app.infra.database.prisma;
  const email = `bench.${Date.now()}@example.test`;
  await json(`${url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1' });
  const { token } = await json(`${url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
  const projectId = (await json(`${url}/v3/projects`, 'POST', token, { name: 'Knowledge loop bench' }))._id as string;
  const visitor = (await json(`${url}/v3/auth/signinAnonymously`, 'POST', undefined, { id_project: projectId, firstname: 'Visitor' })).token as string;
  const answerOf = new Map(set.faqs.map((f) => [f.id, f.answer]));
  const labelsOf = new Map<string, Set<string>>();
  for (const q of set.queries) labelsOf.set(sameText(q.query), (labelsOf.get(sameText(q.query)) ?? new Set()).add(q.faq));
  /** Whether `answer` is the answer of an FAQ `question` is labelled with. */
  const rightFor = (question: string, answer: string) => [...(labelsOf.get(sameText(question)) ?? [])].some((faq) => sameText(answerOf.get(faq) ?? '') === sameText(answer));

  const { taught, asked } = splitSet(set);
  const started = performance.now();
  let n = 0;
  for (const q of taught) {
    const requestId = `support-group-loop-${++n}`;
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', visitor, { text: q.query });
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', token, { text: answerOf.get(q.faq) });
    await json(`${url}/v3/${projectId}/requests/${requestId}/close`, 'PUT', token);
  }
  await waitFor(async () => (await db.kbGap.count({ where: { id_project: projectId } })) >= taught.length, 'gaps');
  const replaySeconds = (performance.now() - started) / 1000;

  const gaps = await db.kbGap.findMany({ where: { id_project: projectId }, select: { proposal_id: true, question: true } });
  const proposals = (await json(`${url}/v3/${projectId}/kb/proposals?limit=100`, 'GET', token)) as Array<{ _id: string; answer: string; count: number }>;
  const all = await db.kbProposal.findMany({ where: { id_project: projectId }, select: { id: true, answer: true } });
  const answerOfProposal = new Map(all.map((p) => [p.id, p.answer]));
  const pure = gaps.filter((g) => rightFor(g.question, answerOfProposal.get(g.proposal_id) ?? '')).length;

  const acceptStarted = performance.now();
  const answerOfContent = new Map<string, string>();
  for (const p of all) {
    const accepted = await json(`${url}/v3/${projectId}/kb/proposals/${p.id}/accept`, 'POST', token, {});
    answerOfContent.set(accepted.content_id, p.answer);
  }
  await waitFor(async () => (await db.kbContent.count({ where: { id_project: projectId, status: 300 } })) === all.length, 'indexing');
  const acceptSeconds = (performance.now() - acceptStarted) / 1000;

  let right = 0;
  let abstained = 0;
  for (const q of asked) {
    const answer = await json(`${url}/v3/${projectId}/kb/qa`, 'POST', token, { question: q.query });
    if (!answer.success) abstained++;
    else if (rightFor(q.query, answerOfContent.get(answer.id) ?? '')) right++;
  }
  return {
    mode,
    'closed conversations (gaps)': gaps.length,
    proposals: all.length,
    'largest proposal': proposals[0]?.count ?? 0,
    'purity (right answer for its question)': (pure / gaps.length).toFixed(3),
    'untaught questions': asked.length,
    'answered right by /kb/qa after accepting all': (right / asked.length).toFixed(3),
    abstained: (abstained / asked.length).toFixed(3),
    'replay s (3 calls per conversation)': replaySeconds.toFixed(1),
    'accept + index s': acceptSeconds.toFixed(1),
  };
}

export default async function proposalsBench() {
  const file = process.env.KB_QUALITY_SET ?? path.join(dir, '../../shared/data/covidfaq.json');
  if (!existsSync(file)) {
    console.log(`proposals: ${file} not found (set KB_QUALITY_SET); skipped`);
    return;
  }
  const set = JSON.parse(readFileSync(file, 'utf8')) as FaqSet;
  const production = process.env.PROPOSALS_MODE === 'production';
  const prod = production ? await productionConfig({ KB_ENCODER: 'off' }) : null;
  const server = prod ? await startServer(prod.config) : await startServer(benchConfig({ NODE_ENV: 'development', KB_ENCODER: 'off' }), { inMemory: true });
  try {
    printTable('the knowledge loop: gaps of an empty knowledge base, proposals, all accepted, the untaught half asked', [await replay(server, set, production ? 'production' : 'embedded')]);
  } finally {
    await server.close();
    await prod?.drop();
  }
}
