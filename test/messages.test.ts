import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, openRequest, send } from './helpers/conversations.js';

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
});
afterAll(() => t.close());

const messagesOf = (requestId: string, token: string, query = '') =>
  t.get(`/v3/${p.projectId}/requests/${requestId}/messages${query}`, { token });

describe('POST /v3/:project_id/requests/:request_id/messages', () => {
  it('creates the request on the first message and answers the message with the request embedded', async () => {
    const requestId = newRequestId();
    const res = await send(t, p.projectId, p.guest.token, requestId, { text: 'Hi there' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      text: 'Hi there',
      type: 'text',
      status: 200,
      recipient: requestId,
      sender: p.guest.userId,
      senderFullname: 'Visitor',
      id_project: p.projectId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
    expect(res.body.request).toMatchObject({ request_id: requestId, first_text: 'Hi there', requester_id: p.guest.teammateId });
    expect(res.body.request.ticket_id).toMatch(/^\d+$/);
  });

  it('takes sender and senderFullname from the caller, not from the body', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { sender: p.admin.userId, senderFullname: 'Mallory' });
    expect(res.body.sender).toBe(p.guest.userId);
    expect(res.body.senderFullname).toBe('Visitor');
  });

  it('answers 400 for a request_id that is not support-group-<...>', async () => {
    const res = await send(t, p.projectId, p.guest.token, 'conversation-1');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field: 'request_id' });
  });

  it('accepts a timestamp in place of the UUID', async () => {
    const res = await send(t, p.projectId, p.guest.token, `support-group-${Date.now()}`);
    expect(res.status).toBe(200);
  });

  it('sets departmentid, sourcePage, language and userAgent from the first message only', async () => {
    const departments = await t.get(`/v3/${p.projectId}/departments`, { token: p.admin.token });
    const department = departments.body[0]._id;
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, {
      departmentid: department,
      sourcePage: 'https://shop.example/cart',
      language: 'it',
      userAgent: 'Mozilla/5.0',
    });
    const second = await send(t, p.projectId, p.guest.token, requestId, { sourcePage: 'https://elsewhere', language: 'fr', userAgent: 'curl' });
    expect(second.body.request).toMatchObject({ sourcePage: 'https://shop.example/cart', language: 'it', userAgent: 'Mozilla/5.0' });
    expect(second.body.request.department._id).toBe(department);
  });

  it('answers 400 for an unknown departmentid on the first message', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { departmentid: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('departmentid');
  });

  it('requires metadata.src for an image', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { type: 'image', text: '', metadata: { width: 10 } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('metadata.src');
  });

  it('stores an image with its metadata', async () => {
    const metadata = { src: 'https://cdn.example/cat.png', width: 640, height: 480 };
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { type: 'image', text: '', metadata });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'image', metadata });
  });

  it('stores a file message (an attachment that is not an image) with its metadata, and requires its src', async () => {
    const metadata = { src: 'https://cdn.example/invoice.pdf', name: 'invoice.pdf', type: 'application/pdf', size: 1234 };
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { type: 'file', text: 'invoice.pdf', metadata });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'file', metadata });
    const missing = await send(t, p.projectId, p.guest.token, newRequestId(), { type: 'file', text: 'invoice.pdf', metadata: { name: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('metadata.src');
  });

  it('answers 400 for an unknown type', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { type: 'video' });
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'type' });
  });

  it('answers 400 for a text message without text', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { text: '   ' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('text');
  });

  it('stores attributes, advanced ones included, as given', async () => {
    const attributes = {
      client: 'widget',
      attachment: { buttons: [{ type: 'text', value: 'Yes' }] },
      disableInputMessage: true,
      inputMessagePlaceholder: 'Pick one',
      microlanguage: true,
      updateUserEmail: 'ann@example.test',
    };
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { attributes });
    expect(res.body.attributes).toEqual(attributes);
  });

  it('orders messages by attributes.clienttimestamp', async () => {
    const requestId = newRequestId();
    const base = Date.UTC(2030, 0, 1);
    await send(t, p.projectId, p.guest.token, requestId, { text: 'second', attributes: { clienttimestamp: base + 1000 } });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'first', attributes: { clienttimestamp: base } });
    const list = await messagesOf(requestId, p.admin.token);
    expect(list.body.map((m: { text: string }) => m.text)).toEqual(['first', 'second']);
    expect(list.body[0].createdAt).toBe(new Date(base).toISOString());
  });

  it('answers 400 for a clienttimestamp that is not milliseconds', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId(), { attributes: { clienttimestamp: 'yesterday' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('attributes.clienttimestamp');
  });

  it('hides info and hidden messages from the end user but not from agents', async () => {
    const requestId = await openRequest(t, p);
    await send(t, p.projectId, p.admin.token, requestId, { text: 'routed to sales', attributes: { subtype: 'info' } });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'internal', attributes: { hidden: true } });
    const guestView = await messagesOf(requestId, p.guest.token);
    const adminView = await messagesOf(requestId, p.admin.token);
    expect(guestView.body.map((m: { text: string }) => m.text)).toEqual(['hello']);
    expect(adminView.body.map((m: { text: string }) => m.text)).toEqual(['hello', 'routed to sales', 'internal']);
  });

  it('lets a guest write only to requests they opened', async () => {
    const requestId = await openRequest(t, p);
    const other = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Eve' } });
    const res = await send(t, p.projectId, other.body.token, requestId);
    expect(res.status).toBe(403);
  });

  it('lets any member post, sending as themselves', async () => {
    const requestId = await openRequest(t, p);
    const res = await send(t, p.projectId, p.admin.token, requestId, { text: 'How can I help?' });
    expect(res.status).toBe(200);
    expect(res.body.sender).toBe(p.admin.userId);
    expect(res.body.senderFullname).toBe('admin Test');
  });

  it('answers 401 without credentials and 403 outside the project', async () => {
    const requestId = newRequestId();
    expect((await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { body: { text: 'x' } })).status).toBe(401);
    const stranger = await t.newUser('stranger');
    expect((await send(t, p.projectId, stranger.token, requestId)).status).toBe(403);
  });

  it('answers the same message and request as a later read', async () => {
    const requestId = await openRequest(t, p);
    const posted = await send(t, p.projectId, p.guest.token, requestId, {
      text: 'again',
      attributes: { zeta: 1, nested: { b: 2, a: [1, 'x'] } },
      metadata: { note: 'kept' },
    });
    expect(posted.status).toBe(200);
    const read = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages/${posted.body._id}`, { token: p.guest.token });
    expect(JSON.stringify(posted.body)).toBe(JSON.stringify(read.body));
  });

  it('never leaves a message out of the transcript of a close it races with', async () => {
    const requestId = await openRequest(t, p);
    const posts = Array.from({ length: 12 }, (_, i) => send(t, p.projectId, p.guest.token, requestId, { text: `racing ${i}` }));
    const close = t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.admin.token });
    const [closed, ...answers] = await Promise.all([close, ...posts]);
    expect(closed.status).toBe(200);
    answers.forEach((res, i) => {
      expect([200, 409]).toContain(res.status);
      expect(new RegExp(`: racing ${i}(\\n|$)`).test(closed.body.transcript)).toBe(res.status === 200);
    });
  });

  it('sets first_response_at and waiting_time on the first agent message', async () => {
    const requestId = await openRequest(t, p);
    const reply = await send(t, p.projectId, p.admin.token, requestId, { text: 'Hello, I am Ann' });
    expect(reply.body.request.first_response_at).toBe(reply.body.createdAt);
    expect(reply.body.request.waiting_time).toBeGreaterThanOrEqual(0);
    const later = await send(t, p.projectId, p.owner.token, requestId, { text: 'me too' });
    expect(later.body.request.first_response_at).toBe(reply.body.createdAt);
  });

  it('answers an agent reply to a visitor who wrote 30 days earlier, with the whole wait as waiting_time', async () => {
    const requestId = newRequestId();
    const wrote = Date.now() - 30 * 24 * 3600_000;
    await send(t, p.projectId, p.guest.token, requestId, { text: 'anyone?', attributes: { clienttimestamp: wrote } });
    const reply = await send(t, p.projectId, p.admin.token, requestId, { text: 'Sorry for the wait' });
    expect(reply.status).toBe(200);
    expect(reply.body.request.waiting_time).toBe(Date.parse(reply.body.createdAt) - wrote);
    const read = await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token });
    expect(read.body.waiting_time).toBeGreaterThan(2 ** 31);
  });

  it('logs message.create with identifiers only', async () => {
    const requestId = newRequestId();
    const res = await send(t, p.projectId, p.guest.token, requestId);
    const event = await t.infra.database.prisma.domainEvent.findFirst({ where: { name: 'message.create', subject: res.body._id } });
    expect(event?.payload).toEqual({ request_id: requestId, sender: p.guest.userId, hidden: false });
    const created = await t.infra.database.prisma.domainEvent.findFirst({ where: { name: 'request.create', subject: res.body.request._id } });
    expect(created?.payload).toMatchObject({ request_id: requestId });
  });
});

describe('concurrent posts to one project (written in batches)', () => {
  it('stores every one of many concurrent posts once, with gapless event sequence numbers', async () => {
    const requests = await Promise.all(Array.from({ length: 4 }, () => openRequest(t, p)));
    const before = await t.infra.database.prisma.domainEvent.aggregate({ where: { id_project: p.projectId }, _max: { seq: true } });
    const texts = Array.from({ length: 48 }, (_, i) => `burst ${i}`);
    const answers = await Promise.all(texts.map((text, i) => send(t, p.projectId, p.guest.token, requests[i % 4], { text })));
    expect(answers.map((res) => res.status)).toEqual(texts.map(() => 200));
    answers.forEach((res, i) => expect(res.body).toMatchObject({ text: texts[i], request: { request_id: requests[i % 4] } }));
    for (const [k, requestId] of requests.entries()) {
      const stored = (await messagesOf(requestId, p.guest.token)).body.map((m: { text: string }) => m.text);
      expect(stored.filter((text: string) => text.startsWith('burst')).sort()).toEqual(texts.filter((_, i) => i % 4 === k).sort());
    }
    const events = await t.infra.database.prisma.domainEvent.findMany({
      where: { id_project: p.projectId, seq: { gt: before._max.seq ?? 0n } },
      orderBy: { seq: 'asc' },
    });
    const first = Number(events[0].seq);
    expect(events.map((e) => Number(e.seq))).toEqual(events.map((_, i) => first + i));
    expect(events.filter((e) => e.name === 'message.create').map((e) => e.subject).sort()).toEqual(answers.map((res) => res.body._id).sort());
  });

  it('answers each post on its own: posts to a closed request are refused, the others stored', async () => {
    const open = await openRequest(t, p);
    const closed = await openRequest(t, p);
    expect((await t.put(`/v3/${p.projectId}/requests/${closed}/close`, { token: p.admin.token })).status).toBe(200);
    const fresh = newRequestId();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => send(t, p.projectId, p.guest.token, [open, closed, fresh][i % 3], { text: `mixed ${i}` })),
    );
    answers.forEach((res, i) => expect(res.status).toBe(i % 3 === 1 ? 409 : 200));
    expect((await messagesOf(closed, p.admin.token)).body.some((m: { text: string }) => m.text.startsWith('mixed'))).toBe(false);
    expect((await messagesOf(fresh, p.guest.token)).body.filter((m: { text: string }) => m.text.startsWith('mixed'))).toHaveLength(8);
  });
});

describe('POST /v3/:project_id/requests/:request_id/messages/multi', () => {
  it('imports messages keeping their senders and timestamps, and answers the last one', async () => {
    const requestId = newRequestId();
    const items = [
      { text: 'old question', sender: 'crm-user-1', senderFullname: 'Bob', createdAt: '2024-01-01T10:00:00.000Z' },
      { text: 'old answer', sender: p.agent.userId, senderFullname: 'Ann', createdAt: '2024-01-01T10:05:00.000Z' },
    ];
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages/multi`, { token: p.admin.token, body: items });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ text: 'old answer', sender: p.agent.userId, createdAt: '2024-01-01T10:05:00.000Z' });
    const list = await messagesOf(requestId, p.admin.token);
    expect(list.body.map((m: { sender: string; senderFullname: string }) => [m.sender, m.senderFullname])).toEqual([
      ['crm-user-1', 'Bob'],
      [p.agent.userId, 'Ann'],
    ]);
  });

  it('stores nothing when one message is invalid', async () => {
    const requestId = newRequestId();
    await t.post(`/v3/${p.projectId}/requests/`, { token: p.admin.token, body: { request_id: requestId } });
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages/multi`, {
      token: p.admin.token,
      body: [{ text: 'fine' }, { type: 'image', text: '' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('messages.1.metadata.src');
    expect((await messagesOf(requestId, p.admin.token)).body).toEqual([]);
  });

  it('answers 400 for an empty list', async () => {
    const res = await t.post(`/v3/${p.projectId}/requests/${newRequestId()}/messages/multi`, { token: p.admin.token, body: [] });
    expect(res.status).toBe(400);
  });

  it('needs the agent role', async () => {
    const requestId = await openRequest(t, p);
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages/multi`, { token: p.guest.token, body: [{ text: 'x' }] });
    expect(res.status).toBe(403);
  });
});

