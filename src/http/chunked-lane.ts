import type { Yoga } from './yoga.js';
import { tooLargeReply, yogaReply, type Lane } from './listener.js';
import { NodeRequestView, readBody, requestUrl } from './node-request.js';
import { isMultipart } from './multipart-form.js';

// A body sent in chunks declares no length, so yoga's plugins cannot refuse it up front: whatever
// no other lane took is read here up to the limit (413 beyond) and then handed to yoga. Uploads
// (multipart) are left alone: they are streamed with limits of their own.

export function chunkedBodyLane({ yoga, bodyLimitBytes }: { yoga: Yoga; bodyLimitBytes: number }): Lane {
  return (req) => {
    if (req.headers['transfer-encoding'] === undefined || req.headers['content-length'] !== undefined) return null;
    if (isMultipart(req.headers['content-type'])) return null;
    return async () => {
      const raw = await readBody(req, bodyLimitBytes);
      if (raw === null) {
        return tooLargeReply(bodyLimitBytes);
      }
      const view = new NodeRequestView(req.method ?? 'POST', requestUrl(req), req, raw);
      return yogaReply(yoga, view, req);
    };
  };
}
