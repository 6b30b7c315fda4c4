import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';

// Triage that applies itself: with `settings.assistant.auto_tag_threshold`, the top suggested tag
// is put on a conversation from the visitor's first messages when its score reaches the threshold.

let t: TestApp;
let p: SeededProject;
let off: SeededProject;

async function resolved(project: SeededProject, question: string, answer: string, tag: string) {
  const requestId = newRequestId();
  expect((await send(t, project.projectId, project.guest.token, requestId, { text: question })).status).toBe(200);
  expect((await send(t, project.projectId, project.admin.token, requestId, { text: answer })).status).toBe(200);
  expect((await t.put(`/v3/${project.projectId}/requests/${requestId}/tag`, { token: project.admin.token, body: { tag } })).status).toBe(200);
  expect((await t.put(`/v3/${project.projectId}/requests/${requestId}/close`, { token: project.admin.token })).status).toBe(200);
}

async function teach(project: SeededProject) {
  await resolved(project, 'Where is my parcel? It has not arrived', 'Parcels ship within two days.', 'shipping');
  await resolved(project, 'My parcel still has not arrived', 'It is on its way.', 'shipping');
  await resolved(project, 'How do I reset my password?', 'Use the reset link.', 'account');
  await eventually(() => consumerCaughtUp(t, 'assistant-history', project.projectId), 20_000);
}

const settings = (project: SeededProject, value: unknown) =>
  t.put(`/v3/projects/${project.projectId}`, { token: project.owner.token, body: { settings: { assistant: { auto_tag_threshold: value } } } });

async function asked(project: SeededProject, text: string) {
  const requestId = newRequestId();
  expect((await send(t, project.projectId, project.guest.token, requestId, { text })).status).toBe(200);
  await eventually(() => consumerCaughtUp(t, 'assistant-auto-tag', project.projectId), 20_000);
  return (await t.get(`/v3/${project.projectId}/requests/${requestId}`, { token: project.admin.token })).body;
}

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Auto tags');
  off = await t.seedProject('Auto tags off');
  await Promise.all([teach(p), teach(off)]);
  expect((await settings(p, 0.6)).status).toBe(200);
});
afterAll(() => t.close());

describe('settings.assistant.auto_tag_threshold', () => {
  it("puts the top suggested tag on the visitor's first message when it reaches the threshold", async () => {
    const request = await asked(p, 'my parcel has not arrived yet');
    expect(request.tags).toEqual([expect.objectContaining({ tag: 'shipping', auto: true })]);
  });

  it('puts no tag below the threshold', async () => {
    expect((await settings(p, 1)).status).toBe(200);
    try {
      const request = await asked(p, 'parcel password');
      expect(request.tags ?? []).toEqual([]);
    } finally {
      await settings(p, 0.6);
    }
  });

  it('puts no tag when the project did not ask for it', async () => {
    const request = await asked(off, 'my parcel has not arrived yet');
    expect(request.tags ?? []).toEqual([]);
  });

  it('leaves a conversation an agent already answered to the agent', async () => {
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Hello' });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'Hi, how can I help?' });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'my parcel has not arrived yet' });
    await eventually(() => consumerCaughtUp(t, 'assistant-auto-tag', p.projectId), 20_000);
    const request = (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).body;
    expect(request.tags ?? []).toEqual([]);
  });

  it('refuses a threshold outside 0 to 1 with 400 naming it, storing nothing', async () => {
    const res = await settings(p, 2);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'settings.assistant.auto_tag_threshold' });
    const project = await t.get(`/v3/projects/${p.projectId}`, { token: p.owner.token });
    expect(project.body.settings.assistant.auto_tag_threshold).toBe(0.6);
  });
});
