import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, send } from './helpers/conversations.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Private');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const db = () => t.infra.database.prisma;

/** A visitor (a guest of their own) with two conversations and the lead they make. */
async function visitorWithConversations(project = p) {
  const visitor = await t.post('/v3/auth/signinAnonymously', { body: { id_project: project.projectId, firstname: 'Dana' } });
  const token = visitor.body.token as string;
  const requests = [newRequestId(), newRequestId()];
  for (const requestId of requests) {
    expect((await send(t, project.projectId, token, requestId, { text: `my card was charged twice ${requestId}` })).status).toBe(200);
    expect((await send(t, project.projectId, project.admin.token, requestId, { text: 'we will refund it' })).status).toBe(200);
  }
  const row = await db().request.findFirst({ where: { id_project: project.projectId, request_id: requests[0] } });
  const leadId = row!.leadId!;
  await db().request.update({ where: { id_project_request_id: { id_project: project.projectId, request_id: requests[1] } }, data: { leadId } });
  return { token, requests, leadId, userId: visitor.body.user._id as string };
}

describe('GET /leads/:lead_id/export', () => {
  it('gives the lead, their conversations and every message as JSON, and audits it', async () => {
    const v = await visitorWithConversations();
    const res = await t.get(`/v3/${p.projectId}/leads/${v.leadId}/export`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.lead.id).toBe(v.leadId);
    expect(res.body.requests.map((r: { request_id: string }) => r.request_id).sort()).toEqual([...v.requests].sort());
    expect(res.body.messages).toHaveLength(4);
    expect(res.body.messages.map((m: { text: string }) => m.text)).toContain(`my card was charged twice ${v.requests[0]}`);
    const audit = await t.get(`/v3/${p.projectId}/audit?action=lead.export&target=${v.leadId}`, { token: p.admin.token });
    expect(audit.body[0]).toMatchObject({ actor: { id: p.admin.userId } });
  });

  it('refuses agents with 403 and another project\'s admin with 403', async () => {
    const v = await visitorWithConversations();
    expect((await t.get(`/v3/${p.projectId}/leads/${v.leadId}/export`, { token: p.agent.token })).status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/leads/${v.leadId}/export`, { token: other.admin.token })).status).toBe(403);
  });

  it('answers 404 for another project\'s lead through this project', async () => {
    const theirs = await visitorWithConversations(other);
    expect((await t.get(`/v3/${p.projectId}/leads/${theirs.leadId}/export`, { token: p.admin.token })).status).toBe(404);
  });
});

describe('DELETE /leads/:lead_id?erase=true', () => {
  it('removes the lead, their conversations and messages, and audits the erasure', async () => {
    const v = await visitorWithConversations();
    const res = await t.delete(`/v3/${p.projectId}/leads/${v.leadId}?erase=true`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect((await t.get(`/v3/${p.projectId}/leads/${v.leadId}`, { token: p.admin.token })).status).toBe(404);
    for (const requestId of v.requests) {
      expect((await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).status).toBe(404);
      expect(await db().message.count({ where: { id_project: p.projectId, request_id: requestId } })).toBe(0);
    }
    const audit = await t.get(`/v3/${p.projectId}/audit?action=lead.erase&target=${v.leadId}`, { token: p.admin.token });
    expect(audit.body[0]).toMatchObject({ actor: { id: p.admin.userId }, details: { requests: 2, messages: 4 } });
  });

  it('removes the files uploaded in their conversations, records and bytes', async () => {
    const v = await visitorWithConversations();
    const form = new FormData();
    form.append('file', new Blob(['private scan'], { type: 'text/plain' }), 'scan.txt');
    const upload = await t.post(`/v3/${p.projectId}/files`, { token: v.token, body: form });
    expect(upload.status).toBe(200);
    const path = await db().storedFile.findFirst({ where: { id_project: p.projectId, createdBy: v.userId } });
    expect(path).not.toBeNull();
    expect((await t.delete(`/v3/${p.projectId}/leads/${v.leadId}?erase=true`, { token: p.admin.token })).status).toBe(200);
    expect(await db().storedFile.findUnique({ where: { id: path!.id } })).toBeNull();
    expect(await t.infra.files.exists?.(path!.path) ?? false).toBe(false);
  });

  it('removes the phrasings the knowledge base learned from their words', async () => {
    const v = await visitorWithConversations();
    const kb = await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Help' } });
    const namespace = kb.body.id;
    const content = await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace, type: 'faq', content: 'Was I charged twice?\nDouble charges are refunded in five days.' } });
    const contentId = content.body.value._id;
    const question = `my card was charged twice ${v.requests[0]}`;
    const learned = await t.post(`/v3/${p.projectId}/kb/qa/feedback`, { token: p.admin.token, body: { namespace, question, id: contentId, helpful: true } });
    if (learned.status !== 200) return expect.fail(`learning setup: ${learned.status} ${JSON.stringify(learned.body)}`);
    expect(await db().kbPhrasing.count({ where: { id_project: p.projectId, question } })).toBe(1);
    expect((await t.delete(`/v3/${p.projectId}/leads/${v.leadId}?erase=true`, { token: p.admin.token })).status).toBe(200);
    expect(await db().kbPhrasing.count({ where: { id_project: p.projectId, question } })).toBe(0);
  });

  it('is refused to agents with 403, and nothing is removed', async () => {
    const v = await visitorWithConversations();
    expect((await t.delete(`/v3/${p.projectId}/leads/${v.leadId}?erase=true`, { token: p.agent.token })).status).toBe(403);
    expect(await db().request.count({ where: { id_project: p.projectId, leadId: v.leadId } })).toBe(2);
    expect((await t.get(`/v3/${p.projectId}/leads/${v.leadId}`, { token: p.admin.token })).status).toBe(200);
  });

  it('cannot erase another project\'s lead: 404, and nothing is removed there', async () => {
    const theirs = await visitorWithConversations(other);
    expect((await t.delete(`/v3/${p.projectId}/leads/${theirs.leadId}?erase=true`, { token: p.admin.token })).status).toBe(404);
    expect(await db().request.count({ where: { id_project: other.projectId, leadId: theirs.leadId } })).toBe(2);
  });

  it('answers 400 for an erase flag that is no boolean', async () => {
    const v = await visitorWithConversations();
    const res = await t.delete(`/v3/${p.projectId}/leads/${v.leadId}?erase=maybe`, { token: p.admin.token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_USER_INPUT');
    expect(await db().request.count({ where: { id_project: p.projectId, leadId: v.leadId } })).toBe(2);
  });

  it('is served over GraphQL', async () => {
    const v = await visitorWithConversations();
    const res = await t.gql(`mutation($p: String!, $id: String!) { deleteLead(project_id: $p, id: $id, erase: true) { id } }`, { p: p.projectId, id: v.leadId }, p.admin.token);
    expect(res.body.errors).toBeUndefined();
    expect(await db().request.count({ where: { id_project: p.projectId, leadId: v.leadId } })).toBe(0);
  });
});
