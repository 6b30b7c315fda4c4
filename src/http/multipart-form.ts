import { AppError, badInput } from '../errors.js';

// A multipart/form-data body read whole as a form, cut off with 413 as soon as it passes the
// limit (a client may not send a length). Uploads of one file stream instead (files/multipart.ts).

// Room for boundaries, part headers and the small fields around a file.
export const formEnvelopeBytes = 64 * 1024;

/** The 413 of a multipart part (`field`) over its limit. */
export const partTooLarge = (field: string, limit: number) => new AppError('PAYLOAD_TOO_LARGE', `${field}: larger than the ${limit}-byte limit`, { field });

/** The form of `request`, whose parts (`field` the one that may be large) hold at most `maxBytes`. */
export async function readForm(request: Request, maxBytes: number, field = 'body'): Promise<FormData> {
  const limit = maxBytes + formEnvelopeBytes;
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw partTooLarge(field, maxBytes);
  if (!request.body) throw badInput(field, `${field}: is required`);
  let received = 0;
  const limited = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limit) controller.error(partTooLarge(field, maxBytes));
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
