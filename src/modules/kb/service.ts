import type { Infrastructure } from '../../infra/index.js';
import { ChatAnswerer } from './answering/answer.js';
import { ContentService } from './contents.js';
import { IndexingService } from './indexing/indexing.js';
import { LearningService } from './learning/learning.js';
import { KnowledgeBaseService } from './namespaces.js';
import { QaService } from './answering/qa.js';
import { Retriever } from './retrieval/retrieval.js';
import { readSitemap } from './reading/sitemap.js';
import { ChunkVectors } from './indexing/vectors.js';
import { KbTestSuites } from './learning/test-suites.js';

/** Knowledge bases: namespaces, contents, their indexing, and question answering over them. */
export class KbService {
  readonly namespaces: KnowledgeBaseService;
  readonly contents: ContentService;
  readonly indexing: IndexingService;
  readonly retriever: Retriever;
  readonly qa: QaService;
  /** Learned phrasings and feedback (learning.ts). */
  readonly learning: LearningService;
  /** Batch tests of a knowledge base and their runs (test-suites.ts). */
  readonly tests: KbTestSuites;
  /** Chunk vectors (an embeddings endpoint or the local encoder); the bench loads the encoder before timing. */
  readonly vectors: ChunkVectors;

  constructor(private infra: Infrastructure) {
    const { config, logger, eventLog, files, queue } = infra;
    const db = infra.database.prisma;
    const vectors = new ChunkVectors(db, config, infra.database.hasVector, logger);
    this.vectors = vectors;
    this.namespaces = new KnowledgeBaseService(db, eventLog, files, logger, config.llm.model);
    const { ranking, denseWeight, minCoverage, minSimilarity, largeNamespace, candidateBudget } = config.kb;
    this.retriever = new Retriever(db, vectors, logger, { ranking, denseWeight, minCoverage, minSimilarity, largeNamespace, candidateBudget });
    this.indexing = new IndexingService(db, eventLog, queue, files, vectors, config, logger, this.retriever);
    this.contents = new ContentService(db, eventLog, this.indexing, files, this.namespaces);
    this.learning = new LearningService(db, this.namespaces, vectors, this.retriever, logger);
    const answerer = config.llm.baseUrl ? new ChatAnswerer({ ...config.llm, baseUrl: config.llm.baseUrl }, config.outbound) : null;
    this.tests = new KbTestSuites(db, this.namespaces, this.retriever, this.learning);
    this.qa = new QaService(this.namespaces, this.retriever, this.learning, answerer, logger);
  }

  /** The page urls of a sitemap (following sitemap indexes); nothing is stored. */
  sitemap(input: unknown) {
    const { kb, outbound } = this.infra.config;
    return readSitemap(input, {
      maxBytes: kb.fetchMaxBytes,
      inflateMaxBytes: kb.inflateMaxBytes,
      timeoutMs: kb.fetchTimeoutMs,
      policy: outbound,
      deadlineMs: kb.sitemapTimeoutMs,
      maxDocuments: kb.sitemapMaxDocuments,
    });
  }
}
