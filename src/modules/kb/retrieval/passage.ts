// What retrieval hands to answering: a chunk with its content, its score and the two signals that
// decide whether it is relevant at all (abstention). Shared by retrieval.ts, qa.ts and extractive.ts.

export interface RetrievedChunk {
  id: string;
  contentId: string;
  position: number;
  text: string;
  contentName: string;
  contentType: string;
  source: string | null;
  score: number;
  /** Share of the question's meaningful words (stop words aside) the chunk contains, a word the knowledge base never uses counting twice: 0 when it shares none. */
  coverage: number;
  /** Cosine similarity to the question; null without vectors or when not among the nearest. */
  similarity: number | null;
  /**
   * Share of the question's meaningful words that some content of the knowledge base uses at all
   * (learned phrasings aside): a property of the question, the same for every chunk found for it.
   * Absent when not measured (vector search alone).
   */
  familiar?: number;
  /** The learned phrasing (an agent's confirmed question) through which this passage was found. */
  learned?: string;
}

/** Words that say little about what a question is about: left out of coverage and of extractive matching. */
export const stopWords: ReadonlySet<string> = new Set(
  ('a about above after again all am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers him his how i ' +
    'if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over own ' +
    'same she should so some such than that the their theirs them then there these they this those through to too under ' +
    'until up very was we were what when where which while who whom why will with would you your yours please tell know')
    .split(' '),
);
