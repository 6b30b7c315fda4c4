import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { onlyAvailable, openRequest } from './helpers/conversations.js';

// One project holding requests that differ in each filtered field.
let t: TestApp;
let p: SeededProject;
const r: Record<string, { request_id: string; _id: string; ticket_id: string; leadId: string }> = {};
/** The token of the visitor who opened each request. */
const visitors: Record<string, string> = {};
let sales: string;
let botDepartment: string;

const ddmmyyyy = (d: Date) =>
  `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
  // The owner serves everything routed by assignment, so the agent's view stays predictable.
  await onlyAvailable(t, p, [p.owner]);
  const group = await t.post(`/v3/${p.projectId}/groups`, { token: p.admin.token, body: { name: 'Sales team', members: [p.agent.userId] } });
  sales = (await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Sales', routing: 'pooled', id_group: group.body._id } })).body._id;
  const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Helper', template: 'blank' } });
  botDepartment = (await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Bot desk', id_bot: bot.body._id } })).body._id;

  const visitor = async (firstname: string) =>
    (await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname } })).body.token as string;
  const open = async (name: string, token: string, body: Record<string, unknown>) => {
    visitors[name] = token;
    const requestId = await openRequest(t, { ...p, guest: { ...p.guest, token } }, body);
    const record = (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).body;
    r[name] = { request_id: requestId, _id: record._id, ticket_id: record.ticket_id, leadId: record.lead._id };
  };
  await open('refund', await visitor('Ann'), {
    text: 'I want a refund for my order',
    channel: { name: 'email' },
    attributes: { userEmail: 'ann@example.test' },
  });
  await open('password', await visitor('Bob'), { text: 'password reset please', departmentid: sales });
  await open('closed', await visitor('Cid'), { text: 'thanks, solved' });
  await open('bot', await visitor('Dee'), { text: 'hi bot', departmentid: botDepartment });
  await t.put(`/v3/${p.projectId}/requests/${r.refund.request_id}/tag`, { token: p.admin.token, body: { tag: 'vip' } });
  await t.put(`/v3/${p.projectId}/requests/${r.closed.request_id}/close`, { token: p.admin.token });
});
afterAll(() => t.close());

const list = (query = '', token = p.admin.token) => t.get(`/v3/${p.projectId}/requests${query}`, { token });
const ids = (res: { body: { requests: Array<{ request_id: string }> } }) => res.body.requests.map((x) => x.request_id).sort();
const of = (...names: string[]) => names.map((n) => r[n].request_id).sort();

describe('GET /v3/:project_id/requests', () => {
  it('answers perPage, count and requests, open ones by default, newest first', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ perPage: 40, count: 3 });
    expect(res.body.requests.map((x: { request_id: string }) => x.request_id)).toEqual([r.bot, r.password, r.refund].map((x) => x.request_id));
  });

  it('shows the department as its identifier in the list', async () => {
    const res = await list('?dept_id=' + sales);
    expect(res.body.requests[0].department).toBe(sales);
  });

  it('filters by status: all, one, or a comma list', async () => {
    expect(ids(await list('?status=all'))).toEqual(of('refund', 'password', 'closed', 'bot'));
    expect(ids(await list('?status=1000'))).toEqual(of('closed'));
    expect(ids(await list('?status=100,1000'))).toEqual(of('password', 'closed'));
  });

  it('answers 400 for a status that is not a request state', async () => {
    const res = await list('?status=open');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('status');
  });

  it('sorts by a field in either direction', async () => {
    const asc = await list('?status=all&sortField=ticket_id&direction=1');
    expect(asc.body.requests.map((x: { ticket_id: string }) => Number(x.ticket_id))).toEqual([1, 2, 3, 4]);
    const desc = await list('?status=all&sortField=ticket_id&direction=-1');
    expect(desc.body.requests.map((x: { ticket_id: string }) => Number(x.ticket_id))).toEqual([4, 3, 2, 1]);
  });

  it('answers 400 for an unknown sortField or direction', async () => {
    expect((await list('?sortField=password')).body.field).toBe('sortField');
    expect((await list('?direction=2')).body.field).toBe('direction');
  });

  it('pages with page (from 0) and limit, counting every match', async () => {
    const res = await list('?status=all&sortField=ticket_id&direction=1&limit=3&page=1');
    expect(res.body).toMatchObject({ perPage: 3, count: 4 });
    expect(res.body.requests.map((x: { ticket_id: string }) => x.ticket_id)).toEqual(['4']);
  });

  it('answers 400 for a limit over 100', async () => {
    const res = await list('?limit=101');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('limit');
  });

  it('searches message text with full_text', async () => {
    expect(ids(await list('?status=all&full_text=refund'))).toEqual(of('refund'));
    expect(ids(await list('?status=all&full_text=password%20reset'))).toEqual(of('password'));
    expect(ids(await list('?status=all&full_text=nothing-like-this'))).toEqual([]);
  });

  it('matches full_text on word stems, as GET /search does: "refunds" and "orders" find "a refund for my order"', async () => {
    expect(ids(await list('?status=all&full_text=refunds%20orders'))).toEqual(of('refund'));
    expect(ids(await list('?status=all&full_text=resetting%20passwords'))).toEqual(of('password'));
  });

  it('filters by creation date, DD/MM/YYYY, end date included', async () => {
    const today = ddmmyyyy(new Date());
    expect((await list(`?status=all&start_date=${today}&end_date=${today}`)).body.count).toBe(4);
    expect((await list('?status=all&start_date=01/01/2099')).body.count).toBe(0);
    expect((await list('?status=all&end_date=01/01/2000')).body.count).toBe(0);
  });

  it('answers 400 for a date that is not DD/MM/YYYY or not a calendar date', async () => {
    expect((await list('?start_date=2024-01-01')).body.field).toBe('start_date');
    expect((await list('?end_date=31/02/2024')).body.field).toBe('end_date');
    expect((await list('?start_date=02/01/2024&end_date=01/01/2024')).body.field).toBe('end_date');
  });

  it('filters by ticket_id, dept_id and lead', async () => {
    expect(ids(await list(`?status=all&ticket_id=${r.password.ticket_id}`))).toEqual(of('password'));
    expect(ids(await list(`?status=all&dept_id=${sales}`))).toEqual(of('password'));
    expect(ids(await list(`?status=all&lead=${r.refund.leadId}`))).toEqual(of('refund'));
    expect((await list('?ticket_id=abc')).body.field).toBe('ticket_id');
  });

  it('filters by hasBot', async () => {
    expect(ids(await list('?hasBot=true'))).toEqual(of('bot'));
    expect(ids(await list('?hasBot=false'))).toEqual(of('refund', 'password'));
    expect((await list('?hasBot=maybe')).body.field).toBe('hasBot');
  });

  it('filters by tags and channel', async () => {
    expect(ids(await list('?tags=vip'))).toEqual(of('refund'));
    expect(ids(await list('?tags=other,vip'))).toEqual(of('refund'));
    expect(ids(await list('?channel=email'))).toEqual(of('refund'));
    expect(ids(await list('?channel=chat21'))).toEqual(of('password', 'bot'));
    expect((await list('?channel=fax')).body.field).toBe('channel');
  });

  it('filters by the rating given (a satisfaction chart\'s bar), and refuses one outside 0 to 5 naming rating', async () => {
    const rated = await t.request('PATCH', `/v3/${p.projectId}/requests/${r.closed.request_id}/rating`, { token: visitors.closed, body: { rating: 4 } });
    expect(rated.status).toBe(200);
    expect(ids(await list('?status=all&rating=4'))).toEqual(of('closed'));
    expect(ids(await list('?status=all&rating=3'))).toEqual([]);
    const refused = await list('?status=all&rating=7');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'rating' });
  });

  it('filters by a day with messages, active_date as DD/MM/YYYY (a messages-per-day point)', async () => {
    const today = ddmmyyyy(new Date());
    expect(ids(await list(`?status=all&active_date=${today}`))).toEqual(of('refund', 'password', 'closed', 'bot'));
    expect(ids(await list(`?status=all&active_date=${ddmmyyyy(new Date(Date.now() - 2 * 86_400_000))}`))).toEqual([]);
    const refused = await list('?status=all&active_date=2026-11-28');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'active_date' });
  });

  it('filters by the lead snapshot: e-mail and lead_id', async () => {
    expect(ids(await list('?snap_lead_email=ANN@example.test'))).toEqual(of('refund'));
    const refund = await t.get(`/v3/${p.projectId}/requests/${r.password.request_id}`, { token: p.admin.token });
    expect(ids(await list(`?snap_lead_lead_id=${refund.body.lead.lead_id}`))).toEqual(of('password'));
  });

  it('shows an agent the requests they serve plus unassigned ones of their departments', async () => {
    // The bot request has no human agent and the bot desk routes to everyone; the refund is the owner's.
    expect(ids(await list('?status=all', p.agent.token))).toEqual(of('password', 'bot'));
    expect(ids(await list('?status=all', p.admin.token))).toEqual(of('refund', 'password', 'closed', 'bot'));
  });

  it('keeps requests of departments the agent does not work for out of their view', async () => {
    const other = await t.post(`/v3/${p.projectId}/groups`, { token: p.admin.token, body: { name: 'Nobody', members: [p.admin.userId] } });
    const closedDesk = await t.post(`/v3/${p.projectId}/departments`, {
      token: p.admin.token,
      body: { name: 'Closed desk', routing: 'pooled', id_group: other.body._id },
    });
    const requestId = await openRequest(t, p, { departmentid: closedDesk.body._id });
    expect(ids(await list('?status=all', p.agent.token))).not.toContain(requestId);
  });

  it('shows a guest only the requests they opened', async () => {
    const res = await list('?status=all', visitors.refund);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(ids(res)).toEqual(of('refund'));
  });

  it('applies the filters to a guest\'s own requests (closed ones only with status)', async () => {
    expect(ids(await list('', visitors.closed))).toEqual([]);
    expect(ids(await list('?status=1000', visitors.closed))).toEqual(of('closed'));
  });

  it('shows a guest their own requests through the GraphQL query too', async () => {
    const res = await t.gql(
      `query($p: String!) { requests(project_id: $p, status: "all") { count requests { request_id } } }`,
      { p: p.projectId },
      visitors.password,
    );
    expect(res.body.data.requests).toEqual({ count: 1, requests: [{ request_id: r.password.request_id }] });
  });

  it('shows a user only the requests they opened', async () => {
    const q = await t.seedProject('Users');
    const own = await openRequest(t, { ...q, guest: { ...q.guest, token: q.user.token } });
    await openRequest(t, q);
    expect(ids(await t.get(`/v3/${q.projectId}/requests?status=all`, { token: q.user.token }))).toEqual([own]);
  });

  it('refuses a guest the list of another project (403: not a member there)', async () => {
    const other = await t.seedProject('Other');
    await openRequest(t, other);
    const res = await t.get(`/v3/${other.projectId}/requests?status=all`, { token: visitors.refund });
    expect(res.status).toBe(403);
  });

  it('is the same page as a GraphQL query', async () => {
    const res = await t.gql(
      `query($p: String!) { requests(project_id: $p, status: "all", tags: "vip") { perPage count requests { request_id department_id } } }`,
      { p: p.projectId },
      p.admin.token,
    );
    expect(res.body.data.requests).toEqual({ perPage: 40, count: 1, requests: [{ request_id: r.refund.request_id, department_id: expect.any(String) }] });
  });
});

describe('numeric query parameters of GET /v3/:project_id/requests', () => {
  const refused = (field: string) => async (value: string) => {
    const res = await list(`?${field}=${encodeURIComponent(value)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field });
  };

  it.each(['2147483648', '99999999999999999999', '0', '-1', '1.5', '0x10', '1e3', 'abc'])('answers 400 naming ticket_id for %s', refused('ticket_id'));
  it.each(['-1', '100001', '2147483648'])('answers 400 naming page for %s', refused('page'));
  it.each(['0', '101', '2147483648'])('answers 400 naming limit for %s', refused('limit'));
  it.each(['0', '2', '-2', '2147483648'])('answers 400 naming direction for %s', refused('direction'));
  it.each(['2147483648', '1e2', '0x64', '100,', '-100'])('answers 400 naming status for %s', refused('status'));

  it('finds no ticket for the largest ticket number', async () => {
    const res = await list('?status=all&ticket_id=2147483647');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0, requests: [] });
  });

  it('answers an empty page at the last page number allowed', async () => {
    const res = await list('?status=all&page=100000');
    expect(res.status).toBe(200);
    expect(res.body.count).toBeGreaterThan(0);
    expect(res.body.requests).toEqual([]);
  });

  it('takes a limit from 1 to 100', async () => {
    const one = await list('?status=all&limit=1');
    expect(one.body.perPage).toBe(1);
    expect(one.body.requests).toHaveLength(1);
    const hundred = await list('?status=all&limit=100');
    expect(hundred.body.perPage).toBe(100);
    expect(hundred.body.requests).toHaveLength(hundred.body.count);
  });

  it('answers BAD_USER_INPUT naming ticket_id to a GraphQL query past 2^31', async () => {
    const res = await t.gql(`query($p: String!) { requests(project_id: $p, ticket_id: "2147483648") { count } }`, { p: p.projectId }, p.admin.token);
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'ticket_id' });
  });
});
