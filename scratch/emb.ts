import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { LocalEncoder } from '../src/modules/kb/encoder.js';
const set = JSON.parse(readFileSync('/work/shared/data/covidfaq.json', 'utf8'));
if (!existsSync('/tmp/i30-emb.json')) {
  const enc = new LocalEncoder({ info() {}, warn() {}, debug() {}, error() {} } as any);
  const texts = [...set.queries.map((q: any) => q.query), ...set.faqs.map((f: any) => f.question), ...set.faqs.map((f: any) => `${f.question}\n${f.answer}`)];
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += 16) out.push(...(await enc.embed(texts.slice(i, i + 16))));
  writeFileSync('/tmp/i30-emb.json', JSON.stringify(out));
  await enc.close();
}
console.log('done');
process.exit(0);
