import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, onlyAvailable, openRequest, send } from './helpers/conversations.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { addWorkingTime } from '../src/modules/sla/working-time.js';

// SLA policies over REST and GraphQL (admin writes, agents read, tenancy, bad input), the `sla`
// each request carries, and the durable timers: a warning at 80%, a breach once, none for a
// target met, delivered to webhooks and the serving agent's e-mail; and the breaches report.

let t: TestApp;
let smtp: SmtpSink;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true', TIMER_SWEEP_INTERVAL: '100ms', EVENT_SWEEP_INTERVAL: '200ms', WEBHOOK_SWEEP_INTERVAL: '200ms', SMTP_URL: smtp.url });
  [p, other] = await Promise.all([t.seedProject('Service levels'), t.seedProject('Elsewhere')]);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const policies = (projectId = p.projectId) => `/v3/${projectId}/sla_policies`;
const create = (body: Record<string, unknown>, token = p.admin.token, projectId = p.projectId) => t.post(policies(projectId), { token, body });
const listed = async (projectId = p.projectId) => (await t.get(policies(projectId), { token: p.admin.token })).body as Array<{ _id: string; name: string }>;

interface Sla {
  policy: { _id: string; name: string } | null;
  firstResponseDueAt: string | null;
  nextResponseDueAt: string | null;
  resolutionDueAt: string | null;
  met: string[];
  breached: string[];
}
const requestOf = async (q: SeededProject, requestId: string, token = q.admin.token) =>
  (await t.get(`/v3/${q.projectId}/requests/${requestId}`, { token })).body as { _id: string; createdAt: string; sla: Sla | null; participatingAgents: string[] };
const slaOf = async (q: SeededProject, requestId: string) => (await requestOf(q, requestId)).sla;

/** The SLA events logged for a request, oldest first. */
async function slaEvents(projectId: string, requestId: string) {
  const rows = await t.services.infra.database.prisma.domainEvent.findMany({
    where: { id_project: projectId, name: { in: ['sla.warning', 'sla.breach'] } },
    orderBy: { seq: 'asc' },
  });
  return rows
    .filter((e) => (e.payload as { request_id?: string }).request_id === requestId)
    .map((e) => ({ name: e.name, target: (e.payload as { target: string }).target, at: e.createdAt }));
}

/** A project of its own, so that its policies apply to nothing else. */
async function freshProject(name: string) {
  const project = await t.seedProject(name);
  await onlyAvailable(t, project, [project.agent]);
  return project;
}

