import { AppError, badInput } from '../errors.js';

// A multipart/form-data body read whole as a form, cut off with 413 as soon as it passes the
// limit (a client may not send a length). Uploads of one file stream instead (files/multipart.ts).

// Room for boundaries, part headers and the small fields around a file.
export const formEnvelopeBytes = 64 * 1024;

/** Whether a Content-Type is multipart (any subtype): a body with limits of its own. */
export const isMultipart = (contentType: string | undefined) => /^multipart\//i.test(contentType ?? '');

/** Whether a Content-Type is a form (multipart/form-data), as uploads and forms are sent. */
export const isFormData = (contentType: string | undefined) => /^multipart\/form-data\b/i.test(contentType ?? '');

/** The boundary a multipart Content-Type names, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const found = /^multipart\/.*;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '');
  return found ? (found[1] ?? found[2]) : null;
}

/** The 413 of a multipart part (`field`) over its limit. */
export const partTooLarge = (field: string, limit: number) => new AppError('PAYLOAD_TOO_LARGE', `${field}: larger than the ${limit}-byte limit`, { field });

/**
 * Parts a form may have: the forms read whole take a file and a few fields. Counted as the body
 * arrives, before it is parsed: parsing tens of thousands of tiny parts holds the event loop for
 * seconds (45,000 parts kept /health waiting 3.4 s).
 */
export const maxFormParts = 32;

/** The 400 of a form with more parts than `maxFormParts`. */
const tooManyParts = () => badInput('body', `body: a multipart body may have at most ${maxFormParts} parts`);

/**
 * Counts the delimiters (`--boundary`) of a multipart body as it arrives, chunk by chunk (a
 * delimiter may straddle two chunks): each part starts with one, and one more closes the body.
 */
function delimiterCounter(contentType: string) {
  const boundary = multipartBoundary(contentType);
  if (!boundary) return () => 0;
  const delimiter = Buffer.from(`--${boundary}`);
  let tail = Buffer.alloc(0);
  let count = 0;
  return (chunk: Uint8Array) => {
    const data = tail.length ? Buffer.concat([tail, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Those wholly inside the tail were counted with the chunk before.
    for (let at = data.indexOf(delimiter); at >= 0; at = data.indexOf(delimiter, at + 1)) if (at + delimiter.length > tail.length) count++;
    tail = Buffer.from(data.subarray(Math.max(0, data.length - (delimiter.length - 1))));
    return count;
  };
}

/** The form of `request`, whose parts (`field` the one that may be large) hold at most `maxBytes`, in at most `maxFormParts` parts. */
export async function readForm(request: Request, maxBytes: number, field = 'body'): Promise<FormData> {
  const limit = maxBytes + formEnvelopeBytes;
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw partTooLarge(field, maxBytes);
  if (!request.body) throw badInput(field, `${field}: is required`);
  let received = 0;
  const delimiters = delimiterCounter(request.headers.get('content-type') ?? '');
  const limited = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limit) controller.error(partTooLarge(field, maxBytes));
        else if (delimiters(chunk) > maxFormParts + 1) controller.error(tooManyParts());
        else controller.enqueue(chunk);
      },
    }),
  );
  try {
    return await new Response(limited, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof AppError) throw cause;
    throw badInput(field, `${field}: the multipart body is malformed`);
  }
}
