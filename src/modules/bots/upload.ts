import type { Plugin } from 'graphql-yoga';
import { badInput } from '../../errors.js';
import { errorResponse, restBasePath } from '../../rest/plugin.js';

// SOFA reads JSON bodies only. A multipart `importjson` (the exported file as `uploadFile`)
// is turned into the equivalent JSON request before the REST plugin sees it, so it reaches
// the same field, with the same auth, service and errors.

const importPath = new RegExp(`^${restBasePath}/[^/]+/(bots|faq_kb)/importjson/[^/]+/?$`);

async function asJsonRequest(request: Request): Promise<Request> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw badInput('uploadFile', 'uploadFile: the multipart body could not be read');
  }
  const file = form.get('uploadFile');
  if (file === null) throw badInput('uploadFile', 'uploadFile: is required');
  const text = typeof file === 'string' ? file : await file.text();
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Request(request.url, { method: 'POST', headers, body: JSON.stringify({ uploadFile: text }) });
}

/** Registered before the REST plugin, which then receives the JSON request. */
export function useBotImportUpload(): Plugin {
  return {
    async onRequest({ request, url, setRequest, endResponse }) {
      if (request.method !== 'POST' || !importPath.test(url.pathname)) return;
      if (!request.headers.get('content-type')?.toLowerCase().startsWith('multipart/form-data')) return;
      try {
        setRequest(await asJsonRequest(request));
      } catch (error) {
        endResponse(errorResponse(error));
      }
    },
  };
}
