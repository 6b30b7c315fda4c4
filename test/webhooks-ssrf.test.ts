import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, startReceiver, type Receiver } from './helpers/webhook-receiver.js';

// With the default outbound policy (OUTBOUND_ALLOW_PRIVATE unset) a target resolving to a
// loopback, private, link-local or metadata address is refused before any packet is sent: the
// delivery fails at once, without retries, and the refusal is in its log.

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

describe('webhook targets refused by the outbound policy', () => {
  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${receiver.port}/hook`],
    ['localhost', () => `http://localhost:${receiver.port}/hook`],
    ['a decimal IP (2130706433)', () => `http://2130706433:${receiver.port}/hook`],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${receiver.port}/hook`],
    ['the metadata address 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'http://192.168.0.10/hook'],
  ])('%s', async (_label, target) => {
    const { projectId } = seeded;
    const created = await t.post(`/v3/${projectId}/subscriptions`, {
      token: seeded.owner.token,
      body: { event: 'lead.create', target: target() },
    });
    expect(created.status).toBe(200);
    const subscriptionId = created.body._id;
    await t.services.infra.eventLog.transaction(async (tx, emit) => {
      const lead = await tx.lead.create({ data: { id_project: projectId, createdBy: 'test' } });
      await emit({ projectId, name: 'lead.create', subject: lead.id });
    });
    const delivery = await eventually(async () => {
      const res = await t.get(`/v3/${projectId}/subscriptions/${subscriptionId}/deliveries`, { token: seeded.owner.token });
      return res.body.deliveries[0]?.status === 'failed' && res.body.deliveries[0];
    });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/^refused: /) });
    expect(receiver.received).toHaveLength(0);
    await t.delete(`/v3/${projectId}/subscriptions/${subscriptionId}`, { token: seeded.owner.token });
  });
});
