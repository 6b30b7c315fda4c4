import type { Intent } from '../../../generated/prisma/client.js';
import { fallbackIntent } from '../templates.js';

// Finds the intent a text asks for: first a normalised exact match with one of the question's
// lines, then TF-IDF cosine similarity over all the lines, accepted above a threshold.
// Built once per bot revision (see IntentIndexCache), so a match is a few map lookups.

/** Below this similarity the text is not understood and the fallback answers. */
export const similarityThreshold = 0.5;

/** Lower case, no accents, no punctuation, single spaces: "¿Dónde   ESTÁ?" → "donde esta". */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const tokensOf = (normalized: string) => (normalized ? normalized.split(' ') : []);

interface Phrase {
  intent: Intent;
  norm: number;
}

export interface IntentMatch {
  intent: Intent;
  /** 1 for an exact match. */
  score: number;
}

export class IntentIndex {
  private exact = new Map<string, Intent>();
  private byName = new Map<string, Intent>();
  private postings = new Map<string, Array<{ phrase: number; weight: number }>>();
  private idf = new Map<string, number>();
  private unknownIdf: number;
  private phrases: Phrase[] = [];

  constructor(intents: Intent[]) {
    const lines: Array<{ intent: Intent; tokens: string[] }> = [];
    for (const intent of intents) {
      this.byName.set(intent.intent_display_name, intent);
      if (!intent.enabled || intent.intent_display_name === fallbackIntent) continue;
      for (const line of intent.question.split('\n')) {
        const normalized = normalize(line);
        if (!normalized) continue;
        if (!this.exact.has(normalized)) this.exact.set(normalized, intent);
        lines.push({ intent, tokens: tokensOf(normalized) });
      }
    }
    const df = new Map<string, number>();
    for (const { tokens } of lines) for (const token of new Set(tokens)) df.set(token, (df.get(token) ?? 0) + 1);
    // Smoothed, always positive: a word every line has still counts a little.
    const idf = (n: number) => 1 + Math.log((lines.length + 1) / (n + 1));
    for (const [token, n] of df) this.idf.set(token, idf(n));
    this.unknownIdf = idf(0);
    lines.forEach(({ intent, tokens }, phrase) => {
      const weights = this.weigh(tokens);
      let squares = 0;
      for (const [token, weight] of weights) {
        squares += weight * weight;
        let list = this.postings.get(token);
        if (!list) this.postings.set(token, (list = []));
        list.push({ phrase, weight });
      }
      this.phrases.push({ intent, norm: Math.sqrt(squares) });
    });
  }

  /** Term frequency times inverse document frequency, per distinct token. */
  private weigh(tokens: string[]) {
    const weights = new Map<string, number>();
    for (const token of tokens) weights.set(token, (weights.get(token) ?? 0) + (this.idf.get(token) ?? this.unknownIdf));
    return weights;
  }

  intent(name: string): Intent | undefined {
    return this.byName.get(name);
  }

  /** The enabled intent the text asks for, or null when nothing is close enough. */
  match(text: string, threshold = similarityThreshold): IntentMatch | null {
    const normalized = normalize(text);
    if (!normalized) return null;
    const exact = this.exact.get(normalized);
    if (exact) return { intent: exact, score: 1 };
    const weights = this.weigh(tokensOf(normalized));
    let queryNorm = 0;
    for (const weight of weights.values()) queryNorm += weight * weight;
    queryNorm = Math.sqrt(queryNorm);
    const dots = new Map<number, number>();
    for (const [token, weight] of weights) {
      for (const posting of this.postings.get(token) ?? []) {
        dots.set(posting.phrase, (dots.get(posting.phrase) ?? 0) + weight * posting.weight);
      }
    }
    let best: IntentMatch | null = null;
    for (const [phrase, dot] of dots) {
      const score = dot / (queryNorm * this.phrases[phrase].norm);
      if (!best || score > best.score) best = { intent: this.phrases[phrase].intent, score };
    }
    return best && best.score >= threshold ? best : null;
  }
}

/** One index per bot, rebuilt when the bot's revision changes (intent writes bump it). */
export class IntentIndexCache {
  private entries = new Map<string, { revision: number; index: IntentIndex }>();

  constructor(private maxBots = 500) {}

  async get(botId: string, revision: number, load: () => Promise<Intent[]>): Promise<IntentIndex> {
    const cached = this.entries.get(botId);
    if (cached && cached.revision === revision) return cached.index;
    const index = new IntentIndex(await load());
    this.entries.delete(botId);
    if (this.entries.size >= this.maxBots) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(botId, { revision, index });
    return index;
  }
}
