import type { DocumentInterface } from '@langchain/core/documents';
import type { Embeddings } from '@langchain/core/embeddings';
import type { VectorStore } from '@langchain/core/vectorstores';
import type { Tx } from '../../../infra/database.js';
import { chunkDocuments, type ChunkMetadata } from '../reading/documents.js';
import type { Retriever } from '../retrieval/retrieval.js';
import type { ChunkVectors } from './vectors.js';

// Our chunk vectors as a LangChain VectorStore: pgvector where the database has it, float32 bytes
// scored in the server where it does not (vectors.ts). Its documents are the knowledge base's
// chunks: a vector is stored for a chunk already written (metadata.chunkId), in the transaction that
// wrote it, so a content's chunks and vectors are replaced together. Indexing and learned
// phrasings store their vectors through it; `asRetriever()` and any LangChain retriever that
// takes a VectorStore compose with it. Embeddings come from the same encoder as everywhere
// (the local sentence encoder or the embeddings endpoint), as a LangChain Embeddings.

export interface VectorStoreScope {
  vectors: ChunkVectors;
  /** Reads chunks back for similarity searches. */
  retriever: Retriever;
  projectId: string;
  namespace: string;
  /** The transaction writing the chunks whose vectors are added. */
  tx?: Tx;
}

export type KbVectorStore = VectorStore & { scope: VectorStoreScope };

interface Kit {
  Store: new (scope: VectorStoreScope) => KbVectorStore;
  Encoder: new (vectors: ChunkVectors) => Embeddings;
}

let kit: Promise<Kit> | undefined;

function loadKit(): Promise<Kit> {
  kit ??= Promise.all([import('@langchain/core/vectorstores'), import('@langchain/core/embeddings')]).then(
    ([{ VectorStore }, { Embeddings }]) => {
      class ChunkEmbeddings extends Embeddings {
        constructor(private vectors: ChunkVectors) {
          super({});
        }
        embedDocuments(texts: string[]) {
          return this.vectors.embedDocuments(texts);
        }
        embedQuery(text: string) {
          return this.vectors.embedQuery(text);
        }
      }

      class Store extends VectorStore {
        declare FilterType: never;

        constructor(readonly scope: VectorStoreScope) {
          super(new ChunkEmbeddings(scope.vectors), {});
        }

        _vectorstoreType() {
          return 'support-platform-kb';
        }

        async addVectors(vectors: number[][], documents: DocumentInterface[]): Promise<string[]> {
          const { tx, projectId, namespace } = this.scope;
          if (!tx) throw new Error('chunk vectors are added in the transaction that writes their chunks');
          const rows = documents.map((document, i) => {
            const chunkId = (document.metadata as Partial<ChunkMetadata>).chunkId;
            if (!chunkId) throw new Error('a document without metadata.chunkId is not a stored chunk');
            return { chunkId, vector: vectors[i] };
          });
          await this.scope.vectors.save(tx, { projectId, namespace }, rows);
          return rows.map((r) => r.chunkId);
        }

        async addDocuments(documents: DocumentInterface[]): Promise<string[]> {
          return this.addVectors(await this.embeddings.embedDocuments(documents.map((d) => d.pageContent)), documents);
        }

        async similaritySearchVectorWithScore(query: number[], k: number): Promise<Array<[DocumentInterface, number]>> {
          const { retriever, projectId, namespace } = this.scope;
          const chunks = await retriever.nearestPassages(projectId, namespace, query, k);
          const documents = await chunkDocuments(chunks);
          return documents.map((d) => [d, d.metadata.similarity ?? 0]);
        }
      }
      return { Store, Encoder: ChunkEmbeddings };
    },
  );
  return kit;
}

export async function kbVectorStore(scope: VectorStoreScope): Promise<KbVectorStore> {
  const { Store } = await loadKit();
  return new Store(scope);
}
