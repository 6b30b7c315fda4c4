import type { Document } from '@langchain/core/documents';
import type { RetrievedChunk } from '../retrieval/passage.js';

// Knowledge-base text travels as LangChain Documents: a loader's Document carries its content's
// identity (contentId, namespace, type, source, title), the splitter copies it to every chunk (and
// adds `loc`), the vector store and the retriever answer Documents whose metadata holds the chunk,
// its content and the ranking signals, and the answer chain reads passages from them.

/** What a retrieved chunk's Document says besides its text: the chunk's fields, its id as `chunkId`. */
export type ChunkMetadata = Omit<RetrievedChunk, 'id' | 'text'> & { chunkId: string };

/** What a content's Document says besides its text (loaders.ts). */
export interface ContentMetadata {
  contentId: string;
  namespace: string;
  type: string;
  source: string | null;
  title?: string;
  /** Pages of a PDF. */
  pages?: number;
}

let documentClass: Promise<typeof Document> | undefined;
/** LangChain's Document class, loaded with the first Document made. */
export const loadDocumentClass = () => (documentClass ??= import('@langchain/core/documents').then((m) => m.Document));

export async function chunkDocuments(chunks: RetrievedChunk[]): Promise<Array<Document<ChunkMetadata>>> {
  const Doc = await loadDocumentClass();
  return chunks.map(
    (c) =>
      new Doc<ChunkMetadata>({
        id: c.id,
        pageContent: c.text,
        metadata: {
          chunkId: c.id,
          contentId: c.contentId,
          position: c.position,
          contentName: c.contentName,
          contentType: c.contentType,
          source: c.source,
          score: c.score,
          coverage: c.coverage,
          similarity: c.similarity,
          ...(c.familiar !== undefined ? { familiar: c.familiar } : {}),
          ...(c.learned ? { learned: c.learned } : {}),
        },
      }),
  );
}

export function chunkOf(document: Document<ChunkMetadata>): RetrievedChunk {
  const m = document.metadata;
  return {
    id: m.chunkId,
    contentId: m.contentId,
    position: m.position,
    text: document.pageContent,
    contentName: m.contentName,
    contentType: m.contentType,
    source: m.source,
    score: m.score,
    coverage: m.coverage,
    similarity: m.similarity,
    ...(m.familiar !== undefined ? { familiar: m.familiar } : {}),
    ...(m.learned ? { learned: m.learned } : {}),
  };
}
