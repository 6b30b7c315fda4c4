import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookCatalogue } from '../src/modules/webhooks/catalogue.js';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, startReceiver, type Receiver } from './helpers/webhook-receiver.js';

// One presenter per record: every event of the webhook catalogue, triggered the way a client or
// the platform triggers it, arrives on a local receiver with a payload equal to what REST's GET of
// the same record answers (the owner reading it), read once the webhook has arrived.
//
// Payloads are rendered when they are delivered, from the stored record, so nothing legitimately
// changes between the two moments in these cases (`updatedAt` and `__v` included): nothing else
// writes to these records meanwhile. Where a record has no GET any more (a deleted department, a
// trashed bot or teammate), the payload is compared with the REST answer of the call that deleted it.
// Two fields differ by design: a bot's `secret`, which the owner reads and a payload never carries
// (null, as for any reader without the admin role), and `subscription.disabled`'s added `reason`.

let t: TestApp;
let p: SeededProject;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '50ms', WEBHOOK_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms' });
  p = await t.seedProject('Presenter');
  receiver = await startReceiver();
  for (const event of Object.keys(webhookCatalogue())) {
    const res = await t.post(`/v3/${p.projectId}/subscriptions`, { token: p.owner.token, body: { event, target: receiver.url } });
    expect(res.status).toBe(200);
  }
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** The payload of the first delivery of `event` about record `id` (as the payload names it). */
function delivered(event: string, id: string, where: (payload: any) => boolean = () => true) {
  return eventually(() => receiver.received.find((r) => r.json?.hook?.event === event && r.json.payload?._id === id && where(r.json.payload))?.json.payload);
}

