import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { onlyAvailable, openRequest, send } from './helpers/conversations.js';

// GET /v3/:project_id/search?q= and GraphQL `search`: requests, messages and leads, ranked,
// stemmed, each word a prefix, within what the caller may see.

let t: TestApp;
let p: SeededProject;
let refundRequest: string;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
  // The agent serves what visitors open (so the agent sees those requests).
  await onlyAvailable(t, p, [p.agent]);
  refundRequest = await openRequest(t, p, { text: 'Where are my refunds? The parcel never arrived' });
  await t.put(`/v3/${p.projectId}/requests/${refundRequest}/tag`, { token: p.admin.token, body: { tag: 'billing' } });
  await t.post(`/v3/${p.projectId}/leads`, { token: p.agent.token, body: { fullname: 'Carla Bianchi', email: 'carla@acme.example', company: 'Acme' } });
});
afterAll(() => t.close());

const search = (q: string, token = p.agent.token, projectId = p.projectId) =>
  t.get(`/v3/${projectId}/search?q=${encodeURIComponent(q)}`, { token });
const texts = (res: { body: { messages: Array<{ text: string }> } }) => res.body.messages.map((m) => m.text);

describe('search', () => {
  it('finds a message by the prefix of a stemmed word ("refun" finds "refunds"), with its recipient and request', async () => {
    const res = await search('refun');
    expect(res.status).toBe(200);
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.messages[0]).toMatchObject({
      text: 'Where are my refunds? The parcel never arrived',
      recipient: refundRequest,
      request: { request_id: refundRequest },
    });
  });

  it('shows a message found as GET of the message does, with its whole request', async () => {
    const requestId = await openRequest(t, p, { text: 'the quixotical kettle leaks' });
    await t.put(`/v3/${p.projectId}/requests/${requestId}/tag`, { token: p.admin.token, body: { tag: 'kettles' } });
    const found = await search('quixot');
    expect(found.body.messages).toHaveLength(1);
    const [hit] = found.body.messages;
    const read = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages/${hit._id}`, { token: p.agent.token });
    expect(read.status).toBe(200);
    expect(hit).toEqual(read.body);
    expect(hit.request).toMatchObject({ request_id: requestId, tags: [{ tag: 'kettles' }], agents: [{ id_user: { _id: p.agent.userId } }] });
    expect(typeof hit.request.department).toBe('object');
  });

  it('finds other forms of a word by its stem ("refunded" finds "refunds")', async () => {
    expect(texts(await search('refunded'))).toEqual(['Where are my refunds? The parcel never arrived']);
  });

  it('finds a message the moment it is posted', async () => {
    const posted = await send(t, p.projectId, p.guest.token, refundRequest, { text: 'also the zeppelinshaped voucher' });
    expect(posted.status).toBe(200);
    expect(texts(await search('zeppelinsh'))).toEqual(['also the zeppelinshaped voucher']);
  });

  it('needs every word to match', async () => {
    expect(texts(await search('parcel arrived'))).toEqual(['Where are my refunds? The parcel never arrived']);
    expect(texts(await search('parcel teleported'))).toEqual([]);
  });

  it('ranks the better match first', async () => {
    const requestId = await openRequest(t, p, { text: 'a quokka, one more quokka, and a third quokka' });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'something about a quokka among many other words in a long sentence here' });
    const found = texts(await search('quokka'));
    expect(found[0]).toBe('a quokka, one more quokka, and a third quokka');
    expect(found).toHaveLength(2);
  });

  it('ranks only the 200 newest matches of a word that matches more: an older, better match stays out', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const db = t.infra.database.prisma;
    const now = Date.now();
    const row = (i: number, text: string) => ({
      id_project: p.projectId,
      request_id: requestId,
      sender: p.guest.userId,
      recipient: requestId,
      text,
      createdBy: p.guest.userId,
      createdAt: new Date(now - i * 1000),
    });
    // Setup written straight to the table: 200 plain mentions, newest first, then an older message
    // that says the word three times (the best rank of all, were every match ranked).
    await db.message.createMany({ data: Array.from({ length: 200 }, (_, i) => row(i + 1, `one ubiquitousword mention number ${i}`)) });
    await db.message.create({ data: row(1000, 'ubiquitousword ubiquitousword ubiquitousword') });
    const found = texts(await search('ubiquitousword'));
    expect(found).toHaveLength(10);
    expect(found).not.toContain('ubiquitousword ubiquitousword ubiquitousword');
    // With no more than 200 matches every one is ranked: the same best match now comes first.
    await db.message.deleteMany({ where: { id_project: p.projectId, request_id: requestId, text: { startsWith: 'one ubiquitousword mention number 1' } } });
    expect(texts(await search('ubiquitousword'))[0]).toBe('ubiquitousword ubiquitousword ubiquitousword');
  });

  it('ranks the 200 newest matches of a word in one message of twenty among thousands: a better one among them comes first, an older better one stays out', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const db = t.infra.database.prisma;
    const now = Date.now();
    const row = (i: number, text: string) => ({
      id_project: p.projectId,
      request_id: requestId,
      sender: p.guest.userId,
      recipient: requestId,
      text,
      createdBy: p.guest.userId,
      createdAt: new Date(now + 60_000 - i * 1000),
    });
    // Setup written straight to the table: 5,000 messages, the newest first, every 20th mentioning
    // the word (too many to rank all, too few for the newest 2,000 rows to hold 200 of them).
    await db.message.createMany({
      data: Array.from({ length: 5_000 }, (_, i) => row(i + 1, i % 20 === 0 ? `a mention of frequentishword number ${i}` : `filler line ${i}`)),
    });
    await db.message.create({ data: row(3_000 * 20, 'frequentishword frequentishword frequentishword, older') });
    await db.message.create({ data: row(1_500, 'frequentishword frequentishword frequentishword, newer') });
    const found = texts(await search('frequentishwo'));
    expect(found).toHaveLength(10);
    expect(found[0]).toBe('frequentishword frequentishword frequentishword, newer');
    expect(found).not.toContain('frequentishword frequentishword frequentishword, older');
  });

  it('finds requests by first text, tag and ticket number, and leads by name, e-mail or company prefix', async () => {
    const byText = await search('parcel');
    expect(byText.body.requests.map((r: { request_id: string }) => r.request_id)).toEqual([refundRequest]);
    const byTag = await search('billin');
    expect(byTag.body.requests.map((r: { request_id: string }) => r.request_id)).toEqual([refundRequest]);
    const ticket = (await t.get(`/v3/${p.projectId}/requests/${refundRequest}`, { token: p.agent.token })).body.ticket_id;
    expect((await search(ticket)).body.requests.map((r: { request_id: string }) => r.request_id)).toContain(refundRequest);
    for (const q of ['carl bian', 'acm', 'carla@acme']) {
      expect((await search(q)).body.leads.map((l: { fullname: string }) => l.fullname)).toEqual(['Carla Bianchi']);
    }
  });

  it('shows a request found in REST as list pages do (department as its identifier)', async () => {
    const res = await search('parcel');
    expect(typeof res.body.requests[0].department).toBe('string');
  });

  it('keeps to what an agent may see: a request served by another agent and its messages stay out', async () => {
    await onlyAvailable(t, p, [p.owner]);
    let hidden: string;
    try {
      hidden = await openRequest(t, p, { text: 'the confidential wombat question' });
    } finally {
      await onlyAvailable(t, p, [p.agent]);
    }
    const agents = await search('wombat');
    expect(agents.body.requests).toEqual([]);
    expect(agents.body.messages).toEqual([]);
    const admins = await search('wombat', p.admin.token);
    expect(admins.body.requests.map((r: { request_id: string }) => r.request_id)).toEqual([hidden]);
    expect(texts(admins)).toEqual(['the confidential wombat question']);
  });

  it('keeps to the project: another project finds nothing of it, and its members are refused here', async () => {
    const other = await t.seedProject('Other');
    const own = await search('refunds', other.owner.token, other.projectId);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ requests: [], messages: [], leads: [] });
    expect((await search('refunds', other.owner.token)).status).toBe(403);
  });

  it('needs the agent role: users and guests 403, no credentials 401', async () => {
    expect((await search('refunds', p.user.token)).status).toBe(403);
    expect((await search('refunds', p.guest.token)).status).toBe(403);
    expect((await search('refunds', '')).status).toBe(401);
  });

  it('answers 400 naming q for an empty search, and limit outside 1..50', async () => {
    const empty = await search('   ');
    expect(empty.status).toBe(400);
    expect(empty.body.field).toBe('q');
    const none = await t.get(`/v3/${p.projectId}/search`, { token: p.agent.token });
    expect(none.status).toBe(400);
    expect(none.body.field).toBe('q');
    const tooMany = await t.get(`/v3/${p.projectId}/search?q=refunds&limit=51`, { token: p.agent.token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.field).toBe('limit');
  });

  it('answers nothing, not everything, for a search with no word in it', async () => {
    const res = await search('?!');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requests: [], messages: [], leads: [] });
  });

  it('is the same over GraphQL', async () => {
    const query = `query($p: String!, $q: String!) { search(project_id: $p, q: $q) {
      requests { request_id } messages { text recipient } leads { fullname } } }`;
    const res = await t.gql(query, { p: p.projectId, q: 'refun' }, p.agent.token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.search).toEqual({
      requests: [{ request_id: refundRequest }],
      messages: [{ text: 'Where are my refunds? The parcel never arrived', recipient: refundRequest }],
      leads: [],
    });
  });
});
