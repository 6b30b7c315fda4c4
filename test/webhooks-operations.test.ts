import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEventInput } from '../src/events.js';
import { createTestApp, createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { productionMode } from './helpers/environment.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';
import { eventually, startReceiver, type Receiver } from './helpers/webhook-receiver.js';

// What a platform team running webhooks needs past delivery itself: admins told when a
// subscription is disabled, re-enabling, why each attempt failed, Retry-After, a throttle,
// recovering failed deliveries, asymmetric (ed25519) signatures and the event catalogue.

let t: TestApp;
let smtp: SmtpSink;
let seeded: SeededProject;
const receivers: Receiver[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({
    OUTBOUND_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,200ms',
    WEBHOOK_TIMEOUT_MS: '500',
    WEBHOOK_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms',
    WEBHOOK_MAX_RETRY_AFTER: '3s',
    SMTP_URL: smtp.url,
  });
  seeded = await t.seedProject('Operations');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** A fresh project of the seeded owner, with the seeded admin and agent in it. */
async function project() {
  const res = await t.post('/v3/projects', { token: seeded.owner.token, body: { name: 'Hooks ops' } });
  const projectId = res.body._id as string;
  await t.addMember(projectId, seeded.owner.token, seeded.admin, 'admin');
  await t.addMember(projectId, seeded.owner.token, seeded.agent, 'agent');
  return projectId;
}

async function subscribe(projectId: string, target: string, body: Record<string, unknown> = {}) {
  const res = await t.post(`/v3/${projectId}/subscriptions`, { token: seeded.owner.token, body: { event: 'lead.create', target, ...body } });
  expect(res.status).toBe(200);
  return res.body as { _id: string; signingSecret: string | null; publicKey: string | null; signing: string; throttle: number | null };
}

function lead(projectId: string, fullname = 'Lin') {
  return t.services.infra.eventLog.transaction(async (tx, emit) => {
    const created = await tx.lead.create({ data: { id_project: projectId, fullname, createdBy: 'test' } });
    await emit({ projectId, name: 'lead.create', subject: created.id } as DomainEventInput);
    return created;
  });
}

async function deliveries(projectId: string, subscriptionId: string) {
  const res = await t.get(`/v3/${projectId}/subscriptions/${subscriptionId}/deliveries`, { token: seeded.owner.token });
  expect(res.status).toBe(200);
  return res.body.deliveries as Array<{ _id: string; status: string; attempts: Array<Record<string, any>>; nextAttemptAt: string | null }>;
}

const received = (r: Receiver) => r.received.map((x) => String(x.headers['webhook-id']));

describe('a disabled subscription', () => {
  it('is e-mailed to the project\'s owner and admins with the reason and the last attempts; each attempt says why it failed', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond((_req, i) => (i < 2 ? { status: 500, body: 'boom' } : { status: 410 }));
    const sub = await subscribe(projectId, r.url);
    await lead(projectId, 'first');
    await eventually(async () => (await deliveries(projectId, sub._id))[0]?.status === 'failed' || r.received.length >= 3);
    const mail = await smtp.mailTo(seeded.owner.email, (m) => m.subject.includes('disabled'));
    expect(mail.to.sort()).toEqual([seeded.owner.email, seeded.admin.email].map((e) => e.toLowerCase()).sort());
    expect(mail.subject).toBe(`[Hooks ops] Webhook to ${r.url} disabled`);
    expect(mail.text).toContain('the target answered 410 Gone');
    expect(mail.text).toContain('lead.create: 500 (HTTP 500)');
    expect(mail.text).toContain('lead.create: 410');

    const [delivery] = await deliveries(projectId, sub._id);
    expect(delivery.attempts.map((a) => [a.statusCode, a.reason])).toEqual([
      [500, 'http_error'],
      [500, 'http_error'],
      [410, 'gone'],
    ]);
    expect(delivery.attempts[2].error).toMatch(/^HTTP 410 Gone/);
    const state = await t.get(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.admin.token });
    expect(state.body).toMatchObject({ enabled: false, disabledReason: 'the target answered 410 Gone', disabledAt: expect.any(String) });
  });

  it('is enabled again by POST .../enable (admins only), with a clean record, and delivers new events', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, r.url);
    await t.put(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token, body: { enabled: false } });
    const path = `/v3/${projectId}/subscriptions/${sub._id}/enable`;
    expect((await t.post(path, { token: seeded.agent.token })).status).toBe(403);
    const res = await t.post(path, { token: seeded.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null });
    const created = await lead(projectId, 'after');
    await eventually(() => r.received.find((x) => x.json?.payload?._id === created.id));
    const gql = await t.gql(
      'mutation($p: String!, $id: String!) { enableWebhookSubscription(project_id: $p, id: $id) { enabled } }',
      { p: projectId, id: sub._id },
      seeded.owner.token,
    );
    expect(gql.body.data.enableWebhookSubscription).toEqual({ enabled: true });
    const other = await project();
    expect((await t.post(`/v3/${other}/subscriptions/${sub._id}/enable`, { token: seeded.owner.token })).status).toBe(404);
  });
});

