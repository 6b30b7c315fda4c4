import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestServer, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
const maxBytes = 3_000_000;

beforeAll(async () => {
  // Above the 1 MB JSON body limit, to show uploads have their own.
  t = await createTestApp({ FILE_MAX_BYTES: String(maxBytes) });
  p = await t.seedProject('Files');
});
afterAll(() => t.close());

// Real files, made here.
function png(width = 640, height = 320) {
  return sharp({ create: { width, height, channels: 4, background: '#3366ccff' } }).png().toBuffer();
}
function jpeg(width = 400, height = 400) {
  return sharp({ create: { width, height, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();
}
const pdf = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
  ].join('\n'),
);
const html = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');

function form(bytes: Buffer, name: string, clientType = 'application/octet-stream', field = 'file') {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)], { type: clientType }), name);
  return body;
}

const upload = (path: string, bytes: Buffer, name: string, token: string | undefined, clientType?: string, app = t) =>
  app.post(path, { token, body: form(bytes, name, clientType) });

async function download(path: string, token: string, app = t) {
  const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: token } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}
const q = (storagePath: string) => encodeURIComponent(storagePath);

describe('GET /v3/files/limits', () => {
  it('tells anyone the upload limits, over REST and GraphQL alike', async () => {
    const rest = await t.get('/v3/files/limits');
    expect(rest.status).toBe(200);
    expect(rest.body.maxBytes).toBe(maxBytes);
    expect(rest.body.allowedTypes).toContain('application/pdf');
    const gql = await t.gql('{ fileLimits { maxBytes allowedTypes maxPixels } }');
    expect(gql.body.data.fileLimits).toEqual(rest.body);
  });
});

