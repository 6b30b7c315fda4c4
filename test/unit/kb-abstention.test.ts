import { describe, expect, it } from 'vitest';
import { Retriever, type RetrievalSettings } from '../../src/modules/kb/retrieval/retrieval.js';
import type { RetrievedChunk } from '../../src/modules/kb/retrieval/passage.js';
import type { ChunkVectors } from '../../src/modules/kb/indexing/vectors.js';
import type { Db } from '../../src/infra/database.js';
import type { Logger } from '../../src/infra/logger.js';

// Whether the best chunk answers a question at all (abstention), from the signals retrieval
// measures: coverage, similarity and the question's familiarity (the share of its meaningful words
// some content of the knowledge base uses). The local encoder's similarity floor depends on
// familiarity (calibrated on CovidFAQ, docs/knowledge-bases.md); other floors do not.

function retriever(vectors: { localEncoder: boolean; minSimilarity: number }, settings: Partial<RetrievalSettings> = {}) {
  return new Retriever({} as Db, { enabled: true, ...vectors } as unknown as ChunkVectors, {} as Logger, {
    ranking: 'fusion',
    denseWeight: 0.3,
    minCoverage: 0.3,
    ...settings,
  });
}
const local = () => retriever({ localEncoder: true, minSimilarity: 0.55 });

function best(signals: Pick<RetrievedChunk, 'coverage' | 'similarity'> & { familiar?: number; learned?: string }): RetrievedChunk {
  return { id: 'c', contentId: 'k', position: 0, text: 'text', contentName: 'name', contentType: 'faq', source: null, score: 1, ...signals };
}

describe('abstention with the local encoder', () => {
  it('answers a question most of whose words the knowledge base uses from similarity 0.4', () => {
    expect(local().relevant(best({ coverage: 0.2, similarity: 0.45, familiar: 0.75 }))).toBe(true);
    expect(local().relevant(best({ coverage: 0.2, similarity: 0.38, familiar: 0.75 }))).toBe(false);
  });

  it('holds a question most of whose words the knowledge base never uses to the plain floor 0.55 on a content\'s own chunk', () => {
    expect(local().relevant(best({ coverage: 0.2, similarity: 0.5, familiar: 0.25 }))).toBe(false);
    expect(local().relevant(best({ coverage: 0.2, similarity: 0.58, familiar: 0.25 }))).toBe(true);
  });

  it('asks 0.65 of such a question found only through a learned phrasing', () => {
    expect(local().relevant(best({ coverage: 0.2, similarity: 0.6, familiar: 0.25, learned: 'what does a leaf diagram show' }))).toBe(false);
    expect(local().relevant(best({ coverage: 0.2, similarity: 0.7, familiar: 0.25, learned: 'what does a leaf diagram show' }))).toBe(true);
  });

  it('keeps the plain floor 0.55 where familiarity is not measured (vector search alone)', () => {
    expect(local().relevant(best({ coverage: 0, similarity: 0.5 }))).toBe(false);
    expect(local().relevant(best({ coverage: 0, similarity: 0.6 }))).toBe(true);
  });

  it('answers whatever the similarity when the chunk holds enough of the question\'s words', () => {
    expect(local().relevant(best({ coverage: 0.3, similarity: 0.1, familiar: 0.25 }))).toBe(true);
  });
});

describe('abstention with another floor', () => {
  it('uses KB_MIN_SIMILARITY, when set, as one floor for every question', () => {
    const configured = retriever({ localEncoder: true, minSimilarity: 0.55 }, { minSimilarity: 0.5 });
    expect(configured.relevant(best({ coverage: 0, similarity: 0.45, familiar: 1 }))).toBe(false);
    expect(configured.relevant(best({ coverage: 0, similarity: 0.55, familiar: 0 }))).toBe(true);
  });

  it('uses an embeddings endpoint\'s floor for every question (its similarity scale is not the local encoder\'s)', () => {
    const endpoint = retriever({ localEncoder: false, minSimilarity: 0.2 });
    expect(endpoint.relevant(best({ coverage: 0, similarity: 0.21, familiar: 0 }))).toBe(true);
    expect(endpoint.relevant(best({ coverage: 0, similarity: 0.19, familiar: 1 }))).toBe(false);
  });
});
