import { readFileSync } from 'node:fs';
import { stems } from '../src/modules/kb/stems.js';
const set = JSON.parse(readFileSync('/work/shared/data/covidfaq.json', 'utf8'));
const E: number[][] = JSON.parse(readFileSync('/tmp/i30-emb.json', 'utf8'));
const nq = set.queries.length;
const byFaq = new Map<string, number[]>();
set.queries.forEach((q: any, i: number) => byFaq.set(q.faq, [...(byFaq.get(q.faq) ?? []), i]));
const taught: number[] = []; const asked: number[] = [];
for (const [, qs] of byFaq) { const h = Math.ceil(qs.length / 2); taught.push(...qs.slice(0, h)); asked.push(...qs.slice(h)); }
const label = (i: number) => set.queries[i].faq;
const feats = (t: string, ng: boolean) => { const s = stems(t); const f = [...s]; if (ng) { for (let i = 0; i + 1 < s.length; i++) f.push(s[i] + '_' + s[i + 1]); for (const w of s) { const p = `^${w}$`; for (let i = 0; i + 4 <= p.length; i++) f.push('#' + p.slice(i, i + 4)); } } return f; };
for (const ng of [false, true]) for (const useFaq of [0, 1]) for (const emb of [0, 0.5, 1]) {
  const docs: Array<{ f: string[]; l: string; e?: number[] }> = taught.map((i) => ({ f: feats(set.queries[i].query, ng), l: label(i), e: E[i] }));
  if (useFaq) set.faqs.forEach((x: any, j: number) => docs.push({ f: feats(x.question, ng), l: x.id, e: E[nq + j] }));
  const df = new Map<string, number>(); for (const d of docs) for (const w of new Set(d.f)) df.set(w, (df.get(w) ?? 0) + 1);
  const N = docs.length; const idf = (w: string) => Math.log((N + 1) / ((df.get(w) ?? 0) + 1)) + 1;
  const vec = (f: string[]) => { const m = new Map<string, number>(); for (const w of f) m.set(w, (m.get(w) ?? 0) + 1); let n = 0; for (const [w, c] of m) { const v = (1 + Math.log(c)) * idf(w); m.set(w, v); n += v * v; } n = Math.sqrt(n) || 1; for (const [w, v] of m) m.set(w, v / n); return m; };
  const cent = new Map<string, Map<string, number>>(); const ecent = new Map<string, number[]>();
  for (const d of docs) { const v = vec(d.f); const c = cent.get(d.l) ?? new Map(); for (const [w, x] of v) c.set(w, (c.get(w) ?? 0) + x); cent.set(d.l, c); const e = ecent.get(d.l) ?? new Array(512).fill(0); d.e!.forEach((x, i) => (e[i] += x)); ecent.set(d.l, e); }
  for (const [, c] of cent) { let n = 0; for (const x of c.values()) n += x * x; n = Math.sqrt(n); for (const [w, x] of c) c.set(w, x / n); }
  for (const [, e] of ecent) { const n = Math.sqrt(e.reduce((s, x) => s + x * x, 0)); e.forEach((x, i) => (e[i] = x / n)); }
  let h = 0;
  for (const a of asked) { const v = vec(feats(set.queries[a].query, ng)); const qe = E[a]; const qn = Math.sqrt(qe.reduce((s, x) => s + x * x, 0)); let best = '', bs = -1; for (const [l, c] of cent) { let s = 0; for (const [w, x] of v) s += x * (c.get(w) ?? 0); const e = ecent.get(l)!; let d = 0; for (let i = 0; i < 512; i++) d += e[i] * qe[i]; s = (1 - emb) * s + emb * d / qn; if (s > bs) { bs = s; best = l; } } if (best === label(a)) h++; }
  console.log({ ng, useFaq, emb }, (h / asked.length).toFixed(3));
}
