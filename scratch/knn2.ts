import { readFileSync } from 'node:fs';
import { stems } from '../src/modules/kb/stems.js';
const set = JSON.parse(readFileSync('/work/shared/data/covidfaq.json', 'utf8'));
const E: number[][] = JSON.parse(readFileSync('/tmp/i30-emb.json', 'utf8'));
const nq = set.queries.length, nf = set.faqs.length;
const qv = (i: number) => E[i]; const fqv = (j: number) => E[nq + j]; const fav = (j: number) => E[nq + nf + j];
const cos = (a: number[], b: number[]) => { let d = 0, x = 0, y = 0; for (let i = 0; i < a.length; i++) { d += a[i] * b[i]; x += a[i] * a[i]; y += b[i] * b[i]; } return d / Math.sqrt(x * y); };
const byFaq = new Map<string, number[]>();
set.queries.forEach((q: any, i: number) => byFaq.set(q.faq, [...(byFaq.get(q.faq) ?? []), i]));
const taught: number[] = []; const asked: number[] = [];
for (const [, qs] of byFaq) { const h = Math.ceil(qs.length / 2); taught.push(...qs.slice(0, h)); asked.push(...qs.slice(h)); }
const label = (i: number) => set.queries[i].faq;
const fid = set.faqs.map((f: any) => f.id);
function bm25(docs: string[]) {
  const toks = docs.map((d) => stems(d)); const avg = toks.reduce((s, t) => s + t.length, 0) / toks.length;
  const tf = toks.map((t) => { const m = new Map<string, number>(); for (const w of t) m.set(w, (m.get(w) ?? 0) + 1); return m; });
  const df = new Map<string, number>(); for (const m of tf) for (const w of m.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const n = docs.length;
  return (q: string) => { const terms = [...new Set(stems(q))]; return docs.map((_, i) => { let s = 0; for (const t of terms) { const f = tf[i].get(t) ?? 0; if (!f) continue; const dd = df.get(t)!; s += Math.log(1 + (n - dd + 0.5) / (dd + 0.5)) * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * toks[i].length / avg)); } return s; }); };
}
const P = bm25(taught.map((i) => set.queries[i].query));
const F = bm25(set.faqs.map((f: any) => `${f.question} ${f.question} ${f.answer}`));
const norm = (xs: number[]) => { const m = Math.max(...xs, 1e-9); return xs.map((x) => x / m); };
for (const [wl, wd, wf, k, decay] of [[0,1,0,1,0],[0,1,0,5,0.5],[1,0,0,5,0.5],[0.5,0.5,0,5,0.5],[0.5,0.5,0.3,5,0.5],[0.4,0.6,0.3,5,0.5],[0.4,0.6,0.3,10,0.3],[0.3,0.7,0.2,10,0.5],[0.5,0.5,0.2,10,0.5],[0.5,0.5,0.5,10,0.5]]) {
  let h = 0;
  for (const a of asked) {
    const q = set.queries[a].query;
    const lp = norm(P(q)); const dp = taught.map((t) => cos(qv(a), qv(t)));
    const lf = norm(F(q)); const df = set.faqs.map((_: any, j: number) => Math.max(cos(qv(a), fqv(j)), cos(qv(a), fav(j))));
    const sp = taught.map((t, i) => ({ l: label(t), s: wl * lp[i] + wd * dp[i] })).sort((x, y) => y.s - x.s);
    const score = new Map<string, number>();
    const seen = new Map<string, number>();
    for (const x of sp.slice(0, k)) { const c = seen.get(x.l) ?? 0; score.set(x.l, (score.get(x.l) ?? 0) + x.s * (c === 0 ? 1 : decay)); seen.set(x.l, c + 1); }
    fid.forEach((id: string, j: number) => score.set(id, (score.get(id) ?? 0) + wf * (wl * lf[j] + wd * df[j])));
    const best = [...score.entries()].sort((x, y) => y[1] - x[1])[0];
    if (best[0] === label(a)) h++;
  }
  console.log({ wl, wd, wf, k, decay }, (h / asked.length).toFixed(3));
}