describe('GET messages', () => {
  it('lists messages oldest first, a page at a time', async () => {
    const requestId = await openRequest(t, p, { text: 'm0' });
    for (let i = 1; i < 5; i++) await send(t, p.projectId, p.guest.token, requestId, { text: `m${i}` });
    const page1 = await messagesOf(requestId, p.guest.token, '?limit=2&page=1');
    expect(page1.body.map((m: { text: string }) => m.text)).toEqual(['m2', 'm3']);
  });

  it('answers 400 for a page size over 100', async () => {
    const requestId = await openRequest(t, p);
    const res = await messagesOf(requestId, p.guest.token, '?limit=101');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('limit');
  });

  it('answers 404 for an unknown request', async () => {
    expect((await messagesOf(newRequestId(), p.admin.token)).status).toBe(404);
  });

  it('answers one message, and 404 for a message of another request', async () => {
    const a = await send(t, p.projectId, p.guest.token, newRequestId());
    const b = await openRequest(t, p);
    const one = await t.get(`/v3/${p.projectId}/requests/${a.body.recipient}/messages/${a.body._id}`, { token: p.guest.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ _id: a.body._id, text: 'hello' });
    const wrong = await t.get(`/v3/${p.projectId}/requests/${b}/messages/${a.body._id}`, { token: p.admin.token });
    expect(wrong.status).toBe(404);
  });

  it('keeps other projects out (tenancy)', async () => {
    const requestId = await openRequest(t, p);
    const other = await t.seedProject('Other');
    const res = await t.get(`/v3/${other.projectId}/requests/${requestId}/messages`, { token: other.admin.token });
    expect(res.status).toBe(404);
    const cross = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: other.admin.token });
    expect(cross.status).toBe(403);
  });
});

