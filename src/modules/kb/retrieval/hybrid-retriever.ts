import type { BaseRetriever } from '@langchain/core/retrievers';
import type { Document } from '@langchain/core/documents';
import { chunkDocuments, type ChunkMetadata } from '../reading/documents.js';
import type { Retriever, RetrievalMode } from './retrieval.js';

// Our lexical + dense fusion (retrieval.ts) as a LangChain retriever: question answering asks it
// for Documents, and any LangChain chain or ensemble can use it as it uses any other retriever.
// The class is made at its first use, when LangChain's core is loaded.

export interface HybridRetrieverFields {
  retriever: Retriever;
  projectId: string;
  namespace: string;
  topK: number;
  mode?: RetrievalMode;
}

export type KbHybridRetriever = BaseRetriever<ChunkMetadata> & { fields: HybridRetrieverFields };

let retrieverClass: Promise<new (fields: HybridRetrieverFields) => KbHybridRetriever> | undefined;

export function hybridRetriever(fields: HybridRetrieverFields): Promise<KbHybridRetriever> {
  retrieverClass ??= import('@langchain/core/retrievers').then(({ BaseRetriever }) => {
    class HybridRetriever extends BaseRetriever<ChunkMetadata> {
      lc_namespace = ['support_platform', 'kb', 'retrievers'];

      constructor(readonly fields: HybridRetrieverFields) {
        super({});
      }

      static lc_name() {
        return 'KbHybridRetriever';
      }

      async _getRelevantDocuments(query: string): Promise<Array<Document<ChunkMetadata>>> {
        const { retriever, projectId, namespace, topK, mode } = this.fields;
        return chunkDocuments(await retriever.search(projectId, namespace, query, topK, { mode }));
      }
    }
    return HybridRetriever;
  });
  return retrieverClass.then((Class) => new Class(fields));
}
