import { Busboy } from '@fastify/busboy';
import { badInput } from '../../errors.js';
import { formEnvelopeBytes, isFormData, partTooLarge } from '../../http/multipart-form.js';

// Reads the `file` part of a multipart/form-data request into memory, refusing anything
// larger than the limit as soon as it is seen, without reading the rest of the body.

export interface Upload {
  filename: string;
  bytes: Buffer;
}

export const tooLarge = (maxBytes: number) => partTooLarge('file', maxBytes);

export async function readUpload(request: Request, maxBytes: number): Promise<Upload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!isFormData(contentType)) {
    throw badInput('file', 'file: send multipart/form-data with the file in a part named `file`');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes + formEnvelopeBytes) throw tooLarge(maxBytes);
  if (!request.body) throw badInput('file', 'file: is required');

  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 8 * 1024, parts: 21 },
    });
  } catch {
    throw badInput('file', 'file: the multipart body has no boundary');
  }

  return new Promise<Upload>((resolve, reject) => {
    let upload: Upload | undefined;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
      parser.destroy();
    };

    parser.on('file', (field, stream, filename) => {
      stream.on('error', () => fail(badInput('file', 'file: the multipart body is malformed')));
      if (field !== 'file') {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      stream.on('end', () => {
        if (!stream.truncated) upload = { filename: filename ?? '', bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('filesLimit', () => fail(badInput('file', 'file: send one file per request')));
    parser.on('error', () => fail(badInput('file', 'file: the multipart body is malformed')));
    parser.on('finish', () => {
      if (settled) return;
      settled = true;
      if (upload) resolve(upload);
      else reject(badInput('file', 'file: is required (a part named `file` with a file name)'));
    });

    void (async () => {
      let received = 0;
      try {
        for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
          if (settled) break;
          received += chunk.byteLength;
          if (received > maxBytes + formEnvelopeBytes) return fail(tooLarge(maxBytes));
          parser.write(chunk);
        }
        if (!settled) parser.end();
      } catch {
        fail(badInput('file', 'file: the upload was interrupted'));
      }
    })();
  });
}
