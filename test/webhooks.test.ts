import type { DomainEventInput, DomainEventName } from '../src/events.js';
import { Webhook } from 'standardwebhooks';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../src/infra/database.js';
import { RetryJobError } from '../src/infra/job-queue.js';
import { sign } from '../src/modules/webhooks/signature.js';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';
import { eventually, startReceiver, type Receiver } from './helpers/webhook-receiver.js';

// Webhooks end to end: subscriptions through REST and GraphQL, deliveries to a local receiver.
// Loopback targets are allowed here (OUTBOUND_ALLOW_PRIVATE); test/webhooks-ssrf.test.ts covers refusals.

let t: TestApp;
let seeded: SeededProject;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestApp({
    OUTBOUND_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,200ms',
    WEBHOOK_TIMEOUT_MS: '300',
    WEBHOOK_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms',
  });
  seeded = await t.seedProject();
});
afterAll(() => t.close());
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** A fresh project owned by the seeded owner, so each test sees only its own events. */
async function project() {
  const res = await t.post('/v3/projects', { token: seeded.owner.token, body: { name: 'Hooks' } });
  expect(res.status).toBe(200);
  return res.body._id as string;
}

async function subscribe(projectId: string, event: string, target: string) {
  const res = await t.post(`/v3/${projectId}/subscriptions`, { token: seeded.owner.token, body: { event, target } });
  expect(res.status).toBe(200);
  return res.body as { _id: string; secret: string; signingSecret: string };
}

/**
 * The forms a Standard Webhooks key can take in text: `whsec_...`, its base64 key, and the key's
 * bytes as hex, base64url and latin1. A header holding any of them gives the key away.
 */
function keyForms(signingSecret: string) {
  const encoded = signingSecret.replace(/^whsec_/, '');
  const bytes = Buffer.from(encoded, 'base64');
  return [signingSecret, encoded, bytes.toString('hex'), bytes.toString('base64url'), bytes.toString('latin1')];
}

/** The headers (name: value) that hold any form of any of the signing keys. */
function headersRevealing(headers: Record<string, unknown> | Headers, ...signingSecrets: string[]) {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers).map(([k, v]) => [k, String(v)]);
  const forms = signingSecrets.flatMap(keyForms).map((f) => f.toLowerCase());
  return entries.filter(([, value]) => forms.some((form) => value.toLowerCase().includes(form))).map(([name, value]) => `${name}: ${value}`);
}

/** Logs a domain event the way a module does: the change and the event in one transaction. */
function change<T extends { id: string }>(projectId: string, name: DomainEventName, write: (tx: Tx) => Promise<T>) {
  return t.services.infra.eventLog.transaction(async (tx, emit) => {
    const record = await write(tx);
    await emit({ projectId, name, subject: record.id } as DomainEventInput);
    return record;
  });
}

function verify(secret: string, received: { body: string; headers: Record<string, unknown> }) {
  return new Webhook(secret).verify(received.body, {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  });
}

async function deliveries(projectId: string, subscriptionId: string, query = '') {
  const res = await t.get(`/v3/${projectId}/subscriptions/${subscriptionId}/deliveries${query}`, { token: seeded.owner.token });
  expect(res.status).toBe(200);
  return res.body as { count: number; deliveries: Array<{ _id: string; status: string; attempts: any[]; nextAttemptAt: string | null }> };
}

let ticket = 0;
const requestRow = (projectId: string) => ({
  id_project: projectId,
  request_id: `support-group-${crypto.randomUUID()}`,
  ticket_id: ++ticket,
  first_text: 'hello',
  createdBy: 'visitor',
});

