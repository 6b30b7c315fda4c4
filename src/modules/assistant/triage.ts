import Sentiment from 'sentiment';
import { detect } from 'tinyld';

// Triage read from the visitor's own words, offline: the language of the first message (tinyld's
// n-gram profiles ship in its npm package) and whether the visitor sounds angry (AFINN word
// valences, `sentiment`, plus the shouting that word lists miss: capitals and repeated marks).

export type SentimentFlag = 'angry' | 'negative' | 'neutral' | 'positive';

const analyser = new Sentiment();

/** ISO 639-1 code of the text's language, or null when it is too short or unclear to tell. */
export function languageOf(text: string): string | null {
  const sample = text.trim().slice(0, 2000);
  if (sample.replace(/[^\p{L}]/gu, '').length < 8) return null;
  return detect(sample) || null;
}

/** How the visitor sounds over their latest messages. */
export function sentimentOf(text: string): SentimentFlag {
  const { comparative, score } = analyser.analyze(text.slice(0, 4000));
  const letters = text.replace(/[^\p{L}]/gu, '');
  const shouting = letters.length >= 12 && letters.replace(/[^\p{Lu}]/gu, '').length / letters.length > 0.6;
  const marks = /[!?]{3,}/.test(text);
  if (score <= -5 || comparative <= -0.5 || (score < 0 && (shouting || marks))) return 'angry';
  if (score < -1) return 'negative';
  if (score > 1) return 'positive';
  return 'neutral';
}
