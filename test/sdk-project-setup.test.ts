import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { sdkCall, sdkClient, sdkStatus } from './helpers/sdk.js';

// What the official SDK's setup and lookup calls get: teammates by user, departments, intents, events.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('SDK setup');
});
afterAll(() => t.close());

const asOwner = () => sdkClient(t.baseUrl, p.projectId, p.owner.token);

describe('getProjectUser (GET /project_users/users/:user_id)', () => {
  it('answers an array holding the one teammate of that user', async () => {
    const found = await sdkCall<any[]>(asOwner(), 'getProjectUser', p.agent.userId);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ _id: p.agent.teammateId, role: 'agent', id_user: { _id: p.agent.userId } });
  });

  it('fails with 404 for a user who is not a member', async () => {
    const stranger = await t.newUser('stranger');
    const error = await sdkCall(asOwner(), 'getProjectUser', stranger.user._id).catch((e) => e);
    expect(sdkStatus(error)).toBe(404);
  });

  it('stays a single teammate over GraphQL', async () => {
    const res = await t.gql(
      'query($p: String!, $u: String!) { teammateByUser(project_id: $p, user_id: $u) { _id role } }',
      { p: p.projectId, u: p.agent.userId },
      p.owner.token,
    );
    expect(res.body.data.teammateByUser).toEqual({ _id: p.agent.teammateId, role: 'agent' });
  });
});

describe('createDepartment', () => {
  it('stores and returns routing null when the client sends null', async () => {
    const created = await sdkCall<any>(asOwner(), 'createDepartment', 'Null routing', null, undefined, undefined);
    expect(created).toMatchObject({ name: 'Null routing', routing: null });
    const read = await t.get(`/v3/${p.projectId}/departments/${created._id}`, { token: p.owner.token });
    expect(read.body.routing).toBeNull();
  });

  it('defaults routing to pooled when the client leaves it out', async () => {
    const created = await sdkCall<any>(asOwner(), 'createDepartment', 'Default routing', undefined, undefined, undefined);
    expect(created.routing).toBe('pooled');
  });

  it('routes a request of a null-routing department as pooled', async () => {
    const dept = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Pool by null', routing: null } });
    const requestId = `support-group-${crypto.randomUUID()}`;
    const sent = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, {
      token: p.guest.token,
      body: { text: 'hello', departmentid: dept.body._id },
    });
    expect(sent.body.request).toMatchObject({ status: 100, assignment_reason: 'pooled' });
  });

  it('clears routing to null on PATCH over REST, as over GraphQL', async () => {
    const dept = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Assigned', routing: 'assigned' } });
    const patched = await t.patch(`/v3/${p.projectId}/departments/${dept.body._id}`, { token: p.owner.token, body: { routing: null } });
    expect(patched.body).toMatchObject({ routing: null, name: 'Assigned' });
  });
});

describe('getIntents (GET /faq)', () => {
  it('answers every match when limit is 0', async () => {
    const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Many', template: 'blank' } });
    for (let i = 0; i < 45; i++) {
      await t.post(`/v3/${p.projectId}/faq`, {
        token: p.admin.token,
        body: { id_faq_kb: bot.body._id, intent_display_name: `q${i}`, question: `question ${i}`, answer: 'a' },
      });
    }
    const all = await sdkCall<any[]>(asOwner(), 'getIntents', bot.body._id, null, 0, 0, null);
    expect(all).toHaveLength(47); // the blank template's start and fallback intents, and ours
    const firstPage = await sdkCall<any[]>(asOwner(), 'getIntents', bot.body._id, null, 0, null, null);
    expect(firstPage).toHaveLength(40);
  });

  it('still refuses a negative limit (400 naming limit)', async () => {
    const res = await t.get(`/v3/${p.projectId}/faq?limit=-1`, { token: p.owner.token });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('limit');
  });
});

describe('fireEvent (POST /events)', () => {
  it('stores and echoes a platform event name with the creator\'s teammate object', async () => {
    const visitor = sdkClient(t.baseUrl, p.projectId, p.guest.token);
    const event = await sdkCall<any>(visitor, 'fireEvent', { name: 'faqbot.answer_not_found', attributes: { question: 'refunds?' } });
    expect(event).toMatchObject({
      name: 'faqbot.answer_not_found',
      attributes: { question: 'refunds?' },
      project_user: { _id: p.guest.teammateId, role: 'guest' },
    });
  });
});