describe('subscriptions', () => {
  it('creation answers the record with a whsec_ signing key and a legacy secret, the latter also in the x-hook-secret header', async () => {
    const projectId = await project();
    const res = await t.post(`/v3/${projectId}/subscriptions`, {
      token: seeded.owner.token,
      body: { event: 'message.create', target: 'https://example.com/hook' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event: 'message.create', target: 'https://example.com/hook', id_project: projectId, __v: 0 });
    expect(res.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(res.body.secret).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.headers.get('x-hook-secret')).toBe(res.body.secret);
    expect(headersRevealing(res.headers, res.body.signingSecret)).toEqual([]);
    expect(res.body._id).toBe(res.body.id);
  });

  it('never shows the secrets after creation', async () => {
    const projectId = await project();
    const { _id, secret, signingSecret } = await subscribe(projectId, 'lead.create', 'https://example.com/a');
    const one = await t.get(`/v3/${projectId}/subscriptions/${_id}`, { token: seeded.owner.token });
    const list = await t.get(`/v3/${projectId}/subscriptions`, { token: seeded.owner.token });
    expect(one.status).toBe(200);
    expect(list.body.map((s: { _id: string }) => s._id)).toEqual([_id]);
    expect(JSON.stringify([one.body, list.body])).not.toContain(secret);
    expect(JSON.stringify([one.body, list.body])).not.toContain(signingSecret.replace(/^whsec_/, ''));
  });

  it.each([
    ['an unknown event', { event: 'message.explode', target: 'https://example.com/' }, 'event'],
    ['a bare custom-event prefix', { event: 'event.emit.', target: 'https://example.com/' }, 'event'],
    ['a relative target', { event: 'lead.create', target: '/hook' }, 'target'],
    ['a target that is not http(s)', { event: 'lead.create', target: 'ftp://example.com/hook' }, 'target'],
    ['a target with credentials', { event: 'lead.create', target: 'https://user:pw@example.com/' }, 'target'],
    ['a missing target', { event: 'lead.create' }, 'target'],
  ])('answers 400 for %s', async (_label, body, field) => {
    const projectId = await project();
    const res = await t.post(`/v3/${projectId}/subscriptions`, { token: seeded.owner.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field });
  });

  it('accepts event.emit and any event.emit.<NAME>', async () => {
    const projectId = await project();
    for (const event of ['event.emit', 'event.emit.checkout']) {
      const res = await t.post(`/v3/${projectId}/subscriptions`, { token: seeded.owner.token, body: { event, target: 'https://example.com/' } });
      expect(res.status).toBe(200);
    }
  });

  it('needs the admin role', async () => {
    const { projectId } = seeded;
    const res = await t.post(`/v3/${projectId}/subscriptions`, {
      token: seeded.agent.token,
      body: { event: 'lead.create', target: 'https://example.com/' },
    });
    expect(res.status).toBe(403);
    const list = await t.get(`/v3/${projectId}/subscriptions`, { token: seeded.agent.token });
    expect(list.status).toBe(403);
    const admin = await t.post(`/v3/${projectId}/subscriptions`, {
      token: seeded.admin.token,
      body: { event: 'lead.create', target: 'https://example.com/' },
    });
    expect(admin.status).toBe(200);
    await t.delete(`/v3/${projectId}/subscriptions/${admin.body._id}`, { token: seeded.admin.token });
  });

  it('keeps each project to its own subscriptions', async () => {
    const mine = await project();
    const { _id } = await subscribe(mine, 'lead.create', 'https://example.com/');
    // The seeded admin administers the seeded project, not `mine`.
    const { projectId: theirs } = seeded;
    for (const [method, path] of [
      ['GET', `/v3/${theirs}/subscriptions/${_id}`],
      ['PUT', `/v3/${theirs}/subscriptions/${_id}`],
      ['DELETE', `/v3/${theirs}/subscriptions/${_id}`],
      ['POST', `/v3/${theirs}/subscriptions/${_id}/rotate`],
      ['GET', `/v3/${theirs}/subscriptions/${_id}/deliveries`],
    ] as const) {
      const res = await t.request(method, path, { token: seeded.admin.token, body: method === 'PUT' ? { target: 'https://evil.example/' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const res = await t.get(`/v3/${mine}/subscriptions/${_id}`, { token: seeded.admin.token });
    expect(res.status).toBe(403);
  });

  it('updates the event and target, and deletes', async () => {
    const projectId = await project();
    const { _id } = await subscribe(projectId, 'lead.create', 'https://example.com/a');
    const updated = await t.put(`/v3/${projectId}/subscriptions/${_id}`, {
      token: seeded.owner.token,
      body: { event: 'lead.update', target: 'https://example.com/b' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ event: 'lead.update', target: 'https://example.com/b', __v: 1 });
    const bad = await t.put(`/v3/${projectId}/subscriptions/${_id}`, { token: seeded.owner.token, body: { target: 'nope' } });
    expect(bad.status).toBe(400);
    const deleted = await t.delete(`/v3/${projectId}/subscriptions/${_id}`, { token: seeded.owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body._id).toBe(_id);
    expect((await t.get(`/v3/${projectId}/subscriptions/${_id}`, { token: seeded.owner.token })).status).toBe(404);
  });

  it('works through GraphQL too', async () => {
    const projectId = await project();
    const created = await t.gql(
      `mutation ($p: String!) { createWebhookSubscription(project_id: $p, event: "bot.create", target: "https://example.com/g") { id secret signingSecret event } }`,
      { p: projectId },
      seeded.owner.token,
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createWebhookSubscription.signingSecret).toMatch(/^whsec_/);
    expect(created.body.data.createWebhookSubscription.secret).not.toBe(created.body.data.createWebhookSubscription.signingSecret);
    const listed = await t.gql(`query ($p: String!) { webhookSubscriptions(project_id: $p) { id event target } }`, { p: projectId }, seeded.owner.token);
    expect(listed.body.data.webhookSubscriptions).toEqual([
      { id: created.body.data.createWebhookSubscription.id, event: 'bot.create', target: 'https://example.com/g' },
    ]);
  });
});

describe('delivery', () => {
  it('posts {timestamp, payload, hook} signed per Standard Webhooks', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    const lead = await change(projectId, 'lead.create', (tx) =>
      tx.lead.create({ data: { id_project: projectId, fullname: 'Ada', email: 'ada@example.test', createdBy: 'test' } }),
    );
    const [got] = await r.waitFor(1);
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toBe('application/json');
    expect(verify(sub.signingSecret, got as never)).toBeTruthy();
    expect(Object.keys(got.json).sort()).toEqual(['hook', 'payload', 'timestamp']);
    expect(typeof got.json.timestamp).toBe('number');
    expect(got.json.payload).toMatchObject({ _id: lead.id, id: lead.id, fullname: 'Ada', email: 'ada@example.test', id_project: projectId, __v: 0 });
    const hook = await t.get(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token });
    expect(got.json.hook).toEqual(hook.body);
    expect(got.body).not.toContain(sub.secret);
    expect(got.body).not.toContain(sub.signingSecret.replace(/^whsec_/, ''));
  });

  it('carries the secret the creation answered in x-hook-secret, for legacy receivers', async () => {
    const projectId = await project();
    const r = await receiver();
    const created = await t.post(`/v3/${projectId}/subscriptions`, { token: seeded.owner.token, body: { event: 'lead.create', target: r.url } });
    // What a Tiledesk receiver keeps from the creation answer and compares with every delivery.
    const kept = { body: created.body.secret, header: created.headers.get('x-hook-secret') };
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const [got] = await r.waitFor(1);
    expect(got.headers['x-hook-secret']).toBe(kept.body);
    expect(got.headers['x-hook-secret']).toBe(kept.header);
  });

  it('no header of a delivery equals or reveals the signing key', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const [got] = await r.waitFor(1);
    expect(headersRevealing(got.headers, sub.signingSecret)).toEqual([]);
  });

  it('a body signed with any header of a delivery as the key does not verify', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const [got] = await r.waitFor(1);
    const id = String(got.headers['webhook-id']);
    const timestamp = Number(got.headers['webhook-timestamp']);
    const forged = JSON.stringify({ timestamp: Date.now(), payload: { forged: true }, hook: got.json.hook });
    for (const [name, value] of Object.entries(got.headers)) {
      const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(String(value), id, timestamp, forged) };
      expect(() => verify(sub.signingSecret, { body: forged, headers }), name).toThrow();
    }
  });

  it('a signature made with another secret does not verify', async () => {
    const projectId = await project();
    const r = await receiver();
    await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const [got] = await r.waitFor(1);
    expect(() => verify(`whsec_${Buffer.from('another secret of 24 bytes').toString('base64')}`, got as never)).toThrow();
  });

  describe('every catalogue event arrives with its record', () => {
    const cases: Array<[string, (projectId: string) => Promise<{ subject: string; check: (payload: any) => void }>]> = [
      [
        'message.create',
        async (projectId) => {
          const request = await t.services.infra.database.prisma.request.create({ data: requestRow(projectId) });
          const message = await change(projectId, 'message.create', (tx) =>
            tx.message.create({
              data: { id_project: projectId, request_id: request.request_id, sender: 'visitor', senderFullname: 'Visitor', recipient: request.request_id, text: 'hi there', createdBy: 'visitor', attributes: { client: 'widget' } },
            }),
          );
          return {
            subject: message.id,
            check: (p) => {
              expect(p).toMatchObject({ _id: message.id, text: 'hi there', sender: 'visitor', recipient: request.request_id, type: 'text', status: 200, attributes: { client: 'widget' } });
              expect(p.request).toMatchObject({ _id: request.id, request_id: request.request_id, first_text: 'hello', id_project: projectId });
            },
          };
        },
      ],
      ...(['request.create', 'request.update', 'request.close'] as const).map(
        (name) =>
          [
            name,
            async (projectId: string) => {
              const request = await change(projectId, name, (tx) => tx.request.create({ data: requestRow(projectId) }));
              return { subject: request.id, check: (p: any) => expect(p).toMatchObject({ _id: request.id, request_id: request.request_id, status: 100 }) };
            },
          ] as [string, (projectId: string) => Promise<{ subject: string; check: (payload: any) => void }>],
      ),
      ...(['lead.create', 'lead.update'] as const).map(
        (name) =>
          [
            name,
            async (projectId: string) => {
              const lead = await change(projectId, name, (tx) => tx.lead.create({ data: { id_project: projectId, fullname: 'Lin', createdBy: 'test' } }));
              return { subject: lead.id, check: (p: any) => expect(p).toMatchObject({ _id: lead.id, fullname: 'Lin' }) };
            },
          ] as [string, (projectId: string) => Promise<{ subject: string; check: (payload: any) => void }>],
      ),
      [
        'project_user.invite',
        async (projectId) => {
          const invitee = await t.newUser('invitee');
          const teammate = await t.addMember(projectId, seeded.owner.token, invitee);
          return { subject: teammate._id, check: (p) => expect(p).toMatchObject({ _id: teammate._id, role: 'agent' }) };
        },
      ],
      [
        'project_user.update',
        async (projectId) => {
          const invitee = await t.newUser('updated');
          const invited = await t.addMember(projectId, seeded.owner.token, invitee);
          const res = await t.put(`/v3/${projectId}/project_users/${invited._id}`, { token: seeded.owner.token, body: { user_available: false } });
          // The payload is the teammate exactly as the REST response showed it.
          return { subject: res.body._id, check: (p) => expect(p).toEqual(res.body) };
        },
      ],
      [
        'project_user.delete',
        async (projectId) => {
          const invitee = await t.newUser('removed');
          const invited = await t.addMember(projectId, seeded.owner.token, invitee);
          const res = await t.delete(`/v3/${projectId}/project_users/${invited._id}`, { token: seeded.owner.token });
          return { subject: res.body._id, check: (p) => expect(p).toMatchObject({ _id: res.body._id, trashed: true }) };
        },
      ],
      ...(['department.create', 'department.update'] as const).map(
        (name) =>
          [
            name,
            async (projectId: string) => {
              const department = await change(projectId, name, (tx) => tx.department.create({ data: { id_project: projectId, name: 'Sales', createdBy: 'test' } }));
              return { subject: department.id, check: (p: any) => expect(p).toMatchObject({ _id: department.id, name: 'Sales', routing: 'pooled' }) };
            },
          ] as [string, (projectId: string) => Promise<{ subject: string; check: (payload: any) => void }>],
      ),
      [
        'department.delete',
        async (projectId) => {
          const department = await t.services.infra.database.prisma.department.create({ data: { id_project: projectId, name: 'Gone', createdBy: 'test' } });
          await change(projectId, 'department.delete', (tx) => tx.department.delete({ where: { id: department.id } }));
          // The row is gone: the receiver still learns which department.
          return { subject: department.id, check: (p) => expect(p).toEqual({ _id: department.id, id: department.id, id_project: projectId, deleted: true }) };
        },
      ],
      ...(['bot.create', 'bot.update', 'bot.delete'] as const).map(
        (name) =>
          [
            name,
            async (projectId: string) => {
              const bot = await change(projectId, name, (tx) =>
                tx.bot.create({ data: { id_project: projectId, name: 'Helper', secret: 'bot-signing-secret', createdBy: 'test', trashed: name === 'bot.delete' } }),
              );
              return {
                subject: bot.id,
                check: (p: any) => {
                  expect(p).toMatchObject({ _id: bot.id, name: 'Helper', type: 'internal' });
                  // A payload leaves the platform: the bot's secret never does.
                  expect(JSON.stringify(p)).not.toContain('bot-signing-secret');
                },
              };
            },
          ] as [string, (projectId: string) => Promise<{ subject: string; check: (payload: any) => void }>],
      ),
      [
        'kb.content.indexed',
        async (projectId) => {
          const content = await change(projectId, 'kb.content.indexed', (tx) =>
            tx.kbContent.create({ data: { id_project: projectId, namespace: 'ns', name: 'Guide', type: 'text', content: 'text', status: 300, createdBy: 'test' } }),
          );
          return { subject: content.id, check: (p) => expect(p).toMatchObject({ _id: content.id, name: 'Guide', status: 300, namespace: 'ns' }) };
        },
      ],
      [
        'event.emit.checkout',
        async (projectId) => {
          const event = await change(projectId, 'event.emit.checkout', (tx) =>
            tx.customEvent.create({ data: { id_project: projectId, name: 'event.emit.checkout', project_user: 'pu', attributes: { total: 42 }, createdBy: 'test' } }),
          );
          return { subject: event.id, check: (p) => expect(p).toMatchObject({ _id: event.id, name: 'event.emit.checkout', attributes: { total: 42 } }) };
        },
      ],
    ];

    /** The catalogue's schemas (GET /v3/webhooks/events), compiled once. */
    let validators: Map<string, ReturnType<Ajv2020['compile']>>;
    beforeAll(async () => {
      const res = await t.get('/v3/webhooks/events', { token: seeded.agent.token });
      expect(res.status).toBe(200);
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      addFormats.default(ajv);
      validators = new Map(res.body.map((e: { event: string; schema: object }) => [e.event, ajv.compile(e.schema)]));
    });

    it.each(cases)('%s, valid against the catalogue\'s JSON Schema', async (name, produce) => {
      const projectId = await project();
      const r = await receiver();
      const sub = await subscribe(projectId, name, r.url);
      const { subject, check } = await produce(projectId);
      const got = await eventually(() => r.received.find((x) => x.json?.payload?._id === subject));
      expect(verify(sub.signingSecret, got as never)).toBeTruthy();
      expect(got.json.hook).toMatchObject({ _id: sub._id, event: name });
      if (!got.json.payload.deleted) expect(typeof got.json.payload.__v).toBe('number');
      check(got.json.payload);
      const validate = validators.get(name.startsWith('event.emit.') ? 'event.emit' : name)!;
      expect(validate(got.json) ? [] : validate.errors).toEqual([]);
      // The schema says something: a record with an id of the wrong type, or a key it does not name, fails.
      expect(validate({ ...got.json, payload: { ...got.json.payload, _id: 5 } })).toBe(false);
      expect(validate({ ...got.json, hook: { ...got.json.hook, secret: 'x' } })).toBe(false);
    });
  });

  it('a subscription to event.emit receives every custom event, event.emit.<NAME> only its own', async () => {
    const projectId = await project();
    const all = await receiver();
    const one = await receiver();
    await subscribe(projectId, 'event.emit', all.url);
    await subscribe(projectId, 'event.emit.signup', one.url);
    for (const name of ['event.emit.signup', 'event.emit.checkout'] as const) {
      await change(projectId, name, (tx) => tx.customEvent.create({ data: { id_project: projectId, name, project_user: 'pu', createdBy: 'test' } }));
    }
    await all.waitFor(2);
    await eventually(() => one.received.length >= 1);
    expect(all.received.map((x) => x.json.payload.name).sort()).toEqual(['event.emit.checkout', 'event.emit.signup']);
    // The checkout event was dispatched (the other receiver got it) and never reached this one.
    expect(one.received.map((x) => x.json.payload.name)).toEqual(['event.emit.signup']);
  });

  it('retries after 500s with the same webhook-id until one succeeds', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond((_req, i) => (i < 2 ? { status: 500, body: 'try later' } : { status: 204 }));
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    await r.waitFor(3);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
    const log = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0]?.status === 'succeeded' && page;
    });
    expect(log.deliveries[0]._id).toBe(r.received[0].headers['webhook-id']);
    expect(log.deliveries[0].attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[1, 500], [2, 500], [3, 204]]);
    expect(log.deliveries[0].attempts[0]).toMatchObject({ error: 'HTTP 500', response: 'try later', redelivery: false });
    expect(log.deliveries[0].nextAttemptAt).toBeNull();
  });

  it('retries a failed first attempt on its own while the other deliveries of its batch succeed', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond((_req, i) => (i === 0 ? { status: 503 } : { status: 200 }));
    const sub = await subscribe(projectId, 'lead.create', r.url);
    // Three events in one transaction: dispatched together, their first attempts in one job.
    await t.services.infra.eventLog.transaction(async (tx, emit) => {
      for (let i = 0; i < 3; i++) {
        const lead = await tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } });
        await emit({ projectId, name: 'lead.create', subject: lead.id });
      }
    });
    const log = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.count === 3 && page.deliveries.every((d) => d.status === 'succeeded') && page;
    });
    const failedFirst = String(r.received[0].headers['webhook-id']);
    for (const delivery of log.deliveries) {
      expect(delivery.attempts.map((a) => [a.attempt, a.statusCode])).toEqual(delivery._id === failedFirst ? [[1, 503], [2, 200]] : [[1, 200]]);
    }
    expect(r.received).toHaveLength(4);
  });

  /** A delivery whose first attempt failed, its retry due at `nextAttemptAt`. */
  async function deliveryAwaitingRetry(projectId: string, subscriptionId: string, nextAttemptAt: Date) {
    const db = t.services.infra.database.prisma;
    const eventId = `event-${crypto.randomUUID()}`;
    await db.webhookPayload.create({ data: { eventId, id_project: projectId, name: 'lead.create', payload: { _id: 'lead-1' }, occurredAt: new Date() } });
    const firstAttempt = { at: new Date().toISOString(), attempt: 1, statusCode: 500, durationMs: 3, error: 'HTTP 500', response: null, redelivery: false };
    return db.webhookDelivery.create({
      data: { id_project: projectId, subscriptionId, eventId, event: 'lead.create', attempts: [firstAttempt], nextAttemptAt },
    });
  }

  it('a first-attempts job run again leaves a delivery already attempted to its retry', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    const delivery = await deliveryAwaitingRetry(projectId, sub._id, new Date());
    await t.services.webhooks.sender.deliverFirst([delivery.id]);
    expect(r.received).toHaveLength(0);
    // Its own job (a retry) does attempt it, as attempt 2.
    await t.services.webhooks.sender.deliver({ deliveryId: delivery.id });
    expect(r.received).toHaveLength(1);
    const [logged] = (await deliveries(projectId, sub._id)).deliveries;
    expect(logged.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[1, 500], [2, 200]]);
  });

  it('a delivery job that comes before the retry is due waits until then, sending nothing', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    const delivery = await deliveryAwaitingRetry(projectId, sub._id, new Date(Date.now() + 3_600_000));
    const early = await t.services.webhooks.sender.deliver({ deliveryId: delivery.id }).catch((error: unknown) => error);
    expect(early).toBeInstanceOf(RetryJobError);
    expect((early as RetryJobError).delayMs).toBeGreaterThan(3_590_000);
    expect(r.received).toHaveLength(0);
    expect((await deliveries(projectId, sub._id)).deliveries[0].attempts).toHaveLength(1);
  });

  it('keeps a success recorded when a slower copy of the same attempt times out after it', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond((_req, i) => (i === 0 ? 'hang' : { status: 200 }));
    const sub = await subscribe(projectId, 'lead.create', r.url);
    const db = t.services.infra.database.prisma;
    const eventId = `event-${crypto.randomUUID()}`;
    await db.webhookPayload.create({ data: { eventId, id_project: projectId, name: 'lead.create', payload: { _id: 'lead-1' }, occurredAt: new Date() } });
    const delivery = await db.webhookDelivery.create({ data: { id_project: projectId, subscriptionId: sub._id, eventId, event: 'lead.create', attempts: [], nextAttemptAt: new Date() } });
    // Two copies of the delivery's job at once (a starting worker's sweep beside a first attempt
    // still in flight): the first copy's request hangs until its timeout, the second is answered 200.
    const slow = t.services.webhooks.sender.deliver({ deliveryId: delivery.id }).catch((error: unknown) => error);
    await r.waitFor(1);
    await t.services.webhooks.sender.deliver({ deliveryId: delivery.id });
    expect(await slow).toBeInstanceOf(RetryJobError);
    const [logged] = (await deliveries(projectId, sub._id)).deliveries;
    expect(logged.status).toBe('succeeded');
    expect(logged.nextAttemptAt).toBeNull();
    expect(logged.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[1, 200], [1, null]]);
    // The retry the slow copy asked for finds the delivery settled and sends nothing.
    await t.services.webhooks.sender.deliver({ deliveryId: delivery.id });
    expect(r.received).toHaveLength(2);
  });

  it('retries after a timeout', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond((_req, i) => (i === 0 ? 'hang' : { status: 200 }));
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    await r.waitFor(2);
    const log = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0]?.status === 'succeeded' && page;
    });
    expect(log.deliveries[0].attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/^timeout/) });
    expect(log.deliveries[0].attempts[1]).toMatchObject({ statusCode: 200, error: null });
  });

  it('marks the delivery failed when the receiver is down for the whole retry window', async () => {
    const projectId = await project();
    const r = await receiver();
    const target = r.url;
    await r.close();
    const sub = await subscribe(projectId, 'lead.create', target);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const log = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0]?.status === 'failed' && page;
    });
    // 1 attempt + 3 retries (WEBHOOK_RETRY_SCHEDULE=50ms,100ms,200ms), each with its error.
    expect(log.deliveries[0].attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    for (const attempt of log.deliveries[0].attempts) expect(attempt.error).toMatch(/^connection: ECONNREFUSED/);
    expect(log.deliveries[0].nextAttemptAt).toBeNull();
    // Failing for a few hundred ms is far from WEBHOOK_DISABLE_AFTER: the subscription stays enabled.
    expect((await t.get(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token })).body.enabled).toBe(true);
  });

  it('410 Gone disables the subscription and records a subscription.disabled event', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond(() => ({ status: 410 }));
    const watcher = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await subscribe(projectId, 'subscription.disabled', watcher.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const [notice] = await watcher.waitFor(1);
    expect(notice.json.payload).toMatchObject({ _id: sub._id, enabled: false, reason: 'the target answered 410 Gone' });
    const after = await t.get(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token });
    expect(after.body).toMatchObject({ enabled: false, disabledReason: 'the target answered 410 Gone' });
    expect(r.received).toHaveLength(1);
    const log = await deliveries(projectId, sub._id);
    expect(log.deliveries[0]).toMatchObject({ status: 'failed' });
    expect(log.deliveries[0].attempts).toHaveLength(1);

    // Disabled: later events are not delivered to it.
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    await eventually(() => consumerCaughtUp(t, 'webhooks', projectId));
    expect(r.received).toHaveLength(1);
  });

  it('disables a subscription that keeps failing for WEBHOOK_DISABLE_AFTER', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond(() => ({ status: 503 }));
    const sub = await subscribe(projectId, 'lead.create', r.url);
    // Failing since four days (the default limit is three).
    await t.services.infra.database.prisma.subscription.update({
      where: { id: sub._id },
      data: { failingSince: new Date(Date.now() - 4 * 86_400_000) },
    });
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const after = await eventually(async () => {
      const res = await t.get(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token });
      return res.body.enabled === false && res.body;
    });
    expect(after.disabledReason).toMatch(/^failing since/);
    const events = await t.services.infra.database.prisma.domainEvent.findMany({ where: { id_project: projectId, name: 'subscription.disabled' } });
    expect(events.map((e) => e.subject)).toEqual([sub._id]);
    expect((await deliveries(projectId, sub._id)).deliveries[0].status).toBe('failed');
  });

  it('enabling a disabled subscription again delivers new events', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await t.put(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token, body: { enabled: false } });
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, fullname: 'skipped', createdBy: 'test' } }));
    const enabled = await t.put(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, fullname: 'sent', createdBy: 'test' } }));
    await r.waitFor(1);
    expect(r.received.map((x) => x.json.payload.fullname)).toEqual(['sent']);
  });

  it('redelivers a past delivery with the same webhook-id, logged as a redelivery', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    await r.waitFor(1);
    const first = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0]?.status === 'succeeded' && page.deliveries[0];
    });
    const res = await t.post(`/v3/${projectId}/subscriptions/${sub._id}/deliveries/${first._id}/redeliver`, { token: seeded.owner.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(first._id);
    // Answered once the attempt is made: its outcome is the last attempt.
    expect(r.received).toHaveLength(2);
    expect(res.body.attempts).toHaveLength(2);
    expect(res.body.attempts[1]).toMatchObject({ redelivery: true, attempt: null, statusCode: 200, error: null });
    expect(r.received[1].headers['webhook-id']).toBe(first._id);
    expect(r.received[1].json.payload).toEqual(r.received[0].json.payload);
    expect(verify(sub.signingSecret, r.received[1] as never)).toBeTruthy();
    expect(r.unique()).toHaveLength(1);
    const log = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0].attempts.length === 2 && page;
    });
    expect(log.deliveries[0].attempts[1]).toMatchObject({ redelivery: true, attempt: null, statusCode: 200 });
  });

  it('answers a failed redelivery with the attempt\'s status, reason and time', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const first = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0]?.status === 'succeeded' && page.deliveries[0];
    });
    r.respond(() => ({ status: 503, body: 'down for maintenance' }));
    const before = Date.now();
    const res = await t.gql(
      'mutation($p: String!, $s: String!, $d: String!) { redeliverWebhook(project_id: $p, id: $s, delivery_id: $d) { status attempts { at statusCode reason error response redelivery } } }',
      { p: projectId, s: sub._id, d: first._id },
      seeded.owner.token,
    );
    expect(res.body.errors).toBeUndefined();
    const { status, attempts } = res.body.data.redeliverWebhook;
    // A redelivery, asked for by hand, is the delivery's latest outcome: it sets the state (only
    // automatic attempts yield to a success).
    expect(status).toBe('failed');
    expect(attempts.at(-1)).toMatchObject({ statusCode: 503, reason: 'unavailable', error: expect.stringMatching(/^HTTP 503/), response: 'down for maintenance', redelivery: true });
    expect(Date.parse(attempts.at(-1).at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('answers a redelivery that times out with the timeout as its reason', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const first = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0]?.status === 'succeeded' && page.deliveries[0];
    });
    r.respond(() => 'hang');
    const res = await t.post(`/v3/${projectId}/subscriptions/${sub._id}/deliveries/${first._id}/redeliver`, { token: seeded.owner.token });
    expect(res.status).toBe(200);
    expect(res.body.attempts.at(-1)).toMatchObject({ statusCode: null, error: expect.stringMatching(/^timeout: no complete answer within 300 ms/), redelivery: true, at: expect.any(String) });
  });

  it('answers 404 when redelivering a delivery of another subscription', async () => {
    const projectId = await project();
    const r = await receiver();
    const a = await subscribe(projectId, 'lead.create', r.url);
    const b = await subscribe(projectId, 'lead.update', 'https://example.com/');
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    await r.waitFor(1);
    const delivery = String(r.received[0].headers['webhook-id']);
    const res = await t.post(`/v3/${projectId}/subscriptions/${b._id}/deliveries/${delivery}/redeliver`, { token: seeded.owner.token });
    expect(res.status).toBe(404);
    expect((await t.post(`/v3/${projectId}/subscriptions/${a._id}/deliveries/nope/redeliver`, { token: seeded.owner.token })).status).toBe(404);
  });

  it('signs with both secrets for 24 hours after a rotation', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    const rotated = await t.post(`/v3/${projectId}/subscriptions/${sub._id}/rotate`, { token: seeded.owner.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.signingSecret).toMatch(/^whsec_/);
    expect(rotated.body.signingSecret).not.toBe(sub.signingSecret);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
    expect(expires).toBeGreaterThan(23.9 * 3_600_000);
    expect(expires).toBeLessThanOrEqual(24 * 3_600_000);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const [got] = await r.waitFor(1);
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(sub.signingSecret, got as never)).toBeTruthy();
    expect(verify(rotated.body.signingSecret, got as never)).toBeTruthy();
  });

  it('a rotation keeps the legacy secret, and neither its answer nor a delivery shows a signing key in a header', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    const rotated = await t.post(`/v3/${projectId}/subscriptions/${sub._id}/rotate`, { token: seeded.owner.token });
    expect(rotated.body.secret).toBe(sub.secret);
    expect(headersRevealing(rotated.headers, sub.signingSecret, rotated.body.signingSecret)).toEqual([]);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const [got] = await r.waitFor(1);
    expect(got.headers['x-hook-secret']).toBe(sub.secret);
    expect(headersRevealing(got.headers, sub.signingSecret, rotated.body.signingSecret)).toEqual([]);
  });

  it('does not follow redirects', async () => {
    const projectId = await project();
    const elsewhere = await receiver();
    const r = await receiver();
    r.respond(() => ({ status: 302, headers: { location: elsewhere.url } }));
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const log = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0]?.status === 'failed' && page;
    });
    expect(log.deliveries[0].attempts.map((a) => a.statusCode)).toEqual([302, 302, 302, 302]);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('keeps the first kilobyte of a response body', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond(() => ({ status: 200, body: 'y'.repeat(5000) }));
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    const log = await eventually(async () => {
      const page = await deliveries(projectId, sub._id);
      return page.deliveries[0]?.status === 'succeeded' && page;
    });
    expect(log.deliveries[0].attempts[0].response).toBe('y'.repeat(1024));
  });

  it('pages the delivery log, newest first', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    for (let i = 0; i < 3; i++) {
      await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, fullname: `n${i}`, createdBy: 'test' } }));
    }
    await r.waitFor(3);
    const first = await deliveries(projectId, sub._id, '?limit=2');
    const second = await deliveries(projectId, sub._id, '?limit=2&page=1');
    expect(first.count).toBe(3);
    expect(first.deliveries).toHaveLength(2);
    expect(second.deliveries).toHaveLength(1);
    const ids = [...first.deliveries, ...second.deliveries].map((d) => d._id);
    expect(new Set(ids).size).toBe(3);
    const bad = await t.get(`/v3/${projectId}/subscriptions/${sub._id}/deliveries?limit=1000`, { token: seeded.owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('limit');
  });

  it('the delivery log is readable through GraphQL', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, 'lead.create', r.url);
    await change(projectId, 'lead.create', (tx) => tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } }));
    await r.waitFor(1);
    const res = await eventually(async () => {
      const out = await t.gql(
        `query ($p: String!, $id: String!) { webhookDeliveries(project_id: $p, id: $id) { count deliveries { id status attempts { statusCode durationMs } } } }`,
        { p: projectId, id: sub._id },
        seeded.owner.token,
      );
      return out.body.data?.webhookDeliveries.deliveries[0]?.status === 'succeeded' && out.body.data.webhookDeliveries;
    });
    expect(res.count).toBe(1);
    expect(res.deliveries[0].attempts[0].statusCode).toBe(200);
  });

  it('delivers events logged while no dispatcher ran (found by the sweep)', async () => {
    const projectId = await project();
    const r = await receiver();
    await subscribe(projectId, 'lead.create', r.url);
    // Written and committed without a bus message, as if the process died before publishing.
    const db = t.services.infra.database.prisma;
    const lead = await db.lead.create({ data: { id_project: projectId, createdBy: 'test' } });
    const [{ seq }] = await db.$queryRaw<{ seq: bigint }[]>`
      UPDATE "Project" SET "eventSeq" = "eventSeq" + 1 WHERE "id" = ${projectId} RETURNING "eventSeq" AS seq`;
    await db.domainEvent.create({ data: { id_project: projectId, seq, name: 'lead.create', subject: lead.id } });
    const [got] = await r.waitFor(1);
    expect(got.json.payload._id).toBe(lead.id);
  });
});
