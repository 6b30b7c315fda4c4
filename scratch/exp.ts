import { readFileSync } from 'node:fs';
import { startServer } from '../src/server.js';
import { benchConfig } from '../bench/environment.js';
import { json } from '../bench/lib.js';

const set = JSON.parse(readFileSync('/work/shared/data/covidfaq.json', 'utf8'));
const general = ['How do I bake sourdough bread?','What is the capital of Peru?','Who wrote Pride and Prejudice?','How many legs does a spider have?','What is the best way to learn to play the guitar?','How far is the moon from the earth?','What is the boiling point of water at high altitude?','Who won the football world cup in 2014?','How do I make a paper airplane?','What is the tallest mountain in Africa?','How do I tie a bow tie?','What does a photosynthesis diagram show?','How often should I water a bonsai tree?','What is the plot of Hamlet?','How do I change a flat bicycle tyre?','Which planet has the most moons?','How do I knit a scarf for beginners?','What is the exchange rate of the euro to the yen?','How do I clean a cast iron pan?','What are the rules of chess castling?'];
const unrelated = ['How do I reset the password of my router?','What is the baggage allowance on a domestic flight?','Can I change the delivery address of my parcel?','How do I cancel my gym membership?','Which programming language should I learn first?','How long should I boil an egg?','What is the capital of Australia?','How do I replace the battery of my car key?','Can I pay my electricity bill in instalments?','Why does my laptop fan make so much noise?','How do I export my contacts to a spreadsheet?','What time does the stock market open?','How do I unsubscribe from the newsletter?','Is there a student discount on the annual plan?','How do I repot a cactus?','Which tyres are best for snow?','How can I improve my credit score?','What is the warranty on a refurbished phone?','How do I set up two-factor authentication?','Where can I find the invoice for my last order?'];
const server = await startServer(benchConfig({ NODE_ENV: 'development', KB_ENCODER: process.env.ENC ?? 'off' }), { inMemory: true });
const email = `x${Date.now()}@example.test`;
await json(`${server.url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1' });
const { token, user } = await json(`${server.url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
const projectId = (await json(`${server.url}/v3/projects`, 'POST', token, { name: 'B' }))._id;
const base = `${server.url}/v3/${projectId}/kb`;
const ns = (await json(`${base}/namespace`, 'POST', token, { name: 'Q' })).id;
const kb = server.app.services.kb;
await kb.vectors.warm();
const faqOf = new Map<string, string>(); const contentOf = new Map<string, string>();
for (const f of set.faqs) {
  const c = await json(base, 'POST', token, { namespace: ns, type: 'faq', name: f.question.slice(0, 200), content: `${f.question.replace(/\s+/g, ' ').trim()}\n${f.answer}` });
  faqOf.set(c.value._id, f.id); contentOf.set(f.id, c.value._id);
}
for (;;) { const d = await json(`${base}?namespace=${ns}&status=300&limit=1`, 'GET', token); if (d.count === set.faqs.length) break; await new Promise((r) => setTimeout(r, 100)); }
const byFaq = new Map<string, string[]>();
for (const q of set.queries) byFaq.set(q.faq, [...(byFaq.get(q.faq) ?? []), q.query]);
const taught: any[] = []; const asked: any[] = [];
for (const [faq, qs] of byFaq) { const h = Math.ceil(qs.length / 2); qs.slice(0, h).forEach((query) => taught.push({ faq, query })); qs.slice(h).forEach((query) => asked.push({ faq, query })); }
for (const q of taught) await kb.learning.feedback(projectId, user._id ?? 'x', { namespace: ns, question: q.query, id: contentOf.get(q.faq), helpful: true });
const r = kb.retriever;
const evalAll = async () => {
  let h1 = 0, h5 = 0, abst = 0, ms: number[] = [];
  for (const q of asked) {
    const t0 = performance.now();
    const found = await r.search(projectId, ns, q.query, 5);
    ms.push(performance.now() - t0);
    const ids = [...new Set(found.map((c) => faqOf.get(c.contentId)))];
    if (!r.relevant(found[0])) { abst++; continue; }
    if (ids[0] === q.faq) h1++; if (ids.slice(0, 5).includes(q.faq)) h5++;
  }
  const off = async (list: string[]) => { let n = 0; for (const q of list) { const f = await r.search(projectId, ns, q, 5); if (!r.relevant(f[0])) n++; else if (process.env.SHOW) console.log('  answered:', q, f[0].coverage.toFixed(2), f[0].similarity?.toFixed(2), f[0].learned ?? f[0].text.slice(0, 60)); } return n; };
  ms.sort((a, b) => a - b);
  console.log(JSON.stringify({ hit1: (h1 / asked.length).toFixed(3), hit5: (h5 / asked.length).toFixed(3), abst: (abst / asked.length * 100).toFixed(1), unrelated: await off(unrelated), general: await off(general), p95: ms[Math.floor(ms.length * 0.95)].toFixed(1) }));
};
await evalAll();
const tops: any = { asked: [], unrelated: [], general: [] };
for (const q of asked) tops.asked.push((await r.search(projectId, ns, q.query, 5))[0]);
for (const q of unrelated) tops.unrelated.push((await r.search(projectId, ns, q, 5))[0]);
for (const q of general) tops.general.push((await r.search(projectId, ns, q, 5))[0]);
for (const minCoverage of [0.15, 0.2, 0.25, 0.3, 0.35]) for (const minSimilarity of (process.env.ENC === 'local' ? [0.45, 0.5, 0.55, 0.6] : [9])) {
  const a = (k: string) => tops[k].filter((t: any) => !r.relevant(t, { minCoverage, minSimilarity })).length;
  console.log(JSON.stringify({ minCoverage, minSimilarity, answerableAbst: (a('asked') / asked.length * 100).toFixed(1), unrelated: a('unrelated'), general: a('general') }));
}
await server.close();
process.exit(0);
