import { Readable } from 'node:stream';
import type { Plugin } from 'graphql-yoga';
import { AppError, unauthenticated } from '../../errors.js';
import { errorResponse } from '../../rest/plugin.js';
import { addressOf } from '../../http/client-address.js';
import type { Services } from '../../services.js';
import { isActiveContent } from './content-type.js';
import { readUpload } from './multipart.js';

// Upload and download routes: multipart and binary bodies, which SOFA cannot generate.
// Same services, credentials and error bodies as the rest of /v3.

type Handler = (request: Request, url: URL, params: string[]) => Promise<Response>;
interface Route {
  method: string;
  pattern: RegExp;
  handle: Handler;
}

function contentDisposition(kind: 'inline' | 'attachment', storagePath: string) {
  const name = storagePath.split('/').pop() ?? 'file';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The method and path of each route below, for the REST face's direct lane to leave alone. */
const filePaths = {
  uploadFile: ['POST', /^\/v3\/files\/users$/],
  uploadImage: ['POST', /^\/v3\/images\/users$/],
  file: ['GET', /^\/v3\/files$/],
  download: ['GET', /^\/v3\/files\/download$/],
  image: ['GET', /^\/v3\/images$/],
  remove: ['DELETE', /^\/v3\/files$/],
  uploadToProject: ['POST', /^\/v3\/([^/]+)\/files$/],
} satisfies Record<string, [string, RegExp]>;

/** True when these routes answer `method` `pathname` (no trailing slash). */
export function isFileRoute(method: string, pathname: string) {
  return Object.values(filePaths).some(([m, pattern]) => m === method && pattern.test(pathname));
}

export function useFileRoutes(services: Services): Plugin {
  const { auth, files, infra } = services;

  const caller = async (request: Request) => {
    const principal = await auth.authenticate(request.headers.get('authorization'), addressOf(request));
    if (!principal) throw unauthenticated();
    return principal;
  };
  const receive = (request: Request) => () => readUpload(request, files.limits.maxBytes);

  const serve = (disposition: 'inline' | 'attachment', image = false): Handler => async (request, url) => {
    const { file, stream } = await files.open(await caller(request), url.searchParams.get('path'), { image });
    // Pages and SVG would run in our origin if rendered: they are only ever downloaded.
    const kind = disposition === 'attachment' || isActiveContent(file.contentType) ? 'attachment' : 'inline';
    return new Response(Readable.toWeb(stream) as ReadableStream, {
      status: 200,
      headers: {
        'Content-Type': file.contentType.startsWith('text/') ? `${file.contentType}; charset=utf-8` : file.contentType,
        'Content-Length': String(file.size),
        'Content-Disposition': contentDisposition(kind, file.path),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cache-Control': 'private, max-age=3600',
      },
    });
  };

  const handlers: Record<keyof typeof filePaths, Handler> = {
    uploadFile: async (request) => Response.json(await files.uploadFile(await caller(request), receive(request))),
    uploadImage: async (request) => Response.json(await files.uploadImage(await caller(request), receive(request))),
    file: serve('inline'),
    download: serve('attachment'),
    image: serve('inline', true),
    remove: async (request, url) => Response.json(await files.remove(await caller(request), url.searchParams.get('path'))),
    uploadToProject: async (request, _url, [projectId]) =>
      Response.json(await files.uploadToProject(projectId, await caller(request), receive(request))),
  };
  const routes: Route[] = (Object.keys(filePaths) as Array<keyof typeof filePaths>).map((name) => ({
    method: filePaths[name][0],
    pattern: filePaths[name][1],
    handle: handlers[name],
  }));

  return {
    async onRequest({ request, url, endResponse }) {
      const pathname = url.pathname.replace(/(.)\/+$/, '$1');
      for (const route of routes) {
        const match = route.pattern.exec(pathname);
        if (!match || route.method !== request.method) continue;
        try {
          endResponse(await route.handle(request, url, match.slice(1)));
        } catch (error) {
          if (!(error instanceof AppError)) infra.logger.error({ err: error, path: pathname }, 'file route failed');
          endResponse(errorResponse(error));
        }
        return;
      }
    },
  };
}