describe('SLA policies', () => {
  it('an admin creates one with durations in any accepted form, and reads it back in seconds', async () => {
    const res = await create({ name: 'Urgent', priorities: ['urgent'], first_response: '30m', next_response: 'PT1H', resolution: 86_400 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Urgent', priorities: ['urgent'], departments: [], first_response_seconds: 1800, next_response_seconds: 3600, resolution_seconds: 86_400 });
    const read = await t.get(`${policies()}/${res.body._id}`, { token: p.admin.token });
    expect(read.body).toMatchObject({ _id: res.body._id, first_response_seconds: 1800 });
    expect((await listed()).map((x) => x._id)).toContain(res.body._id);
  });

  it('an admin changes a policy, removes a target with null, and deletes it', async () => {
    const created = await create({ name: 'Changing', first_response: '1h', resolution: '1d' });
    const changed = await t.patch(`${policies()}/${created.body._id}`, { token: p.admin.token, body: { name: 'Changed', first_response: '1d 2h', resolution: 'none' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Changed', first_response_seconds: 93_600, resolution_seconds: null });
    expect((await t.delete(`${policies()}/${created.body._id}`, { token: p.admin.token })).status).toBe(200);
    expect((await t.get(`${policies()}/${created.body._id}`, { token: p.admin.token })).status).toBe(404);
  });

  it.each([
    [{ name: 'Bad', first_response: 'soon' }, 'first_response'],
    [{ name: 'Bad', next_response: 0 }, 'next_response'],
    [{ name: 'Bad', resolution: '400d' }, 'resolution'],
    [{ name: 'Bad' }, 'first_response'],
    [{ first_response: '1h' }, 'name'],
    [{ name: 'Bad', first_response: '1h', priorities: ['soonish'] }, 'priorities.0'],
    [{ name: 'Bad', first_response: '1h', departments: ['no-such-department'] }, 'departments'],
  ])('answers 400 naming the field for %j, and stores nothing', async (body, field) => {
    const before = await listed();
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(await listed()).toEqual(before);
  });

  it('answers 400 on a change that would leave no target, and changes nothing', async () => {
    const created = await create({ name: 'Only one', first_response: '1h' });
    const res = await t.patch(`${policies()}/${created.body._id}`, { token: p.admin.token, body: { first_response: false } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('first_response');
    expect((await t.get(`${policies()}/${created.body._id}`, { token: p.admin.token })).body.first_response_seconds).toBe(3600);
  });

  it("answers 404 for another project's policy, whichever project the path names", async () => {
    const theirs = await create({ name: 'Theirs', first_response: '1h' }, other.admin.token, other.projectId);
    expect((await t.get(`${policies()}/${theirs.body._id}`, { token: p.admin.token })).status).toBe(404);
    expect((await t.patch(`${policies()}/${theirs.body._id}`, { token: p.admin.token, body: { name: 'Mine now' } })).status).toBe(404);
    expect((await t.delete(`${policies()}/${theirs.body._id}`, { token: p.admin.token })).status).toBe(404);
    expect((await t.get(policies(other.projectId), { token: p.admin.token })).status).toBe(403);
    expect((await t.get(`${policies(other.projectId)}/${theirs.body._id}`, { token: other.admin.token })).body.name).toBe('Theirs');
  });

  it('agents read policies but may not write them; end users may not read them', async () => {
    const created = await create({ name: 'Readable', first_response: '1h' });
    expect((await t.get(policies(), { token: p.agent.token })).status).toBe(200);
    expect((await create({ name: 'By an agent', first_response: '1h' }, p.agent.token)).status).toBe(403);
    expect((await t.patch(`${policies()}/${created.body._id}`, { token: p.agent.token, body: { name: 'x' } })).status).toBe(403);
    expect((await t.delete(`${policies()}/${created.body._id}`, { token: p.agent.token })).status).toBe(403);
    expect((await t.get(policies(), { token: p.user.token })).status).toBe(403);
    expect((await t.get(`${policies()}/${created.body._id}`, { token: p.admin.token })).body.name).toBe('Readable');
  });

  it('works through GraphQL', async () => {
    const made = await t.gql(
      'mutation($p: String!) { createSlaPolicy(project_id: $p, name: "By GraphQL", first_response: "2h", priorities: ["low"]) { _id first_response_seconds priorities } }',
      { p: p.projectId },
      p.admin.token,
    );
    expect(made.body.data.createSlaPolicy).toMatchObject({ first_response_seconds: 7200, priorities: ['low'] });
    const read = await t.gql('query($p: String!) { slaPolicies(project_id: $p) { _id name } }', { p: p.projectId }, p.agent.token);
    expect(read.body.data.slaPolicies.map((x: { name: string }) => x.name)).toContain('By GraphQL');
    const refused = await t.gql('mutation($p: String!) { createSlaPolicy(project_id: $p, name: "x", first_response: "soon") { _id } }', { p: p.projectId }, p.admin.token);
    expect(refused.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first_response' });
  });
});

describe("a request's sla", () => {
  it('names the matching policy and its deadlines, counted from the request', async () => {
    const q = await freshProject('Computed');
    await create({ name: 'Everyone', first_response: '1h', resolution: '1d' }, q.admin.token, q.projectId);
    const requestId = await openRequest(t, q, { text: 'help' });
    const sla = await eventually(() => slaOf(q, requestId).then((s) => s));
    const created = new Date((await requestOf(q, requestId)).createdAt).getTime();
    expect(sla.policy?.name).toBe('Everyone');
    expect(new Date(sla.firstResponseDueAt!).getTime()).toBe(created + 3_600_000);
    expect(new Date(sla.resolutionDueAt!).getTime()).toBe(created + 86_400_000);
    expect(sla).toMatchObject({ nextResponseDueAt: null, met: [], breached: [] });
  });

  it('follows a change of priority to the more specific policy (precedence)', async () => {
    const q = await freshProject('Precedence');
    await create({ name: 'Catch-all', first_response: '8h' }, q.admin.token, q.projectId);
    await create({ name: 'Urgent', priorities: ['urgent'], first_response: '15m' }, q.admin.token, q.projectId);
    const department = (await t.get(`/v3/${q.projectId}/departments`, { token: q.admin.token })).body[0]._id as string;
    await create({ name: 'Urgent here', priorities: ['urgent'], departments: [department], first_response: '5m' }, q.admin.token, q.projectId);
    const requestId = await openRequest(t, q, { text: 'help' });
    await eventually(async () => (await slaOf(q, requestId))?.policy?.name === 'Catch-all');
    await t.patch(`/v3/${q.projectId}/requests/${requestId}`, { token: q.admin.token, body: { priority: 'urgent' } });
    const sla = await eventually(async () => {
      const s = await slaOf(q, requestId);
      return s?.policy?.name?.startsWith('Urgent') ? s : null;
    });
    const request = await requestOf(q, requestId);
    const inDepartment = (await t.get(`/v3/${q.projectId}/requests/${requestId}`, { token: q.admin.token })).body.department?._id === department;
    expect(sla.policy!.name).toBe(inDepartment ? 'Urgent here' : 'Urgent');
    expect(new Date(sla.firstResponseDueAt!).getTime()).toBe(new Date(request.createdAt).getTime() + (inDepartment ? 300_000 : 900_000));
  });

  it("counts in the project's operating hours once they are on, moving an open request's deadlines", async () => {
    const q = await freshProject('Office hours');
    await create({ name: 'An hour', first_response: '1h' }, q.admin.token, q.projectId);
    const requestId = await openRequest(t, q, { text: 'help' });
    const calendar = await eventually(() => slaOf(q, requestId));
    const created = new Date((await requestOf(q, requestId)).createdAt);
    expect(new Date(calendar.firstResponseDueAt!).getTime()).toBe(created.getTime() + 3_600_000);
    // One hour a day, 09:00–10:00 in Tokyo.
    const slot = [{ start: '09:00', end: '10:00' }];
    const hours = { tzname: 'Asia/Tokyo', '0': slot, '1': slot, '2': slot, '3': slot, '4': slot, '5': slot, '6': slot };
    expect((await t.put(`/v3/projects/${q.projectId}`, { token: q.admin.token, body: { activeOperatingHours: true, operatingHours: hours } })).status).toBe(200);
    const expected = addWorkingTime(hours, created, 3600).toISOString();
    const moved = await eventually(async () => {
      const s = await slaOf(q, requestId);
      return s?.firstResponseDueAt === expected ? s : null;
    });
    // 09:00–10:00 in Tokyo is 00:00–01:00 UTC: due at 01:00 UTC, a day later unless opened before midnight UTC.
    expect(moved.firstResponseDueAt).toMatch(/T01:00:00\.000Z$|T00:/);
  });

  it('is null for end users and through GraphQL shows the same deadlines', async () => {
    const q = await freshProject('Visible');
    await create({ name: 'Everyone', first_response: '1h' }, q.admin.token, q.projectId);
    const requestId = await openRequest(t, q, { text: 'help' });
    const sla = await eventually(() => slaOf(q, requestId));
    expect((await requestOf(q, requestId, q.guest.token)).sla).toBeNull();
    const read = await t.gql(
      'query($p: String!, $r: String!) { request(project_id: $p, request_id: $r) { sla { policy { name } firstResponseDueAt breached met } } }',
      { p: q.projectId, r: requestId },
      q.agent.token,
    );
    expect(read.body.data.request.sla).toEqual({ policy: { name: 'Everyone' }, firstResponseDueAt: sla.firstResponseDueAt, breached: [], met: [] });
  });

  it('marks first response met by an agent reply, starts next response on the visitor\'s next message, and meets it with the next reply', async () => {
    const q = await freshProject('Replies');
    await create({ name: 'Replies', first_response: '1h', next_response: '2h', resolution: '1d' }, q.admin.token, q.projectId);
    const requestId = await openRequest(t, q, { text: 'help' });
    await eventually(() => slaOf(q, requestId));
    await send(t, q.projectId, q.agent.token, requestId, { text: 'On it' });
    await eventually(async () => (await slaOf(q, requestId))?.met.includes('first_response'));
    await send(t, q.projectId, q.guest.token, requestId, { text: 'Still broken' });
    const waiting = await eventually(async () => {
      const s = await slaOf(q, requestId);
      return s?.nextResponseDueAt ? s : null;
    });
    expect(waiting.met).not.toContain('next_response');
    await send(t, q.projectId, q.agent.token, requestId, { text: 'Fixed now' });
    const answered = await eventually(async () => {
      const s = await slaOf(q, requestId);
      return s?.met.includes('next_response') ? s : null;
    });
    expect(answered.nextResponseDueAt).toBeNull();
    await t.put(`/v3/${q.projectId}/requests/${requestId}/close`, { token: q.agent.token });
    await eventually(async () => (await slaOf(q, requestId))?.met.includes('resolution'));
  });
});

describe('SLA timers', () => {
  it('raise a warning at 80% and a breach at the deadline, each once, to webhooks and the serving agent', async () => {
    const q = await freshProject('Breaching');
    const receiver: Receiver = await startReceiver();
    try {
      for (const event of ['sla.warning', 'sla.breach']) {
        expect((await t.post(`/v3/${q.projectId}/subscriptions`, { token: q.owner.token, body: { event, target: receiver.url } })).status).toBe(200);
      }
      await create({ name: 'Tight', first_response: 2 }, q.admin.token, q.projectId);
      const requestId = await openRequest(t, q, { text: 'anyone?' });
      const sla = await eventually(async () => {
        const s = await slaOf(q, requestId);
        return s?.breached.includes('first_response') ? s : null;
      }, 20_000);
      const request = await requestOf(q, requestId);
      const created = new Date(request.createdAt).getTime();
      expect(new Date(sla.firstResponseDueAt!).getTime()).toBe(created + 2000);
      const events = await slaEvents(q.projectId, requestId);
      expect(events.map((e) => `${e.name} ${e.target}`)).toEqual(['sla.warning first_response', 'sla.breach first_response']);
      expect(events[0].at.getTime()).toBeGreaterThanOrEqual(created + 1600);
      expect(events[1].at.getTime()).toBeGreaterThanOrEqual(created + 2000);

      const hooks = await receiver.waitFor(2, 20_000);
      const byEvent = Object.fromEntries(hooks.map((h) => [h.json.hook.event, h.json]));
      expect(byEvent['sla.breach'].payload).toMatchObject({ request_id: requestId, sla_target: 'first_response', sla: { breached: ['first_response'] } });
      expect(byEvent['sla.warning'].payload).toMatchObject({ request_id: requestId, sla_target: 'first_response' });

      expect(request.participatingAgents).toEqual([q.agent.userId]);
      const mail = await smtp.mailTo(q.agent.email, (m) => m.subject.includes('SLA breached'), 20_000);
      expect(mail.subject).toContain('first response');

      // Swept many more times: still one of each.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await slaEvents(q.projectId, requestId)).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('raise nothing for a target met in time', async () => {
    const q = await freshProject('Met');
    await create({ name: 'Met', first_response: 3, resolution: 4 }, q.admin.token, q.projectId);
    const requestId = await openRequest(t, q, { text: 'quick one' });
    await send(t, q.projectId, q.agent.token, requestId, { text: 'Here' });
    await t.put(`/v3/${q.projectId}/requests/${requestId}/close`, { token: q.agent.token });
    const sla = await eventually(async () => {
      const s = await slaOf(q, requestId);
      return s?.met.includes('resolution') && s.met.includes('first_response') ? s : null;
    });
    // Past both deadlines, swept many times meanwhile.
    const deadline = new Date(sla.resolutionDueAt!).getTime() + 500;
    await eventually(() => Date.now() > deadline, 10_000);
    expect(await slaEvents(q.projectId, requestId)).toEqual([]);
    expect((await slaOf(q, requestId))!.breached).toEqual([]);
  }, 30_000);
});

describe('the SLA report', () => {
  it('counts breaches by department, agent and week, for admins only', async () => {
    const q = await freshProject('Report');
    await create({ name: 'Instant', first_response: 1 }, q.admin.token, q.projectId);
    const requestId = await openRequest(t, q, { text: 'late' });
    await eventually(async () => (await slaOf(q, requestId))?.breached.length, 20_000);
    const res = await t.get(`/v3/${q.projectId}/analytics/sla`, { token: q.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.byTarget).toEqual([{ target: 'first_response', breaches: 1 }]);
    expect(res.body.byAgent).toEqual([expect.objectContaining({ id_user: q.agent.userId, breaches: 1 })]);
    expect(res.body.byDepartment).toHaveLength(1);
    expect(res.body.byDepartment[0].breaches).toBe(1);
    expect(res.body.byWeek).toHaveLength(1);
    expect((await t.get(`/v3/${q.projectId}/analytics/sla`, { token: q.agent.token })).status).toBe(403);
    expect((await t.get(`/v3/${q.projectId}/analytics/sla?from=yesterday`, { token: q.admin.token })).body.field).toBe('from');
    expect((await t.get(`/v3/${other.projectId}/analytics/sla`, { token: q.admin.token })).status).toBe(403);
  }, 30_000);

  it('marks the breached conversation in the conversations CSV', async () => {
    const q = await freshProject('CSV');
    await create({ name: 'Instant', first_response: 1 }, q.admin.token, q.projectId);
    const late = await openRequest(t, q, { text: 'late' });
    await eventually(async () => (await slaOf(q, late))?.breached.length, 20_000);
    await t.delete(`${policies(q.projectId)}/${(await t.get(policies(q.projectId), { token: q.admin.token })).body[0]._id}`, { token: q.admin.token });
    const fine = await openRequest(t, q, { text: 'no policy any more' });
    const csv = (await t.get(`/v3/${q.projectId}/analytics/conversations.csv`, { token: q.admin.token })).body as string;
    const rowOf = (id: string) => csv.split('\r\n').find((line) => line.startsWith(`${id},`));
    expect(rowOf(late)?.endsWith(',true')).toBe(true);
    expect(rowOf(fine)?.endsWith(',false')).toBe(true);
  }, 30_000);
});
