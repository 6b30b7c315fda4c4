import type { Plugin } from 'graphql-yoga';
import { AppError, badInput, unauthenticated } from '../../errors.js';
import { errorResponse } from '../../rest/plugin.js';
import { addressOf } from '../../http/client-address.js';
import type { Services } from '../../services.js';
import { roleAtLeast } from '../teammates/roles.js';

// POST /v3/:project_id/kb with multipart/form-data: a PDF or DOCX file (part `file`) as a content.
// SOFA cannot take files, so this route is written by hand; it calls the same service, with the same
// credentials (admin minimum) and error bodies as the JSON form of the endpoint.
// Fields `namespace`, `name` and `type` come from the form or the query string.

const route = /^\/v3\/([^/]+)\/kb\/?$/;

const tooLarge = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', `file: larger than the ${limit}-byte limit`, { field: 'file' });

// Room for boundaries, part headers and the small fields around the file.
const envelopeBytes = 64 * 1024;

/** The request body, cut off with 413 as soon as it passes the limit (a client may not send a length). */
function limitedBody(request: Request, limit: number): ReadableStream<Uint8Array> {
  let received = 0;
  return request.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limit) controller.error(tooLarge(limit - envelopeBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
}

async function readForm(request: Request, maxFileBytes: number) {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxFileBytes + envelopeBytes) throw tooLarge(maxFileBytes);
  if (!request.body) throw badInput('file', 'file: is required');
  const limited = new Request(request.url, {
    method: 'POST',
    headers: request.headers,
    body: limitedBody(request, maxFileBytes + envelopeBytes),
    duplex: 'half',
  } as RequestInit);
  try {
    return await limited.formData();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof AppError) throw cause;
    throw badInput('file', 'file: the multipart body is malformed');
  }
}

export function useKbUpload(services: Services): Plugin {
  const { auth, teammates, kb, infra } = services;
  const maxBytes = infra.config.kb.fetchMaxBytes;

  const handle = async (request: Request, url: URL, projectId: string) => {
    const principal = await auth.authenticate(request.headers.get('authorization'), addressOf(request));
    if (!principal) throw unauthenticated();
    const teammate = await teammates.membership(projectId, principal);
    if (!teammate || !roleAtLeast(teammate.role, 'admin')) throw new AppError('FORBIDDEN', 'your role in this project does not allow this operation');
    const form = await readForm(request, maxBytes);
    const file = form.get('file') ?? form.get('uploadFile');
    if (!file || typeof file === 'string') throw badInput('file', 'file: is required (a part named `file` holding the document)');
    if (file.size > maxBytes) throw tooLarge(maxBytes);
    const field = (name: string) => {
      const value = form.get(name) ?? url.searchParams.get(name);
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const outcome = await kb.contents.upload(
      projectId,
      principal.userId,
      { namespace: field('namespace'), name: field('name'), type: field('type') },
      { filename: file.name, mediaType: file.type, bytes: new Uint8Array(await file.arrayBuffer()) },
    );
    return Response.json(JSON.parse(JSON.stringify(outcome, restRecord)));
  };

  return {
    async onRequest({ request, url, endResponse }) {
      if (request.method !== 'POST') return;
      const match = route.exec(url.pathname);
      if (!match || !/^multipart\/form-data/i.test(request.headers.get('content-type') ?? '')) return;
      try {
        endResponse(await handle(request, url, decodeURIComponent(match[1])));
      } catch (error) {
        if (!(error instanceof AppError)) infra.logger.error({ err: error }, 'knowledge-base upload failed');
        endResponse(errorResponse(error));
      }
    },
  };
}

/** The record as the REST face shows it: `_id` and `__v`, no internal fields. */
function restRecord(this: unknown, key: string, value: unknown) {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'indexSeq' in value) {
    const { v, indexSeq: _seq, file: _file, ...rest } = value as Record<string, unknown>;
    return { _id: rest.id, ...rest, __v: v };
  }
  return value;
}
