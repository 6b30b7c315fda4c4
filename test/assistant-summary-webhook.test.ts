import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, send } from './helpers/conversations.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

// A summary leaves the platform with the request: request.update webhooks carry it.

let t: TestApp;
let p: SeededProject;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms' });
  p = await t.seedProject('Summary hooks');
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

it('sends the new summary in a request.update webhook', async () => {
  const requestId = newRequestId();
  await send(t, p.projectId, p.guest.token, requestId, { text: 'My parcel arrived broken, the screen is cracked.' });
  const hook = await t.post(`/v3/${p.projectId}/subscriptions`, { token: p.owner.token, body: { event: 'request.update', target: `${receiver.url}/hook` } });
  expect(hook.status).toBe(200);
  const made = await t.post(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: p.admin.token });
  expect(made.status).toBe(200);
  const deliveries = await receiver.waitFor(1, 20_000);
  const withSummary = deliveries.map((d) => JSON.stringify(d.json)).find((body) => body.includes('the screen is cracked'));
  expect(withSummary).toBeDefined();
  expect(withSummary).toContain(JSON.stringify(made.body.summary));
});