async function rest(path: string) {
  const res = await t.get(`/v3/${p.projectId}${path}`, { token: p.owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

/** A bot's secret shows to its project's admins and owner, never in a payload (it leaves the platform). */
const withoutSecret = (bot: Record<string, unknown>) => ({ ...bot, secret: null });

/** A request's `unread` counts for the teammate reading it; a payload has no reader (null). */
const noReader = (request: Record<string, unknown>) => ({ ...request, unread: null });
const messageWithoutReader = (message: Record<string, unknown>) => ({ ...message, request: noReader(message.request as Record<string, unknown>) });

const covered = new Set<string>();
const when = (event: string, body: () => Promise<void>) => {
  covered.add(event);
  it(`${event}: the payload is the record as REST's GET shows it`, body);
};

/** A visitor's first message: opens the request, routed to the project's agents. */
async function visitorMessage(text = 'hello there') {
  const requestId = `support-group-${crypto.randomUUID()}`;
  const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token, body: { text, attributes: { client: 'widget' } } });
  expect(res.status).toBe(200);
  return { requestId, message: res.body };
}

describe('every catalogue event', () => {
  when('message.create', async () => {
    const { requestId, message } = await visitorMessage();
    const payload = await delivered('message.create', message._id);
    expect(payload).toEqual(messageWithoutReader(await rest(`/requests/${requestId}/messages/${message._id}`)));
    // The drift this replaces: ticket_id a number, department/lead ids, request_id/id_group added
    // (`hidden` is a field of the Message type now, in REST and the payload alike).
    expect(typeof payload.request.ticket_id).toBe('string');
    expect(payload).not.toHaveProperty('request_id');
    expect(payload.hidden).toBe(false);
    expect(payload.request).toHaveProperty('requester');
  });

  when('request.create', async () => {
    const { requestId } = await visitorMessage();
    const request = await rest(`/requests/${requestId}`);
    expect(await delivered('request.create', request._id)).toEqual(noReader(await rest(`/requests/${requestId}`)));
  });

  when('request.update', async () => {
    const { requestId } = await visitorMessage();
    const res = await t.patch(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token, body: { priority: 'urgent' } });
    expect(res.status).toBe(200);
    const payload = await delivered('request.update', res.body._id, (x) => x.priority === 'urgent');
    expect(payload).toEqual(noReader(await rest(`/requests/${requestId}`)));
  });

  when('request.close', async () => {
    const { requestId } = await visitorMessage();
    const res = await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.owner.token });
    expect(res.status).toBe(200);
    expect(await delivered('request.close', res.body._id)).toEqual(noReader(await rest(`/requests/${requestId}`)));
  });

  when('request.merge', async () => {
    const kept = await visitorMessage('first conversation');
    const other = await visitorMessage('second conversation');
    const res = await t.post(`/v3/${p.projectId}/requests/${kept.requestId}/merge`, { token: p.owner.token, body: { from: [other.requestId] } });
    expect(res.status).toBe(200);
    expect(await delivered('request.merge', res.body._id)).toEqual(noReader(await rest(`/requests/${kept.requestId}`)));
  });

  when('lead.create', async () => {
    const res = await t.post(`/v3/${p.projectId}/leads`, { token: p.owner.token, body: { fullname: 'Lin', email: 'lin@example.test' } });
    expect(res.status).toBe(200);
    expect(await delivered('lead.create', res.body._id)).toEqual(await rest(`/leads/${res.body._id}`));
  });

  when('lead.update', async () => {
    const created = await t.post(`/v3/${p.projectId}/leads`, { token: p.owner.token, body: { fullname: 'Lou' } });
    const res = await t.put(`/v3/${p.projectId}/leads/${created.body._id}`, { token: p.owner.token, body: { fullname: 'Lou Reed' } });
    expect(res.status).toBe(200);
    const payload = await delivered('lead.update', res.body._id);
    expect(payload).toEqual(await rest(`/leads/${res.body._id}`));
  });

  when('project_user.invite', async () => {
    const account = await t.newUser('joiner');
    const teammate = await t.addMember(p.projectId, p.owner.token, account);
    expect(await delivered('project_user.invite', teammate._id)).toEqual(await rest(`/project_users/${teammate._id}`));
  });

  when('project_user.update', async () => {
    const account = await t.newUser('changer');
    const teammate = await t.addMember(p.projectId, p.owner.token, account);
    const res = await t.put(`/v3/${p.projectId}/project_users/${teammate._id}`, { token: p.owner.token, body: { user_available: false } });
    expect(res.status).toBe(200);
    expect(await delivered('project_user.update', teammate._id)).toEqual(await rest(`/project_users/${teammate._id}`));
  });

  when('project_user.delete', async () => {
    const account = await t.newUser('leaver');
    const teammate = await t.addMember(p.projectId, p.owner.token, account);
    const res = await t.delete(`/v3/${p.projectId}/project_users/${teammate._id}`, { token: p.owner.token });
    expect(res.status).toBe(200);
    // A removed teammate has no GET: the DELETE answer is REST's last word on it.
    expect(await delivered('project_user.delete', teammate._id)).toEqual(res.body);
  });

  when('project_user.presence', async () => {
    const account = await t.newUser('present');
    const teammate = await t.addMember(p.projectId, p.owner.token, account);
    // What a messaging app's websocket does when it opens.
    t.services.presence.connected(account.user._id);
    const payload = await delivered('project_user.presence', teammate._id);
    expect(payload).toEqual(await rest(`/project_users/${teammate._id}`));
    expect(payload.presence.status).toBe('online');
  });

  when('department.create', async () => {
    const res = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Sales' } });
    expect(res.status).toBe(200);
    expect(await delivered('department.create', res.body._id)).toEqual(await rest(`/departments/${res.body._id}`));
  });

  when('department.update', async () => {
    const created = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Support' } });
    const res = await t.patch(`/v3/${p.projectId}/departments/${created.body._id}`, { token: p.owner.token, body: { name: 'Care' } });
    expect(res.status).toBe(200);
    const payload = await delivered('department.update', res.body._id);
    expect(payload).toEqual(await rest(`/departments/${res.body._id}`));
  });

  when('department.delete', async () => {
    const created = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Gone' } });
    const res = await t.delete(`/v3/${p.projectId}/departments/${created.body._id}`, { token: p.owner.token });
    expect(res.status).toBe(200);
    expect((await t.get(`/v3/${p.projectId}/departments/${created.body._id}`, { token: p.owner.token })).status).toBe(404);
    // The row is gone, for REST too: the receiver learns which department.
    expect(await delivered('department.delete', created.body._id)).toEqual({ _id: created.body._id, id: created.body._id, id_project: p.projectId, deleted: true });
  });

  when('bot.create', async () => {
    const res = await t.post(`/v3/${p.projectId}/bots`, { token: p.owner.token, body: { name: 'Helper' } });
    expect(res.status).toBe(200);
    expect(await delivered('bot.create', res.body._id)).toEqual(withoutSecret(await rest(`/bots/${res.body._id}`)));
  });

  when('bot.update', async () => {
    const created = await t.post(`/v3/${p.projectId}/bots`, { token: p.owner.token, body: { name: 'Helper' } });
    const res = await t.put(`/v3/${p.projectId}/bots/${created.body._id}`, { token: p.owner.token, body: { name: 'Helper 2' } });
    expect(res.status).toBe(200);
    expect(await delivered('bot.update', res.body._id)).toEqual(withoutSecret(await rest(`/bots/${res.body._id}`)));
  });

  when('bot.delete', async () => {
    const created = await t.post(`/v3/${p.projectId}/bots`, { token: p.owner.token, body: { name: 'Old' } });
    const res = await t.delete(`/v3/${p.projectId}/bots/${created.body._id}`, { token: p.owner.token });
    expect(res.status).toBe(200);
    const payload = await delivered('bot.delete', created.body._id);
    const get = await t.get(`/v3/${p.projectId}/bots/${created.body._id}`, { token: p.owner.token });
    expect(payload).toEqual(withoutSecret(get.status === 200 ? get.body : res.body));
  });

  when('kb.content.indexed', async () => {
    // Indexing needs an embedding service, absent here: the content is stored indexed and the
    // event logged as the indexer does, with nothing queued that could change it meanwhile.
    const content = await t.services.infra.eventLog.transaction(async (tx, emit) => {
      const row = await tx.kbContent.create({
        data: { id_project: p.projectId, namespace: 'ns', name: 'Guide', type: 'text', content: 'How to reset a password.', status: 300, createdBy: p.owner.userId },
      });
      await emit({ projectId: p.projectId, name: 'kb.content.indexed', subject: row.id });
      return row;
    });
    expect(await delivered('kb.content.indexed', content.id)).toEqual(await rest(`/kb/${content.id}`));
  });

  when('subscription.disabled', async () => {
    const gone = await startReceiver();
    try {
      gone.respond(() => ({ status: 410 }));
      const sub = await t.post(`/v3/${p.projectId}/subscriptions`, { token: p.owner.token, body: { event: 'lead.create', target: gone.url } });
      expect(sub.status).toBe(200);
      await t.post(`/v3/${p.projectId}/leads`, { token: p.owner.token, body: { fullname: 'Trigger' } });
      const { reason, ...payload } = await delivered('subscription.disabled', sub.body._id);
      expect(reason).toEqual(expect.any(String));
      expect(payload).toEqual(await rest(`/subscriptions/${sub.body._id}`));
    } finally {
      await gone.close();
    }
  });

  when('event.emit', async () => {
    const res = await t.post(`/v3/${p.projectId}/events`, { token: p.owner.token, body: { name: 'checkout', attributes: { total: 42 } } });
    expect(res.status).toBe(200);
    expect(await delivered('event.emit', res.body._id)).toEqual(await rest(`/events/${res.body._id}`));
  });

  // A policy for low-priority requests only, so that no other case's request changes meanwhile.
  const slaCase = (event: 'sla.warning' | 'sla.breach') =>
    when(event, async () => {
      if (!(await rest('/sla_policies')).length) {
        expect((await t.post(`/v3/${p.projectId}/sla_policies`, { token: p.owner.token, body: { name: 'Low', priorities: ['low'], first_response: 1 } })).status).toBe(200);
      }
      const { requestId } = await visitorMessage();
      const res = await t.patch(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token, body: { priority: 'low' } });
      expect(res.status).toBe(200);
      const payload = await delivered(event, res.body._id);
      // Read once breached. The payload is rendered when delivered: a warning's, a moment before or after the breach.
      await eventually(async () => (await rest(`/requests/${requestId}`)).sla?.breached.length);
      const request: Record<string, any> = noReader(await rest(`/requests/${requestId}`));
      const breached = event === 'sla.breach' ? request.sla.breached : payload.sla.breached;
      expect(breached).toEqual(event === 'sla.breach' ? ['first_response'] : expect.arrayContaining([]));
      expect(payload).toEqual({ ...request, sla: { ...request.sla, breached }, sla_target: 'first_response', sla_due_at: request.sla.firstResponseDueAt });
    });
  slaCase('sla.warning');
  slaCase('sla.breach');

  it('covers every event of the catalogue', () => {
    expect([...covered].sort()).toEqual(Object.keys(webhookCatalogue()).sort());
  });
});