describe('Retry-After', () => {
  it('on 503 delays the next attempt to the time asked, not the schedule\'s 50 ms', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond((_req, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }));
    const sub = await subscribe(projectId, r.url);
    await lead(projectId);
    await r.waitFor(2, 10_000);
    // The receiver sees the second attempt before its outcome is recorded.
    const delivery = await eventually(async () => {
      const [d] = await deliveries(projectId, sub._id);
      return d?.attempts.length === 2 && d;
    });
    const [first, second] = delivery.attempts;
    const gap = Date.parse(second.at) - Date.parse(first.at);
    expect(gap).toBeGreaterThanOrEqual(1900);
    expect(first).toMatchObject({ statusCode: 503, reason: 'unavailable', error: 'HTTP 503 with Retry-After: next attempt in 2 s' });
  });

  it('on 429 is bounded by WEBHOOK_MAX_RETRY_AFTER (3 s here) and read as an HTTP date too', async () => {
    const projectId = await project();
    const r = await receiver();
    r.respond(() => ({ status: 429, headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } }));
    const sub = await subscribe(projectId, r.url);
    await lead(projectId);
    await r.waitFor(1);
    const delivery = await eventually(async () => (await deliveries(projectId, sub._id))[0]?.attempts.length === 1 && (await deliveries(projectId, sub._id))[0]);
    expect(delivery.attempts[0]).toMatchObject({ reason: 'rate_limited', error: 'HTTP 429 with Retry-After: next attempt in 3 s' });
    const delay = Date.parse(delivery.nextAttemptAt!) - Date.parse(delivery.attempts[0].at);
    // Counted from the answer, which comes a little after the attempt started: an hour was asked.
    expect(delay).toBeGreaterThanOrEqual(2900);
    expect(delay).toBeLessThanOrEqual(4000);
  });
});

