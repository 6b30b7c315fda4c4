import type { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import type { Document } from '@langchain/core/documents';
import type { Config } from '../../../config.js';
import type { FileStore } from '../../../infra/file-store.js';
import type { KbContent } from '../../../generated/prisma/client.js';
import { loadDocumentClass, type ContentMetadata } from './documents.js';
import { documentText, ExtractionError, normalizeText, type DocumentReader } from './extract.js';
import { bodyText, fetchDocument } from './fetch.js';

// A content's text as a LangChain document loader. Community loaders fetch with the global fetch
// and parse on the event loop with no bound on what a document decompresses to, so the loader is
// ours: urls are fetched through the outbound rules (every redirect hop checked, size and time
// bounded: fetch.ts), HTML, PDF and DOCX are read in child processes within the inflate and archive
// limits (extraction-pool.ts); in those processes a PDF's pages are read by @langchain/community's
// WebPDFLoader, given our pdf-parse once its streams are checked (document-readers.ts).

export interface LoaderSources {
  config: Config;
  files: FileStore;
  reader: DocumentReader;
}

export type KbContentLoader = BaseDocumentLoader & { content: KbContent };

let loaderClass: Promise<new (content: KbContent, sources: LoaderSources) => KbContentLoader> | undefined;

export function contentLoader(content: KbContent, sources: LoaderSources): Promise<KbContentLoader> {
  loaderClass ??= Promise.all([import('@langchain/core/document_loaders/base'), loadDocumentClass()]).then(([{ BaseDocumentLoader }, Doc]) => {
    class ContentLoader extends BaseDocumentLoader {
      constructor(
        readonly content: KbContent,
        private sources: LoaderSources,
      ) {
        super();
      }

      async load(): Promise<Array<Document<ContentMetadata>>> {
        const { content } = this;
        const metadata: ContentMetadata = { contentId: content.id, namespace: content.namespace, type: content.type, source: content.source };
        if (content.type === 'text' || content.type === 'faq') {
          return [new Doc({ pageContent: normalizeText(content.content), metadata })];
        }
        const extracted = await this.extract();
        const text = extracted.title && !extracted.text.startsWith(extracted.title) ? `${extracted.title}\n\n${extracted.text}` : extracted.text;
        if (!text.trim()) throw new ExtractionError('no text could be read from the document');
        const extra = { ...(extracted.title ? { title: extracted.title } : {}), ...(extracted.pages ? { pages: extracted.pages } : {}) };
        return [new Doc({ pageContent: text, metadata: { ...metadata, ...extra } })];
      }

      private async extract() {
        const { content, sources } = this;
        const kind = content.type as 'url' | 'pdf' | 'docx';
        if (content.file) {
          const body = await readUpload(sources.files, content.file);
          return documentText(kind, { mediaType: '', body, text: () => body.toString('utf8') }, sources.reader);
        }
        const { kb, outbound } = sources.config;
        const limits = { maxBytes: kb.fetchMaxBytes, inflateMaxBytes: kb.inflateMaxBytes, timeoutMs: kb.fetchTimeoutMs, policy: outbound };
        const document = await fetchDocument(content.source ?? '', limits);
        return documentText(kind, { ...document, text: () => bodyText(document) }, sources.reader);
      }
    }
    return ContentLoader;
  });
  return loaderClass.then((Class) => new Class(content, sources));
}

async function readUpload(files: FileStore, file: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  try {
    for await (const part of files.read(file)) parts.push(part as Buffer);
  } catch (error) {
    throw new ExtractionError(`the uploaded file cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return Buffer.concat(parts);
}
