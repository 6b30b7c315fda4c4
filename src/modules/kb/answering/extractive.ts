import { faqParts } from '../faq.js';
import { stopWords, type RetrievedChunk } from '../retrieval/passage.js';

// Answers without a language model: the sentences of the retrieved chunks that share the most
// words with the question, quoted as they are. Nothing is made up: no match, no answer.

function stem(word: string) {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function terms(text: string): Set<string> {
  const words = text.toLowerCase().normalize('NFKD').match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => !stopWords.has(w) && (w.length > 1 || /\d/.test(w))).map(stem));
}

function trigrams(word: string): Set<string> {
  const padded = `^${word}$`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

/** Misspelt or inflected forms ("descalling", "descaling") count for most of a word; unrelated words for nothing. */
function fuzzyMatch(a: Set<string>, b: Set<string>): number {
  if (a.size < 4 || b.size < 4) return 0;
  let shared = 0;
  for (const gram of a) if (b.has(gram)) shared++;
  const jaccard = shared / (a.size + b.size - shared);
  return jaccard >= 0.5 ? 0.8 * jaccard : 0;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 1);
}

interface Candidate {
  text: string;
  chunk: RetrievedChunk;
  chunkIndex: number;
  sentenceIndex: number;
  score: number;
}

export interface ExtractiveAnswer {
  text: string;
  used: RetrievedChunk[];
}

/** The best sentences (in document order) within about `maxTokens` tokens, or null when none relates to the question. */
export function extractiveAnswer(question: string, chunks: RetrievedChunk[], maxTokens: number): ExtractiveAnswer | null {
  const wanted = [...terms(question)].map((term) => ({ term, grams: trigrams(term) }));
  if (!wanted.length) return null;
  const overlap = (text: string) => {
    const present = [...terms(text)].map((term) => ({ term, grams: trigrams(term) }));
    let score = 0;
    for (const want of wanted) {
      let best = 0;
      for (const word of present) best = Math.max(best, word.term === want.term ? 1 : fuzzyMatch(want.grams, word.grams));
      score += best;
    }
    return score;
  };
  const candidates: Candidate[] = [];
  chunks.forEach((chunk, chunkIndex) => {
    // A retrieval rank bonus breaks ties in favour of the better chunk.
    const rankBonus = 0.5 / (chunkIndex + 1);
    const faq = chunk.contentType === 'faq' ? faqParts(chunk.text) : null;
    if (faq) {
      const score = overlap(faq.question) * 1.5 + overlap(faq.answer);
      if (score > 0) candidates.push({ text: faq.answer, chunk, chunkIndex, sentenceIndex: 0, score: score + rankBonus });
      return;
    }
    sentences(chunk.text).forEach((text, sentenceIndex) => {
      const score = overlap(text);
      if (score > 0) candidates.push({ text, chunk, chunkIndex, sentenceIndex, score: score + rankBonus });
    });
  });
  if (!candidates.length) return null;
  candidates.sort((a, b) => b.score - a.score);
  const best = candidates[0];
  const budget = Math.max(maxTokens * 4, 80);
  const picked = [best];
  let length = best.text.length;
  for (const candidate of candidates.slice(1)) {
    if (picked.length >= 3 || candidate.score < best.score * 0.6) break;
    if (picked.some((p) => p.text === candidate.text)) continue;
    if (length + candidate.text.length + 1 > budget) continue;
    picked.push(candidate);
    length += candidate.text.length + 1;
  }
  picked.sort((a, b) => a.chunkIndex - b.chunkIndex || a.sentenceIndex - b.sentenceIndex);
  let text = picked.map((p) => p.text).join(' ');
  if (text.length > budget) text = `${text.slice(0, budget).replace(/\s+\S*$/, '')}…`;
  const used = [...new Map(picked.map((p) => [p.chunk.id, p.chunk])).values()];
  return { text, used };
}

/** The opening of a passage (the answer of an faq), for a passage found by meaning rather than by words. */
export function leadAnswer(chunk: RetrievedChunk, maxTokens: number): ExtractiveAnswer {
  const budget = Math.max(maxTokens * 4, 80);
  const faq = chunk.contentType === 'faq' ? faqParts(chunk.text) : null;
  const picked: string[] = [];
  let length = 0;
  for (const sentence of sentences(faq ? faq.answer : chunk.text)) {
    if (picked.length && length + sentence.length + 1 > budget) break;
    picked.push(sentence);
    length += sentence.length + 1;
  }
  let text = picked.join(' ');
  if (text.length > budget) text = `${text.slice(0, budget).replace(/\s+\S*$/, '')}…`;
  return { text, used: [chunk] };
}
