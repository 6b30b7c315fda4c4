/**
 * An error body without its `request_id`: two answers are "the same error" when everything but the
 * per-request id is equal (the id names the request, not the error).
 */
export function withoutRequestId<T>(body: T): T {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { request_id: _ignored, ...rest } = body as Record<string, unknown>;
  return rest as T;
}
