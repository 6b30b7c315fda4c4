import { readFileSync } from 'node:fs';
import { stems } from '../src/modules/kb/stems.js';
const set = JSON.parse(readFileSync('/work/shared/data/covidfaq.json', 'utf8'));
const byFaq = new Map<string, string[]>();
for (const q of set.queries) byFaq.set(q.faq, [...(byFaq.get(q.faq) ?? []), q.query]);
const taught: any[] = []; const asked: any[] = [];
for (const [faq, qs] of byFaq) { const h = Math.ceil(qs.length / 2); qs.slice(0, h).forEach((query) => taught.push({ faq, query })); qs.slice(h).forEach((query) => asked.push({ faq, query })); }
const stop = new Set('a about above after again all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over own same she should so some such than that the their theirs them then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours please tell know'.split(' '));
function bm25(docs: { text: string; label: string }[], dropStop: boolean) {
  const toks = docs.map((d) => stems(d.text).filter((w) => !dropStop || !stop.has(w)));
  const avg = toks.reduce((s, t) => s + t.length, 0) / toks.length;
  const tf = toks.map((t) => { const m = new Map<string, number>(); for (const w of t) m.set(w, (m.get(w) ?? 0) + 1); return m; });
  const df = new Map<string, number>(); for (const m of tf) for (const w of m.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const n = docs.length;
  return (q: string) => {
    const terms = [...new Set(stems(q).filter((w) => !dropStop || !stop.has(w)))];
    return docs.map((d, i) => { let s = 0; for (const t of terms) { const f = tf[i].get(t) ?? 0; if (!f) continue; const dd = df.get(t)!; s += Math.log(1 + (n - dd + 0.5) / (dd + 0.5)) * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * toks[i].length / avg)); } return { label: d.label, s, i }; }).filter((x) => x.s > 0).sort((a, b) => b.s - a.s);
  };
}
for (const dropStop of [false, true]) {
  const docsP = taught.map((t) => ({ text: t.query, label: t.faq }));
  const docsF = set.faqs.map((f: any) => ({ text: `${f.question} ${f.question} ${f.answer}`, label: f.id }));
  const P = bm25(docsP, dropStop); const F = bm25(docsF, dropStop);
  for (const mode of ['1nn', 'vote3', 'vote5', 'sum', 'faq', 'faq+vote', 'maxnorm']) {
    let h = 0;
    for (const q of asked) {
      const p = P(q.query); const f = F(q.query);
      const score = new Map<string, number>();
      const add = (l: string, v: number) => score.set(l, (score.get(l) ?? 0) + v);
      if (mode === '1nn') { if (p[0]) add(p[0].label, 1); }
      if (mode.startsWith('vote')) { const k = Number(mode.slice(4)); p.slice(0, k).forEach((x) => add(x.label, x.s)); }
      if (mode === 'sum') p.slice(0, 20).forEach((x) => add(x.label, x.s));
      if (mode === 'faq') f.forEach((x) => add(x.label, x.s));
      if (mode === 'faq+vote') { const pm = p[0]?.s ?? 1, fm = f[0]?.s ?? 1; f.slice(0, 20).forEach((x) => add(x.label, x.s / fm)); p.slice(0, 10).forEach((x, i) => add(x.label, x.s / pm * 0.7)); }
      if (mode === 'maxnorm') { const pm = p[0]?.s ?? 1, fm = f[0]?.s ?? 1; f.slice(0, 20).forEach((x) => add(x.label, 0.5 * x.s / fm)); const seen = new Set(); p.slice(0, 10).forEach((x) => { add(x.label, (seen.has(x.label) ? 0.3 : 1) * x.s / pm); seen.add(x.label); }); }
      const best = [...score.entries()].sort((a, b) => b[1] - a[1])[0];
      if (best && best[0] === q.faq) h++;
    }
    console.log(dropStop ? 'nostop' : 'stop', mode, (h / asked.length).toFixed(3));
  }
}
