// The words of knowledge-base text as BM25 compares them: lower case, and lightly stemmed (plural
// and -ing/-ed endings), so "refunds", "refunded" and "refund" meet, without the over-stemming of
// Porter's algorithm. Stop words are kept: in questions they carry meaning ("how" long against
// "when", "can" I against "must" I), and dropping them lowered retrieval on public FAQ sets.

const words = /[\p{L}\p{N}]+/gu;

export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  return word;
}

/** The stems of a text, in order, repeats kept. */
export function stems(text: string): string[] {
  return (text.toLowerCase().normalize('NFKC').match(words) ?? []).map(stem);
}

/** The stems of a text as one space-separated string, the form stored beside each chunk. */
export function stemText(text: string): string {
  return stems(text).join(' ');
}

/** The distinct stems of a question's meaningful words (all its stems when it has only stop words). */
export function contentStems(text: string, stopWords: ReadonlySet<string>): string[] {
  const words = text.toLowerCase().normalize('NFKC').match(words_) ?? [];
  const meaningful = words.filter((w) => !stopWords.has(w));
  return [...new Set((meaningful.length ? meaningful : words).map(stem))];
}
const words_ = /[\p{L}\p{N}]+/gu;