describe('throttle', () => {
  it('paces deliveries to the subscription\'s deliveries a second', async () => {
    const projectId = await project();
    const r = await receiver();
    const times: number[] = [];
    r.respond(() => (times.push(Date.now()), { status: 200 }));
    const sub = await subscribe(projectId, r.url, { throttle: 5 });
    expect(sub.throttle).toBe(5);
    for (let i = 0; i < 8; i++) await lead(projectId, `lead ${i}`);
    await r.waitFor(8, 15_000);
    // Eight at 5 a second: slots 200 ms apart, the last 1400 ms after the first. A send that leaves
    // late (a busy event loop) shortens the span; unthrottled, all eight arrive within 100 ms.
    expect(times[7] - times[0]).toBeGreaterThanOrEqual(1000);
  });

  it('is changed and removed by an update (null: no limit), and must be a positive whole number (400 naming throttle)', async () => {
    const projectId = await project();
    const sub = await subscribe(projectId, 'http://127.0.0.1:9/hook', { throttle: 2 });
    const path = `/v3/${projectId}/subscriptions/${sub._id}`;
    expect((await t.put(path, { token: seeded.owner.token, body: { throttle: 50 } })).body.throttle).toBe(50);
    expect((await t.put(path, { token: seeded.owner.token, body: { throttle: null } })).body.throttle).toBeNull();
    const wrong = await t.put(path, { token: seeded.owner.token, body: { throttle: 0 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('throttle');
  });
});

describe('POST /v3/:project_id/subscriptions/:id/recover', () => {
  it('sends again every failed delivery since the time given, with the same webhook-id, and answers how many', async () => {
    const projectId = await project();
    const r = await receiver();
    let up = false;
    r.respond(() => ({ status: up ? 200 : 500 }));
    const sub = await subscribe(projectId, r.url);
    const before = new Date(Date.now() - 1000).toISOString();
    for (const name of ['a', 'b', 'c']) await lead(projectId, name);
    await eventually(async () => (await deliveries(projectId, sub._id)).filter((d) => d.status === 'failed').length === 3);
    const failedIds = new Set(received(r));
    expect(failedIds.size).toBe(3);
    up = true;

    const res = await t.post(`/v3/${projectId}/subscriptions/${sub._id}/recover`, { token: seeded.admin.token, body: { since: before } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 3, since: before });
    await eventually(async () => (await deliveries(projectId, sub._id)).every((d) => d.status === 'succeeded'));
    const again = r.received.slice(-3).map((x) => String(x.headers['webhook-id']));
    expect(new Set(again)).toEqual(failedIds);
    expect((await deliveries(projectId, sub._id))[0].attempts.at(-1)).toMatchObject({ statusCode: 200, redelivery: true });

    // Nothing failed since now: nothing to send.
    const none = await t.post(`/v3/${projectId}/subscriptions/${sub._id}/recover`, { token: seeded.admin.token, body: { since: String(Date.now() - 10) } });
    expect(none.body.count).toBe(0);
  });

  it('answers 400 naming since for a date in the future or none, 403 to an agent, 404 for another project\'s subscription, 409 when disabled', async () => {
    const projectId = await project();
    const sub = await subscribe(projectId, 'http://127.0.0.1:9/hook');
    const path = `/v3/${projectId}/subscriptions/${sub._id}/recover`;
    for (const body of [{ since: new Date(Date.now() + 60_000).toISOString() }, { since: 'yesterday' }, {}]) {
      const res = await t.post(path, { token: seeded.owner.token, body });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('since');
    }
    expect((await t.post(path, { token: seeded.agent.token, body: { since: String(Date.now()) } })).status).toBe(403);
    const other = await project();
    expect((await t.post(`/v3/${other}/subscriptions/${sub._id}/recover`, { token: seeded.owner.token, body: { since: String(Date.now()) } })).status).toBe(404);
    await t.put(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token, body: { enabled: false } });
    expect((await t.post(path, { token: seeded.owner.token, body: { since: String(Date.now()) } })).status).toBe(409);
  });
});

/** The Standard Webhooks v1a check a receiver makes: ed25519 over `id.timestamp.body` with the `whpk_` key. */
function verifyV1a(publicKey: string, got: { body: string; headers: Record<string, unknown> }) {
  const raw = Buffer.from(publicKey.replace(/^whpk_/, ''), 'base64');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  const message = Buffer.from(`${got.headers['webhook-id']}.${got.headers['webhook-timestamp']}.${got.body}`);
  return String(got.headers['webhook-signature'])
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => verifySignature(null, message, key, Buffer.from(s.slice(4), 'base64')));
}

describe('ed25519 signatures (signing: "ed25519")', () => {
  it('answers a whpk_ public key and no shared secret; deliveries carry v1a signatures that verify with it', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, r.url, { signing: 'ed25519' });
    expect(sub).toMatchObject({ signing: 'ed25519', signingSecret: null, publicKey: expect.stringMatching(/^whpk_[A-Za-z0-9+/]{43}=$/) });
    await lead(projectId);
    const [got] = await r.waitFor(1);
    expect(String(got.headers['webhook-signature'])).toMatch(/^v1a,[A-Za-z0-9+/=]+$/);
    expect(verifyV1a(sub.publicKey!, got as never)).toBe(true);
    // Another key, or a changed body, does not verify.
    const other = await subscribe(projectId, 'http://127.0.0.1:9/hook', { signing: 'ed25519' });
    expect(verifyV1a(other.publicKey!, got as never)).toBe(false);
    expect(verifyV1a(sub.publicKey!, { ...got, body: got.body.replace('Lin', 'Eve') } as never)).toBe(false);
    // The public key is shown on reads too (it is no secret).
    expect((await t.get(`/v3/${projectId}/subscriptions/${sub._id}`, { token: seeded.owner.token })).body.publicKey).toBe(sub.publicKey);
  });

  it('stays ed25519 through a rotation, signing with both keys for the overlap', async () => {
    const projectId = await project();
    const r = await receiver();
    const sub = await subscribe(projectId, r.url, { signing: 'ed25519' });
    const rotated = await t.post(`/v3/${projectId}/subscriptions/${sub._id}/rotate`, { token: seeded.owner.token });
    expect(rotated.body).toMatchObject({ signing: 'ed25519', signingSecret: null });
    expect(rotated.body.publicKey).not.toBe(sub.publicKey);
    await lead(projectId);
    const [got] = await r.waitFor(1);
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyV1a(sub.publicKey!, got as never)).toBe(true);
    expect(verifyV1a(rotated.body.publicKey, got as never)).toBe(true);
  });

  it('refuses a signing scheme it does not know (400 naming signing)', async () => {
    const projectId = await project();
    const res = await t.post(`/v3/${projectId}/subscriptions`, { token: seeded.owner.token, body: { event: 'lead.create', target: 'http://127.0.0.1:9/', signing: 'rsa' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('signing');
  });
});

describe('GET /v3/webhooks/events', () => {
  it('lists every event a subscription may ask for, with a JSON Schema of its body, to any signed-in caller', async () => {
    const res = await t.get('/v3/webhooks/events', { token: seeded.guest.token });
    expect(res.status).toBe(200);
    const names = res.body.map((e: { event: string }) => e.event);
    expect(names).toEqual(expect.arrayContaining(['message.create', 'request.create', 'lead.create', 'subscription.disabled', 'event.emit']));
    const message = res.body.find((e: { event: string }) => e.event === 'message.create');
    expect(message.schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', required: ['timestamp', 'payload', 'hook'] });
    expect(message.description).toMatch(/message/i);
    expect((await t.get('/v3/webhooks/events')).status).toBe(401);
  });

  it('is the webhookEvents query over GraphQL', async () => {
    const res = await t.gql('{ webhookEvents { event } }', {}, seeded.agent.token);
    expect(res.body.data.webhookEvents.length).toBeGreaterThan(10);
  });
});

describe.skipIf(!productionMode)('throttle across nodes', () => {
  it('paces deliveries handled by two nodes to the subscription\'s rate together', async () => {
    const overrides = { OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms' };
    const a = await createTestServer(overrides);
    const b = await createTestServer(overrides, { databaseUrl: a.config.databaseUrl, prefix: a.config.redisPrefix });
    try {
      const r = await receiver();
      const times: number[] = [];
      r.respond(() => (times.push(Date.now()), { status: 200 }));
      const owner = await a.client.newUser('owner');
      const projectId = (await a.client.post('/v3/projects', { token: owner.token, body: { name: 'Paced' } })).body._id as string;
      const sub = await a.client.post(`/v3/${projectId}/subscriptions`, { token: owner.token, body: { event: 'lead.create', target: r.url, throttle: 4 } });
      expect(sub.status).toBe(200);
      for (let i = 0; i < 8; i++) {
        const node = i % 2 ? b.client : a.client;
        await node.services.infra.eventLog.transaction(async (tx, emit) => {
          const created = await tx.lead.create({ data: { id_project: projectId, fullname: `n${i}`, createdBy: 'test' } });
          await emit({ projectId, name: 'lead.create', subject: created.id });
        });
      }
      await r.waitFor(8, 20_000);
      expect(times[7] - times[0]).toBeGreaterThanOrEqual(1500);
    } finally {
      await b.client.close();
      await a.client.close();
    }
  });
});
