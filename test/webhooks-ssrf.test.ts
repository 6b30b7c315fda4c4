import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { watchConnections } from './helpers/connections.js';
import { eventually, startReceiver, type Receiver } from './helpers/webhook-receiver.js';

// With the default outbound policy (OUTBOUND_ALLOW_PRIVATE unset) a target resolving to anything but
// a globally routable unicast address is refused before any connection is attempted: the delivery
// fails at once, without retries, and the refusal is in its log. test/outbound.test.ts classifies
// every special-purpose range; here each notation goes through a real delivery.

let t: TestApp;
let seeded: SeededProject;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '50ms,100ms', WEBHOOK_SWEEP_INTERVAL: '200ms' });
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

describe('webhook targets refused by the outbound policy', () => {
  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${receiver.port}/hook`],
    ['localhost', () => `http://localhost:${receiver.port}/hook`],
    ['a decimal IP (2130706433)', () => `http://2130706433:${receiver.port}/hook`],
    ['an octal IP (0177.0.0.1)', () => `http://0177.0.0.1:${receiver.port}/hook`],
    ['a hex IP (0x7f000001)', () => `http://0x7f000001:${receiver.port}/hook`],
    ['IPv6 loopback', () => `http://[::1]:${receiver.port}/hook`],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${receiver.port}/hook`],
    ['an IPv4-translated IPv6 loopback (::ffff:0:127.0.0.1)', () => `http://[::ffff:0:127.0.0.1]:${receiver.port}/hook`],
    ['a 6to4 address of loopback (2002:7f00:1::1)', () => `http://[2002:7f00:1::1]:${receiver.port}/hook`],
    ['a NAT64 address of loopback', () => `http://[64:ff9b::127.0.0.1]:${receiver.port}/hook`],
    ['a Teredo address with a loopback client', () => `http://[2001:0:808:808::80ff:fffe]:${receiver.port}/hook`],
    ['the metadata address 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
    ['the IPv6 metadata address', () => 'http://[fd00:ec2::254]/latest/meta-data/'],
    ['a private address', () => 'http://192.168.0.10/hook'],
  ])('%s', async (_label, target) => {
    const { projectId } = seeded;
    const created = await t.post(`/v3/${projectId}/subscriptions`, {
      token: seeded.owner.token,
      body: { event: 'lead.create', target: target() },
    });
    expect(created.status).toBe(200);
    const subscriptionId = created.body._id;
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
      expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/^refused: .*non-public address/) });
      expect(towardsTargets()).toEqual([]);
      expect(receiver.received).toHaveLength(0);
    } finally {
      // Its deliveries go with it, so a failure here leaves no retries to the next test.
      await t.delete(`/v3/${projectId}/subscriptions/${subscriptionId}`, { token: seeded.owner.token });
    }
  });
});
