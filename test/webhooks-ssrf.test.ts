import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { watchConnections } from './helpers/connections.js';
import { eventually, startReceiver, type Receiver } from './helpers/webhook-receiver.js';

// With the default outbound policy (OUTBOUND_ALLOW_PRIVATE unset) a target resolving to anything but
// a globally routable unicast address is refused when a subscription is saved (400 naming `target`,
// with the reason), and again before any connection is attempted at each send: a target that turns
// non-public later (its name now resolving elsewhere) fails its delivery at once, without retries,
// with the refusal in its log. test/outbound.test.ts classifies every special-purpose range.

let t: TestApp;
let seeded: SeededProject;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '50ms,100ms', WEBHOOK_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms' });
  seeded = await t.seedProject();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/**
 * Every socket the process opens while a test runs (the app runs in it): a connection to anything
 * but 127.0.0.1 is recorded and stopped before it is made, so even a regression sends no packet.
 */
let watch: ReturnType<typeof watchConnections>;
let attempts: string[] = [];
beforeEach(() => {
  watch = watchConnections();
  attempts = watch.attempts;
});
afterEach(() => watch.stop());

/** Connection attempts towards the target: the database and Redis (production mode) are on other ports of 127.0.0.1. */
const towardsTargets = () => attempts.filter((a) => !a.startsWith('127.0.0.1:') || a === `127.0.0.1:${receiver.port}`);

const refusedTargets: Array<[string, () => string, RegExp]> = [
  ['127.0.0.1', () => `http://127.0.0.1:${receiver.port}/hook`, /127\.0\.0\.1 is loopback/],
  ['localhost', () => `http://localhost:${receiver.port}/hook`, /localhost resolves to a non-public address \((127\.0\.0\.1|::1): .* is loopback\)/],
  ['a decimal IP (2130706433)', () => `http://2130706433:${receiver.port}/hook`, /127\.0\.0\.1 is loopback/],
  ['an octal IP (0177.0.0.1)', () => `http://0177.0.0.1:${receiver.port}/hook`, /127\.0\.0\.1 is loopback/],
  ['a hex IP (0x7f000001)', () => `http://0x7f000001:${receiver.port}/hook`, /127\.0\.0\.1 is loopback/],
  ['IPv6 loopback', () => `http://[::1]:${receiver.port}/hook`, /loopback/],
  ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${receiver.port}/hook`, /ipv4Mapped of 127\.0\.0\.1 is loopback/],
  ['an IPv4-translated IPv6 loopback (::ffff:0:127.0.0.1)', () => `http://[::ffff:0:127.0.0.1]:${receiver.port}/hook`, /127\.0\.0\.1 is loopback/],
  ['a 6to4 address of loopback (2002:7f00:1::1)', () => `http://[2002:7f00:1::1]:${receiver.port}/hook`, /6to4 of 127\.0\.0\.1 is loopback/],
  ['a NAT64 address of loopback', () => `http://[64:ff9b::127.0.0.1]:${receiver.port}/hook`, /127\.0\.0\.1 is loopback/],
  ['a Teredo address with a loopback client', () => `http://[2001:0:808:808::80ff:fffe]:${receiver.port}/hook`, /teredo of 127\.0\.0\.1 is loopback/],
  ['the metadata address 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is linkLocal/],
  ['the IPv6 metadata address', () => 'http://[fd00:ec2::254]/latest/meta-data/', /uniqueLocal/],
  ['a private address', () => 'http://192.168.0.10/hook', /192\.168\.0\.10 is private/],
];

describe('webhook targets refused by the outbound policy', () => {
  it.each(refusedTargets)('%s is refused at creation with the reason', async (_label, target, reason) => {
    const res = await t.post(`/v3/${seeded.projectId}/subscriptions`, { token: seeded.owner.token, body: { event: 'lead.create', target: target() } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'target', message: expect.stringMatching(/^target: refused: .*non-public address/) });
    expect(res.body.message).toMatch(reason);
    expect(towardsTargets()).toEqual([]);
  });

  it('refuses a refused target on update too, and the subscription keeps its target', async () => {
    const created = await t.post(`/v3/${seeded.projectId}/subscriptions`, { token: seeded.owner.token, body: { event: 'lead.create', target: 'https://example.com/hook' } });
    expect(created.status).toBe(200);
    const res = await t.put(`/v3/${seeded.projectId}/subscriptions/${created.body._id}`, { token: seeded.owner.token, body: { target: 'http://127.0.0.1/hook' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'target', message: 'target: refused: 127.0.0.1 resolves to a non-public address (127.0.0.1: 127.0.0.1 is loopback)' });
    const kept = await t.get(`/v3/${seeded.projectId}/subscriptions/${created.body._id}`, { token: seeded.owner.token });
    expect(kept.body.target).toBe('https://example.com/hook');
    await t.delete(`/v3/${seeded.projectId}/subscriptions/${created.body._id}`, { token: seeded.owner.token });
  });

  it('refuses it over GraphQL with the same code, field and reason', async () => {
    const res = await t.gql(
      'mutation($p: String!, $t: String) { createWebhookSubscription(project_id: $p, event: "lead.create", target: $t) { id } }',
      { p: seeded.projectId, t: 'http://[::1]/hook' },
      seeded.owner.token,
    );
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'target' });
    expect(res.body.errors?.[0].message).toMatch(/^target: refused: .*is loopback/);
  });

  it.each(refusedTargets.slice(0, 3))('%s, reached after the subscription was saved, fails its delivery at once with the refusal logged', async (_label, target) => {
    const { projectId } = seeded;
    const created = await t.post(`/v3/${projectId}/subscriptions`, {
      token: seeded.owner.token,
      body: { event: 'lead.create', target: 'https://example.com/hook' },
    });
    expect(created.status).toBe(200);
    const subscriptionId = created.body._id;
    // As if its name now resolved to that address (DNS rebinding): every send checks again.
    await t.infra.database.prisma.subscription.update({ where: { id: subscriptionId }, data: { target: target() } });
    try {
      await t.services.infra.eventLog.transaction(async (tx, emit) => {
        const lead = await tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } });
        await emit({ projectId, name: 'lead.create', subject: lead.id });
      });
      const delivery = await eventually(async () => {
        const res = await t.get(`/v3/${projectId}/subscriptions/${subscriptionId}/deliveries`, { token: seeded.owner.token });
        return res.body.deliveries[0]?.status === 'failed' && res.body.deliveries[0];
      });
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/^refused: .*non-public address/), at: expect.any(String) });
      expect(Date.parse(delivery.attempts[0].at)).not.toBeNaN();
      expect(towardsTargets()).toEqual([]);
      expect(receiver.received).toHaveLength(0);
    } finally {
      // Its deliveries go with it, so a failure here leaves no retries to the next test.
      await t.delete(`/v3/${projectId}/subscriptions/${subscriptionId}`, { token: seeded.owner.token });
    }
  });
});