describe('POST /v3/files/users', () => {
  it('stores a PDF under the caller\'s folder and answers with its storage path', async () => {
    const res = await upload('/v3/files/users', pdf, 'Quarterly report.pdf', p.agent.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'File uploaded successfully', contentType: 'application/pdf', size: pdf.length });
    expect(res.body.filename).toMatch(new RegExp(`^users/${p.agent.userId}/files/[0-9a-f-]{36}/Quarterly_report\\.pdf$`));
    expect(res.body.thumbnail).toBeUndefined();
  });

  it('serves the same bytes back to the uploader', async () => {
    const { body } = await upload('/v3/files/users', pdf, 'a.pdf', p.agent.token);
    const res = await download(`/v3/files?path=${q(body.filename)}`, p.agent.token);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(pdf)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="a\.pdf"/);
  });

  it('takes the type from the bytes, not from the client\'s header or name', async () => {
    const res = await upload('/v3/files/users', await png(), 'notes.txt', p.agent.token, 'text/plain');
    expect(res.body.contentType).toBe('image/png');
  });

  it('refuses an HTML page renamed .png', async () => {
    const res = await upload('/v3/files/users', html, 'cat.png', p.agent.token, 'image/png');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field: 'file' });
    expect(res.body.message).toMatch(/text\/html/);
  });

  it('sanitises the file name so it stays one segment of the caller\'s folder', async () => {
    const res = await upload('/v3/files/users', pdf, '../../etc/pass wd?<x>.pdf', p.agent.token);
    expect(res.status).toBe(200);
    expect(res.body.filename).toMatch(new RegExp(`^users/${p.agent.userId}/files/[0-9a-f-]{36}/pass_wd_x_\\.pdf$`));
  });

  it('keeps letters of any script in names and serves them back', async () => {
    const res = await upload('/v3/files/users', pdf, 'Café menü.pdf', p.agent.token);
    expect(res.body.filename).toMatch(/\/Café_menü\.pdf$/);
    const served = await download(`/v3/files/download?path=${q(res.body.filename)}`, p.agent.token);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename="Caf__men_.pdf"; filename*=UTF-8''${encodeURIComponent('Café_menü.pdf')}`);
  });

  it('accepts a file larger than the JSON body limit but within FILE_MAX_BYTES', async () => {
    const text = Buffer.alloc(1_500_000, 'a');
    const res = await upload('/v3/files/users', text, 'big.txt', p.agent.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentType: 'text/plain', size: 1_500_000 });
  });

  it('answers 413 for a file over FILE_MAX_BYTES', async () => {
    const res = await upload('/v3/files/users', Buffer.alloc(maxBytes + 1, 'a'), 'huge.txt', p.agent.token);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'file' });
  });

  it('answers 400 for an empty file', async () => {
    const res = await upload('/v3/files/users', Buffer.alloc(0), 'empty.txt', p.agent.token);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('file');
  });

  it('answers 400 naming file when the part is missing or the body is not multipart', async () => {
    const wrongField = await t.post('/v3/files/users', { token: p.agent.token, body: form(pdf, 'a.pdf', 'application/pdf', 'document') });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.field).toBe('file');
    const json = await t.post('/v3/files/users', { token: p.agent.token, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.field).toBe('file');
  });

  it('answers 400 for a multipart body cut short', async () => {
    const body = '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf a fi';
    const res = await t.post('/v3/files/users', {
      token: p.agent.token,
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=b0undary' },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('file');
  });

  it('answers 401 without credentials', async () => {
    const res = await upload('/v3/files/users', pdf, 'a.pdf', undefined);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('records the file with its detected type, size and uploader', async () => {
    const { body } = await upload('/v3/files/users', pdf, 'r.pdf', p.agent.token);
    const record = await t.infra.database.prisma.storedFile.findUnique({ where: { path: body.filename } });
    expect(record).toMatchObject({ id_project: null, contentType: 'application/pdf', size: pdf.length, createdBy: p.agent.userId });
  });
});

describe('POST /v3/images/users', () => {
  it('stores the image and a thumbnail that fits 200x200, keeping its proportions', async () => {
    const res = await upload('/v3/images/users', await png(640, 320), 'banner.png', p.agent.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Image uploaded successfully');
    expect(res.body.filename).toMatch(new RegExp(`^users/${p.agent.userId}/images/[0-9a-f-]{36}/banner\\.png$`));
    expect(res.body.thumbnail).toBe(res.body.filename.replace('banner.png', 'thumbnails_200_200-banner.png'));
    const thumbnail = await download(`/v3/images?path=${q(res.body.thumbnail)}`, p.agent.token);
    expect(thumbnail.headers.get('content-type')).toBe('image/png');
    const decoded = await sharp(thumbnail.bytes).metadata();
    expect([decoded.width, decoded.height]).toEqual([200, 100]);
  });

  it('does not enlarge a small image', async () => {
    const res = await upload('/v3/images/users', await png(50, 40), 'icon.png', p.agent.token);
    const decoded = await sharp((await download(`/v3/images?path=${q(res.body.thumbnail)}`, p.agent.token)).bytes).metadata();
    expect([decoded.width, decoded.height]).toEqual([50, 40]);
  });

  it('keeps JPEG thumbnails in JPEG', async () => {
    const res = await upload('/v3/images/users', await jpeg(), 'photo.jpg', p.agent.token);
    expect(res.body.contentType).toBe('image/jpeg');
    const thumbnail = await download(`/v3/images?path=${q(res.body.thumbnail)}`, p.agent.token);
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
  });

  it('serves the original image at GET /images', async () => {
    const image = await png();
    const res = await upload('/v3/images/users', image, 'x.png', p.agent.token);
    const served = await download(`/v3/images?path=${q(res.body.filename)}`, p.agent.token);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(image)).toBe(true);
  });

  it('refuses an HTML page renamed .png', async () => {
    const res = await upload('/v3/images/users', html, 'cat.png', p.agent.token, 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('file');
  });

  it('refuses a PDF', async () => {
    const res = await upload('/v3/images/users', pdf, 'doc.png', p.agent.token, 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('file');
  });

  it('refuses a PNG that does not decode', async () => {
    const truncated = (await png()).subarray(0, 60);
    const res = await upload('/v3/images/users', truncated, 'broken.png', p.agent.token);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('file');
  });
});

describe('GET /v3/files, /v3/files/download and /v3/images', () => {
  it('GET /files/download sends the file as an attachment', async () => {
    const { body } = await upload('/v3/files/users', pdf, 'report.pdf', p.agent.token);
    const res = await download(`/v3/files/download?path=${q(body.filename)}`, p.agent.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="report\.pdf"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('GET /images answers 400 for a file that is not an image', async () => {
    const { body } = await upload('/v3/files/users', pdf, 'report.pdf', p.agent.token);
    const res = await t.get(`/v3/images?path=${q(body.filename)}`, { token: p.agent.token });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('path');
  });

  it.each([
    ['a parent directory', '../../etc/passwd'],
    ['an encoded parent directory', '%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
    ['a doubly encoded parent directory', '%252e%252e%252fetc%252fpasswd'],
    ['a backslash parent directory', '..\\..\\etc\\passwd'],
    ['an absolute path', '/etc/passwd'],
  ])('answers 400 naming path for %s', async (_case, path) => {
    for (const route of ['/v3/files', '/v3/files/download', '/v3/images']) {
      const res = await t.get(`${route}?path=${encodeURIComponent(path)}`, { token: p.agent.token });
      expect(res.status, route).toBe(400);
      expect(res.body.field, route).toBe('path');
    }
  });

  it('answers 400 when path is missing', async () => {
    const res = await t.get('/v3/files', { token: p.agent.token });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('path');
  });

  it('answers 404 for a path nothing was uploaded to', async () => {
    const res = await t.get(`/v3/files?path=${q(`users/${p.agent.userId}/files/none/a.pdf`)}`, { token: p.agent.token });
    expect(res.status).toBe(404);
  });

  it('answers 404 to anyone but the uploader of a user file, as for a path nothing was uploaded to', async () => {
    const { body } = await upload('/v3/files/users', pdf, 'private.pdf', p.agent.token);
    const res = await t.get(`/v3/files?path=${q(body.filename)}`, { token: p.owner.token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('answers 401 without credentials', async () => {
    const { body } = await upload('/v3/files/users', pdf, 'private.pdf', p.agent.token);
    expect((await t.get(`/v3/files?path=${q(body.filename)}`)).status).toBe(401);
  });
});

describe('POST /v3/:project_id/files', () => {
  it('lets a guest attach a file that the project\'s teammates can read', async () => {
    const res = await upload(`/v3/${p.projectId}/files`, pdf, 'invoice.pdf', p.guest.token);
    expect(res.status).toBe(200);
    expect(res.body.filename).toMatch(new RegExp(`^projects/${p.projectId}/files/[0-9a-f-]{36}/invoice\\.pdf$`));
    for (const member of [p.agent, p.admin, p.owner]) {
      expect((await download(`/v3/files?path=${q(res.body.filename)}`, member.token)).status).toBe(200);
    }
  });

  it('makes a thumbnail for an image attachment', async () => {
    const res = await upload(`/v3/${p.projectId}/files`, await png(), 'screenshot.png', p.guest.token);
    expect(res.body.thumbnail).toMatch(/thumbnails_200_200-screenshot\.png$/);
    expect((await download(`/v3/images?path=${q(res.body.thumbnail)}`, p.agent.token)).status).toBe(200);
  });

  it('logs file.create in the project event log', async () => {
    const res = await upload(`/v3/${p.projectId}/files`, pdf, 'logged.pdf', p.guest.token);
    const events = await t.infra.eventLog.readAfter(p.projectId, 0);
    expect(events.find((e) => e.name === 'file.create' && e.payload.path === res.body.filename)).toBeDefined();
  });

  it('answers 403 to someone outside the project, 401 without credentials', async () => {
    const outsider = await t.newUser('outsider');
    expect((await upload(`/v3/${p.projectId}/files`, pdf, 'a.pdf', outsider.token)).status).toBe(403);
    expect((await upload(`/v3/${p.projectId}/files`, pdf, 'a.pdf', undefined)).status).toBe(401);
  });

  it('keeps attachments from another project\'s members (404)', async () => {
    const other = await t.seedProject('Elsewhere');
    const { body } = await upload(`/v3/${p.projectId}/files`, pdf, 'secret.pdf', p.guest.token);
    expect((await t.get(`/v3/files?path=${q(body.filename)}`, { token: other.owner.token })).status).toBe(404);
    expect((await t.delete(`/v3/files?path=${q(body.filename)}`, { token: other.owner.token })).status).toBe(404);
  });
});

describe('DELETE /v3/files', () => {
  it('lets the uploader delete an image together with its thumbnail', async () => {
    const { body } = await upload('/v3/images/users', await png(), 'gone.png', p.agent.token);
    const res = await t.delete(`/v3/files?path=${q(body.filename)}`, { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'File deleted', filename: body.filename });
    expect((await t.get(`/v3/images?path=${q(body.filename)}`, { token: p.agent.token })).status).toBe(404);
    expect((await t.get(`/v3/images?path=${q(body.thumbnail)}`, { token: p.agent.token })).status).toBe(404);
  });

  it('lets a project admin delete a member\'s attachment, logging file.delete', async () => {
    const { body } = await upload(`/v3/${p.projectId}/files`, pdf, 'spam.pdf', p.guest.token);
    const res = await t.delete(`/v3/files?path=${q(body.filename)}`, { token: p.admin.token });
    expect(res.status).toBe(200);
    const events = await t.infra.eventLog.readAfter(p.projectId, 0);
    expect(events.find((e) => e.name === 'file.delete' && e.payload.path === body.filename)).toBeDefined();
  });

  it('answers 403 to a project agent who did not upload the file', async () => {
    const { body } = await upload(`/v3/${p.projectId}/files`, pdf, 'keep.pdf', p.guest.token);
    const res = await t.delete(`/v3/files?path=${q(body.filename)}`, { token: p.agent.token });
    expect(res.status).toBe(403);
    expect((await download(`/v3/files?path=${q(body.filename)}`, p.guest.token)).status).toBe(200);
  });

  it('answers 404 for an unknown path and 400 for an escaping one', async () => {
    expect((await t.delete(`/v3/files?path=${q('users/x/files/y/z.pdf')}`, { token: p.agent.token })).status).toBe(404);
    expect((await t.delete(`/v3/files?path=${q('../x')}`, { token: p.agent.token })).status).toBe(400);
  });
});

describe('with FILE_ALLOWED_TYPES and a small FILE_MAX_BYTES', () => {
  let strict: TestApp;
  let token: string;

  beforeAll(async () => {
    strict = await createTestApp({ FILE_MAX_BYTES: '2048', FILE_ALLOWED_TYPES: 'image/png, text/html, image/svg+xml' });
    token = (await strict.newUser('strict')).token;
  });
  afterAll(() => strict?.close());

  it('refuses a type that is not on the list', async () => {
    const res = await upload('/v3/files/users', pdf, 'a.pdf', token, 'application/pdf', strict);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/application\/pdf/);
  });

  it('answers 413 above the configured size', async () => {
    const res = await upload('/v3/files/users', Buffer.alloc(3000, 'a'), 'a.txt', token, 'text/plain', strict);
    expect(res.status).toBe(413);
  });

  it.each([
    ['HTML', html, 'page.html', 'text/html; charset=utf-8'],
    ['SVG', svg, 'drawing.svg', 'image/svg+xml'],
  ])('serves allowed %s only as an attachment, even at GET /files', async (_kind, bytes, name, type) => {
    const { body } = await upload('/v3/files/users', bytes, name, token, 'text/plain', strict);
    const res = await download(`/v3/files?path=${q(body.filename)}`, token, strict);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('over real HTTP', () => {
  let client: TestApp;

  beforeAll(async () => {
    client = (await createTestServer({ FILE_MAX_BYTES: String(maxBytes) })).client;
  });
  afterAll(() => client?.close());

  it('uploads and streams back a file larger than the JSON body limit', async () => {
    const { token } = await client.newUser('http');
    const bytes = Buffer.alloc(1_200_000, 'z');
    const res = await client.post('/v3/files/users', { token, body: form(bytes, 'long.txt') });
    expect(res.status).toBe(200);
    const served = await fetch(`${client.baseUrl}/v3/files/download?path=${q(res.body.filename)}`, { headers: { authorization: token } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers 413 to an upload over the limit without reading all of it', async () => {
    const { token } = await client.newUser('http');
    const res = await client.post('/v3/files/users', { token, body: form(Buffer.alloc(maxBytes + 100_000, 'a'), 'huge.txt') });
    expect(res.status).toBe(413);
  });
});
