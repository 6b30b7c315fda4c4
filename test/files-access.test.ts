import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, openRequest, send } from './helpers/conversations.js';
import { withoutRequestId } from './helpers/errors.js';

// Uploads to a project are read by its teammates (agent and above); a visitor (role user or
// guest) reads their own uploads and the files sent to them in their conversations. Anyone
// else is told the file does not exist.

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  [p, other] = [await t.seedProject('Shop'), await t.seedProject('Elsewhere')];
});
afterAll(() => t.close());

const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF');
const q = encodeURIComponent;

async function attach(projectId: string, token: string, bytes: Buffer = pdf, name = 'invoice.pdf') {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await t.post(`/v3/${projectId}/files`, { token, body });
  expect(res.status).toBe(200);
  return res.body as { filename: string; thumbnail?: string };
}

/** A second anonymous visitor of the project. */
async function visitor(project: SeededProject) {
  const res = await t.post('/v3/auth/signinAnonymously', { body: { id_project: project.projectId, firstname: 'Other visitor' } });
  return { token: res.body.token as string };
}

const read = (storagePath: string, token: string, route = '/v3/files') => t.get(`${route}?path=${q(storagePath)}`, { token });

describe('a visitor\'s own uploads', () => {
  it('are read by the visitor who uploaded them', async () => {
    const { filename } = await attach(p.projectId, p.guest.token);
    expect((await read(filename, p.guest.token)).status).toBe(200);
  });

  it('are read by the project\'s agents, admins and owner', async () => {
    const { filename } = await attach(p.projectId, p.guest.token);
    for (const teammate of [p.agent, p.admin, p.owner]) expect((await read(filename, teammate.token)).status).toBe(200);
  });

  it.each(['/v3/files', '/v3/files/download', '/v3/images'])(
    'are not found for another visitor of the project at %s, exactly as a path never used',
    async (route) => {
      const image = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#ffffff' } }).png().toBuffer();
      const { filename } = await attach(p.projectId, p.guest.token, image, 'receipt.png');
      const stranger = await visitor(p);
      const refused = await read(filename, stranger.token, route);
      const unused = await read(filename.replace(/[0-9a-f-]{36}/, '00000000-0000-4000-8000-000000000000'), stranger.token, route);
      expect(refused.status).toBe(404);
      expect(withoutRequestId(refused.body)).toEqual(withoutRequestId(unused.body));
    },
  );

  it('are not found for the visitor who did not upload them, in both directions', async () => {
    const stranger = await visitor(p);
    const mine = await attach(p.projectId, p.guest.token);
    const theirs = await attach(p.projectId, stranger.token);
    expect((await read(mine.filename, stranger.token)).status).toBe(404);
    expect((await read(theirs.filename, p.guest.token)).status).toBe(404);
  });

  it('are not found for a signed-in member with role user', async () => {
    const { filename } = await attach(p.projectId, p.guest.token);
    expect((await read(filename, p.user.token)).status).toBe(404);
  });

  it('are not found for the visitors and teammates of another project, in both directions', async () => {
    const here = await attach(p.projectId, p.guest.token);
    const there = await attach(other.projectId, other.guest.token);
    for (const caller of [other.guest, other.owner]) expect((await read(here.filename, caller.token)).status).toBe(404);
    for (const caller of [p.guest, p.owner]) expect((await read(there.filename, caller.token)).status).toBe(404);
  });

  it('cannot be deleted by another visitor, who is told they do not exist', async () => {
    const { filename } = await attach(p.projectId, p.guest.token);
    const stranger = await visitor(p);
    expect((await t.delete(`/v3/files?path=${q(filename)}`, { token: stranger.token })).status).toBe(404);
    expect((await read(filename, p.guest.token)).status).toBe(200);
  });
});

describe('files sent in a conversation', () => {
  it('are read by the visitor whose request they were sent in, with their thumbnail', async () => {
    const requestId = await openRequest(t, p);
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#00aa00' } }).png().toBuffer();
    const { filename, thumbnail } = await attach(p.projectId, p.admin.token, image, 'how-to.png');
    const src = `https://support.example/v3/images?path=${q(filename)}`;
    expect((await send(t, p.projectId, p.admin.token, requestId, { type: 'image', text: '', metadata: { src } })).status).toBe(200);
    expect((await read(filename, p.guest.token, '/v3/images')).status).toBe(200);
    expect((await read(thumbnail!, p.guest.token, '/v3/images')).status).toBe(200);
  });

  it('stay not found for the other visitors of the project', async () => {
    const requestId = await openRequest(t, p);
    const { filename } = await attach(p.projectId, p.admin.token);
    await send(t, p.projectId, p.admin.token, requestId, { text: 'your invoice', metadata: { src: `/v3/files/download?path=${q(filename)}` } });
    expect((await read(filename, p.guest.token)).status).toBe(200);
    expect((await read(filename, (await visitor(p)).token)).status).toBe(404);
  });

  it('are not opened to a visitor who quotes their path in their own request', async () => {
    const { filename } = await attach(p.projectId, p.guest.token);
    const stranger = await visitor(p);
    const quoted = await send(t, p.projectId, stranger.token, newRequestId(), {
      type: 'image',
      text: '',
      metadata: { src: `/v3/files?path=${q(filename)}` },
    });
    expect(quoted.status).toBe(200);
    expect((await read(filename, stranger.token)).status).toBe(404);
  });

  it('are not opened by a message hidden from the visitor', async () => {
    const requestId = await openRequest(t, p);
    const { filename } = await attach(p.projectId, p.admin.token);
    await send(t, p.projectId, p.admin.token, requestId, {
      text: 'internal copy',
      metadata: { src: `/v3/files?path=${q(filename)}` },
      attributes: { subtype: 'info' },
    });
    expect((await read(filename, p.guest.token)).status).toBe(404);
  });

  it('may be read but not deleted by the visitor they were sent to (403)', async () => {
    const requestId = await openRequest(t, p);
    const { filename } = await attach(p.projectId, p.admin.token);
    await send(t, p.projectId, p.admin.token, requestId, { text: 'here', metadata: { src: `/v3/files?path=${q(filename)}` } });
    const res = await t.delete(`/v3/files?path=${q(filename)}`, { token: p.guest.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });
});