describe('message receipts', () => {
  const ack = (requestId: string, messageId: string, token: string, status: unknown) =>
    t.put(`/v3/${p.projectId}/requests/${requestId}/messages/${messageId}/status`, { token, body: { status } });

  it('records DELIVERED then SEEN per participant; SEEN shows as the message status', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId());
    const delivered = await ack(res.body.recipient, res.body._id, p.admin.token, 150);
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ status: 200, receipts: { [p.admin.userId]: 150 } });
    const seen = await ack(res.body.recipient, res.body._id, p.admin.token, 300);
    expect(seen.body).toMatchObject({ status: 300, receipts: { [p.admin.userId]: 300 } });
  });

  it('never moves a receipt backwards', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId());
    await ack(res.body.recipient, res.body._id, p.admin.token, 300);
    const back = await ack(res.body.recipient, res.body._id, p.admin.token, 150);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 300, receipts: { [p.admin.userId]: 300 } });
  });

  it('answers 400 for a status that is not a receipt', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId());
    const bad = await ack(res.body.recipient, res.body._id, p.admin.token, 200);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('status');
  });

  it('refuses the sender acknowledging their own message', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId());
    expect((await ack(res.body.recipient, res.body._id, p.guest.token, 300)).status).toBe(403);
  });

  it('is available as a GraphQL mutation', async () => {
    const res = await send(t, p.projectId, p.guest.token, newRequestId());
    const gql = await t.gql(
      `mutation($p: String!, $r: String!, $m: String!) { acknowledgeMessage(project_id: $p, request_id: $r, message_id: $m, status: 300) { status receipts } }`,
      { p: p.projectId, r: res.body.recipient, m: res.body._id },
      p.admin.token,
    );
    expect(gql.body.data.acknowledgeMessage).toEqual({ status: 300, receipts: { [p.admin.userId]: 300 } });
  });
});
